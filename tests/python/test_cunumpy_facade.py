"""gpupy.cunumpy's backend facade: selection, namespace copying and conversions."""

import subprocess
import sys

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp


@pytest.fixture(autouse=True)
def _restore_backend():
    before = xp.get_backend()
    yield
    xp.set_backend(before)


def test_default_backend_is_numpy_and_names_resolve_to_numpy():
    xp.set_backend("numpy")
    assert xp.get_backend() == "numpy" and xp.numpy_backend and not xp.gpupy_backend
    assert xp.sum is numpy.sum and xp.float64 is numpy.float64
    assert xp.get_array_module(numpy.zeros(2)) is numpy


def test_gpupy_backend_swaps_the_namespace():
    with xp.use_backend("gpupy"):
        assert xp.get_backend() == "gpupy" and xp.gpupy_backend
        assert xp.zeros is gpupy.zeros
        a = xp.arange(4)
        assert isinstance(a, gpupy.ndarray)
        numpy.testing.assert_array_equal(xp.to_numpy(a), numpy.arange(4))
    assert xp.get_backend() == "numpy" and xp.zeros is numpy.zeros


def test_own_names_are_never_overwritten():
    for name in ("set_backend", "to_numpy", "synchronize", "CudaKernel"):
        before = getattr(xp, name)
        with xp.use_backend("gpupy"):
            assert getattr(xp, name) is before


def test_use_backend_restores_on_exception():
    with pytest.raises(KeyError), xp.use_backend("gpupy"):
        raise KeyError
    assert xp.get_backend() == "numpy"


def test_invalid_and_unavailable_backends():
    with pytest.raises(ValueError):
        xp.set_backend("torch")
    assert xp.get_backend() == "numpy"
    if not xp.cupy_available():
        xp.set_backend("cupy")
        assert xp.get_backend() == "numpy"
        with pytest.raises(RuntimeError, match="Cannot select the CuPy backend"):
            xp.set_backend("cupy", strict=True)
        with pytest.raises(ImportError):
            xp.to_cupy(numpy.zeros(2))


def test_conversions_and_predicates(device_name):
    h = numpy.arange(6.0).reshape(2, 3)
    assert xp.to_numpy(h) is h
    g = xp.to_gpupy(h)
    assert isinstance(g, gpupy.ndarray) and str(g.device) == device_name
    assert xp.get_array_backend(g) == "gpupy" and xp.get_array_module(h, g) is gpupy
    assert xp.is_gpu(g) == (device_name != "cpu") and xp.is_cpu(h)
    numpy.testing.assert_array_equal(xp.to_numpy(g), h)
    with pytest.raises(RuntimeError):
        xp.as_device_array(h)
    with xp.use_backend("gpupy"):
        numpy.testing.assert_array_equal(xp.to_numpy(xp.to_cunumpy(h)), h)
        d = xp.as_device_array(h, numpy.float64, 2)
        assert d.flags.c_contiguous and d.dtype == numpy.float64
        assert xp.as_device_array(d, numpy.float64) is d or device_name == "cpu"
        with pytest.raises(ValueError):
            xp.as_device_array(h, ndim=1, name="x")
        xp.synchronize()


def test_backend_info_is_json_compatible():
    import json

    for backend in ("numpy", "gpupy"):
        with xp.use_backend(backend):
            info = xp.backend_info()
            json.dumps(info)
            assert info["backend"] == backend
            assert info["versions"]["cunumpy"] == "0.1.0"
            assert info["versions"]["numpy"] == numpy.__version__


def test_environment_selects_backend_at_import():
    code = "from gpupy import cunumpy as xp; print(xp.get_backend())"
    env = {"CUNUMPY_BACKEND": "GPUPY", "PYTHONPATH": ":".join(sys.path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "gpupy", out.stderr
