"""gpupy.random's bit generators (host only): BitGenerator, Philox (gpupy's Philox4x32-10 stream,
the state every Generator draws from) and the NumPy bit generators gpupy cannot draw, which
refuse to be built rather than hand out Philox numbers under their name.

NumPy's Philox is Philox4x64-10 (64-bit words, a 128-bit key, a 256-bit counter); gpupy's is
Philox4x32-10 with a 64-bit key and a 64-bit counter that counts output elements: the same API,
different numbers (Random123's known-answer vectors pin gpupy's: test_random_bitgen.py).
"""

import math
import operator
import sys

import numpy

from gpupy import _core
from gpupy._random_draws import _shape
from gpupy._random_seeding import (
    STATE_NAME,
    SeedSequence,
    check_words,
    key_of_sequence,
    parse_state,
    state_dict,
)

__all__ = ["MT19937", "PCG64", "PCG64DXSM", "SFC64", "BitGenerator", "Philox"]

_U64 = 1 << 64
_SEED_KINDS = "[{}] seed must be None, an integer, integers or a SeedSequence"


def key_of_seed(seed, op):
    """The 64-bit Philox key of a non-negative integer seed (the seed itself; wider seeds are
    folded in), so that default_rng(5) draws under key 5."""
    seed = operator.index(seed)
    if seed < 0:
        raise ValueError(f"[{op}] Seed must be non-negative")
    key = 0
    while True:
        key ^= seed % _U64
        seed >>= 64
        if not seed:
            return key
        key = (key * 0x9E3779B97F4A7C15 + 1) % _U64


def _sequence_and_key(seed, op):
    """(SeedSequence, key) of a BitGenerator seed: None, an integer, integers or a SeedSequence."""
    if isinstance(seed, numpy.random.SeedSequence):
        return seed, key_of_sequence(seed)
    if isinstance(seed, (numpy.random.BitGenerator, BitGenerator)):
        raise TypeError(_SEED_KINDS.format(op))
    if isinstance(seed, _core.ndarray):
        seed = seed.get()
    if seed is None or numpy.ndim(seed) > 0:
        try:
            seq = SeedSequence(seed)
        except (TypeError, ValueError) as e:
            raise type(e)(f"[{op}] {e}") from None
        return seq, key_of_sequence(seq)
    try:
        key = key_of_seed(seed, op)
    except TypeError:
        raise TypeError(_SEED_KINDS.format(op)) from None
    return SeedSequence(operator.index(seed)), key


def _word(value, name, op):
    """key= or counter=: an integer in [0, 2**64), gpupy's word size (NumPy's Philox4x64 takes
    128-bit keys and 256-bit counters)."""
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"[{op}] {name} must be an integer") from None
    if not 0 <= value < _U64:
        raise ValueError(f"[{op}] {name} must be in [0, 2**64) (gpupy's Philox4x32-10 word)")
    return value


class BitGenerator:
    """See numpy.random.BitGenerator: the base class of gpupy's bit generators. gpupy draws from
    one, Philox; ``seed_seq`` is the SeedSequence that ``spawn`` derives children from."""

    def __init__(self, seed=None):
        self._seed_seq, _ = _sequence_and_key(seed, type(self).__name__)

    @property
    def seed_seq(self):
        """The SeedSequence this bit generator was seeded from (and spawns from)."""
        return self._seed_seq

    def spawn(self, n_children):
        """`n_children` new bit generators of this type with independent streams, seeded from
        the children of ``seed_seq`` (see numpy.random.BitGenerator.spawn)."""
        kids = self.seed_seq.spawn(operator.index(n_children))
        return [type(self)(kid) for kid in kids]

    def random_raw(self, size=None, output=True):
        raise NotImplementedError(f"[random_raw] {type(self).__name__} draws no bits")


