"""gpupy.random.Generator's distributions on the device under test: Kolmogorov-Smirnov distances
to analytic CDFs (or to NumPy's sampler where the CDF has no closed form), exact pmfs for the
counting distributions, cross-device equality, broadcasting, dtypes and NumPy's error cases.

Seeds are fixed, so every statistical check is deterministic; thresholds are the 99.9% KS
critical values, far above what a correct sampler gives and below what a wrong one gives."""

import math
import warnings

import gpupy
import numpy
import pytest

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


SAMPLES = [
    ("exponential", (1.5,)),
    ("laplace", ()),
    ("logistic", ()),
    ("gumbel", ()),
    ("rayleigh", ()),
    ("weibull", (0.7,)),
    ("pareto", (2.0,)),
    ("power", (0.5,)),
    ("standard_cauchy", ()),
    ("lognormal", ()),
    ("triangular", (-1.0, 0.0, 2.0)),
    ("geometric", (0.3,)),
    ("standard_gamma", (0.4,)),
    ("beta", (0.3, 2.0)),
    ("f", (3.0, 7.0)),
    ("standard_t", (3.0,)),
    ("dirichlet", ([0.5, 1.0, 2.0],)),
    ("poisson", ([1.0, 20.0],)),
    ("binomial", ([10, 300], 0.4)),
    ("negative_binomial", (2.5, 0.5)),
    ("multinomial", (20, [0.2, 0.3, 0.5])),
    ("multivariate_normal", ([1.0, 2.0], [[2.0, 0.5], [0.5, 1.0]])),
]


def _draw(name, args, device, seed=77):
    g = gpupy.random.default_rng(seed)
    size = (50, 2) if name in ("poisson", "binomial") else 100
    return getattr(g, name)(*args, size=size, device=device)


@pytest.mark.parametrize("name,args", SAMPLES, ids=[s[0] for s in SAMPLES])
def test_same_seed_same_numbers_on_every_device(name, args, device_name):
    here = _draw(name, args, device_name)
    assert here.device == gpupy.Device(device_name)
    on_cpu = _draw(name, args, "cpu")
    again = _draw(name, args, device_name)
    numpy.testing.assert_array_equal(here.get(), again.get())
    if here.dtype == numpy.int64:
        numpy.testing.assert_array_equal(here.get(), on_cpu.get())
    else:
        numpy.testing.assert_allclose(here.get(), on_cpu.get(), rtol=1e-12, atol=1e-300)
    different = _draw(name, args, device_name, seed=78)
    assert not numpy.array_equal(here.get(), different.get())


def test_scalars_shapes_and_parameter_types():
    g = rng()
    assert type(g.exponential()) is float and type(g.standard_gamma(2.0)) is float
    assert type(g.poisson()) is int and type(g.binomial(3, 0.5)) is int
    assert type(g.geometric(numpy.float32(0.5))) is int
    x = g.laplace(numpy.array([0.0, 10.0]), gpupy.asarray([1.0]), size=(3, 2))
    assert x.shape == (3, 2) and abs(float(x[:, 1].mean()) - 10) < 10
    assert g.weibull([1, 2, 3]).shape == (3,)
    assert g.weibull(2.0, size=()).shape == ()
    for size in (0, (2, 0)):
        e = g.pareto(1.0, size=size)
        assert e.shape == numpy.empty(size).shape and e.dtype == numpy.float64
        assert g.poisson(3.0, size=size).shape == numpy.empty(size).shape
        assert g.standard_gamma(0.5, size=size).shape == numpy.empty(size).shape
    assert g.standard_gamma(numpy.array([], numpy.float64)).shape == (0,)
    assert numpy.all(g.weibull(0.0, size=5).get() == 0)
    w = g.power(numpy.array([1, 2], numpy.int32), size=(2, 2)).get()  # integer parameters
    assert numpy.all((w >= 0) & (w <= 1))
    assert math.isnan(g.standard_gamma(math.nan)) and g.standard_gamma(math.inf) == math.inf
    p = g.poisson(numpy.uint8(3), size=4)
    assert p.dtype == numpy.int64


