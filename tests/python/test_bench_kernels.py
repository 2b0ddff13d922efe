"""The kernel-layer benchmarks of python -m gpupy.bench run and check their results (the launch
case against NumPy, the particle pusher's gpupy backend against its NumPy backend)."""

import gpupy
import pytest
from gpupy.bench import kernels


@pytest.fixture
def emu(device_name):
    if device_name not in ("emu", "cuda"):
        pytest.skip("CudaKernel launches need --device=emu or --device=cuda")
    return gpupy.Device(device_name)


def test_launch_times(emu):
    t = kernels.launch_times(emu, use_cupy=False)
    assert set(t) == {"launch", "prepare_args"}
    assert 0 < t["prepare_args"] < t["launch"]


def test_pusher_times(emu):
    t = kernels.pusher_times(emu, 2000, 2)  # raises when the backends' field energies differ
    assert set(t) == {"numpy", "gpupy", "host"} and min(t["numpy"], t["gpupy"]) > 0
    assert t["host"] in ("Numba", "Python loops")


def test_kernel_device_for_cpu():
    assert str(kernels.kernel_device(gpupy.Device("cpu"))) == "emu"
