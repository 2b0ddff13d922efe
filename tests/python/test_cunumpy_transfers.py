"""gpupy.cunumpy transfer accounting: counters, reports, assert_no_transfers, TransferBudget,
and the copies the facade's conversions record."""

import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import profiling


@pytest.fixture
def gpu(device_name):
    """The gpupy backend on a device whose arrays are device arrays."""
    if device_name == "cpu":
        pytest.skip("device arrays need --device=emu or cuda")
    with xp.use_backend("gpupy"):
        yield


def test_no_counter_no_events_and_nesting():
    assert not profiling._active
    with xp.count_transfers() as outer:
        profiling.record("to_host", "a", 8)
        with xp.count_transfers() as inner:
            profiling.record("fallback", "b")
        with xp.count_transfers(into=outer) as same:
            assert same is outer
            profiling.record("sync", "c")
    assert not profiling._active
    assert (outer.to_host, outer.fallbacks, outer.syncs, outer.total) == (1, 1, 1, 2)
    assert inner.total == 1 and outer.bytes_to_host == 8
    assert outer.events[0].where.startswith(__file__)


def test_counter_removed_when_block_raises():
    with pytest.raises(KeyError), xp.count_transfers():
        raise KeyError
    assert not profiling._active


def test_report_groups_repeated_events():
    with xp.count_transfers() as c:
        for _ in range(2):
            profiling.record("to_device", "to_gpupy(list)", 24)
        profiling.record("to_host", "x", 8, blocking=False, implicit=True)
    lines = c.report().splitlines()
    assert lines[0] == (
        "3 transfer(s) through cunumpy (1 to_host, 2 to_device, 0 kernel_conversion, "
        "0 fallback, 0 device_copy, 0 sync)"
    )
    assert lines[1] == "  to_host (1):" and lines[2].endswith(": x [async] [implicit]")
    assert lines[3] == "  to_device (2):" and lines[4].endswith(": to_gpupy(list) (x2)")
    e = c.events[0]
    assert str(e) == f"{e.where}: to_device: to_gpupy(list)"
    with pytest.raises(ValueError, match="unknown transfer kind"):
        c.count("upload")


def test_assert_no_transfers():
    with xp.assert_no_transfers():
        profiling.record("device_copy", "astype")
        profiling.record("sync", "synchronize()")
    with pytest.raises(AssertionError, match="must not transfer:\n1 transfer"):
        with xp.assert_no_transfers():
            profiling.record("to_host", "x", 8)
    with pytest.raises(AssertionError), xp.assert_no_transfers(syncs=True):
        profiling.record("sync", "synchronize()")
    with pytest.raises(ZeroDivisionError), xp.assert_no_transfers():
        profiling.record("to_host", "x", 8)
        1 / 0  # noqa: B018 - the block's own exception wins


def test_decorator_form():
    @xp.assert_no_transfers()
    def clean():
        return 3

    assert clean() == 3 and clean() == 3


def test_transfer_budget_phases_and_limits():
    budget = xp.TransferBudget()
    try:
        with budget.phase("setup"):
            profiling.record("to_device", "x", 800)
        for _ in range(3):
            with budget.phase("step"), budget.phase("step"):
                profiling.record("sync", "s")
        with budget.phase("out"), budget.phase("inner"):
            profiling.record("to_host", "e", 8)
    finally:
        budget.stop()
    assert budget.calls == {"setup": 1, "step": 3, "out": 1, "inner": 1}
    assert budget["out"].total == 0 and budget["inner"].to_host == 1
    budget.require("step", calls=3).require("setup", {"to_device": {"max_nbytes": 1024}})
    budget.check()
    budget.require("inner", {"to_host": {"max_nbytes": 4}})
    budget.require("setup")
    assert len(budget.violations()) == 2
    with pytest.raises(AssertionError, match="transfer budget exceeded"):
        budget.check()
    with pytest.raises(ValueError, match="unknown limit"):
        budget.require("x", {"to_host": {"max_bytes": 1}})
    with pytest.raises(ValueError, match="unknown transfer kind"):
        budget.require("x", {"upload": 1})


def test_facade_conversions_are_recorded(gpu):
    h = numpy.arange(6.0)
    with xp.count_transfers() as c:
        d = xp.to_cunumpy(h)
        xp.to_numpy(d)
        assert xp.as_device_array(d, numpy.float64) is d
        xp.as_device_array([1.0, 2.0])
        xp.as_device_array(d, numpy.float32)
        xp.to_numpy(h)
    kinds = [(e.kind, e.description, e.nbytes) for e in c.events]
    assert kinds == [
        ("to_device", "to_gpupy(shape=(6,), dtype=float64)", 48),
        ("to_host", "to_numpy(shape=(6,), dtype=float64)", 48),
        ("to_device", "as_device_array(list)", 16),
        ("device_copy", "as_device_array(shape=(6,), dtype=float64)", 24),
    ]
    with xp.assert_no_transfers():
        xp.synchronize()


def test_timed_region_and_nvtx():
    with xp.timed_region("step") as t, xp.nvtx_range("inner"):
        pass
    assert t.name == "step" and t.elapsed >= 0.0
    with pytest.raises(KeyError), xp.timed_region("bad") as t2:
        raise KeyError
    assert t2.elapsed is not None
