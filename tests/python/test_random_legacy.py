"""gpupy.random's legacy API (seed, rand, randint, RandomState, ...) on the device under test:
reproducibility, the relation to the Generator stream, cross-device equality, ranges and
statistics against exact values, state round trips and NumPy's error cases."""

import math

import gpupy
import numpy
import pytest
from gpupy import random as R

N = 20_000


def test_seed_reproduces_and_matches_the_generator_stream():
    R.seed(123)
    a = R.rand(4, 5)
    R.seed(123)
    b = R.random_sample((4, 5))
    assert a.shape == (4, 5) and a.dtype == numpy.float64
    assert a.device == gpupy.get_default_device()
    numpy.testing.assert_array_equal(a.get(), b.get())
    # RandomState(s) draws the same Philox stream as default_rng(s).
    expected = gpupy.random.default_rng(123).random(20).get().reshape(4, 5)
    numpy.testing.assert_array_equal(a.get(), expected)
    R.seed(123)
    numpy.testing.assert_array_equal(R.random(20).get(), expected.ravel())
    R.seed(123)
    numpy.testing.assert_array_equal(R.ranf(20).get(), R.RandomState(123).random_sample(20).get())
    R.seed(124)
    assert not numpy.array_equal(R.rand(20).get(), expected.ravel())


def test_scalars_and_shapes():
    R.seed(0)
    assert type(R.rand()) is float and type(R.randn()) is float
    assert type(R.random_sample()) is float and type(R.randint(5)) is int
    assert R.randn(3, 2).shape == (3, 2) and R.rand(0).shape == (0,)
    assert R.randint(3, size=(2, 0)).shape == (2, 0)
    assert R.standard_normal(size=()).shape == ()
    assert type(R.poisson(2.0)) is int and type(R.exponential()) is float


def test_same_numbers_on_every_device(device_name):
    def draws():
        rs = R.RandomState(2024)
        return [
            rs.rand(50),
            rs.randn(50),
            rs.randint(-5, 5, size=50),
            rs.gamma(0.7, 2.0, size=50),
            rs.poisson(25.0, size=50),
            rs.choice(10, 5, replace=False),
            rs.permutation(20),
        ]

    here = draws()
    with gpupy.Device("cpu"):
        on_cpu = draws()
    for x, y in zip(here, on_cpu, strict=True):
        assert x.device == gpupy.Device(device_name)
        numpy.testing.assert_allclose(x.get(), y.get(), rtol=1e-12)


def test_uniform_and_normal_statistics():
    rs = R.RandomState(7)
    u = numpy.sort(rs.rand(N).get())
    assert u.min() >= 0 and u.max() < 1
    assert numpy.max(numpy.abs(u - numpy.arange(1, N + 1) / N)) < 1.95 / math.sqrt(N)
    z = rs.randn(N).get()
    assert abs(z.mean()) < 5 / math.sqrt(N) and abs(z.var() - 1) < 5 * math.sqrt(2 / N)
    v = rs.uniform(-2.0, 6.0, N).get()
    assert v.min() >= -2 and v.max() < 6 and abs(v.mean() - 2) < 5 * 8 / math.sqrt(12 * N)
    w = rs.normal(3.0, 0.5, size=N).get()
    assert abs(w.mean() - 3) < 5 * 0.5 / math.sqrt(N)


def test_randint_range_dtype_and_uniformity():
    rs = R.RandomState(8)
    x = rs.randint(-3, 4, size=N)
    assert x.dtype == numpy.int64  # NumPy's default int
    counts = numpy.bincount(x.get() + 3, minlength=7)
    assert counts.size == 7 and counts.min() > 0  # high is exclusive: 3 is the top
    expected = N / 7
    assert numpy.sum((counts - expected) ** 2 / expected) < 7 + 6 * math.sqrt(14)
    y = rs.randint(10, size=100, dtype=numpy.uint8)
    assert y.dtype == numpy.uint8 and y.get().max() < 10
    b = rs.randint(2, size=1000, dtype=bool)
    assert b.dtype == numpy.bool_ and 400 < int(b.sum()) < 600
    assert type(rs.randint(0, 2, dtype=numpy.bool_)) is bool
    z = rs.randint(gpupy.asarray([0, 100]), [1, 102], size=(50, 2)).get()
    assert numpy.all(z[:, 0] == 0) and set(numpy.unique(z[:, 1])) <= {100, 101}


