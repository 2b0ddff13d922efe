"""Seeding plumbing of gpupy.random (host only): SeedSequence and the (key, counter) state
dicts of gpupy's Philox4x32-10 bit generator (_random_bitgen.py).

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
