"""append, insert, delete, resize, rot90, flips, rollaxis, block, pad, trim_zeros, ediff1d and the
apply_* helpers against NumPy, on the device under test."""

import gpupy
import numpy
import pytest
from gpupy.testing import numpy_gpupy_allclose, numpy_gpupy_raises

DTYPES = ["bool", "int8", "uint16", "int64", "float32", "float64", "complex128"]


def _data(xp, shape, dtype):
    n = int(numpy.prod(shape))
    host = (numpy.arange(n) % 7 - 2).reshape(shape)
    return xp.asarray(host.astype(dtype))


# ---- append, insert, delete, resize ------------------------------------------------------------


@pytest.mark.parametrize("dtype", DTYPES)
@numpy_gpupy_allclose()
def test_append_dtypes(dtype, xp):
    a = _data(xp, (2, 3), dtype)
    return xp.append(a, a[:1], axis=0), xp.append(a, [7, 8]), xp.append(a, a, axis=-1)


@numpy_gpupy_allclose()
def test_append_promotes_and_scalars(xp):
    return xp.append(xp.asarray([1, 2], dtype="int8"), 2.5), xp.append(3, [1, 2])


@numpy_gpupy_raises()
def test_append_shape_mismatch(xp):
    return xp.append(xp.zeros((2, 3)), xp.zeros((2, 2)), axis=0)


@pytest.mark.parametrize(
    "obj",
    [
        1,
        -1,
        3,
        slice(None, None, 2),
        [0, 2, 2],
        [3, 0, -1],
        [],
        numpy.array([1]),
        numpy.array([True, False, True]),
    ],
)
@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_gpupy_allclose(accept_error=True)
def test_insert(obj, axis, xp):
    a = _data(xp, (3, 3), "int32")
    values = 9 if axis is None else xp.asarray([9, 8, 7])
    if isinstance(obj, list) and len(obj) != 3 and axis is not None and obj:
        values = 5
    return xp.insert(a, obj, values, axis=axis)


@numpy_gpupy_allclose()
def test_insert_values_shapes_and_casts(xp):
    a = _data(xp, (2, 3), "float32")
    return (
        xp.insert(a, 1, xp.asarray([[1.5], [2.5]]), axis=1),
        xp.insert(a, [1], [[1.5], [2.5]], axis=1),
        xp.insert(xp.asarray([1, 2, 3]), 1, 2.7),
        xp.insert(xp.asarray([], dtype="int16"), 0, [4, 5]),
        xp.insert(xp.asarray([1, 2, 3]), [0, 2], [[8]]),
        xp.insert(xp.asarray([1, 2]), 1, [[8]], axis=0),
    )


@pytest.mark.parametrize(
    "args",
    [
        (5, 1, None),
        (-5, 1, None),
        ([0, 9], 1, None),
        (1, 1, 2),
        (1.5, 1, None),
        ([[0, 1]], 1, None),
        (numpy.array([[True]]), 1, None),
    ],
)
@numpy_gpupy_raises()
def test_insert_errors(args, xp):
    obj, values, axis = args
    return xp.insert(xp.asarray([[1, 2], [3, 4]]), obj, values, axis=axis)


@pytest.mark.parametrize(
    "obj",
    [
        0,
        -1,
        numpy.int64(2),
        slice(1, None),
        slice(None, None, -2),
        slice(5, 0),
        slice(-2, 0, -1),  # runs of items (step +-1) are cut out without an index array
        slice(1, 3, -1),
        slice(None, None, -1),
        slice(-20, 20),
        [0, 2],
        [],
        [-1, 0, 0],
    ],
)
@pytest.mark.parametrize("axis", [None, 1])
@numpy_gpupy_allclose()
def test_delete(obj, axis, xp):
    a = _data(xp, (3, 4), "float64")
    out = xp.delete(a, obj, axis=axis)
    assert not xp.shares_memory(out, a)  # always a new array, as in NumPy
    return out


@numpy_gpupy_allclose()
def test_delete_mask_and_dtypes(xp):
    b = _data(xp, (5,), "bool")
    return (
        xp.delete(_data(xp, (4,), "complex64"), [True, False, False, True]),
        xp.delete(b, 0),
        xp.delete(xp.asarray(7), 0),
    )


@pytest.mark.parametrize("obj", [4, -5, [0, 9], [1.0], [True, False]])
@numpy_gpupy_raises()
def test_delete_errors(obj, xp):
    return xp.delete(xp.arange(4), obj)


@numpy_gpupy_raises()
def test_delete_axis_error(xp):
    return xp.delete(xp.zeros((2, 2)), 0, axis=2)


