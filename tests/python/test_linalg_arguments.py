"""numpy.linalg's argument checks and keyword conventions that gpupy once missed (found by
tools/fuzz_numpy.py's linalg3 family), each compared with NumPy itself."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

M = np.array([[4.0, 1.0 - 2.0j, 0.5j], [3.0 + 1.0j, 5.0, 2.0], [-1.0j, 1.5, 6.0]])


@pytest.mark.parametrize("name", ["eigh", "eigvalsh"])
@pytest.mark.parametrize("uplo", ["L", "U", "l", "u"])
@testing.numpy_gpupy_allclose(rtol=1e-10, atol=1e-10)
def test_eigh_takes_uplo_in_either_case(name, uplo, xp):
    r = getattr(xp.linalg, name)(xp.asarray(M), UPLO=uplo)
    return r if name == "eigvalsh" else r.eigenvalues


@pytest.mark.parametrize("name", ["eigh", "eigvalsh"])
@pytest.mark.parametrize("shape", [(3,), (3, 1), (2, 2, 3)])
@pytest.mark.parametrize("dtype", ["float64", "float16"])
@pytest.mark.parametrize("uplo", ["L", "U"])
@testing.numpy_gpupy_raises()
def test_eigh_checks_the_square_before_the_dtype(name, shape, dtype, uplo, xp):
    # LinAlgError (not float16's TypeError); gpupy's UPLO='U' rebuilt a (3, 3) from a (3, 1)
    return getattr(xp.linalg, name)(xp.ones(shape, dtype=dtype), UPLO=uplo)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
@testing.numpy_gpupy_allclose(rtol=1e-10, atol=1e-10)
def test_pinv_hermitian_reads_the_lower_triangle(dtype, xp):
    # NumPy's hermitian=True takes the matrix from its lower triangle (eigh), as gpupy now does
    a = M if dtype == "complex128" else M.real
    return xp.linalg.pinv(xp.asarray(a), hermitian=True)


@pytest.mark.parametrize("shape", [(3, 2), (0, 3, 2), (2, 3, 1)])
@testing.numpy_gpupy_raises()
def test_pinv_hermitian_needs_square_matrices(shape, xp):
    return xp.linalg.pinv(xp.ones(shape), hermitian=True)


@pytest.mark.parametrize("shape", [(0, 0, 0), (2, 0, 0), (0, 0)])
@pytest.mark.parametrize("hermitian", [False, True])
@testing.numpy_gpupy_allclose()
def test_matrix_rank_of_empty_matrices(shape, hermitian, xp):
    return xp.linalg.matrix_rank(xp.zeros(shape), hermitian=hermitian)


@pytest.mark.parametrize("values", [[0.0, 0.0], [0.0, 2.0], []])
def test_matrix_rank_of_a_vector_is_a_python_int(values):
    expected = np.linalg.matrix_rank(np.array(values))
    got = gpupy.linalg.matrix_rank(gpupy.asarray(np.array(values)))
    assert type(got) is int and got == expected


@testing.numpy_gpupy_allclose()
def test_matrix_rank_rtol_per_matrix(xp):
    # one rtol per matrix of the stack (gpupy broadcast them across the singular values)
    a = xp.asarray(np.stack([np.diag([1.0, 1e-3, 1e-6]), np.diag([1.0, 1e-1, 1e-2])]))
    return xp.linalg.matrix_rank(a, rtol=xp.asarray([1e-4, 0.5]), hermitian=True)
