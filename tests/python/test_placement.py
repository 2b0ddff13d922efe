"""put, putmask, place, copyto, fill_diagonal, choose, select and piecewise against NumPy."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing
from test_advanced_indexing import TAKE_PUT_INDICES

DTYPES = ("bool", "int8", "uint16", "int64", "float32", "float64", "complex128")


def _data(shape, dtype, start=0):
    a = np.arange(start, start + int(np.prod(shape))).reshape(shape)
    if dtype == "bool":
        return a % 3 == 0
    return (a % 11 - 4).astype(dtype)


# ---- put -----------------------------------------------------------------------------------------


@testing.for_dtypes(DTYPES)
@testing.numpy_gpupy_allclose()
def test_put_dtypes(dtype, xp):
    a = xp.asarray(_data((3, 4), dtype))
    xp.put(a, [0, 5, -1, 7], xp.asarray(_data((2,), dtype, 3)))  # values repeat
    return a


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@testing.numpy_gpupy_allclose()
def test_put_modes(mode, xp):
    a = xp.zeros((2, 5))
    ind = [1, -3, 4] if mode == "raise" else [12, -13, 3, 40, -1]
    xp.put(a, ind, [1.5, 2.5, 3.5], mode=mode)
    return a


@testing.numpy_gpupy_allclose()
def test_put_noncontiguous_and_scalar_value(xp):
    base = xp.zeros((4, 6), dtype="int32")
    view = base[::2, 1::2]
    xp.put(view, [0, 4, 5], 7.9)  # a float value is cast to the array's dtype
    return base


@testing.numpy_gpupy_allclose()
def test_put_method_and_empty(xp):
    a = xp.arange(6)
    a.put([2], [9])
    xp.put(a, [], [1])
    xp.put(a, [1], [])
    b = xp.zeros(())  # a 0-d array has one flat element
    xp.put(b, [0], 3.0)
    return a, b


@pytest.mark.parametrize(
    "a, ind, mode",
    [((3,), [3], "raise"), ((3,), [-4], "raise"), ((0,), [0], "clip"), ((3,), [0], "bad")],
)
@testing.numpy_gpupy_raises()
def test_put_errors(a, ind, mode, xp):
    xp.put(xp.zeros(a), ind, [1.0], mode=mode)


@pytest.mark.parametrize("indices", TAKE_PUT_INDICES, ids=repr)
@pytest.mark.parametrize("mode", ["raise", "clip"])
@pytest.mark.parametrize("values", [[5.0, 6.0], []])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_put_index_kinds(indices, mode, values, xp):
    # NumPy's TestPutMask::test_empty puts no values at a boolean mask's positions.
    if isinstance(indices, np.ndarray):
        indices = xp.asarray(indices)
    a = xp.zeros(6)
    xp.put(a, indices, values, mode=mode)
    return a


@pytest.mark.parametrize("mode, exc", [(None, None), (2.5, TypeError), ("CLIP", ValueError)])
@pytest.mark.parametrize("func", ["put", "choose"])
def test_clip_mode_checked_as_numpy_does(func, mode, exc):
    # None means 'raise'; a mode that is not a string is a TypeError.
    def call(xp):
        if func == "put":
            a = xp.zeros(3)
            xp.put(a, [1], [5.0], mode=mode)
            return a
        return xp.choose(xp.asarray([0, 1]), [xp.asarray([1, 2]), xp.asarray([3, 4])], mode=mode)

    if exc is None:
        np.testing.assert_array_equal(call(gpupy).get(), call(np))
        return
    with pytest.raises(exc):
        call(np)
    with pytest.raises(exc, match=rf"^\[{func}\] clipmode"):
        call(gpupy)


def test_put_needs_a_gpupy_array():
    with pytest.raises(TypeError, match=r"^\[put\]"):
        gpupy.put([1, 2, 3], [0], [5])
    with pytest.raises(TypeError, match=r"^\[put\]"):
        gpupy.put(gpupy.zeros(3), gpupy.asarray([1j]), [5])


# ---- putmask and place ---------------------------------------------------------------------------


@testing.for_dtypes(DTYPES)
@testing.numpy_gpupy_allclose()
def test_putmask_dtypes(dtype, xp):
    a = xp.asarray(_data((3, 5), dtype))
    mask = xp.asarray(_data((3, 5), "int64") > 0)
    xp.putmask(a, mask, xp.asarray(_data((4,), dtype, 2)))  # values indexed by flat position
    return a


@testing.numpy_gpupy_allclose()
def test_putmask_broadcast_value_and_empty_values(xp):
    a = xp.arange(12.0).reshape(3, 4).T  # not contiguous
    xp.putmask(a, a > 5, -1)
    b = xp.arange(3)
    xp.putmask(b, xp.asarray([True, False, True]), xp.asarray([], dtype="int64"))
    return a, b


@testing.numpy_gpupy_raises()
def test_putmask_size_mismatch(xp):
    xp.putmask(xp.zeros(3), xp.asarray([True, False]), 1.0)


@testing.for_dtypes(DTYPES)
@testing.numpy_gpupy_allclose()
def test_place_dtypes(dtype, xp):
    a = xp.asarray(_data((4, 3), dtype))
    mask = xp.asarray(_data((4, 3), "int64") < 0)
    xp.place(a, mask, xp.asarray(_data((2,), dtype, 6)))  # values used in order, repeated
    return a


@testing.numpy_gpupy_allclose()
def test_place_no_true_and_list_values(xp):
    a = xp.arange(5.0)
    xp.place(a, xp.zeros(5, dtype="bool"), [])
    xp.place(a, [0, 1, 0, 1, 1], [7, 8])
    return a


@testing.numpy_gpupy_raises()
def test_place_empty_values(xp):
    xp.place(xp.arange(3.0), xp.asarray([True, False, False]), [])


@pytest.mark.parametrize(
    "values",
    [
        np.array([1, 2]),  # int64 array into int8: refused (safe casting)
        np.array([1, 2], dtype="uint8"),
        np.array([1.0, 2.0]),
        np.array(2.5),
        np.array([], dtype="uint32"),  # refused before the empty check
        [1.5, 2.5],  # lists and scalars convert as an assignment does
        np.float64(2.5),
        np.array([1, 2], dtype="int8"),
        300,  # OverflowError
    ],
)
@pytest.mark.parametrize("func", ["putmask", "place"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_putmask_place_cast_values_safely(func, values, xp):
    a = xp.zeros(3, dtype="int8")
    values = xp.asarray(values) if isinstance(values, np.ndarray) and values.ndim else values
    getattr(xp, func)(a, xp.asarray([True, False, True]), values)
    return a


def test_putmask_place_cast_error_names_the_function():
    for func in ("putmask", "place"):
        with pytest.raises(TypeError, match=rf"^\[{func}\] Cannot cast array data"):
            getattr(gpupy, func)(gpupy.zeros(2, "int8"), [True, True], gpupy.asarray([1.0]))


# ---- copyto --------------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("src_dtype", ["bool", "int16", "uint8", "float32", "complex64"])
@pytest.mark.parametrize("casting", ["same_kind", "unsafe", "safe"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_copyto_casting(src_dtype, casting, xp):
    dst = xp.zeros((2, 3), dtype="float64")
    xp.copyto(dst, xp.asarray(_data((3,), src_dtype, 1)), casting=casting)
    return dst


@pytest.mark.parametrize("value", [3, -1, 2.5, True, 1j, 300, np.float64(2.0), np.int16(3)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_copyto_scalars(value, xp):
    dst = xp.ones(3, dtype="uint8")
    xp.copyto(dst, value)
    return dst


@testing.numpy_gpupy_allclose()
def test_copyto_where(xp):
    dst = xp.asarray(_data((3, 4), "int32"))
    xp.copyto(dst, xp.asarray(_data((4,), "int8", 5)), where=xp.asarray(_data((3, 1), "int64") > 0))
    other = xp.zeros((2, 2), dtype="complex64")
    xp.copyto(other, 1 + 2j, where=[[True, False], [False, True]])
    empty = xp.zeros((0, 3))
    xp.copyto(empty, xp.ones(3))
    return dst, other, empty


@testing.numpy_gpupy_allclose()
def test_copyto_drops_leading_unit_axes_of_src(xp):
    dst, dst0 = xp.zeros((2, 3)), xp.zeros((), dtype="int8")
    xp.copyto(dst, xp.ones((1, 1, 3)))
    xp.copyto(dst0, xp.asarray([[True]]), casting="unsafe")
    return dst, dst0


@pytest.mark.parametrize("dtype", ["float32", "int16", "bool", "complex64"])
@pytest.mark.parametrize("func", ["fill", "setitem", "fill_diagonal"])
def test_python_complex_into_real_arrays(func, dtype):
    # NumPy refuses a Python complex for a real item (bool takes its truth value); gpupy
    # silently dropped the imaginary part.
    def call(xp):
        a = xp.zeros((2, 2), dtype=dtype)
        if func == "fill":
            a.fill(1 + 2j)
        elif func == "setitem":
            a[0] = 1 + 2j
        else:
            xp.fill_diagonal(a, 1 + 2j)
        return a

    if dtype in ("float32", "int16"):
        with pytest.raises(TypeError):
            call(np)
        with pytest.raises(TypeError, match=r"^\[(setitem|fill_diagonal)\]"):
            call(gpupy)
    else:
        np.testing.assert_array_equal(call(gpupy).get(), call(np))


def test_copyto_broadcast_error_names_copyto():
    with pytest.raises(ValueError, match=r"^\[copyto\] could not broadcast input"):
        gpupy.copyto(gpupy.zeros(3), gpupy.ones(2))
    with pytest.raises(ValueError):  # NumPy does not drop the mask's leading length-1 axes
        np.copyto(np.zeros(3), 1.0, where=np.asarray([[True, False, True]]))
    with pytest.raises(ValueError, match=r"^\[copyto\] could not broadcast where"):
        gpupy.copyto(gpupy.zeros(3), 1.0, where=gpupy.asarray([[True, False, True]]))


@pytest.mark.parametrize(
    "dst, src, kw",
    [
        ("int64", 1.5, {}),
        ("int8", np.float32(1.0), {}),
        ("float32", np.zeros(3, "float64"), {"casting": "safe"}),
        ("float32", np.zeros(3, "float32"), {"where": np.arange(3)}),
        ("float64", np.zeros(2), {}),
        ("float64", np.zeros(3), {"casting": "bogus"}),
    ],
)
@testing.numpy_gpupy_raises()
def test_copyto_errors(dst, src, kw, xp):
    kw = {k: xp.asarray(v) if isinstance(v, np.ndarray) else v for k, v in kw.items()}
    src = xp.asarray(src) if isinstance(src, np.ndarray) else src
    xp.copyto(xp.zeros(3, dtype=dst), src, **kw)


# ---- fill_diagonal -------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (7, 3), (3, 3, 3), (2, 2, 2, 2), (0, 0)])
@pytest.mark.parametrize("wrap", [False, True])
@testing.numpy_gpupy_allclose()
def test_fill_diagonal(shape, wrap, xp):
    a = xp.zeros(shape, dtype="int32")
    xp.fill_diagonal(a, xp.asarray([5, 6]), wrap=wrap)
    b = xp.zeros(shape, dtype="float32")
    xp.fill_diagonal(b, 2.5, wrap=wrap)
    return a, b


@testing.numpy_gpupy_allclose()
def test_fill_diagonal_view(xp):
    base = xp.zeros((6, 6))
    xp.fill_diagonal(base[::2, ::2], -1.0)
    return base


@pytest.mark.parametrize("shape", [(3,), (), (2, 3, 2)])
@testing.numpy_gpupy_raises()
def test_fill_diagonal_errors(shape, xp):
    xp.fill_diagonal(xp.zeros(shape), 1.0)


# ---- choose --------------------------------------------------------------------------------------


@testing.for_dtypes(DTYPES)
@testing.numpy_gpupy_allclose()
def test_choose_dtypes(dtype, xp):
    choices = [xp.asarray(_data((2, 3), dtype, s)) for s in (0, 4, 8)]
    return xp.choose(xp.asarray([[0, 1, 2], [2, 1, 0]]), choices)


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@testing.numpy_gpupy_allclose()
def test_choose_modes_and_broadcasting(mode, xp):
    idx = xp.asarray([[0], [1], [2]]) if mode == "raise" else xp.asarray([[-4], [1], [5]])
    choices = [xp.asarray([1, 2, 3]), 10, xp.asarray([[100], [200], [300]])]
    return xp.choose(idx, choices, mode=mode)


@testing.numpy_gpupy_allclose()
def test_choose_array_choices_method_out_and_0d(xp):
    choices = xp.asarray(_data((3, 4), "float64"))
    idx = xp.asarray([2, 0, 1, 2], dtype="uint8")
    out = xp.empty(4)
    xp.choose(idx, choices, out=out)
    return out, idx.choose(choices), xp.choose(1, [5, 7]), xp.choose(xp.asarray([], "int64"), [[]])


@pytest.mark.parametrize("dtype", ["int8", "uint8", "float32", "bool"])
@pytest.mark.parametrize("scalar", [3, 300, -1, 2.5, 1j, True])
@testing.numpy_gpupy_allclose()
def test_python_scalars_take_the_arrays_dtype(dtype, scalar, xp):
    # NEP 50: a Python int, float or complex adapts to the arrays' dtype where its kind allows.
    arr = xp.asarray(_data((4,), dtype))
    idx = xp.asarray([0, 1, 1, 0])
    # NumPy's select copies a Python int choice in as int64 with casting='same_kind', which
    # refuses unsigned results; gpupy takes it as the default is taken. Compare the rest.
    choice = scalar if not (dtype == "uint8" and type(scalar) is int) else arr
    return xp.choose(idx, [arr, scalar]), xp.select([arr != 0, idx > 0], [arr, choice], scalar)


@pytest.mark.parametrize("idx", [[0, 3], [-1, 0], [0.0, 1.0]])
@testing.numpy_gpupy_raises()
def test_choose_errors(idx, xp):
    xp.choose(xp.asarray(idx), [xp.asarray([1, 2]), xp.asarray([3, 4])])


# ---- select --------------------------------------------------------------------------------------


@testing.for_dtypes(DTYPES)
@testing.numpy_gpupy_allclose()
def test_select_dtypes(dtype, xp):
    x = xp.asarray(_data((3, 4), "int64"))
    conds = [x < -1, x > 3, x == 0]
    choices = [xp.asarray(_data((3, 4), dtype, k)) for k in (1, 2, 3)]
    return xp.select(conds, choices)


@pytest.mark.parametrize("default", [0, 1.5, -2, np.float32(4.0), 1j])
@testing.numpy_gpupy_allclose()
def test_select_default_dtype(default, xp):
    x = xp.arange(6, dtype="int8")
    return xp.select([x < 2, x > 4], [x, xp.asarray(3, dtype="int8")], default=default)


@testing.numpy_gpupy_allclose()
def test_select_broadcasts_and_0d(xp):
    x = xp.arange(4.0)
    r1 = xp.select([x.reshape(4, 1) > 1, xp.asarray([True, False, True])], [x.reshape(4, 1), 7.0])
    r2 = xp.select([xp.asarray(True)], [xp.asarray(5)])
    return r1, r2


@pytest.mark.parametrize(
    "conds, choices",
    [([], []), ([np.array([True])], [1, 2]), ([np.array([1, 0])], [np.array([1, 2])])],
)
@testing.numpy_gpupy_raises()
def test_select_errors(conds, choices, xp):
    xp.select([xp.asarray(c) for c in conds], choices)


# ---- piecewise -----------------------------------------------------------------------------------


@testing.for_dtypes(("int32", "float32", "float64", "complex128"))
@testing.numpy_gpupy_allclose()
def test_piecewise_callables_and_values(dtype, xp):
    x = xp.asarray(_data((3, 5), dtype))
    return xp.piecewise(x, [x.real < 0, x.real > 3], [lambda v: v * 2, -1])


@testing.numpy_gpupy_allclose()
def test_piecewise_otherwise_args_and_kwargs(xp):
    x = xp.linspace(-2.0, 2.0, 9)

    def scale(v, k, offset=0.0):
        return v * k + offset

    # Every function gets the extra arguments, as in NumPy.
    return (
        xp.piecewise(
            x, [x < 0, x > 1], [scale, lambda v, k, offset: v**2 * k - offset, 0.5], 3.0, offset=1.0
        ),
        xp.piecewise(x, x > 0, [1.0, -1.0]),  # one condition, not in a list
        xp.piecewise(x, [x > 5], [lambda v: v]),  # nothing selected
    )


@testing.numpy_gpupy_allclose()
def test_piecewise_0d(xp):
    x = xp.asarray(2.5)
    return xp.piecewise(x, [x > 2, x <= 2], [lambda v: v + 1, 0.0])


@testing.numpy_gpupy_raises()
def test_piecewise_wrong_function_count(xp):
    x = xp.arange(4.0)
    xp.piecewise(x, [x < 1, x > 2], [1.0])


# ---- dispatch ------------------------------------------------------------------------------------


def test_numpy_functions_dispatch_to_gpupy():
    a = gpupy.arange(6.0)
    np.put(a, [0], [9.0])
    np.putmask(a, a > 4, 0.0)
    np.place(a, a == 1, [2.0])
    np.copyto(a, 1.0, where=a == 0)
    r = np.select([a > 2], [a])
    c = np.choose(gpupy.asarray([1, 0]), [gpupy.asarray([1, 2]), gpupy.asarray([3, 4])])
    p = np.piecewise(a, [a > 2], [1.0, 0.0])
    assert all(isinstance(v, gpupy.ndarray) for v in (r, c, p))
    assert a.device == gpupy.get_default_device()
    np.testing.assert_array_equal(a.get(), [1.0, 2.0, 2.0, 3.0, 4.0, 1.0])
    np.testing.assert_array_equal(r.get(), [0, 0, 0, 3, 4, 0])
    np.testing.assert_array_equal(c.get(), [3, 2])
    np.testing.assert_array_equal(p.get(), [0, 0, 0, 1, 1, 0])
    b = gpupy.zeros((3, 3))
    np.fill_diagonal(b, 1.0)
    np.testing.assert_array_equal(b.get(), np.eye(3))


def test_refuses_read_only_targets_and_other_devices():
    ro = gpupy.broadcast_to(gpupy.zeros(3), (2, 3))
    for call in (
        lambda: gpupy.put(ro, [0], 1.0),
        lambda: gpupy.copyto(ro, 1.0),
        lambda: gpupy.fill_diagonal(ro, 1.0),
    ):
        with pytest.raises(ValueError, match=r"^\[(put|copyto|fill_diagonal)\] .*read-only"):
            call()
    a = gpupy.zeros(4)
    other = "emu" if a.device.type == "cpu" else "cpu"
    try:
        elsewhere = gpupy.asarray([1, 0, 1, 0], device=other)
    except NotImplementedError:
        pytest.skip(f"no {other} device here")
    with pytest.raises(ValueError, match=r"^\[putmask\] the arrays are on different devices"):
        gpupy.putmask(a, elsewhere.astype("bool"), 1.0)
    with pytest.raises(ValueError, match=r"^\[choose\] the arrays are on different devices"):
        gpupy.choose(gpupy.asarray([0, 1]), [elsewhere[:2], gpupy.asarray([5, 6])])


@pytest.mark.parametrize(
    ("dtype", "index", "values"),
    [("uint32", [], [1 + 2j, 3j]), ("float64", [0, 2], [1 + 2j, 3j]), ("int64", [0], [2.7]),
     ("bool", [], [1j]), ("complex64", [1], [1 + 2j])],
)  # fmt: skip
def test_put_casts_array_values_first(dtype, index, values):
    # NumPy casts v to a's dtype before looking at the indices: a ComplexWarning even for none
    def run(xp):
        a = xp.zeros(3, dtype=dtype)
        v = xp.asarray(np.array(values))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            xp.put(a, np.array(index, dtype=np.int64), v)
        return a, {w.category for w in caught}

    (expected, expected_warnings), (got, got_warnings) = run(np), run(gpupy)
    assert got_warnings == expected_warnings
    testing.assert_same(expected, got)


@pytest.mark.parametrize(
    "shape, ind, v",
    [
        ((3, 0), [0], 2 - 1j),
        ((3, 0), [], 2 - 1j),
        ((3,), [], -1),
        ((0,), [0], []),
        ((3, 0), [0], -1),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_put_checks_in_numpy_order(shape, ind, v, xp):
    # an empty array with indices: IndexError before the values convert; else the conversion
    a = xp.zeros(shape, dtype="uint8")
    xp.put(a, ind, v)
    return a


@pytest.mark.parametrize("values", [[-2], [0, -2], [300, 1]])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_piecewise_converts_every_value(values, xp):
    # NumPy assigns each constant even where its condition never holds, so -2 or 300 into
    # uint8 raises OverflowError whatever the conditions
    x = xp.asarray(np.array([5, 1], dtype="uint8"))
    return xp.piecewise(x, [xp.asarray([False, False])], values)


@testing.numpy_gpupy_allclose(accept_error=True)
def test_putmask_keywords(xp):
    # mask and values may be keywords, the array may not (NumPy's signature)
    x, y = xp.array([0, 0]), xp.array([0, 0])
    xp.putmask(x, values=[-1, -2], mask=[0, 1])
    with pytest.raises(TypeError):
        xp.putmask(a=y, values=[-1, -2], mask=[0, 1])
    return x, y
