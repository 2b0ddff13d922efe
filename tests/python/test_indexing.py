"""Basic indexing (integers, slices, None, Ellipsis) against NumPy: views, assignment, errors."""

import gpupy
import numpy as np
import pytest
from gpupy import testing
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

_ = slice(None)

INDICES = [
    0,
    -1,
    2,
    (1, 2),
    (-2, -1, 0),
    (1, 2, 3),
    _,
    slice(1, 3),
    slice(None, None, 2),
    slice(None, None, -1),
    slice(None, None, -2),
    slice(3, 0, -1),
    slice(-1, -10, -3),
    slice(10, -10, -1),
    slice(-10, 10),
    slice(2, 2),
    slice(5, 1),
    (_, 1),
    (_, _, slice(1, None, 2)),
    (slice(None, None, -1), 0, slice(None, None, -2)),
    None,
    (None, 0),
    (0, None, _, None),
    (None, None, None),
    Ellipsis,
    (Ellipsis, 0),
    (0, Ellipsis),
    (0, Ellipsis, 1),
    (Ellipsis, None),
    (None, Ellipsis, slice(None, None, -1), None),
    (1, 2, 3, Ellipsis),
    (),
    (np.int64(1), np.int8(-1)),
    slice(-(2**70), 2**70, 2**65),
    slice(None, None, -(2**70)),
    2**70,
    slice("1", None),
    # errors: out of range, too many indices, two ellipses, zero step, non-integers
    5,
    -6,
    (0, 3),
    (0, 0, 4),
    (0, 0, 0, 0),
    (0, Ellipsis, 0, 0, 0),
    (Ellipsis, Ellipsis),
    slice(None, None, 0),
    1.5,
    (0, "a"),
]


