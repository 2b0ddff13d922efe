"""xp.kernels.fuse (spec section 5): a plain call on NumPy and gpupy arrays, cupy.fuse with CuPy
arrays. No CuPy here: its path is checked with a stand-in `cupy` module that records the calls."""

import contextlib
import sys
import types

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import _fuse


def pressure(rho, temperature, gamma):
    return (gamma - 1.0) * rho * xp.exp(temperature)


def test_fuse_calls_the_function_on_numpy_and_gpupy_arrays():
    fused = xp.kernels.fuse(pressure)
    assert fused.__name__ == "pressure" and fused.__wrapped__ is pressure
    rho, t = numpy.linspace(1, 2, 7), numpy.linspace(0, 1, 7)
    want = (5 / 3 - 1.0) * rho * numpy.exp(t)
    numpy.testing.assert_array_equal(fused(rho, t, 5 / 3), want)
    with xp.use_backend("gpupy"):
        got = fused(gpupy.asarray(rho), gpupy.asarray(t), gamma=5 / 3)
        assert isinstance(got, gpupy.ndarray)
        numpy.testing.assert_allclose(gpupy.asnumpy(got), want, rtol=1e-15)
    assert xp.kernels.fuse(kernel_name="p")(pressure)(2.0, 0.0, 3.0) == 4.0
    with pytest.raises(TypeError, match=r"\[fuse\] expected a function, got int"):
        xp.kernels.fuse(3)


class FakeCupyArray:
    def __init__(self, data):
        self.data = numpy.asarray(data)
        self.dtype = self.data.dtype


@pytest.fixture
def fake_cupy(monkeypatch):
    """A `cupy` module whose fuse records (function, kernel_name) and each call's arguments."""
    calls = []

    def fuse(kernel_name=None):
        def make(function):
            calls.append(("fuse", function, kernel_name))

            def run(*args, **kwargs):
                calls.append(("call", args, kwargs))
                return function(*(a.data if isinstance(a, FakeCupyArray) else a for a in args))

            return run

        return make

    module = types.SimpleNamespace(ndarray=FakeCupyArray, fuse=fuse)
    monkeypatch.setitem(sys.modules, "cupy", module)
    monkeypatch.setattr(_fuse, "_on_cupy", contextlib.nullcontext)
    return calls


def test_fuse_hands_cupy_arrays_to_cupy_fuse_once(fake_cupy):
    fused = xp.kernels.fuse(pressure)
    rho = FakeCupyArray(numpy.ones(3, numpy.float32))
    t = FakeCupyArray(numpy.zeros(3, numpy.float32))
    out = fused(rho, t, 5 / 3)
    fused(rho, t, 2)
    assert [c[0] for c in fake_cupy] == ["fuse", "call", "call"]
    assert fake_cupy[0][1:] == (pressure, "pressure")
    # Python scalars arrive typed as they promote next to float32 arrays
    gamma = fake_cupy[1][1][2]
    assert type(gamma) is numpy.float32 and gamma == numpy.float32(5 / 3)
    assert type(fake_cupy[2][1][2]) is numpy.float32
    numpy.testing.assert_allclose(out, numpy.float32(5 / 3) - 1.0)
    # NumPy arguments never reach cupy.fuse, and a named kernel keeps its name
    fused(numpy.ones(2), numpy.zeros(2), 2.0)
    assert len(fake_cupy) == 3
    xp.kernels.fuse(kernel_name="eos")(pressure)(rho, t, 2.0)
    assert fake_cupy[3][0] == "fuse" and fake_cupy[3][2] == "eos"
