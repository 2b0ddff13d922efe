"""Memory used on several CUDA streams: a freed block is not handed out again while another
stream's queued work may still use it (gpupy's own ops, CudaKernel launches, DLPack exports and
gpupy.cuda.record_stream), and the record_stream API on every device."""

import gpupy
import gpupy.cuda
import numpy as np
import pytest
from gpupy import _core
from gpupy import cunumpy as xp

# Keeps a stream busy for about `cycles` clock cycles (about 0.1 s at 2e8), so that what the host
# does meanwhile is certainly done before the stream reaches the work queued after the spin.
SPIN = r"""
extern "C" __global__ void spin(long long cycles) {
  long long start = clock64();
  while (clock64() - start < cycles) {
  }
}
"""
COPY = r"""
extern "C" __global__ void copy(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i];
}
"""
N = 4 << 20  # 16 MiB of float32: a segment of its own, reused only by an exact fit
CYCLES = 200_000_000


@pytest.fixture
def cuda_only(device_name):
    if device_name != "cuda":
        pytest.skip("needs --device=cuda")
    gpupy.synchronize("cuda")
    _core.free_all_blocks("cuda")  # no cached block of N floats but the ones a test frees


def _pending():
    return _core.memory_stats("cuda")["pending_bytes"]


def _spin(stream=None):
    xp.CudaKernel(SPIN, "spin", check_signature=False)(CYCLES, n_threads=1, stream=stream)


def _check_reuse_waits_for(stream, ptr, nbytes):
    """The block at `ptr`, freed while `stream` is busy, is not handed out again before it."""
    other = gpupy.full(N, -1.0, dtype=np.float32, device="cuda")  # on the default stream
    assert other._data_ptr != ptr
    assert _pending() >= nbytes
    stream.synchronize()
    again = gpupy.empty(N, dtype=np.float32, device="cuda")
    assert again._data_ptr == ptr  # back in circulation once the stream is done
    assert _pending() == 0
    return other


def test_a_block_read_on_another_stream_is_not_reused_before_that_stream_is_done(cuda_only):
    host = np.arange(N, dtype=np.float32)
    x = gpupy.asarray(host, device="cuda")  # allocated on the default stream
    s = gpupy.cuda.Stream()
    with s:
        _spin()
        y = x * 2  # queued on s behind the spin
    ptr = x._data_ptr
    del x
    other = _check_reuse_waits_for(s, ptr, 4 * N)
    np.testing.assert_array_equal(gpupy.asnumpy(y), host * 2)
    np.testing.assert_array_equal(gpupy.asnumpy(other), np.full(N, -1.0, np.float32))


def test_a_block_used_only_on_its_own_stream_is_reused_at_once(cuda_only):
    x = gpupy.ones(N, dtype=np.float32, device="cuda")
    y = x + 1
    ptr = x._data_ptr
    del x
    assert _pending() == 0
    assert gpupy.empty(N, dtype=np.float32, device="cuda")._data_ptr == ptr
    np.testing.assert_array_equal(gpupy.asnumpy(y), np.full(N, 2.0, np.float32))


def test_a_cuda_kernel_launch_on_an_explicit_stream_counts_as_a_use(cuda_only):
    host = np.arange(N, dtype=np.float32)
    x = gpupy.asarray(host, device="cuda")
    y = gpupy.empty(N, dtype=np.float32, device="cuda")
    s = gpupy.cuda.Stream()
    _spin(s)
    xp.CudaKernel(COPY, "copy", check_signature=False)(x, y, N, n_threads=N, stream=s)
    ptr = x._data_ptr
    del x
    _check_reuse_waits_for(s, ptr, 4 * N)
    np.testing.assert_array_equal(gpupy.asnumpy(y), host)


def test_a_launch_on_another_stream_waits_for_the_current_streams_work(kernel_device):
    # gpupy's streams are non-blocking: the launch on s must first wait for the `x += 1` queued
    # behind a spin on the current stream, or the copy reads the zeros (emu runs in order).
    x = gpupy.zeros(N, dtype=np.float32, device=kernel_device)
    y = gpupy.empty(N, dtype=np.float32, device=kernel_device)
    on_cuda = kernel_device == "cuda"
    if on_cuda:
        gpupy.synchronize("cuda")
        _spin()  # the current stream is busy for about 0.1 s
    x += 1
    s = gpupy.cuda.Stream() if on_cuda else None
    xp.CudaKernel(COPY, "copy", check_signature=False)(x, y, N, n_threads=N, stream=s)
    if on_cuda:
        s.synchronize()  # only s: the current stream's later work is not what is checked
    np.testing.assert_array_equal(gpupy.asnumpy(y), np.ones(N, np.float32))


