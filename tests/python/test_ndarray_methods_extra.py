"""The ndarray methods view, base, resize, fill, round, tobytes and flat, the errors that name
their function, and NumPy's dispatch to gpupy, against NumPy on the device under test."""

import warnings

import gpupy
import numpy
import pytest
from gpupy import testing
from gpupy.lib.stride_tricks import sliding_window_view

# ---- ndarray methods ----------------------------------------------------------------------------


@pytest.mark.parametrize("src", ["int32", "uint8", "float64", "complex64", "bool", "float16"])
@pytest.mark.parametrize("dst", ["int8", "int32", "uint64", "float32", "complex128", "float16"])
def test_view_dtype(src, dst):
    host = (numpy.arange(32) * 37 % 11).astype(src).reshape(2, -1)
    a = gpupy.asarray(host)
    try:
        expected = host.view(dst)
    except ValueError:
        with pytest.raises(ValueError, match=r"\[view\]"):
            a.view(dst)
        return
    got = a.view(dst)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected)
    assert gpupy.shares_memory(got, a)


@pytest.mark.parametrize("dtype", [[], "S4", ">i4", "longdouble", "not-a-dtype"])
def test_view_refuses_dtypes_gpupy_lacks(dtype):
    # dtype([]) has itemsize 0: it was a ZeroDivisionError.
    with pytest.raises(TypeError, match=r"^\[view\]"):
        gpupy.zeros((2, 4), dtype="int32").view(dtype)


def test_sliding_window_view_integer_window():
    with pytest.raises(TypeError, match=r"^\[sliding_window_view\] window_shape"):
        sliding_window_view(gpupy.zeros(4), 2.5)
    with pytest.raises(TypeError, match=r"^\[sliding_window_view\] window_shape"):
        sliding_window_view(gpupy.zeros((4, 4)), [1, 2.0])


def test_view_rules_and_writes():
    a = gpupy.zeros((2, 4), dtype="int32")
    v = a.view("uint8")
    v[0, 0] = 7
    assert int(a[0, 0]) == 7
    assert a.view().shape == (2, 4) and a.view() is not a
    assert a.view(gpupy.ndarray).shape == (2, 4)
    with pytest.raises(ValueError, match=r"\[view\] to change to a dtype of a different size"):
        a.T.view("int64")
    with pytest.raises(ValueError, match=r"\[view\] changing the dtype of a 0d"):
        a[0, 0].view("int8")
    with pytest.raises(ValueError, match=r"\[view\] when changing to a larger dtype"):
        a[:, :3].view("int64")
    with pytest.raises(TypeError, match=r"\[view\]"):
        a.view(type=numpy.ndarray)
    numpy.testing.assert_array_equal(a[:, :1].view("int16").get(), a.get()[:, :1].view("int16"))
    empty = numpy.zeros((4, 3), dtype="float32")[::2, :0]
    assert gpupy.asarray(numpy.zeros((4, 3), "float32"))[::2, :0].view("int8").shape == (
        empty.view("int8").shape
    )
    # gpupy's kernels load aligned items: a view that would misalign them is refused.
    with pytest.raises(ValueError, match=r"\[view\] complex128 data must be 16-byte aligned"):
        gpupy.zeros(4, dtype="complex64")[1:3].view("complex128")


def test_base():
    a = gpupy.arange(6)
    assert a.base is None
    b = a[2:].reshape(2, 2)
    assert b.base is not None and gpupy.shares_memory(b.base, a)
    assert b.base.nbytes == a.nbytes and b.base.base is None


def test_resize_method():
    a = gpupy.arange(6, dtype="float32")
    a.resize((2, 4))
    expected = numpy.arange(6, dtype="float32")
    expected.resize((2, 4))
    numpy.testing.assert_array_equal(a.get(), expected)
    a.resize(3)
    numpy.testing.assert_array_equal(a.get(), [0, 1, 2])
    a.resize(2, 1)
    assert a.shape == (2, 1)
    view = a[1:]
    with pytest.raises(ValueError, match=r"\[resize\] cannot resize an array that references"):
        a.resize(5)
    del view
    holder = [a]
    with pytest.raises(ValueError, match=r"\[resize\]"):
        a.resize(5)
    a.resize(5, refcheck=False)
    assert holder[0].shape == (5,)
    with pytest.raises(ValueError, match=r"\[resize\]"):
        gpupy.arange(4)[1:].resize(2, refcheck=False)
    with pytest.raises(ValueError, match=r"\[resize\]"):
        a.resize(-1, refcheck=False)


