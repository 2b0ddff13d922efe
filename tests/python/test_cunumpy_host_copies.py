"""gpupy.cunumpy.to_host_async / memory.HostCopy and memory.HostStaging / StagedCopy (spec
section 5): values against NumPy, ready()/result(), stale buffers, producer stream=/event=, and
the transfer accounting, on the numpy backend and on the gpupy backend of the --device under
test (cpu: host arrays, emu: copies made at once, cuda: side stream into pinned memory)."""

import types

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp


@pytest.fixture
def on_gpupy(device_name):
    with xp.use_backend("gpupy"):
        yield device_name


class CountingEvent:
    """A producer event from another library: the host path must wait for it exactly once."""

    def __init__(self):
        self.waits = 0

    def synchronize(self):
        self.waits += 1


# to_host_async


def test_host_arrays_are_copied_at_once_on_the_numpy_backend():
    a = numpy.arange(6.0).reshape(2, 3)
    with xp.count_transfers() as c:
        copy = xp.to_host_async(a)
    a[...] = -1.0  # the copy is taken at the call
    assert copy.ready() and c.total == 0
    numpy.testing.assert_array_equal(copy.result(), numpy.arange(6.0).reshape(2, 3))
    scalar = xp.to_host_async(numpy.float32(2.5)).result()
    assert type(scalar) is numpy.float32 and scalar == 2.5


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool", "complex128"])
def test_device_values_match_numpy(on_gpupy, dtype):
    ref = (numpy.arange(12) % 5 - 2).astype(dtype).reshape(3, 4)
    a = gpupy.asarray(ref)
    with xp.count_transfers() as c:
        copy = xp.to_host_async(a)
    result = copy.result()
    assert isinstance(result, numpy.ndarray) and result.dtype == numpy.dtype(dtype)
    numpy.testing.assert_array_equal(result, ref)
    assert copy.ready() and copy.result() is result  # result() can be asked again
    if on_gpupy == "cpu":
        assert c.total == 0  # cpu arrays are host arrays: nothing crosses
    else:
        [event] = c.events
        assert (event.kind, event.nbytes, event.blocking) == ("to_host", ref.nbytes, False)
        assert event.label == f"to_host_async(shape=(3, 4), dtype={dtype}) [async]"


def test_zero_d_gives_a_numpy_scalar_and_views_work(on_gpupy):
    a = gpupy.asarray(numpy.arange(10.0))
    total = xp.to_host_async(a.sum()).result()
    assert isinstance(total, numpy.float64) and total == 45.0
    strided = xp.to_host_async(a[::3]).result()
    numpy.testing.assert_array_equal(strided, [0.0, 3.0, 6.0, 9.0])


def test_the_value_is_taken_when_the_copy_is_started(on_gpupy):
    a = gpupy.asarray(numpy.array([1.0, 2.0, 3.0]))
    copy = xp.to_host_async(a)
    a[...] = 0.0  # queued after the copy: must not reach it
    b = a + 1.0
    numpy.testing.assert_array_equal(copy.result(), [1.0, 2.0, 3.0])
    numpy.testing.assert_array_equal(xp.to_host_async(b).result(), [1.0, 1.0, 1.0])


class _Event:
    """A cuda event stand-in: done unless the test holds the copies in flight."""

    def __init__(self, done):
        self.done = done

    def query(self):
        return self.done

    def synchronize(self):
        self.done = True


@pytest.fixture
def cuda_path(monkeypatch):
    """to_host_async's cuda path on cpu arrays, the device stood in for: streams and events are
    recorded, the copy is made at once, pinned_empty counts its allocations."""
    from gpupy.cunumpy import host_copies

    state = types.SimpleNamespace(allocations=0, in_flight=False, events=[])

    class Stream:
        def __init__(self, device=None):
            pass

        def wait(self, event):
            pass

        def record(self):
            state.events.append(_Event(done=not state.in_flight))
            return state.events[-1]

    def pinned_empty(shape, dtype):
        state.allocations += 1
        return numpy.empty(shape, dtype)

    def copy_async(source, host, stream):
        host[...] = gpupy.asnumpy(source)

    monkeypatch.setattr(host_copies, "_kind", lambda a: "cuda")
    monkeypatch.setattr(host_copies, "_copy_async", copy_async)
    monkeypatch.setattr(host_copies, "_side_streams", {})
    monkeypatch.setattr(host_copies, "_pinned", host_copies._PinnedBuffers())
    monkeypatch.setattr(gpupy.cuda, "Stream", Stream)
    monkeypatch.setattr(gpupy.cuda, "current_stream", lambda index: Stream())
    monkeypatch.setattr(gpupy.cuda, "pinned_empty", pinned_empty)
    return state


