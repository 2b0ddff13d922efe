"""tri, diagflat, indices, logspace, geomspace, fromfunction, the from* readers, copy/require and
layouts, memory overlap, introspection, gpupy.lib.stride_tricks and the ndarray methods view,
base, resize, fill, round and tobytes, against NumPy on the device under test."""

import gpupy
import numpy
import pytest
from gpupy.lib.stride_tricks import as_strided, sliding_window_view
from gpupy.testing import numpy_gpupy_allclose, numpy_gpupy_raises

# ---- creation ---------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [(3,), (3, 5), (4, 2, 1), (3, 3, -1), (0,), (2, 0), (3, 4, 9)])
@pytest.mark.parametrize("dtype", [float, "int8", "bool", "complex64"])
@numpy_gpupy_allclose()
def test_tri(args, dtype, xp):
    return xp.tri(*args, dtype=dtype)


@pytest.mark.parametrize("k", [0, 2, -1])
@numpy_gpupy_allclose()
def test_diagflat(k, xp):
    return (
        xp.diagflat(xp.asarray([[1, 2], [3, 4]], dtype="uint8"), k),
        xp.diagflat([1.5, 2], k),
        xp.diagflat(xp.asarray(3 + 1j), k),
    )


@numpy_gpupy_allclose()
def test_indices_and_fromfunction(xp):
    return (
        xp.indices((2, 3)),
        xp.indices((2, 0, 3), dtype="int16"),
        xp.indices((3, 2), sparse=True),
        xp.fromfunction(lambda i, j: i * 10 + j, (3, 4)),
        xp.fromfunction(lambda i, j, k: (i + j) * k, (2, 3), dtype="int32", k=2),
    )


def test_fromfunction_runs_on_the_device(device_name):
    out = gpupy.fromfunction(lambda i: i + 1, (3,))
    assert out.device == gpupy.Device(device_name)


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("dtype", [None, "float32", "int64", "complex128"])
@numpy_gpupy_allclose(rtol=1e-6)
def test_logspace(endpoint, dtype, xp):
    if dtype == "int64":
        return xp.logspace(0, 3, 4, endpoint=endpoint, dtype=dtype)
    return (
        xp.logspace(0, 2, 5, endpoint=endpoint, dtype=dtype),
        xp.logspace(-1, 1, 7, endpoint=endpoint, base=2.0, dtype=dtype),
        xp.logspace(1, 0, 1, endpoint=endpoint, dtype=dtype),
        xp.logspace(0, 1, 0, endpoint=endpoint, dtype=dtype),
    )


@numpy_gpupy_allclose(rtol=1e-12)
def test_logspace_arrays_and_axis(xp):
    start = xp.asarray([0.0, 1.0])
    stop = xp.asarray([[2.0, 3.0], [1.0, 0.0]])
    base = xp.asarray([2.0, 10.0])
    return (
        xp.logspace(start, stop, 4),
        xp.logspace(start, stop, 4, axis=-1),
        xp.logspace(start, 3.0, 3, base=base, axis=1),
    )


@numpy_gpupy_allclose(rtol=2e-6)
def test_logspace_keeps_float32_with_a_python_base(xp):
    start = xp.asarray([0.0, 1.0], dtype="float32")
    return (
        xp.logspace(start, 2, 3),
        xp.logspace(start, 2, 3, base=2),
        xp.logspace(start, 2, 3, axis=1),
    )


@pytest.mark.parametrize("endpoint", [True, False])
@numpy_gpupy_allclose(rtol=1e-12)
def test_geomspace(endpoint, xp):
    return (
        xp.geomspace(1, 1000, 4, endpoint=endpoint),
        xp.geomspace(-1000, -1, 4, endpoint=endpoint),
        xp.geomspace(xp.asarray([1.0, 2.0]), xp.asarray([8.0, 2.0]), 3, endpoint=endpoint, axis=1),
        xp.geomspace(1, 256, 9, endpoint=endpoint, dtype="int32"),
        xp.geomspace(1j, 1000j, 4, endpoint=endpoint),
        xp.geomspace(2, 2, 1, endpoint=endpoint),
    )


@numpy_gpupy_allclose(rtol=2e-6)
def test_geomspace_float32(xp):
    return xp.geomspace(xp.asarray(1.0, dtype="float32"), 100, 5)


@pytest.mark.parametrize("call", ["zero_start", "zero_stop", "negative_num"])
@numpy_gpupy_raises()
def test_spaces_errors(call, xp):
    if call == "zero_start":
        return xp.geomspace(0, 10)
    if call == "zero_stop":
        return xp.geomspace(xp.asarray([1.0, 2.0]), xp.asarray([0.0, 3.0]))
    return xp.logspace(0, 1, -1)


