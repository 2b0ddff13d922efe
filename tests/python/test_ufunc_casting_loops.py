"""casting= and dtype= of ufuncs whose NumPy loops differ from the dtypes gpupy computes in:
float-only loops (signbit, float_power), ldexp's int32/int64 exponents, the int64-uint64
comparisons and Python scalars under 'equiv' (found by tools/fuzz_numpy.py)."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]  # fmt: skip


def _arr(xp, dtype):
    return xp.asarray(np.array([1, 0, 3]).astype(dtype))


@pytest.mark.parametrize("casting", ["no", "equiv", "safe"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", ["signbit", "bitwise_count", "isnan", "sqrt"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_unary_loop_casting(name, dtype, casting, xp):
    # NumPy's signbit has float loops only and bitwise_count no bool loop: signbit(uint16,
    # casting='no') is a casting error (gpupy computed it on the integers and raised nothing).
    return getattr(xp, name)(_arr(xp, dtype), casting=casting)


@pytest.mark.parametrize("casting", ["no", "equiv"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64", "int8"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_float_power_loop_casting(dtype, casting, xp):
    # float_power's loops are float64 and complex128 only
    return xp.float_power(_arr(xp, dtype), _arr(xp, dtype), casting=casting)


@pytest.mark.parametrize("casting", ["no", "equiv", "same_kind"])
@pytest.mark.parametrize("x", ["float16", "float32", "float64", "int16", "bool"])
@pytest.mark.parametrize("e", ["bool", "int8", "int32", "int64", "uint32", 3, np.int64(2)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ldexp_exponent_loop_casting(x, e, casting, xp):
    # the exponent's loops are int32 and int64: int8 fails 'no', a Python int fails 'equiv'
    exponent = _arr(xp, e) if isinstance(e, str) else e
    return xp.ldexp(_arr(xp, x), exponent, casting=casting)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("x", ["bool", "int8", "int16", "int32", "float16", "float32"])
@pytest.mark.parametrize("casting", [None, "no"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ldexp_dtype_keyword(x, dtype, casting, xp):
    # dtype= names the float loop; x casts to it safely, the exponent keeps its integer dtype
    # (gpupy cast the exponent to the float dtype too and then refused it)
    kw = {"dtype": dtype} if casting is None else {"dtype": dtype, "casting": casting}
    return xp.ldexp(_arr(xp, x), _arr(xp, "int32"), **kw)


@pytest.mark.parametrize("casting", ["no", "equiv"])
@pytest.mark.parametrize("pair", [("int64", "uint64"), ("uint64", "int64"), ("int8", "uint64"),
                                  ("uint64", "int32"), ("int64", "int64")])  # fmt: skip
@pytest.mark.parametrize("name", ["equal", "less", "greater_equal"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_signed_uint64_comparison_casting(name, pair, casting, xp):
    # NumPy compares int64 with uint64 in its own loop, with no cast of either input
    return getattr(xp, name)(_arr(xp, pair[0]), _arr(xp, pair[1]), casting=casting)


@pytest.mark.parametrize("value", [3, 2.5, 1j, True])
@pytest.mark.parametrize("dtype", ["int8", "int64", "uint64", "float32", "float64", "complex128"])
@pytest.mark.parametrize("name", ["add", "less", "equal", "float_power"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_scalar_under_equiv(name, dtype, value, xp):
    # 'equiv' accepts a Python scalar whose own dtype (int64, float64, complex128) is the loop's,
    # and any Python int in an integer comparison
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return getattr(xp, name)(_arr(xp, dtype), value, casting="equiv")


def test_signbit_casting_error_names_the_loop():
    with pytest.raises(TypeError, match=r"\[signbit\].*uint16.*float32.*'no'"):
        gpupy.signbit(gpupy.asarray(np.array([1], np.uint16)), casting="no")


@pytest.mark.parametrize("out_dtype", ["uint8", "bool", "float32"])
@pytest.mark.parametrize("name", ["sin", "square", "maximum", "multiply"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_output_cast_is_checked_before_broadcasting(name, out_dtype, xp):
    # NumPy refuses an out= it cannot cast to (TypeError) before it broadcasts the operands
    # (ValueError); gpupy broadcast first
    x = xp.asarray(np.arange(6.0).reshape(2, 3) - 2j)
    args = (x,) if name in ("sin", "square") else (x, xp.ones((4,)))
    return getattr(xp, name)(*args, out=xp.zeros((5,), dtype=out_dtype))


@pytest.mark.parametrize("casting", [None, "no", "same_kind"])
@pytest.mark.parametrize("dtypes", [("float32", "float32"), ("float64", "complex128"),
                                    ("int8", "uint16"), ("bool", "float16")])  # fmt: skip
@pytest.mark.parametrize("name", ["logical_xor", "logical_and"])
@testing.numpy_gpupy_allclose()
def test_logical_ufuncs_with_dtype_bool(name, dtypes, casting, xp):
    # NumPy's logical loops exist for every input dtype, all giving bool: dtype=bool casts nothing
    kw = {"dtype": bool} if casting is None else {"dtype": bool, "casting": casting}
    return getattr(xp, name)(_arr(xp, dtypes[0]), _arr(xp, dtypes[1]), **kw)


@pytest.mark.parametrize("exponent", [[[-5], [-1], [2]], -1])
@testing.numpy_gpupy_allclose()
def test_integer_power_with_negative_exponents_of_an_empty_result(exponent, xp):
    # no element is computed, so NumPy raises nothing (gpupy checked the exponents anyway)
    x = xp.zeros((3, 0), dtype="int64")
    x **= xp.asarray(np.array(exponent, dtype="int32"))
    return x, xp.power(xp.zeros((0,), dtype="int8"), -2)


@pytest.mark.parametrize(
    "name, x, value, kw",
    [("fmax", "int32", 2**64 - 1, {"dtype": "uint32"}), ("bitwise_or", "float32", -(2**40),
      {"dtype": "int8"}), ("maximum", "int64", -3, {"dtype": "uint16"}),
     ("fmod", "complex128", 70000, {"dtype": "uint16"}), ("left_shift", "uint64", -(2**40),
      {"casting": "equiv"}), ("multiply", "uint64", -40000, {"casting": "equiv"}),
     ("add", "int32", 2**33, {"casting": "equiv"}),
     ("divmod", "int32", 2**33, {"casting": "equiv"})],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_int_errors_come_before_array_casts(name, x, value, kw, xp):
    # NumPy converts a Python int while it resolves the loop: its OverflowError (dtype=) or its
    # 'equiv' TypeError comes before the arrays' cast errors or the value's overflow
    return getattr(xp, name)(_arr(xp, x), value, **kw)


@pytest.mark.parametrize("value", [300, 256, -4, 2**64 - 1, 2**70, 0.0])
@pytest.mark.parametrize("kw", [{}, {"dtype": bool}, {"where": [True, False, True]}])
@pytest.mark.parametrize("dtype", ["uint8", "uint32", "float16"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_logical_ufuncs_read_python_ints_by_truth(dtype, kw, value, xp):
    # any Python int is fine (300 is True) but one beyond a C long (OverflowError); gpupy raised
    # OverflowError for ints beyond the array's dtype and accepted those beyond int64
    kw = {k: xp.asarray(v) if k == "where" else v for k, v in kw.items()}
    if "where" in kw:
        kw["out"] = xp.zeros(3, dtype=bool)
    return xp.logical_xor(value, _arr(xp, dtype), **kw), xp.logical_and(_arr(xp, dtype), value)


@pytest.mark.parametrize("name", ["hypot", "copysign", "true_divide", "arctan2", "add", "less"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "float32"])
@pytest.mark.parametrize("value", [2**70, -(2**70)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_int_beyond_every_dtype_in_a_float_loop(name, dtype, value, xp):
    # ops whose integer inputs compute in a float loop take it as a float, as NumPy (gpupy
    # raised OverflowError unless the other operand was already inexact)
    return getattr(xp, name)(_arr(xp, dtype), value), getattr(xp, name)(value, _arr(xp, dtype))


@pytest.mark.parametrize("name", ["add", "bitwise_or", "logical_or", "hypot", "multiply"])
@pytest.mark.parametrize("dtype", ["int16", "float32", "complex64", "bool"])
@pytest.mark.parametrize("to", ["int8", "float64", "bool"])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_int_beyond_every_dtype_with_dtype(name, dtype, to, casting, xp):
    # dtype= picks the loop first (no loop: TypeError), then the int is read in the loop's dtype:
    # a float, else a C long (OverflowError); gpupy read it from the other operand first
    return getattr(xp, name)(2**70, _arr(xp, dtype), dtype=to, casting=casting)


@pytest.mark.parametrize("name", ["add", "hypot", "maximum", "true_divide"])
@pytest.mark.parametrize("dtype", ["int32", "uint64", "float32"])
@pytest.mark.parametrize("value", [2**64, -(2**70)])
@pytest.mark.parametrize("casting", ["no", "equiv"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_python_int_beyond_every_dtype_under_equiv_casting(name, dtype, value, casting, xp):
    # 'equiv' refuses the int (TypeError) before its value overflows, whatever the loop
    return getattr(xp, name)(_arr(xp, dtype), value, casting=casting)


@pytest.mark.parametrize("name", ["sqrt", "exp", "sin", "log"])
@pytest.mark.parametrize("value", [2**64, -(2**70)])
@testing.numpy_gpupy_raises()
def test_unary_ufunc_of_a_python_int_beyond_every_dtype(name, value, xp):
    # NumPy computes it on an object array, whose loop has no such method: TypeError
    return getattr(xp, name)(value)


@pytest.mark.parametrize("value", [2**70, -(2**64)])
@pytest.mark.parametrize("dtype", ["int8", "float32", "complex64"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_choose_with_a_python_int_beyond_every_dtype(value, dtype, xp):
    # a float in an inexact result, else NumPy's OverflowError
    return xp.choose(xp.asarray([0, 1, 1]), [_arr(xp, dtype), value])