@pytest.mark.parametrize(
    "name, call",
    [
        ("delete", lambda xp: xp.delete(xp.asarray(3.0), [], axis=0)),
        ("insert", lambda xp: xp.insert(xp.zeros((2, 2)), 0, 7, axis=-3)),
        ("append", lambda xp: xp.append(xp.zeros((2, 2)), xp.zeros((2, 2)), axis=2)),
        ("rollaxis", lambda xp: xp.rollaxis(xp.asarray(3.0), -1, 0)),
        ("trim_zeros", lambda xp: xp.trim_zeros(xp.zeros((2, 2)), axis=2)),
        ("apply_along_axis", lambda xp: xp.apply_along_axis(sum, 1, xp.zeros(3))),
        ("size", lambda xp: xp.size(xp.asarray(3.0), axis=0)),
    ],
)
def test_axis_errors_are_numpy_axis_errors(name, call):
    with pytest.raises(numpy.exceptions.AxisError):
        call(numpy)
    with pytest.raises(numpy.exceptions.AxisError, match=rf"^\[{name}\] axis"):
        call(gpupy)


@pytest.mark.parametrize(
    "name, call, exc",
    [
        ("delete", lambda xp: xp.delete(xp.zeros(3), 0, axis=1.0), TypeError),
        ("rollaxis", lambda xp: xp.rollaxis(xp.zeros((2, 2)), 0, 1.5), TypeError),
        ("rot90", lambda xp: xp.rot90(xp.zeros((2, 2)), 1, axes=-1), TypeError),
        ("resize", lambda xp: xp.resize(xp.zeros(2), (2, 2.5)), TypeError),
        ("resize", lambda xp: xp.resize(xp.zeros(2), (2**62, 4)), OverflowError),
        ("apply_along_axis", lambda xp: xp.apply_along_axis(sum, 0.0, xp.zeros(3)), TypeError),
    ],
)
def test_integer_arguments_are_checked(name, call, exc):
    with pytest.raises(exc):
        call(numpy)
    with pytest.raises(exc, match=rf"^\[{name}\]"):
        call(gpupy)


@pytest.mark.parametrize("new_shape", [7, (2, 5), (3,), 0, (0, 4), (2, 2, 3)])
@pytest.mark.parametrize("dtype", ["int16", "complex64"])
@numpy_gpupy_allclose()
def test_resize_function(new_shape, dtype, xp):
    return xp.resize(_data(xp, (2, 3), dtype), new_shape)


@numpy_gpupy_allclose()
def test_resize_empty_input_and_error(xp):
    out = xp.resize(xp.zeros((0,), dtype="uint8"), (2, 3))
    with pytest.raises(ValueError):
        xp.resize(xp.arange(3), (-1, 2))
    return out


# ---- rotations, flips, rollaxis --------------------------------------------------------------


@pytest.mark.parametrize("k", [-3, 0, 1, 2, 3, 6])
@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (2, 0), (-1, 1)])
@numpy_gpupy_allclose()
def test_rot90(k, axes, xp):
    return xp.rot90(_data(xp, (2, 3, 4), "int32"), k, axes)


def test_rot90_and_flips_are_views():
    a = gpupy.arange(6).reshape(2, 3)
    for view in (gpupy.rot90(a), gpupy.rot90(a, 2), gpupy.fliplr(a), gpupy.flipud(a)):
        assert gpupy.shares_memory(view, a)


@pytest.mark.parametrize("axes", [(0,), (0, 0), (0, 2), (0, -2), (3, 0)])
@numpy_gpupy_raises()
def test_rot90_errors(axes, xp):
    return xp.rot90(xp.zeros((2, 3)), 1, axes)


@numpy_gpupy_allclose()
def test_fliplr_flipud(xp):
    a = _data(xp, (2, 3, 2), "float32")
    return xp.fliplr(a), xp.flipud(a), xp.flipud(xp.asarray([1, 2, 3])), xp.fliplr([[1, 2]])


@pytest.mark.parametrize("call", ["fliplr1d", "flipud0d"])
@numpy_gpupy_raises()
def test_flip_errors(call, xp):
    return xp.fliplr(xp.arange(3)) if call == "fliplr1d" else xp.flipud(xp.asarray(1))


@pytest.mark.parametrize(
    "axis,start", [(0, 0), (2, 0), (0, 3), (1, -1), (-1, 1), (3, 1), (0, 5), (0, -5)]
)
@numpy_gpupy_allclose(accept_error=True)
def test_rollaxis(axis, start, xp):
    return xp.rollaxis(_data(xp, (2, 3, 4, 5), "int8"), axis, start)


