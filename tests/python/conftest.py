"""Runs the whole suite on the device given by --device=cpu|emu|cuda (default cpu)."""

import gpupy
import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--device",
        default="cpu",
        choices=["cpu", "emu", "cuda"],
        help="gpupy device every test runs on",
    )


def _device_unavailable(name):
    if name == "cuda":
        ok, reason = gpupy._core.cuda_is_available()
        return None if ok else f"no usable CUDA device: {reason}"
    if name == "emu":
        try:
            gpupy.zeros(1, device="emu")
        except NotImplementedError as exc:
            return str(exc)
    return None


@pytest.fixture(scope="session")
def device_name(request):
    name = request.config.getoption("--device")
    reason = _device_unavailable(name)
    if reason:
        pytest.skip(reason)
    return name


@pytest.fixture
def kernel_device(device_name):
    """The device CudaKernel launches run on (emu, or cuda with a GPU); other devices skip."""
    if device_name not in ("emu", "cuda"):
        pytest.skip("CudaKernel launches need --device=emu or --device=cuda")
    return device_name


@pytest.fixture(autouse=True)
def _on_device(device_name):
    """Makes the chosen device the default for the test, so xp.asarray(...) lands there."""
    with gpupy.Device(device_name):
        yield