def test_a_stream_block_waits_for_the_work_queued_before_it(cuda_only):
    # Entering `with s:` makes s wait for the current stream's queued work (`x += 1` behind a
    # spin), or `x * 2` on s reads the zeros.
    x = gpupy.zeros(N, dtype=np.float32, device="cuda")
    _spin()  # the current stream is busy for about 0.1 s
    x += 1
    with gpupy.cuda.Stream():
        y = (x * 2).get()  # read on the block's stream
    np.testing.assert_array_equal(y, np.full(N, 2.0, np.float32))


@pytest.mark.parametrize("as_handle", [False, True])
def test_record_stream_keeps_memory_until_the_stream_is_done(cuda_only, as_handle):
    x = gpupy.ones(N, dtype=np.float32, device="cuda")
    s = gpupy.cuda.Stream()
    _spin(s)  # stands for another library's work on x on its own stream
    gpupy.cuda.record_stream(x, s.handle if as_handle else s)
    ptr = x._data_ptr
    del x
    _check_reuse_waits_for(s, ptr, 4 * N)


def test_dlpack_export_to_a_consumer_stream_counts_as_a_use(cuda_only):
    x = gpupy.ones(N, dtype=np.float32, device="cuda")
    s = gpupy.cuda.Stream()
    _spin(s)
    capsule = x.__dlpack__(stream=s.handle)
    ptr = x._data_ptr
    del x, capsule  # the consumer let go; its queued work on s has not run yet
    _check_reuse_waits_for(s, ptr, 4 * N)


def test_uses_on_a_destroyed_stream_are_forgotten(cuda_only):
    host = np.arange(N, dtype=np.float32)
    x = gpupy.asarray(host, device="cuda")
    s = gpupy.cuda.Stream()
    with s:
        y = x * 2
    del s  # waits for its work: nothing left to wait for when x is freed
    ptr = x._data_ptr
    del x
    assert _pending() == 0
    assert gpupy.empty(N, dtype=np.float32, device="cuda")._data_ptr == ptr
    np.testing.assert_array_equal(gpupy.asnumpy(y), host * 2)


def test_free_all_blocks_waits_for_pending_blocks(cuda_only):
    x = gpupy.ones(N, dtype=np.float32, device="cuda")
    s = gpupy.cuda.Stream()
    _spin(s)
    gpupy.cuda.record_stream(x, s)
    del x
    assert _pending() == 4 * N
    _core.free_all_blocks("cuda")
    assert _pending() == 0
    stats = _core.memory_stats("cuda")
    assert stats["total_bytes"] >= stats["used_bytes"]


# ---- the API on every device ----


@pytest.mark.parametrize("stream", [0, 1, 2])
def test_record_stream_accepts_handles_and_frees_normally(stream):
    before = gpupy.memory_stats()["used_bytes"]
    a = gpupy.arange(1000, dtype=np.float32)
    gpupy.cuda.record_stream(a, stream)
    np.testing.assert_array_equal(gpupy.asnumpy(a), np.arange(1000, dtype=np.float32))
    del a
    gpupy.synchronize()
    assert gpupy.memory_stats()["used_bytes"] == before


def test_record_stream_is_a_no_op_off_cuda(device_name):
    if device_name == "cuda":
        pytest.skip("cuda memory is tracked (see the tests above)")
    a = gpupy.ones(1 << 16, dtype=np.float64)
    gpupy.cuda.record_stream(a, 1)
    del a
    assert gpupy.memory_stats()["pending_bytes"] == 0


@pytest.mark.parametrize(
    ("array", "stream", "error"),
    [
        (np.ones(3), 1, TypeError),
        ([1.0, 2.0], 1, TypeError),
        (None, "s", TypeError),
        (None, 1.0, TypeError),
        (None, True, TypeError),
        (None, -1, ValueError),
        (None, 1 << 64, ValueError),
    ],
)
def test_record_stream_rejects_bad_arguments(array, stream, error):
    a = gpupy.ones(3) if array is None else array
    with pytest.raises(error, match=r"\[record_stream\]"):
        gpupy.cuda.record_stream(a, stream)


def test_memory_stats_report_pending_bytes(device_name):
    keep = gpupy.ones(1000)
    stats = gpupy.memory_stats()
    if device_name != "cuda":
        assert stats["pending_bytes"] == 0  # nothing is held back off cuda
    assert stats["used_bytes"] >= keep.nbytes
    assert stats["total_bytes"] >= stats["used_bytes"] + stats["pending_bytes"]


def test_record_stream_refuses_a_stream_of_another_device(cuda_only):
    if gpupy.cuda.device_count() < 2:
        pytest.skip("needs two cuda devices")
    x = gpupy.ones(4, device="cuda:0")
    with pytest.raises(ValueError, match=r"\[record_stream\] the stream is on cuda:1"):
        gpupy.cuda.record_stream(x, gpupy.cuda.Stream(device=1))
