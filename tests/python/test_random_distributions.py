"""gpupy.random.Generator's distributions on the device under test: Kolmogorov-Smirnov distances
to analytic CDFs (or to NumPy's sampler where the CDF has no closed form), exact pmfs for the
counting distributions, huge means and broadcast array parameters (cross-device equality, shapes
and dtypes are in test_random_generator_api.py, error and edge cases in test_random_errors.py).

Seeds are fixed, so every statistical check is deterministic; thresholds are the 99.9% KS
critical values, far above what a correct sampler gives and below what a wrong one gives."""

import math

import gpupy
import numpy
import pytest
from random_stats import KS_1, KS_2, N, cdf_distance, ks_analytic, ks_two, rng


def _tri(x):
    return numpy.where(x <= 1.0, x**2 / 3.0, 1.0 - (3.0 - x) ** 2 / 6.0)


def _lognormal(x):
    return 0.5 * (1.0 + numpy.vectorize(math.erf)(numpy.log(x) / (0.5 * math.sqrt(2.0))))


ANALYTIC = [
    ("exponential", (2.0,), lambda x: 1 - numpy.exp(-x / 2)),
    ("standard_exponential", (), lambda x: 1 - numpy.exp(-x)),
    (
        "laplace",
        (1.0, 2.0),
        lambda x: numpy.where(
            x < 1, 0.5 * numpy.exp((x - 1) / 2), 1 - 0.5 * numpy.exp(-(x - 1) / 2)
        ),
    ),
    ("logistic", (1.0, 2.0), lambda x: 1 / (1 + numpy.exp(-(x - 1) / 2))),
    ("gumbel", (1.0, 2.0), lambda x: numpy.exp(-numpy.exp(-(x - 1) / 2))),
    ("rayleigh", (2.0,), lambda x: 1 - numpy.exp(-(x**2) / 8)),
    ("weibull", (1.5,), lambda x: 1 - numpy.exp(-(x**1.5))),
    ("pareto", (3.0,), lambda x: 1 - (1 + x) ** -3.0),
    ("power", (2.0,), lambda x: x**2),
    ("standard_cauchy", (), lambda x: 0.5 + numpy.arctan(x) / math.pi),
    ("lognormal", (0.0, 0.5), _lognormal),
    ("triangular", (0.0, 1.0, 3.0), _tri),
    ("standard_gamma", (1.0,), lambda x: 1 - numpy.exp(-x)),
    ("gamma", (1.0, 3.0), lambda x: 1 - numpy.exp(-x / 3)),
    ("chisquare", (2.0,), lambda x: 1 - numpy.exp(-x / 2)),
    ("beta", (2.0, 1.0), lambda x: x**2),
    ("standard_t", (1.0,), lambda x: 0.5 + numpy.arctan(x) / math.pi),
]


@pytest.mark.parametrize("name,args,cdf", ANALYTIC, ids=[a[0] for a in ANALYTIC])
def test_continuous_matches_analytic_cdf(name, args, cdf):
    x = getattr(rng(), name)(*args, size=N)
    assert x.dtype == numpy.float64 and x.shape == (N,)
    assert x.device == gpupy.get_default_device()
    assert ks_analytic(x.get(), cdf) < KS_1


AGAINST_NUMPY = [
    ("standard_gamma", (0.3,)),
    ("standard_gamma", (4.5,)),
    ("gamma", (0.05, 2.0)),
    ("beta", (0.5, 0.5)),
    ("beta", (2.0, 5.0)),
    ("chisquare", (3.0,)),
    ("f", (5.0, 10.0)),
    ("standard_t", (4.0,)),
]


@pytest.mark.parametrize("name,args", AGAINST_NUMPY, ids=[f"{a}{b}" for a, b in AGAINST_NUMPY])
def test_gamma_family_matches_numpy(name, args):
    ours = getattr(rng(), name)(*args, size=N).get()
    theirs = getattr(numpy.random.default_rng(0), name)(*args, size=N)
    assert ks_two(ours, theirs) < KS_2
    if name == "standard_gamma":  # mean and variance both equal the shape
        se = math.sqrt(args[0] / N)
        assert abs(ours.mean() - args[0]) < 5 * se
        assert numpy.all(ours >= 0)
    if name == "beta":
        assert numpy.all((ours >= 0) & (ours <= 1))


def _poisson_pmf(lam):
    return lambda k: math.exp(k * math.log(lam) - lam - math.lgamma(k + 1))


def _binomial_pmf(n, p):
    return lambda k: math.comb(n, k) * p**k * (1 - p) ** (n - k) if k <= n else 0.0


def _negbin_pmf(n, p):
    return lambda k: (
        math.exp(math.lgamma(k + n) - math.lgamma(n) - math.lgamma(k + 1) + n * math.log(p))
        * (1 - p) ** k
    )


DISCRETE = [
    ("poisson", (0.5,), _poisson_pmf(0.5), 15),
    ("poisson", (9.9,), _poisson_pmf(9.9), 40),
    ("poisson", (10.0,), _poisson_pmf(10.0), 40),  # first lam on the PTRS side
    ("poisson", (45.5,), _poisson_pmf(45.5), 120),
    ("binomial", (10, 0.3), _binomial_pmf(10, 0.3), 10),
    ("binomial", (40, 0.9), _binomial_pmf(40, 0.9), 40),  # inversion on 1 - p, flipped
    ("binomial", (200, 0.2), _binomial_pmf(200, 0.2), 200),  # BTRS
    ("binomial", (1000, 0.6), _binomial_pmf(1000, 0.6), 1000),  # BTRS, flipped
    ("geometric", (0.2,), lambda k: 0.2 * 0.8 ** (k - 1) if k else 0.0, 80),
    ("negative_binomial", (3, 0.4), _negbin_pmf(3, 0.4), 60),
    ("negative_binomial", (0.5, 0.3), _negbin_pmf(0.5, 0.3), 80),
]


