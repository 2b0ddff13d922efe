"""float16 through gpupy's operations, against NumPy: every ufunc (NumPy computes float16 in
float32 and rounds, so results agree within one float16 ulp, exactly for correctly rounded ops),
math functions of bool/int8/uint8 (float16 results), mixed dtypes, reductions and nan-functions,
sorting and searching, matmul and dot, and selection and indexing."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

F16 = np.dtype(np.float16)
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


def _f16(values):
    with np.errstate(over="ignore"):  # values beyond 65504 become inf, as intended
        return np.asarray(values, dtype=np.float16)


def _ordered(x):
    """float16 values as integers in value order (+0 and -0 both map to 0)."""
    u = x.view(np.uint16).astype(np.int32)
    return np.where(u >= 0x8000, 0x8000 - u, u)


def assert_within_ulp(expected, actual, maxulp):
    """dtype and shape equal; float16 values within maxulp ulps (bit-equal when maxulp is 0),
    NaN where NumPy has NaN; other dtypes as testing.assert_same checks them."""
    if isinstance(expected, tuple):
        assert isinstance(actual, tuple) and len(actual) == len(expected)
        for e, a in zip(expected, actual, strict=True):
            assert_within_ulp(e, a, maxulp)
        return
    e = np.asarray(expected)
    a = actual.get() if isinstance(actual, gpupy.ndarray) else np.asarray(actual)
    assert a.dtype == e.dtype and a.shape == e.shape, f"{a.dtype}{a.shape} vs {e.dtype}{e.shape}"
    if e.dtype != F16:
        testing.assert_same(e, a)
        return
    nan = np.isnan(e)
    np.testing.assert_array_equal(np.isnan(a), nan, err_msg="NaN positions")
    if maxulp == 0:
        bad = (e.view(np.uint16) != a.view(np.uint16)) & ~nan
    else:
        bad = (np.abs(_ordered(e) - _ordered(a)) > maxulp) & ~nan
    assert not bad.any(), f"at {np.flatnonzero(bad)[:5]}: numpy {e[bad][:5]}, gpupy {a[bad][:5]}"


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


def _random_f16(n, lo, hi, seed):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float16)


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


# ---- reductions ----------------------------------------------------------------------------------

DATA = _random_f16(240, -20, 20, 3).reshape(4, 6, 10)
WITH_NAN = DATA.copy()
WITH_NAN[0, 1, ::3] = np.nan
WITH_NAN[2] = np.nan


def _in_float32(fn, x, *args, **kwargs):
    """NumPy's fn(x) for float16 x, computed by NumPy in float32 and rounded to float16 once, as
    gpupy's float16 reductions and scans are (testing.float16_in_float32)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return testing.float16_in_float32(np, fn, x, *args, **kwargs)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)])
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all"])
def test_reductions(name, axis):
    x = DATA / np.float16(10) if name == "prod" else DATA
    expected = _in_float32(getattr(np, name), x, axis=axis)
    actual = getattr(gpupy, name)(gpupy.asarray(x), axis=axis)
    # var and std square and sum deviations that NumPy (and gpupy) round to float16 first.
    assert_within_ulp(expected, actual, 2 if name in ("var", "std") else 1)


@pytest.mark.parametrize("name", ["argmin", "argmax"])
@pytest.mark.parametrize("axis", [None, 0, 2])
def test_arg_reductions(name, axis):
    for x in (DATA, WITH_NAN):
        testing.assert_same(getattr(np, name)(x, axis=axis),
                            getattr(gpupy, name)(gpupy.asarray(x), axis=axis))  # fmt: skip


