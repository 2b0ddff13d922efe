"""gpupy.ctypeslib against numpy.ctypeslib: ndpointer argtypes take gpupy cpu arrays with NumPy's
checks (the same C call on a NumPy array is the reference), as_ctypes/as_array share memory,
and arrays on emu/cuda are refused with a message naming .get()."""

import ctypes

import gpupy
import numpy
import pytest
from gpupy import ctypeslib


def _memset(ctypeslib_module, **ndpointer_args):
    """libc's memset with an ndpointer first argument from `ctypeslib_module`."""
    fn = ctypes.CDLL(None).memset
    fn.restype = ctypes.c_void_p
    pointer = ctypeslib_module.ndpointer(**ndpointer_args)
    fn.argtypes = [pointer, ctypes.c_int, ctypes.c_size_t]
    return fn


def test_reexports_are_numpys():
    assert ctypeslib.c_intp is numpy.ctypeslib.c_intp
    assert ctypeslib.load_library is numpy.ctypeslib.load_library
    assert ctypeslib.as_ctypes_type is numpy.ctypeslib.as_ctypes_type
    assert sorted(ctypeslib.__all__) == sorted(numpy.ctypeslib.__all__)


def test_ndpointer_passes_cpu_arrays_to_c_like_numpy_arrays():
    kwargs = {"dtype": numpy.uint8, "ndim": 1, "flags": "C_CONTIGUOUS"}
    mine, ref = _memset(ctypeslib, **kwargs), _memset(numpy.ctypeslib, **kwargs)
    a, host = gpupy.zeros(8, dtype="uint8", device="cpu"), numpy.zeros(8, numpy.uint8)
    mine(a[2:], 7, 3)
    ref(host[2:], 7, 3)
    numpy.testing.assert_array_equal(a.get(), host)
    mine(host, 1, 1)  # NumPy arrays still go through
    assert host[0] == 1
    assert ctypeslib.ndpointer(numpy.float64, 2) is ctypeslib.ndpointer(numpy.float64, 2)


@pytest.mark.parametrize(
    "make",
    [
        lambda xp: xp.zeros(8, dtype="int8"),  # dtype
        lambda xp: xp.zeros((2, 4), dtype="uint8"),  # ndim
        lambda xp: xp.zeros(8, dtype="uint8")[::2],  # flags
    ],
)
def test_ndpointer_refuses_as_numpy(make):
    kwargs = {"dtype": numpy.uint8, "ndim": 1, "flags": "C_CONTIGUOUS"}
    with pytest.raises(ctypes.ArgumentError) as numpys:
        _memset(numpy.ctypeslib, **kwargs)(make(numpy), 0, 1)
    with gpupy.Device("cpu"):
        arg = make(gpupy)
    with pytest.raises(ctypes.ArgumentError) as mine:
        _memset(ctypeslib, **kwargs)(arg, 0, 1)
    assert str(mine.value) == str(numpys.value)


def test_device_arrays_are_refused(device_name):
    a = gpupy.zeros(4, dtype="uint8", device=device_name)
    if device_name == "cpu":
        _memset(ctypeslib, dtype=numpy.uint8)(a, 3, 4)
        numpy.testing.assert_array_equal(a.get(), [3, 3, 3, 3])
        return
    with pytest.raises(ctypes.ArgumentError, match=r"\[ndpointer\] the array is on .*\.get\(\)"):
        _memset(ctypeslib, dtype=numpy.uint8)(a, 3, 4)
    with pytest.raises(TypeError, match=r"^\[as_ctypes\] the array is on"):
        ctypeslib.as_ctypes(a)


def test_as_ctypes_and_as_array_share_memory():
    x = gpupy.arange(4.0, device="cpu")
    cx = ctypeslib.as_ctypes(x)
    ref = numpy.ctypeslib.as_ctypes(numpy.arange(4.0))
    assert type(cx) is type(ref) and list(cx) == list(ref)
    cx[1] = 5.0
    numpy.testing.assert_array_equal(x.get(), [0.0, 5.0, 2.0, 3.0])
    c = (ctypes.c_int32 * 6)(*range(6))
    g = ctypeslib.as_array(c)
    assert g.device == gpupy.Device("cpu") and g.dtype == numpy.int32
    numpy.testing.assert_array_equal(g.get(), numpy.ctypeslib.as_array(c))
    g[0] = 42
    assert c[0] == 42
    p = ctypes.cast(c, ctypes.POINTER(ctypes.c_int32))
    numpy.testing.assert_array_equal(ctypeslib.as_array(p, (2, 3)).get(), [[42, 1, 2], [3, 4, 5]])
    assert ctypeslib.as_array(x) is x
