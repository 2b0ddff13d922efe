"""The particle-pusher example (examples/particle_pusher): replays the five porting steps of its
README on copies of its kernel folder, on the NumPy backend and on the gpupy backend (emu without
a GPU), and checks that the backends agree."""

import inspect
import pathlib
import shutil
import sys

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import kernel_testing as kt
from kernel_packages import gpu_backend

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "particle_pusher"
sys.path.insert(0, str(EXAMPLE))

from pic.kernels import catalog, make_catalog  # noqa: E402
from pic.simulation import Simulation  # noqa: E402

N = 10_000
DT = 0.1


gpu = gpu_backend  # the gpupy backend on emu (or cuda)


def _kernels_at_step(tmp_path, ported, missing_cuda="fallback"):
    """A copy of the example's kernel folder in which only `ported` kernels have a .cu file."""
    pkg = f"pic_kernels_{'_'.join(ported) or 'none'}_{missing_cuda}"
    shutil.copytree(EXAMPLE / "pic" / "kernels", tmp_path / pkg)
    for cu in (tmp_path / pkg).glob("*/*_cuda.cu"):
        if cu.parent.name not in ported:
            cu.unlink()
    sys.path.insert(0, str(tmp_path))
    try:
        return make_catalog(pkg, missing_cuda=missing_cuda)
    finally:
        sys.path.remove(str(tmp_path))


def _run(kernels, steps=3):
    sim = Simulation(N, catalog=kernels)
    energies = []
    for _ in range(steps):
        sim.step(DT)
        energies.append(sim.field_energy())
    return sim, energies


def _state(sim):
    return [xp.to_numpy(a) for a in (sim.x, sim.v, sim.e)]


@pytest.fixture(scope="module")
def reference():
    """The host run on NumPy: the result every step of the port must reproduce."""
    with xp.use_backend("numpy"):
        sim, energies = _run(catalog)
        return _state(sim), energies


def _assert_matches(reference, sim, energies):
    for got, want in zip(_state(sim), reference[0], strict=True):
        numpy.testing.assert_allclose(got, want, rtol=1e-9, atol=1e-12)
    numpy.testing.assert_allclose(energies, reference[1], rtol=1e-9)


def test_step1_host_kernels_on_the_gpu_backend(tmp_path, gpu, reference):
    kernels = _kernels_at_step(tmp_path, ())
    assert kernels.summary() == "CUDA kernels: 0 of 3 (missing: accelerate, deposit, push)"
    sim = Simulation(N, catalog=kernels)
    with pytest.warns(RuntimeWarning, match="No CUDA version"), xp.count_transfers() as c:
        sim.step(DT)
    assert (c.kernel_conversions, c.fallbacks) == (3, 3)
    # deposit: x, rho down, rho up; accelerate: x, v, e down, v up; push: x, v down, x up.
    assert (c.to_host, c.to_device) == (7, 3)
    for _ in range(2):
        sim.step(DT)
    sim2, energies = _run(kernels)
    _assert_matches(reference, sim2, energies)


def test_step2_push_ported(tmp_path, gpu, reference):
    kernels = _kernels_at_step(tmp_path, ("push",))
    assert kernels.summary() == "CUDA kernels: 1 of 3 (missing: accelerate, deposit)"
    sim = Simulation(N, catalog=kernels)
    with pytest.warns(RuntimeWarning), xp.count_transfers() as c:
        sim.step(DT)
    assert (c.kernel_conversions, c.fallbacks) == (2, 2)
    _assert_matches(reference, *_run(kernels))


@pytest.mark.parametrize("kernel", kt.parity_cases(catalog))
def test_step3_parity(kernel):
    kt.check_parity(kernel)


def test_step4_a_time_step_stays_on_the_device(gpu, reference):
    sim = Simulation(N, catalog=catalog)
    sim.step(DT)  # warm-up: compiles the CUDA kernels
    with xp.assert_no_transfers():
        sim.step(DT)
    sim.step(DT)
    assert catalog.summary() == "CUDA kernels: 3 of 3"
    _assert_matches(reference, *_run(catalog))


def test_step5_missing_cuda_raises(tmp_path, gpu):
    kernels = _kernels_at_step(tmp_path, ("push", "deposit"), missing_cuda="raise")
    assert kernels.compile_all(jobs=2) == ["deposit", "push"]
    with pytest.raises(NotImplementedError, match="No CUDA version of kernel 'accelerate'"):
        kernels["accelerate"].get_kernel()
    catalog.check_signatures()


def test_host_only_run_has_no_transfers(reference):
    with xp.use_backend("numpy"), xp.assert_no_transfers():
        sim, energies = _run(catalog)
    _assert_matches(reference, sim, energies)
    assert energies[-1] > 0.0


def _script(backend):
    import json
    import os
    import subprocess

    env = dict(os.environ, CUNUMPY_BACKEND=backend, GPUPY_DEVICE="emu")
    # The script must import the gpupy under test (installed or PYTHONPATH=python), not the tree.
    gpupy_root = pathlib.Path(gpupy.__file__).resolve().parents[1]
    env["PYTHONPATH"] = os.pathsep.join([str(gpupy_root), *sys.path])
    cmd = [sys.executable, str(EXAMPLE / "run.py"), "--particles", "5000", "--steps", "6"]
    out = subprocess.run(cmd + ["--every", "3"], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


def test_script_agrees_across_backends():
    if not kt.device_backend_available():
        pytest.skip("no device runs CUDA kernels")
    host, device = _script("numpy"), _script("gpupy")
    assert (host["backend"], device["backend"]) == ("numpy", "gpupy")
    numpy.testing.assert_allclose(device["field_energy"], host["field_energy"], rtol=1e-9)


@pytest.mark.parametrize("compiler", ["numba", "pyccel"])
def test_compiled_host_kernels_agree(compiler, reference):
    from pic.kernels import compile_with_numba

    if compiler == "numba":
        pytest.importorskip("numba")
        compile_host = compile_with_numba
    else:
        from host_compilers import compile_host_with_pyccel as compile_host

        pytest.importorskip("pyccel")
    kernels = make_catalog(compile_host=compile_host)
    with xp.use_backend("numpy"):
        sim, energies = _run(kernels)
    assert all(k.selected() == "pyccel" for k in kernels.values())  # the compiled slot
    assert not any(inspect.isfunction(k.host_kernel.kernel.build()) for k in kernels.values())
    _assert_matches(reference, sim, energies)
