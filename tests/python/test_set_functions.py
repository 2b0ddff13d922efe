"""Set functions against NumPy: numpy.unique (flattened and along an axis, equal_nan) and the Array
API unique_*."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

SHAPES = [(), (0,), (2, 0), (1,), (9,), (4, 7), (2, 3, 50), (1500,)]


def _data(dtype, shape, seed=0, nan=True):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        return rng.integers(0, 6, shape).astype(dtype)  # many repeats
    x = rng.integers(-3, 4, shape) + 0.5 * rng.integers(0, 2, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.integers(-2, 3, shape)
    x = np.asarray(x).astype(dtype)
    if nan and x.size > 2:
        flat = x.reshape(-1)
        flat[:: max(1, x.size // 4)] = np.nan
        flat[-1] = -0.0  # signed zeros are equal
        if np.dtype(dtype).kind == "c":
            flat[1] = complex(1.0, np.nan)
            flat[2] = complex(np.nan, -1.0)
    return x


FLAGS = [
    (False, False, False),
    (True, False, False),
    (False, True, False),
    (False, False, True),
    (True, True, True),
]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("flags", FLAGS)
@pytest.mark.parametrize("equal_nan", [True, False])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_unique(shape, flags, equal_nan, dtype, xp):
    index, inverse, counts = flags
    a = xp.asarray(_data(dtype, shape))
    r = xp.unique(
        a, return_index=index, return_inverse=inverse, return_counts=counts, equal_nan=equal_nan
    )
    if inverse and not index and not equal_nan:
        # NumPy sorts unstably here, so which distinct NaN an input NaN maps to is arbitrary;
        # gpupy's sort is stable (as with return_index). Compare what the inverse rebuilds.
        r = (r[0], r[0][r[1]]) + tuple(r[2:])
    return r


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_unique_all(shape, dtype, xp):
    r = xp.unique_all(xp.asarray(_data(dtype, shape)))
    assert r._fields == ("values", "indices", "inverse_indices", "counts")
    assert r.inverse_indices.shape == shape
    return tuple(r)


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_unique_counts(shape, dtype, xp):
    r = xp.unique_counts(xp.asarray(_data(dtype, shape)))
    assert r._fields == ("values", "counts")
    return tuple(r)


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_unique_inverse(shape, dtype, xp):
    a = xp.asarray(_data(dtype, shape))
    r = xp.unique_inverse(a)
    assert r._fields == ("values", "inverse_indices")
    assert r.inverse_indices.shape == shape
    # NumPy sorts unstably here, so which of several distinct NaNs an input NaN maps to is
    # arbitrary; compare what the inverse rebuilds (the indices themselves: test below).
    return r.values, r.values[r.inverse_indices]


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(testing.ALL_DTYPES)
def test_unique_inverse_is_stable(shape, dtype):
    # gpupy's sort is stable: the inverse is unique_all's (NaNs map to distinct values in order).
    x = _data(dtype, shape)
    testing.assert_same(
        np.unique_all(x).inverse_indices, gpupy.unique_inverse(gpupy.asarray(x)).inverse_indices
    )


@pytest.mark.parametrize("shape", SHAPES)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_unique_values(shape, dtype, xp):
    # The Array API leaves the order unspecified (NumPy may not sort); gpupy's is sorted.
    return xp.sort(xp.unique_values(xp.asarray(_data(dtype, shape))))


def test_unique_values_sorted():
    x = _data("int16", (300,))
    testing.assert_same(np.unique(x), gpupy.unique_values(gpupy.asarray(x)))


def test_nans_distinct():
    x = np.array([np.nan, 1.0, np.nan, complex(np.nan, 1).real, 1.0])
    r = gpupy.unique_counts(gpupy.asarray(x))
    testing.assert_same(np.array([1.0, np.nan, np.nan, np.nan]), r.values)
    testing.assert_same(np.array([2, 1, 1, 1]), r.counts)
    v, c = gpupy.unique(gpupy.asarray(x), return_counts=True)
    testing.assert_same(np.array([1.0, np.nan]), v)
    testing.assert_same(np.array([2, 3]), c)


def test_complex_nans_collapse():
    c = np.array([complex(np.nan, 1), complex(1, np.nan), complex(np.nan, np.nan), 1 + 1j])
    expected = np.unique(c, True, True, True)
    testing.assert_same(expected, gpupy.unique(gpupy.asarray(c), True, True, True))


@testing.for_dtypes(["int32", "float64", "complex64"])
@testing.numpy_gpupy_allclose()
def test_unique_noncontiguous(dtype, xp):
    a = xp.asarray(_data(dtype, (6, 40)))[::2, ::-3]
    return xp.unique(a, True, True, True) + tuple(xp.unique_all(a.T))


@testing.numpy_gpupy_allclose()
def test_unique_list_input(xp):
    return xp.unique([3, 1, 3, 2], return_inverse=True)


def _rows(shape, dtype, seed):
    """Few distinct values, so that whole slices repeat; a NaN and a -0.0 in float data."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 3, shape).astype(dtype)
    if x.dtype.kind == "f" and x.size:
        x.flat[x.size // 2] = np.nan
        x.flat[0] = -0.0
    return x


@pytest.mark.parametrize(
    "shape, axis",
    [((12, 2), 0), ((12, 2), 1), ((3, 9, 2), 1), ((3, 9, 2), -1), ((5,), 0), ((4, 0), 0),
     ((4, 0), 1), ((0, 3), 0), ((0, 3), 1)],
)  # fmt: skip
@testing.for_dtypes(("bool", "int8", "uint16", "int64", "float32", "float64", "complex64"))
@testing.numpy_gpupy_allclose()
def test_unique_along_axis(shape, axis, dtype, xp):
    x = xp.asarray(_rows(shape, dtype, seed=len(shape) + axis))
    return xp.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)


