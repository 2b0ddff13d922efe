"""NumPy's order= ('C', 'F', 'A', 'K') on every function that makes an array: the layout
(strides, contiguity flags) and the values must be NumPy's, on every device."""

import gpupy
import numpy
import pytest
from gpupy import testing


def _same_layout(got, expected):
    assert got.shape == expected.shape
    assert got.dtype == expected.dtype
    assert got.strides == expected.strides, (got.strides, expected.strides)
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert got.flags.f_contiguous == expected.flags.f_contiguous


def _same(got, expected):
    _same_layout(got, expected)
    numpy.testing.assert_array_equal(got.get(), expected)


# Views whose layouts 'K' must keep: C, F, a 3-d permutation, a negative step, a step.
def _views(base):
    return {
        "C": base,
        "F": base.T.copy().T if isinstance(base, gpupy.ndarray) else numpy.asfortranarray(base),
        "permuted": base.transpose(1, 2, 0),
        "negative": base[:, ::-1, :],
        "strided": base[:, :, ::2],
    }


_HOST = numpy.arange(2 * 3 * 4, dtype=numpy.float64).reshape(2, 3, 4)
_VIEW_NAMES = list(_views(_HOST))


def _pair(view):
    got = _views(gpupy.asarray(_HOST))[view]
    expected = _views(_HOST)[view]
    if view == "F":
        assert got.flags.f_contiguous  # the gpupy view must really be F-ordered
    return got, expected


@pytest.mark.parametrize("order", ["C", "F", "c", "f", None])
@pytest.mark.parametrize("name", ["empty", "zeros", "ones", "full"])
def test_creation_orders(name, order):
    args = (7,) if name == "full" else ()
    got = getattr(gpupy, name)((2, 3, 4), *args, dtype="int16", order=order)
    expected = getattr(numpy, name)((2, 3, 4), *args, dtype="int16", order=order)
    _same_layout(got, expected)
    if name != "empty":
        numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("name", ["empty", "zeros", "ones", "full", "eye"])
def test_creation_order_of_int_shape_and_positional(name):
    # NumPy's positional order: empty(shape, dtype, order); full(shape, value, dtype, order);
    # eye(N, M, k, dtype, order)
    if name == "eye":
        got, expected = gpupy.eye(3, 5, 1, "f4", "F"), numpy.eye(3, 5, 1, "f4", "F")
    elif name == "full":
        got, expected = gpupy.full(5, 2.5, "f4", "F"), numpy.full(5, 2.5, "f4", "F")
    else:
        got = getattr(gpupy, name)((4, 5), "f4", "F")
        expected = getattr(numpy, name)((4, 5), "f4", "F")
    _same_layout(got, expected)
    if name != "empty":
        numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("k", [-4, -1, 0, 2, 9])
def test_eye_fortran(k):
    _same(gpupy.eye(4, 6, k, order="F"), numpy.eye(4, 6, k, order="F"))
    _same(gpupy.eye(5, k=k, dtype=bool, order="F"), numpy.eye(5, k=k, dtype=bool, order="F"))


def test_full_fortran_with_an_array_value():
    value = numpy.array([1.5, -2.0, 3.0])
    _same(gpupy.full((2, 3), gpupy.asarray(value), order="F"), numpy.full((2, 3), value, order="F"))
    _same(gpupy.full((2, 3), [1, 2, 3], order="F"), numpy.full((2, 3), [1, 2, 3], order="F"))


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("view", _VIEW_NAMES)
@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like_orders(name, view, order):
    got_proto, proto = _pair(view)
    args = (-3,) if name == "full_like" else ()
    got = getattr(gpupy, name)(got_proto, *args, order=order)
    expected = getattr(numpy, name)(proto, *args, order=order)
    _same_layout(got, expected)
    assert got.device == got_proto.device
    if name != "empty_like":
        numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("order", ["K", "A", "F"])
@pytest.mark.parametrize("shape", [(4, 2, 3), (6, 4), (5, 2, 2, 1)])
def test_like_with_shape(order, shape):
    got_proto, proto = _pair("permuted")
    got = gpupy.zeros_like(got_proto, dtype="int32", order=order, shape=shape)
    expected = numpy.zeros_like(proto, dtype="int32", order=order, shape=shape)
    _same(got, expected)
    fortran_got, fortran = _pair("F")
    _same(
        gpupy.ones_like(fortran_got, order=order, shape=shape),
        numpy.ones_like(fortran, order=order, shape=shape),
    )


def test_full_like_array_value_keeps_layout():
    got_proto, proto = _pair("F")
    value = numpy.arange(4.0)
    got = gpupy.full_like(got_proto, gpupy.asarray(value), dtype="float32")
    _same(got, numpy.full_like(proto, value, dtype="float32"))


