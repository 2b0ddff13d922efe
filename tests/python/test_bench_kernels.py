"""The kernel-layer benchmarks of python -m gpupy.bench run and check their results (the launch
case against NumPy, the particle pusher's gpupy backend against its NumPy backend)."""

import gpupy
from gpupy.bench import kernels


def test_launch_times(kernel_device):
    t = kernels.launch_times(gpupy.Device(kernel_device), use_cupy=False)
    assert set(t) == {"launch", "prepare_args"}
    assert 0 < t["prepare_args"] < t["launch"]


def test_pusher_times(kernel_device):
    t = kernels.pusher_times(
        gpupy.Device(kernel_device), 2000, 2
    )  # raises when the backends' field energies differ
    assert set(t) == {"numpy", "gpupy", "host"} and min(t["numpy"], t["gpupy"]) > 0
    assert t["host"] in ("Numba", "Python loops")


def test_kernel_device_for_cpu():
    assert str(kernels.kernel_device(gpupy.Device("cpu"))) == "emu"
