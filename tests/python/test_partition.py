"""partition, argpartition (contract and kth values), lexsort and sort_complex against NumPy."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

DTYPES = ("bool", "int8", "uint32", "int64", "float32", "float64", "complex64")


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    x = rng.integers(-20, 20, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.integers(-2, 3, shape)
    return np.asarray(x).astype(dtype)


def _check_partition(host, part, kths, axis):
    """part satisfies the partition contract for every kth along axis, and part[kth] equals
    the sorted value (NumPy's arrangement inside each side is unspecified)."""
    if axis is None:
        host, axis = host.reshape(-1), 0
    ref = np.sort(host, axis=axis)
    # part is a permutation of host along the axis.
    np.testing.assert_array_equal(np.sort(part, axis=axis), ref)
    n = host.shape[axis]
    for k in np.atleast_1d(kths):
        k = int(k) % n
        pivot = np.take(part, [k], axis=axis)
        np.testing.assert_array_equal(pivot, np.take(ref, [k], axis=axis))
        before = np.take(part, range(k), axis=axis)
        after = np.take(part, range(k + 1, n), axis=axis)
        # NaNs sort last, as in NumPy.
        assert np.all((before <= pivot) | np.isnan(pivot))
        assert np.all((after >= pivot) | np.isnan(after))


CASES = [
    ((9,), 4, -1),
    ((9,), [0, 8, 3], 0),
    ((4, 7), -2, 1),
    ((4, 7), [1, 2], 0),
    ((3, 4), 5, None),
    ((3, 1500), [7, 700, -1], 1),  # long enough for the devices' multi-block sorts
]


@pytest.mark.parametrize("shape, kth, axis", CASES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_partition_contract(shape, kth, axis, dtype):
    host = _data(shape, dtype)
    out = gpupy.partition(gpupy.asarray(host), kth, axis=axis)
    assert out.dtype == np.partition(host, kth, axis=axis).dtype
    assert out.device == gpupy.get_default_device()
    _check_partition(host, out.get(), kth, axis)


@pytest.mark.parametrize("shape, kth, axis", CASES)
@pytest.mark.parametrize("dtype", ("int16", "float64", "bool"))
def test_argpartition_contract(shape, kth, axis, dtype):
    host = _data(shape, dtype, seed=1)
    idx = gpupy.argpartition(gpupy.asarray(host), kth, axis=axis)
    ref = np.argpartition(host, kth, axis=axis)
    assert idx.dtype == ref.dtype and idx.shape == ref.shape
    flat = host.reshape(-1) if axis is None else host
    picked = np.take_along_axis(flat, idx.get(), axis=0 if axis is None else axis)
    _check_partition(host, picked, kth, axis)


def test_partition_methods_and_nan():
    host = np.array([[3.0, np.nan, -1.0, 2.0], [0.0, 5.0, np.nan, -4.0]])
    a = gpupy.asarray(host)
    assert a.partition(1) is None  # in place, like ndarray.partition
    _check_partition(host, a.get(), 1, -1)
    np.testing.assert_array_equal(a.get()[:, -1], [np.nan, np.nan])  # NaNs go last, as in NumPy
    b = gpupy.asarray(host)
    picked = np.take_along_axis(host, b.argpartition([0, 3], axis=1).get(), axis=1)
    np.testing.assert_array_equal(picked[:, [0, 3]], np.partition(host, [0, 3], axis=1)[:, [0, 3]])
    assert b.argpartition(0).dtype == np.int64


@testing.numpy_gpupy_allclose()
def test_partition_empty_list_input_and_0d(xp):
    return (
        xp.partition(xp.zeros((3, 0)), 0, axis=0),
        xp.partition([5, 1, 3], 1),
        xp.argpartition(xp.asarray(2.0), 0),
        xp.argpartition(xp.asarray(2.0), 0, axis=None),
    )


@pytest.mark.parametrize(
    "shape, kth, kw",
    [
        ((5,), 5, {}),
        ((5,), -6, {}),
        ((5,), 1.0, {}),
        ((5,), 1, {"kind": "quick"}),
        ((5,), 1, {"order": "x"}),
        ((5,), 1, {"axis": 1}),
        ((), 1, {}),
        ((), 0, {"axis": 1}),
        ((5,), [], {}),  # an empty kth list is inferred as float and refused
    ],
)
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
@testing.numpy_gpupy_raises()
def test_partition_errors(shape, kth, kw, fn, xp):
    getattr(xp, fn)(xp.zeros(shape), kth, **kw)


@testing.numpy_gpupy_raises()
def test_partition_0d(xp):
    xp.partition(xp.asarray(1.0), 0)  # unlike argpartition, partition has no axis to work on


# ---- lexsort -------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ("bool", "int8", "uint64", "float32", "float64", "complex128"))
@testing.numpy_gpupy_allclose()
def test_lexsort_keys_and_stability(dtype, xp):
    primary = xp.asarray(_data((40,), "int64", 2) % 3)
    secondary = xp.asarray(_data((40,), dtype, 3))
    return xp.lexsort((secondary, primary)), xp.lexsort([primary])


@pytest.mark.parametrize("axis", [-1, 0, 1])
@testing.numpy_gpupy_allclose()
def test_lexsort_2d_keys_and_axis(axis, xp):
    keys = xp.asarray(_data((3, 5, 6), "int64", 4) % 3)  # three keys of shape (5, 6); ties
    return xp.lexsort(keys, axis=axis)


@testing.numpy_gpupy_allclose()
def test_lexsort_nan_empty_and_0d(xp):
    f = xp.asarray([1.0, np.nan, -1.0, np.nan, 1.0])
    g = xp.asarray([2, 1, 2, 0, 0])
    return xp.lexsort((f, g)), xp.lexsort((g, f)), xp.lexsort([xp.zeros(0)]), xp.lexsort([3, 4])


@pytest.mark.parametrize(
    "keys, axis", [([], -1), ([[1, 2], [1, 2, 3]], -1), ([[1, 2]], 1), (np.int64(3), -1)]
)
@testing.numpy_gpupy_raises()
def test_lexsort_errors(keys, axis, xp):
    xp.lexsort(keys if isinstance(keys, list) else xp.asarray(keys), axis=axis)


# ---- sort_complex --------------------------------------------------------------------------------


@testing.for_dtypes(
    ("bool", "int8", "uint16", "int32", "uint64", "float32", "float64", "complex64")
)
@testing.numpy_gpupy_allclose()
def test_sort_complex(dtype, xp):
    return xp.sort_complex(xp.asarray(_data((3, 8), dtype, 5))), xp.sort_complex([3, 1, 2])


@testing.numpy_gpupy_allclose()
def test_sort_complex_order(xp):
    z = xp.asarray([1 + 2j, 1 - 1j, -3 + 0j, 1 + 0j, complex(np.nan, 0), 0j])
    return xp.sort_complex(z), xp.sort_complex(xp.zeros((2, 0)))


@testing.numpy_gpupy_raises()
def test_sort_complex_0d(xp):
    xp.sort_complex(xp.asarray(1.0))


@pytest.mark.parametrize(
    "shape, kth, axis", [((2, 0), 5, -1), ((0, 3), [-9, 5], -1), ((3, 0), 7, 0)]
)
@pytest.mark.parametrize("func", ["partition", "argpartition"])
@testing.numpy_gpupy_allclose()
def test_partition_empty_ignores_kth(func, shape, kth, axis, xp):
    # NumPy checks kth only when there are items to partition.
    return getattr(xp, func)(xp.zeros(shape), kth, axis=axis)


@pytest.mark.parametrize("axis", [0, -1, 1, -2])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_lexsort_0d_keys(axis, xp):
    return xp.lexsort(xp.asarray([1, 2]), axis=axis)


@pytest.mark.parametrize(
    "call",
    [
        lambda: gpupy.partition(gpupy.zeros(3), 0, axis=1),
        lambda: gpupy.partition(gpupy.asarray(1.0), 0),
        lambda: gpupy.argpartition(gpupy.zeros((2, 2)), 0, axis=-3),
        lambda: gpupy.sort_complex(gpupy.asarray(1.0)),
        lambda: gpupy.lexsort(gpupy.zeros((2, 3)), axis=2),
        lambda: gpupy.lexsort(gpupy.asarray([1, 2]), axis=1),
    ],
)
def test_axis_errors_are_numpy_axis_errors(call):
    with pytest.raises(
        np.exceptions.AxisError, match=r"^\[(arg)?(partition|sort_complex|lexsort)\]"
    ):
        call()


def test_dispatch():
    a = gpupy.asarray([4, 1, 3, 2])
    assert isinstance(np.partition(a, 1), gpupy.ndarray)
    np.testing.assert_array_equal(np.lexsort((a, a % 2)).get(), [3, 0, 1, 2])
    np.testing.assert_array_equal(np.sort_complex(a).get(), [1, 2, 3, 4])
    np.testing.assert_array_equal(np.partition(a, 2).get()[2], 3)
    np.testing.assert_array_equal(a.get()[np.argpartition(a, 0).get()[0]], 1)


@pytest.mark.parametrize("kind", [1, None, "nonsense"])
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
@testing.numpy_gpupy_raises()
def test_kind_must_be_introselect(fn, kind, xp):
    # a kind that is not a string is NumPy's TypeError (gpupy raised ValueError)
    getattr(xp, fn)(xp.arange(10), 2, kind=kind)
