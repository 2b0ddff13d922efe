"""Shape manipulation against NumPy: values, shapes, dtypes, errors and view aliasing."""

import gpupy
import numpy as np
import pytest
from gpupy import testing
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp


def _data(shape, dtype="int64"):
    return np.arange(int(np.prod(shape))).reshape(shape).astype(dtype)


def _shares(xp, a, b):
    # gpupy views share the buffer handle; NumPy's the memory.
    return np.shares_memory(a, b) if xp is np else a._same_buffer(b)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_reshape_all_dtypes(dtype, xp):
    a = xp.asarray(_data((2, 3, 4), dtype))
    return a.reshape(4, -1), xp.reshape(a, (3, 8)), a.T.reshape(-1)


@pytest.mark.parametrize(
    "shape,newshape",
    [
        ((6,), (2, 3)),
        ((6,), (4,)),
        ((6,), (-1, 4)),
        ((6,), (-1, -1)),
        ((6,), (2, -2)),
        ((2, 3), ()),
        ((1,), ()),
        ((), (1, 1)),
        ((0, 3), (3, 0)),
        ((0, 3), (-1,)),
        ((0, 3), (-1, 0)),
        ((2, 3, 4), (4, 3, 2)),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reshape_shapes(shape, newshape, xp):
    return xp.reshape(xp.asarray(_data(shape)), newshape)


def test_reshape_error_message():
    import gpupy

    with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4,\)"):
        gpupy.asarray(_data((6,))).reshape(4)


@pytest.mark.parametrize(
    "view,newshape",
    [
        (lambda a: a.T, (3, 2, 4)),  # no copy: NumPy's _attempt_nocopy_reshape
        (lambda a: a[:, ::2], (2, 2, 3)),
        (lambda a: a[::2], (-1,)),
        (lambda a: a.T, (-1,)),  # needs a copy
        (lambda a: a[:, 1:], (-1,)),  # needs a copy
        (lambda a: a[:, :, None], (4, 6)),
        (lambda a: a[::-1], (2, 2, 6)),
    ],
)
@testing.numpy_gpupy_allclose()
def test_reshape_views_like_numpy(view, newshape, xp):
    a = xp.asarray(_data((4, 6)))
    v = view(a)
    r = v.reshape(newshape)
    return r, _shares(xp, r, a)


@testing.numpy_gpupy_allclose()
def test_reshape_view_write_reaches_base(xp):
    a = xp.asarray(_data((4, 6)))
    r = a.T.reshape(3, 2, 4)
    r[1] = -1
    return a


@testing.numpy_gpupy_allclose()
def test_reshape_chain(xp):
    a = xp.asarray(_data((2, 3, 4)))
    b = a.transpose(2, 0, 1).reshape(4, 6).T[::2].reshape(3, 2, 2).swapaxes(0, 2)
    return b, b.reshape(-1), xp.moveaxis(b, 0, -1).reshape(2, -1)


@pytest.mark.parametrize(
    "axes", [None, (1, 0, 2), (-1, 0, 1), (2, 1, 0), (0, 0, 1), (0, 1, 3), (0, 1)]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_transpose(axes, xp):
    a = xp.asarray(_data((2, 3, 4)))
    return xp.transpose(a, axes)


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_transpose_methods(dtype, xp):
    a = xp.asarray(_data((2, 3, 4), dtype))
    return a.T, a.mT, a.transpose(), a.transpose(1, 2, 0), a.transpose((1, 2, 0)), a.transpose(None)


@pytest.mark.parametrize("shape", [(3,), (2, 3), (2, 3, 4), ()])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_matrix_transpose(shape, xp):
    return xp.matrix_transpose(xp.asarray(_data(shape)))


@pytest.mark.parametrize("axes", [(0, 1, 2), (2, 0, 1), (1, 2), (0, 0, 1), (0, 3, 1)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_permute_dims(axes, xp):
    return xp.permute_dims(xp.asarray(_data((2, 3, 4))), axes)


@pytest.mark.parametrize(
    "axis", [0, 1, 2, 3, -1, -4, 4, -5, (0, 1), (0, -1), (1, 3), (0, 0), (0, 5)]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_expand_dims(axis, xp):
    return xp.expand_dims(xp.asarray(_data((2, 3, 4))), axis)


@pytest.mark.parametrize("axis", [None, 0, 2, -1, (0, 2), (0, 0), 1, 4, (0, 3)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_squeeze(axis, xp):
    a = xp.asarray(_data((1, 3, 1, 1)))
    return xp.squeeze(a, axis), a.squeeze(axis)


@pytest.mark.parametrize(
    "view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a[1], lambda a: a[::-1]]
)
@testing.numpy_gpupy_allclose()
def test_ravel_and_flatten(view, xp):
    a = xp.asarray(_data((4, 6)))
    v = view(a)
    r, f = xp.ravel(v), v.flatten()
    return r, v.ravel(), f, _shares(xp, r, a), _shares(xp, f, a)


@pytest.mark.parametrize(
    "shape,target",
    [((3,), (2, 3)), ((1, 3), (4, 3)), ((3,), (3,)), ((), (2, 2)), ((3,), (4,)), ((2, 3), (3,))],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_broadcast_to(shape, target, xp):
    b = xp.broadcast_to(xp.asarray(_data(shape)), target)
    return b, b.flags.writeable if xp is np else not b._readonly


@testing.numpy_gpupy_allclose(accept_error=True)
def test_broadcast_to_is_read_only(xp):
    b = xp.broadcast_to(xp.asarray(_data((3,))), (2, 3))
    b[0, 0] = 5


@testing.numpy_gpupy_allclose()
def test_broadcast_arrays_and_shapes(xp):
    a = xp.asarray(_data((3, 1)))
    b = xp.asarray(_data((4,), "float32"))
    c = xp.asarray(np.array(7, dtype="int8"))
    return xp.broadcast_arrays(a, b, c), xp.broadcast_shapes((3, 1), (4,), ())


@testing.numpy_gpupy_allclose(accept_error=True)
def test_broadcast_arrays_mismatch(xp):
    return xp.broadcast_arrays(xp.asarray(_data((3,))), xp.asarray(_data((4,))))


@pytest.mark.parametrize(
    "view", [lambda a: a, lambda a: a.T, lambda a: a[:, ::-2], lambda a: a[0, 0, ...]]
)
@testing.numpy_gpupy_allclose()
def test_ascontiguousarray(view, xp):
    a = xp.asarray(_data((3, 4)))
    c = xp.ascontiguousarray(view(a))
    flags = c.flags.c_contiguous if xp is np else c._c_contiguous
    return c, flags, _shares(xp, c, a)


@pytest.mark.parametrize("a1,a2", [(0, 1), (0, -1), (2, 2), (0, 3), (-4, 0)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_swapaxes(a1, a2, xp):
    a = xp.asarray(_data((2, 3, 4)))
    return xp.swapaxes(a, a1, a2), a.swapaxes(a1, a2)


@pytest.mark.parametrize(
    "src,dst",
    [
        (0, -1),
        (-1, 0),
        ((0, 1), (-1, -2)),
        ((0, 2), (2, 0)),
        ((0, 1), (2,)),
        (0, 3),
        ((0, 0), (1, 2)),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_moveaxis(src, dst, xp):
    return xp.moveaxis(xp.asarray(_data((2, 3, 4))), src, dst)


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2), (), 3])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_flip(axis, dtype, xp):
    a = xp.asarray(_data((2, 3, 4), dtype))
    f = xp.flip(a, axis)
    return f, f[1:], _shares(xp, f, a)


@testing.numpy_gpupy_allclose()
def test_flip_empty_and_write_through(xp):
    a = xp.asarray(_data((0, 3)))
    b = xp.asarray(_data((2, 3)))
    f = xp.flip(b)
    f[0] = 100  # last row of b
    return xp.flip(a), b


@testing.numpy_gpupy_allclose()
def test_views_of_views_alias(xp):
    a = xp.asarray(_data((3, 4, 5), "float32"))
    v = xp.moveaxis(a, 0, -1)[::-1, 1:, None].squeeze(2)
    v[..., 0] = -3.5
    w = xp.expand_dims(a, 0).mT
    w[0, 1, :, 2] = 9
    return a, v, w


@st.composite
def _view_and_regrouping(draw):
    """A random basic-index view of a random array, permuted, and a shape that merges runs of
    adjacent axes and inserts length-1 axes: the cases where reshape may or may not copy."""
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=4))
    index = draw(hnp.basic_indices(shape, allow_newaxis=True))
    view_ndim = np.empty(shape)[index].ndim
    perm = draw(st.permutations(range(view_ndim)))
    cuts = draw(st.lists(st.booleans(), min_size=view_ndim, max_size=view_ndim))
    ones = draw(st.lists(st.integers(0, view_ndim), max_size=2))
    return shape, index, perm, cuts, ones


def _regroup(dims, cuts, ones):
    out, run = [], 1
    for i, (d, cut) in enumerate(zip(dims, cuts, strict=True)):
        run *= d
        if cut or i == len(dims) - 1:
            out.append(run)
            run = 1
    for pos in ones:
        out.insert(min(pos, len(out)), 1)
    return tuple(out)


@settings(max_examples=150, deadline=None)
@given(case=_view_and_regrouping())
def test_reshape_property(case, device_name):
    shape, index, perm, cuts, ones = case
    base = np.arange(int(np.prod(shape)), dtype="int16").reshape(shape)
    g = gpupy.asarray(base.copy())
    n = base.copy()
    nv = np.asarray(n[index]).transpose(perm) if isinstance(n[index], np.ndarray) else None
    if nv is None:
        return  # full integer index: NumPy returns a scalar, nothing to reshape
    gv = g[index].transpose(perm)
    target = _regroup(nv.shape, cuts, ones)
    nr, gr = nv.reshape(target), gv.reshape(target)
    testing.assert_same(nr, gr)
    # Same view-or-copy decision as NumPy, and writes through a view reach the base.
    if nr.size:  # NumPy never reports empty arrays as sharing memory
        assert gr._same_buffer(g) == np.shares_memory(nr, n)
    nr[...] = -1
    gr[...] = -1
    testing.assert_same(n, g)
    testing.assert_same(nv.ravel(), gv.ravel())


@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("transposed", [False, True])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reshape_copy_argument(copy, transposed, xp):
    a = xp.asarray(_data((2, 3)))
    v = a.T if transposed else a
    r = xp.reshape(v, -1, copy=copy)
    return r, _shares(xp, r, a)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("view", ["c", "T", "step", "1-d", "1-d step"])
@pytest.mark.parametrize("shape", [(4, 6), (24,), (3, 2, -1), -1])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reshape_ravel_flatten_orders(order, view, shape, xp):
    # Fortran order reads and writes the axes in reverse (gpupy once had C order only); a 1-d
    # array's reversed axes are its own, but its new shape is still filled in Fortran order
    a = xp.asarray(np.arange(48).reshape(2, 3, 8))
    a = {
        "c": a[:, :, :4],
        "T": a[:, :, :4].T.copy().T,
        "step": a[:, :, ::2],
        "1-d": a.reshape(-1)[:24],
        "1-d step": a.reshape(-1)[::2],
    }[view]
    if view == "c":
        a = a.copy()
    return xp.reshape(a, shape, order=order), a.ravel(order), a.flatten(order), xp.ravel(a, order)


@pytest.mark.parametrize("axis", [0, -1, np.int64(0), (0,), 1, ()])
@pytest.mark.parametrize("method", [False, True])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_squeeze_of_a_0d_array(axis, method, xp):
    # NumPy reads an integer axis 0 or -1 of a 0-d array as "nothing to squeeze"; a tuple (0,)
    # or axis 1 is out of bounds
    a = xp.asarray(np.array(5.0))
    return a.squeeze(axis=axis) if method else xp.squeeze(a, axis=axis)


@pytest.mark.parametrize(
    "call",
    [
        lambda xp, a: a.reshape(None),
        lambda xp, a: xp.reshape(a, None),
        lambda xp, a: a.reshape(True, 6),  # NumPy: "an integer is required"
        lambda xp, a: a.reshape((6, False)),
        lambda xp, a: xp.zeros((True, 2)),
        lambda xp, a: xp.broadcast_to(a, (True, 6)),
    ],
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reshape_none_keeps_the_shape_and_bools_are_no_dimensions(call, xp):
    return call(xp, xp.arange(6).reshape(2, 3))


@pytest.mark.parametrize("dtype", [">f8", ">i4", "<u2", ">c16"])
def test_a_byte_swapped_dtype_argument_gives_its_native_twin(dtype):
    native = np.dtype(dtype).newbyteorder("=")
    a = gpupy.asarray([1, 2, 3], dtype=dtype)
    assert a.dtype == native
    np.testing.assert_array_equal(a.get(), np.asarray([1, 2, 3], dtype=dtype))
    assert gpupy.zeros(2, dtype=dtype).dtype == native
    assert gpupy.arange(3).astype(dtype).dtype == native


def _describe(b):
    return b.shape, b.ndim, b.nd, b.numiter, b.size, b.index


def test_broadcast_object():
    # numpy.broadcast: nested broadcast objects count as their arrays, iters' bases are them
    shapes = [(6, 7), (5, 6, 1), (7,), (5, 1, 7)]
    for xp in (np, gpupy):
        arrs = [xp.zeros(s) for s in shapes]
        for b in (xp.broadcast(*arrs), xp.broadcast(xp.broadcast(*arrs[:2]), *arrs[2:])):
            assert _describe(b) == ((5, 6, 7), 3, 3, 4, 210, 0)
            assert all(a is it.base for a, it in zip(arrs, b.iters, strict=True))
    x, y = [[1], [2]], [4.5, 5, 6]
    want, got = np.broadcast(x, y), gpupy.broadcast(gpupy.asarray(x), gpupy.asarray(y))
    assert list(got) == list(want) and got.index == want.index == 6
    got.reset()
    assert got.index == 0 and next(got) == (1, 4.5)
    assert gpupy.broadcast().shape == () and gpupy.broadcast(*[gpupy.zeros(5)] * 64).numiter == 64


@pytest.mark.parametrize(
    "args, kwargs",
    [([np.zeros(5)] * 65, {}), ([1], {"x": 1}), ([[[1, 2, 3]], [[4], [5]], [6, 7]], {})],
)
def test_broadcast_object_errors(args, kwargs):
    with pytest.raises(ValueError):
        np.broadcast(*args, **kwargs)
    with pytest.raises(ValueError, match=r"\[broadcast"):
        gpupy.broadcast(*(gpupy.asarray(a) for a in args), **kwargs)