def test_readers():
    for dtype in ("int16", "float32", "complex128"):
        data = numpy.arange(5, dtype=dtype)
        out = gpupy.fromiter(iter(data.tolist()), dtype)
        numpy.testing.assert_array_equal(out.get(), data)
        assert out.dtype == dtype
        out = gpupy.frombuffer(data.tobytes(), dtype, count=3, offset=data.itemsize)
        numpy.testing.assert_array_equal(out.get(), data[1:4])
    numpy.testing.assert_array_equal(gpupy.fromiter(range(10), "int8", count=4).get(), [0, 1, 2, 3])
    got = gpupy.fromstring("1, 2.5, 3", dtype="float64", sep=",")
    numpy.testing.assert_array_equal(got.get(), [1.0, 2.5, 3.0])
    numpy.testing.assert_array_equal(gpupy.fromstring("1 2 3", "int32", sep=" ").get(), [1, 2, 3])
    with pytest.raises(ValueError, match=r"\[fromstring\]"):
        gpupy.fromstring("\x01\x02", "uint8", sep="")
    with pytest.raises(ValueError, match=r"\[frombuffer\]"):
        gpupy.frombuffer(b"abc", "int16")
    with pytest.raises(ValueError):
        gpupy.fromiter(range(2), "int8", count=5)


def test_frombuffer_shares_host_memory_on_cpu(device_name):
    data = bytearray(numpy.arange(4, dtype="int32").tobytes())
    out = gpupy.frombuffer(data, "int32")
    data[0] = 9
    assert int(out[0]) == (9 if device_name == "cpu" else 0)
    assert out.device == gpupy.Device(device_name)


# ---- copies and layouts -------------------------------------------------------------------------


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
def test_copy_orders(order):
    a = gpupy.arange(12).reshape(3, 4)
    h = numpy.arange(12).reshape(3, 4)
    for src, host in ((a, h), (a.T, h.T), (a[:, ::2], h[:, ::2]), (a[0, 0], h[0, 0])):
        out = gpupy.copy(src, order=order)
        expected = numpy.copy(host, order=order)
        numpy.testing.assert_array_equal(out.get(), expected)
        assert not gpupy.shares_memory(out, src)
        assert out.flags.c_contiguous == expected.flags.c_contiguous
        assert out.flags.f_contiguous == expected.flags.f_contiguous
    numpy.testing.assert_array_equal(gpupy.copy([1, 2]).get(), [1, 2])
    with pytest.raises(ValueError, match=r"\[copy\]"):
        gpupy.copy(a, order="X")


def test_asanyarray_chkfinite_asfortranarray():
    a = gpupy.asarray([[1.0, 2.0], [3.0, 4.0]])
    assert gpupy.asanyarray(a) is a
    assert gpupy.asanyarray([1, 2]).dtype == numpy.int64
    assert gpupy.asanyarray(a, order="F").flags.f_contiguous
    assert gpupy.asarray_chkfinite(a) is a
    assert gpupy.asarray_chkfinite([1, 2]).dtype == numpy.int64
    for bad in ([1.0, numpy.inf], [numpy.nan], [complex(1, numpy.inf)]):
        with pytest.raises(ValueError, match=r"\[asarray_chkfinite\]"):
            gpupy.asarray_chkfinite(gpupy.asarray(bad))
    f = gpupy.asfortranarray(a)
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    numpy.testing.assert_array_equal(f.get(), a.get())
    assert gpupy.asfortranarray(f) is f
    assert gpupy.asfortranarray(3).shape == (1,)
    assert gpupy.asfortranarray([1, 2], dtype="float32").dtype == numpy.float32
    assert gpupy.isfortran(f) and not gpupy.isfortran(a) and not gpupy.isfortran(a[0])
    assert gpupy.isfortran(numpy.asfortranarray(numpy.ones((2, 2))))


@pytest.mark.parametrize(
    "view", [lambda x: x[:, ::2], lambda x: x.T[::2], lambda x: x[::-1, ::-3], lambda x: x[1:1]]
)
def test_empty_views_are_contiguous_both_ways(view):
    # As in NumPy, an array without items is C- and F-contiguous whatever its strides.
    got, expected = view(gpupy.zeros((0, 4), dtype=bool)), view(numpy.zeros((0, 4), dtype=bool))
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert got.flags.f_contiguous == expected.flags.f_contiguous
    assert gpupy.isfortran(got) == numpy.isfortran(expected)


def test_numpy_isfortran_reads_gpupy_flags():
    # numpy.isfortran is not dispatched: it reads a.flags.fnc from the gpupy array itself.
    a, h = gpupy.zeros((2, 3)), numpy.zeros((2, 3))
    for view in (lambda x: x, lambda x: x.T, lambda x: x[:, ::2], lambda x: x[0]):
        assert numpy.isfortran(view(a)) == numpy.isfortran(view(h))
        for flag in ("fnc", "forc", "aligned"):
            assert getattr(view(a).flags, flag) == getattr(view(h).flags, flag)
            assert view(a).flags[flag.upper()] == view(h).flags[flag.upper()]


