"""DLPack export (__dlpack__, __dlpack_device__) and import (gpupy.from_dlpack): memory sharing with
NumPy, both capsule kinds, flags, copies, device rules and errors."""

import ctypes
import gc

import gpupy
import numpy as np
import pytest
from gpupy import testing

ALL = testing.ALL_DTYPES


def _sample(dtype, shape=(3, 4)):
    n = np.arange(int(np.prod(shape))).reshape(shape) % 3
    return n.astype(dtype)


def _capsule_name(capsule):
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    return get_name(capsule).decode()


def _flags(capsule):
    """flags word of an unconsumed versioned capsule (offset 24: version, ctx, deleter)."""
    get_ptr = ctypes.pythonapi.PyCapsule_GetPointer
    get_ptr.restype = ctypes.c_void_p
    get_ptr.argtypes = [ctypes.py_object, ctypes.c_char_p]
    ptr = get_ptr(capsule, b"dltensor_versioned")
    return ctypes.c_uint64.from_address(ptr + 24).value


# ---- cpu arrays: sharing with NumPy both ways ----------------------------------------------------


@testing.for_dtypes(ALL)
def test_numpy_from_gpupy_shares_memory(dtype):
    g = gpupy.asarray(_sample(dtype), device="cpu")
    n = np.from_dlpack(g)
    assert n.dtype == np.dtype(dtype) and n.shape == g.shape
    assert n.ctypes.data == g._data_ptr
    np.testing.assert_array_equal(n, g.get())


@testing.for_dtypes(ALL)
def test_gpupy_from_numpy_shares_memory(dtype):
    n = _sample(dtype)
    g = gpupy.from_dlpack(n)
    assert g.device == gpupy.Device("cpu")
    assert g._data_ptr == n.ctypes.data and g.dtype == n.dtype
    n[0, 0] = 1
    assert g.get()[0, 0] == n[0, 0]


@pytest.mark.parametrize(
    "make",
    [
        lambda n: n[:, ::2],
        lambda n: n[::-1],
        lambda n: n.T,
        lambda n: n[1:, 1:3],
        lambda n: n[1, 2][()],
        lambda n: n[:0],
        lambda n: n.reshape(3, 1, 4),
    ],
    ids=["step", "reversed", "transposed", "offset", "0d", "empty", "unit-dim"],
)
def test_layouts_round_trip(make):
    n = make(np.arange(12, dtype=np.float64).reshape(3, 4))
    n = np.asarray(n)
    g = gpupy.from_dlpack(n)
    assert g.shape == n.shape
    np.testing.assert_array_equal(g.get(), n)
    back = np.from_dlpack(g)
    np.testing.assert_array_equal(back, n)
    if n.size:
        assert back.ctypes.data == n.ctypes.data


def test_producer_kept_alive():
    g = gpupy.from_dlpack(np.arange(1000.0))
    gc.collect()
    np.testing.assert_array_equal(g.get(), np.arange(1000.0))
    n = np.from_dlpack(gpupy.arange(10, device="cpu") * 2)
    gc.collect()
    np.testing.assert_array_equal(n, np.arange(10) * 2)


def test_read_only():
    n = np.arange(4.0)
    n.flags.writeable = False
    g = gpupy.from_dlpack(n)
    assert g._readonly
    with pytest.raises(ValueError):
        g[0] = 5.0
    back = np.from_dlpack(g)
    assert not back.flags.writeable
    assert _flags(g.__dlpack__(max_version=(1, 0))) & 1  # READ_ONLY
    # The legacy format cannot say read-only: a copy, or an error when copies are refused.
    legacy = gpupy.from_dlpack(_LegacyOnly(g))
    assert legacy._data_ptr != g._data_ptr
    with pytest.raises(BufferError):
        g.__dlpack__(copy=False)


class _LegacyOnly:
    """A producer from before DLPack 1.0: no max_version, legacy capsules."""

    def __init__(self, x):
        self.x = x

    def __dlpack__(self, stream=None):
        return self.x.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


def test_capsule_kinds_and_consumption():
    g = gpupy.arange(5, device="cpu")
    assert _capsule_name(g.__dlpack__()) == "dltensor"
    assert _capsule_name(g.__dlpack__(max_version=(0, 8))) == "dltensor"
    cap = g.__dlpack__(max_version=(1, 0))
    assert _capsule_name(cap) == "dltensor_versioned"
    assert _flags(cap) == 0
    h, _ = gpupy._core._dlpack_import(cap)
    assert _capsule_name(cap) == "used_dltensor_versioned"
    del cap
    gc.collect()
    np.testing.assert_array_equal(h.get(), np.arange(5))
    with pytest.raises(TypeError):
        gpupy._core._dlpack_import(object())
    legacy = gpupy.from_dlpack(_LegacyOnly(g))
    assert legacy._data_ptr == g._data_ptr
    unused = g.__dlpack__(max_version=(1, 0))  # dropped without a consumer: freed by its capsule
    del unused
    gc.collect()