def test_float32_and_out():
    g = rng(5)
    for name, args in (("standard_exponential", ()), ("standard_gamma", (2.5,))):
        f32 = getattr(rng(5), name)(*args, size=1000, dtype=numpy.float32)
        f64 = getattr(rng(5), name)(*args, size=1000)
        assert f32.dtype == numpy.float32
        numpy.testing.assert_allclose(f32.get(), f64.get().astype(numpy.float32), rtol=1e-6)
        with pytest.raises(TypeError, match=rf"^\[{name}\] dtype"):
            getattr(g, name)(*args, size=3, dtype=numpy.int64)
        out = gpupy.empty((4, 5))
        assert getattr(rng(5), name)(*args, out=out) is out
        numpy.testing.assert_array_equal(out.get().ravel(), f64.get()[:20])
    with pytest.raises(ValueError, match=r"^\[standard_exponential\] method"):
        g.standard_exponential(3, method="ziggurat")


def test_counting_vectors():
    g = rng(9)
    m = g.multinomial(100, [0.2, 0.3, 0.5], size=(2000,))
    assert m.shape == (2000, 3) and m.dtype == numpy.int64
    h = m.get()
    numpy.testing.assert_array_equal(h.sum(axis=1), 100)
    for i, p in enumerate([0.2, 0.3, 0.5]):
        assert abs(h[:, i].mean() - 100 * p) < 5 * math.sqrt(100 * p * (1 - p) / 2000)
    per_n = g.multinomial(gpupy.asarray([[0], [7]]), gpupy.asarray([0.5, 0.0, 0.5]))
    assert per_n.shape == (2, 1, 3)
    numpy.testing.assert_array_equal(per_n.get().sum(axis=-1), [[0], [7]])
    numpy.testing.assert_array_equal(per_n.get()[..., 1], 0)
    d = g.dirichlet([0.5, 1.0, 2.5], size=4000)
    assert d.shape == (4000, 3)
    dh = d.get()
    numpy.testing.assert_allclose(dh.sum(axis=1), 1.0, rtol=1e-12)
    assert numpy.all(dh >= 0)
    numpy.testing.assert_allclose(dh.mean(axis=0), [0.125, 0.25, 0.625], atol=0.015)
    assert g.dirichlet([1.0, 1.0]).shape == (2,)