def test_sum_and_mean_accumulate_in_float32():
    """NumPy's float16 sum of a contiguous axis adds in float32 (5000 ones give 5000, not 2048)
    and its mean sums in float32 along any axis; both round once at the end. gpupy's sum adds in
    float32 along any axis (NumPy's strided-axis sum rounds every step: 3000 tenths give 256)."""
    ones = np.ones(5000, np.float16)
    assert np.sum(ones) == 5000
    assert_within_ulp(np.sum(ones), gpupy.sum(gpupy.asarray(ones)), 0)
    tenths = np.full(100_000, 0.1, np.float16)
    assert_within_ulp(np.mean(tenths), gpupy.mean(gpupy.asarray(tenths)), 0)
    two_d = np.full((3000, 3), 0.1, np.float16)
    assert_within_ulp(np.mean(two_d, axis=0), gpupy.mean(gpupy.asarray(two_d), axis=0), 0)
    assert np.sum(two_d, axis=0)[0] == 256  # NumPy: float16 running sums along axis 0
    assert_within_ulp(
        _in_float32(np.sum, two_d, axis=0), gpupy.sum(gpupy.asarray(two_d), axis=0), 0
    )
    g = gpupy.asarray(two_d)
    w = np.arange(3000 * 3).reshape(3000, 3) % 2 == 0
    assert_within_ulp(
        np.mean(two_d, axis=0, where=w), gpupy.mean(g, axis=0, where=gpupy.asarray(w)), 0
    )
    assert_within_ulp(np.nanmean(tenths), gpupy.nanmean(gpupy.asarray(tenths)), 0)


def test_reductions_with_dtype_and_keepdims():
    g = gpupy.asarray(DATA)
    testing.assert_same(
        np.sum(DATA, axis=1, dtype=np.float32), gpupy.sum(g, axis=1, dtype="float32"), rtol=1e-5
    )
    testing.assert_same(np.mean(DATA, dtype=np.float64), gpupy.mean(g, dtype="float64"), rtol=1e-6)
    testing.assert_same(
        _in_float32(np.sum, DATA, axis=0, keepdims=True),
        gpupy.sum(g, axis=0, keepdims=True),
        rtol=1e-3,
        atol=1e-3,
    )
    testing.assert_same(np.sum(DATA.astype(np.int8)), gpupy.sum(g.astype("int8")))
    testing.assert_same(np.std(DATA, ddof=1, axis=2), gpupy.std(g, ddof=1, axis=2), rtol=2e-3)
    big = np.full(10, 60000, np.float16)
    with np.errstate(over="ignore"):
        testing.assert_same(np.sum(big), gpupy.sum(gpupy.asarray(big)))  # inf: overflows float16


def test_min_max_with_nan_and_signed_zero():
    x = _f16([1.0, np.nan, -np.inf, 3.0])
    for fn in ("min", "max"):
        testing.assert_same(getattr(np, fn)(x), getattr(gpupy, fn)(gpupy.asarray(x)))
        testing.assert_same(
            getattr(np, f"nan{fn}")(x), getattr(gpupy, f"nan{fn}")(gpupy.asarray(x))
        )


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("axis", [None, 0, 2])
def test_scans(name, axis):
    x = DATA / np.float16(16) if name == "cumprod" else DATA
    expected = _in_float32(getattr(np, name), x, axis=axis)
    actual = getattr(gpupy, name)(gpupy.asarray(x), axis=axis)
    assert_within_ulp(expected, actual, 1)


def test_cumsum_accumulates_in_float32():
    """gpupy's float16 cumsum keeps a float32 running total and rounds each output; NumPy's keeps
    a float16 one (5000 ones end at 2048 there): a documented difference."""
    ones = np.ones(5000, np.float16)
    assert np.cumsum(ones)[-1] == 2048
    actual = gpupy.cumsum(gpupy.asarray(ones))
    assert_within_ulp(np.arange(1, 5001).astype(np.float16), actual, 0)


NAN_FUNCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax",
                 "nanargmin", "nanargmax", "nanmedian", "median", "ptp", "average"]  # fmt: skip


@pytest.mark.parametrize("axis", [None, 1])
@pytest.mark.parametrize("name", NAN_FUNCTIONS)
def test_nan_functions(name, axis):
    x = WITH_NAN[:2]
    if name == "nanprod":
        x = x / np.float16(16)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = _in_float32(getattr(np, name), x, axis=axis)
        actual = getattr(gpupy, name)(gpupy.asarray(x), axis=axis)
    assert_within_ulp(expected, actual, 2 if name in ("nanvar", "nanstd") else 1)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
def test_nan_scans(name):
    x = WITH_NAN[:2] / np.float16(16)
    expected = _in_float32(getattr(np, name), x, axis=-1)
    assert_within_ulp(expected, getattr(gpupy, name)(gpupy.asarray(x), axis=-1), 1)