@pytest.mark.parametrize("args", [(), (None,), ((),)])
def test_resize_method_without_a_shape(args):
    # NumPy leaves the array alone for resize() and resize(None); resize(()) makes it 0-d.
    a, expected = gpupy.arange(6.0), numpy.arange(6.0)
    view, host_view = a[::2], expected[::2]
    if args != ((),):
        view.resize(*args)  # no ownership or reference check either
        host_view.resize(*args)
    a.resize(*args, refcheck=False)
    expected.resize(*args, refcheck=False)
    assert a.shape == expected.shape
    numpy.testing.assert_array_equal(a.get(), expected)


@pytest.mark.parametrize("dtype", ["bool", "int16", "uint32", "float32", "complex128"])
def test_fill_round_tobytes(dtype):
    host = (numpy.arange(6) * 1.37 - 2).astype(dtype).reshape(2, 3)
    a = gpupy.asarray(host)
    for order in ("C", "F", "A"):
        assert a.T.tobytes(order) == host.T.tobytes(order)
    if dtype not in ("bool",):
        numpy.testing.assert_allclose(a.round(1).get(), host.round(1), rtol=1e-6)
        assert a.round().dtype == host.round().dtype
    a.fill(1)
    host.fill(1)
    numpy.testing.assert_array_equal(a.get(), host)
    z = gpupy.asarray(numpy.array(3, dtype=dtype))
    z.fill(0)
    assert not z.item()
    ro = gpupy.broadcast_to(a, (2, 2, 3))
    with pytest.raises(ValueError):
        ro.fill(0)


@pytest.mark.parametrize("order", ["a", "k", "K", None, "f"])
def test_tobytes_orders_as_numpy(order):
    # Lower case is accepted; 'K' and None give C order; 'A' follows an F-contiguous layout.
    host = numpy.asfortranarray(numpy.arange(6, dtype="int16").reshape(2, 3))
    a = gpupy.asfortranarray(gpupy.asarray(host))
    assert a.tobytes(order) == host.tobytes(order)
    assert a.T.tobytes(order) == host.T.tobytes(order)


@pytest.mark.parametrize(
    "name, call, exc",
    [
        ("tobytes", lambda xp: xp.zeros(2).tobytes(1), TypeError),
        ("tobytes", lambda xp: xp.zeros(2).tobytes("X"), ValueError),
        ("logspace", lambda xp: xp.logspace(0, 1, 2.5), TypeError),
        ("geomspace", lambda xp: xp.geomspace(1, 2, 2.5), TypeError),
        ("indices", lambda xp: xp.indices(3), TypeError),
        ("indices", lambda xp: xp.indices((2.5,)), TypeError),
        ("require", lambda xp: xp.require(xp.zeros(2), requirements=2.5), TypeError),
        ("fromiter", lambda xp: xp.fromiter(5, float), TypeError),
        ("frombuffer", lambda xp: xp.frombuffer("text"), TypeError),
    ],
)
def test_argument_errors_name_the_function(name, call, exc):
    with pytest.raises(exc):
        call(numpy)
    with pytest.raises(exc, match=rf"^\[{name}\]"):
        call(gpupy)


@pytest.mark.parametrize("decimals", [1, -1, 2])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_round_complex_rounds_each_part(dtype, decimals):
    # NumPy rounds the parts on their own; a complex scaling turned -inf+0.5j into nan+nanj.
    inf, nan = numpy.inf, numpy.nan
    values = [complex(-inf, 0.5), complex(nan, -inf), complex(1.25, inf), 12.345 - 6.789j, 0j]
    host = numpy.array(values, dtype=dtype)
    a = gpupy.asarray(host)
    expected = host.round(decimals)
    got = a[::-1].round(decimals)
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected[::-1], rtol=1e-6)
    out = gpupy.empty(5, dtype="complex128")
    gpupy.round(a, decimals, out=out)
    numpy.testing.assert_allclose(out.get(), expected, rtol=1e-6)
    with pytest.raises(TypeError, match=r"^\[round\]"):
        gpupy.round(a, decimals, out=gpupy.empty(5))