def test_cuda_copies_reuse_their_pinned_buffers(cuda_path):
    """Allocating or freeing pinned memory synchronizes a CUDA device: a loop of to_host_async
    calls must not allocate a pinned buffer per call, and results must not change when a later
    copy reuses the buffer."""
    steps = [numpy.arange(4.0) * k for k in range(5)]
    results = [xp.to_host_async(gpupy.asarray(ref, device="cpu")).result() for ref in steps]
    assert cuda_path.allocations == 1
    for got, ref in zip(results, steps, strict=True):
        numpy.testing.assert_array_equal(got, ref)
    scalar = xp.to_host_async(gpupy.asarray(2.5, device="cpu")).result()
    assert type(scalar) is numpy.float64 and scalar == 2.5 and cuda_path.allocations == 2
    # a copy dropped while in flight keeps its buffer until its event is done
    cuda_path.in_flight = True
    a = gpupy.asarray(numpy.arange(4.0) + 10, device="cpu")
    dropped = xp.to_host_async(a)
    assert not dropped.ready() and cuda_path.allocations == 2
    del dropped
    pending = xp.to_host_async(a)
    assert cuda_path.allocations == 3
    cuda_path.events[-2].done = True  # the dropped copy has finished
    numpy.testing.assert_array_equal(pending.result(), numpy.arange(4.0) + 10)
    numpy.testing.assert_array_equal(xp.to_host_async(a).result(), numpy.arange(4.0) + 10)
    assert cuda_path.allocations == 3


# HostStaging


