"""bincount, histogram (bin estimators too), histogram_bin_edges and digitize against NumPy."""

import gpupy
import numpy
import pytest
from gpupy import testing

rs = numpy.random.RandomState(3)


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint32", "bool"])
def test_bincount_counts(dtype):
    x = rs.randint(0, 2 if dtype == "bool" else 20, 300).astype(dtype)
    got = gpupy.bincount(gpupy.asarray(x))
    expected = numpy.bincount(x)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("wdtype", ["float64", "float32", "int64"])
def test_bincount_weights_and_minlength(wdtype):
    x = rs.randint(0, 12, 500)
    w = (rs.rand(500) * 10).astype(wdtype)
    got = gpupy.bincount(gpupy.asarray(x), weights=gpupy.asarray(w), minlength=20)
    expected = numpy.bincount(x, weights=w, minlength=20)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, atol=1e-9)


def test_bincount_empty_and_minlength():
    got = gpupy.bincount(gpupy.asarray(numpy.array([], dtype=numpy.int64)), minlength=3)
    numpy.testing.assert_array_equal(got.get(), [0, 0, 0])
    got = gpupy.bincount(gpupy.asarray([0, 0, 4]), minlength=2)
    numpy.testing.assert_array_equal(got.get(), [2, 0, 0, 0, 1])


def test_bincount_errors():
    with pytest.raises(ValueError, match=r"\[bincount\].*negative"):
        gpupy.bincount(gpupy.asarray([1, -1, 2]))
    with pytest.raises(TypeError, match=r"\[bincount\]"):
        gpupy.bincount(gpupy.asarray([1.0, 2.0]))
    with pytest.raises(ValueError, match=r"\[bincount\]"):
        gpupy.bincount(gpupy.asarray([[1, 2]]))
    with pytest.raises(ValueError, match=r"\[bincount\].*minlength"):
        gpupy.bincount(gpupy.asarray([1, 2]), minlength=-1)
    with pytest.raises(ValueError, match=r"\[bincount\]"):
        gpupy.bincount(gpupy.asarray([1, 2]), weights=gpupy.asarray([1.0]))


HIST_CASES = [
    {},
    {"bins": 7},
    {"bins": 1},
    {"bins": [-2.0, -1.0, 0.0, 0.5, 3.0]},
    {"bins": [-1.0, 0.0, 0.0, 1.0]},
    {"bins": 5, "range": (-1.0, 1.0)},
    {"bins": 4, "density": True},
    {"bins": [-3.0, -0.5, 0.0, 2.0], "density": True},
]


@pytest.mark.parametrize("kwargs", HIST_CASES, ids=str)
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_histogram_matches_numpy(kwargs, dtype):
    a = (rs.randn(400) * (3 if dtype == "int64" else 1)).astype(dtype)
    hist, edges = gpupy.histogram(gpupy.asarray(a), **kwargs)
    h, e = numpy.histogram(a, **kwargs)
    assert hist.dtype == h.dtype and edges.dtype == e.dtype
    numpy.testing.assert_allclose(hist.get(), h, rtol=1e-12)
    numpy.testing.assert_array_equal(edges.get(), e)


def test_histogram_edge_rules():
    # Values on inner edges go right, the last edge is closed, values outside are dropped.
    a = numpy.array([0.0, 1.0, 1.0, 2.0, 3.0, 3.0, 3.5, -0.1])
    hist, _ = gpupy.histogram(gpupy.asarray(a), bins=[0.0, 1.0, 2.0, 3.0])
    numpy.testing.assert_array_equal(hist.get(), [1, 2, 3])
    hist, edges = gpupy.histogram(gpupy.asarray([5.0, 5.0]))
    h, e = numpy.histogram([5.0, 5.0])
    numpy.testing.assert_array_equal(hist.get(), h)
    numpy.testing.assert_allclose(edges.get(), e)


@pytest.mark.parametrize("density", [False, True])
def test_histogram_weights(density):
    a, w = rs.randn(300), rs.rand(300)
    hist, _ = gpupy.histogram(gpupy.asarray(a), bins=6, weights=gpupy.asarray(w), density=density)
    h, _ = numpy.histogram(a, bins=6, weights=w, density=density)
    assert hist.dtype == h.dtype
    numpy.testing.assert_allclose(hist.get(), h, rtol=1e-10)
    wi = rs.randint(0, 5, 300)
    hist, _ = gpupy.histogram(gpupy.asarray(a), bins=6, weights=gpupy.asarray(wi))
    h, _ = numpy.histogram(a, bins=6, weights=wi)
    assert hist.dtype == h.dtype
    numpy.testing.assert_array_equal(hist.get(), h)


