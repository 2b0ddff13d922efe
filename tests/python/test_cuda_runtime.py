"""The CUDA runtime layer: import without a driver, availability, streams, events and
__cuda_array_interface__ (the cuda-only checks run with --device=cuda)."""

import gpupy
import numpy as np
import pytest
from gpupy import _core


def test_cuda_is_available_reports_a_reason():
    ok, reason = _core.cuda_is_available()
    assert isinstance(ok, bool)
    assert isinstance(reason, str)
    if not ok:
        assert reason
        assert _core.cuda_device_count() == 0
    else:
        assert _core.cuda_device_count() >= 1


def test_stream_api_raises_without_cuda():
    if _core.cuda_is_available()[0]:
        pytest.skip("a CUDA device is available")
    with pytest.raises((NotImplementedError, gpupy.CudaError)):
        _core.Stream()
    with pytest.raises((NotImplementedError, gpupy.CudaError)):
        _core.Event()
    with pytest.raises((NotImplementedError, gpupy.CudaError)):
        _core.cuda_device_properties(0)


def test_tf32_flag_round_trips():
    before = _core.cuda_allow_tf32()
    try:
        _core.cuda_set_allow_tf32(True)
        assert _core.cuda_allow_tf32() is True
    finally:
        _core.cuda_set_allow_tf32(before)
    assert _core.cuda_allow_tf32() is before


def test_cuda_array_interface_absent_on_host_arrays():
    a = gpupy.asarray(np.arange(4.0), device="cpu")
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError):
        a.__cuda_array_interface__  # noqa: B018


@pytest.fixture
def cuda_only(device_name):
    if device_name != "cuda":
        pytest.skip("needs --device=cuda")


def test_cuda_array_interface_fields(cuda_only):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = gpupy.asarray(host, device="cuda")
    cai = a.__cuda_array_interface__
    assert cai["version"] == 3
    assert cai["shape"] == (3, 4)
    assert cai["typestr"] == "<f4"
    assert cai["strides"] is None
    assert cai["data"][0] == a._data_ptr and cai["data"][1] is False
    assert cai["stream"] not in (0, None)


def test_device_properties(cuda_only):
    p = _core.cuda_device_properties(0)
    assert p["warp_size"] == 32
    assert p["total_memory"] > 0
    assert len(p["compute_capability"]) == 2


def test_stream_and_event_timing(cuda_only):
    s = _core.Stream()
    start, end = _core.Event(), _core.Event()
    with s:
        assert _core.current_stream().handle == s.handle
        start.record()
        gpupy.asarray(np.ones(1 << 20, dtype=np.float32), device="cuda")
        end.record()
    assert _core.current_stream().handle != s.handle
    end.synchronize()
    assert end.query() and s.query() in (True, False)
    assert start.elapsed_time(end) >= 0.0


@pytest.mark.parametrize("n", [0, 1, 1000, 16 * 1024 + 3, (4 << 20) * 3 // 8 * 3 + 17])
def test_host_device_round_trip(cuda_only, n):
    # The largest size spans several 4 MiB staging chunks and ends in a partial one.
    host = np.random.default_rng(n).random(n).astype(np.float64)
    a = gpupy.asarray(host, device="cuda")
    np.testing.assert_array_equal(gpupy.asnumpy(a), host)


def test_round_trip_on_a_user_stream(cuda_only):
    host = np.arange(1 << 20, dtype=np.int32)
    with _core.Stream() as s:
        a = gpupy.asarray(host, device="cuda")
        assert a.__cuda_array_interface__["stream"] == s.handle
        np.testing.assert_array_equal(gpupy.asnumpy(a), host)


def test_pool_statistics_return_to_baseline(cuda_only):
    gpupy.synchronize("cuda")
    base = _core.memory_stats("cuda")["used_bytes"]
    for _ in range(100):
        arrays = [
            gpupy.asarray(np.ones(k, dtype=np.float32), device="cuda") for k in (1, 999, 3 << 18)
        ]
        assert _core.memory_stats("cuda")["used_bytes"] > base
        del arrays
    assert _core.memory_stats("cuda")["used_bytes"] == base
    _core.free_all_blocks("cuda")
    assert _core.memory_stats("cuda")["total_bytes"] >= _core.memory_stats("cuda")["used_bytes"]


def test_memory_limit_raises_memory_error_naming_the_size(cuda_only):
    _core.free_all_blocks("cuda")
    held = _core.memory_stats("cuda")["total_bytes"]
    _core.cuda_set_memory_limit("cuda", held + (64 << 20))
    try:
        with pytest.raises(MemoryError, match=str(256 << 20)):
            gpupy.empty(256 << 20, dtype=np.uint8, device="cuda")
    finally:
        _core.cuda_set_memory_limit("cuda", 0)
    assert _core.cuda_memory_limit("cuda") == 0