# ---- block ----------------------------------------------------------------------------------


@numpy_gpupy_allclose()
def test_block_layouts(xp):
    a = _data(xp, (2, 2), "int32")
    b = _data(xp, (2, 3), "float32")
    c = _data(xp, (1, 5), "int64")
    v = xp.asarray([1, 2, 3])
    return (
        xp.block([[a, b], [c]]),
        xp.block([v, 4, v]),
        xp.block([[1, 2], [3, 4]]),
        xp.block([[[v]], [[v]]]),
        xp.block(v),
        xp.block(5),
        xp.block([[a], [a]]),
    )


@pytest.mark.parametrize("case", ["tuple", "empty", "depth", "shapes", "inner_tuple"])
@numpy_gpupy_raises()
def test_block_errors(case, xp):
    v = xp.asarray([1, 2])
    arrays = {
        "tuple": (v, v),
        "empty": [v, []],
        "depth": [[v], v],
        "shapes": [[xp.zeros((2, 2))], [xp.zeros((2, 3))]],
        "inner_tuple": [[v], [(v,)]],
    }[case]
    return xp.block(arrays)


def test_block_returns_a_copy():
    a = gpupy.arange(3)
    out = gpupy.block(a)
    out[0] = 9
    assert int(a[0]) == 0


# ---- pad ------------------------------------------------------------------------------------

PAD_MODES = [
    ("constant", {}),
    ("constant", {"constant_values": ((1, 2), (3, 4))}),
    ("edge", {}),
    ("linear_ramp", {}),
    ("linear_ramp", {"end_values": (-4, 9)}),
    ("maximum", {}),
    ("minimum", {"stat_length": 2}),
    ("mean", {"stat_length": ((1, 2), (3, 1))}),
    ("median", {}),
    ("reflect", {}),
    ("reflect", {"reflect_type": "odd"}),
    ("symmetric", {}),
    ("symmetric", {"reflect_type": "odd"}),
    ("wrap", {}),
]


@pytest.mark.parametrize("mode,kwargs", PAD_MODES)
@pytest.mark.parametrize("width", [2, ((1, 7), (0, 3))])
@numpy_gpupy_allclose()
def test_pad_modes(mode, kwargs, width, xp):
    a = xp.asarray(numpy.array([[1, 5, 2, 8], [3, 0, 7, 4], [6, 9, 1, 2]], dtype="int32"))
    return xp.pad(a, width, mode=mode, **kwargs)


@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "float64", "complex64"])
@pytest.mark.parametrize("mode", ["constant", "edge", "linear_ramp", "mean", "reflect", "wrap"])
@numpy_gpupy_allclose()
def test_pad_dtypes(dtype, mode, xp):
    if dtype == "bool" and mode == "reflect":
        return xp.pad(_data(xp, (5,), dtype), (6, 3), mode="symmetric")
    return xp.pad(_data(xp, (5,), dtype), (6, 3), mode=mode)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # NumPy's median of an empty slice
@pytest.mark.parametrize("stat_length", [None, 2, 3, 0])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@numpy_gpupy_allclose(rtol=1e-6)
def test_pad_median_complex(dtype, stat_length, xp):
    # NumPy's complex median: the middle of the lexicographic order, or the NaN sorted last.
    a = xp.asarray([[3 + 1j, 1 - 1j, 2, 2 + 5j], [1, complex(numpy.nan, 1), 0, 1j]], dtype=dtype)
    inf = xp.asarray([complex(-numpy.inf, 0), complex(1, numpy.inf), 2], dtype=dtype)
    return (
        xp.pad(a, ((1, 0), (2, 3)), mode="median", stat_length=stat_length),
        xp.pad(inf, 1, mode="median", stat_length=stat_length),  # -inf+0j alone gives -inf+nanj
    )


@numpy_gpupy_allclose()
def test_pad_forms_and_special_shapes(xp):
    a = _data(xp, (2, 3), "float64")
    return (
        xp.pad(a, (1, 2)),
        xp.pad(a, ((1,), (2,))),
        xp.pad(a, [[0, 1], [2, 0]], constant_values=-1.5),
        xp.pad(xp.asarray([1, 2], dtype="uint8"), 2, constant_values=((-1, 2.7),)),
        xp.pad(a, {1: (1, 2)}, mode="edge"),
        xp.pad(a, {0: 3}),
        xp.pad(xp.asarray(5.0), 0),
        xp.pad(xp.zeros((0, 3)), ((2, 1), (1, 1)), constant_values=4),
        xp.pad(xp.zeros((0, 3)), ((0, 0), (1, 1)), mode="edge"),
        xp.pad(xp.asarray([7]), 3, mode="reflect"),
        xp.pad([1, 2], 1, mode="mean"),
        xp.pad(xp.asarray([1.0, 2.0, 4.0]), 8, mode="reflect", reflect_type="odd"),
        xp.pad(xp.asarray([1, 2, 3]), (10, 11), mode="wrap"),
        xp.pad(xp.asarray([1, 2, 3]), (10, 11), mode="symmetric"),
    )


