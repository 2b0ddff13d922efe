"""gpupy.random's rarer samplers (wald, vonmises, noncentral_chisquare, noncentral_f,
hypergeometric, multivariate_hypergeometric, logseries, zipf) on the device under test: exact
probability tables and CDFs (from math), two-sample KS against NumPy's sampler where no closed
form exists, moments, cross-device equality, the legacy API and NumPy's error cases.

Seeds are fixed, so every statistical check is deterministic; thresholds are 99.9% KS critical
values (conservative for integer samples)."""

import math
import re

import gpupy
import numpy
import pytest
from test_random_distributions import KS_1, KS_2, N, ks_analytic, ks_two


def rng(seed=2024):
    return gpupy.random.default_rng(seed)


def table_distance(sample, pmf, lo, hi):
    """max |empirical CDF - exact CDF| over lo..hi, plus the mass the sample puts outside."""
    ks = numpy.arange(lo, hi + 1)
    exact = numpy.cumsum([pmf(int(k)) for k in ks])
    seen = numpy.array([numpy.count_nonzero(sample <= k) for k in ks]) / sample.size
    return numpy.max(numpy.abs(seen - exact))


def _phi(x):
    return 0.5 * (1.0 + numpy.vectorize(math.erf)(x / math.sqrt(2.0)))


def test_wald_cdf_and_moments():
    mean, scale = 2.0, 3.0
    x = rng().wald(mean, scale, size=N).get()
    assert x.dtype == numpy.float64 and x.min() > 0

    def cdf(t):
        r = numpy.sqrt(scale / t)
        return _phi(r * (t / mean - 1)) + math.exp(2 * scale / mean) * _phi(-r * (t / mean + 1))

    assert ks_analytic(x, cdf) < KS_1
    sd = math.sqrt(mean**3 / scale)
    assert abs(x.mean() - mean) < 5 * sd / math.sqrt(N)


@pytest.mark.parametrize("mu,kappa", [(0.5, 2.0), (-3.0, 1e-6), (3.0, 40.0)])
def test_vonmises_cdf(mu, kappa):
    x = rng().vonmises(mu, kappa, size=N).get()
    assert numpy.all(numpy.abs(x) <= math.pi)
    grid = numpy.linspace(-math.pi, math.pi, 200_001)
    dens = numpy.exp(kappa * (numpy.cos(grid - mu) - 1.0))
    cum = numpy.concatenate([[0.0], numpy.cumsum((dens[1:] + dens[:-1]) / 2 * numpy.diff(grid))])
    assert ks_analytic(x, lambda t: numpy.interp(t, grid, cum / cum[-1])) < KS_1


def test_vonmises_extremes():
    g = rng()
    tiny = g.vonmises(1.0, 0.0, size=N).get()  # uniform on the circle
    assert ks_analytic(tiny, lambda t: (t + math.pi) / (2 * math.pi)) < KS_1
    wide = g.vonmises(0.25, 1e8, size=N).get()  # a normal of sd 1e-4 around mu
    assert abs(wide.mean() - 0.25) < 5e-4 / math.sqrt(N) * 5 and 0.5e-4 < wide.std() < 2e-4
    assert math.isnan(g.vonmises(0.0, math.nan))


@pytest.mark.parametrize("df,nonc", [(3.0, 2.0), (0.5, 1.5), (1.0, 0.0)])
def test_noncentral_chisquare_against_numpy(df, nonc):
    x = rng().noncentral_chisquare(df, nonc, size=N).get()
    ref = numpy.random.default_rng(5).noncentral_chisquare(df, nonc, size=N)
    assert ks_two(x, ref) < KS_2
    sd = math.sqrt(2 * (df + 2 * nonc))
    assert abs(x.mean() - (df + nonc)) < 5 * sd / math.sqrt(N)


def test_noncentral_f_against_numpy():
    x = rng().noncentral_f(3.0, 20.0, 3.0, size=N).get()
    ref = numpy.random.default_rng(6).noncentral_f(3.0, 20.0, 3.0, size=N)
    assert ks_two(x, ref) < KS_2
    assert math.isnan(rng().noncentral_chisquare(2.0, math.nan))


def _hyper_pmf(good, bad, sample):
    total = math.comb(good + bad, sample)
    return lambda k: math.comb(good, k) * math.comb(bad, sample - k) / total