def test_histogram_nan_with_range_and_errors():
    a = numpy.array([0.5, numpy.nan, 1.5])
    hist, _ = gpupy.histogram(gpupy.asarray(a), bins=2, range=(0, 2))
    numpy.testing.assert_array_equal(hist.get(), numpy.histogram(a, bins=2, range=(0, 2))[0])
    with pytest.raises(ValueError, match=r"\[histogram\].*not finite"):
        gpupy.histogram(gpupy.asarray(a))
    with pytest.raises(ValueError, match=r"\[histogram\].*monotonically"):
        gpupy.histogram(gpupy.asarray([1.0]), bins=[0.0, 2.0, 1.0])
    with pytest.raises(ValueError, match=r"\[histogram\].*positive"):
        gpupy.histogram(gpupy.asarray([1.0]), bins=0)
    with pytest.raises(ValueError, match=r"\[histogram\].*range"):
        gpupy.histogram(gpupy.asarray([1.0]), range=(2, 1))
    with pytest.raises(NotImplementedError, match=r"\[histogram\]"):
        gpupy.histogram(gpupy.asarray([1.0]), bins="stone")
    with pytest.raises(ValueError, match=r"\[histogram\].*estimator"):
        gpupy.histogram(gpupy.asarray([1.0]), bins="bogus")
    with pytest.raises(TypeError, match=r"\[histogram\].*weighted"):
        gpupy.histogram(gpupy.asarray([1.0]), bins="auto", weights=gpupy.asarray([1.0]))


@pytest.mark.parametrize("name", ["auto", "doane", "fd", "rice", "scott", "sqrt", "sturges"])
@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_histogram_bin_estimators(name, dtype):
    a = (rs.standard_t(5, 1000) * (20 if dtype == "int64" else 1)).astype(dtype)
    for kwargs in ({}, {"range": (-2, 3)}):
        hist, edges = gpupy.histogram(gpupy.asarray(a), bins=name, **kwargs)
        h, e = numpy.histogram(a, bins=name, **kwargs)
        assert edges.shape == e.shape
        numpy.testing.assert_allclose(edges.get(), e, rtol=1e-12)
        numpy.testing.assert_array_equal(hist.get(), h)
    flat = numpy.full(5, 3, dtype)
    e = gpupy.histogram_bin_edges(gpupy.asarray(flat), bins=name)
    numpy.testing.assert_array_equal(e.get(), numpy.histogram_bin_edges(flat, bins=name))


def test_histogram_bin_edges_and_dispatch():
    a = rs.randn(50)
    e = gpupy.histogram_bin_edges(gpupy.asarray(a), bins=5)
    numpy.testing.assert_array_equal(e.get(), numpy.histogram_bin_edges(a, bins=5))
    hist, edges = numpy.histogram(gpupy.asarray(a), bins=5)
    assert isinstance(hist, gpupy.ndarray)
    numpy.testing.assert_array_equal(hist.get(), numpy.histogram(a, bins=5)[0])
    got = numpy.bincount(gpupy.asarray([1, 1, 3]))
    assert isinstance(got, gpupy.ndarray)


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("decreasing", [False, True])
def test_digitize(right, decreasing):
    bins = numpy.array([0.0, 1.0, 2.5, 4.0])
    if decreasing:
        bins = bins[::-1].copy()
    x = numpy.array([-1.0, 0.0, 1.0, 2.0, 2.5, 3.0, 4.0, 5.0, numpy.nan])
    got = gpupy.digitize(gpupy.asarray(x), gpupy.asarray(bins), right=right)
    numpy.testing.assert_array_equal(got.get(), numpy.digitize(x, bins, right=right))


