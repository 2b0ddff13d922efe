"""Advanced indexing (integer and boolean arrays) and nonzero/take/... against NumPy."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

_ = slice(None)
SHAPE = (5, 3, 4)
I = np.array  # noqa: E741 - short for the index tables

INT_INDICES = [
    [0, 2],
    [-1, 0, -5],
    [[0, 1], [2, 4]],
    I([3, 1], dtype=np.int8),
    I([3, 1], dtype=np.uint16),
    I([], dtype=np.int64),
    [],
    (_, [1, 2]),
    (_, _, [0, -1, 3]),
    ([0, 1], _, [2, 3]),
    ([0, 1], [2, 0], [1, 1]),
    ([[0], [1]], [0, 2]),
    ([[0], [1]], _, [0, 2]),
    (Ellipsis, [1, 2]),
    ([1, 2], Ellipsis),
    # an ellipsis for no axes still separates the advanced indices (they go first)
    (_, [1, 2], Ellipsis, [0, 1]),
    (_, 0, Ellipsis, [1, 2]),
    (0, _, [1, 2]),
    (_, 0, [1, 2]),
    ([1, 2], 0),
    (None, [1, 2], None),
    (_, None, [1, 2]),
    ([1, 2], None, [0, 1]),
    (slice(None, None, -1), [2, 0]),
    (slice(1, 4), [[0, 1]], slice(None, None, 2)),
    ([0, 1], I(2)),
    (I([[1]]), [[0, 1, 2]]),
    # errors: out of bounds, non-broadcastable, float indices, too many
    [5],
    [-6],
    (_, [3]),
    (_, _, [0, 4]),
    ([0, 1], [0, 1, 2]),
    I([0.0, 1.0]),
    ([0], [0], [0], [0]),
]


@pytest.mark.parametrize("index", INT_INDICES, ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_getitem_int_arrays(index, xp):
    a = xp.asarray(np.arange(60).reshape(SHAPE))
    return a[index]


@pytest.mark.parametrize("index", [[0, 2], (_, [1, 2]), ([0, 1], _, [2, 3])], ids=repr)
@testing.numpy_gpupy_allclose()
def test_getitem_gpupy_index_arrays(index, xp):
    a = xp.asarray(np.arange(60).reshape(SHAPE))
    if isinstance(index, tuple):
        index = tuple(xp.asarray(i) if isinstance(i, list) else i for i in index)
    else:
        index = xp.asarray(index)
    return a[index]


# a[idx] with one integer index array has its own path in the front end: views with offsets,
# negative strides, trailing axes of length 0 (the bounds are still checked), empty indices.
LONE_INDEX_CASES = [
    ((5, 3, 4), lambda a: a, I([[4, -5], [0, 2]], dtype=np.int32)),
    ((5, 3, 4), lambda a: a[::-2, 1:], I([2, -1, 0])),
    ((5, 3, 4), lambda a: a.transpose(2, 0, 1), I([3, 0], dtype=np.int16)),
    ((12,), lambda a: a[3:], I([8, 0, -9])),
    ((12,), lambda a: a, I([], dtype=np.int64)),
    ((5, 0), lambda a: a, I([1, 4])),
    ((5, 0), lambda a: a, I([5])),
    ((5, 3), lambda a: a, I([[0], [-6]])),
    ((0, 3), lambda a: a, I([], dtype=np.int32)),
]


@pytest.mark.parametrize(
    "shape, view, index", LONE_INDEX_CASES, ids=[str(i) for i in range(len(LONE_INDEX_CASES))]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_getitem_lone_index_array(shape, view, index, xp):
    a = view(xp.asarray(np.arange(np.prod(shape), dtype=np.float64).reshape(shape)))
    return a[xp.asarray(index)]


@testing.for_dtypes()
@testing.numpy_gpupy_allclose()
def test_gather_dtypes(dtype, xp):
    a = xp.asarray((np.arange(24).reshape(4, 6) % 5).astype(dtype))
    return a[[3, 0, 0], 1::2], a[:, [-1, 2]], a.T[[1, 2]]


@testing.numpy_gpupy_allclose()
def test_gather_noncontiguous_source(xp):
    a = xp.asarray(np.arange(120).reshape(4, 5, 6))[::-1, :, ::2]
    return a[[0, 3], [1, 4]], a[:, [2, 2], 1:]


MASKS = [
    lambda a: a > 30,
    lambda a: a < 0,
    lambda a: (a[:, :, 0] % 2 == 0,),
    lambda a: (a[:, :, 0] % 2 == 0, Ellipsis),
    lambda a: (_, I([True, False, True])),
    lambda a: (_, _, I([True, False, False, True])),
    lambda a: (I([True, False, True, False, True]), _, [1, 2]),
    lambda a: (I([True, False, True, False, True]), 1),
    lambda a: (Ellipsis, I([True, True, False, False])),
    lambda a: (None, a[0] > 5),
    lambda a: I([[True, False, True]] * 5),
    # as in NumPy, a boolean axis of length 0 matches an axis of any length
    lambda a: np.zeros((5, 0), bool),
    lambda a: (_, np.zeros(0, bool)),
    lambda a: np.zeros((0, 0, 0), bool),
    # errors: shape mismatch
    lambda a: np.zeros((0, 2), bool),
    lambda a: I([True, False]),
    lambda a: (_, I([True, False, True, True])),
    lambda a: I([[True] * 4] * 5),
]


@pytest.mark.parametrize("make", MASKS)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_getitem_bool_masks(make, xp):
    a_np = np.arange(60).reshape(SHAPE)
    a = xp.asarray(a_np)
    index = make(a_np)
    index = (
        tuple(xp.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
        if isinstance(index, tuple)
        else xp.asarray(index)
    )
    return a[index]


SET_CASES = [
    ([0, 2], 7),
    ([0, 2], np.arange(12).reshape(3, 4)),
    ((_, [1, 2]), np.arange(2)),
    (([0, 1], _, [2, 3]), np.arange(6).reshape(2, 3)),
    (([[0], [1]], [0, 2]), -1.5),
    ((Ellipsis, [-1]), np.arange(15).reshape(5, 3, 1)),
    ([], 3),
    ([4, 4, 4], np.arange(12).reshape(3, 4)),
    ([[0, 1], [3, 2]], np.arange(2 * 2 * 3 * 4).reshape(2, 2, 3, 4)),
    # different values for one target: the last wins on every device, as in NumPy
    ([4, 4, 4], np.arange(36).reshape(3, 3, 4)),
    ([[0, 1], [1, 0]], np.arange(2 * 2 * 3 * 4).reshape(2, 2, 3, 4)),
    ([5], 1),
    (([0, 1], [0, 1, 2]), 1),
]


@pytest.mark.parametrize("index,value", SET_CASES, ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_int_arrays(index, value, xp):
    a = xp.asarray(np.arange(60, dtype=np.float64).reshape(SHAPE))
    a[index] = xp.asarray(value) if isinstance(value, np.ndarray) else value
    return a


@pytest.mark.parametrize("make", MASKS[:11])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_bool_masks(make, xp):
    a_np = np.arange(60).reshape(SHAPE)
    a = xp.asarray(a_np.copy())
    index = make(a_np)
    index = (
        tuple(xp.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
        if isinstance(index, tuple)
        else xp.asarray(index)
    )
    a[index] = -1
    return a


# A boolean scalar (Python, NumPy or a 0-d array) beside other indices: a new axis of length 1 or 0
# indexed by an advanced index (gpupy raised NotImplementedError).
BOOL_SCALAR_KEYS = [
    (False, True, Ellipsis),
    (True, [0, 1], True, True, [1], [[2]]),
    (False, [0, 1], Ellipsis),
    (True, 1),
    (0, False),
    (Ellipsis, True),
    (slice(None), np.True_, slice(1, 3)),
    (None, np.array(True), 2, None),
    (True, np.array([[True, False, True], [False, True, True]])),
    (np.False_, slice(None), [0, 3]),
    (True, True, 0, 1, 2),
    (True, 0, 1, 2, 3),  # too many indices
]


@pytest.mark.parametrize("key", BOOL_SCALAR_KEYS, ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_bool_scalar_among_other_indices(key, xp):
    a = xp.asarray(np.arange(24.0).reshape(2, 3, 4))
    b = a.copy()
    b[key] = -1.0
    return a[key], b


@testing.numpy_gpupy_allclose()
def test_setitem_mask_with_values(xp):
    a = xp.asarray(np.arange(20.0).reshape(4, 5))
    m = a % 3 == 0
    a[m] = xp.asarray(np.arange(7.0)) * 10
    b = xp.asarray(np.arange(20).reshape(4, 5))
    b[xp.asarray(np.array([True, False, True, False])), 1:3] = xp.asarray(np.array([[1, 2]]))
    return a, b


@testing.for_dtypes()
@testing.numpy_gpupy_allclose()
def test_setitem_dtypes_cast(dtype, xp):
    a = xp.asarray(np.zeros((3, 4), dtype=dtype))
    a[[0, 2], [1, 3]] = xp.asarray(np.array([1, 1], dtype=np.int8))
    a[:, [0]] = True
    return a


@pytest.mark.parametrize(
    ("shape", "index", "value_shape"),
    [((0,), ([0, 0, 0],), (2,)),  # bad value shape and out-of-bounds index: ValueError first
     ((3,), ([0, 0, 0],), (2,)),
     ((3, 4), ([0, 1], _), (3, 4)),
     ((3, 4), ([0, 1], _), (1, 1, 4)),  # leading length-1 axes of the value drop
     ((3, 4), ([0, 1], _), (2, 1)),
     ((2, 3, 4), (_, [0, 2], [1, 3]), (2,)),
     ((2, 3, 4), ([1], _, [0]), (1, 1, 3)),
     ((2, 3, 4), (_, [[0], [2]], _, None), (4, 1)),
     ((2, 3, 4), (_, [[0], [2]], _, None), (3, 1)),
     ((2, 3), ([5], _), (1, 3))]  # fits, but the index is out of bounds: IndexError
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_checks_the_value_shape_before_the_bounds(shape, index, value_shape, xp):
    a = xp.zeros(shape, dtype=xp.int8)
    a[index] = xp.arange(1, 1 + int(np.prod(value_shape)), dtype=xp.float64).reshape(value_shape)
    return a


def test_setitem_duplicates_last_wins():
    a = gpupy.zeros(4)
    a[[1, 1, 1, 2]] = gpupy.asarray(np.array([5.0, 6.0, 7.0, 8.0]))
    np.testing.assert_array_equal(a.get(), [0, 7, 8, 0])


_RNG = np.random.default_rng(7)
_MANY = _RNG.integers(-40, 40, 6000)  # every target repeated ~75 times, across many blocks
DUPLICATE_SETITEMS = {
    # name: (shape of a, index, shape of values)
    "many-blocks": ((40,), (_MANY,), (6000,)),
    "negative": ((40,), ([3, -37, 3, 39, -1],), (5,)),  # -37 is 3, -1 is 39
    "index-in-middle": ((3, 40), (_, _MANY[:700]), (3, 700)),
    "index-in-front": ((6, 5, 7), (_MANY[:500] % 6, _, _MANY[500:1000] % 7), (500, 5)),
    "broadcast": ((6, 7), (I([[0], [5], [0]]), I([[1, 1, 6, 1]])), (3, 4)),
    "strided-view": ((12, 9), (slice(None, None, -3), [[8, 0, 8], [0, 8, 8]]), (2, 3, 4)),
}


@pytest.mark.parametrize("dtype", [np.float64, np.int8, np.complex128, np.bool_])
@pytest.mark.parametrize("case", DUPLICATE_SETITEMS.values(), ids=DUPLICATE_SETITEMS.keys())
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_duplicate_indices_last_wins_everywhere(case, dtype, xp):
    # NumPy writes the repeats in C order of the index, so the last one stays; the device
    # kernels keep that whatever order blocks and threads run in (GPUPY_EMU_SCHEDULE).
    shape, index, vshape = case
    a = xp.zeros(shape, dtype=dtype)
    values = (np.arange(1, np.prod(vshape) + 1) % 97).reshape(vshape).astype(dtype)
    key = tuple(xp.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
    a[key] = xp.asarray(values)
    return a


@testing.numpy_gpupy_allclose()
def test_setitem_few_duplicates_in_a_large_array(xp):
    # Far fewer writes than elements (the kernels' hashed table rather than one slot each).
    a = xp.zeros(200_000, dtype=np.float32)
    a[xp.asarray([5, 199_999, 5, -1, 7, 5])] = xp.asarray([1, 2, 3, 4, 5, 6], dtype=np.float32)
    b = xp.zeros((500, 400), dtype=np.int16)[::2, 1::3]
    b[xp.asarray([0, 249, 0]), xp.asarray([-1, 0, 132])] = xp.asarray([7, 8, 9], dtype=np.int16)
    return a, b


@testing.numpy_gpupy_allclose()
def test_put_and_put_along_axis_duplicates_last_wins(xp):
    a = xp.zeros(30, dtype=np.int64)
    xp.put(a, xp.asarray(_MANY[:900] % 30), xp.asarray(np.arange(900)))
    b = xp.zeros((4, 6), dtype=np.float64)
    idx = xp.asarray(_MANY[:40].reshape(4, 10) % 6)
    xp.put_along_axis(b, idx, xp.asarray(np.arange(40.0).reshape(4, 10)), axis=1)
    c = xp.zeros(10, dtype=np.int32)
    xp.put(c, xp.asarray([1, 11, 21, -9]), xp.asarray([1, 2, 3, 4]), mode="wrap")
    return a, b, c


def test_setitem_readonly():
    a = gpupy.broadcast_to(gpupy.zeros(3), (2, 3))
    with pytest.raises(ValueError, match="read-only"):
        a[[0]] = 1


ZERO_D_INDICES = [
    (0, I(1), I(3)),
    (I(-1), _, I(-2, dtype=np.int8)),
    (I(0, dtype=np.uint16), Ellipsis),
    (None, I(2), 1),
]


@pytest.mark.parametrize("index", ZERO_D_INDICES, ids=repr)
@testing.numpy_gpupy_allclose()
def test_0d_integer_index_arrays(index, xp):
    # Advanced indexing with 0-d integer arrays: the result is a copy, not a view.
    base = np.arange(60).reshape(SHAPE)
    a = xp.asarray(base.copy())
    key = tuple(xp.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
    got = a[key]
    a[...] = -1  # the earlier result must not change
    b = xp.asarray(base.copy())
    b[key] = 7
    return got, a, b


def test_0d_integer_index_out_of_bounds():
    a = gpupy.asarray(np.arange(6).reshape(2, 3))
    with pytest.raises(IndexError, match="out of bounds"):
        a[gpupy.asarray(2), 0]
    with pytest.raises(IndexError, match="out of bounds"):
        a[0, gpupy.asarray(-4)] = 1


@pytest.mark.parametrize("value", [2**64 - 1, 2**63])
def test_uint64_index_past_int64_is_out_of_bounds(value):
    # NumPy refuses these too; converting them to int64 would wrap to valid negative indices.
    a = gpupy.asarray(np.arange(6).reshape(2, 3))
    index = gpupy.asarray(np.array([value, 0], dtype=np.uint64))
    with pytest.raises(IndexError, match=f"index {value} is out of bounds for axis 1 with size 3"):
        a[0, index]
    with pytest.raises(IndexError, match="out of bounds"):
        a[0, index] = 5
    with pytest.raises(IndexError, match="out of bounds"):
        a[0, gpupy.asarray(np.uint64(value))]


def test_error_messages():
    a = gpupy.asarray(np.arange(5))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 5"):
        a[[1, 7]]
    with pytest.raises(IndexError, match="index -6 is out of bounds for axis 0 with size 5"):
        a[[-6]] = 0
    with pytest.raises(IndexError, match="boolean index did not match"):
        a[gpupy.asarray(np.array([True, False]))]
    with pytest.raises(IndexError, match="integer .or boolean. type"):
        a[gpupy.asarray(np.array([1.0]))]


def test_gather_is_a_copy():
    a = gpupy.asarray(np.arange(5))
    b = a[[0, 1]]
    b[0] = 9
    assert a.get()[0] == 0


NONZERO_INPUTS = [
    np.array([0, 1, 0, 2]),
    np.array([[0, 1.5], [np.nan, 0], [0, -0.0]]),
    np.array([[1 + 0j, 0j], [1j, 0j]]),
    np.zeros((3, 0, 2)),
    np.zeros((2, 3), dtype=bool),
    np.arange(2 * 3 * 4).reshape(2, 3, 4) % 3,
    np.arange(3000) % 7 == 0,  # several blocks of the device compaction
    np.arange(40000) % 13 == 0,  # several tiles per block
]


@pytest.mark.parametrize("x", NONZERO_INPUTS, ids=lambda x: f"{x.dtype}{x.shape}")
@testing.numpy_gpupy_allclose()
def test_nonzero_argwhere_flatnonzero(x, xp):
    a = xp.asarray(x)
    return xp.nonzero(a), a.nonzero(), xp.argwhere(a), xp.flatnonzero(a)


@testing.for_dtypes()
@testing.numpy_gpupy_allclose()
def test_nonzero_dtypes(dtype, xp):
    a = xp.asarray((np.arange(12).reshape(3, 4) % 3).astype(dtype))
    return xp.nonzero(a), xp.nonzero(a.T), xp.nonzero(a[:, ::-2])


@testing.numpy_gpupy_allclose(accept_error=True)
def test_nonzero_0d_raises(xp):
    return xp.nonzero(xp.asarray(np.float64(1)))


@testing.numpy_gpupy_allclose()
def test_argwhere_0d(xp):
    return xp.argwhere(xp.asarray(np.float64(1))), xp.argwhere(xp.asarray(np.float64(0)))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, 2, 3])
@pytest.mark.parametrize("indices", [[0, 2, -1], [[1, 0], [0, 1]], [], [9]], ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_take(axis, indices, xp):
    a = xp.asarray(np.arange(60).reshape(SHAPE))
    return xp.take(a, indices, axis=axis)


# Index values as NumPy's take and put convert them: booleans are 0 and 1 (never a mask), a list or
# scalar of floats is truncated, a float or complex index array is a TypeError.
TAKE_PUT_INDICES = [
    I([True, False, True, False]),
    [True, False, True, False],
    True,
    I([[False], [True]]),
    [1.0, 2.7, -1.5],
    2.5,
    I([1, 3], dtype=np.uint16),
    I([1.0, 2.0]),
    [1j],
    I([1 + 0j]),
]


@pytest.mark.parametrize("indices", TAKE_PUT_INDICES, ids=repr)
@pytest.mark.parametrize("axis", [None, 1])
@pytest.mark.parametrize("on_device", [False, True])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_take_index_kinds(indices, axis, on_device, xp):
    if on_device and isinstance(indices, np.ndarray):
        indices = xp.asarray(indices)
    return xp.take(xp.asarray(np.arange(12).reshape(3, 4)), indices, axis=axis)


@pytest.mark.parametrize("layout", ["1-d", "1-d strided", "1-d reversed", "0-d", "F-ordered 2-d"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_take_flat_of_any_layout(layout, xp):
    # axis=None reads the input in C order, whatever its layout (a 1-d input is used as is).
    base = np.arange(40.0)
    a = {
        "1-d": base,
        "1-d strided": base[::3],
        "1-d reversed": base[::-1],
        "0-d": np.array(7.5),
        "F-ordered 2-d": np.asfortranarray(base.reshape(5, 8)),
    }[layout]
    return xp.take(xp.asarray(a), xp.asarray([0, -1, 3 % a.size]))


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize(
    "axis, indices", [(None, [0, 25, -30, 7]), (0, [[4, -1], [-7, 2]]), (1, [9])]
)
@testing.numpy_gpupy_allclose()
def test_take_modes_and_out(mode, axis, indices, xp):
    a = xp.asarray(np.arange(20.0).reshape(4, 5))
    shape = np.take(np.zeros((4, 5)), indices, axis=axis, mode=mode).shape
    out = xp.zeros(shape)
    result = xp.take(a, xp.asarray(indices), axis=axis, mode=mode, out=out)
    assert result is out
    return out, a.take(indices, axis=axis, mode=mode)


def test_take_mode_errors():
    a = gpupy.arange(4.0)
    with pytest.raises(ValueError, match=r"\[take\] mode"):
        gpupy.take(a, [1], mode="nearest")
    with pytest.raises(IndexError, match=r"\[take\]"):
        gpupy.take(gpupy.zeros((2, 0)), [1], axis=1, mode="wrap")


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@pytest.mark.parametrize("indices", [[], [[]], np.zeros((2, 0), np.int32)], ids=repr)
@testing.numpy_gpupy_allclose()
def test_take_no_index_from_an_empty_axis(mode, indices, xp):
    # nothing taken: an empty result (gpupy once raised IndexError with wrap and clip)
    return xp.take(xp.zeros((0, 3), dtype="uint8"), indices, axis=0, mode=mode), xp.take(
        xp.zeros(0), indices, mode=mode
    )


@pytest.mark.parametrize("axis", [0, 1, -1, None])
@testing.numpy_gpupy_allclose()
def test_take_along_axis(axis, xp):
    x = np.random.default_rng(0).random(SHAPE)
    a = xp.asarray(x)
    if axis is None:
        idx = np.argsort(x, axis=None)[:7]
    else:
        idx = np.argsort(x, axis=axis)
    return xp.take_along_axis(a, xp.asarray(idx), axis=axis)


@pytest.mark.parametrize("axis", [0, 1, -1])
@testing.numpy_gpupy_allclose()
def test_put_along_axis(axis, xp):
    a = xp.asarray(np.arange(60.0).reshape(SHAPE))
    idx = np.zeros([1 if d == axis % 3 else n for d, n in enumerate(SHAPE)], dtype=np.int64)
    xp.put_along_axis(a, xp.asarray(idx), -1.0, axis=axis)
    return a


@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.numpy_gpupy_allclose()
def test_compress_extract(axis, xp):
    a = xp.asarray(np.arange(12).reshape(3, 4))
    cond = xp.asarray(np.array([True, False, True]))
    return xp.compress(cond, a, axis=axis), xp.extract(a % 5 == 0, a)


@pytest.mark.parametrize("dtype", ["int8", "int16", "float32", "float64", "complex128"])
def test_gather_scatter_large_random_with_negative_indices(dtype):
    """Every element size through the gather and scatter loops; negative indices wrap."""
    r = np.random.RandomState(4)
    base = (r.rand(5000, 3) * 100).astype(dtype)
    rows = r.randint(-5000, 5000, 70_000)
    cols = r.randint(-3, 3, (1, 70_000))
    a = gpupy.asarray(base)
    np.testing.assert_array_equal(a[gpupy.asarray(rows)].get(), base[rows])
    np.testing.assert_array_equal(
        a[gpupy.asarray(rows), gpupy.asarray(cols)].get(), base[rows, cols]
    )
    # distinct rows (-k and 5000 - k are one row), half written as negative indices: the result
    # does not depend on the order of the writes
    uniq = np.unique(rows % 5000)[::-1]
    uniq = np.where(r.rand(uniq.size) < 0.5, uniq - 5000, uniq)
    values = (np.arange(uniq.size) % 120).astype(dtype)
    expected = base.copy()
    expected[uniq, 1] = values
    a[gpupy.asarray(uniq), 1] = gpupy.asarray(values)
    np.testing.assert_array_equal(a.get(), expected)


def test_out_of_bounds_reports_an_index_and_writes_nothing(device_name):
    base = np.arange(15.0).reshape(5, 3)
    a = gpupy.asarray(base)
    index = gpupy.asarray([1, 7, -9, 2])
    # cpu names the first bad index in C order, as NumPy does; devices name one of them
    first = "7" if device_name == "cpu" else "(7|-9)"
    with pytest.raises(IndexError, match=rf"index {first} is out of bounds for axis 0 with size 5"):
        a[index]
    with pytest.raises(IndexError, match=r"index -4 is out of bounds for axis 1 with size 3"):
        a[gpupy.asarray([0, 1]), gpupy.asarray([[2], [-4]])]
    with pytest.raises(IndexError, match="out of bounds"):
        a[index, 0] = gpupy.asarray([10.0, 20.0, 30.0, 40.0])
    with pytest.raises(IndexError, match="out of bounds"):
        a[gpupy.asarray([0, 4]), gpupy.asarray([0, 3])] = 99.0
    np.testing.assert_array_equal(a.get(), base)  # no partial writes
    with pytest.raises(IndexError, match="index 0 is out of bounds for axis 1 with size 0"):
        gpupy.zeros((2, 0))[:, gpupy.asarray([0])]
    empty = gpupy.zeros((0, 3))[gpupy.asarray([], dtype="int64")]
    assert empty.shape == (0, 3)


@pytest.mark.parametrize("condition", [[True, False, False], [False, True, False, False], [True]])
@pytest.mark.parametrize("axis", [None, 1])
@testing.numpy_gpupy_allclose()
def test_compress_condition_longer_than_the_axis(condition, axis, xp):
    # extra False entries are ignored (gpupy once raised IndexError for any longer condition)
    return xp.compress(condition, xp.asarray(np.array([[2, 3]])), axis=axis)


@pytest.mark.parametrize("view", ["contiguous", "strided"])
@pytest.mark.parametrize("indices", [[1, -1], [[1]]], ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_put_along_axis_none(view, indices, xp):
    # axis=None needs 1-d indices and a C-contiguous array (NumPy's flattened copy of another is
    # read-only): ValueError both, where gpupy raised NotImplementedError
    a = xp.asarray(np.arange(12).reshape(3, 4))
    a = a if view == "contiguous" else a[:, ::2]
    xp.put_along_axis(a, xp.asarray(np.array(indices)), 99, axis=None)
    return a


@pytest.mark.parametrize("name", ["take_along_axis", "put_along_axis"])
@pytest.mark.parametrize("indices", [[0.5], [[1.0]], [[True]]], ids=repr)
@pytest.mark.parametrize("axis", [None, 0, 5])
@testing.numpy_gpupy_raises()
def test_along_axis_checks_the_index_dtype_first(name, indices, axis, xp):
    # IndexError before the axis, the shapes or the strided array's read-only flattening
    a = xp.asarray(np.arange(12).reshape(3, 4))[:, ::2]
    idx = xp.asarray(np.array(indices))
    if name == "take_along_axis":
        return xp.take_along_axis(a, idx, axis=axis)
    return xp.put_along_axis(a, idx, 7, axis=axis)


@pytest.mark.parametrize(
    "index",
    [(I(255, dtype=np.uint8), I([], dtype=np.int64)), (I(-3), I([False, False, False])),
     (I([5]), I([[]], dtype=np.int64).T), (I(1), I([], dtype=np.int64)),
     (_, I(9), I([], dtype=np.int8))],
    ids=repr,
)  # fmt: skip
@pytest.mark.parametrize("setting", [False, True])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_zero_d_index_array_out_of_bounds_with_an_empty_result(index, setting, xp):
    # NumPy reads a 0-d index array as an integer: bounds-checked even when the index arrays
    # broadcast to nothing (gpupy returned an empty result); 1-d ones are not checked then
    a = xp.asarray(np.arange(9.0).reshape(3, 3))
    key = tuple(xp.asarray(i) if isinstance(i, np.ndarray) else i for i in index)
    if setting:
        a[key] = 1.0
        return a
    return a[key]


@pytest.mark.parametrize(
    "shape, indices, axis",
    [
        ((4, 0, 0), [0], 2),
        ((0, 3), [5], 1),
        ((2, 0), [5], 0),
        ((0, 3), [1, -1], 1),
        ((3, 0), [7], 1),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_take_checks_indices_only_when_something_is_taken(shape, indices, axis, xp):
    # NumPy bounds-checks once per element of the axes before `axis`: none when they are empty
    return xp.take(xp.zeros(shape), xp.asarray(indices), axis=axis)


@pytest.mark.parametrize("shape", [(0, 3), (2, 3), (2, 0)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_compress_longer_condition_on_empty_axes(shape, xp):
    return xp.compress([True, False, False, True], xp.zeros(shape), axis=1)


@pytest.mark.parametrize("value", [70000, -1.5e10, 1 + 2j])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_zero_d_index_array_checked_before_the_value(value, xp):
    # the out-of-range 0-d index (an integer to NumPy) raises IndexError before the value that
    # int16 cannot take is looked at
    a = xp.zeros((3, 3), dtype="int16")
    a[xp.asarray(np.array(7)), xp.asarray([0, 1])] = value
    return a