@pytest.mark.parametrize("name", ["percentile", "nanpercentile", "quantile", "nanquantile"])
def test_quantiles(name):
    # A scalar q: with a list, NumPy's nan-variants return float64 (for float32 input too).
    q = 50 if "percentile" in name else 0.5
    x = WITH_NAN[0] if name.startswith("nan") else DATA[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        expected = getattr(np, name)(x, q, axis=1)
    actual = getattr(gpupy, name)(gpupy.asarray(x), q, axis=1)
    testing.assert_same(expected, actual, rtol=2e-3, atol=2e-3)


def test_empty_reductions():
    e = np.zeros((0, 3), np.float16)
    g = gpupy.asarray(e)
    for name in ("sum", "prod", "any", "all"):
        testing.assert_same(getattr(np, name)(e, axis=0), getattr(gpupy, name)(g, axis=0))
    with pytest.raises(ValueError):
        gpupy.max(g, axis=0)
    testing.assert_same(np.cumsum(e), gpupy.cumsum(g))


# ---- sorting and searching -----------------------------------------------------------------------

UNSORTED = _f16([3.0, np.nan, -0.0, 1.0, -np.inf, 0.0, np.nan, 2.5, np.inf, -1.0, 1.0, 65504.0])


def test_sort_and_argsort_with_nan():
    g = gpupy.asarray(UNSORTED)
    assert_within_ulp(np.sort(UNSORTED), gpupy.sort(g), 0)
    testing.assert_same(np.argsort(UNSORTED, stable=True), gpupy.argsort(g, stable=True))
    x = DATA.reshape(24, 10)
    testing.assert_same(np.sort(x, axis=0), gpupy.sort(gpupy.asarray(x), axis=0))
    testing.assert_same(
        np.argsort(x, axis=1, kind="stable"), gpupy.argsort(gpupy.asarray(x), axis=1, kind="stable")
    )


def test_partition():
    g = gpupy.asarray(UNSORTED)
    part = gpupy.partition(g, 4).get()
    assert_within_ulp(np.sort(UNSORTED)[4], part[4], 0)
    assert np.all(np.sort(part[:4]) <= part[4])


def test_searchsorted_with_nan():
    haystack = _f16([-np.inf, -1.0, 0.0, 0.5, 1.0, 65504.0, np.inf, np.nan])
    needles = _f16([np.nan, 0.5, -0.0, 70000.0, -3.0, 0.49])
    for side in ("left", "right"):
        expected = np.searchsorted(haystack, needles, side=side)
        actual = gpupy.searchsorted(gpupy.asarray(haystack), gpupy.asarray(needles), side=side)
        testing.assert_same(expected, actual)
    testing.assert_same(
        np.searchsorted(haystack, 0.25), gpupy.searchsorted(gpupy.asarray(haystack), 0.25)
    )


def test_unique_with_nan():
    x = _f16([np.nan, 1.0, np.nan, 0.0, -0.0, 1.0, 2.5])
    g = gpupy.asarray(x)
    testing.assert_same(np.unique(x), gpupy.unique(g))
    values, counts = np.unique(x, return_counts=True)
    gv, gc = gpupy.unique(g, return_counts=True)
    testing.assert_same(values, gv)
    testing.assert_same(counts, gc)
    testing.assert_same(np.unique(x, equal_nan=False), gpupy.unique(g, equal_nan=False))
    testing.assert_same(np.unique_values(x), gpupy.unique_values(g))


def test_nonzero_count_and_set_functions():
    x = _f16([0.0, -0.0, 1.5, np.nan, 2.0])
    g = gpupy.asarray(x)
    testing.assert_same(np.count_nonzero(x), gpupy.count_nonzero(g))
    testing.assert_same(np.nonzero(x), gpupy.nonzero(g))
    testing.assert_same(
        np.isin(x, _f16([2.0, 0.0])), gpupy.isin(g, gpupy.asarray(_f16([2.0, 0.0])))
    )
    testing.assert_same(
        np.intersect1d(x, _f16([2.0, 1.5])), gpupy.intersect1d(g, gpupy.asarray(_f16([2.0, 1.5])))
    )


# ---- matmul and dot ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn",
    [
        lambda xp, a, b: xp.matmul(a, b),
        lambda xp, a, b: a @ b,
        lambda xp, a, b: xp.dot(a, b),
        lambda xp, a, b: xp.dot(a[0], b[:, 0]),
        lambda xp, a, b: xp.vdot(a[0], b[:, 0]),
        lambda xp, a, b: xp.inner(a, b.T),
        lambda xp, a, b: xp.outer(a[0], b[0]),
        lambda xp, a, b: xp.tensordot(a, b, axes=1),
        lambda xp, a, b: xp.einsum("ij,jk->ik", a, b),
        lambda xp, a, b: xp.vecdot(a[:3], b.T),
        lambda xp, a, b: xp.matvec(a, b[:, 0]),
        lambda xp, a, b: xp.vecmat(b[:, 0], b),
        lambda xp, a, b: xp.kron(a[:2, :2], b[:2, :2]),
        lambda xp, a, b: xp.matmul(a, b.astype("float32")),
        lambda xp, a, b: xp.matmul(a.astype("int8"), b),
    ],
)
def test_matmul_family(fn):
    a = _random_f16(5 * 7, -4, 4, 4).reshape(5, 7)
    b = _random_f16(7 * 3, -4, 4, 5).reshape(7, 3)
    expected = fn(np, a, b)
    actual = fn(gpupy, gpupy.asarray(a), gpupy.asarray(b))
    testing.assert_same(expected, actual, rtol=3e-3, atol=3e-3)


