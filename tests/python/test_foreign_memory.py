"""Memory gpupy did not allocate: NumPy buffers, DLPack tensors and __cuda_array_interface__
arrays at unaligned addresses or strides (gpupy's kernels load each item as one aligned word), and
the device a foreign device pointer really lives on. cuda-only checks run with --device=cuda."""

import ctypes

import gpupy
import numpy as np
import pytest
from gpupy import cunumpy as xp

# Every dtype wider than a byte; complex128 needs 16 bytes, twice NumPy's alignment for it.
WIDE = ["int16", "uint32", "int64", "float32", "float64", "complex64", "complex128"]


def _values(dtype, n):
    v = np.arange(1, n + 1) % 7 - 2
    if np.dtype(dtype).kind == "c":
        return (v + 1j * (v[::-1] + 0.5)).astype(dtype)
    return v.astype(dtype)


def _unaligned(dtype, n, how):
    """A NumPy array of n values whose address ('offset') or stride ('packed') is not a multiple
    of the item size; 'half' is 8-byte aligned complex128 (aligned for NumPy, not for gpupy)."""
    dt = np.dtype(dtype)
    if how == "packed":
        rec = np.zeros(n, dtype=np.dtype([("tag", "u1"), ("v", dt)], align=False))
        rec["v"] = _values(dtype, n)
        return rec["v"]
    raw = np.zeros(n * dt.itemsize + 32, dtype=np.uint8)
    base = -raw.ctypes.data % 16  # 16-byte aligned start, then the wanted offset
    offset = base + (8 if how == "half" else 1)
    a = raw[offset : offset + n * dt.itemsize].view(dt)
    a[...] = _values(dtype, n)
    return a


def _misaligned(a):
    item = a.dtype.itemsize
    return a.ctypes.data % item != 0 or any(s % item for s in a.strides)


@pytest.mark.parametrize("how", ["offset", "packed"])
@pytest.mark.parametrize("dtype", WIDE)
def test_asarray_copies_unaligned_numpy_data_into_aligned_memory(device_name, dtype, how):
    host = _unaligned(dtype, 24, how)
    assert _misaligned(host)
    g = gpupy.asarray(host)  # copy=None: NumPy allows a copy where the data cannot be used as is
    assert g._data_ptr % host.dtype.itemsize == 0
    np.testing.assert_array_equal(g.get(), host)
    # Ops that load whole items (these crashed on unaligned complex128 before the copy).
    expect = host.astype(host.dtype)
    np.testing.assert_array_equal((g + g).get(), expect + expect)
    np.testing.assert_array_equal(gpupy.cumsum(g).get(), np.cumsum(expect))
    np.testing.assert_array_equal(gpupy.sort(g).get(), np.sort(expect))
    assert complex(gpupy.sum(g).item()) == complex(expect.sum())
    if device_name == "cpu":
        assert not np.shares_memory(np.asarray(g), host)
        # A NumPy operand of a binary op goes through the same path.
        np.testing.assert_array_equal((g * host).get(), expect * expect)


def test_asarray_copies_half_aligned_complex128(device_name):
    host = _unaligned("complex128", 10, "half")
    assert host.flags.aligned and host.ctypes.data % 16 == 8  # NumPy's own rule is 8 bytes
    g = gpupy.asarray(host)
    assert g._data_ptr % 16 == 0
    np.testing.assert_array_equal((g * g).get(), host * host)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_asarray_shares_aligned_numpy_data_on_cpu(device_name, dtype):
    if device_name != "cpu":
        pytest.skip("only the cpu device views NumPy memory")
    raw = np.zeros(16 * 8 + 32, dtype=np.uint8)
    start = -raw.ctypes.data % 16
    host = raw[start : start + 16 * 8].view(dtype)
    assert np.shares_memory(np.asarray(gpupy.asarray(host)), host)


@pytest.mark.parametrize("how", ["offset", "packed", "half"])
def test_asarray_copy_false_refuses_unaligned_data(how):
    host = _unaligned("complex128", 6, how)
    msg = r"\[asarray\] Unable to avoid copy.*complex128 data must be 16-byte aligned"
    with pytest.raises(ValueError, match=msg):
        gpupy.asarray(host, copy=False, device="cpu")


