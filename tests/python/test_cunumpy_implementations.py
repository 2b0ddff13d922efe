"""Host implementations of a kernel folder (pyccel, numba, numpy, python) and the process-wide
host/device implementation settings."""

import os
import subprocess
import sys

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from kernel_packages import SCALE_HOST, write_package

SCALE_NUMBA = SCALE_HOST.replace("def scale", "import numba\n\n\n@numba.njit\ndef scale")
SCALE_NUMPY = "def scale(x, f, n):\n    x[:n] *= f\n"


def test_folder_variants_and_selection(tmp_path):
    pytest.importorskip("numba")
    files = {"_kernels.py": SCALE_HOST, "_numba.py": SCALE_NUMBA, "_numpy.py": SCALE_NUMPY}
    broken_host = SCALE_HOST.replace("def scale", "def broken")
    broken = {"_kernels.py": broken_host, "_numba.py": "raise ImportError('no numba here')\n"}
    pkg = write_package(tmp_path, {"scale": files, "broken": broken})

    def compile_fails(module):
        raise RuntimeError("no compiler")

    catalog = xp.KernelCatalog.from_package(pkg, compile_host=compile_fails)
    k = catalog["scale"]
    assert k.implementations == ("pyccel", "numba", "numpy", "python")
    assert k.selected() == "numba"  # pyccel failed to build: the next one in order
    assert "no compiler" in str(k.host_kernel.kernel.errors["pyccel"])
    x = numpy.ones(3)
    k(x, 2.0, 3)
    assert (x == 2.0).all()
    with xp.use_host_kernel_implementation("numpy"):
        assert k.selected() == "numpy"
        k(x, 2.0, 3)
        with pytest.raises(LookupError, match="the 'numba' implementation failed to load"):
            xp.set_host_kernel_implementation("numba")
            catalog["broken"].selected()
    assert xp.get_host_kernel_implementation() is None and (x == 4.0).all()
    with pytest.warns(RuntimeWarning, match="no compiled host implementation"):
        assert catalog["broken"].selected() == "python"
    with pytest.raises(LookupError, match="has no 'numpy' implementation"):
        catalog["broken"].host_kernel.kernel.get("numpy")
    with pytest.raises(ValueError, match="kernel implementation must be one of"):
        xp.set_host_kernel_implementation("fortran")
    with pytest.raises(ValueError, match="needs a 'python' implementation"):
        xp.HostImplementations("k", {"numba": lambda: None})


def test_device_pin_turns_fallback_into_lookup_error(device_name):
    if device_name == "cpu":
        pytest.skip("device arrays need --device=emu or cuda")
    k = xp.Kernel(lambda x: None, name="k", missing_cuda="fallback")
    with xp.use_backend("gpupy"), xp.use_device_kernel_implementation("cuda"):
        assert xp.get_device_kernel_implementation() == "cuda"
        with pytest.raises(LookupError, match="kernel 'k' has no 'cuda' implementation"):
            k(gpupy.zeros(1))
    assert xp.get_device_kernel_implementation() is None


def test_environment_is_read_at_import():
    env = dict(os.environ, CUNUMPY_HOST_KERNEL_IMPLEMENTATION=" Numba ")
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    code = "from gpupy import cunumpy as xp; print(xp.get_host_kernel_implementation())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "numba", out.stderr
    env["CUNUMPY_DEVICE_KERNEL_IMPLEMENTATION"] = "metal"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode != 0 and "kernel implementation must be one of" in out.stderr


def test_check_signature_covers_host_variants(tmp_path):
    bad_numpy = "def scale(x, n, f):\n    x[:n] *= f\n"
    pkg = write_package(tmp_path, {"scale": {"_kernels.py": SCALE_HOST, "_numpy.py": bad_numpy}})
    k = xp.Kernel.from_folder(f"{pkg}.scale")
    with pytest.raises(ValueError, match=r"takes \(x, f, n\), the numpy version \(x, n, f\)"):
        k.check_signature()