@pytest.mark.parametrize(
    "x_dtype, bins",
    [("uint32", numpy.array([-32768, 4], numpy.int16)),
     ("int16", numpy.array([-32768, 0, 32767], numpy.int16)[::-1]),
     ("int8", numpy.array([0, 200, 255], numpy.uint8))],
)  # fmt: skip
def test_digitize_bins_whose_differences_overflow(x_dtype, bins):
    # The gaps between neighbouring bins do not fit the bins' dtype; they are still monotonic.
    x = numpy.array([7, 0, -1, 5, 100], numpy.int64).astype(x_dtype)
    got = gpupy.digitize(gpupy.asarray(x), gpupy.asarray(bins))
    numpy.testing.assert_array_equal(got.get(), numpy.digitize(x, bins))


@pytest.mark.parametrize(
    "bins",
    [numpy.array([-32768, 32767], numpy.int16), numpy.array([-128, 0, 127], numpy.int8),
     numpy.array([0, 200, 255], numpy.uint8)],
)  # fmt: skip
def test_histogram_bins_whose_differences_overflow(bins):
    # Monotonic edges whose gaps do not fit their dtype.
    a = numpy.array([1, 2, 3, -5, 100], numpy.int16)
    counts, edges = gpupy.histogram(gpupy.asarray(a), bins=gpupy.asarray(bins))
    expected_counts, expected_edges = numpy.histogram(a, bins=bins)
    numpy.testing.assert_array_equal(counts.get(), expected_counts)
    numpy.testing.assert_array_equal(edges.get(), expected_edges)


def test_digitize_errors():
    with pytest.raises(ValueError, match=r"\[digitize\].*monotonically"):
        gpupy.digitize(gpupy.asarray([1.0]), gpupy.asarray([0.0, 2.0, 1.0]))


def _exact_on(device):
    """cpu adds weights in NumPy's order (bit for bit); devices add atomically, in any order."""
    return device == "cpu"


@pytest.mark.parametrize("wdtype", ["float64", "float32", "int32", "uint64", "bool", "float16"])
def test_bincount_weight_dtypes_large(wdtype, device_name):
    """Many values per bin (the parallel and shared-memory paths), weights cast to float64."""
    r = numpy.random.RandomState(7)
    x = r.randint(0, 37, 200_000)
    w = (r.rand(200_000) * 10).astype(wdtype)
    got = gpupy.bincount(gpupy.asarray(x), weights=gpupy.asarray(w), minlength=40)
    expected = numpy.bincount(x, weights=w, minlength=40)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    if _exact_on(device_name):
        numpy.testing.assert_array_equal(got.get(), expected)
    else:
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12)
    counts = gpupy.bincount(gpupy.asarray(x))
    numpy.testing.assert_array_equal(counts.get(), numpy.bincount(x))


def test_bincount_many_bins_and_empty_weights():
    x = rs.randint(0, 50_000, 3000)
    w = rs.rand(3000)
    got = gpupy.bincount(gpupy.asarray(x), weights=gpupy.asarray(w))
    numpy.testing.assert_allclose(got.get(), numpy.bincount(x, weights=w), rtol=1e-15)
    empty = numpy.array([], dtype=numpy.int64)
    got = gpupy.bincount(gpupy.asarray(empty), weights=gpupy.asarray([]), minlength=4)
    expected = numpy.bincount(empty, weights=numpy.array([]), minlength=4)
    assert got.dtype == expected.dtype  # NumPy's int64 zeros: it returns before the weights
    numpy.testing.assert_array_equal(got.get(), expected)


def test_bincount_weight_errors():
    with pytest.raises(ValueError, match=r"\[bincount\].*same length"):
        gpupy.bincount(gpupy.asarray([0, 1]), weights=gpupy.asarray([1.0]))
    with pytest.raises(TypeError, match=r"\[bincount\]"):
        gpupy.bincount(gpupy.asarray([0, 1]), weights=gpupy.asarray([1j, 2j]))
    with pytest.raises(ValueError, match=r"\[bincount\].*negative"):
        gpupy.bincount(gpupy.asarray([0, -5]), weights=gpupy.asarray([1.0, 2.0]))