def test_asarray_copy_true_of_unaligned_data():
    host = _unaligned("float32", 9, "offset")
    g = gpupy.asarray(host, copy=True)
    host[0] = 100  # the copy does not follow
    assert g.get()[0] == _values("float32", 9)[0]


# ---- DLPack --------------------------------------------------------------------------------------


def test_from_dlpack_copies_unaligned_numpy_tensor(device_name):
    host = _unaligned("complex128", 12, "offset")
    g = gpupy.from_dlpack(host)  # copy=None: the Array API allows a copy; NumPy's is aligned
    assert g.device == gpupy.Device("cpu")
    assert g._data_ptr % 16 == 0
    assert not np.shares_memory(np.asarray(g), host)
    np.testing.assert_array_equal((g + g).get(), host + host)
    np.testing.assert_array_equal(gpupy.from_dlpack(host, copy=True).get(), host)


def test_from_dlpack_copy_false_refuses_unaligned_tensor():
    host = _unaligned("complex128", 4, "half")
    msg = r"\[from_dlpack\] cannot view the tensor in place: complex128 data must be 16-byte"
    with pytest.raises(BufferError, match=msg):
        gpupy.from_dlpack(host, copy=False)
    # The capsule was not consumed: the producer still owns and frees it.
    assert gpupy.from_dlpack(host).get().tolist() == host.tolist()


class _DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device_type", ctypes.c_int32),
        ("device_id", ctypes.c_int32),
        ("ndim", ctypes.c_int32),
        ("code", ctypes.c_uint8),
        ("bits", ctypes.c_uint8),
        ("lanes", ctypes.c_uint16),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [
        ("dl_tensor", _DLTensor),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", ctypes.c_void_p),
    ]


_PRODUCERS = []  # a consumer may read a tensor until it calls the (here absent) deleter


class _RawProducer:
    """A legacy DLPack producer of any pointer, device and byte_offset; it cannot copy (it ignores
    copy=True), as producers from before DLPack 1.0 do. Kept alive to the end of the session."""

    def __init__(self, ptr, n, dtype, device=(1, 0), byte_offset=0, keep=None):
        dt = np.dtype(dtype)
        code = {"i": 0, "u": 1, "f": 2, "c": 5}[dt.kind]
        self._shape = (ctypes.c_int64 * 1)(n)
        t = _DLTensor(ptr, device[0], device[1], 1, code, dt.itemsize * 8, 1, self._shape, None)
        t.byte_offset = byte_offset
        self._managed = _DLManagedTensor(t, None, None)
        self._device = device
        self._keep = keep
        _PRODUCERS.append(self)

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, stream=None, **kw):
        new = ctypes.pythonapi.PyCapsule_New
        new.restype = ctypes.py_object
        new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new(ctypes.addressof(self._managed), b"dltensor", None)


def test_from_dlpack_checks_byte_offset_alignment():
    buf = np.zeros(8, dtype=np.complex128)
    buf[:] = _values("complex128", 8)
    ok = gpupy.from_dlpack(_RawProducer(buf.ctypes.data, 4, "complex128", byte_offset=16, keep=buf))
    np.testing.assert_array_equal(ok.get(), buf[1:5])
    assert np.shares_memory(np.asarray(ok), buf)
    bad = _RawProducer(buf.ctypes.data, 4, "complex128", byte_offset=8, keep=buf)
    for copy in (None, False):  # this producer cannot copy: refused rather than viewed
        with pytest.raises(BufferError, match=r"\[from_dlpack\].*complex128 data must be 16-byte"):
            gpupy.from_dlpack(bad, copy=copy)


# ---- CudaKernel arguments ------------------------------------------------------------------------

SOURCE = r"""
__global__ void scale(double a, double* x, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void scale_view(double a, Array1D<double> x) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < x.shape[0]) x(i) *= a;
}
"""


class _Foreign:
    """A foreign device array: only __cuda_array_interface__ (a pointer, no device named)."""

    def __init__(self, ptr, shape, typestr, strides=None, keep=None):
        self._keep = keep
        self._cai = {
            "data": (ptr, False),
            "shape": shape,
            "typestr": typestr,
            "strides": strides,
            "version": 3,
        }

    @property
    def __cuda_array_interface__(self):
        return self._cai