def test_require():
    a = gpupy.arange(6).reshape(2, 3)
    assert gpupy.require(a) is a
    assert gpupy.require(a, requirements="C") is a
    t = gpupy.require(a.T, requirements=["C", "W"])
    assert t.flags.c_contiguous and not gpupy.shares_memory(t, a)
    f = gpupy.require(a, dtype="float32", requirements=["F_CONTIGUOUS", "A", "E"])
    assert f.flags.f_contiguous and f.dtype == numpy.float32
    numpy.testing.assert_array_equal(f.get(), a.get())
    o = gpupy.require(a[1:], requirements="O")
    assert o.flags.owndata
    r = gpupy.broadcast_to(a, (2, 2, 3))
    assert gpupy.require(r, requirements="W").flags.writeable
    with pytest.raises(ValueError, match=r"\[require\]"):
        gpupy.require(a, requirements="CF")
    with pytest.raises(KeyError, match=r"\[require\]"):
        gpupy.require(a, requirements="X")


# ---- memory overlap --------------------------------------------------------------------------


def test_shares_memory_exact_and_bounds():
    a = gpupy.arange(20, dtype="int32")
    cases = [
        (a, a),
        (a[::2], a[1::2]),
        (a[:10], a[10:]),
        (a[:11], a[10:]),
        (a.reshape(4, 5)[:, 1], a.reshape(4, 5)[:, 2]),
        (a, gpupy.arange(3)),
        (a[3:3], a),
    ]
    for x, y in cases:
        hx, hy = _host_twins(x, y)
        assert gpupy.shares_memory(x, y) == numpy.shares_memory(hx, hy)
        assert gpupy.may_share_memory(x, y) == numpy.may_share_memory(hx, hy)
        assert gpupy.may_share_memory(x, y, max_work=-1) == numpy.shares_memory(hx, hy)
    assert not gpupy.shares_memory([1, 2], [1, 2])


