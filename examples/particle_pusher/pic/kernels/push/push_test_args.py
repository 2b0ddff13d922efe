"""Arguments of the push parity test."""

import numpy
from gpupy import cunumpy as xp

N = 10_000
N_THREADS = N
RTOL = 1e-12


def make_args(backend, seed):
    rng = numpy.random.default_rng(seed)
    length = 2 * numpy.pi
    x, v = rng.uniform(0.0, length, N), 3.0 * rng.normal(size=N)
    return xp.to_cunumpy(x), xp.to_cunumpy(v), N, 0.5, length
