"""Arguments of the deposit parity test (built on the host, then moved to the backend)."""

import numpy
from gpupy import cunumpy as xp

N = 10_000
N_CELLS = 64
N_THREADS = N
RTOL = 1e-10  # atomics add in arbitrary order


def make_args(backend, seed):
    length = 2 * numpy.pi
    x = numpy.random.default_rng(seed).uniform(0.0, length, N)
    rho = numpy.zeros(N_CELLS)
    return xp.to_cunumpy(x), xp.to_cunumpy(rho), N, length / N_CELLS, N_CELLS, length / N
