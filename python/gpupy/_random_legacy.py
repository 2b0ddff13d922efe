"""NumPy's legacy random API for gpupy.random: the RandomState class and the module-level
functions (seed, rand, randn, randint, ...) bound to one global RandomState.

A RandomState wraps a gpupy Generator (Philox4x32-10, one counter per element), so the same
seed gives the same numbers on cpu, emu and cuda, but not MT19937's numbers: code that relies on
NumPy's exact legacy stream will see different values. get_state/set_state exchange gpupy's own
state tuple ``("Philox4x32-10", key, counter)`` instead of MT19937's 624-word key.
"""

import inspect
import operator
import secrets
import sys
import warnings

import numpy

from gpupy import _core
from gpupy._random_bitgen import Philox, key_of_seed
from gpupy._random_seeding import STATE_NAME as _STATE_NAME
from gpupy._random_seeding import parse_state, state_dict

_U64 = 1 << 64
_GENERATOR_ONLY = {"dtype", "out", "method"}  # keywords NumPy's legacy samplers do not take

# Samplers whose legacy signature is the Generator's (parameters..., size) prefix.
_SAMPLERS = (
    "beta binomial chisquare dirichlet exponential f gamma geometric gumbel laplace logistic "
    "lognormal logseries multinomial multivariate_normal negative_binomial noncentral_chisquare "
    "noncentral_f normal pareto poisson power rayleigh standard_cauchy standard_exponential "
    "standard_gamma standard_normal standard_t triangular vonmises wald weibull zipf"
).split()


def _seed_key(seed, op):
    """The Generator key of a legacy seed: None (fresh entropy), an integer or integers."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, _core.ndarray):
        seed = seed.get()
    try:
        words = numpy.asarray(seed)
        if words.dtype.kind not in "iub" and words.dtype != object:
            raise TypeError
        words = [operator.index(w) for w in words.reshape(-1)]
    except TypeError:
        raise TypeError(f"[{op}] seed must be None, an integer or a sequence of integers") from None
    if any(w < 0 or w > 0xFFFFFFFF for w in words):  # MT19937's 32-bit seed words, as NumPy
        raise ValueError(f"[{op}] Seed must be between 0 and 2**32 - 1")
    if numpy.ndim(seed) == 0:
        return key_of_seed(words[0], op)
    value = 0
    for w in words:  # fold the words into one integer, 64 bits per word (exact for uint64)
        value = (value << 64) | (w % _U64)
    return key_of_seed(value + len(words), op)


def _legacy_bit_generator(bitgen, op):
    if not isinstance(bitgen, Philox):
        raise TypeError(
            f"[{op}] {type(bitgen).__name__}: gpupy's legacy functions draw from a "
            "gpupy.random.Philox, not from NumPy's bit generators"
        )
    return bitgen


class RandomState:
    """See numpy.random.RandomState. gpupy's version draws from a Philox4x32-10 Generator on the
    default device (or on the device of gpupy array parameters), not from MT19937. ``seed`` may
    be a gpupy Philox, which it then draws from (NumPy takes a BitGenerator there too)."""

    def __init__(self, seed=None):
        from gpupy.random import Generator

        if isinstance(seed, (Philox, numpy.random.BitGenerator)):
            self._gen = Generator(_legacy_bit_generator(seed, "RandomState"))
        else:
            self._gen = Generator(Philox(key=_seed_key(seed, "RandomState")))

    def __repr__(self):
        return f"RandomState(Philox4x32-10) at {id(self):#x}"

    def seed(self, seed=None):
        """Restarts the stream from `seed` (None, an integer or a sequence of integers)."""
        self._gen.bit_generator._set_words(_seed_key(seed, "seed"), 0, "seed")

    def get_state(self, legacy=True):
        """gpupy's state, not MT19937's: the tuple ``("Philox4x32-10", key, counter)``, or with
        ``legacy=False`` NumPy's dict layout ``{"bit_generator": "Philox4x32-10", "state":
        {"key": key, "counter": counter}, "has_gauss": 0, "gauss": 0.0}``."""
        bg = self._gen.bit_generator
        if legacy:
            return (_STATE_NAME, bg._key, bg._counter)
        return {**state_dict(bg._key, bg._counter), "has_gauss": 0, "gauss": 0.0}

    def set_state(self, state):
        """Restores a state returned by get_state (either form)."""
        if isinstance(state, dict):
            self._gen.bit_generator._set_words(*parse_state(state, "set_state"), "set_state")
            return
        if not (isinstance(state, tuple) and len(state) == 3 and state[0] == _STATE_NAME):
            raise ValueError(
                f"[set_state] state must be a tuple ('{_STATE_NAME}', key, counter) as returned "
                "by gpupy.random.get_state; MT19937 states cannot be used"
            )
        self._gen.bit_generator._set_words(state[1], state[2], "set_state")

    def random_sample(self, size=None):
        """Uniform floats in [0, 1)."""
        return self._gen.random(size)

    random = random_sample

    def rand(self, *args):
        """Uniform floats in [0, 1) of shape ``args`` (a float with no arguments)."""
        return self._gen.random(args or None)

    def randn(self, *args):
        """Standard normal floats of shape ``args`` (a float with no arguments)."""
        return self._gen.standard_normal(args or None)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers in [low, high) (in [0, low) when high is None)."""
        return self._gen._integers("randint", low, high, size, dtype, False, None)

    def random_integers(self, low, high=None, size=None):
        """Integers in [low, high] (in [1, low] when high is None); deprecated as in NumPy."""
        warnings.warn(
            "This function is deprecated. Please call randint(low, high + 1) instead",
            DeprecationWarning,
            stacklevel=2,
        )
        if high is None:
            low, high = 1, low
        return self._gen._integers("random_integers", low, high, size, int, True, None)

    def choice(self, a, size=None, replace=True, p=None):
        """Random elements of the 1-d `a` (or of arange(a) for an integer)."""
        if isinstance(a, _core.ndarray) or numpy.ndim(a) > 0:
            if numpy.ndim(a) != 1:
                raise ValueError("[choice] a must be 1-dimensional")
        return self._gen.choice(a, size, replace, p)

    def permutation(self, x):
        """A shuffled copy of x (or a permutation of arange(x)) along the first axis."""
        return self._gen.permutation(x)

    def shuffle(self, x):
        """Shuffles the gpupy array x in place along its first axis."""
        self._gen.shuffle(x)

    def bytes(self, length):
        """`length` random bytes."""
        return self._gen.bytes(length)

    def tomaxint(self, size=None):
        """Integers in [0, sys.maxsize] (int64)."""
        return self._gen._integers("tomaxint", 0, sys.maxsize, size, numpy.int64, True, None)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        """Hypergeometric int64 counts; as NumPy's legacy version, nsample must be at least 1
        and the population has no 10**9 limit."""
        return self._gen._hypergeometric(ngood, nbad, nsample, size, None, legacy=True)

    def uniform(self, low=0.0, high=1.0, size=None):
        """See numpy.random.RandomState.uniform: unlike Generator.uniform, high < low is
        allowed (the samples then lie in (high, low])."""
        return self._gen._uniform_range(low, high, size, numpy.float64, None, reversed_ok=True)