@pytest.mark.parametrize("name,args,pmf,kmax", DISCRETE, ids=[f"{d[0]}{d[1]}" for d in DISCRETE])
def test_discrete_matches_exact_pmf(name, args, pmf, kmax):
    x = getattr(rng(), name)(*args, size=N)
    assert x.dtype == numpy.int64 and x.shape == (N,)
    h = x.get()
    assert h.min() >= (1 if name == "geometric" else 0)
    if name == "binomial":
        assert h.max() <= args[0]
    assert cdf_distance(h, pmf, kmax) < KS_1


def test_poisson_large_lam_moments():
    lam = 1e4
    x = rng().poisson(lam, size=N).get()
    assert abs(x.mean() - lam) < 5 * math.sqrt(lam / N)
    assert abs(x.var() / lam - 1) < 5 * math.sqrt(2 / N)


def test_log_gamma_helpers_are_accurate():
    from gpupy._random_draws import log_poisson_pmf, loggam, loggam_ratio

    x = numpy.array([0.5, 1.0, 3.3, 6.9, 7.0, 12.5, 1e3, 1e6])
    y = numpy.array([0.7, 2.0, 9.0, 8.0, 30.0, 11.0, 1010.0, 1e6 - 37])
    ref = numpy.array([math.lgamma(v) for v in x])
    numpy.testing.assert_allclose(loggam(gpupy.asarray(x)).get(), ref, rtol=1e-12, atol=1e-12)
    ratio = loggam_ratio(gpupy.asarray(x), gpupy.asarray(y)).get()
    numpy.testing.assert_allclose(ratio, ref - [math.lgamma(v) for v in y], atol=1e-10)
    lam, k = numpy.array([10.0, 45.5, 3.0]), numpy.array([3.0, 50.0, 0.0])
    got = log_poisson_pmf(gpupy.asarray(k), gpupy.asarray(lam), gpupy.log(gpupy.asarray(lam)))
    ref = [kk * math.log(v) - v - math.lgamma(kk + 1) for kk, v in zip(k, lam, strict=True)]
    numpy.testing.assert_allclose(got.get(), ref, atol=1e-12)
    # Where two huge log-gammas would cancel, exact identities still hold:
    # Gamma(a + 1) / Gamma(a) = a and pmf(k) / pmf(k - 1) = lam / k.
    a = gpupy.asarray([1e15, 3.7e14, 1e12 + 0.5])
    numpy.testing.assert_allclose(loggam_ratio(a + 1.0, a).get(), numpy.log(a.get()), rtol=1e-12)
    lam, k = gpupy.asarray([1e15, 1e15]), gpupy.asarray([1e15 + 3e7, 1e15 - 2e7])
    step = log_poisson_pmf(k, lam, gpupy.log(lam)) - log_poisson_pmf(k - 1.0, lam, gpupy.log(lam))
    numpy.testing.assert_allclose(step.get(), numpy.log(lam.get() / k.get()), atol=1e-8)


@pytest.mark.parametrize("name,args", [("poisson", (1e15,)), ("binomial", (10**15, 0.3))])
def test_huge_means_keep_the_right_shape(name, args):
    # At this scale both laws are normal to within 1e-7; the log-gamma differences must not
    # lose their digits to cancellation (a plain lgamma(k) - lgamma(m) is off by whole units).
    mean = args[0] * (args[1] if name == "binomial" else 1.0)
    var = mean * (1 - args[1]) if name == "binomial" else mean
    x = getattr(rng(), name)(*args, size=N).get().astype(numpy.float64)
    z = (x - mean) / math.sqrt(var)
    assert ks_analytic(z, lambda t: 0.5 * (1 + numpy.vectorize(math.erf)(t / math.sqrt(2)))) < KS_1
    assert abs(z.var() - 1) < 5 * math.sqrt(2 / N)


def test_array_parameters_mix_methods_and_broadcast():
    lam = gpupy.asarray([[0.0], [3.0], [30.0]])
    x = rng().poisson(lam, size=(3, 5000))
    assert x.shape == (3, 5000) and x.device == lam.device
    means = x.get().mean(axis=1)
    numpy.testing.assert_array_equal(x.get()[0], 0)
    assert abs(means[1] - 3) < 5 * math.sqrt(3 / 5000)
    assert abs(means[2] - 30) < 5 * math.sqrt(30 / 5000)
    n = numpy.array([5, 500, 0, 7])
    p = gpupy.asarray([0.5, 0.5, 0.3, 1.0])
    b = rng().binomial(n, p, size=(4000, 4)).get()
    assert abs(b[:, 0].mean() - 2.5) < 5 * math.sqrt(1.25 / 4000)
    assert abs(b[:, 1].mean() - 250) < 5 * math.sqrt(125 / 4000)
    numpy.testing.assert_array_equal(b[:, 2], 0)
    numpy.testing.assert_array_equal(b[:, 3], 7)
    g = rng().gamma([0.0, 0.5, 2.0], [[1.0], [10.0]])
    assert g.shape == (2, 3) and float(g[0, 0]) == 0.0 and float(g[1, 0]) == 0.0
