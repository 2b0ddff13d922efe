"""Seeding plumbing of gpupy.random (host only): SeedSequence, the Generator's ``bit_generator``
view of its Philox4x32-10 state, and the spawning of independent child generators.

A Generator's stream is Philox4x32-10 under a 64-bit key from counter 0; a SeedSequence gives
that key as ``generate_state(1, uint64)[0]``. The hashing is NumPy's SeedSequence (seed material
is host data), but the numbers drawn differ from NumPy's: its generators are PCG64/MT19937.
"""

import operator

import numpy

__all__ = ["SeedSequence"]

STATE_NAME = "Philox4x32-10"
_U64 = 1 << 64


class SeedSequence(numpy.random.SeedSequence):
    """See numpy.random.SeedSequence (same entropy, spawn_key, pool_size, spawn and
    generate_state). ``default_rng(seq)`` keys gpupy's Philox4x32-10 with
    ``seq.generate_state(1, numpy.uint64)[0]``, so the streams are gpupy's, not NumPy's."""


def key_of_sequence(seq):
    """The Philox key a SeedSequence (gpupy's or NumPy's) gives a Generator."""
    return int(seq.generate_state(1, numpy.uint64)[0])


def state_dict(key, counter):
    return {"bit_generator": STATE_NAME, "state": {"key": key, "counter": counter}}


def parse_state(state, op):
    """(key, counter) from a state dict as ``state_dict`` makes it."""
    try:
        if state["bit_generator"] != STATE_NAME:
            raise ValueError(
                f"[{op}] state must be for {STATE_NAME}, got {state['bit_generator']!r} "
                "(NumPy's bit generator states cannot be used)"
            )
        key, counter = state["state"]["key"], state["state"]["counter"]
    except (KeyError, TypeError):
        raise ValueError(
            f"[{op}] state must be a dict {{'bit_generator': '{STATE_NAME}', "
            "'state': {'key': int, 'counter': int}}"
        ) from None
    return check_words(key, counter, op)


def check_words(key, counter, op):
    try:
        key, counter = operator.index(key), operator.index(counter)
    except TypeError:
        raise TypeError(f"[{op}] key and counter must be integers") from None
    if not (0 <= key < _U64 and 0 <= counter < _U64):
        raise ValueError(f"[{op}] key and counter must be in [0, 2**64)")
    return key, counter


class PhiloxBits:
    """A Generator's ``bit_generator``: names Philox4x32-10 and reads or sets the generator's
    (key, counter) through ``state``; ``seed_seq`` is the SeedSequence its children come from."""

    def __init__(self, gen):
        self._gen = gen

    def __repr__(self):
        return f"{STATE_NAME}(key={self._gen._key:#x}, counter={self._gen._counter})"

    @property
    def state(self):
        return state_dict(self._gen._key, self._gen._counter)

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError("[state] state must be a dict")
        self._gen._key, self._gen._counter = parse_state(value, "state")

    @property
    def seed_seq(self):
        return self._gen._seed_sequence()

    def spawn(self, n_children):
        """Bit generators of `n_children` new independent Generators."""
        return [g.bit_generator for g in self._gen.spawn(n_children)]
