"""gpupy.linalg (the Array API extension) against numpy.linalg on the selected device: the
factorizations, solvers, norms and their errors (devices, multi_dot, tensor functions and NumPy's
signatures are in test_linalg_ext_api.py)."""

import gpupy
import numpy as np
import pytest
from gpupy import testing
from linalg_helpers import FLOATS, RTOL64, _data, _rtol, _spd

SHAPES = [(4, 4), (3, 5, 5), (2, 1, 3, 3)]


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(FLOATS)
def test_inv_det_slogdet_solve(dtype, shape):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), accept_error=True)
    def body(xp):
        a = xp.asarray(_spd(shape, dtype, 1))
        b = xp.asarray(_data(shape, dtype, 2))
        sign, logabs = xp.linalg.slogdet(a)
        return xp.linalg.inv(a), xp.linalg.det(a), sign, logabs, xp.linalg.solve(a, b)

    body()


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(FLOATS)
def test_cholesky_eigh_eigvalsh(dtype, shape):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        a = xp.asarray(_spd(shape, dtype, 3))
        w, v = xp.linalg.eigh(a)
        # Eigenvectors are unique up to a phase; compare the projector onto each one.
        proj = v[..., :, :1] @ xp.conj(xp.matrix_transpose(v[..., :, :1]))
        lower = xp.linalg.cholesky(a)
        upper = xp.linalg.cholesky(a, upper=True)
        return lower, upper, w, proj, xp.linalg.eigvalsh(a)

    body()


@pytest.mark.parametrize("shape", [(4, 4), (3, 5, 3), (2, 3, 6)])
@pytest.mark.parametrize("full", [True, False])
@testing.for_dtypes(FLOATS)
def test_svd_svdvals_pinv_rank(dtype, shape, full):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        a = xp.asarray(_data(shape, dtype, 4))
        u, s, vh = xp.linalg.svd(a, full_matrices=full)
        # Singular vectors are unique up to a phase; the reconstruction is not.
        k = s.shape[-1]
        rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
        return rebuilt, s, xp.linalg.svdvals(a), xp.linalg.pinv(a), xp.linalg.matrix_rank(a)

    body()


@testing.numpy_gpupy_allclose(rtol=RTOL64)
def test_pinv_rank_with_array_rtol(xp):
    # rtol may be an array (one tolerance per matrix of the stack) on the arrays' device.
    a = _data((3, 4, 4), "float64", 5)
    a[1, :, 0] = a[1, :, 1]  # a rank-deficient matrix in the stack
    a = xp.asarray(a)
    rtol = xp.asarray(np.array([1e-12, 1e-3, 0.6]))
    return xp.linalg.matrix_rank(a, rtol=rtol), xp.linalg.pinv(a, rtol=rtol)


@pytest.mark.parametrize("mode", ["reduced", "complete"])
@testing.for_dtypes(FLOATS)
def test_qr(dtype, mode):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        a = xp.asarray(_data((2, 5, 3), dtype, 5))
        q, r = xp.linalg.qr(a, mode=mode)
        return q, r, q @ r

    body()


@pytest.mark.parametrize("ord", ["fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.for_dtypes(FLOATS)
def test_matrix_norm(dtype, ord, keepdims):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), accept_error=True)
    def body(xp):
        return xp.linalg.matrix_norm(
            xp.asarray(_data((3, 4, 5), dtype, 6)), keepdims=keepdims, ord=ord
        )

    body()


@pytest.mark.parametrize("ord", [2, 1, 0, 3, np.inf, -np.inf])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@testing.for_dtypes(FLOATS + ("int32",))
def test_vector_norm(dtype, ord, axis):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype))
    def body(xp):
        x = xp.asarray(_data((3, 4, 5), dtype, 7))
        return xp.linalg.vector_norm(x, axis=axis, ord=ord), xp.linalg.vector_norm(
            x, axis=axis, ord=ord, keepdims=True
        )

    body()


@testing.for_dtypes(FLOATS + ("int64",))
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_matrix_power_and_integers(dtype, xp):
    a = xp.asarray(_data((2, 3, 3), dtype, 8))
    return xp.linalg.matrix_power(a, 3), xp.linalg.matrix_power(a, 0), xp.linalg.matrix_power(a, 1)