def _hyper_log_pmf(good, bad, sample):
    def lc(n, k):
        return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)

    return lambda k: math.exp(lc(good, k) + lc(bad, sample - k) - lc(good + bad, sample))


# min(nsample, total - nsample) < 10 uses urn draws, >= 10 the HRUA rejection
HYPER = [
    (5, 7, 4),
    (5, 7, 9),
    (30, 2, 25),
    (100, 200, 50),
    (200, 100, 50),
    (100, 200, 250),
    (20, 20, 9),
    (20, 20, 10),
]


@pytest.mark.parametrize("good,bad,sample", HYPER)
def test_hypergeometric_probability_table(good, bad, sample):
    x = rng().hypergeometric(good, bad, sample, size=N).get()
    assert x.dtype == numpy.int64
    lo, hi = max(0, sample - bad), min(good, sample)
    assert x.min() >= lo and x.max() <= hi
    assert table_distance(x, _hyper_pmf(good, bad, sample), lo, hi) < KS_1


def test_hypergeometric_large_population():
    good, bad, sample = 10**6, 3 * 10**6, 2000
    x = rng().hypergeometric(good, bad, sample, size=N).get()
    assert table_distance(x, _hyper_log_pmf(good, bad, sample), 420, 580) < KS_1


def test_hypergeometric_arrays_and_edges():
    g = rng()
    x = g.hypergeometric([5, 100], [7, 200], [[4], [10]], size=None)
    assert x.shape == (2, 2)
    assert g.hypergeometric(5, 5, 0) == 0 and type(g.hypergeometric(5, 5, 10)) is int
    assert g.hypergeometric(5, 5, 10) == 5 and g.hypergeometric(0, 5, 3) == 0
    assert g.hypergeometric(4, 0, 3, size=3).get().tolist() == [3, 3, 3]
    assert g.hypergeometric(3, 3, 2, size=(0, 2)).shape == (0, 2)
    dev = gpupy.asarray([10, 20])
    assert g.hypergeometric(dev, 30, 15).device == dev.device


@pytest.mark.parametrize("p", [0.3, 0.95])
def test_logseries_probability_table(p):
    x = rng().logseries(p, size=N).get()
    assert x.dtype == numpy.int64 and x.min() >= 1
    c = -1.0 / math.log1p(-p)
    assert table_distance(x, lambda k: c * p**k / k if k else 0.0, 0, 40) < KS_1
    assert rng().logseries(0.0) == 1


@pytest.mark.parametrize("a", [1.5, 2.0, 4.0])
def test_zipf_probability_table(a):
    x = rng().zipf(a, size=N).get()
    assert x.dtype == numpy.int64 and x.min() >= 1
    ks = numpy.arange(1, 2_000_001, dtype=numpy.float64)
    zeta = numpy.sum(ks[::-1] ** -a) + 2_000_000.5 ** (1 - a) / (a - 1)
    assert table_distance(x, lambda k: k**-a / zeta if k else 0.0, 0, 60) < KS_1
    assert rng().zipf(2000.0, size=5).get().tolist() == [1] * 5


