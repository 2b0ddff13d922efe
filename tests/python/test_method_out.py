"""out= of ndarray methods and their functions as NumPy checks it: argmin/argmax and take write
through a copy of out that must cast back safely, trace (a reduction) takes no broadcasting out
(found by tools/fuzz_numpy.py's methods family)."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

A = np.array([[3.0, -1.0, 4.0], [1.5, 9.0, -2.0]])


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ["int64", "int32", "int8", "uint64", "float64", "bool"])
@pytest.mark.parametrize("n", [3, 4])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_arg_reductions_need_an_out_that_casts_safely_to_int64(name, dtype, n, xp):
    out = xp.zeros(n, dtype=dtype)
    getattr(xp.asarray(A), name)(axis=0, out=out)
    return out


@pytest.mark.parametrize("dtype", ["float64", "float32", "int8", "complex128"])
@pytest.mark.parametrize("n", [2, 3])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_take_needs_an_out_that_casts_safely_to_the_array(dtype, n, xp):
    out = xp.zeros(n, dtype=dtype)
    xp.asarray(A).take([0, 4], out=out)
    return out


@pytest.mark.parametrize("shape", [(), (1,), (1, 1)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_trace_out_has_the_result_ndim(shape, xp):
    out = xp.zeros(shape)
    xp.trace(xp.asarray(A), out=out)
    return out


@pytest.mark.parametrize("dtype", ["float64", "int8", "complex64"])
@pytest.mark.parametrize("shape", [(1, 3), (3,)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_compress_takes_out(dtype, shape, xp):
    out = xp.zeros(shape, dtype=dtype)
    xp.asarray(A).compress([False, True], axis=0, out=out)
    xp.compress([True, False], xp.asarray(A), axis=0, out=out)
    return out


@pytest.mark.parametrize("src", ["float16", "float32", "int8"])
@pytest.mark.parametrize("dst", ["float64", "complex128", "int64"])
@testing.numpy_gpupy_allclose()
def test_trace_sums_in_the_promotion_with_out(src, dst, xp):
    # float16 [[3.111, -6.56], [2.248, 3.855]]: 6.967 in float64, 6.97 in float16
    a = xp.asarray(np.array([[3.111328125, -6.5625], [2.248046875, 3.85546875]]).astype(src))
    out = xp.zeros((), dtype=dst)
    xp.trace(a, out=out)
    return out


@pytest.mark.parametrize("src", ["float16", "float32"])
@pytest.mark.parametrize("decimals", [1, 2, -1])
@testing.numpy_gpupy_allclose()
def test_round_computes_in_a_wider_out(src, decimals, xp):
    x = xp.asarray(np.array([-2.3748600482940674, 8.93481159210205, 0.45]).astype(src))
    out = xp.zeros(3, dtype="float64")
    x.round(decimals, out=out)
    return out


@pytest.mark.parametrize("name", ["max", "min", "sum", "prod", "mean"])
def test_complex_reduction_into_a_real_out_warns(name):
    for xp in (np, gpupy):
        out = xp.zeros((), dtype="float64")
        with pytest.warns(np.exceptions.ComplexWarning):
            getattr(xp.asarray(np.array([1 + 2j, 3 - 1j])), name)(out=out)
        assert float(out) == float(getattr(np.array([1 + 2j, 3 - 1j]), name)().real)


@pytest.mark.parametrize("dtype", ["bool", "int8", "float32", "complex64"])
@testing.numpy_gpupy_allclose()
def test_conj_method_keeps_a_real_dtype(dtype, xp):
    # ndarray.conj() of a real array is the array (numpy.conj of bool is int8, in both)
    a = xp.asarray(np.array([1, 0, 1]).astype(dtype))
    return a.conj(), a.conjugate(), xp.conj(a)


@pytest.mark.parametrize("axis", [0, -1, 1])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_take_and_compress_read_a_zero_d_array_as_one_d(axis, xp):
    a = xp.asarray(np.float32(5))
    return xp.take(a, [0, 0], axis=axis), xp.compress([True], a, axis=axis)


@pytest.mark.parametrize("num", [2.5, 3])
@testing.numpy_gpupy_raises()
def test_geomspace_checks_for_zero_before_num(num, xp):
    return xp.geomspace(0.0, 4.0, num=num)


@pytest.mark.parametrize(
    "src, dst", [("int8", "uint64"), ("uint64", "bool"), ("int8", "int16"), ("float32", "int32")]
)
@pytest.mark.parametrize("decimals", [0, 2])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_round_out_casts_under_same_kind(src, dst, decimals, xp):
    out = xp.zeros(3, dtype=dst)
    xp.asarray(np.array([-9, 3, 6]).astype(src)).round(decimals, out=out)
    return out


@pytest.mark.parametrize(
    "src, dst", [("bool", "bool"), ("int8", "uint8"), ("float64", "int64"), ("int8", "float32")]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_clip_out_casts_under_same_kind(src, dst, xp):
    out = xp.zeros(3, dtype=dst)
    xp.asarray(np.array([-2, 0, 5]).astype(src)).clip(-1, 1, out=out)
    return out


# Column sums 41000.1, 33000.2, 53000.7 fit float16; the row sums (and the total) overflow it.
SPREAD = np.array([[0.1, 33000.0, 0.7], [41000.0, 0.2, 53000.0]])


@pytest.mark.parametrize("name", ["mean", "var", "std"])
@pytest.mark.parametrize(
    "src,dst",
    [("float32", "float64"), ("float64", "float32"), ("float64", "float16"), ("int64", "float32"),
     ("int32", "int64"), ("float16", "float64"), ("complex64", "complex128"),
     ("complex128", "float64"), ("float32", "float32")],
)  # fmt: skip
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.numpy_gpupy_allclose(rtol=1e-12, accept_error=True)
def test_mean_var_std_sum_into_an_out_of_another_dtype(name, src, dst, axis, xp):
    # NumPy sums into out= and divides there: a float32 sum keeps its float64 digits in a float64
    # out, and a float16 out overflows at the sum even where the mean would fit
    a = xp.asarray((SPREAD + (1j if src[0] == "c" else 0)).astype(src))
    out = xp.zeros(SPREAD.sum(axis=axis).shape, dtype=dst)
    getattr(xp, name)(a, axis=axis, out=out)
    return out


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float32"])
@testing.numpy_gpupy_allclose(rtol=1e-6)
def test_var_std_with_dtype_into_a_float64_out(name, dtype, xp):
    # a complex dtype= gives a real result: std's sqrt then runs in out's float64
    out = xp.zeros(2, dtype="float64")
    getattr(xp, name)(xp.asarray(np.array([[7, 2, 5], [1, 1, 9]], dtype="uint8")), axis=-1,
                      dtype=dtype, out=out)  # fmt: skip
    return out
