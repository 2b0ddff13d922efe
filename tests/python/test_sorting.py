"""Sorting, searching, counting and cumulative ops against NumPy (stable sorts, NaN placement)."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

SHAPES = [(0,), (7,), (3, 0), (4, 9), (2, 3, 600), (2, 1100), (2, 2300)]


def _data(dtype, shape, seed=0, nan=True):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 5, shape).astype(dtype)  # many ties: stability matters
    x = rng.integers(-3, 4, shape) + 0.5 * rng.integers(0, 2, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.integers(-2, 3, shape)
    x = x.astype(dtype)
    if nan and x.size > 2:
        flat = x.reshape(-1)
        flat[:: max(1, x.size // 3)] = np.nan
        if np.dtype(dtype).kind == "c":
            flat[1] = complex(1.0, np.nan)
    return x


def _descending_argsort(x, axis):
    # array-api-strict's definition: flip, stable ascending sort, flip back.
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, stable=True), axis)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("axis", [-1, 0, None])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_sort(shape, axis, dtype, xp):
    return xp.sort(xp.asarray(_data(dtype, shape)), axis=axis)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("axis", [-1, 0, None])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_argsort(shape, axis, dtype, xp):
    return xp.argsort(xp.asarray(_data(dtype, shape)), axis=axis, kind="stable")


@pytest.mark.parametrize("shape", [(9,), (4, 9), (2, 3, 600), (1300,), (2, 2600)])
@testing.for_dtypes(testing.ALL_DTYPES)
def test_descending(shape, dtype):
    x = _data(dtype, shape)
    for axis in range(len(shape)):
        expected = _descending_argsort(x, axis)
        got = gpupy.argsort(gpupy.asarray(x), axis=axis, descending=True)
        testing.assert_same(expected, got)
        values = gpupy.sort(gpupy.asarray(x), axis=axis, descending=True)
        testing.assert_same(np.take_along_axis(x, expected, axis), values)


def _bits(a):
    a = np.asarray(a)
    return a.view(f"u{a.itemsize}") if a.dtype.kind == "f" else a


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint64", "uint32"])
@pytest.mark.parametrize("cols", [0, 1, 2, 40, 63, 64, 65, 95, 96, 97, 1000, 2100])
@pytest.mark.parametrize("case", ["random", "ties", "zeros_nans", "extremes", "equal"])
def test_sort_rows_bit_for_bit(dtype, cols, case):
    """sort and argsort along the last axis (cpu: 4- and 8-byte values sorted through their
    keys, float rows with NaN or -0.0 by the stable sort): NumPy's stable sort to the bit, so
    -0.0/0.0 and NaN payloads keep their input order; ascending and descending."""
    rng = np.random.default_rng(cols)
    shape = (7, cols)
    dt = np.dtype(dtype)
    if dt.kind == "f":
        tiny = np.finfo(dt).smallest_subnormal
        pool = {
            "random": None,
            "ties": np.array([-2.5, -1.0, 0.0, 1.0, 3.0], dt),
            "zeros_nans": np.array([0.0, -0.0, 1.0, -1.0, np.nan, -np.nan], dt),
            "extremes": np.array([np.inf, -np.inf, tiny, -tiny, np.finfo(dt).max, 0.0], dt),
            "equal": np.array([1.25], dt),
        }[case]
        x = (
            (rng.standard_normal(shape) * 1e3).astype(dt)
            if pool is None
            else rng.choice(pool, shape)
        )
        if case == "zeros_nans" and cols:
            x[0, :] = -0.0  # an all -0.0 row
            x.view(f"u{dt.itemsize}")[1, 0] |= 1  # a NaN with a payload
    else:
        info = np.iinfo(dt)
        pool = {
            "random": None,
            "ties": np.array([0, 1, 2, 3], dt),
            "zeros_nans": np.array([0, 1], dt),
            "extremes": np.array([info.min, info.min + 1, info.max - 1, info.max, 0], dt),
            "equal": np.array([info.max], dt),
        }[case]
        x = (
            rng.integers(info.min, info.max, shape, dt, endpoint=True)
            if pool is None
            else rng.choice(pool, shape)
        )
    g = gpupy.asarray(x)
    np.testing.assert_array_equal(
        _bits(gpupy.sort(g, axis=-1).get()), _bits(np.sort(x, -1, stable=True))
    )
    order = _descending_argsort(x, -1)
    got = gpupy.sort(g, axis=-1, descending=True).get()
    np.testing.assert_array_equal(_bits(got), _bits(np.take_along_axis(x, order, -1)))
    # argsort (cpu: radix from 64 elements a row, std::stable_sort below), stable both ways.
    np.testing.assert_array_equal(gpupy.argsort(g, axis=-1).get(), np.argsort(x, -1, stable=True))
    np.testing.assert_array_equal(gpupy.argsort(g, axis=-1, descending=True).get(), order)


@testing.for_dtypes(["int8", "float32", "complex128"])
@testing.numpy_gpupy_allclose()
def test_sort_noncontiguous(dtype, xp):
    x = _data(dtype, (6, 40))[::2, ::-3]
    a = xp.asarray(x)
    return xp.sort(a, axis=0), xp.argsort(a[:, 1:], kind="stable"), xp.sort(a.T)


def test_searchsorted_sorter_out_of_range():
    with pytest.raises(ValueError):
        gpupy.searchsorted(gpupy.arange(4.0), 1.0, sorter=np.array([0, 1, 2, 9]))


def test_signed_zero_ties_keep_order():
    x = np.array([0.0, -0.0, 1.0, -0.0, 0.0])
    testing.assert_same(np.argsort(x, stable=True), gpupy.argsort(gpupy.asarray(x)))


@testing.numpy_gpupy_allclose()
def test_ndarray_sort_in_place(xp):
    a = xp.asarray(_data("float64", (3, 50)))
    b = a[:, ::2]
    b.sort(axis=0)
    a.sort()
    return a, a.argsort(axis=0, kind="stable")


@pytest.mark.parametrize("call", ["sort0d", "axis", "kind", "inplace0d"])
@testing.numpy_gpupy_raises()
def test_sort_errors(call, xp):
    if call == "sort0d":
        xp.sort(xp.asarray(3.0))
    elif call == "axis":
        xp.argsort(xp.zeros((2, 3)), axis=2)
    elif call == "kind":
        xp.sort(xp.zeros(3), kind="bogus")
    else:
        xp.asarray(3.0).sort()


@pytest.mark.parametrize("side", ["left", "right"])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_searchsorted(side, dtype, xp):
    a = np.sort(_data(dtype, (50,)))
    v = _data(dtype, (3, 7), seed=1)
    return xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side), xp.asarray(a).searchsorted(
        xp.asarray(v[0, 0]), side=side
    )


@pytest.mark.parametrize("side", ["left", "right"])
@testing.numpy_gpupy_allclose()
def test_searchsorted_sorter_and_scalars(side, xp):
    x = _data("float64", (40,))
    sorter = np.argsort(x, kind="stable")
    a = xp.asarray(x)
    return (
        xp.searchsorted(a, xp.asarray([-1.0, 0.5, np.nan, 9.0]), side=side, sorter=sorter),
        xp.searchsorted(xp.asarray(np.sort(x)), 1.5, side=side),
        xp.searchsorted(xp.asarray(np.arange(5, dtype="int8")), 2.5),
        xp.searchsorted(xp.asarray(np.arange(3.0)), xp.asarray(np.zeros((0, 2)))),
    )


@pytest.mark.parametrize("call", ["side", "sorter_size"])
@testing.numpy_gpupy_raises()
def test_searchsorted_errors(call, xp):
    a = xp.asarray(np.arange(4.0))
    if call == "side":
        xp.searchsorted(a, 1.0, side="middle")
    else:
        xp.searchsorted(a, 1.0, sorter=np.array([0, 1]))


SCAN_SHAPES = [(), (0,), (5,), (3, 0), (4, 7), (3, 2, 1100), (2, 2600)]


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape", SCAN_SHAPES)
@pytest.mark.parametrize("axis", [None, 0, -1])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_cumsum_cumprod(name, shape, axis, dtype, xp):
    x = _data(dtype, shape, nan=False)
    if name == "cumprod" and np.dtype(dtype).kind in "fc":
        x = (x / 1000 + 1).astype(dtype)  # keep long products finite
    a = xp.asarray(x)
    method = getattr(type(a), name)
    return (
        testing.float16_in_float32(xp, getattr(xp, name), a, axis=axis),
        testing.float16_in_float32(xp, method, a, axis=axis),
    )


@pytest.mark.parametrize("dtype_arg", ["int8", "float32", "complex128"])
@testing.for_dtypes(["bool", "int16", "uint8", "float64"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_cumsum_dtype_and_noncontiguous(dtype_arg, dtype, xp):
    a = xp.asarray(_data(dtype, (5, 30), nan=False)[::2, ::-3])
    out = xp.zeros((3, 10), dtype=dtype_arg)
    xp.cumsum(a, axis=1, dtype=dtype_arg, out=out)
    return xp.cumsum(a, axis=0, dtype=dtype_arg), out


@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
@pytest.mark.parametrize("shape,axis", [((), None), ((6,), None), ((3, 4), 0), ((3, 4), -1)])
@pytest.mark.parametrize("include_initial", [False, True])
@testing.for_dtypes(["bool", "int8", "uint16", "float32", "complex64"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_cumulative(name, shape, axis, include_initial, dtype, xp):
    a = xp.asarray(_data(dtype, shape, nan=False))
    return getattr(xp, name)(a, axis=axis, include_initial=include_initial)


@testing.numpy_gpupy_raises()
def test_cumulative_needs_axis(xp):
    xp.cumulative_sum(xp.zeros((2, 3)))


@pytest.mark.parametrize("axis", [None, 0, (0, 1), -1])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_count_nonzero(axis, keepdims, dtype, xp):
    a = xp.asarray(_data(dtype, (3, 4, 5), nan=False))
    return xp.count_nonzero(a, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("axis", [0, -1])
@testing.for_dtypes(["bool", "int8", "uint8", "float32", "complex128"])
@testing.numpy_gpupy_allclose()
def test_diff(n, axis, dtype, xp):
    return xp.diff(xp.asarray(_data(dtype, (4, 6), nan=False)), n=n, axis=axis)


@testing.numpy_gpupy_allclose()
def test_diff_prepend_append(xp):
    a = xp.asarray(_data("int8", (3, 4)))
    return (
        xp.diff(a, prepend=0),
        xp.diff(a, axis=0, append=xp.asarray(np.ones((2, 4), "float32"))),
        xp.diff(a, n=2, prepend=np.zeros((3, 1), "int16"), append=7),
        xp.diff(xp.asarray(np.arange(5.0))[::-2]),
    )


@pytest.mark.parametrize("call", ["0d", "negative", "shape"])
@testing.numpy_gpupy_raises()
def test_diff_errors(call, xp):
    if call == "0d":
        xp.diff(xp.asarray(1.0))
    elif call == "negative":
        xp.diff(xp.zeros(3), n=-1)
    else:
        xp.diff(xp.zeros((2, 3)), prepend=xp.zeros((3, 3)))


@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("shape", [(7,), (4, 6), (3, 5, 2)])
@testing.for_dtypes(["int16", "uint8", "float32", "float64"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_median(axis, keepdims, shape, dtype, xp):
    a = xp.asarray(_data(dtype, shape, nan=False))
    return xp.median(a, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("q", [0.0, 0.3, 0.5, 1.0, [0.1, 0.75], [[0.2], [0.9]]])
@pytest.mark.parametrize("axis", [None, 1])
@testing.for_dtypes(["int32", "float32", "float64"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_quantile_percentile(q, axis, dtype, xp):
    a = xp.asarray(_data(dtype, (4, 9), nan=False))
    return xp.quantile(a, q, axis=axis), xp.percentile(a, np.asarray(q) * 100, axis=axis)


@testing.numpy_gpupy_allclose()
def test_median_quantile_nan(xp):
    a = xp.asarray(_data("float64", (3, 7)))
    return xp.median(a, axis=1), xp.quantile(a, 0.25, axis=1, keepdims=True)


@testing.numpy_gpupy_raises()
def test_quantile_out_of_range(xp):
    xp.quantile(xp.asarray(np.arange(4.0)), 1.5)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "uint32", "complex64"])
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_many_queries_few_values(dtype, side):
    """More queries than sorted values (the cpu's branch-free path): NaN sorts last, -0.0
    equals 0.0, duplicates and values past both ends."""
    r = np.random.RandomState(2)
    edges = np.sort(np.concatenate([np.linspace(-3, 40, 30), [0.0, 0.0, 5.0, 5.0]]))
    q = np.concatenate([r.rand(3000) * 50 - 5, edges, [-0.0, -100.0, 1e9]])
    if np.dtype(dtype).kind in "fc":
        edges = np.concatenate([edges, [np.nan]])
        q = np.concatenate([q, [np.nan, -np.inf, np.inf]])
    elif np.dtype(dtype).kind == "u":
        edges, q = np.sort(np.abs(edges)), np.abs(q[q < 1e9])
    edges, q = edges.astype(dtype), q.astype(dtype)
    got = gpupy.searchsorted(gpupy.asarray(edges), gpupy.asarray(q), side=side)
    np.testing.assert_array_equal(got.get(), np.searchsorted(edges, q, side=side))


@pytest.mark.parametrize("shape", [(0,), (2, 0), (1, 0), (0, 3)])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (-1, -2)])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.for_dtypes(["int16", "float32"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_median_of_an_empty_axis_is_nan(shape, axis, keepdims, dtype, xp):
    # NumPy: the mean of an empty slice (gpupy once raised IndexError)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.median(xp.zeros(shape, dtype=dtype), axis=axis, keepdims=keepdims)


@pytest.mark.parametrize(
    "values",
    [[3 + 1j, 1 + 5j, 1 + 2j, 2], [[3 + 1j, 1 + 5j, 1j], [1 + 2j, 2, -1]],
     [3 + 1j, 1 + 5j, np.nan, 2], [complex(1, np.nan), 1j, 2]],
)  # fmt: skip
@pytest.mark.parametrize("axis", [None, -1])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@testing.numpy_gpupy_allclose()
def test_median_of_complex_values(values, axis, dtype, xp):
    # NumPy sorts complex values lexicographically (gpupy once refused them); a NaN gives itself
    return xp.median(xp.asarray(np.array(values, dtype=dtype)), axis=axis)


@pytest.mark.parametrize("axis", [(0, 1), (2, 0), (-1, -3), (0, 1, 2), (), np.int64(1)])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.for_dtypes(["complex64", "complex128", "float32", "int16"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_median_over_several_axes(axis, keepdims, dtype, xp):
    # complex data over a tuple of axes (gpupy once refused it), NaN included
    data = (
        _data("float64", (3, 4, 5), nan=False) + 1j * _data("float64", (3, 4, 5), nan=False)[::-1]
    )
    data[0, 1, 2] = np.nan
    a = xp.asarray(data.astype(dtype) if dtype.startswith("c") else data.real.astype(dtype))
    return xp.median(a, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("shape", [(4, 0), (0, 4), (3, 0, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.numpy_gpupy_allclose()
def test_median_over_several_axes_with_an_empty_kept_axis(shape, keepdims, xp):
    # the reduced axes are not empty, a kept one is: an empty result (gpupy's reshape failed)
    return xp.median(xp.ones(shape, dtype="float32"), axis=(-2,), keepdims=keepdims)


@pytest.mark.parametrize("kind", [None, "ck", "Quick", "merge", "x", "s", "", "STABLE", 3])
@pytest.mark.parametrize("stable", [None, True, False])
@pytest.mark.parametrize("fn", ["sort", "argsort", "sort_method", "argsort_method"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_sort_kind_and_stable(fn, kind, stable, xp):
    # NumPy reads kind= by its first letter, refuses a non-str kind (TypeError) and kind= with
    # stable= (ValueError); gpupy accepted both
    a = xp.asarray(np.array([3, 1, 2, 1]))
    if fn == "sort_method":
        a.sort(kind=kind, stable=stable)
        return a
    if fn == "argsort_method":
        return a.argsort(kind=kind, stable=stable)
    return getattr(xp, fn)(a, kind=kind, stable=stable)


@pytest.mark.parametrize("q", [0.25, np.float64(0.25), np.array(0.25), [0.1, 0.0]])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1)])
@pytest.mark.parametrize("method", ["linear", "median_unbiased", "lower"])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@testing.numpy_gpupy_allclose(rtol=1e-6)
def test_quantile_q_dtype_and_keepdims(name, q, axis, method, xp):
    # a NumPy scalar q is strong (float64 result for float32 data) in every method, and keepdims
    # with axis=None keeps the quantiles' axes (gpupy's reshape failed)
    a = xp.asarray(np.arange(24, dtype="float32").reshape(2, 3, 4) % 7)
    return getattr(xp, name)(a, q, axis=axis, method=method, keepdims=True)


@pytest.mark.parametrize("shape, axis", [((0, 5), -1), ((1, 0), 0), ((0, 3), None), ((2, 0), 1)])
@pytest.mark.parametrize("method", ["linear", "nearest", "weibull"])
@pytest.mark.parametrize("name", ["quantile", "nanquantile"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_quantile_of_empty_rows(name, shape, axis, method, xp):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(xp, name)(xp.zeros(shape, dtype="float32"), [0.5], axis=axis, method=method)


_W_DATA = np.array([[3.0, 1.0, 2.0, 2.0], [np.nan, 5.0, -1.0, 0.0], [4.0, 4.0, 4.0, 1.0]])
_W = np.array([[1.0, 0.0, 2.0, 1.0], [1.0, 1.0, 0.5, 3.0], [0.0, 2.0, 1.0, 1.0]])


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("q", [0.0, 0.3, 0.5, 1.0, [0.0, 0.25, 1.0], 1.5])
@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int16"])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_weighted_inverted_cdf_quantiles(name, q, axis, dtype, keepdims, xp):
    # NumPy 2's weights= (method='inverted_cdf'): gpupy refused the keyword
    a = _W_DATA if dtype != "int16" else np.nan_to_num(_W_DATA).astype(dtype)
    a = a.astype(dtype)
    q = np.multiply(q, 100).tolist() if "percentile" in name else q
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return getattr(xp, name)(
            xp.asarray(a), q, axis=axis, method="inverted_cdf", keepdims=keepdims,
            weights=xp.asarray(_W),
        )  # fmt: skip


@pytest.mark.parametrize(
    "axis, weights, method",
    [(1, np.array([1.0, 2.0, 0.0, 1.0]), "inverted_cdf"),
     (0, np.array([1.0, 2.0, 1.0]), "inverted_cdf"), (None, np.ones(4), "inverted_cdf"),
     (1, np.ones(3), "inverted_cdf"), (1, _W, "linear"), (1, -_W, "inverted_cdf"),
     (1, _W * 0, "inverted_cdf"), (5, _W, "inverted_cdf")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_quantile_weights_along_an_axis_and_errors(axis, weights, method, xp):
    a = xp.asarray(np.nan_to_num(_W_DATA))
    return xp.quantile(a, [0.2, 0.7], axis=axis, method=method, weights=xp.asarray(weights))


@pytest.mark.parametrize(
    "dtype, values",
    [("int32", [-1, 4, 9]), ("int16", [-8, -5, 10]), ("float16", [-6.0, 2.5, np.inf, np.nan]),
     ("uint8", []), ("bool", [False, True]), ("uint64", [3, 2**64 - 1]), ("float32", [1.0, 2.0])],
)  # fmt: skip
@pytest.mark.parametrize("v", [2**64 - 1, 2**70, -(2**70), 300, -3, 2**63, 1, [2**63, 1]])
@pytest.mark.parametrize("side", ["left", "right"])
@testing.numpy_gpupy_allclose()
def test_searchsorted_python_ints_beyond_the_dtype(dtype, values, v, side, xp):
    # gpupy raised OverflowError for needles beyond int64 (and iinfo errors for bool arrays)
    return xp.searchsorted(xp.asarray(np.sort(np.array(values, dtype=dtype))), v, side=side)


@pytest.mark.parametrize(
    "a, q",
    [([False, True, True], [False, True, True]), (True, False), ([[True, False]], True),
     ([False, True, True], 0.0), ([False, True], [0.0, 1.0])],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_quantile_of_booleans_at_boolean_quantiles(a, q, xp):
    # quantiles 0 and 1 given as booleans pick elements, and NumPy keeps the bool dtype; float
    # quantiles interpolate, which NumPy refuses for booleans (TypeError)
    return xp.quantile(xp.asarray(a), xp.asarray(q) if isinstance(q, list) else q)
