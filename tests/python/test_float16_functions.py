"""float16 through gpupy's sorting and searching, matmul and dot, selection and indexing, and the
functions composed in the Python layer, against NumPy."""

import warnings

import gpupy
import numpy as np
import pytest
from float16_helpers import (
    DATA,
    _f16,
    _random_f16,
    assert_within_ulp,
)
from gpupy import testing

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