def test_bin_add_skips_out_of_range_and_checks_arguments():
    bins = gpupy.zeros(4, dtype="int64")
    gpupy._core.bin_add(bins, gpupy.asarray([0, -1, 3, 4, 3, 1 << 40]))
    numpy.testing.assert_array_equal(bins.get(), [1, 0, 0, 2])
    sums = gpupy.full(3, -0.0)
    gpupy._core.bin_add(sums, gpupy.asarray([2, 2]), gpupy.asarray([0.5, 0.25]))
    numpy.testing.assert_array_equal(sums.get(), [-0.0, -0.0, 0.75])
    assert numpy.signbit(sums.get()[:2]).all()  # untouched bins keep their sign
    with pytest.raises(TypeError, match=r"\[bin_add\]"):
        gpupy._core.bin_add(gpupy.zeros(3, dtype="int32"), gpupy.asarray([0]))
    with pytest.raises(TypeError, match=r"\[bin_add\]"):
        gpupy._core.bin_add(bins, gpupy.asarray([0.0]))
    with pytest.raises(ValueError, match=r"\[bin_add\]"):
        gpupy._core.bin_add(gpupy.zeros((2, 2)), gpupy.asarray([0]))
    with pytest.raises(ValueError, match=r"\[bin_add\]"):
        gpupy._core.bin_add(gpupy.zeros(8)[::2], gpupy.asarray([0]))
    with pytest.raises(ValueError, match=r"\[bin_add\]"):
        gpupy._core.bin_add(sums, gpupy.asarray([0, 1]), gpupy.asarray([1.0]))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "uint8"])
@pytest.mark.parametrize("bins", [50, "array"])
def test_histogram_large_weighted(dtype, bins, device_name):
    """More values than NumPy's block of 65536, NaN and values outside an explicit range."""
    r = numpy.random.RandomState(11)
    a = r.randn(150_001)
    a[::1000] = numpy.nan
    w = (r.rand(150_001) * 100).astype(dtype)
    edges = numpy.array([-2.0, -0.5, 0.0, 0.1, 1.0, 1.0, 2.5]) if bins == "array" else bins
    got, got_edges = gpupy.histogram(
        gpupy.asarray(a), edges, range=(-2.0, 2.5), weights=gpupy.asarray(w)
    )
    expected, expected_edges = numpy.histogram(a, edges, range=(-2.0, 2.5), weights=w)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got_edges.get(), expected_edges)
    if numpy.dtype(dtype).kind != "f" or (_exact_on(device_name) and bins != "array"):
        numpy.testing.assert_array_equal(got.get(), expected)
    else:
        # NumPy sums unequal bins by differences of a running sum in the weights' dtype (for
        # float32, off by ~1e-5); gpupy adds each bin in float64: compare with float64 sums.
        exact, _ = numpy.histogram(a, edges, range=(-2.0, 2.5), weights=w.astype("float64"))
        numpy.testing.assert_allclose(got.get(), exact.astype(dtype), rtol=1e-6)
    counts, _ = gpupy.histogram(gpupy.asarray(a), edges, range=(-2.0, 2.5))
    numpy.testing.assert_array_equal(counts.get(), numpy.histogram(a, edges, range=(-2.0, 2.5))[0])


def test_histogram_complex_weights_and_last_edge():
    a = numpy.array([0.0, 1.0, 1.0, 0.5, 2.0, 3.0])
    w = numpy.array([1 + 2j, 3j, -1, 0.5, 2 - 1j, 7])
    got, _ = gpupy.histogram(gpupy.asarray(a), 4, range=(0.0, 2.0), weights=gpupy.asarray(w))
    expected, _ = numpy.histogram(a, 4, range=(0.0, 2.0), weights=w)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected)


def _uniform_data(dtype, n=3000):
    """Data with values on bin edges, out of range values, and repeats."""
    if numpy.dtype(dtype).kind in "iu":
        lo = 0 if numpy.dtype(dtype).kind == "u" else -50
        return rs.randint(lo, 100, n).astype(dtype)
    a = rs.randn(n).astype(dtype)
    a[::7] = numpy.round(a[::7] * 4) / 4  # many on edges of quarter-width bins
    a[::11] = numpy.linspace(-1, 1, 11, dtype=dtype)[rs.randint(0, 11, a[::11].size)]
    return a


