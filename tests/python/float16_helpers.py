"""Shared by the float16 operation tests: float16 inputs, an ulp comparison with NumPy's results,
the reductions' data, and NumPy's float16 results computed in float32."""

import warnings

import gpupy
import numpy as np
from gpupy import testing

F16 = np.dtype(np.float16)


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


def _random_f16(n, lo, hi, seed):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float16)


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