@testing.numpy_gpupy_allclose()
def test_unique_along_axis_values_only_and_nan_rows_stay_distinct(xp):
    x = xp.asarray([[np.nan, 1.0], [np.nan, 1.0], [0.0, 1.0], [-0.0, 1.0]])
    return xp.unique(x, axis=0), xp.unique(x, axis=0, equal_nan=False)


@pytest.mark.parametrize("axis", [2, -3])
@testing.numpy_gpupy_raises()
def test_unique_axis_out_of_bounds(axis, xp):
    xp.unique(xp.zeros((2, 2)), axis=axis)


@testing.numpy_gpupy_raises()
def test_unique_axis_of_0d(xp):
    xp.unique(xp.asarray(3.0), axis=0)


@pytest.mark.parametrize("dtype", testing.ALL_DTYPES)
@pytest.mark.parametrize("shape", [(), (0,), (9,), (4, 7), (1500,)])
@pytest.mark.parametrize("invert", [False, True])
def test_isin_matches_numpy(dtype, shape, invert):
    x = _data(dtype, shape, seed=1)
    tests = _data(dtype, (5,), seed=2)
    got = gpupy.isin(gpupy.asarray(x), gpupy.asarray(tests), invert=invert)
    np.testing.assert_array_equal(gpupy.asnumpy(got), np.isin(x, tests, invert=invert), strict=True)


@pytest.mark.parametrize(
    ("element", "tests"),
    [
        (np.array([1, 255, 7], np.uint8), np.array([-1, 7, 300], np.int16)),  # promoted compare
        (np.array([0.5, 2.0, 9.0]), np.array([2, 9])),  # float elements, int test values
        (np.array([[3, 4], [5, 6]]), np.array([], np.int64)),  # nothing to find
        (np.array([1e9, -1e9]), np.array([1e9])),  # above and below every test value
    ],
)
def test_isin_mixed_dtypes_and_edges(element, tests):
    got = gpupy.isin(gpupy.asarray(element), gpupy.asarray(tests))
    np.testing.assert_array_equal(gpupy.asnumpy(got), np.isin(element, tests), strict=True)