@pytest.mark.parametrize(
    "dtype", ["float64", "float32", "int8", "int16", "int32", "int64", "uint8", "uint64"]
)
@pytest.mark.parametrize(
    "kwargs",
    [
        {"bins": 8},
        {"bins": 10, "range": (-1, 1)},
        {"bins": 10, "range": (-1.0, 1.0)},
        {"bins": 7, "range": (numpy.float64(-0.3), numpy.float64(0.9))},
        {"bins": 7, "range": (numpy.float32(-0.3), numpy.float32(0.9))},
        {"bins": 3, "range": (0.1, 0.7)},
        {"bins": 13, "range": (2, 2)},
        {"bins": 50, "range": (0.0, 1e-300)},
    ],
    ids=str,
)
def test_histogram_equal_bins_arithmetic_matches_numpy(dtype, kwargs):
    # The arithmetic bin index with its edge corrections, in NumPy's promoted precision.
    a = _uniform_data(dtype)
    try:
        h, e = numpy.histogram(a, **kwargs)
    except ValueError as exc:
        with pytest.raises(ValueError, match=r"\[histogram\]"):
            gpupy.histogram(gpupy.asarray(a), **kwargs)
        assert "bins" in str(exc)
        return
    hist, edges = gpupy.histogram(gpupy.asarray(a), **kwargs)
    assert hist.dtype == h.dtype and edges.dtype == e.dtype
    numpy.testing.assert_array_equal(edges.get(), e)
    numpy.testing.assert_array_equal(hist.get(), h)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_histogram_equal_bins_specials(dtype):
    a = numpy.array(
        [0.0, -0.0, 1.0, numpy.nan, numpy.inf, -numpy.inf, 0.5, 0.25, 0.75, 1e-320, -1e-45],
        dtype=dtype,
    )
    for kwargs in ({"bins": 4, "range": (0, 1)}, {"bins": 3, "range": (-1.0, 1.0)}):
        hist, _ = gpupy.histogram(gpupy.asarray(a), **kwargs)
        numpy.testing.assert_array_equal(hist.get(), numpy.histogram(a, **kwargs)[0])
        w = numpy.arange(a.size, dtype=dtype)
        hist, _ = gpupy.histogram(gpupy.asarray(a), weights=gpupy.asarray(w), **kwargs)
        h = numpy.histogram(a, weights=w, **kwargs)[0]
        assert hist.dtype == h.dtype
        numpy.testing.assert_array_equal(hist.get(), h)
    with pytest.raises(ValueError, match=r"\[histogram\].*not finite"):
        gpupy.histogram(gpupy.asarray(a), bins=4)


def test_histogram_equal_bins_empty_noncontiguous_and_density():
    h, e = gpupy.histogram(gpupy.asarray(numpy.array([], numpy.float32)), bins=3)
    hn, en = numpy.histogram(numpy.array([], numpy.float32), bins=3)
    numpy.testing.assert_array_equal(h.get(), hn)
    numpy.testing.assert_array_equal(e.get(), en)
    m = rs.rand(60, 40)
    got, _ = gpupy.histogram(gpupy.asarray(m)[::3, 1::2], bins=9, density=True)
    numpy.testing.assert_allclose(got.get(), numpy.histogram(m[::3, 1::2], 9, density=True)[0])
    big = rs.rand(200_000)  # several of NumPy's 65536-value blocks of weighted sums
    w = rs.rand(200_000)
    got, _ = gpupy.histogram(gpupy.asarray(big), 20, weights=gpupy.asarray(w))
    expected = numpy.histogram(big, 20, weights=w)[0]
    if str(got.device) == "cpu":  # NumPy's order of additions; devices add atomically
        numpy.testing.assert_array_equal(got.get(), expected)
    else:
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-13)
    with pytest.raises(ValueError, match=r"\[histogram\].*Too many bins"):
        gpupy.histogram(gpupy.asarray([1.0, 1.0 + 1e-15]), bins=100)


def test_uniform_bin_index_rejects_bad_input():
    x = gpupy.asarray(numpy.array([0.5]))
    e = gpupy.asarray(numpy.array([0.0, 1.0]))
    with pytest.raises(TypeError, match=r"\[uniform_bin_index\]"):
        gpupy._core._uniform_bin_index(x.astype("complex128"), e, 0, 1, 0, 1, False, False)
    with pytest.raises(TypeError, match=r"\[uniform_bin_index\]"):
        gpupy._core._uniform_bin_index(x, e.astype("int64"), 0, 1, 0, 1, False, False)
    with pytest.raises(ValueError, match=r"\[uniform_bin_index\]"):
        gpupy._core._uniform_bin_index(x, e[:1], 0, 1, 0, 1, False, False)
    with pytest.raises(ValueError, match=r"\[uniform_bin_index\]"):
        gpupy._core._uniform_bin_index(x, e, 0, 1, 0, 1, False, True)