@testing.for_dtypes(("int32", "int64"))
@testing.numpy_gpupy_allclose(rtol=1e-10)
def test_integer_inputs_become_float64(dtype, xp):
    a = xp.asarray(_spd((3, 3), "float64", 9).round().astype(dtype))
    return xp.linalg.inv(a), xp.linalg.det(a), xp.linalg.eigvalsh(a), xp.linalg.svdvals(a)


@testing.for_dtypes(FLOATS + ("int32",))
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_cross(dtype, xp):
    a = xp.asarray(_data((4, 3), dtype, 10))
    b = xp.asarray(_data((4, 3), dtype, 11))
    return xp.linalg.cross(a, b), xp.linalg.cross(
        xp.matrix_transpose(a), xp.matrix_transpose(b), axis=0
    )


@pytest.mark.parametrize("offset", [0, 1, -1, 2, -3, 7])
@testing.for_dtypes(FLOATS + ("int32", "bool"))
@testing.numpy_gpupy_allclose()
def test_diagonal_and_trace(dtype, offset, xp):
    x = xp.asarray(_data((2, 3, 4), dtype, 12))
    return xp.linalg.diagonal(x, offset=offset), xp.linalg.trace(x, offset=offset)


def test_diagonal_is_a_view(device_name):
    x = gpupy.asarray(np.arange(9.0).reshape(3, 3), device=device_name)
    d = gpupy.linalg.diagonal(x)
    assert d._same_buffer(x)
    assert d.device == x.device


@testing.for_dtypes(("int32", "float32"))
@testing.numpy_gpupy_allclose()
def test_trace_dtype(dtype, xp):
    x = xp.asarray(_data((3, 3), dtype, 13))
    return xp.linalg.trace(x, dtype="float64")


@testing.for_dtypes(FLOATS + ("int64",))
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_core_reexports(dtype, xp):
    a = xp.asarray(_data((2, 3, 4), dtype, 14))
    b = xp.asarray(_data((2, 4, 3), dtype, 15))
    v = xp.asarray(_data((4,), dtype, 16))
    return (
        xp.linalg.matmul(a, b),
        xp.linalg.matrix_transpose(a),
        xp.linalg.outer(v, v),
        xp.linalg.tensordot(a, b, axes=([1, 2], [2, 1])),
        xp.linalg.vecdot(a, a, axis=-1),
    )


@testing.for_dtypes(FLOATS)
def test_numpy_extras(dtype):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        a = xp.asarray(_spd((4, 4), dtype, 17))
        b = xp.asarray(_data((4, 2), dtype, 18))
        x, res, rank, sv = xp.linalg.lstsq(a, b)
        return (
            xp.linalg.norm(a),
            xp.linalg.norm(a, ord=1, axis=(0, 1)),
            xp.linalg.cond(a),
            x,
            rank,
            sv,
        )

    body()


@pytest.mark.parametrize("shape", [(4, 4), (2, 3, 3)])
@testing.for_dtypes(FLOATS)
def test_only_one_triangle_is_read(dtype, shape):
    # cholesky and eigh read the lower triangle (cholesky upper=True the upper one), as NumPy.
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-4, accept_error=True)
    def body(xp):
        clean = _spd(shape, dtype, 21)
        lower = xp.asarray(clean + np.triu(_data(shape, dtype, 22), 1))
        upper = xp.asarray(clean + np.tril(_data(shape, dtype, 23), -1))
        w, v = xp.linalg.eigh(lower)
        proj = v[..., :, -1:] @ xp.conj(xp.matrix_transpose(v[..., :, -1:]))
        return (
            xp.linalg.cholesky(lower),
            xp.linalg.cholesky(upper, upper=True),
            w,
            proj,
            xp.linalg.eigvalsh(lower),
        )

    body()


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)])
@testing.for_dtypes(FLOATS)
def test_general_square(dtype, shape):
    # Not symmetric, so a transposed reading of the row-major data would show.
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        a = xp.asarray(_data(shape, dtype, 24) + 3 * np.eye(shape[-1], dtype=dtype))
        b = xp.asarray(_data(shape[:-1] + (2,), dtype, 25))
        v = xp.asarray(_data(shape[-1:], dtype, 26))
        sign, logabs = xp.linalg.slogdet(a)
        return (
            xp.linalg.det(a),
            sign,
            logabs,
            xp.linalg.inv(a),
            xp.linalg.solve(a, b),
            xp.linalg.solve(a[..., :, :] if len(shape) == 2 else a[0], v),
            xp.linalg.matrix_power(a, -2),
            xp.linalg.matrix_power(a, 5),
            [xp.linalg.cond(a, p) for p in (None, 2, -2, 1, -1, np.inf, "fro", "nuc")],
        )

    body()


