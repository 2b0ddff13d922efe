"""tri, diagflat, indices, logspace, geomspace, fromfunction, the from* readers, copy/require and
layouts, against NumPy on the device under test (memory overlap and stride tricks are in
test_stride_tricks.py, the ndarray methods in test_ndarray_methods_extra.py)."""

import gpupy
import numpy
import pytest
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