def test_isin_takes_python_values_and_refuses_bad_kind():
    assert bool(gpupy.isin(3, [1, 2, 3])) is True
    np.testing.assert_array_equal(
        gpupy.asnumpy(gpupy.isin(gpupy.arange(5), [4, 0])), np.isin(np.arange(5), [4, 0])
    )
    with pytest.raises(ValueError, match=r"\[isin\] kind"):
        gpupy.isin(gpupy.arange(3), [1], kind="hash")


def _tuple(r):
    return tuple(r) if isinstance(r, tuple) else (r,)


@pytest.mark.parametrize(
    ("dtype", "lo", "hi"),
    [
        ("int8", -128, 128),  # the whole range: offsets beyond int8
        ("int16", -300, 300),
        ("int64", -(2**62), -(2**62) + 50),
        ("int64", -5, 2**40),  # too wide for a table: sorted instead
        ("uint8", 0, 256),
        ("uint64", 2**64 - 40, 2**64),  # above int64's range
        ("uint64", 0, 2**63 + 5),
    ],
)
@pytest.mark.parametrize("flags", [(False, False), (True, False), (False, True), (True, True)])
def test_unique_integer_ranges(dtype, lo, hi, flags):
    # Counted in a table when the range is small (values, counts, inverse), sorted when not.
    counts, inverse = flags
    rng = np.random.default_rng(7)
    x = rng.integers(lo, hi, 3000, dtype=np.dtype(dtype), endpoint=False)
    x[:2] = [lo, hi - 1]
    got = gpupy.unique(gpupy.asarray(x), return_counts=counts, return_inverse=inverse)
    expected = np.unique(x, return_counts=counts, return_inverse=inverse)
    for g, e in zip(_tuple(got), _tuple(expected), strict=True):
        np.testing.assert_array_equal(gpupy.asnumpy(g), e, strict=True)


# The Array API functions as np.unique's flags (NumPy's own unique_* need not sort).
ARRAY_API_UNIQUE = {
    "unique_values": {},
    "unique_counts": {"return_counts": True},
    "unique_inverse": {"return_inverse": True},
    "unique_all": {"return_index": True, "return_inverse": True, "return_counts": True},
}


@pytest.mark.parametrize("fn", sorted(ARRAY_API_UNIQUE))
def test_unique_array_api_integers_in_a_table(fn):
    x = np.array([[5, -2, 5], [9, -2, 5]], np.int32)
    got = getattr(gpupy, fn)(gpupy.asarray(x))
    expected = np.unique(x, equal_nan=False, **ARRAY_API_UNIQUE[fn])
    for g, e in zip(_tuple(got), _tuple(expected), strict=True):
        np.testing.assert_array_equal(gpupy.asnumpy(g), e, strict=True)


def test_unique_float_nans_and_signed_zeros_without_positions():
    x = np.array([np.nan, 0.0, -0.0, 2.0, np.nan, -np.inf, np.inf, 2.0, np.nan])
    for equal_nan in (True, False):
        for counts in (False, True):
            got = gpupy.unique(gpupy.asarray(x), return_counts=counts, equal_nan=equal_nan)
            expected = np.unique(x, return_counts=counts, equal_nan=equal_nan)
            for g, e in zip(_tuple(got), _tuple(expected), strict=True):
                np.testing.assert_array_equal(gpupy.asnumpy(g), e, strict=True)
    all_nan = np.full(4, np.nan, np.float32)
    got = gpupy.unique(gpupy.asarray(all_nan), return_counts=True)
    np.testing.assert_array_equal(got[1].get(), np.unique(all_nan, return_counts=True)[1])