class Philox(BitGenerator):
    """See numpy.random.Philox, but gpupy's Philox4x32-10 stream, not NumPy's Philox4x64-10:
    element ``i`` of the stream is the block of counter ``counter + i`` under the 64-bit ``key``,
    on whichever device draws it.

    ``seed``: None (fresh entropy), a non-negative integer (the key, as default_rng(seed) uses
    it), integers or a SeedSequence (the key is ``generate_state(1, uint64)[0]``). ``key`` sets
    the key directly (not with seed) and ``counter`` the start; both are integers in
    [0, 2**64)."""

    def __init__(self, seed=None, counter=None, key=None):
        if key is not None:
            if seed is not None:
                raise ValueError("[Philox] seed and key cannot be both used")
            self._key, self._seed_seq = _word(key, "key", "Philox"), None
        else:
            self._seed_seq, self._key = _sequence_and_key(seed, "Philox")
        self._counter = 0 if counter is None else _word(counter, "counter", "Philox")

    def __repr__(self):
        return f"Philox({STATE_NAME}, key={self._key:#x}, counter={self._counter})"

    @property
    def seed_seq(self):
        if self._seed_seq is None:  # keyed directly: children still follow from the key
            self._seed_seq = SeedSequence(self._key)
        return self._seed_seq

    @property
    def state(self):
        """``{"bit_generator": "Philox4x32-10", "state": {"key": int, "counter": int}}``; NumPy's
        Philox states are refused (they describe a different generator)."""
        return state_dict(self._key, self._counter)

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError("[state] state must be a dict")
        self._key, self._counter = parse_state(value, "state")

    def _set_words(self, key, counter, op):
        self._key, self._counter = check_words(key, counter, op)

    def advance(self, delta):
        """Advances the stream as if `delta` elements had been drawn (the counter wraps at
        2**64); returns self, as NumPy's."""
        delta = operator.index(delta)
        if delta < 0:
            raise ValueError("[advance] delta must be non-negative")
        self._counter = (self._counter + delta) % _U64
        return self

    def jumped(self, jumps=1):
        raise NotImplementedError(
            "[jumped] gpupy's Philox counter is 64 bits, too short for NumPy's jumps of 2**128 "
            "draws; use spawn(n) for independent streams (or advance(delta))"
        )

    def random_raw(self, size=None, output=True, *, device=None):
        """64 random bits per element (the block's first two words, high word first) as uint64:
        a Python int for size=None, else a gpupy array on `device`. output=False only advances
        the stream."""
        bits = self._draw(
            _shape(size, "random_raw"),
            numpy.uint64,
            _core._RandomDistribution.bits,
            device,
            "random_raw",
        )
        if not output:
            return None
        return bits[()].item() if size is None else bits

    def _draw(self, shape, dtype, dist, device, op):
        """`shape` draws of `dist` in `dtype` on `device`, from this stream's next elements."""
        if any(s < 0 for s in shape):
            raise ValueError(f"[{op}] negative dimensions are not allowed")
        n, dtype = math.prod(shape), numpy.dtype(dtype)
        if n * dtype.itemsize > sys.maxsize:
            raise ValueError(
                f"[{op}] array is too big; the size {shape} overflows the address space"
            )
        out = _core._philox_random(shape, dtype, dist, self._key, self._counter, device)
        self._counter = (self._counter + n) % _U64
        return out


def _not_drawn(name):
    """A NumPy bit generator gpupy does not draw: building one raises, naming what to write."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(
            f"[{name}] gpupy.random draws Philox4x32-10 streams only (the same numbers on every "
            f"device); NumPy's {name} numbers cannot be reproduced: write "
            "gpupy.random.Generator(gpupy.random.Philox(seed)) or gpupy.random.default_rng(seed)"
        )

    doc = f"NumPy's {name} bit generator, which gpupy does not provide: building one raises."
    return type(name, (BitGenerator,), {"__init__": __init__, "__doc__": doc})


MT19937, PCG64, PCG64DXSM, SFC64 = map(_not_drawn, ("MT19937", "PCG64", "PCG64DXSM", "SFC64"))