@pytest.mark.parametrize(
    ("name", "ptr", "strides", "got"),
    [
        ("scale", 0x10001, None, "address 0x10001"),
        ("scale_view", 0x10004, None, "address 0x10004"),
    ],
)
def test_kernel_refuses_unaligned_foreign_arrays(name, ptr, strides, got):
    k = xp.CudaKernel(SOURCE, name)
    x = _Foreign(ptr, (4,), "<f8", strides)
    args = (2.0, x, 4) if name == "scale" else (2.0, x)
    msg = rf"\[CudaKernel\] '{name}' argument 1 \(.*\): float64 data must be 8-byte aligned"
    with pytest.raises(ValueError, match=msg):
        k(*args, n_threads=0)  # the checks run before any compile or launch
    with pytest.raises(ValueError, match=f"got {got}$"):
        k(*args, n_threads=0)


def test_kernel_refuses_foreign_strides_between_elements():
    """A byte stride that is not a whole number of elements cannot be indexed (spec 2.3)."""
    x = _Foreign(0x10000, (4,), "<f8", (12,))
    msg = (
        r"argument 1 \(Array1D<double> x\) strides \(12,\) are not multiples of the element size 8"
    )
    with pytest.raises(TypeError, match=msg):
        xp.CudaKernel(SOURCE, "scale_view")(2.0, x, n_threads=0)


def test_kernel_refuses_foreign_arrays_with_emu_arrays(kernel_device):
    if kernel_device != "emu":
        pytest.skip("emu arrays are the other device here")
    k = xp.CudaKernel(SOURCE, "scale_view")
    two = xp.CudaKernel("__global__ void two(double* x, double* y) {}", "two")
    x = gpupy.asarray(np.arange(4.0), device="emu")
    msg = r"'two' argument 1 \(.*\) is on device cuda, but the launch is on emu"
    with pytest.raises(ValueError, match=msg):
        two(x, _Foreign(0, (0,), "<f8"), n_threads=1)
    k(3.0, x, n_threads=4)  # the emu array alone launches
    np.testing.assert_array_equal(x.get(), 3.0 * np.arange(4.0))


@pytest.mark.parametrize("copy", [None, False, True])
def test_asarray_of_foreign_device_arrays_needs_cuda(device_name, copy):
    # __cuda_array_interface__ data is never read as host data: without CUDA it cannot be viewed.
    if device_name == "cuda":
        pytest.skip("CUDA is available here")
    with pytest.raises(
        TypeError, match=r"\[asarray\] __cuda_array_interface__ data needs the cuda"
    ):
        gpupy.asarray(_Foreign(0x10000, (4,), "<f8"), copy=copy)


@pytest.mark.parametrize(
    ("cai", "error", "match"),
    [
        ({"typestr": "<M8[s]"}, TypeError, "typestr '<M8\\[s\\]' is not supported"),
        ({"mask": object()}, TypeError, "masked"),
        ({"data": (0x10004, False)}, ValueError, "8-byte aligned"),
    ],
)
def test_asarray_checks_the_interface_before_touching_memory(cai, error, match):
    f = _Foreign(0x10000, (4,), "<f8")
    f._cai.update(cai)
    with pytest.raises(error, match=match):
        gpupy.asarray(f)


# ---- cuda only -----------------------------------------------------------------------------------


def test_asarray_views_foreign_cuda_memory(cuda_only):
    g = gpupy.asarray(np.arange(12, dtype=np.float32).reshape(3, 4), device="cuda")
    f = _Foreign(g._data_ptr, (3, 4), "<f4", keep=g)
    f._cai["stream"] = 1  # the legacy default stream: gpupy's stream waits for it
    v = gpupy.asarray(f)
    assert v.device == g.device and v.dtype == np.float32 and v.shape == (3, 4)
    v[1, 1] = -1.0  # a view: the write is seen through the original
    assert float(g[1, 1].get()) == -1.0
    t = gpupy.asarray(_Foreign(g._data_ptr, (4, 3), "<f4", strides=(4, 16), keep=g))
    np.testing.assert_array_equal(t.get(), g.get().T)
    c = gpupy.asarray(f, copy=True)
    c[0, 0] = 99.0
    assert float(g[0, 0].get()) == 0.0
    np.testing.assert_array_equal(gpupy.asarray(f, dtype="float64").get(), g.get())
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        gpupy.asarray(f, dtype="float64", copy=False)
    ro = _Foreign(g._data_ptr, (3, 4), "<f4", keep=g)
    ro._cai["data"] = (g._data_ptr, True)
    with pytest.raises(ValueError, match="read-only"):
        gpupy.asarray(ro)[0, 0] = 1.0