@pytest.mark.parametrize("method", ["svd", "eigh", "cholesky"])
def test_multivariate_normal(method):
    mean = [1.0, -2.0, 0.5]
    cov = numpy.array([[2.0, 0.6, 0.0], [0.6, 1.0, -0.3], [0.0, -0.3, 0.5]])
    x = rng(3).multivariate_normal(mean, cov, size=(N // 2, 2), method=method)
    assert x.shape == (N // 2, 2, 3) and x.dtype == numpy.float64
    h = x.get().reshape(-1, 3)
    numpy.testing.assert_allclose(h.mean(axis=0), mean, atol=5 * math.sqrt(2.0 / N))
    numpy.testing.assert_allclose(numpy.cov(h.T), cov, atol=0.06)
    single = rng(3).multivariate_normal(gpupy.asarray(mean), cov, method=method)
    assert single.shape == (3,) and single.device == gpupy.get_default_device()


def test_multivariate_normal_checks():
    g = rng()
    bad = [[1.0, 2.0], [2.0, 1.0]]
    with pytest.raises(ValueError, match=r"^\[multivariate_normal\] covariance is not"):
        g.multivariate_normal([0, 0], bad, check_valid="raise")
    with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
        g.multivariate_normal([0, 0], bad)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g.multivariate_normal([0, 0], bad, check_valid="ignore")
        g.multivariate_normal([0, 0], numpy.eye(2), check_valid="raise", method="eigh")


def test_choice_with_replacement():
    g = rng(21)
    x = g.choice(5, size=N)
    assert x.dtype == numpy.int64
    counts = numpy.bincount(x.get(), minlength=5)
    assert counts.size == 5 and numpy.all(numpy.abs(counts - N / 5) < 5 * math.sqrt(N * 0.16))
    p = [0.1, 0.0, 0.6, 0.3]
    y = g.choice(numpy.array([10, 20, 30, 40], numpy.int16), size=(N,), p=p)
    assert y.dtype == numpy.int16
    freq = numpy.array([(y.get() == v).mean() for v in (10, 20, 30, 40)])
    assert freq[1] == 0
    numpy.testing.assert_allclose(freq, p, atol=5 * math.sqrt(0.25 / N))
    p32 = numpy.array([0.1, 0.2, 0.70001], numpy.float32)  # NumPy's tolerance follows p's dtype
    assert g.choice(3, size=4, p=p32).shape == (4,)
    with pytest.raises(ValueError, match=r"^\[choice\] Probabilities do not sum to 1"):
        g.choice(3, size=4, p=p32.astype(numpy.float64))
    assert type(g.choice(3)) is int
    assert g.choice(gpupy.asarray([1.5, 2.5])) in (1.5, 2.5)
    c = g.choice(gpupy.asarray([1 + 2j, 3j]), size=3)
    assert c.dtype == numpy.complex128 and set(c.get()) <= {1 + 2j, 3j}
    b = g.choice([True, False], size=4)
    assert b.dtype == numpy.bool_
    rows = numpy.arange(12.0).reshape(3, 4)
    cols = g.choice(rows, size=5, axis=1).get()
    assert cols.shape == (3, 5)
    assert all(any(numpy.array_equal(c, r) for r in rows.T) for c in cols.T)
    assert g.choice(rows, size=(2, 2)).shape == (2, 2, 4)
    assert g.choice(0, size=0).shape == (0,) and g.choice([], size=(0, 2)).shape == (0, 2)


def test_choice_without_replacement():
    g = rng(22)
    firsts = []
    for _ in range(300):
        s = g.choice(6, size=6, replace=False).get()
        numpy.testing.assert_array_equal(numpy.sort(s), numpy.arange(6))
        firsts.append(s[0])
    counts = numpy.bincount(firsts, minlength=6)
    assert numpy.all(numpy.abs(counts - 50) < 5 * math.sqrt(300 * (1 / 6) * (5 / 6)))
    p = numpy.array([0.5, 0.0, 0.25, 0.25])
    picks = numpy.array([g.choice(4, 2, replace=False, p=p).get() for _ in range(2000)])
    assert not numpy.any(picks == 1)
    assert numpy.all(picks[:, 0] != picks[:, 1])
    first = numpy.bincount(picks[:, 0], minlength=4) / 2000  # first draw is p itself
    numpy.testing.assert_allclose(first, p, atol=5 * math.sqrt(0.25 / 2000))
    x = g.choice(numpy.arange(100), size=(5, 4), replace=False, shuffle=False).get()
    assert x.shape == (5, 4) and numpy.unique(x).size == 20


def test_choice_without_replacement_from_a_huge_population():
    """k <= pop / 50 draws a stream of integers and keeps the first k distinct ones: O(k)
    memory, so a population of 10**13 works (it needed 80 TB of keys before)."""
    x = rng(5).choice(10**13, 7, replace=False).get()
    assert x.shape == (7,) and numpy.unique(x).size == 7 and x.min() >= 0 and x.max() < 10**13
    # Every ordered pair of a 4-subset of 200 is equally likely: the position-0 and position-3
    # values are uniform and distinct (one sample of 300 subsets, 5-sigma bounds).
    picks = numpy.array([rng(s).choice(200, 4, replace=False).get() for s in range(300)])
    assert all(numpy.unique(row).size == 4 for row in picks)
    for column in (picks[:, 0], picks[:, 3]):
        hist = numpy.bincount(column // 20, minlength=10)  # 10 bins of 20 values
        assert numpy.all(numpy.abs(hist - 30) < 5 * math.sqrt(300 * 0.1 * 0.9))


ERRORS = [
    (lambda g: g.exponential(-1.0), "exponential", "scale < 0"),
    (lambda g: g.normal(0, gpupy.asarray([1.0, -1.0])), "normal", "scale < 0"),
    (lambda g: g.laplace(0, [1.0, -1.0]), "laplace", "scale < 0"),
    (lambda g: g.logistic(0, -1), "logistic", "scale < 0"),
    (lambda g: g.gumbel(0, -1), "gumbel", "scale < 0"),
    (lambda g: g.rayleigh(gpupy.asarray([-1.0])), "rayleigh", "scale < 0"),
    (lambda g: g.weibull(-1), "weibull", "a < 0"),
    (lambda g: g.pareto(0), "pareto", "a <= 0"),
    (lambda g: g.power(0), "power", "a <= 0"),
    (lambda g: g.lognormal(0, -1), "lognormal", "sigma < 0"),
    (lambda g: g.triangular(2, 1, 3), "triangular", "left > mode"),
    (lambda g: g.triangular(0, 3, 2), "triangular", "mode > right"),
    (lambda g: g.triangular(1, 1, 1), "triangular", "left == right"),
    (lambda g: g.geometric(0), "geometric", "p <= 0, p > 1"),
    (lambda g: g.geometric(math.nan), "geometric", "p <= 0, p > 1"),
    (lambda g: g.standard_gamma(-1), "standard_gamma", "shape < 0"),
    (lambda g: g.gamma(1, -1), "gamma", "scale < 0"),
    (lambda g: g.beta(0, 1), "beta", "a <= 0"),
    (lambda g: g.beta(1, gpupy.asarray([0.0])), "beta", "b <= 0"),
    (lambda g: g.chisquare(0), "chisquare", "df <= 0"),
    (lambda g: g.f(0, 1), "f", "dfnum <= 0"),
    (lambda g: g.f(1, 0), "f", "dfden <= 0"),
    (lambda g: g.standard_t(0), "standard_t", "df <= 0"),
    (lambda g: g.dirichlet([-1, 1]), "dirichlet", "alpha < 0"),
    (lambda g: g.dirichlet([[1, 1]]), "dirichlet", "alpha must be 1-dimensional"),
    (lambda g: g.poisson(-1), "poisson", "lam < 0 or lam is NaN"),
    (lambda g: g.poisson(math.nan), "poisson", "lam < 0 or lam is NaN"),
    (lambda g: g.poisson(1e20), "poisson", "lam value too large"),
    (lambda g: g.binomial(-1, 0.5), "binomial", "n < 0"),
    (lambda g: g.binomial(3, 1.5), "binomial", "p < 0, p > 1 or p is NaN"),
    (lambda g: g.multinomial(3, [0.7, 0.7, 0.1]), "multinomial", r"sum\(pvals\[:-1\]\)"),
    (lambda g: g.multinomial(-1, [0.5, 0.5]), "multinomial", "n < 0"),
    (lambda g: g.multinomial(3, [-0.5, 1.5]), "multinomial", "pvals < 0"),
    (lambda g: g.multinomial(3, []), "multinomial", "pvals must have at least 1 dimension"),
    (lambda g: g.multinomial(3, [[0.5, 0.5]] * 2, size=3), "multinomial", "shape mismatch"),
    (lambda g: g.negative_binomial(0, 0.5), "negative_binomial", "n <= 0"),
    (lambda g: g.negative_binomial(1, 0), "negative_binomial", "p <= 0, p > 1"),
    (lambda g: g.negative_binomial(math.nan, 0.5), "negative_binomial", "n must not be NaN"),
    (lambda g: g.negative_binomial(math.inf, 0.5), "negative_binomial", "n too large"),
    (lambda g: g.negative_binomial([1, 1], [0.5, 1e-19]), "negative_binomial", "n too large"),
    (lambda g: g.uniform(1.0, 0.0), "uniform", r"high - low < 0"),
    (lambda g: g.uniform([0.0, 2.0], 1.0, size=(3, 2)), "uniform", r"high - low < 0"),
    (lambda g: g.exponential([1, 2], size=3), "exponential", "shape mismatch"),
    (lambda g: g.normal(0.0, [[1.0], [2.0]], size=4), "normal", "shape mismatch"),
    (lambda g: g.uniform([0.0, 1.0, 2.0], 5.0, size=()), "uniform", "shape mismatch"),
    (lambda g: g.poisson(1.0, size=-1), "poisson", "negative dimensions"),
    (lambda g: g.random(size=(2**40, 2**40)), "random", "array is too big"),
    (lambda g: g.choice(0), "choice", "a must be a positive integer"),
    (lambda g: g.choice(5, size=-2), "choice", "negative dimensions"),
    (lambda g: g.bytes(-1), "bytes", "length must be non-negative"),
    (lambda g: g.choice([]), "choice", "a cannot be empty"),
    (lambda g: g.choice(3, p=[0.5, 0.6, 0.1]), "choice", "Probabilities do not sum to 1"),
    (lambda g: g.choice(3, p=[0.5, 0.5]), "choice", "a and p must have same size"),
    (lambda g: g.choice(3, 4, replace=False), "choice", "Cannot take a larger sample"),
    (lambda g: g.choice(3, p=[-0.5, 1, 0.5]), "choice", "Probabilities are not non-negative"),
    (lambda g: g.choice(3, p=[math.nan, 0.5, 0.5]), "choice", "Probabilities contain NaN"),
    (lambda g: g.choice(3, p=[[1 / 3] * 3]), "choice", "p must be 1-dimensional"),
    (lambda g: g.choice(3, 3, False, [0, 0.5, 0.5]), "choice", "Fewer non-zero entries"),
    (lambda g: g.choice([1, 2], axis=1), "choice", "axis 1 is out of bounds"),
    (lambda g: g.choice(2.5), "choice", "a must be a sequence or an integer"),
    (lambda g: g.multivariate_normal([0, 0], [[1, 0]]), "multivariate_normal", "cov must be"),
    (lambda g: g.multivariate_normal([[0, 0]], numpy.eye(2)), "multivariate_normal", "mean must"),
    (lambda g: g.multivariate_normal([0] * 3, numpy.eye(2)), "multivariate_normal", "mean and cov"),
    (
        lambda g: g.multivariate_normal([0, 0], numpy.eye(2), check_valid="x"),
        "multivariate_normal",
        "check_valid must equal",
    ),
    (
        lambda g: g.multivariate_normal([0, 0], numpy.eye(2), method="lu"),
        "multivariate_normal",
        "method must be one of",
    ),
]


@pytest.mark.parametrize("call,op,message", ERRORS, ids=[f"{e[1]}-{e[2][:20]}" for e in ERRORS])
def test_errors_name_the_operation(call, op, message):
    with pytest.raises(ValueError, match=rf"^\[{op}\] {message}"):
        call(rng())


def test_bytes():
    a, b = rng(4).bytes(33), rng(4).bytes(33)
    assert type(a) is bytes and len(a) == 33 and a == b and a != rng(5).bytes(33)
    assert rng().bytes(0) == b""


@pytest.mark.parametrize("low,high", [(math.nan, 1.0), (0.0, math.inf), (-math.inf, 0.0)])
def test_uniform_unbounded_range_overflows(low, high, device_name):
    """NumPy raises OverflowError when high - low is not finite (nan or inf bounds)."""
    for lo in (low, gpupy.asarray([0.0, low], device=device_name)):
        with pytest.raises(OverflowError, match=r"^\[uniform\] high - low range exceeds"):
            rng().uniform(lo, high)


def test_negative_binomial_bound_matches_numpy():
    """Within NumPy's bound the draws are as large as the mean asks for (n=1e10, p=1e-5)."""
    mean = 1e10 * (1 - 1e-5) / 1e-5
    x = rng().negative_binomial(1e10, 1e-5, size=200).get()
    assert abs(x.mean() / mean - 1) < 1e-3 and x.dtype == numpy.int64


def _count_reads(monkeypatch):
    """A list that grows by one per host read of a device value (bool/int/float/index/get)."""
    reads = []
    for attr in ("__bool__", "__int__", "__float__", "__index__", "get"):
        original = getattr(gpupy.ndarray, attr)

        def counted(self, *a, _original=original, **k):
            reads.append(1)
            return _original(self, *a, **k)

        monkeypatch.setattr(gpupy.ndarray, attr, counted)
    return reads


@pytest.mark.parametrize(
    "name,args,most",
    [
        ("poisson", (3.0,), 4),  # inversion: one read per 8 search steps (15 steps here)
        ("poisson", (50.0,), 2),  # PTRS: no read beyond choosing the method
        ("binomial", (20, 0.3), 4),
        ("binomial", (1000, 0.3), 2),
        ("gamma", (0.5,), 0),  # the boost is decided from the host shape parameter
        ("gamma", (3.0,), 0),
        ("beta", (0.5, 2.0), 0),  # formed from log-gammas: nothing to check for underflow
    ],
)
def test_samplers_read_back_little(name, args, most, monkeypatch):
    """Host reads of device values per call stay a handful (compaction shapes are not
    counted). Before, the sequential searches read a flag at every step (17 here)."""
    reads = _count_reads(monkeypatch)
    getattr(rng(), name)(*args, size=20_000)
    assert len(reads) <= most


def test_device_parameter_checks_read_back_once(monkeypatch):
    """NumPy's validations of device parameters (three each for integers' bounds and choice's
    p) are read back together."""
    g = rng()
    lo, hi = gpupy.asarray([0, 5]), gpupy.asarray([3, 9])
    p = gpupy.asarray([0.2, 0.3, 0.5])
    reads = _count_reads(monkeypatch)
    g.integers(lo, hi, dtype=numpy.int8)
    assert len(reads) == 1
    g.choice(3, 100, p=p)
    assert len(reads) == 2


def test_size_must_be_integers():
    with pytest.raises(TypeError, match=r"^\[random\] expected a sequence of integers"):
        rng().random(size=2.5)
    with pytest.raises(TypeError, match=r"^\[normal\] expected a sequence of integers"):
        rng().normal(size=(2, 1.5))


def test_dirichlet_nan_alpha_gives_nan_vectors():
    """NumPy 2.4 draws NaN vectors for a NaN alpha rather than raising."""
    x = rng().dirichlet([math.nan, 1.0], size=3).get()
    ref = numpy.random.default_rng(0).dirichlet([math.nan, 1.0], size=3)
    assert x.shape == ref.shape and numpy.isnan(x).all() and numpy.isnan(ref).all()


def test_beta_tiny_shapes_keep_the_tails():
    """Beta(1e-3, 1e-3) puts P(x < 1e-100) = I_t(a, a) ~ t**a / (a B(a, a)) = 0.397 below 1e-100.
    The gammas of such shapes underflow to 0; their logarithms do not (the linear form gave
    0.427, 8 sigma off)."""
    a, t = 1e-3, 1e-100
    expected = t**a / (a * math.exp(2 * math.lgamma(a) - math.lgamma(2 * a)))
    x = rng(8).beta(a, a, size=N).get()
    sigma = math.sqrt(expected * (1 - expected) / N)
    assert abs((x < t).mean() - expected) < 5 * sigma
    assert abs((x > 1 - 1e-10).mean() - (x < 1e-10).mean()) < 5 * math.sqrt(0.5 / N)


def test_dirichlet_tiny_and_zero_alphas():
    """Normalised from log-gammas: tiny alphas give no 0 / 0 NaNs (11% of the vectors before)
    and match NumPy's tail; all-zero alphas give zero vectors, as in NumPy."""
    alpha = [1e-3, 1e-3, 1e-3]
    x = rng(9).dirichlet(alpha, size=N).get()
    ref = numpy.random.default_rng(9).dirichlet(alpha, size=N)
    assert not numpy.isnan(x).any()
    numpy.testing.assert_allclose(x.sum(axis=1), 1.0, rtol=1e-12)
    p, q = (x[:, 0] < 1e-100).mean(), (ref[:, 0] < 1e-100).mean()
    assert abs(p - q) < 5 * math.sqrt(2 * 0.25 / N)
    numpy.testing.assert_array_equal(rng().dirichlet([0.0, 0.0], size=2).get(), numpy.zeros((2, 2)))
    numpy.testing.assert_array_equal(rng().dirichlet([0.0, 1e-3], size=3).get()[:, 1], 1.0)


def test_multinomial_with_a_batch_of_pvals():
    """pvals with leading axes (one distribution per row) broadcast against n and size, as in
    NumPy: each row's mean counts are n * p."""
    pvals = numpy.array([[0.2, 0.3, 0.5], [0.6, 0.4, 0.0]])
    n = numpy.array([[10], [40]])
    x = rng(3).multinomial(n, pvals, size=(5000, 2, 2)).get()
    ref_shape = numpy.random.default_rng(0).multinomial(n, pvals, size=(5000, 2, 2)).shape
    assert x.shape == ref_shape == (5000, 2, 2, 3) and x.dtype == numpy.int64
    numpy.testing.assert_array_equal(x.sum(axis=-1), numpy.broadcast_to(n, (5000, 2, 2)))
    expected = n[..., None] * pvals  # (2, 2, 3): rows of n by rows of pvals
    sigma = numpy.sqrt(expected * (1 - pvals) / 5000)
    assert numpy.all(numpy.abs(x.mean(axis=0) - expected) <= 5 * sigma + 1e-12)


@pytest.mark.parametrize("low,high", [(0, 0), (5, 2), (0, 2**70)])
def test_integers_of_an_empty_size_skip_the_bound_checks(low, high):
    """As NumPy: nothing is drawn, so no bound is checked."""
    for dtype in (numpy.int64, numpy.int8, bool):
        r = rng().integers(low, high, size=(0, 3), dtype=dtype)
        ref = numpy.random.default_rng(0).integers(low, high, size=(0, 3), dtype=dtype)
        assert r.shape == ref.shape and r.dtype == ref.dtype


def test_beta_infinite_shapes_follow_numpy():
    """x / (x + y) in NumPy: nan for an infinite a (inf / inf), 0 for an infinite b."""
    inf = math.inf
    got = [rng().beta(a, b) for a, b in ((inf, 1.0), (1.0, inf), (inf, inf))]
    ref = [numpy.random.default_rng(0).beta(a, b) for a, b in ((inf, 1.0), (1.0, inf), (inf, inf))]
    numpy.testing.assert_array_equal(got, ref)


def test_noncentral_chisquare_huge_noncentrality_with_small_df():
    """df <= 1 mixes chi-squares over Poisson(nonc / 2); above int64's range that Poisson is
    its normal limit, so huge and infinite nonc give draws (inf for inf) instead of a
    rejection loop that never accepts (RuntimeError before). Mean df + nonc, variance
    2 (df + 2 nonc)."""
    nonc = 4e19
    x = rng(12).noncentral_chisquare(0.5, nonc, size=N).get()
    sd = math.sqrt(2 * (0.5 + 2 * nonc))
    assert abs(x.mean() - (0.5 + nonc)) < 5 * sd / math.sqrt(N)
    assert abs(x.std() / sd - 1) < 0.05
    assert numpy.isinf(rng().noncentral_chisquare([0.5, 1.0, 3.0], math.inf).get()).all()
    assert rng().noncentral_f(1.0, 1.0, math.inf) == math.inf