def _sampler(name):
    """RandomState.name: the Generator's sampler under NumPy's legacy signature (no dtype, out,
    method or device; gpupy array parameters still choose the device)."""
    from gpupy.random import Generator

    params = [
        p
        for p in inspect.signature(getattr(Generator, name)).parameters.values()
        if p.kind is p.POSITIONAL_OR_KEYWORD and p.name not in _GENERATOR_ONLY
    ]
    legacy = inspect.Signature(params[1:])  # without self

    def method(self, *args, **kwargs):
        try:
            bound = legacy.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"[{name}] {e}") from None
        return getattr(self._gen, name)(**bound.arguments)

    method.__name__ = method.__qualname__ = name
    method.__signature__ = inspect.Signature(params)
    method.__doc__ = f"See numpy.random.RandomState.{name}: the Generator's sampler."
    return method


for _name in _SAMPLERS:
    setattr(RandomState, _name, _sampler(_name))

_global = RandomState()
_FUNCTIONS = (
    "seed get_state set_state rand randn random random_sample randint random_integers choice "
    "permutation shuffle bytes hypergeometric uniform"
).split() + _SAMPLERS
for _name in _FUNCTIONS:
    globals()[_name] = getattr(_global, _name)
ranf = sample = random_sample  # noqa: F821 - NumPy's module-level aliases, bound just above


def get_bit_generator():
    """See numpy.random.get_bit_generator: the Philox the legacy module functions draw from."""
    return _global._gen.bit_generator


def set_bit_generator(bitgen):
    """See numpy.random.set_bit_generator: the legacy module functions draw from `bitgen` (a
    gpupy.random.Philox) from now on."""
    from gpupy.random import Generator

    _global._gen = Generator(_legacy_bit_generator(bitgen, "set_bit_generator"))


__all__ = ["RandomState", "get_bit_generator", "ranf", "sample", "set_bit_generator", *_FUNCTIONS]