def test_matmul_accumulates_in_float32():
    """NumPy's float16 matmul and dot add the products in float32 and round once."""
    ones = np.ones((2, 5000), np.float16)
    expected = ones @ ones.T
    assert expected[0, 0] == 5000
    assert_within_ulp(expected, gpupy.asarray(ones) @ gpupy.asarray(ones.T), 0)
    assert_within_ulp(
        np.dot(ones[0], ones[1]), gpupy.dot(gpupy.asarray(ones[0]), gpupy.asarray(ones[1])), 0
    )


def test_matmul_batched_and_empty():
    a = _random_f16(2 * 3 * 4, -2, 2, 6).reshape(2, 3, 4)
    testing.assert_same(a @ a.mT, gpupy.asarray(a) @ gpupy.asarray(a).mT, rtol=3e-3, atol=3e-3)
    e = np.zeros((3, 0), np.float16)
    testing.assert_same(e @ e.T, gpupy.asarray(e) @ gpupy.asarray(e).T)


# ---- selection and indexing ----------------------------------------------------------------------


def test_where_take_and_advanced_indexing():
    x = DATA[0]
    g = gpupy.asarray(x)
    idx = np.array([5, 0, 2, 5])
    testing.assert_same(np.take(x, idx, axis=0), gpupy.take(g, gpupy.asarray(idx), axis=0))
    testing.assert_same(x[idx], g[gpupy.asarray(idx)])
    testing.assert_same(x[x > 1], g[g > 1])
    testing.assert_same(x[[1, 3], 2:5], g[[1, 3], 2:5])
    testing.assert_same(x[::-2, 3], g[::-2, 3])
    testing.assert_same(np.take_along_axis(x, np.argsort(x, axis=1), axis=1),
                        gpupy.take_along_axis(g, gpupy.argsort(g, axis=1), axis=1))  # fmt: skip
    testing.assert_same(np.where(x > 0, x, -x), gpupy.where(g > 0, g, -g))
    testing.assert_same(
        np.compress([True, False] * 3, x, axis=0), gpupy.compress([True, False] * 3, g, axis=0)
    )
    testing.assert_same(np.extract(x > 5, x), gpupy.extract(g > 5, g))
    testing.assert_same(
        np.choose([0, 1, 0], [x[0, :3], x[1, :3]]), gpupy.choose([0, 1, 0], [g[0, :3], g[1, :3]])
    )


def test_setitem():
    x = _f16(np.zeros((3, 4)))
    g = gpupy.asarray(x)
    for key, value in [((0, 1), 0.1), ((slice(None), 2), 70000.0), ((1,), np.float32(1 / 3))]:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            x[key] = value
        g[key] = value
    g[2, [0, 3]] = gpupy.asarray([1.5, -2.0], dtype="float64")
    x[2, [0, 3]] = np.asarray([1.5, -2.0])
    g[g == 0] = np.float16(2049)
    x[x == 0] = np.float16(2049)
    assert_within_ulp(x, g, 0)
    i = gpupy.zeros(3, dtype="int32")
    i[0] = gpupy.asarray(np.float16(7.9))
    assert i.get()[0] == 7