@testing.for_dtypes(FLOATS)
def test_solve_broadcasts_the_stack(dtype):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        a = xp.asarray(_spd((3, 1, 4, 4), dtype, 27))
        b = xp.asarray(_data((2, 4, 3), dtype, 28))
        return xp.linalg.solve(a, b)

    body()


@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (2, 6, 2), (2, 2, 3, 4), (4, 4)])
@testing.for_dtypes(FLOATS)
def test_wide_tall_and_batched_factorizations(dtype, shape):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-4, accept_error=True)
    def body(xp):
        a = xp.asarray(_data(shape, dtype, 29))
        out = [xp.linalg.svdvals(a), xp.linalg.pinv(a), xp.linalg.matrix_rank(a)]
        for full in (True, False):
            u, s, vh = xp.linalg.svd(a, full_matrices=full)
            k = s.shape[-1]
            # Unitary factors (shapes included) and the reconstruction; not the vectors' phases.
            out += [u.shape, vh.shape, (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]]
            out += [xp.conj(xp.matrix_transpose(u)) @ u, vh @ xp.conj(xp.matrix_transpose(vh))]
        for mode in ("reduced", "complete"):
            q, r = xp.linalg.qr(a, mode=mode)
            out += [q, r, q @ r]
        out.append(xp.linalg.qr(a, mode="r"))
        return out

    body()


@pytest.mark.parametrize("shape, rhs", [((6, 3), (6,)), ((6, 3), (6, 2)), ((3, 5), (3, 2))])
@testing.for_dtypes(FLOATS)
def test_lstsq_shapes(dtype, shape, rhs):
    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-4, accept_error=True)
    def body(xp):
        a = xp.asarray(_data(shape, dtype, 30))
        b = xp.asarray(_data(rhs, dtype, 31))
        return xp.linalg.lstsq(a, b)

    body()


@testing.for_dtypes(FLOATS)
@testing.numpy_gpupy_allclose(atol=1e-6, accept_error=True)
def test_singular_determinants(dtype, xp):
    a = xp.asarray(np.array([[[1, 2], [2, 4]], [[2, 0], [0, 3]]], dtype=dtype))
    sign, logabs = xp.linalg.slogdet(a)
    return xp.linalg.det(a), sign, logabs, xp.linalg.cond(a, 1), xp.linalg.matrix_rank(a)


@pytest.mark.parametrize("fn", ["inv", "cholesky"])
@testing.numpy_gpupy_raises()
def test_batched_failure_raises(fn, xp):
    # Only the second matrix of the stack fails.
    a = np.stack([np.eye(3), np.diag([1.0, -1.0, 0.0])])
    getattr(xp.linalg, fn)(xp.asarray(a))


@testing.for_dtypes(FLOATS)
def test_eigvals(dtype, device_name):
    if device_name == "cuda":
        pytest.skip("eig and eigvals have no cuda path (see test_eig_is_refused_on_cuda)")

    @testing.numpy_gpupy_allclose(rtol=_rtol(dtype), atol=1e-5, accept_error=True)
    def body(xp):
        return xp.linalg.eigvals(xp.asarray(_spd((4, 4), dtype, 17)) * 0 + xp.eye(4, dtype=dtype))

    body()


@pytest.mark.parametrize("fn", ["inv", "det", "cholesky", "eigh", "svd", "qr", "slogdet"])
@testing.numpy_gpupy_raises()
def test_not_square_or_1d_raises(fn, xp):
    getattr(xp.linalg, fn)(xp.asarray(np.ones(4)))


@testing.numpy_gpupy_raises()
def test_singular_raises(xp):
    xp.linalg.inv(xp.zeros((2, 3, 3)))


@testing.numpy_gpupy_raises()
def test_outer_needs_1d(xp):
    xp.linalg.outer(xp.ones((2, 2)), xp.ones(2))


@testing.numpy_gpupy_raises()
def test_cross_needs_3_vectors(xp):
    xp.linalg.cross(xp.ones((2, 2)), xp.ones((2, 2)))
