"""Arguments of the accelerate parity test."""

import numpy
from gpupy import cunumpy as xp

N = 10_000
N_CELLS = 64
N_THREADS = N
RTOL = 1e-12


def make_args(backend, seed):
    rng = numpy.random.default_rng(seed)
    length = 2 * numpy.pi
    x, v, e = rng.uniform(0.0, length, N), rng.normal(size=N), rng.normal(size=N_CELLS)
    conv = xp.to_cunumpy
    return conv(x), conv(v), conv(e), N, length / N_CELLS, N_CELLS, -0.05
