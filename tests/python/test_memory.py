"""Repetition test: a mixed workload run 100 times leaves the pool's used bytes at baseline."""

import gc

import gpupy
import numpy as np


def _workload(i):
    a = gpupy.asarray(np.arange(1000, dtype=np.float64) + i)
    b = gpupy.full((10, 100), 2.0, dtype="float32")
    c = gpupy.add(a.reshape(10, 100) if _has_reshape() else a, 1)
    out = gpupy.empty_like(c)
    gpupy.multiply(c, 3, out=out)
    out += 1
    d = gpupy.sqrt(gpupy.abs(out))
    e = (d > 2) & (d < 100)
    f = b.astype("complex64") * 1j
    g = gpupy.zeros_like(a) + gpupy.ones(1000, dtype="int8")
    gpupy.arange(0, 50).get()
    gpupy.linspace(0, 1, 33)
    gpupy.eye(5, dtype="int32")
    h = a.to_device(a.device)
    try:
        gpupy.add(a, gpupy.ones(3))
    except ValueError:
        pass
    for row in gpupy.ones((3, 2)):
        row.tolist()
    np.asarray(g) if g.device.type == "cpu" else g.get()
    return float(e.get().sum()) + float(f.get().imag.sum()) + float(h.get()[0])


def _has_reshape():
    try:
        gpupy.ones(4).reshape(2, 2)
        return True
    except (NotImplementedError, AttributeError):
        return False


def test_repeated_workload_does_not_leak():
    _workload(0)
    gc.collect()
    baseline = gpupy.memory_stats()["used_bytes"]
    for i in range(100):
        _workload(i)
    gc.collect()
    assert gpupy.memory_stats()["used_bytes"] == baseline


def test_arrays_release_memory_when_dropped():
    gc.collect()
    before = gpupy.memory_stats()["used_bytes"]
    a = gpupy.empty(1 << 20, dtype="uint8")
    assert gpupy.memory_stats()["used_bytes"] >= before + (1 << 20)
    del a
    gc.collect()
    assert gpupy.memory_stats()["used_bytes"] == before
