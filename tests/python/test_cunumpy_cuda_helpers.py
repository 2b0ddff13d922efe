"""The xp.cuda device helpers of spec section 5 (device selection, memory, streams and events with
their HostStream/HostEvent stand-ins), NVTX ranges on the gpupy backend (2.11), and the CUDA
driver and runtime versions in gpupy.cuda and backend_info (1.1)."""

import os
import re
import shutil
import subprocess
import sys
import threading
import time

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import _mpi_serial, cuda_devices


@pytest.fixture(params=["numpy", "gpupy"])
def backend(request, device_name):
    """Each backend; on gpupy, arrays live on the --device under test."""
    with xp.use_backend(request.param):
        yield request.param


def _on_cuda(backend):
    return backend == "gpupy" and gpupy._core.default_device().type == "cuda"


# HostStream / HostEvent


def test_host_events_time_the_host_and_are_always_done():
    start, end = xp.cuda.HostEvent(), xp.cuda.HostEvent()
    assert start.done and start.query() and start.synchronize() is None
    with pytest.raises(RuntimeError, match=r"\[elapsed_time\] both events must be recorded"):
        start.elapsed_time(end)
    stream = xp.cuda.HostStream()
    assert stream.record(start) is start
    time.sleep(0.02)
    end.record()
    assert 20.0 <= start.elapsed_time(end) < 2000.0
    with pytest.raises(TypeError, match="end must be a HostEvent"):
        start.elapsed_time(object())
    with pytest.raises(TypeError, match="recorded on HostStreams, got int"):
        start.record(3)


def test_host_stream_waits_on_the_host():
    stream = xp.cuda.HostStream()
    with stream as s:
        assert s is stream and stream.done and stream.query() and stream.ptr == 0
    foreign = _CountingEvent()
    stream.wait_event(foreign)
    stream.wait(xp.cuda.HostEvent())
    assert foreign.waits == 1
    with pytest.raises(TypeError, match=r"\[wait_event\] expected an event, got str"):
        stream.wait_event("event")
    with pytest.raises(TypeError, match="a HostStream records HostEvents"):
        stream.record(_CountingEvent())


class _CountingEvent:
    def __init__(self):
        self.waits = 0

    def synchronize(self):
        self.waits += 1


def test_streams_and_events_follow_the_backend(backend):
    s, e = xp.cuda.create_stream(), xp.cuda.create_event()
    if _on_cuda(backend):
        assert isinstance(s, gpupy.cuda.Stream) and isinstance(e, gpupy.cuda.Event)
    else:
        assert isinstance(s, xp.cuda.HostStream) and isinstance(e, xp.cuda.HostEvent)
    assert xp.cuda.record_event(e, s) is e
    recorded = xp.cuda.record_event()
    assert type(recorded) is type(e)
    xp.cuda.wait_event(recorded, s)
    xp.cuda.wait_event(recorded)
    e.synchronize()
    with xp.cuda.stream() as inside:
        if _on_cuda(backend):
            assert gpupy.cuda.current_stream() == inside
        else:
            assert inside is None
    with xp.cuda.stream(s) as inside:
        assert inside is s


def test_host_and_cuda_streams_do_not_mix(backend):
    if _on_cuda(backend):
        with pytest.raises(TypeError, match=r"\[wait_event\] a HostEvent cannot order work"):
            xp.cuda.wait_event(xp.cuda.HostEvent())
        with pytest.raises(TypeError, match=r"\[stream\] a HostStream cannot order work"):
            with xp.cuda.stream(xp.cuda.HostStream()):
                pass
        return
    with pytest.raises(TypeError, match=r"\[stream\] host events are recorded on HostStreams"):
        with xp.cuda.stream(object()):
            pass
    with pytest.raises(TypeError, match=r"\[record_event\] host events are recorded on"):
        xp.cuda.record_event(stream="stream")
    foreign = _CountingEvent()  # a CUDA event seen from host execution: the host waits for it
    xp.cuda.wait_event(foreign)
    assert foreign.waits == 1


# devices


@pytest.fixture
def selected(monkeypatch):
    """The devices set_device selects on gpupy, recorded instead of changing the process default
    (which would outlive the test)."""
    calls = []
    monkeypatch.setattr(gpupy, "set_default_device", calls.append)
    return calls