@pytest.mark.parametrize("decimals", [-1, -2, -3])
@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "int64"])
def test_round_integers_to_negative_decimals(dtype, decimals):
    # NumPy rounds in float64 and casts back (127 -> 130 wraps in int8); it raised
    # NotImplementedError.
    host = numpy.array([15, 25, 127, 0, 5, 250, 99], dtype="int64").astype(dtype)
    a = gpupy.asarray(host)
    expected = host.round(decimals)
    got = a[::-1].round(decimals)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected[::-1])
    out = gpupy.empty(7)
    gpupy.round(a, decimals, out=out)
    numpy.testing.assert_array_equal(out.get(), numpy.round(host, decimals, out=numpy.empty(7)))


@pytest.mark.parametrize("decimals", [-1, 1])
def test_round_bool_to_nonzero_decimals_is_refused(decimals):
    with pytest.raises(TypeError):
        numpy.round(numpy.array([True]), decimals)
    with pytest.raises(TypeError, match=r"^\[round\]"):
        gpupy.asarray([True]).round(decimals)


@pytest.mark.parametrize("layout", ["c", "transposed"])
@pytest.mark.parametrize("key", [True, False, "flat"], ids=repr)
def test_flat_boolean_scalar_and_flatiter_keys(layout, key):
    # NumPy 2.4: True is the first position and False none (deprecated); another flatiter is the
    # array it iterates (gpupy read both booleans as a new axis and refused a flatiter)
    host = numpy.arange(12.0).reshape(3, 4)
    hv = host if layout == "c" else host.T
    av = gpupy.asarray(host.copy()) if layout == "c" else gpupy.asarray(host.copy()).T
    if key == "flat":
        hkey, akey = numpy.array([[0, 5], [7, 11]]).flat, gpupy.asarray([[0, 5], [7, 11]]).flat
    else:
        hkey = akey = key
    with pytest.warns(DeprecationWarning) if key != "flat" else warnings.catch_warnings():
        got = av.flat[akey].copy()
        av.flat[akey] = -1.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expected = hv.flat[hkey]
        hv.flat[hkey] = -1.0
    numpy.testing.assert_array_equal(numpy.asarray(got.get()), expected)
    assert got.shape == numpy.shape(expected)
    numpy.testing.assert_array_equal(av.get(), hv)


@pytest.mark.parametrize("key", [None, numpy.True_, (False,)], ids=repr)
def test_flat_refuses_a_new_axis_and_numpy_booleans(key):
    with pytest.raises(IndexError):
        numpy.arange(4).flat[key]
    with pytest.raises(IndexError, match=r"^\[flat\]"):
        gpupy.arange(4).flat[key]
    with pytest.raises(IndexError, match=r"^\[flat\]"):
        gpupy.arange(4).flat[key] = 1