def test_random_integers_is_inclusive_and_deprecated():
    rs = R.RandomState(9)
    with pytest.warns(DeprecationWarning):
        x = rs.random_integers(3, size=3000).get()
    assert set(numpy.unique(x)) == {1, 2, 3}
    with pytest.warns(DeprecationWarning):
        y = R.random_integers(-2, 2, size=3000).get()
    assert set(numpy.unique(y)) == {-2, -1, 0, 1, 2}


def test_choice_permutation_shuffle_bytes():
    rs = R.RandomState(10)
    c = rs.choice([10, 20, 30], size=N, p=[0.2, 0.0, 0.8]).get()
    assert abs((c == 10).mean() - 0.2) < 5 * math.sqrt(0.16 / N) and not numpy.any(c == 20)
    s = rs.choice(8, 8, replace=False).get()
    numpy.testing.assert_array_equal(numpy.sort(s), numpy.arange(8))
    p = rs.permutation(gpupy.arange(12.0).reshape(4, 3)).get()
    numpy.testing.assert_array_equal(numpy.sort(p[:, 0]), [0, 3, 6, 9])
    numpy.testing.assert_array_equal(p[:, 1] - p[:, 0], 1)  # rows move whole
    x = gpupy.arange(30)
    rs.shuffle(x)
    assert not numpy.array_equal(x.get(), numpy.arange(30))
    numpy.testing.assert_array_equal(numpy.sort(x.get()), numpy.arange(30))
    host, items = numpy.arange(10.0), list("abcdefgh")
    R.shuffle(host)
    R.shuffle(items)
    assert sorted(host) == list(range(10)) and sorted(items) == list("abcdefgh")
    b = rs.bytes(16)
    assert type(b) is bytes and len(b) == 16


def test_state_round_trip():
    R.seed(5)
    state = R.get_state()
    assert state[0] == "Philox4x32-10" and isinstance(state[1], int)
    first = R.randn(10).get()
    R.set_state(state)
    numpy.testing.assert_array_equal(R.randn(10).get(), first)
    rs = R.RandomState()
    rs.set_state(state)
    numpy.testing.assert_array_equal(rs.randn(10).get(), first)
    assert R.RandomState(5).get_state() == state


def test_seeds():
    a = R.RandomState([1, 2, 3]).rand(5).get()
    numpy.testing.assert_array_equal(a, R.RandomState(numpy.array([1, 2, 3])).rand(5).get())
    assert not numpy.array_equal(a, R.RandomState([1, 2, 4]).rand(5).get())
    assert not numpy.array_equal(a, R.RandomState([1, 2, 3, 0]).rand(5).get())
    assert not numpy.array_equal(R.RandomState().rand(5).get(), R.RandomState().rand(5).get())
    rs = R.RandomState(0)
    rs.seed(99)
    numpy.testing.assert_array_equal(rs.rand(5).get(), R.RandomState(99).rand(5).get())


@pytest.mark.parametrize(
    "name,args,mean,var",
    [
        ("exponential", (2.0,), 2.0, 4.0),
        ("standard_gamma", (3.0,), 3.0, 3.0),
        ("beta", (2.0, 2.0), 0.5, 0.05),
        ("binomial", (20, 0.25), 5.0, 3.75),
        ("geometric", (0.5,), 2.0, 2.0),
        ("chisquare", (4.0,), 4.0, 8.0),
        ("logistic", (1.0, 1.0), 1.0, math.pi**2 / 3),
    ],
)
def test_module_samplers_have_the_right_moments(name, args, mean, var):
    R.seed(11)
    x = getattr(R, name)(*args, size=N).get().astype(numpy.float64)
    numpy.testing.assert_array_equal(
        x, getattr(R.RandomState(11), name)(*args, size=N).get().astype(numpy.float64)
    )
    assert abs(x.mean() - mean) < 5 * math.sqrt(var / N)