def test_copy_argument():
    g = gpupy.arange(5, device="cpu")
    assert _flags(g.__dlpack__(max_version=(1, 0), copy=True)) & 2  # IS_COPIED
    c = gpupy.from_dlpack(g, copy=True)
    assert c._data_ptr != g._data_ptr
    assert gpupy.from_dlpack(g, copy=False)._data_ptr == g._data_ptr
    n = np.arange(3.0)
    assert gpupy.from_dlpack(n, copy=True)._data_ptr != n.ctypes.data


def test_cpu_export_errors():
    g = gpupy.arange(3, device="cpu")
    assert g.__dlpack_device__() == (1, 0)
    with pytest.raises(ValueError):
        g.__dlpack__(stream=1)
    with pytest.raises(BufferError):
        g.__dlpack__(dl_device=(2, 0))
    with pytest.raises(TypeError):
        gpupy.from_dlpack([1, 2, 3])


# ---- the test device -----------------------------------------------------------------------------


def test_import_onto_device(device_name):
    n = np.arange(6.0).reshape(2, 3)
    g = gpupy.from_dlpack(n, device=device_name)
    assert g.device == gpupy.Device(device_name)
    np.testing.assert_array_equal(g.get(), n)
    if device_name != "cpu":
        with pytest.raises(BufferError):
            gpupy.from_dlpack(n, device=device_name, copy=False)


def test_export_from_device(device_name):
    g = gpupy.asarray(np.arange(6.0).reshape(2, 3), device=device_name)
    if device_name == "cpu":
        assert np.from_dlpack(g).ctypes.data == g._data_ptr
    elif device_name == "emu":
        # emu memory is device memory by contract: no silent host view.
        with pytest.raises(BufferError):
            g.__dlpack_device__()
        with pytest.raises(BufferError):
            np.from_dlpack(g)
        with pytest.raises(BufferError):
            g.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=False)
        with pytest.raises(BufferError):
            g.__dlpack__(max_version=(1, 0), dl_device=(1, 0))
        cap = g.__dlpack__(max_version=(1, 0), dl_device=(1, 0), copy=True)
        assert _flags(cap) & 2
        h, copied = gpupy._core._dlpack_import(cap)
        assert copied and h.device == gpupy.Device("cpu")
        np.testing.assert_array_equal(h.get(), g.get())
        n = np.from_dlpack(g, device="cpu", copy=True)
        np.testing.assert_array_equal(n, g.get())
    else:
        assert g.__dlpack_device__() == (2, g.device.index)
        h = gpupy.from_dlpack(_LegacyOnly(g))  # through a capsule, with the stream handshake
        assert h._data_ptr == g._data_ptr and h.device == g.device
        h, copied = gpupy._core._dlpack_import(g.__dlpack__(max_version=(1, 0), stream=-1))
        assert h._data_ptr == g._data_ptr and not copied
        np.testing.assert_array_equal(np.from_dlpack(g, device="cpu", copy=True), g.get())


def test_gpupy_to_gpupy(device_name):
    g = gpupy.asarray(np.arange(6.0), device=device_name)
    view = gpupy.from_dlpack(g)
    assert view is not g and view._same_buffer(g)
    assert not gpupy.from_dlpack(g, copy=True)._same_buffer(g)
    on_cpu = gpupy.from_dlpack(g, device="cpu")
    assert on_cpu.device == gpupy.Device("cpu")
    np.testing.assert_array_equal(on_cpu.get(), g.get())
    if device_name != "cpu":
        with pytest.raises(BufferError):
            gpupy.from_dlpack(g, device="cpu", copy=False)


@testing.for_dtypes(ALL)
def test_device_round_trip_dtypes(device_name, dtype):
    n = _sample(dtype, (2, 3))
    g = gpupy.from_dlpack(n, device=device_name)
    assert g.dtype == n.dtype
    if device_name == "emu":
        back = np.from_dlpack(g, device="cpu", copy=True)
    else:
        back = (
            np.from_dlpack(g) if device_name == "cpu" else gpupy.from_dlpack(_LegacyOnly(g)).get()
        )
    np.testing.assert_array_equal(back, n)


# ---- other libraries -----------------------------------------------------------------------------


def test_torch_round_trip(device_name):
    torch = pytest.importorskip("torch")
    if device_name == "emu":
        pytest.skip("emu arrays are not exported without a copy")
    g = gpupy.asarray(np.arange(6, dtype=np.float32), device=device_name)
    t = torch.from_dlpack(g)
    assert t.data_ptr() == g._data_ptr
    back = gpupy.from_dlpack(t)
    assert back._data_ptr == g._data_ptr


def test_cupy_round_trip(device_name):
    cupy = pytest.importorskip("cupy")
    if device_name != "cuda":
        pytest.skip("CuPy arrays live on cuda")
    g = gpupy.asarray(np.arange(6, dtype=np.float32), device=device_name)
    c = cupy.from_dlpack(g)
    assert c.data.ptr == g._data_ptr
    assert gpupy.from_dlpack(c)._data_ptr == g._data_ptr