def test_device_count_and_selection(backend, selected):
    assert xp.cuda.device_count() == gpupy.cuda.device_count()
    for bad, error in ((1.0, TypeError), (True, TypeError), (-1, ValueError)):
        with pytest.raises(error, match=r"\[set_device\] device_id must be"):
            xp.cuda.set_device(bad)
    with pytest.raises(ValueError, match="devices_per_node must be at least 1"):
        xp.cuda.set_device_for_rank(3, devices_per_node=0)
    with pytest.raises(ValueError, match=r"\[set_device_for_rank\] rank must be non-negative"):
        xp.cuda.set_device_for_rank(-2)
    if not _on_cuda(backend):
        xp.cuda.set_device(5)  # no CUDA device in use: nothing to select
        assert xp.cuda.set_device_for_rank(7, devices_per_node=3) == 1
        assert xp.cuda.bind_local_device() is None and selected == []
        return
    count = xp.cuda.device_count()
    with pytest.raises(ValueError, match="out of range"):
        xp.cuda.set_device(count)
    assert xp.cuda.set_device_for_rank(2 * count + 1) == 1 % count
    assert selected == [f"cuda:{1 % count}"]


def test_bind_local_device_reads_the_local_rank_of_xp_mpi(monkeypatch):
    # one rule for the node-local rank: xp.mpi's (its cases are in test_cunumpy_mpi.py); the
    # binding itself runs here with a stand-in for four CUDA devices, so no GPU is needed
    assert cuda_devices.local_rank is xp.mpi.local_rank
    for name in _mpi_serial._LOCAL_RANK_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    chosen, synced = [], []
    monkeypatch.setattr(cuda_devices, "_cuda_target", lambda: ("gpupy", 0))
    monkeypatch.setattr(cuda_devices, "device_count", lambda: 4)
    monkeypatch.setattr(cuda_devices, "set_device", chosen.append)
    monkeypatch.setattr(gpupy, "synchronize", synced.append)
    assert xp.cuda.bind_local_device() == 0
    monkeypatch.setenv("SLURM_LOCALID", " 6 ")
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "x")  # unparsable: the next one counts
    assert xp.cuda.bind_local_device() == 6 % 4
    assert chosen == [0, 2] and synced == ["cuda:0", "cuda:2"]


def test_bind_local_device_uses_the_local_rank(monkeypatch, device_name, selected):
    if device_name != "cuda":
        pytest.skip("binding needs --device=cuda")
    for name in _mpi_serial._LOCAL_RANK_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LOCAL_RANK", "3")
    with xp.use_backend("gpupy"):
        count = xp.cuda.device_count()
        assert xp.cuda.bind_local_device() == 3 % count
        assert selected == [f"cuda:{3 % count}"]


# memory


def test_memory_info_and_free_memory(backend):
    info = xp.cuda.memory_info()
    if _on_cuda(backend):
        free, total = info
        assert 0 < free <= total == gpupy.cuda.get_device_properties(0)["total_memory"]
    else:
        assert info is None
    device = gpupy._core.default_device()
    a = gpupy.zeros(1 << 18, device=device)
    del a
    cached = gpupy.memory_stats(device)
    xp.cuda.free_memory()
    after = gpupy.memory_stats(device)
    if backend == "gpupy":
        assert cached["total_bytes"] >= (1 << 21) and after["total_bytes"] == after["used_bytes"]
    else:
        assert after == cached  # the numpy backend leaves gpupy's pools alone


def test_pin_memory(backend):
    host = numpy.arange(12, dtype=numpy.int16).reshape(3, 4)[:, ::2]
    pinned = xp.cuda.pin_memory(host)
    assert isinstance(pinned, numpy.ndarray) and pinned.dtype == numpy.int16
    numpy.testing.assert_array_equal(pinned, host)
    assert not numpy.shares_memory(pinned, host)
    with pytest.raises(TypeError, match="object arrays"):
        xp.cuda.pin_memory(numpy.array([None]))
    if gpupy._core.default_device().type != "cpu":
        with pytest.raises(TypeError, match=r"\[pin_memory\] expected a host array"):
            xp.cuda.pin_memory(gpupy.zeros(3))
    on_cpu = gpupy.asarray(host, device="cpu")  # host memory too, whatever the default device
    pinned = xp.cuda.pin_memory(on_cpu)
    assert isinstance(pinned, numpy.ndarray) and pinned.dtype == numpy.int16
    numpy.testing.assert_array_equal(pinned, host)