@pytest.mark.parametrize("index", INDICES, ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_getitem(index, xp):
    a = xp.asarray(np.arange(5 * 3 * 4).reshape(5, 3, 4))
    return a[index]


def test_getitem_error_messages():
    a = gpupy.asarray(np.arange(3))
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 0 with size 3"):
        a[5]
    with pytest.raises(IndexError, match="too many indices"):
        a[0, 0]
    with pytest.raises(IndexError, match="single ellipsis"):
        a[..., ...]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        a[::0]


MASKS_0D = [True, False, np.True_, np.array(False), "array True", ("array False",)]


def _mask_0d(index, xp):
    # "array X" stands for a 0-d boolean array of the library under test.
    if isinstance(index, tuple):
        return (_mask_0d(index[0], xp),)
    if isinstance(index, str):
        return xp.asarray(index == "array True")
    return index


@pytest.mark.parametrize("index", MASKS_0D, ids=repr)
@pytest.mark.parametrize("shape", [(), (3, 2)])
@testing.numpy_gpupy_allclose()
def test_getitem_0d_boolean_index(index, shape, xp):
    # As the sole index: a new leading axis of length 1 (True) or 0 (False).
    a = xp.asarray(np.arange(6)[: int(np.prod(shape))].reshape(shape))
    return a[_mask_0d(index, xp)]


@pytest.mark.parametrize("index", MASKS_0D, ids=repr)
@pytest.mark.parametrize("value", [7, [[8, 9]]], ids=repr)
@testing.numpy_gpupy_allclose()
def test_setitem_0d_boolean_index(index, value, xp):
    a = xp.asarray(np.arange(6).reshape(3, 2))
    a[_mask_0d(index, xp)] = xp.asarray(value)
    return a


@testing.numpy_gpupy_allclose()
def test_0d_boolean_index_with_other_indices(xp):
    # a new axis of length 1 or 0 (test_advanced_indexing.py has more keys)
    a = xp.asarray(np.arange(6).reshape(3, 2))
    return a[True, 0], a[xp.asarray(False), ...]


def test_0d_boolean_index_value_must_broadcast():
    a = gpupy.asarray(np.arange(6).reshape(3, 2))
    with pytest.raises(ValueError, match="broadcast"):
        a[False] = gpupy.asarray([1, 2, 3])


@pytest.mark.parametrize(
    "index", [0, (1, slice(None, None, -1)), (Ellipsis, 1), (None, 2, 1)], ids=repr
)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_getitem_all_dtypes(index, dtype, xp):
    a = xp.asarray(np.arange(12).reshape(3, 4).astype(dtype))
    return a[index]


@testing.numpy_gpupy_allclose()
def test_zero_dim_array(xp):
    a = xp.asarray(np.array(3.5))
    return a[()], a[...], a[None], a[..., None]


@pytest.mark.parametrize(
    "index",
    [0, -1, (1, 2), slice(None, None, -2), (Ellipsis, 1), (None, 1, slice(3, 0, -1)), (), Ellipsis],
    ids=repr,
)
@pytest.mark.parametrize("value", [7, -1.5, True, "array", "numpy", "list"])
@testing.numpy_gpupy_allclose()
def test_setitem(index, value, xp):
    a = xp.asarray(np.zeros((3, 4), dtype="float32"))
    target_shape = np.zeros((3, 4))[index].shape
    if value == "array":
        data = np.arange(target_shape[-1]) if target_shape else np.array(3)
        value = xp.asarray(data.astype("int16"))
    elif value == "numpy":
        value = np.arange(int(np.prod(target_shape)), dtype="float64").reshape(target_shape) + 0.5
    elif value == "list":
        value = np.arange(int(np.prod(target_shape))).reshape(target_shape).tolist()
    a[index] = value
    return a


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_setitem_casts_unsafely(dtype, xp):
    a = xp.asarray(np.zeros((2, 3), dtype=dtype))
    a[0] = xp.asarray(np.array([1.7, -2.2, 3.9]) if dtype != "bool" else np.array([1.0, 0.0, 2.0]))
    a[1, ::-1] = xp.asarray(np.array([0, 1, 2], dtype="uint8"))
    return a


@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_shape_mismatch(xp):
    a = xp.asarray(np.zeros((3, 4)))
    a[0] = xp.asarray(np.arange(3.0))


@testing.numpy_gpupy_allclose()
def test_setitem_overlapping_self(xp):
    a = xp.asarray(np.arange(10))
    a[1:] = a[:-1]
    b = xp.asarray(np.arange(10))
    b[::-1] = b
    return a, b


@testing.numpy_gpupy_allclose()
def test_write_through_views_reaches_base(xp):
    a = xp.asarray(np.arange(24).reshape(2, 3, 4))
    v = a[1, ::-1]
    v[0] = -5  # a[1, 2]
    w = a[..., 1::2][None]
    w[0, 0, :, 0] = 77  # a[0, :, 1]
    t = a.T
    t[3, 0, 0] = 99  # a[0, 0, 3]
    return a, v, w


@testing.numpy_gpupy_allclose(accept_error=True)
def test_read_only_destination(xp):
    # Only the cpu device wraps a read-only NumPy buffer; other devices get a writable copy.
    if xp is gpupy and gpupy.get_default_device().type != "cpu":
        pytest.skip("read-only NumPy memory is only wrapped on cpu")
    a = np.arange(6)
    a.flags.writeable = False
    g = xp.asarray(a)
    g[0] = 1


def test_read_only_message():
    b = gpupy.broadcast_to(gpupy.asarray(np.arange(3)), (2, 3))
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        b[0] = 1
    with pytest.raises(ValueError, match="assignment destination is read-only"):
        b[0][1:] = 1


def _numpy_index_result(a, index):
    r = a[index]
    return np.asarray(r), np.ndim(r)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_basic_indices_property(data, device_name):
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=5))
    index = data.draw(hnp.basic_indices(shape, allow_newaxis=True, allow_ellipsis=True))
    base = np.arange(int(np.prod(shape)), dtype="int32").reshape(shape)
    g = gpupy.asarray(base.copy())
    expected = base[index]
    got = g[index]
    testing.assert_same(expected, got)
    # The result is a view: writing through it is seen by the base, exactly as in NumPy.
    n = base.copy()
    view = n[index]
    if isinstance(view, np.ndarray):
        view[...] = -1
    else:
        n[index] = -1
    g[index][...] = -1
    testing.assert_same(n, g)
    # setitem with a broadcast value
    n[index] = 7
    g[index] = 7
    testing.assert_same(n, g)