def test_multivariate_hypergeometric():
    colors, nsample = [3, 40, 12, 50], 30
    x = rng().multivariate_hypergeometric(colors, nsample, size=(N // 2, 2)).get()
    assert x.shape == (N // 2, 2, 4) and x.dtype == numpy.int64
    assert numpy.all(x.sum(axis=-1) == nsample) and numpy.all(x <= numpy.array(colors))
    flat = x.reshape(-1, 4)
    for i in (0, 3):  # each color alone is hypergeometric
        pmf = _hyper_pmf(colors[i], sum(colors) - colors[i], nsample)
        assert table_distance(flat[:, i], pmf, 0, min(colors[i], nsample)) < KS_1
    g = rng()
    assert g.multivariate_hypergeometric([3, 4], 7).tolist() == [3, 4]
    assert g.multivariate_hypergeometric([3, 4], 2, size=0).shape == (0, 2)
    assert g.multivariate_hypergeometric([], 0, size=3).shape == (3, 0)
    assert g.multivariate_hypergeometric([5], 2).tolist() == [2]
    assert g.multivariate_hypergeometric([3, 4], 2, method="count").shape == (2,)


SAMPLES = [
    ("wald", (1.0, 2.0)),
    ("vonmises", (0.5, [0.0, 1e-7, 3.0, 1e7])),
    ("noncentral_chisquare", ([0.5, 3.0, 1.0, 2.0], 2.0)),
    ("noncentral_f", (3.0, 4.0, 2.0)),
    ("hypergeometric", ([5, 100, 30, 1000], [7, 200, 2, 5000], [4, 50, 25, 500])),
    ("logseries", (0.8,)),
    ("zipf", (1.7,)),
]


@pytest.mark.parametrize("name,args", SAMPLES, ids=[s[0] for s in SAMPLES])
def test_same_seed_same_numbers_on_every_device(name, args, device_name):
    def draw(device, seed=77):
        return getattr(rng(seed), name)(*args, size=(25, 4), device=device)

    here = draw(device_name)
    assert here.device == gpupy.Device(device_name)
    numpy.testing.assert_array_equal(here.get(), draw(device_name).get())
    if here.dtype == numpy.int64:
        numpy.testing.assert_array_equal(here.get(), draw("cpu").get())
    else:
        numpy.testing.assert_allclose(here.get(), draw("cpu").get(), rtol=1e-11)
    assert not numpy.array_equal(here.get(), draw(device_name, 78).get())


def test_scalars_and_dtypes_match_numpy():
    g, ref = rng(), numpy.random.default_rng(0)
    for name, args in SAMPLES:
        scalar_args = tuple(a[0] if isinstance(a, list) else a for a in args)
        mine, theirs = getattr(g, name)(*scalar_args), getattr(ref, name)(*scalar_args)
        assert type(mine) is type(theirs), name
        arr = getattr(g, name)(*args, size=(0, 4))
        assert arr.shape == (0, 4) and arr.dtype == getattr(ref, name)(*args, size=4).dtype


ERRORS = [
    ("wald", (0.0, 1.0), "mean <= 0"),
    ("wald", (1.0, -1.0), "scale <= 0"),
    ("vonmises", (0.0, -1.0), "kappa < 0"),
    ("noncentral_chisquare", (0.0, 1.0), "df <= 0"),
    ("noncentral_chisquare", (1.0, -1.0), "nonc < 0"),
    ("noncentral_f", (1.0, 0.0, 1.0), "dfden <= 0"),
    ("noncentral_f", (1.0, 1.0, -1.0), "nonc < 0"),
    ("hypergeometric", (-1, 5, 1), "ngood < 0"),
    ("hypergeometric", (5, -1, 1), "nbad < 0"),
    ("hypergeometric", (5, 5, -1), "nsample < 0"),
    ("hypergeometric", (1, 1, 3), "ngood + nbad < nsample"),
    ("hypergeometric", (10**9, 1, 1), "both ngood and nbad must be less than 1000000000"),
    ("hypergeometric", (math.nan, 1, 1), ""),
    ("logseries", (1.0,), "p < 0, p >= 1 or p is NaN"),
    ("logseries", (math.nan,), "p < 0, p >= 1 or p is NaN"),
    ("zipf", (1.0,), "a <= 1 or a is NaN"),
    ("zipf", ([2.0, math.nan],), "a <= 1 or a is NaN"),
]


@pytest.mark.parametrize("name,args,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_errors_match_numpy(name, args, message):
    with pytest.raises(ValueError):
        getattr(numpy.random.default_rng(0), name)(*args)
    with pytest.raises(ValueError, match="^" + re.escape(f"[{name}] {message}")):
        getattr(rng(), name)(*args)


def test_device_parameter_errors_and_multivariate_errors():
    with pytest.raises(ValueError, match=r"^\[zipf\] a <= 1"):
        rng().zipf(gpupy.asarray([2.0, 0.5]))
    op = r"^\[multivariate_hypergeometric\] "
    with pytest.raises(ValueError, match=op + "nsample > sum"):
        rng().multivariate_hypergeometric([1, 2], 4)
    with pytest.raises(ValueError, match=op + "colors must be a sequence of nonneg"):
        rng().multivariate_hypergeometric([1, -2], 1)
    with pytest.raises(ValueError, match=op + "method must be"):
        rng().multivariate_hypergeometric([1, 2], 1, method="fast")


def test_legacy_functions_and_random_state():
    rs = gpupy.random.RandomState(3)
    x = rs.hypergeometric(5, 7, 4, size=N).get()
    assert table_distance(x, _hyper_pmf(5, 7, 4), 0, 4) < KS_1
    assert rs.hypergeometric(10**9, 1, 1) in (0, 1)  # no population limit in the legacy API
    with pytest.raises(ValueError, match=r"^\[hypergeometric\] nsample < 1"):
        rs.hypergeometric(1, 1, 0)
    gpupy.random.seed(4)
    a = gpupy.random.zipf(2.0, size=10)
    gpupy.random.seed(4)
    numpy.testing.assert_array_equal(a.get(), gpupy.random.zipf(2.0, size=10).get())
    for name in ("wald", "vonmises", "noncentral_chisquare", "noncentral_f", "logseries"):
        assert callable(getattr(gpupy.random, name)) and callable(getattr(rs, name))


def test_device_reads_per_call_stay_few(monkeypatch):
    """Each host read of device data is a sync on cuda: the rejection loops batch their redraws
    and the inversion searches look every few steps (main read 5-34 times for these)."""
    reads = []
    for name in ("__bool__", "__int__", "__float__"):  # each reads once (via item)
        orig = getattr(gpupy._core.ndarray, name)
        monkeypatch.setattr(
            gpupy._core.ndarray, name, lambda self, *a, _f=orig: reads.append(1) or _f(self, *a)
        )
    flatnonzero = gpupy.flatnonzero
    monkeypatch.setattr(gpupy, "flatnonzero", lambda x: reads.append(1) or flatnonzero(x))
    g = rng()
    for name, args, most in [
        ("standard_gamma", (0.5,), 2),
        ("poisson", (3.0,), 5),
        ("binomial", (1000, 0.4), 8),
        ("hypergeometric", (100, 200, 50), 8),
    ]:
        reads.clear()
        getattr(g, name)(*args, size=100_000)
        assert len(reads) <= most, (name, len(reads))


def test_permuted_shuffles_each_slice_independently(device_name):
    rows = 6000
    x = gpupy.asarray(numpy.tile(numpy.arange(3), (rows, 1)))
    r = rng().permuted(x, axis=1).get()
    numpy.testing.assert_array_equal(numpy.sort(r, axis=1), x.get())
    where0 = numpy.argmax(r == 0, axis=1)  # each of the 3 places equally likely, row by row
    expected = rows / 3
    chi2 = numpy.sum((numpy.bincount(where0, minlength=3) - expected) ** 2 / expected)
    assert chi2 < 13.8  # 99.9% with 2 degrees of freedom
    orders = {tuple(row) for row in r[:100]}
    assert len(orders) == 6  # slices get different orders, not one shared permutation
    y = numpy.arange(24.0).reshape(2, 3, 4)
    flat = rng().permuted(y).get()
    assert flat.shape == y.shape and sorted(flat.ravel()) == list(y.ravel())
    cols = rng().permuted(y, axis=-3).get()
    numpy.testing.assert_array_equal(numpy.sort(cols, axis=0), y)
    a = rng(5).permuted(gpupy.asarray(y, device=device_name), axis=2).get()
    numpy.testing.assert_array_equal(
        a, rng(5).permuted(gpupy.asarray(y, device="cpu"), axis=2).get()
    )


def test_permuted_out_and_errors():
    x = gpupy.arange(10)
    assert rng().permuted(x, out=x) is x and sorted(x.get()) == list(range(10))
    out = gpupy.empty((2, 0))
    assert rng().permuted(numpy.zeros((2, 0)), axis=1, out=out).shape == (2, 0)
    op = r"^\[permuted\] "
    with pytest.raises(ValueError, match=op + "out must have the same shape"):
        rng().permuted([1, 2, 3], out=gpupy.zeros(2))
    with pytest.raises(TypeError, match=op + "out must be a gpupy array"):
        rng().permuted([1, 2, 3], out=[0, 0, 0])
    with pytest.raises(TypeError, match=op + "cannot cast"):
        rng().permuted([1, 2, 3], out=gpupy.zeros(3, dtype=numpy.int8))
    with pytest.raises(ValueError, match=op + "axis 2 is out of bounds"):  # NumPy: AxisError
        rng().permuted([[1, 2, 3]], axis=2)
    with pytest.raises(TypeError, match=op):
        rng().permuted(3.0)


def test_tomaxint():
    rs = gpupy.random.RandomState(2)
    x = rs.tomaxint(5000).get()
    assert x.dtype == numpy.int64 and x.min() >= 0
    assert abs(x.mean() / numpy.iinfo(numpy.int64).max - 0.5) < 5 * 0.29 / math.sqrt(5000)
    assert type(rs.tomaxint()) is int