def test_max_shared_memory_per_block(backend):
    limit = xp.cuda.max_shared_memory_per_block
    device = gpupy._core.default_device()
    if backend == "gpupy" and device.type == "emu":
        assert (limit(), limit(opt_in=True)) == (48 * 1024, 227 * 1024)
    elif gpupy.cuda.is_available():
        props = gpupy.cuda.get_device_properties(0)
        assert limit(0) == props["max_shared_memory_per_block"] <= limit(0, opt_in=True)
    else:
        assert limit() == limit(opt_in=True) == xp.cuda.DEFAULT_SHARED_MEMORY_PER_BLOCK == 49152
    if not gpupy.cuda.is_available():
        assert limit(3) == 49152  # no such CUDA device: the limit every device grants
    with pytest.raises(ValueError, match="device must be non-negative"):
        limit(-1)


def test_is_hip_and_forwarding(backend):
    assert xp.cuda.is_hip() is False
    if backend == "gpupy":
        assert xp.cuda.Stream is gpupy.cuda.Stream  # other names still reach gpupy.cuda


# NVTX (2.11)


def test_nvtx_is_a_no_op_off_cuda(backend, monkeypatch):
    calls = []
    monkeypatch.setattr(gpupy._core, "_nvtx_push", lambda *a: calls.append(a), raising=True)
    with xp.nvtx_range("step"):
        pass
    assert calls == [] or _on_cuda(backend)


def test_nvtx_ranges_nest_on_a_cuda_device(monkeypatch):
    """The range bookkeeping on the gpupy backend, with the cuda device and NVTX stood in for."""
    calls = []

    class CudaDevice:
        type = "cuda"

    monkeypatch.setattr(gpupy._core, "default_device", lambda: CudaDevice())
    monkeypatch.setattr(gpupy._core, "_nvtx_push", lambda name, argb: calls.append((name, argb)))
    monkeypatch.setattr(gpupy._core, "_nvtx_pop", lambda: calls.append("pop"))
    with xp.use_backend("gpupy"):
        with xp.nvtx_range("outer", color=0xFF76B900):
            with pytest.raises(ZeroDivisionError):
                with xp.nvtx_range("inner"):
                    raise ZeroDivisionError

        @xp.nvtx_range("decorated")
        def f(x):
            return x + 1

        assert f(1) == 2
    assert calls == [
        ("outer", 0xFF76B900),
        ("inner", 0),
        "pop",
        "pop",
        ("decorated", 0),
        "pop",
    ]


def test_nvtx_ranges_are_per_thread(monkeypatch):
    """gpupy's default device is per thread: a thread on a cuda device opens a range while another
    on the cpu opens none; each exit must close only what its own thread opened, on that thread
    (the thread order below interleaves the two ranges)."""
    local = threading.local()

    class Device:
        def __init__(self, kind):
            self.type = kind

    calls = []
    monkeypatch.setattr(gpupy._core, "default_device", lambda: Device(local.kind))

    def push(name, argb):
        calls.append((threading.current_thread().name, "push", name))

    def pop():
        calls.append((threading.current_thread().name, "pop"))

    monkeypatch.setattr(gpupy._core, "_nvtx_push", push)
    monkeypatch.setattr(gpupy._core, "_nvtx_pop", pop)
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()

    def on_cuda():
        local.kind = "cuda"
        with xp.nvtx_range("a"):
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def on_cpu():
        local.kind = "cpu"
        a_in.wait(5)
        with xp.nvtx_range("b"):
            b_in.set()
            a_out.wait(5)

    with xp.use_backend("gpupy"):
        threads = [threading.Thread(target=on_cuda, name="A"), threading.Thread(target=on_cpu)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
    assert calls == [("A", "push", "a"), ("A", "pop")]


def test_nvtx_color_is_checked():
    with pytest.raises(TypeError, match=r"\[nvtx_range\] color must be an int, got str"):
        xp.nvtx_range("x", color="green")
    with pytest.raises(ValueError, match="not a 32-bit ARGB value"):
        xp.nvtx_range("x", color=-1)


def test_nvtx_on_a_real_cuda_device(device_name):
    if device_name != "cuda":
        pytest.skip("needs --device=cuda")
    with xp.use_backend("gpupy"), xp.nvtx_range("real", color=0xFF0000FF):
        a = gpupy.ones(4) * 2  # without a profiler the push and pop must simply not fail
    assert float(a.sum()) == 8.0


# versions (1.1)


def _run(code, **env):
    root = os.path.dirname(os.path.dirname(os.path.abspath(gpupy.__file__)))
    full = dict(os.environ, PYTHONPATH=os.pathsep.join([root, *sys.path]), **env)
    out = subprocess.run([sys.executable, "-c", code], env=full, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


_VERSION = "import gpupy; print(gpupy.cuda.driver_version(), gpupy._core.cuda_driver_version()[1])"


def test_runtime_version_is_the_toolkit_gpupy_was_built_with():
    version = gpupy.cuda.runtime_version()
    if not gpupy.cuda.is_built():
        assert version is None
        return
    header = "/usr/local/cuda/include/cuda_runtime_api.h"
    if not os.path.exists(header):
        assert version >= 11000
        return
    with open(header) as f:
        built = int(re.search(r"#define CUDART_VERSION\s+(\d+)", f.read()).group(1))
    assert version == built


def test_driver_version_without_a_driver():
    out = _run(_VERSION, GPUPY_LIBCUDA_PATH="/nonexistent/libcuda.so.1")
    assert out.startswith("None no CUDA driver: cannot load /nonexistent/libcuda.so.1")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("*v = 12080; return 0;", "12080 "),
        (
            "*v = 99; return 34;",
            "None cuDriverGetVersion failed: CUDA driver error 34 (this libcuda",
        ),
    ],
)
def test_driver_version_is_read_from_libcuda(tmp_path, body, expected):
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.skip("no C compiler for the stand-in driver")
    source = tmp_path / "fake_cuda.c"
    source.write_text(f"int cuDriverGetVersion(int* v) {{ {body} }}\n")
    lib = tmp_path / "libcuda.so.1"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(lib), str(source)], check=True)
    assert _run(_VERSION, GPUPY_LIBCUDA_PATH=str(lib)).startswith(expected.strip())


