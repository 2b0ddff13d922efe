"""Devices from Python: parsing, the default device and its scopes, moves, gpupy.cuda."""

import gpupy
import numpy as np
import pytest
from gpupy import testing


def test_device_parsing():
    assert str(gpupy.Device("cpu")) == "cpu"
    assert gpupy.Device("cuda:1").index == 1 and gpupy.Device("cuda:1").type == "cuda"
    assert gpupy.Device("emu").type == "emu"
    assert gpupy.Device("cpu") == "cpu" and gpupy.Device("cpu") != gpupy.Device("emu")
    assert repr(gpupy.Device("cpu")) == "Device('cpu')"
    assert len({gpupy.Device("cpu"), gpupy.Device("cpu")}) == 1
    for bad in ["gpu", "cuda:x", ""]:
        with pytest.raises(ValueError):
            gpupy.Device(bad)
    with pytest.raises(TypeError):
        gpupy.Device(3.5)


def test_scoped_default_device():
    outer = gpupy.get_default_device()
    with gpupy.Device("cpu") as d:
        assert d == gpupy.Device("cpu")
        assert gpupy.get_default_device() == gpupy.Device("cpu")
        assert gpupy.zeros(2).device == gpupy.Device("cpu")
    assert gpupy.get_default_device() == outer


def test_set_default_device_is_overridden_by_scopes():
    before = gpupy.get_default_device()
    gpupy.set_default_device("cpu")
    try:
        with gpupy.Device(before):
            assert gpupy.get_default_device() == before
    finally:
        gpupy.set_default_device(before)


def test_arrays_report_their_device():
    a = gpupy.asarray(np.arange(3))
    assert isinstance(a.device, gpupy.Device)
    assert a.device == gpupy.get_default_device()


def test_mixed_device_operands_raise():
    try:
        e = gpupy.ones(2, device="emu")
    except NotImplementedError:
        pytest.skip("emu device not built")
    c = gpupy.ones(2, device="cpu")
    with pytest.raises(ValueError, match="different devices"):
        e + c


@pytest.mark.parametrize("target", ["cpu", "emu"])
def test_to_device_round_trip(target):
    n = np.arange(10, dtype=np.float32).reshape(2, 5)
    a = gpupy.asarray(n)
    try:
        b = a.to_device(target)
    except NotImplementedError:
        pytest.skip(f"{target} device not built")
    assert b.device == gpupy.Device(target)
    testing.assert_same(n, b)
    testing.assert_same(n, b.to_device(a.device))


def test_cuda_module():
    assert isinstance(gpupy.cuda.is_built(), bool)
    available = gpupy.cuda.is_available()
    assert isinstance(available, bool)
    if available:
        assert gpupy.cuda.device_count() >= 1 and gpupy.cuda.unavailable_reason() is None
    else:
        assert gpupy.cuda.device_count() == 0
        assert isinstance(gpupy.cuda.unavailable_reason(), str) and gpupy.cuda.unavailable_reason()
    assert issubclass(gpupy.cuda.CudaError, RuntimeError)


def test_cuda_unavailable_raises_cleanly():
    if gpupy.cuda.is_available():
        pytest.skip("CUDA is available here")
    with pytest.raises((NotImplementedError, RuntimeError)):
        gpupy.zeros(2, device="cuda")


def test_gpupy_device_environment_variable():
    import os
    import pathlib
    import subprocess
    import sys

    env = dict(os.environ, GPUPY_DEVICE="cpu")
    env["PYTHONPATH"] = str(pathlib.Path(gpupy.__file__).parents[1])
    code = "import gpupy; print(gpupy.get_default_device(), gpupy.zeros(1).device)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cpu", "cpu"]
