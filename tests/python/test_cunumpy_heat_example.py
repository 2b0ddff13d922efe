"""The portable-script example (examples/heat2d, spec section 4): the same array code on NumPy and
on gpupy (emu without a GPU), checked against the exact decay of a Fourier mode under the scheme,
heat conservation, and the one-upload, one-read-per-diagnostic transfer pattern."""

import math
import pathlib
import sys

import numpy
import pytest
from gpupy import cunumpy as xp
from kernel_packages import gpu_backend

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heat2d"))

import heat2d  # noqa: E402

gpu = gpu_backend  # the gpupy backend on emu (or cuda)
N, STEPS, EVERY = 32, 120, 40


def _mode(n, k):
    x = (numpy.arange(n) + 0.5) / n
    return numpy.repeat(numpy.sin(2 * math.pi * k * x)[:, None], n, axis=1)


@pytest.mark.parametrize("backend", ["numpy", "gpupy"])
def test_a_fourier_mode_decays_by_the_schemes_amplification_factor(backend, request):
    if backend == "gpupy":
        request.getfixturevalue("gpu")
    k = 3
    u, _ = heat2d.run(N, STEPS, EVERY, initial=_mode(N, k))
    # Explicit Euler, dt = 0.2 dx^2, 5-point Laplacian: each step multiplies the mode by g.
    g = 1.0 - 0.2 * 4.0 * math.sin(math.pi * k / N) ** 2
    numpy.testing.assert_allclose(xp.to_numpy(u), g**STEPS * _mode(N, k), rtol=1e-11, atol=1e-13)


def test_backends_agree_heat_is_conserved_and_the_loop_reads_only_diagnostics(gpu):
    with xp.count_transfers() as c:
        _, device = heat2d.run(N, STEPS, EVERY)
    assert (c.to_device, c.to_host) == (1, STEPS // EVERY)  # one upload, one read per diagnostic
    with xp.use_backend("numpy"):
        _, host = heat2d.run(N, STEPS, EVERY)
    numpy.testing.assert_allclose(numpy.array(device), numpy.array(host), rtol=1e-12)
    initial = heat2d.hot_spot(N).sum() / N**2
    steps, totals, peaks = zip(*host, strict=True)
    assert steps == (40, 80, 120)
    numpy.testing.assert_allclose(totals, initial, rtol=1e-12)
    assert peaks[0] > peaks[1] > peaks[2] > initial  # the hot spot spreads


def test_script_reports_its_backend(gpu):
    result = heat2d.main(["--n", "16", "--steps", "20", "--every", "10"])
    assert result["backend"] == "gpupy" and len(result["diagnostics"]) == 2
    assert result["seconds"] > 0.0