def test_like_of_host_prototypes():
    fortran = numpy.asfortranarray(_HOST)
    got = gpupy.empty_like(fortran)
    _same_layout(got, numpy.empty_like(fortran))
    assert got.device == gpupy.get_default_device()
    _same(
        gpupy.ones_like([[1, 2], [3, 4]], order="F"), numpy.ones_like([[1, 2], [3, 4]], order="F")
    )


@pytest.mark.parametrize("order", ["K", "A", "C", "F", None])
@pytest.mark.parametrize("view", _VIEW_NAMES)
def test_astype_orders(view, order):
    got, host = _pair(view)
    _same(got.astype("float32", order=order), host.astype("float32", order=order))
    _same(got.astype(got.dtype, order=order), host.astype(host.dtype, order=order))


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("view", _VIEW_NAMES)
def test_astype_without_copy_keeps_the_array_only_when_it_fits(view, order):
    got, host = _pair(view)
    out = got.astype(got.dtype, order=order, copy=False)
    assert (out is got) == (host.astype(host.dtype, order=order, copy=False) is host)
    _same(out, host.astype(host.dtype, order=order, copy=False))


@pytest.mark.parametrize("order", ["K", "A", "C", "F", None])
@pytest.mark.parametrize("view", _VIEW_NAMES)
def test_copy_orders(view, order):
    got, host = _pair(view)
    _same(got.copy(order=order), host.copy(order=order))
    _same(gpupy.copy(got, order=order or "K"), numpy.copy(host, order=order or "K"))
    _same(got.copy(), host.copy())  # the method's default is 'C'


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("view", _VIEW_NAMES)
def test_array_and_asarray_orders(view, order):
    got, host = _pair(view)
    _same(gpupy.array(got, order=order), numpy.array(host, order=order))
    out = gpupy.asarray(got, order=order)
    expected = numpy.asarray(host, order=order)
    _same(out, expected)
    assert (out is got) == (expected is host)


@pytest.mark.parametrize("order", [None, "K", "A", "F", "C"])
def test_fortran_host_arrays_keep_their_layout_on_any_device(order, device_name):
    host = numpy.asfortranarray(_HOST[0])
    _same(gpupy.asarray(host, order=order), numpy.asarray(host, order=order))
    _same(
        gpupy.array(host, dtype="float32", order=order or "K"),
        numpy.array(host, dtype="float32", order=order or "K"),
    )


def test_asarray_copy_false_refuses_a_relayout():
    got, _ = _pair("C")
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpupy.asarray(got, order="F", copy=False)
    assert gpupy.asarray(got, order="C", copy=False) is got


@pytest.mark.parametrize("view", _VIEW_NAMES)
def test_ravel_and_flatten_in_memory_order(view):
    got, host = _pair(view)
    numpy.testing.assert_array_equal(got.ravel("K").get(), host.ravel("K"))
    numpy.testing.assert_array_equal(got.flatten("K").get(), host.flatten("K"))
    numpy.testing.assert_array_equal(gpupy.ravel(got, "A").get(), numpy.ravel(host, "A"))