def test_staging_arguments_are_checked():
    with pytest.raises(ValueError, match=r"\[HostStaging\] buffers must be at least 1"):
        xp.memory.HostStaging((2,), "float64", buffers=0)
    with pytest.raises(ValueError, match="negative dimension"):
        xp.memory.HostStaging((2, -1), "float64")
    with pytest.raises(TypeError, match="object arrays"):
        xp.memory.HostStaging(3, object)
    with pytest.raises(TypeError, match=r"\[HostStaging\] shape must be an integer or a seq"):
        xp.memory.HostStaging(2.0, "float64")
    with pytest.raises(TypeError, match=r"\[HostStaging\] data type 'nope' not understood"):
        xp.memory.HostStaging(2, "nope")
    with pytest.raises(ValueError, match=r"\[HostStaging\] shape \(4611686018427387904, 4\)"):
        xp.memory.HostStaging((2**62, 4), "uint8")
    assert xp.memory.HostStaging((numpy.int32(2), 3), "f8").shape == (2, 3)
    s = xp.memory.HostStaging(4, "f4", buffers=3)
    assert (s.shape, s.dtype, s.buffers) == ((4,), numpy.float32, 3)
    assert repr(s) == "HostStaging(shape=(4,), dtype=float32, buffers=3)"
    with pytest.raises(ValueError, match=r"holds \(4,\) float32, got an array of shape \(5,\)"):
        s.copy(numpy.zeros(5, numpy.float32))
    with pytest.raises(ValueError, match="dtype float64"):
        s.copy(numpy.zeros(4))
    with pytest.raises(TypeError, match="expected an array, got list"):
        s.copy([1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match="pass stream or event, not both"):
        s.copy(numpy.zeros(4, "f4"), stream=xp.cuda.HostStream(), event=xp.cuda.HostEvent())
    with pytest.raises(
        TypeError,
        match=r"stream must be a stream or an event \(an object with .*got int",
    ):
        s.copy(numpy.zeros(4, "f4"), stream=7)


@pytest.mark.parametrize("buffers", [1, 2, 3])
def test_buffers_rotate_and_stale_copies_raise(on_gpupy, buffers):
    staging = xp.memory.HostStaging((2, 3), numpy.float64, buffers=buffers)
    steps = [numpy.full((2, 3), float(k)) + numpy.arange(6.0).reshape(2, 3) for k in range(7)]
    copies = []
    for k, ref in enumerate(steps):
        copies.append(staging.copy(gpupy.asarray(ref)))
        # the newest `buffers` copies are valid and hold their own step's values
        for j in range(max(0, k - buffers + 1), k + 1):
            numpy.testing.assert_array_equal(copies[j].result(), steps[j])
        if k >= buffers:
            stale = copies[k - buffers]
            with pytest.raises(RuntimeError, match="host buffer was reused by a later"):
                stale.result()
            with pytest.raises(RuntimeError, match="host buffer was reused by a later"):
                stale.ready()


def test_results_are_snapshots_and_sync_waits_for_all(on_gpupy):
    a = gpupy.asarray(numpy.arange(4.0))
    staging = xp.memory.HostStaging(4, numpy.float64)
    first = staging.copy(a)
    a += 10.0  # later work on the source does not change the copy
    second = staging.copy(a)
    staging.synchronize()
    assert first.ready() and second.ready()
    numpy.testing.assert_array_equal(first.result(), [0.0, 1.0, 2.0, 3.0])
    numpy.testing.assert_array_equal(second.result(), [10.0, 11.0, 12.0, 13.0])


def test_staging_transfers_are_counted_for_device_arrays_only(on_gpupy):
    staging = xp.memory.HostStaging((5,), numpy.int32)
    with xp.count_transfers() as c:
        staging.copy(gpupy.asarray(numpy.arange(5, dtype=numpy.int32)))
        staging.copy(numpy.arange(5, dtype=numpy.int32))  # a host array: no transfer
    if on_gpupy == "cpu":
        assert c.total == 0
    else:
        [event] = c.events
        assert (event.kind, event.nbytes, event.blocking) == ("to_host", 20, False)
        assert event.description == "HostStaging.copy(shape=(5,), dtype=int32)"


def test_host_producers_are_waited_for_before_the_copy(on_gpupy):
    staging = xp.memory.HostStaging(3, numpy.float64)
    if on_gpupy == "cuda":
        with pytest.raises(TypeError, match="a HostEvent cannot order a copy from cuda"):
            staging.copy(gpupy.ones(3), event=xp.cuda.HostEvent())
        return
    event = CountingEvent()
    copy = staging.copy(gpupy.ones(3), event=event)
    assert event.waits == 1
    numpy.testing.assert_array_equal(copy.result(), numpy.ones(3))
    stream = xp.cuda.HostStream()
    numpy.testing.assert_array_equal(staging.copy(gpupy.zeros(3), stream=stream).result(), 0.0)


def test_numpy_backend_uses_the_same_code():
    staging = xp.memory.HostStaging(3, numpy.int64, buffers=2)
    a = numpy.array([1, 2, 3])
    first = staging.copy(a, event=xp.cuda.record_event())
    a[0] = 100
    second = staging.copy(a, stream=xp.cuda.create_stream())
    assert first.ready() and second.ready()
    assert first.result().tolist() == [1, 2, 3] and second.result().tolist() == [100, 2, 3]


def test_cuda_producers_order_the_snapshot(device_name):
    if device_name != "cuda":
        pytest.skip("cuda streams and events need --device=cuda")
    with xp.use_backend("gpupy"):
        staging = xp.memory.HostStaging(1 << 20, numpy.float32)
        producer = gpupy.cuda.Stream()
        with producer:
            a = gpupy.arange(1 << 20, dtype=gpupy.float32) * 2
        copy = staging.copy(a, stream=producer)
        numpy.testing.assert_array_equal(copy.result(), numpy.arange(1 << 20, dtype="f4") * 2)
        with producer:
            b = a + 1
        done = producer.record()
        numpy.testing.assert_array_equal(staging.copy(b, event=done).result(), xp.to_numpy(b))
        with pytest.raises(TypeError, match="HostStream cannot order"):
            staging.copy(a, stream=xp.cuda.HostStream())
