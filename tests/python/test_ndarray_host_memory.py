"""ndarray.data and ndarray.ctypes: on cpu arrays NumPy's memoryview and ctypes view of the same
memory (compared with NumPy's for the same layouts, and written through); on emu and cuda an
AttributeError that names .get()."""

import ctypes

import gpupy
import numpy
import pytest

LAYOUTS = [
    lambda a: a,
    lambda a: a[:, ::2],  # strided
    lambda a: a.T,  # Fortran order
    lambda a: a[::-1, 1:],  # negative stride
    lambda a: a[1, 2, ...],  # 0-d
]


def _pair():
    host = numpy.arange(24, dtype=numpy.float64).reshape(4, 6)
    return host, gpupy.asarray(host.copy(), device="cpu")


@pytest.mark.parametrize("layout", range(len(LAYOUTS)))
def test_data_is_numpys_memoryview_of_the_same_memory(layout):
    host, a = _pair()
    ref, view = LAYOUTS[layout](host), LAYOUTS[layout](a)
    mine, theirs = view.data, ref.data
    assert isinstance(mine, memoryview)
    assert (mine.format, mine.shape, mine.strides, mine.readonly) == (
        theirs.format,
        theirs.shape,
        theirs.strides,
        theirs.readonly,
    )
    assert mine.tobytes() == theirs.tobytes()
    if view.ndim:
        mine[(0,) * view.ndim] = -1.0  # written through: the array's own memory
        assert view[(0,) * view.ndim].item() == -1.0
    del view
    assert mine.tobytes()  # the memoryview keeps the memory alive


@pytest.mark.parametrize("layout", range(len(LAYOUTS)))
def test_ctypes_gives_numpys_address_shape_and_strides(layout):
    host, a = _pair()
    ref, view = LAYOUTS[layout](host), LAYOUTS[layout](a)
    c = view.ctypes
    assert c.data == view.__array_interface__["data"][0]
    assert list(c.shape or ()) == list(ref.ctypes.shape or ()) == list(ref.shape)
    assert list(c.strides or ()) == list(ref.ctypes.strides or ()) == list(ref.strides)
    assert c.data - a.__array_interface__["data"][0] == ref.ctypes.data - host.ctypes.data
    p = c.data_as(ctypes.POINTER(ctypes.c_double))
    assert p[0] == ref[(0,) * ref.ndim]
    assert list(c.shape_as(ctypes.c_long) or ()) == list(ref.shape)


def test_ctypes_hands_the_array_to_a_c_function():
    a = gpupy.zeros(8, dtype=numpy.int32, device="cpu")
    src = (ctypes.c_int32 * 3)(7, 8, 9)
    ctypes.memmove(a[2:].ctypes.data, src, ctypes.sizeof(src))  # a C call writing the array
    numpy.testing.assert_array_equal(a.get(), [0, 0, 7, 8, 9, 0, 0, 0])
    assert a.ctypes._as_parameter_.value == a.ctypes.data  # ctypes passes it as a pointer


def test_device_arrays_refuse_with_a_message(device_name):
    a = gpupy.arange(4.0, device=device_name)
    if device_name == "cpu":
        assert a.data.tobytes() == numpy.arange(4.0).tobytes()
        return
    for attr in ("data", "ctypes"):
        with pytest.raises(AttributeError, match=rf"^{attr} is only available on cpu arrays; .*"):
            getattr(a, attr)
        assert not hasattr(a, attr)
    with pytest.raises(AttributeError, match=r"\.get\(\) or gpupy\.asnumpy\(\)"):
        memoryview(a.data)