@pytest.mark.parametrize("kind", [None, "sort", "table"])
@pytest.mark.parametrize(
    ("element", "tests"),
    [
        (np.arange(-20, 300, dtype=np.int16), np.array([-20, 0, 7, 299], np.int16)),
        (np.arange(200, dtype=np.uint8), np.array([0, 255, 3], np.uint8)),
        (np.array([2**64 - 1, 5, 7], np.uint64), np.array([-1, 5], np.int64)),  # by value
        (np.array([-1, 5, 2**62], np.int64), np.array([2**63 + 1, 5], np.uint64)),
        (np.array([True, False, True]), np.array([True])),
        (np.array([0, 1, 2, 3]), np.array([True])),
        (np.arange(-50, 50).reshape(10, 10)[:, ::3], np.arange(-5, 40, 2)),  # strided
        (np.array(4, np.int32), np.array([4, 9], np.int8)),  # 0-d
    ],
)
@pytest.mark.parametrize("invert", [False, True])
def test_isin_strategies_match_numpy(element, tests, kind, invert):
    try:
        expected = np.isin(element, tests, invert=invert, kind=kind)
    except MemoryError:  # NumPy's table over int64 and uint64 spans 2**63; gpupy sorts instead
        expected = np.isin(element, tests, invert=invert, kind="sort")
    except (ValueError, RuntimeError) as exc:
        with pytest.raises(type(exc), match=r"\[isin\]"):
            gpupy.isin(gpupy.asarray(element), gpupy.asarray(tests), invert=invert, kind=kind)
        return
    got = gpupy.isin(gpupy.asarray(element), gpupy.asarray(tests), invert=invert, kind=kind)
    np.testing.assert_array_equal(gpupy.asnumpy(got), expected, strict=True)


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("n_tests", [1, 3, 40])
def test_isin_float_few_and_many_test_values(dtype, n_tests):
    # Few test values are compared one by one, many are binary-searched: same answers.
    rng = np.random.default_rng(n_tests)
    x = rng.integers(-20, 20, 500).astype(dtype) / 2
    x[::17] = np.nan
    x[1::19] = -0.0
    tests = rng.integers(-20, 20, n_tests).astype(dtype) / 2
    tests[0] = 0.0
    if n_tests > 2:
        tests[1] = np.nan
    got = gpupy.isin(gpupy.asarray(x), gpupy.asarray(tests))
    np.testing.assert_array_equal(gpupy.asnumpy(got), np.isin(x, tests), strict=True)
    got = gpupy.isin(gpupy.asarray(x), gpupy.asarray(tests), invert=True)
    np.testing.assert_array_equal(gpupy.asnumpy(got), np.isin(x, tests, invert=True), strict=True)


def test_isin_table_refuses_floats_and_wide_ranges():
    with pytest.raises(ValueError, match=r"\[isin\].*'table'"):
        gpupy.isin(gpupy.asarray([1.0]), [1.0], kind="table")
    with pytest.raises(RuntimeError, match=r"\[isin\].*'table'"):
        gpupy.isin(
            gpupy.asarray(np.array([1], np.int8)), np.array([-100, 100], np.int8), kind="table"
        )


# ---- union1d, intersect1d, setdiff1d, setxor1d ---------------------------------------------------

PAIR_SHAPES = [((0,), (0,)), ((7,), (0,)), ((9,), (5,)), ((4, 6), (3, 5)), ((), (8,))]


@pytest.mark.parametrize("shapes", PAIR_SHAPES)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_two_set_operations(shapes, dtype, xp):
    a = xp.asarray(_data(dtype, shapes[0], seed=3))
    b = xp.asarray(_data(dtype, shapes[1], seed=4))
    return (
        xp.union1d(a, b),
        xp.setdiff1d(a, b),
        xp.setxor1d(a, b),
        xp.setxor1d(b, a),
        xp.intersect1d(a, b),
        xp.intersect1d(b, a, return_indices=True),
    )