def test_joining_and_manipulation():
    a = _f16([1.0, 2.0])
    b = np.array([3, 4], np.int8)
    c = np.array([5.0, 6.0], np.float32)
    ga, gb, gc = (gpupy.asarray(v) for v in (a, b, c))
    testing.assert_same(np.concatenate([a, b]), gpupy.concatenate([ga, gb]))
    testing.assert_same(np.concatenate([a, c]), gpupy.concatenate([ga, gc]))
    testing.assert_same(np.stack([a, a]), gpupy.stack([ga, ga]))
    testing.assert_same(
        np.concatenate([a, np.array([70000], np.int32)]),
        gpupy.concatenate([ga, gpupy.asarray([70000], dtype="int32")]),
    )
    x = DATA[1]
    g = gpupy.asarray(x)
    for fn in (lambda xp, v: xp.flip(v, 0), lambda xp, v: xp.roll(v, 3), lambda xp, v: v.T.copy(),
               lambda xp, v: xp.repeat(v, 2, axis=0), lambda xp, v: xp.tile(v, (1, 2)),
               lambda xp, v: xp.pad(v, 1), lambda xp, v: xp.tril(v), lambda xp, v: v.reshape(-1),
               lambda xp, v: xp.broadcast_to(v[0], (2, 10)), lambda xp, v: xp.diag(v)):  # fmt: skip
        assert_within_ulp(fn(np, x), fn(gpupy, g), 0)


# ---- functions composed in the Python layer ------------------------------------------------------

_MIXED = _f16([[1.5, -2.25, 0.1, 3.0], [np.nan, 0.0, -0.0, 7.0], [2.0, 5.5, -1.0, 0.5]])
_WEIGHTS = [1.0, 2.0, 1.0, 0.5]

COMPOSED = {
    "gradient": lambda xp, a: xp.gradient(a)[0],
    "trapezoid": lambda xp, a: xp.trapezoid(a),
    "cov": lambda xp, a: xp.cov(a),
    "corrcoef": lambda xp, a: xp.corrcoef(a),
    "histogram_edges": lambda xp, a: xp.histogram(a, bins=3)[1],
    "bincount_weights": lambda xp, a: xp.bincount(xp.asarray([0, 1, 1, 2]), weights=a[0]),
    "average_weights": lambda xp, a: xp.average(
        a, axis=1, weights=xp.asarray(_WEIGHTS, dtype="float16")
    ),
    "convolve": lambda xp, a: xp.convolve(a[0], a[2]),
    "polyval": lambda xp, a: xp.polyval(a[0], a[2]),
    "polyint": lambda xp, a: xp.polyint(a[0]),
    "cross": lambda xp, a: xp.cross(a[:, :3], a[::-1, :3]),
    "mean_where": lambda xp, a: xp.mean(a, axis=1, where=a > 0),
    "std_where": lambda xp, a: xp.std(a, axis=1, where=a > 0),
    "var_given_mean": lambda xp, a: xp.var(a, axis=0, mean=xp.mean(a, axis=0, keepdims=True)),
    "nanmean_where": lambda xp, a: xp.nanmean(a, axis=1, where=a > 0),
    "ptp": lambda xp, a: xp.ptp(a, axis=0),
    "median": lambda xp, a: xp.median(a, axis=0),
    "percentile": lambda xp, a: xp.percentile(a, [10, 90], axis=1),
    "digitize": lambda xp, a: xp.digitize(a[0], xp.asarray([0.0, 1.0, 2.0], dtype="float16")),
    "i0": lambda xp, a: xp.i0(a[0]),
    "modf": lambda xp, a: xp.modf(a),
    "divmod": lambda xp, a: xp.divmod(a, 0.75),
    "ediff1d": lambda xp, a: xp.ediff1d(a[0], to_begin=0.1),
    "emath_sqrt": lambda xp, a: xp.emath.sqrt(a),
    "logspace": lambda xp, a: xp.logspace(0, 2, 5, dtype="float16"),
    "vander": lambda xp, a: xp.vander(a[0], 3),
    "tolist": lambda xp, a: xp.asarray(a.tolist(), dtype="float16"),
}


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NaN slices, as in NumPy
@pytest.mark.parametrize("nan", [False, True])
@pytest.mark.parametrize("name", sorted(COMPOSED))
@testing.numpy_gpupy_allclose(rtol=2e-3, atol=2e-3, accept_error=True)
def test_composed_functions(name, nan, xp):
    return COMPOSED[name](xp, xp.asarray(_MIXED if nan else np.nan_to_num(_MIXED)))
