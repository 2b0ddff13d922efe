"""Shared by the gpupy.random.Generator distribution tests: the sample size, the 99.9% KS critical
values, a seeded generator and the distances (KS one- and two-sample, integer CDF) they check."""

import math

import gpupy
import numpy

N = 20_000
KS_1 = 1.95 / math.sqrt(N)  # one-sample KS, 99.9%
KS_2 = 1.95 * math.sqrt(2 / N)  # two-sample KS against NumPy's sampler, 99.9%


def rng(seed=1234):
    return gpupy.random.default_rng(seed)


def ks_analytic(sample, cdf):
    x = numpy.sort(numpy.asarray(sample, numpy.float64))
    f = cdf(x)
    n = x.size
    return max(numpy.max(numpy.arange(1, n + 1) / n - f), numpy.max(f - numpy.arange(n) / n))


def ks_two(a, b):
    a, b = numpy.sort(a), numpy.sort(b)
    grid = numpy.concatenate([a, b])
    fa = numpy.searchsorted(a, grid, side="right") / a.size
    fb = numpy.searchsorted(b, grid, side="right") / b.size
    return numpy.max(numpy.abs(fa - fb))


def cdf_distance(sample, pmf, kmax):
    """max |empirical CDF - exact CDF| over 0..kmax for integer samples."""
    counts = numpy.bincount(sample, minlength=kmax + 1)[: kmax + 1]
    exact = numpy.array([pmf(k) for k in range(kmax + 1)])
    return numpy.max(numpy.abs(numpy.cumsum(counts) / sample.size - numpy.cumsum(exact)))
