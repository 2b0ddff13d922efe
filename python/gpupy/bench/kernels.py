"""Kernel-layer benchmarks of ``python -m gpupy.bench``: the cost of one CudaKernel launch (and of
its argument check and packing alone), beside CuPy's RawKernel where CuPy and a GPU are there;
and 100 particle-pusher steps (examples/particle_pusher) on the gpupy and NumPy backends."""

import os
import sys
import time

import numpy as np

import gpupy
from gpupy.bench._timer import measure

AXPBY = r"""
extern "C" __global__ void axpby(double* out, const double* x, double a, double b, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + b * out[i];
}
"""
N_LAUNCH = 1000
N_ARGS = 5


def kernel_device(device):
    """Where CUDA kernels run for `device`: itself, or emu for cpu (kernels do not run on cpu)."""
    return gpupy.Device("emu") if device.type == "cpu" else device


def launch_times(device, use_cupy):
    """{'launch': s, 'prepare_args': s[, 'cupy']: s} per call of axpby(out, x, a, b, n)."""
    from gpupy import cunumpy as xp

    kernel = xp.CudaKernel(AXPBY, "axpby")
    rng = np.random.default_rng(0)
    x_host, out_host = rng.random(N_LAUNCH), rng.random(N_LAUNCH)
    out = gpupy.asarray(out_host, device=device)
    x = gpupy.asarray(x_host, device=device)
    kernel(out, x, 0.5, 2.0, N_LAUNCH)  # compiles; checks the result once
    if not np.allclose(gpupy.asnumpy(out), 0.5 * x_host + 2.0 * out_host):
        raise RuntimeError("axpby gave a wrong result")
    sync = lambda: gpupy.synchronize(device)  # noqa: E731
    times = {
        "launch": measure(lambda: kernel(out, x, 0.5, 1.0, N_LAUNCH), sync=sync, min_time=0.3),
        "prepare_args": measure(lambda: kernel.prepare_args(out, x, 0.5, 1.0, N_LAUNCH)),
    }
    if use_cupy:
        import cupy

        raw = cupy.RawKernel(AXPBY, "axpby")
        c_out, c_x = cupy.asarray(out_host), cupy.asarray(x_host)
        grid, block = ((N_LAUNCH + 127) // 128,), (128,)
        args = (c_out, c_x, np.float64(0.5), np.float64(1.0), np.int64(N_LAUNCH))
        times["cupy"] = measure(
            lambda: raw(grid, block, args), sync=cupy.cuda.Device().synchronize, min_time=0.3
        )
    return times


def print_launch(device, use_cupy):
    kdev = kernel_device(device)
    print(f"CudaKernel launch, axpby(out, x, a, b, n) with n={N_LAUNCH:,}, on {kdev}:")
    try:
        t = launch_times(kdev, use_cupy)
    except (NotImplementedError, RuntimeError, ValueError) as exc:
        print(f"  n/a ({type(exc).__name__}: {exc})")
        return None
    for key, title in (
        ("launch", "launch (check, pack, run, sync)"),
        ("prepare_args", "argument check + pack only"),
        ("cupy", "CuPy RawKernel launch (no checks)"),
    ):
        if key in t:
            us = t[key] * 1e6
            print(f"  {title:36} {us:8.2f} us  {us / N_ARGS:6.2f} us/argument")
    return t


def _example_dir():
    """examples/particle_pusher of the source tree this gpupy runs from, else of the current
    directory or one of its parents (an installed gpupy run from its checkout), or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    roots = [os.path.join(here, "..", "..", "..")]
    cwd = os.path.abspath(os.getcwd())
    while True:  # the working directory and its parents (tests run from tests/python)
        roots.append(cwd)
        parent = os.path.dirname(cwd)
        if parent == cwd:
            break
        cwd = parent
    for root in roots:
        path = os.path.normpath(os.path.join(root, "examples", "particle_pusher"))
        if os.path.isdir(path):
            return path
    return None


def _host_compiler():
    """The fastest host-kernel compiler installed (Numba), so the numpy backend is timed as users
    run it; plain Python loops otherwise. Returns (compile_host or None, its name)."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return None, "Python loops"
    from pic.kernels import compile_with_numba

    return compile_with_numba, "Numba"


def pusher_times(device, n, steps):
    """Seconds for `steps` particle-pusher steps of n particles: {'numpy': s, 'gpupy': s}."""
    from gpupy import cunumpy as xp

    folder = _example_dir()
    if folder is None:
        raise RuntimeError("examples/particle_pusher is not next to this gpupy (installed copy)")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    from pic.kernels import make_catalog
    from pic.simulation import Simulation

    compile_host, host_name = _host_compiler()
    catalog = make_catalog(compile_host=compile_host) if compile_host else make_catalog()
    times, energies = {"host": host_name}, {}
    for backend in ("numpy", "gpupy"):
        with xp.use_backend(backend, strict=True), gpupy.Device(device):
            if backend != "numpy":
                catalog.compile_all()
            sim = Simulation(n, catalog=catalog)
            sim.step(0.0)  # compiles the host kernels / warms up outside the timed loop
            gpupy.synchronize(device)
            start = time.perf_counter()
            for _ in range(steps):
                sim.step(0.1)
            energies[backend] = sim.field_energy()  # copies one scalar: waits for the device
            times[backend] = time.perf_counter() - start
    if not np.isclose(energies["numpy"], energies["gpupy"], rtol=1e-6):
        raise RuntimeError(f"the backends disagree: field energy {energies}")
    return times


def print_pusher(device, quick):
    kdev = kernel_device(device)
    n, steps = (100_000, 10) if quick else (1_000_000, 100)
    print(f"particle pusher, {steps} steps of {n:,} particles (gpupy backend on {kdev}):")
    try:
        t = pusher_times(kdev, n, steps)
    except (NotImplementedError, RuntimeError, ValueError, ImportError) as exc:
        print(f"  n/a ({type(exc).__name__}: {exc})")
        return None
    print(
        f"  numpy (host kernels: {t['host']}) {t['numpy']:.3f} s   gpupy {t['gpupy']:.3f} s   "
        f"numpy/gpupy {t['numpy'] / t['gpupy']:.2f}x"
    )
    return t