def test_pad_empty_mode_shape_and_callable():
    a = gpupy.arange(6).reshape(2, 3)
    assert gpupy.pad(a, ((1, 0), (2, 2)), mode="empty").shape == (3, 7)
    numpy.testing.assert_array_equal(gpupy.pad(a, 1, mode="empty")[1:-1, 1:-1].get(), a.get())

    def fill(vector, width, axis, kwargs):
        vector[: width[0]] = kwargs.get("value", 10)
        if width[1]:
            vector[-width[1] :] = axis

    expected = numpy.pad(a.get(), (1, 2), fill, value=-3)
    numpy.testing.assert_array_equal(gpupy.pad(a, (1, 2), fill, value=-3).get(), expected)


@pytest.mark.parametrize(
    "args",
    [
        ((1.5,), {}),
        ((-1,), {}),
        ((1,), {"mode": "nope"}),
        ((1,), {"mode": "edge", "constant_values": 1}),
        ((1,), {"mode": "maximum", "stat_length": 0}),
        (((1, 2, 3),), {}),
    ],
)
@numpy_gpupy_raises()
def test_pad_errors(args, xp):
    pos, kw = args
    return xp.pad(xp.asarray([[1, 2], [3, 4]]), *pos, **kw)


@numpy_gpupy_raises()
def test_pad_empty_axis_error(xp):
    return xp.pad(xp.zeros((0, 2)), 1, mode="wrap")


# ---- trim_zeros, ediff1d ---------------------------------------------------------------------


@pytest.mark.parametrize("trim", ["fb", "f", "b", "BF"])
@numpy_gpupy_allclose()
def test_trim_zeros_1d(trim, xp):
    return (
        xp.trim_zeros(xp.asarray([0, 0, 1, 0, 2, 0]), trim),
        xp.trim_zeros(xp.asarray([0.0, 0.0]), trim),
        xp.trim_zeros(xp.asarray([], dtype="int8"), trim),
        xp.trim_zeros(xp.asarray([False, True, False]), trim),
    )


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)])
@numpy_gpupy_allclose()
def test_trim_zeros_nd(axis, xp):
    a = numpy.zeros((5, 6), dtype="float32")
    a[1, 2], a[3, 4] = 1.5, -2
    return xp.trim_zeros(xp.asarray(a), axis=axis), xp.trim_zeros(xp.zeros((2, 3)), axis=axis)


def test_trim_zeros_is_a_view():
    a = gpupy.asarray([0, 3, 4, 0])
    assert gpupy.shares_memory(gpupy.trim_zeros(a), a)


@pytest.mark.parametrize("args", [("x", None), ("fb", 2)])
@numpy_gpupy_raises()
def test_trim_zeros_errors(args, xp):
    return xp.trim_zeros(xp.asarray([0, 1]), args[0], axis=args[1])


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int64", "float32", "complex128"])
@numpy_gpupy_allclose(accept_error=True)
def test_ediff1d(dtype, xp):
    a = _data(xp, (2, 3), dtype)
    return (
        xp.ediff1d(a),
        xp.ediff1d(a, to_begin=5, to_end=[1, 2]),
        xp.ediff1d(a[:1, :1]),
        xp.ediff1d(a[:0], to_end=xp.asarray([3], dtype=dtype)),
    )


@numpy_gpupy_raises()
def test_ediff1d_incompatible_edge(xp):
    return xp.ediff1d(xp.asarray([1, 2, 4]), to_begin=0.5)


# ---- apply_along_axis, apply_over_axes ----------------------------------------------------------


@pytest.mark.parametrize("axis", [0, 1, -1])
@numpy_gpupy_allclose()
def test_apply_along_axis(axis, xp):
    a = _data(xp, (2, 3, 4), "float64")
    return (
        xp.apply_along_axis(lambda v: v * 2 + v[0], axis, a),
        xp.apply_along_axis(lambda v: v.sum(), axis, a),
        xp.apply_along_axis(lambda v, s: xp.stack([v.min(), v.max() * s]), axis, a, 3),
        xp.apply_along_axis(lambda v: xp.outer(v, v), axis, a),
    )