@testing.for_dtypes(["int16", "uint64", "float32", "complex128"])
@testing.numpy_gpupy_allclose()
def test_assume_unique(dtype, xp):
    # Unique inputs, unsorted: assume_unique keeps setdiff1d in ar1's order.
    a = xp.asarray(np.array([7, 3, 9, 1, 4]).astype(dtype))
    b = xp.asarray(np.array([[4, 8], [3, 0]]).astype(dtype))
    return (
        xp.intersect1d(a, b, assume_unique=True),
        xp.intersect1d(a, b, assume_unique=True, return_indices=True),
        xp.setdiff1d(a, b, assume_unique=True),
        xp.setxor1d(a, b, assume_unique=True),
    )


@pytest.mark.parametrize(
    "d1, d2", [("int8", "float32"), ("uint8", "int16"), ("bool", "int64"), ("float64", "complex64")]
)
@testing.numpy_gpupy_allclose()
def test_mixed_dtypes_and_lists(d1, d2, xp):
    a = xp.asarray(np.array([3, 1, 0, 1, 2]).astype(d1))
    b = xp.asarray(np.array([1, 1, 4]).astype(d2))
    return (
        xp.union1d(a, b),
        xp.intersect1d(a, b, return_indices=True),
        xp.setdiff1d(a, b),
        xp.setxor1d(a, b),
        xp.union1d([3, 1], [2.5]),
        xp.setdiff1d([], []),
        xp.intersect1d([[1, 2], [3, 1]], [1, 3]),
    )


def test_set_functions_keep_the_device_of_gpupy_operands():
    b = gpupy.asarray([2, 5])
    for fn in (gpupy.union1d, gpupy.intersect1d, gpupy.setdiff1d, gpupy.setxor1d):
        r = fn([5, 1, 2], b)
        assert r.device == b.device
    np.testing.assert_array_equal(np.union1d([5, 1], b).get(), [1, 2, 5])  # dispatched
    np.testing.assert_array_equal(np.setxor1d(b, [5, 1]).get(), [1, 2])


_BIG = 2**53  # float64 cannot tell 2**53 from 2**53 + 1


@pytest.mark.parametrize("signed", ["int8", "int64"])
@pytest.mark.parametrize("kind", [None, "sort", "table"])
@pytest.mark.parametrize("signed_first", [True, False])
def test_isin_signed_and_uint64_exactly(signed, kind, signed_first):
    """NumPy matches signed integers against uint64 values exactly, not through float64."""
    info = np.iinfo(signed)
    s = np.array([info.min, -1, 0, 3, info.max] + ([_BIG, _BIG + 1] if signed == "int64" else []))
    s = s.astype(signed)
    u = np.array([0, 3, _BIG + 1, 2**63, 2**64 - 1, 255], np.uint64)
    x, t = (s, u) if signed_first else (u, s)
    if kind == "table":  # NumPy's table over these ranges is too big; compare the sort result
        x_small, t_small = x[(x >= 0) & (x < 300)], t[(t >= 0) & (t < 300)]
        np.testing.assert_array_equal(
            gpupy.isin(gpupy.asarray(x_small), gpupy.asarray(t_small), kind="table").get(),
            np.isin(x_small, t_small, kind="sort"),
        )
        return
    expected = np.isin(x, t, kind=kind)
    got = gpupy.isin(gpupy.asarray(x), gpupy.asarray(t), kind=kind)
    np.testing.assert_array_equal(got.get(), expected)
    inverted = gpupy.isin(gpupy.asarray(x), gpupy.asarray(t), kind=kind, invert=True)
    np.testing.assert_array_equal(inverted.get(), ~expected)


@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("axis", [0, -1])
@testing.numpy_gpupy_allclose()
def test_unique_along_the_axis_of_a_1d_array_honours_equal_nan(xp, axis, equal_nan):
    # found by NumPy's test_arraysetops.py (NumPy issue 29336)
    a = xp.asarray([np.nan, 0.0, 0.0, np.nan, -0.0])
    return xp.unique(a, True, True, True, axis=axis, equal_nan=equal_nan)