def test_numpy_functions_dispatch_order():
    got, host = _pair("permuted")
    _same(numpy.zeros_like(got, order="F"), numpy.zeros_like(host, order="F"))
    _same(numpy.empty_like(got, shape=(3, 4)), numpy.empty_like(host, shape=(3, 4)))
    fortran = numpy.zeros((3, 2), order="F", like=got)
    assert isinstance(fortran, gpupy.ndarray) and fortran.device == got.device
    _same(fortran, numpy.zeros((3, 2), order="F"))


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: gpupy.empty(3, order="A"), ValueError, r"\[empty\] only 'C' or 'F' order"),
        (lambda: gpupy.zeros(3, order="K"), ValueError, r"\[zeros\] only 'C' or 'F' order"),
        (lambda: gpupy.full(3, 1, order="X"), ValueError, r"\[full\] order must be one of"),
        (lambda: gpupy.eye(3, order="A"), ValueError, r"\[eye\] only 'C' or 'F' order"),
        (lambda: gpupy.ones(3, order=3), TypeError, r"\[ones\] order must be str, not int"),
        (lambda: gpupy.ones(3).astype("f4", order="Q"), ValueError, r"\[astype\] order must"),
        (lambda: gpupy.ones(3).copy(order="fortran"), ValueError, r"\[copy\] order must"),
        (lambda: gpupy.empty_like(gpupy.ones(3), order="Z"), ValueError, r"\[empty_like\]"),
        (lambda: gpupy.asarray([1], order="Z"), ValueError, r"\[asarray\] order must"),
        (lambda: gpupy.array([1], order=1.5), TypeError, r"\[array\] order must be str"),
        (lambda: gpupy.ones((2, 2)).reshape(4, order="K"), ValueError, "not permitted"),
    ],
)
def test_bad_orders(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("order", ["C", "F", "A", "K", "f"])
@pytest.mark.parametrize("view", _VIEW_NAMES)
def test_get_and_asnumpy_orders(view, order):
    got, host = _pair(view)
    expected = numpy.array(host, order=order)  # CuPy's get: a host copy in that layout
    for copy in (got.get(order=order), gpupy.asnumpy(got, order=order)):
        assert copy.strides == expected.strides, (copy.strides, expected.strides)
        numpy.testing.assert_array_equal(copy, host)
    assert got.get().flags.c_contiguous and gpupy.asnumpy(got).flags.c_contiguous


def test_get_into_out():
    got, host = _pair("permuted")
    out = numpy.empty(host.shape, host.dtype, order="F")
    assert got.get(out=out) is out
    numpy.testing.assert_array_equal(out, host)
    into = numpy.zeros(host.shape, host.dtype)
    assert gpupy.asnumpy(got, out=into) is into
    numpy.testing.assert_array_equal(into, host)
    with pytest.raises(ValueError, match=r"\[get\] out has shape"):
        got.get(out=numpy.empty(3))
    with pytest.raises(TypeError, match=r"\[get\] out must be a numpy.ndarray"):
        got.get(out=[0.0] * got.size)
    with pytest.raises(ValueError, match=r"\[get\] order must be one of"):
        got.get(order="Q")


def test_asnumpy_of_host_input_follows_order():
    fortran = numpy.asfortranarray(_HOST)
    assert gpupy.asnumpy(fortran, order="K") is fortran
    assert gpupy.asnumpy(fortran).flags.c_contiguous  # CuPy's default order 'C'


def test_full_of_a_huge_int_in_every_layout():
    # NumPy converts a Python int beyond uint64 to the float item, in either order.
    value = 2**70
    _same(gpupy.full((2, 3), value, "float64", "F"), numpy.full((2, 3), value, "float64", "F"))
    got, host = _pair("permuted")
    _same(gpupy.full_like(got, value), numpy.full_like(host, value))


@pytest.mark.parametrize("view", ["F", "permuted", "negative"])
def test_casts_and_moves_of_gpupy_arrays_keep_the_layout(view):
    got, host = _pair(view)
    _same(gpupy.asarray(got, dtype="float32"), numpy.asarray(host, dtype="float32"))
    _same(gpupy.array(got, dtype="int32"), numpy.array(host, dtype="int32"))
    moved = gpupy.asarray(got, device="cpu")
    assert moved.device == gpupy.Device("cpu")
    # a move copies in the 'K' layout (numpy.array's); on cpu itself nothing moves
    _same(moved, numpy.asarray(host) if got.device.type == "cpu" else numpy.array(host))


def test_full_fortran_takes_the_fill_arrays_device():
    fill = gpupy.asarray(numpy.arange(3.0), device="cpu")
    out = gpupy.full((2, 3), fill, order="F")
    assert out.device == fill.device
    _same(out, numpy.full((2, 3), numpy.arange(3.0), order="F"))


@pytest.mark.parametrize("shape", [numpy.array([4, 6]), range(4, 7, 2), (4, 6)])
def test_reshape_fortran_of_any_shape_sequence(shape):
    got, host = _pair("C")
    expected = numpy.reshape(host, tuple(shape), order="F")
    numpy.testing.assert_array_equal(gpupy.reshape(got, shape, order="F").get(), expected)
    with pytest.raises(ValueError, match="not permitted"):
        gpupy.reshape(_pair("F")[0], shape, order="k")


def test_order_errors_name_the_function():
    with pytest.raises(OverflowError, match=r"\[full_like\]"):
        gpupy.full_like(gpupy.zeros(2, dtype=bool), 2**70)
    with pytest.raises(ValueError, match=r"\[asarray_chkfinite\] order must"):
        gpupy.asarray_chkfinite([1.0], order="Z")
    assert gpupy.asanyarray(numpy.ones((2, 3)), order="f").flags.f_contiguous


FLAT_K_VIEWS = {
    "broadcast rows": lambda xp: xp.broadcast_to(xp.arange(2), (4, 2)),
    "broadcast, reversed": lambda xp: xp.broadcast_to(xp.arange(2), (3, 2))[:, ::-1],
    "broadcast middle axis": lambda xp: xp.broadcast_to(
        xp.arange(9).reshape(3, 1, 3), (3, 3, 3)
    ).transpose(2, 1, 0)[:, :, ::-1],
    "length-1 axis, transposed": lambda xp: xp.arange(6).reshape(2, 1, 3).transpose(2, 1, 0),
    "transposed": lambda xp: xp.arange(6).reshape(2, 3).T,
}


@pytest.mark.parametrize("view", FLAT_K_VIEWS.values(), ids=FLAT_K_VIEWS.keys())
@pytest.mark.parametrize("method", ["ravel", "flatten"])
@testing.numpy_gpupy_allclose()
def test_flat_copy_in_order_k_leaves_broadcast_axes_in_place(view, method, xp):
    # NumPy's iterator reads a zero stride as no evidence of order: such axes do not move
    return getattr(view(xp), method)("K"), xp.ravel(view(xp), order="K")