def test_every_legacy_name_is_exported():
    for name in [
        "seed rand randn random random_sample ranf sample uniform normal standard_normal "
        "randint random_integers choice permutation shuffle bytes get_state set_state "
        "exponential standard_exponential laplace logistic gumbel rayleigh weibull pareto power "
        "standard_cauchy lognormal triangular geometric standard_gamma gamma beta chisquare f "
        "standard_t dirichlet poisson binomial multinomial multivariate_normal negative_binomial "
        "RandomState"
    ][0].split():
        assert name in R.__all__ and callable(getattr(R, name)), name
        if name not in ("RandomState", "ranf", "sample"):
            assert callable(getattr(R.RandomState, name)), name


@pytest.mark.parametrize(
    "call,exc,message",
    [
        (lambda: R.randint(3, 1), ValueError, r"^\[randint\] low >= high"),
        (lambda: R.randint(5, size=2, dtype=numpy.float64), TypeError, r"^\[randint\] dtype"),
        (lambda: R.randint(0, 300, dtype=numpy.uint8), ValueError, r"^\[randint\] high is out"),
        (lambda: R.randint(3, dtype=bool), ValueError, r"^\[randint\] high is out of bounds"),
        (lambda: R.randint(-1, 1, dtype=bool), ValueError, r"^\[randint\] low is out of bounds"),
        (lambda: R.seed(-1), ValueError, r"^\[seed\] Seed must be between 0 and 2\*\*32 - 1"),
        (
            lambda: R.seed([1, 2**32]),
            ValueError,
            r"^\[seed\] Seed must be between 0 and 2\*\*32 - 1",
        ),
        (lambda: R.RandomState(2**40), ValueError, r"^\[RandomState\] Seed must be between"),
        (lambda: R.seed(1.5), TypeError, r"^\[seed\] seed must be"),
        (lambda: R.RandomState("x"), TypeError, r"^\[RandomState\] seed must be"),
        (lambda: R.set_state(("MT19937", [0] * 624, 0)), ValueError, r"^\[set_state\] state"),
        (lambda: R.set_state(("Philox4x32-10", -1, 0)), ValueError, r"^\[set_state\] key"),
        (lambda: R.set_state(("Philox4x32-10", 1.5, 0)), TypeError, r"^\[set_state\] key"),
        (lambda: R.choice([[1, 2]]), ValueError, r"^\[choice\] a must be 1-dimensional"),
        (lambda: R.choice(0, 2), ValueError, r"^\[choice\] a must be a positive integer"),
        (lambda: R.shuffle((1, 2)), TypeError, r"^\[shuffle\] x must be"),
        (lambda: R.normal(0, -1), ValueError, r"^\[normal\] scale < 0"),
        (lambda: R.poisson(-2), ValueError, r"^\[poisson\] lam < 0"),
        (lambda: R.rand(-1), ValueError, r"^\[random\] negative dimensions"),
    ],
)
def test_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_randint_truncates_float_bounds_as_numpy():
    # NumPy's randint(2.5) draws from [0, 2), as Generator.integers does.
    want = numpy.random.RandomState(5).randint(2.5, size=4000)
    got = gpupy.random.RandomState(5).randint(2.5, size=4000).get()
    assert set(numpy.unique(got)) == set(numpy.unique(want)) == {0, 1}


def test_legacy_uniform_allows_reversed_bounds():
    """RandomState.uniform, unlike Generator.uniform, takes high < low: samples in (high, low]."""
    for draw in (gpupy.random.uniform, gpupy.random.RandomState(3).uniform):
        x = draw(5.0, 2.0, 1000).get()
        assert x.min() > 2.0 and x.max() <= 5.0
        with pytest.raises(OverflowError, match=r"^\[uniform\] high - low range exceeds"):
            draw(0.0, math.inf)