@pytest.mark.parametrize("case", ["empty", "axis"])
@numpy_gpupy_raises()
def test_apply_along_axis_errors(case, xp):
    if case == "empty":
        return xp.apply_along_axis(lambda v: v, 1, xp.zeros((0, 3)))
    return xp.apply_along_axis(lambda v: v, 2, xp.zeros((2, 3)))


@pytest.mark.parametrize("axes", [0, [0, 2], (-1,), []])
@numpy_gpupy_allclose()
def test_apply_over_axes(axes, xp):
    return xp.apply_over_axes(xp.sum, _data(xp, (2, 3, 4), "int32"), axes)


@numpy_gpupy_raises()
def test_apply_over_axes_bad_result(xp):
    return xp.apply_over_axes(lambda a, axis: a[None, None], xp.zeros((2, 3)), [0])


def test_numpy_dispatch_reaches_gpupy():
    a = gpupy.arange(6).reshape(2, 3)
    for out in (
        numpy.append(a, a),
        numpy.insert(a, 1, 5),
        numpy.delete(a, 0, axis=1),
        numpy.resize(a, 8),
        numpy.rot90(a),
        numpy.fliplr(a),
        numpy.flipud(a),
        numpy.rollaxis(a, 1),
        numpy.block([a, a]),
        numpy.pad(a, 1),
        numpy.trim_zeros(a),
        numpy.ediff1d(a),
        numpy.apply_along_axis(lambda v: v, 0, a),
        numpy.apply_over_axes(gpupy.sum, a, 0),
    ):
        assert isinstance(out, gpupy.ndarray)
        assert out.device == a.device


ERRORS = {
    "insert": (IndexError, lambda a: gpupy.insert(a, 5, 1)),
    "delete": (IndexError, lambda a: gpupy.delete(a, [1.0])),
    "resize": (ValueError, lambda a: gpupy.resize(a, (-1,))),
    "rot90": (ValueError, lambda a: gpupy.rot90(a, 1, (0, 0))),
    "fliplr": (ValueError, lambda a: gpupy.fliplr(a[0])),
    "rollaxis": (numpy.exceptions.AxisError, lambda a: gpupy.rollaxis(a, 0, 5)),
    "block": (ValueError, lambda a: gpupy.block([[a], [a[:, :1]]])),
    "pad": (ValueError, lambda a: gpupy.pad(a, 1, mode="wrap", constant_values=1)),
    "trim_zeros": (ValueError, lambda a: gpupy.trim_zeros(a, "x")),
    "ediff1d": (TypeError, lambda a: gpupy.ediff1d(a, to_end=0.5)),
    "apply_along_axis": (ValueError, lambda a: gpupy.apply_along_axis(len, 0, a[:, :0])),
    "apply_over_axes": (
        ValueError,
        lambda a: gpupy.apply_over_axes(lambda x, _: x[None, None], a, 0),
    ),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_messages_name_the_function(name):
    error, call = ERRORS[name]
    with pytest.raises(error, match=rf"^\[{name}\] "):
        call(gpupy.asarray([[1, 2], [3, 4]]))


@pytest.mark.parametrize(
    "data, width, value",
    [([[-7, 10]], 0, 2**64 - 1), ([], ((0, 0),), 2**33), ([1, 2], 1, 300),
     ([1, 2], (1, 0), (1.5, 300)), ([1, 2], 1, -2.5)],
)  # fmt: skip
@numpy_gpupy_allclose(accept_error=True)
def test_pad_constant_values_convert_as_numpy_scalars(data, width, value, xp):
    # NumPy sets each side from a NumPy scalar: out of range for a signed dtype is an
    # OverflowError, also when that side is empty (gpupy wrapped or skipped it)
    return xp.pad(xp.asarray(numpy.array(data, dtype="int8")), width, constant_values=value)


@pytest.mark.parametrize("obj", ["empty_float_array", "empty_list", "float_array"])
@numpy_gpupy_allclose(accept_error=True)
def test_insert_index_dtype(xp, obj):
    # found by NumPy's test_function_base.py: an empty float index array is refused too
    index = {
        "empty_float_array": xp.zeros(0),
        "empty_list": [],
        "float_array": xp.asarray([1.0, 2.0]),
    }[obj]
    return xp.insert(xp.asarray([0, 1, 2]), index, [] if obj.startswith("empty") else [10, 20])
