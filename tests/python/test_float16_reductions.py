"""float16 reductions, scans, nan-functions and quantiles through gpupy against NumPy: results
as NumPy's computed in float32 and rounded once (float16_helpers._in_float32)."""

import warnings

import gpupy
import numpy as np
import pytest
from float16_helpers import (
    DATA,
    WITH_NAN,
    _f16,
    _in_float32,
    assert_within_ulp,
)
from gpupy import testing


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
