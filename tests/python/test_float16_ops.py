"""float16 through gpupy's ufuncs, against NumPy: every ufunc (NumPy computes float16 in float32
and rounds, so results agree within one float16 ulp, exactly for correctly rounded ops), math
functions of bool/int8/uint8 (float16 results) and mixed dtypes. Reductions are in
test_float16_reductions.py, sorting, matmul, selection and composed functions in
test_float16_functions.py."""

import warnings

import gpupy
import numpy as np
import pytest
from float16_helpers import (
    F16,
    _f16,
    _random_f16,
    assert_within_ulp,
)
from gpupy import testing

UFUNCS = sorted(n for n in dir(gpupy) if isinstance(getattr(np, n, None), np.ufunc))
MATMUL_LIKE = {"matmul", "matvec", "vecmat", "vecdot"}
ELEMENTWISE = [n for n in UFUNCS if n not in MATMUL_LIKE]
# Correctly rounded in float32 and so after rounding to float16 (double rounding is harmless for
# these: float32 keeps more than 2 * 11 + 2 bits), or computed on float16 itself (nextafter,
# spacing): these must match NumPy bit for bit.
EXACT = {
    "absolute", "abs", "add", "subtract", "multiply", "divide", "true_divide", "sqrt", "square",
    "negative", "positive", "fabs", "maximum", "minimum", "fmax", "fmin", "floor", "ceil", "trunc",
    "rint", "copysign", "nextafter", "spacing", "sign", "fmod", "reciprocal", "heaviside", "conj",
    "conjugate", "modf", "frexp", "ldexp",
}  # fmt: skip

FIRST = [-2.5, -1.0, -0.0, 0.0, 0.5, 0.75, 1.0, 3.0, np.nan, np.inf, -np.inf, 65504.0, -65504.0]
FIRST += [2.0**-24, -(2.0**-24), 2.0**-14, 0.1, 0.3, 100.0, 1000.5, 2049.0, -7.0, 0.999, 1.001]
SECOND = [1.5, -0.5, 2.0, 0.0, 3.0, -2.0, np.nan, 2.0, np.inf, -1.0, 0.1, 7.0, -0.0, 2.0**-24]
SECOND += [65504.0, 1000.0, -3.25, 0.5, 4.0, 1e-3, -np.inf, 2.5, 0.25, 11.0]


def _compare(name, inputs, maxulp=None):
    np_fn, gp_fn = getattr(np, name), getattr(gpupy, name)
    if maxulp is None:
        maxulp = 0 if name in EXACT else 1
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = np_fn(*inputs)
    except TypeError:
        with pytest.raises(TypeError):
            gp_fn(*[gpupy.asarray(x) for x in inputs])
        return
    actual = gp_fn(*[gpupy.asarray(x) for x in inputs])
    assert_within_ulp(expected, actual, maxulp)


# ---- every ufunc ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_ufunc_special_values(name):
    nin = getattr(np, name).nin
    if name == "ldexp":
        _compare(name, [_f16(FIRST), np.arange(-12, 12, dtype=np.int32)[: len(FIRST)]])
        return
    n = min(len(FIRST), len(SECOND))
    inputs = [_f16(FIRST[:n]), _f16(SECOND[:n])][:nin]
    _compare(name, inputs)


@pytest.mark.parametrize("name", ELEMENTWISE)
def test_ufunc_random_values(name):
    """Many values in each function's domain, so that rounding differences show up."""
    nin = getattr(np, name).nin
    lo, hi = (
        (-1.0, 1.0)
        if name in ("arcsin", "arccos", "arctanh", "asin", "acos", "atanh")
        else (-12.0, 12.0)
    )
    if name in ("arccosh", "acosh"):
        lo, hi = 1.0, 50.0
    if name == "ldexp":
        _compare(name, [_random_f16(3000, -4, 4, 1), np.arange(3000, dtype=np.int32) % 25 - 12])
        return
    inputs = [_random_f16(3000, lo, hi, 1), _random_f16(3000, lo, hi, 2)][:nin]
    if name in ("power", "pow", "float_power"):
        inputs[0] = np.abs(inputs[0])
    _compare(name, inputs)


def test_ufunc_every_bit_pattern():
    """Unary functions over all 65536 float16 values."""
    x = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    for name in (
        "sqrt",
        "negative",
        "absolute",
        "floor",
        "rint",
        "spacing",
        "sign",
        "isnan",
        "isinf",
        "isfinite",
        "signbit",
        "square",
        "reciprocal",
        "exp",
        "log",
        "sin",
    ):
        _compare(name, [x])
    up = np.full_like(x, np.inf)
    _compare("nextafter", [x, up])
    _compare("nextafter", [x, -up])
    _compare("nextafter", [x, np.zeros_like(x)])