def test_asarray_of_a_cupy_array_is_a_view(cuda_only):
    cupy = pytest.importorskip("cupy")
    c = cupy.arange(10, dtype=cupy.float64)
    g = gpupy.asarray(c)
    assert g._data_ptr == c.data.ptr
    g *= 2
    gpupy.cuda.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(c), np.arange(10.0) * 2)


@pytest.fixture
def cuda_only(device_name):
    if device_name != "cuda":
        pytest.skip("needs --device=cuda")


def test_cuda_kernel_runs_on_the_device_of_a_foreign_pointer(cuda_only):
    k = xp.CudaKernel(SOURCE, "scale")
    for dev in range(min(gpupy.cuda.device_count(), 2)):
        g = gpupy.asarray(np.arange(1000, dtype=np.float64), device=f"cuda:{dev}")
        k(2.0, _Foreign(g._data_ptr, (1000,), "<f8", keep=g), 1000, n_threads=1000)
        np.testing.assert_array_equal(g.get(), 2.0 * np.arange(1000))
        assert f"cuda:{dev}" in k._modules


def test_cuda_kernel_refuses_a_foreign_pointer_on_another_device(cuda_only):
    if gpupy.cuda.device_count() < 2:
        pytest.skip("needs two CUDA devices")
    k = xp.CudaKernel("__global__ void two(double* x, double* y) {}", "two")
    x = gpupy.zeros(4, dtype="float64", device="cuda:0")
    y = gpupy.zeros(4, dtype="float64", device="cuda:1")
    with pytest.raises(
        ValueError, match=r"'two' argument 1 .* is on device cuda:1, but the launch is on cuda:0"
    ):
        k(x, _Foreign(y._data_ptr, (4,), "<f8", keep=y), n_threads=1)


def test_cuda_kernel_refuses_host_memory_as_device_array(cuda_only):
    k = xp.CudaKernel(SOURCE, "scale")
    host = np.zeros(4)
    with pytest.raises(ValueError, match=r"'scale' argument 1 .* is not CUDA memory"):
        k(2.0, _Foreign(host.ctypes.data, (4,), "<f8", keep=host), 4, n_threads=4)


def test_cuda_kernel_refuses_unaligned_device_memory(cuda_only):
    k = xp.CudaKernel(SOURCE, "scale")
    raw = gpupy.zeros(64, dtype="uint8", device="cuda")
    with pytest.raises(ValueError, match=r"float64 data must be 8-byte aligned"):
        k(2.0, _Foreign(raw._data_ptr + 4, (4,), "<f8", keep=raw), 4, n_threads=4)
    gpupy.cuda.synchronize()  # nothing faulted: the device is still usable
    assert int(gpupy.sum(raw).item()) == 0


def test_cuda_from_dlpack_checks_alignment_and_device(cuda_only):
    g = gpupy.asarray(_values("complex128", 8), device="cuda:0")
    ok = gpupy.from_dlpack(_RawProducer(g._data_ptr, 4, "complex128", (2, 0), 16, keep=g))
    assert ok.device == gpupy.Device("cuda:0") and ok._data_ptr == g._data_ptr + 16
    bad = _RawProducer(g._data_ptr, 4, "complex128", (2, 0), 8, keep=g)
    with pytest.raises(BufferError, match=r"complex128 data must be 16-byte aligned"):
        gpupy.from_dlpack(bad)
    if gpupy.cuda.device_count() >= 2:  # a producer naming the wrong device is not believed
        g1 = gpupy.asarray(_values("complex128", 8), device="cuda:1")
        wrong = _RawProducer(g1._data_ptr, 4, "complex128", (2, 0), 0, keep=g1)
        with pytest.raises(BufferError, match=r"claims device cuda:0 but its memory is on cuda:1"):
            gpupy.from_dlpack(wrong)
