"""Writes small kernel packages in the catalog layout (name/name_kernels.py, name/name_cuda.cu,
name/name_test_args.py) into a temporary folder and imports them; plus the fixture that runs a
test on the gpupy backend."""

import itertools
import sys

import pytest
from gpupy.cunumpy import kernel_testing as kt

_ids = itertools.count()

SCALE_HOST = """
def scale(x: "float[:]", f: float, n: int):
    for i in range(n):
        x[i] = f * x[i]
"""
SCALE_CUDA = """
__global__ void scale(double* x, double f, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) x[i] = f * x[i];
}
"""
SCALE_WRONG_CUDA = SCALE_CUDA.replace("f * x[i]", "f * x[i] + 1e-3")
SCALE_ARGS = """
import numpy
from gpupy import cunumpy as xp

N_THREADS = 1000


def make_args(backend, seed):
    x = numpy.random.default_rng(seed).random(1000)
    return xp.to_cunumpy(x), 2.5, 1000
"""
SHIFT_HOST = """
def shift(x, s, n):
    for i in range(n):
        x[i] += s
"""
SWAP_HOST = "def swap(x, n, dt):\n    pass\n"
SWAP_CUDA = "__global__ void swap(double* x, double dt, long long n) {}\n"


def write_package(root, kernels):
    """kernels: {name: {suffix: text}}; returns the new package's dotted name."""
    pkg = f"kpkg_{next(_ids)}"
    base = root / pkg
    base.mkdir()
    (base / "__init__.py").write_text("")
    for name, files in kernels.items():
        d = base / name
        d.mkdir()
        (d / "__init__.py").write_text("")
        for suffix, text in files.items():
            (d / f"{name}{suffix}").write_text(text)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    return pkg


def standard(root, scale_cuda=SCALE_CUDA):
    """scale (ported, with test args), shift (host only)."""
    return write_package(
        root,
        {
            "scale": {
                "_kernels.py": SCALE_HOST,
                "_cuda.cu": scale_cuda,
                "_test_args.py": SCALE_ARGS,
            },
            "shift": {"_kernels.py": SHIFT_HOST},
            "notes": {"readme.txt": "not a kernel"},
        },
    )


@pytest.fixture
def gpu_backend():
    """The gpupy backend on the device CUDA kernels run on (emu without a GPU)."""
    if not kt.device_backend_available():
        pytest.skip("no device runs CUDA kernels")
    with kt.on_backend("gpupy"):
        yield


@pytest.fixture
def on_gpupy(device_name):
    """The gpupy backend on the test's --device; yields whether arrays there are device memory
    (emu, cuda) rather than host memory (cpu)."""
    from gpupy import cunumpy as xp

    with xp.use_backend("gpupy"):
        yield device_name != "cpu"
