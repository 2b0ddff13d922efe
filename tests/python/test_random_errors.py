"""gpupy.random.Generator's error cases (named after the operation, as NumPy's), bounds, read-backs
of device parameters, and the distributions' edge cases (tiny, zero, infinite or NaN parameters)
against NumPy."""

import math

import gpupy
import numpy
import pytest
from random_stats import N, rng

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