@pytest.mark.parametrize(
    "dtype, value",
    [("int8", float("nan")), ("int8", float("inf")), ("uint16", -float("inf")), ("bool", 2**70),
     ("float32", 2**70), ("float16", -(2**70)), ("complex64", 2**70), ("int64", 2**70),
     ("float64", 2**2000), ("int32", 2.5), ("bool", float("nan"))],
)  # fmt: skip
@pytest.mark.parametrize("key", [1, [0, 2], Ellipsis, "fill"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_python_float_and_huge_int(dtype, value, key, xp):
    # NumPy's int() of a Python float refuses NaN and infinity (gpupy once stored 0), and a
    # Python int beyond int64/uint64 becomes a float or bool item (gpupy once refused it).
    a = xp.zeros(3, dtype=dtype)
    if key == "fill":
        a.fill(value)
    else:
        a[key] = value
    return a


@pytest.mark.parametrize(
    "dtype, value",
    [("int8", np.int64(300)), ("int8", np.uint8(200)), ("int64", np.uint64(2**64 - 1)),
     ("int16", np.float32(1e10)), ("int32", np.float64(np.nan)), ("int8", np.float64(-1.0)),
     ("uint8", np.int64(300)), ("uint8", np.int64(-1)), ("uint32", np.uint64(2**64 - 1)),
     ("int8", np.int16(-5))],
)  # fmt: skip
@pytest.mark.parametrize("key", [1, slice(None), (), "fill", "fancy", "mask", "0-d index"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_numpy_scalar_out_of_range(dtype, value, key, xp):
    # NumPy stores a NumPy scalar into a signed integer item through int(): out of range raises
    # (OverflowError; NaN ValueError), an unsigned item wraps. Fancy and mask indexing make an
    # array of the value first, so they wrap too (gpupy wrapped everywhere).
    a = xp.zeros(3, dtype=dtype)
    if key == "fill":
        a.fill(value)
    elif key == "fancy":
        a[xp.asarray([0, 2])] = value
    elif key == "mask":
        a[xp.asarray([True, False, True])] = value
    elif key == "0-d index":  # an integer index, as NumPy reads it
        a[xp.asarray(1)] = value
    else:
        a[key] = value
    return a


@pytest.mark.parametrize("value", [-1, 300, 1 + 2j, np.int64(300), [1, 2], 2.5])
@pytest.mark.parametrize("key", [0, (1,), np.int64(2), slice(0, 2), Ellipsis])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_flat_setitem_errors(value, key, xp):
    # NumPy's flatiter raises ValueError for any value one item cannot take; a slice of it
    # converts the value to an array of the item type (a NumPy integer wraps)
    a = xp.zeros(4, dtype="uint8")
    a.flat[key] = value
    return a


@pytest.mark.parametrize("dtype", ["float32", "float16", "complex64", "float64", "bool"])
@pytest.mark.parametrize("value", [2**70, -(2**64), 2**64, 2**63, -(2**63) - 1])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_full_huge_python_int_into_float(dtype, value, xp):
    # beyond int64: a float item takes the float value, a bool item (a C long) raises
    return xp.full(3, value, dtype=dtype)


@pytest.mark.parametrize("key", [10, (10,), -4, 0, slice(None), [5], [True, False, True], ...])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_huge_int_at_an_index(key, xp):
    # NumPy checks a basic index's bounds before the value (IndexError), an advanced index's after
    # it (OverflowError); gpupy raised OverflowError for both
    a = xp.zeros(3, dtype="int64")
    a[key] = 2**70
    return a


@pytest.mark.parametrize(
    "shape, key, value",
    [((3,), [False, False, False], np.array(1 + 1j)), ((3,), ([False] * 3,), np.array([2j])),
     ((2, 2), np.zeros((2, 2), bool), np.array(1j)), ((2, 2), np.zeros(2, bool), np.array(1j)),
     ((3,), [True, False, False], np.array(1 + 1j)), ((3,), [False] * 3, np.complex64(1j)),
     ((3,), np.array([], int), np.array([1j])), ((3,), slice(0, 0), np.array([1j]))],
)  # fmt: skip
def test_complex_warning_of_a_mask_that_selects_nothing(shape, key, value, device_name):
    # NumPy casts only the elements a whole-shape mask selects: no ComplexWarning when it
    # selects none (a NumPy scalar is converted, and warns, first)
    import warnings

    def kinds(xp):
        a = xp.zeros(shape, dtype="float32")
        v = value if xp is np or isinstance(value, np.generic) else xp.asarray(value)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            a[key] = v
        return [w.category for w in caught]

    with gpupy.Device(device_name):
        assert kinds(gpupy) == kinds(np)


@testing.numpy_gpupy_allclose()
def test_tuple_inside_an_index_is_a_sequence(xp):
    # NumPy reads x[:, (0,)] as x[:, [0]] (gpupy refused the tuple)
    x, y = xp.ones((1, 1)), xp.ones((1, 1, 1))
    x[:, (0,)] = 2.0
    y[:, :, (0,)] = 2.0
    z = xp.arange(12).reshape(3, 4)
    return x, y, z[:, (0, 2)], z[(0, 2), 1]


@pytest.mark.parametrize("key", [(None,) * 64, (None,) * 65, (None,) * 70, (None, 0)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_newaxis_beyond_64_dimensions_is_an_index_error(key, xp):
    # NumPy's arrays have at most 64 dimensions (gpupy made a 70-d array NumPy cannot take)
    return xp.array(1.0)[key].shape