# (ranges that keep every estimator's bin count small: FD of a wide range asks for 10**9 bins)
_ESTIMATOR_DATA = [
    numpy.array([10, 7, 3, 6, 300, 10, 2, 7], dtype="uint16"),
    numpy.array([0, 1, 1, 1, 1], bool),
    numpy.array([0, 0, 0, 0, 1, 1, 1], bool),
    numpy.array([2, -4, -4, 1, -128, 127, -7], dtype="int8"),
    numpy.linspace(-3.0, 40.0, 50) ** 2,
]


@pytest.mark.parametrize("data", range(len(_ESTIMATOR_DATA)))
@pytest.mark.parametrize("bins", ["auto", "fd", "sturges", "scott", "rice", "sqrt", "doane"])
@pytest.mark.parametrize("range_", [None, (-2.0, 2.5)])
@testing.numpy_gpupy_allclose()
def test_bin_estimators_follow_numpy(data, bins, range_, xp):
    # 'auto' bounds FD by half the sqrt width (NumPy 2.3), booleans count as uint8 and the widths
    # and the range subtract in the data's dtype (found by tools/fuzz_numpy.py)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy's bool-to-uint8 notice
        return xp.histogram_bin_edges(xp.asarray(_ESTIMATOR_DATA[data]), bins=bins, range=range_)


@pytest.mark.parametrize(
    "x, kw",
    [(numpy.array([2, 5], "uint64"), {}), (numpy.array([2, 5], "uint64"), {"weights": [1.5, 2]}),
     (numpy.array([2**64 - 1, 5], "uint64"), {}), (numpy.array([], bool), {"minlength": 4}),
     (numpy.array([], "int8"), {"weights": [], "minlength": 2}),
     (numpy.array([], "uint64"), {"minlength": -1})],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_bincount_uint64_and_empty_input(x, kw, xp):
    # NumPy reads uint64 as int64 (2**63 and above are negative) and answers an empty input with
    # int64 zeros whatever the weights; gpupy refused uint64 and summed the weights
    kw = {k: xp.asarray(numpy.array(v, float)) if k == "weights" else v for k, v in kw.items()}
    return xp.bincount(xp.asarray(x), **kw)


@pytest.mark.parametrize("minlength", [0, 3])
@pytest.mark.parametrize("empty", [[], ()])
@testing.numpy_gpupy_allclose()
def test_bincount_of_an_empty_list(xp, empty, minlength):
    # found by NumPy's test_function_base.py: an empty list is read as integers
    return xp.bincount(empty, minlength=minlength)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_bincount_refuses_an_empty_float_array(xp):
    return xp.bincount(xp.zeros(0))


@pytest.mark.parametrize("bins", [3, [[0.0, 0.5, 1.0]]])
@testing.numpy_gpupy_allclose()
def test_histogramdd_of_a_list_of_numbers(xp, bins):
    # found by NumPy's test_histograms.py: a list of numbers is a one-dimensional sample
    hist, edges = xp.histogramdd([0.9999999995, 0.2, 0.7], bins=bins)
    return hist, edges[0]


@pytest.mark.parametrize("name", ["histogram", "histogram_bin_edges"])
def test_histogram_of_booleans_warns_as_numpy(name):
    # found by NumPy's test_histograms.py: booleans are read as uint8, with a RuntimeWarning
    data = [True, True, False]
    with pytest.warns(RuntimeWarning, match="Converting input from bool") as caught:
        got = getattr(gpupy, name)(gpupy.asarray(data))
    with pytest.warns(RuntimeWarning, match="Converting input from bool") as expected_caught:
        expected = getattr(numpy, name)(numpy.asarray(data))
    assert [str(w.message) for w in caught] == [str(w.message) for w in expected_caught]
    got, expected = (got, expected) if name == "histogram" else ([got], [expected])
    for g, e in zip(got, expected, strict=True):
        numpy.testing.assert_array_equal(g.get(), e)