def test_backend_info_reports_the_versions():
    info = xp.backend_info()
    if gpupy.cuda.is_available():
        device = info["device"]
        assert device["driver_version"] == gpupy.cuda.driver_version() >= 11000
        assert device["runtime_version"] == gpupy.cuda.runtime_version()
        assert device["driver_version"] // 1000 >= device["runtime_version"] // 1000
    else:
        assert info["device"] is None and info["cuda_unavailable_reason"]


def test_pinned_empty_and_memory_info_of_gpupy_cuda():
    with pytest.raises(ValueError, match=r"\[pinned_empty\] negative dimension"):
        gpupy.cuda.pinned_empty((2, -1))
    with pytest.raises(TypeError, match=r"\[pinned_empty\] object arrays"):
        gpupy.cuda.pinned_empty(3, object)
    with pytest.raises(TypeError, match=r"\[pinned_empty\] shape must be an integer or a seq"):
        gpupy.cuda.pinned_empty(3.0)
    with pytest.raises(TypeError, match=r"\[pinned_empty\] data type 'nope' not understood"):
        gpupy.cuda.pinned_empty(3, "nope")
    with pytest.raises(ValueError, match=r"\[pinned_empty\] shape \(4611686018427387904, 4\) of"):
        gpupy.cuda.pinned_empty((2**62, 4), numpy.uint8)  # no wrap-around to a small buffer
    if not gpupy.cuda.is_available():
        expected = gpupy.cuda.CudaError if gpupy.cuda.is_built() else NotImplementedError
        for shape in (4, numpy.int64(4), (numpy.int32(2), 2)):  # NumPy integers are shapes too
            with pytest.raises(expected, match=r"^\[(pinned_empty|cuda)\] "):
                gpupy.cuda.pinned_empty(shape)
        with pytest.raises(expected, match=r"^\[cuda\] "):
            gpupy.cuda.memory_info()
        return
    assert gpupy.cuda.pinned_empty(numpy.int64(4)).shape == (4,)
    a = gpupy.cuda.pinned_empty((3, 5), numpy.complex64)
    assert (a.shape, a.dtype, a.flags.c_contiguous, a.flags.writeable) == (
        (3, 5),
        numpy.complex64,
        True,
        True,
    )
    a[...] = numpy.arange(15).reshape(3, 5) * (1 + 2j)
    numpy.testing.assert_array_equal(gpupy.asnumpy(gpupy.asarray(a)), a)
    free, total = gpupy.cuda.memory_info()
    assert 0 < free <= total


def test_max_shared_memory_per_block_of_a_device_that_does_not_exist(backend, monkeypatch):
    from gpupy.cunumpy import cuda_devices

    monkeypatch.setattr(cuda_devices, "device_count", lambda: 2)
    with pytest.raises(ValueError, match=r"^\[max_shared_memory_per_block\] there is no CUDA de"):
        xp.cuda.max_shared_memory_per_block(5)
