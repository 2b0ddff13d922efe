"""gpupy.random.Generator beyond the distributions' statistics: cross-device equality, scalars,
shapes and parameter types, float32 and out=, the counting vectors, multivariate_normal and
choice, on the device under test."""

import math
import warnings

import gpupy
import numpy
import pytest
from random_stats import N, rng

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