@pytest.mark.parametrize("layout", ["c", "transposed", "strided"])
def test_flat(layout):
    host = numpy.arange(24, dtype="float32").reshape(4, 6)
    a = gpupy.asarray(host.copy())
    pick = {"c": lambda x: x, "transposed": lambda x: x.T, "strided": lambda x: x[::2, 1::2]}
    av, hv = pick[layout](a), pick[layout](host)
    assert len(av.flat) == len(hv.flat) and av.flat.base is av
    assert float(av.flat[5]) == hv.flat[5]
    for key in (slice(2, 9, 3), [1, 4, 4], numpy.array([True, False] * (hv.size // 2))):
        numpy.testing.assert_array_equal(av.flat[key].get(), hv.flat[key])
    for key in ([], ([2, 0],), ..., (3,)):  # an empty list is an integer index; 1-tuples unwrap
        got, expected = av.flat[key], hv.flat[key]
        assert numpy.shape(got) == numpy.shape(expected)
        numpy.testing.assert_array_equal(numpy.asarray(gpupy.asnumpy(got)), expected)
    assert list(av.flat) == list(hv.flat)
    av.flat[[0, 3]] = -1
    hv.flat[[0, 3]] = -1
    av.flat[1:3] = [7, 8]
    hv.flat[1:3] = [7, 8]
    numpy.testing.assert_array_equal(a.get(), host)
    numpy.testing.assert_array_equal(av.flat.copy().get(), hv.flat.copy())
    av.flat = [1.5, 2.5, 3.5, 4.5, 5.5]
    hv.flat = [1.5, 2.5, 3.5, 4.5, 5.5]
    numpy.testing.assert_array_equal(a.get(), host)
    # Values repeat over a selection they do not fill, as NumPy's flatiter does; none: no change.
    for key, values in (
        (slice(None), [1, 2]),
        (slice(None, None, -3), [7, 8]),
        ([0, 5, 5], [9]),
        (slice(1, 4), []),
        ([1, 2], [1.5, 2.5, 3.5]),
    ):
        av.flat[key] = values
        hv.flat[key] = values
        numpy.testing.assert_array_equal(a.get(), host)
    av.flat = []
    hv.flat = []
    numpy.testing.assert_array_equal(a.get(), host)


# ---- dispatch ---------------------------------------------------------------------------------


def test_numpy_dispatch_reaches_gpupy():
    a = gpupy.arange(1, 7, dtype="float64").reshape(2, 3)
    outs = [
        numpy.copy(a),
        numpy.diagflat(a),
        numpy.asanyarray([1, 2], like=a),
        numpy.asfortranarray([[1, 2]], like=a),
        numpy.require([1, 2], requirements="C", like=a),
        numpy.fromiter(range(3), "int8", like=a),
        numpy.tri(3, like=a),
        numpy.geomspace(a, 2 * a, 3),
        numpy.logspace(a, 2 * a, 3),
    ]
    for out in outs:
        assert isinstance(out, gpupy.ndarray) and out.device == a.device
    assert numpy.may_share_memory(a, a[1]) and numpy.shares_memory(a, a[1])


ERRORS = {
    "geomspace": (ValueError, lambda: gpupy.geomspace(0, 1)),
    "logspace": (ValueError, lambda: gpupy.logspace(0, 1, -2)),
    "copy": (ValueError, lambda: gpupy.copy([1], order="Z")),
    "diagflat": (TypeError, lambda: gpupy.diagflat([1], 1.5)),
    "fromiter": (ValueError, lambda: gpupy.fromiter(range(2), "int8", count=5)),
    "shares_memory": (ValueError, lambda: gpupy.shares_memory([1], [1], max_work="x")),
    "size": (ValueError, lambda: gpupy.size(gpupy.zeros(2), 1)),
    "sliding_window_view": (ValueError, lambda: sliding_window_view(gpupy.zeros(2), 3)),
    "view": (ValueError, lambda: gpupy.zeros((2, 2), dtype="int32").T.view("int8")),
    "resize": (ValueError, lambda: gpupy.zeros(4)[1:].resize(2)),
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_error_messages_name_the_function(name):
    error, call = ERRORS[name]
    with pytest.raises(error, match=rf"^\[{name}\] "):
        call()


# ---- NumPy's method arguments (found by NumPy's test_multiarray.py) -----------------------------


@testing.numpy_gpupy_allclose()
def test_conjugate_method_writes_out(xp):
    a = xp.array([1 - 1j, 1 + 1j, 23 + 23.0j])
    out = xp.empty_like(a)
    assert a.conjugate(out) is out
    return out


@testing.numpy_gpupy_allclose()
def test_choose_method_takes_the_choices_as_arguments(xp):
    idx = xp.array([[0, 1, 2], [2, 1, 0]])
    choices = (xp.arange(3), xp.arange(3) * 10, xp.array(7))
    return idx.choose(*choices), idx.choose(list(choices))


@testing.numpy_gpupy_allclose()
def test_resize_to_the_same_size_reshapes_in_place(xp):
    # no new memory is needed, so views and arrays with other references may resize
    x = xp.zeros((10, 0), int)
    view = x[...]
    view.resize((0, 10))
    view.resize((0, 100))
    a = xp.arange(6)
    b = a
    a.resize(2, 3)
    return view, b, x


@pytest.mark.parametrize("kwargs", [{"refcheck": "hi"}, {"order": 1}])
@testing.numpy_gpupy_raises()
def test_resize_argument_types(kwargs, xp):
    xp.eye(3).resize(**kwargs)


@testing.numpy_gpupy_allclose()
def test_flat_index_follows_iteration(xp):
    it = xp.arange(10).reshape(2, 1, 5).flat
    start = it.index
    with pytest.raises(AttributeError):
        it.index = 3
    values = [int(v) for v in it]
    return numpy.array([start, it.index]), numpy.array(values)


@pytest.mark.parametrize("writeable", [True, False])
def test_flat_array_is_a_view_or_a_read_only_copy(writeable):
    host = numpy.arange(20.0).reshape(4, 5)
    host.flags.writeable = writeable
    for h in (host, host[::2, ::2]):
        a = gpupy.asarray(h)
        if a.device.type != "cpu":  # no hidden copies to the host
            with pytest.raises(TypeError):
                a.flat.__array__()
            continue
        got, want = a.flat.__array__(), h.flat.__array__()
        assert got.flags.writeable == want.flags.writeable
        numpy.testing.assert_array_equal(got, want)