@pytest.mark.parametrize(
    "other",
    [
        "bool",
        "int8",
        "uint8",
        "int16",
        "uint16",
        "int32",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ],
)
@pytest.mark.parametrize(
    "name",
    [
        "add",
        "subtract",
        "multiply",
        "divide",
        "maximum",
        "power",
        "arctan2",
        "hypot",
        "less",
        "copysign",
    ],
)
def test_ufunc_mixed_with_float16(name, other):
    x = _f16(FIRST[:10])
    y = np.asarray([3, 1, 0, 2, 1, 5, 2, 3, 4, 1]).astype(other)
    _compare(name, [x, y])
    _compare(name, [y, x])


SMALL_INTEGER_MATH = ["sqrt", "exp", "log", "sin", "cos", "tanh", "arctan", "cbrt", "log1p",
                      "expm1", "exp2", "deg2rad", "spacing", "rint", "fabs", "arctan2", "hypot",
                      "logaddexp", "copysign", "heaviside", "divide", "float_power"]  # fmt: skip


@pytest.mark.parametrize("name", SMALL_INTEGER_MATH)
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int16"])
def test_small_integers_like_numpy(name, dtype):
    """NumPy computes the math functions of bool, int8 and uint8 in float16 (int16 in float32),
    but true division and float_power in float64."""
    if dtype == "bool":
        x = np.array([True, False, True, True, False])
        y = x[::-1].copy()
    else:
        x = np.array([0, 1, 2, 3, 5, 7, 100, 120], dtype=dtype)
        y = np.array([3, 1, 2, 1, 5, 2, 3, 4], dtype=dtype)
    inputs = [x, y][: getattr(np, name).nin]
    with np.errstate(all="ignore"):
        expected_dtype = getattr(np, name)(*inputs).dtype
    if name not in ("divide", "float_power"):
        assert expected_dtype == (np.float32 if dtype == "int16" else F16)
    _compare(name, inputs)


def test_angle_and_frexp_of_small_integers():
    x = np.array([-3, 0, 4, -128, 127], dtype=np.int8)
    for fn in ("angle", "real", "imag"):
        expected = getattr(np, fn)(x)
        assert_within_ulp(expected, getattr(gpupy, fn)(gpupy.asarray(x)), 0)
    u = np.array([0, 1, 255, 8], dtype=np.uint8)
    assert_within_ulp(np.frexp(u), gpupy.frexp(gpupy.asarray(u)), 0)
    assert_within_ulp(
        np.angle(np.array([True, False])), gpupy.angle(gpupy.asarray([True, False])), 0
    )


@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, a: xp.around(a, 1),
        lambda xp, a: xp.round(a, -1),
        lambda xp, a: xp.clip(a, -1.5, 2.0),
        lambda xp, a: xp.clip(a, xp.asarray(-1, dtype="float16"), 3),
        lambda xp, a: xp.nan_to_num(a),
        lambda xp, a: xp.isclose(a, a + xp.asarray(1e-3, dtype="float16")),
        lambda xp, a: xp.sinc(a),
        lambda xp, a: xp.real(a),
        lambda xp, a: xp.imag(a),
        lambda xp, a: xp.fix(a),
        lambda xp, a: xp.where(a > 0, a, 0.5),
        lambda xp, a: xp.where(a > 0, a, xp.asarray(2, dtype="float32")),
        lambda xp, a: xp.diff(a),
        lambda xp, a: xp.interp(a, xp.asarray([-1.0, 0.0, 4.0]), xp.asarray([0.0, 1.0, 2.0])),
        lambda xp, a: xp.heaviside(a, 0.5),
        lambda xp, a: a.astype("float16") ** 2,
        lambda xp, a: -a,
        lambda xp, a: abs(a),
        lambda xp, a: a // 0.75,
        lambda xp, a: a % 1.5,
    ],
)
def test_other_elementwise_functions(fn):
    x = _f16(FIRST[:-2])
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = fn(np, x)
    actual = fn(gpupy, gpupy.asarray(x))
    if np.asarray(expected).dtype == F16:
        assert_within_ulp(expected, actual, 1)
    else:
        testing.assert_same(expected, actual, rtol=1e-6)


def test_inplace_operators_stay_float16():
    x = _f16([1.0, 2.5, -3.0, 0.1])
    a = gpupy.asarray(x)
    a += 1
    a *= 0.1
    x += 1
    x *= 0.1
    assert_within_ulp(x, a, 0)
    wide = np.array([0.1, 1e5, -0.3, 3.0], np.float32)
    with np.errstate(all="ignore"):
        x += wide  # same_kind: the float32 sums are rounded into the float16 array
    a += gpupy.asarray(wide)
    assert_within_ulp(x, a, 0)
    i = gpupy.zeros(2, dtype="int16")
    with pytest.raises(TypeError):
        i += gpupy.ones(2, dtype="float16")