def _host_twins(x, y):
    """NumPy views of one host array laid out as x and y are in their shared buffer."""
    base = numpy.arange(20, dtype="int32")
    lo = min(x._buffer_range[0], y._buffer_range[0])

    def twin(v):
        if not v._same_buffer(x) or not v._same_buffer(y):
            return numpy.zeros(v.shape, v.dtype)
        offset = v._data_ptr - lo
        return numpy.lib.stride_tricks.as_strided(base[offset // 4 :], v.shape, v.strides)

    return twin(x), twin(y)


def test_shares_memory_with_numpy_on_cpu(device_name):
    host = numpy.arange(8.0)
    a = gpupy.asarray(host)
    assert gpupy.shares_memory(a, host) == (device_name == "cpu")
    assert numpy.shares_memory(a[2:], a[:3])


def test_shares_memory_too_hard():
    a = gpupy.zeros(1000, dtype="int8")
    x = as_strided(a, (10, 10, 9), (91, 9, 1))
    y = as_strided(a, (11, 11, 7), (83, 7, 1))
    with pytest.raises(numpy.exceptions.TooHardError):
        gpupy.shares_memory(x, y, max_work=1)


# ---- introspection ----------------------------------------------------------------------------


def test_shape_size_ndim_isscalar_iterable():
    a = gpupy.zeros((2, 3, 4))
    assert gpupy.shape(a) == (2, 3, 4) and gpupy.shape([[1, 2]]) == (1, 2)
    assert gpupy.ndim(a) == 3 and gpupy.ndim(5) == 0
    assert gpupy.size(a) == 24 and gpupy.size(a, 1) == 3 and gpupy.size(a, (0, -1)) == 8
    assert gpupy.size([[1, 2, 3]], 1) == numpy.size([[1, 2, 3]], 1)
    with pytest.raises(ValueError, match=r"\[size\]"):
        gpupy.size(a, 3)
    for value in (1, 2.5, 1j, numpy.float32(1), "s", b"b", True):
        assert gpupy.isscalar(value) == numpy.isscalar(value)
    for value in (gpupy.asarray(1), [1], None, numpy.array(1)):
        assert gpupy.isscalar(value) == numpy.isscalar(
            numpy.array(1) if value is not None else None
        )
    assert gpupy.iterable(a) and gpupy.iterable([1]) and not gpupy.iterable(gpupy.asarray(1))
    assert not gpupy.iterable(3)
    # NumPy's functions reach gpupy's through __array_function__.
    assert numpy.shape(a) == (2, 3, 4) and numpy.size(a, 2) == 4 and numpy.ndim(a) == 3


# ---- stride tricks --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "window,axis",
    [(3, None), ((2, 2), None), (2, 0), (3, -1), ((2, 3), (1, 0)), ((2, 2), (1, 1)), (0, 1)],
)
@numpy_gpupy_allclose()
def test_sliding_window_view(window, axis, xp):
    st = numpy.lib.stride_tricks if xp is numpy else gpupy.lib.stride_tricks
    x = xp.asarray(numpy.arange(20, dtype="float32").reshape(4, 5))
    if axis is None and numpy.ndim(window) == 0:
        x = x[0]
    return st.sliding_window_view(x, window, axis=axis)


def test_sliding_window_view_is_a_read_only_view():
    x = gpupy.arange(6)
    v = sliding_window_view(x, 3)
    assert gpupy.shares_memory(v, x) and not v.flags.writeable
    with pytest.raises(ValueError):
        v[0, 0] = 1
    w = sliding_window_view(x, 3, writeable=True)
    w[1, 0] = 42
    assert int(x[1]) == 42
    assert numpy.lib.stride_tricks.sliding_window_view(x, 2).shape == (5, 2)


@pytest.mark.parametrize("case", ["negative", "too_large", "axis_count", "none_count", "bad_axis"])
@numpy_gpupy_raises()
def test_sliding_window_view_errors(case, xp):
    st = numpy.lib.stride_tricks if xp is numpy else gpupy.lib.stride_tricks
    x = xp.zeros((3, 4))
    args = {
        "negative": ((-1, 2), None),
        "too_large": ((4, 2), None),
        "axis_count": ((2, 2), 0),
        "none_count": (2, None),
        "bad_axis": (2, 2),
    }[case]
    return st.sliding_window_view(x, args[0], axis=args[1])


def test_as_strided():
    x = gpupy.arange(12, dtype="int64")
    host = x.get()
    for shape, strides in [
        ((3, 4), (32, 8)),
        ((4, 3), (8, 32)),
        ((5, 3), (16, 8)),
        ((2, 2), (0, 8)),
    ]:
        got = as_strided(x, shape, strides)
        expected = numpy.lib.stride_tricks.as_strided(host, shape, strides)
        numpy.testing.assert_array_equal(got.get(), expected)
        assert gpupy.shares_memory(got, x)
    assert as_strided(x).shape == x.shape
    assert not as_strided(x, writeable=False).flags.writeable
    v = as_strided(x[2:], (2,), (16,))
    numpy.testing.assert_array_equal(v.get(), [2, 4])
    with pytest.raises(ValueError, match=r"\[as_strided\] the view would reach outside"):
        as_strided(x, (13,), (8,))
    with pytest.raises(ValueError, match=r"\[as_strided\] the view would reach outside"):
        as_strided(x[2:], (2,), (-24,))
    with pytest.raises(ValueError, match=r"\[as_strided\] .*aligned"):
        as_strided(x, (2,), (4,))
    with pytest.raises(ValueError, match=r"\[as_strided\]"):
        as_strided(x, (2, 2), (8,))


@pytest.mark.parametrize(
    "shape, strides",
    [
        ((2**61 + 1,), (8,)),  # the span wraps int64 to 0
        ((2**61 + 1,), (-8,)),
        ((2**62, 3), (0, 0)),  # the size wraps (negative)
        ((2**40, 2**30), (0, 0)),  # the size wraps to 0
        ((2**60 + 1, 2), (16, 8)),
    ],
)
def test_as_strided_refuses_sizes_that_overflow(shape, strides):
    # NumPy refuses these sizes too; an unchecked product would let the view read past x.
    x = gpupy.zeros(4, dtype="int64")
    with pytest.raises(ValueError, match=r"\[as_strided\] array is too big"):
        as_strided(x, shape, strides)


@pytest.mark.parametrize(
    "shape, strides",
    [((2,), (2**63 - 1,)), ((3,), (2**62,)), ((2, 2), (2**62, 2**62)), ((2,), (-(2**63),))],
)
def test_as_strided_refuses_spans_that_overflow(shape, strides):
    x = gpupy.zeros(4, dtype="int8")
    with pytest.raises(ValueError, match=r"\[as_strided\] the view would reach outside"):
        as_strided(x, shape, strides)


def test_as_strided_values_beyond_int64():
    x = gpupy.zeros(4, dtype="int8")
    with pytest.raises(OverflowError, match=r"\[as_strided\] shape"):
        as_strided(x, (2**63,), (0,))
    with pytest.raises(OverflowError, match=r"\[as_strided\] strides"):
        as_strided(x, (2,), (2**64,))
    assert as_strided(x, (10**6, 10**6), (0, 0)).shape == (10**6, 10**6)


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
