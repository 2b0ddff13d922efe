"""Random numbers for code that runs on either backend.

- get_rng(seed): the active backend's generator (numpy.random.default_rng, gpupy's or CuPy's).
- random_streams: one seeded generator per process and backend, for reproducible (MPI) runs:

      xp.rng.random_streams.seed(42, rank=comm.Get_rank())   # once, at start-up
      v = xp.rng.random_streams.normal(0.0, v_th, (n, 3))     # anywhere afterwards

  Rank r draws the stream (seed, r): a NumPy SeedSequence with spawn key (r, backend), so a run
  with the same seed and number of ranks repeats itself, and ranks draw independent streams.
- Philox4x32-10 functions of (seed, stream, counter), bit-identical with `cunumpy/random.cuh`:
  a kernel thread and the host draw the same numbers whatever the launch shape or the order of
  the particles (uniform exact, normal up to the last bits of the math functions).

The generators of the backends differ for one seed (NumPy: the chosen bit generator, PCG64 by
default; gpupy: Philox4x32-10 on every device; CuPy: its default), so build test data on the
host or compare statistics across backends."""

import numpy

from gpupy.cunumpy._backend import get_backend
from gpupy.cunumpy._checks import nonnegative_int
from gpupy.cunumpy._philox import (
    philox4x32_10,
    philox_normal,
    philox_normal2,
    philox_uniform,
    philox_uniform2,
)

__all__ = [
    "BIT_GENERATORS",
    "RandomStreams",
    "get_rng",
    "philox4x32_10",
    "philox_normal",
    "philox_normal2",
    "philox_uniform",
    "philox_uniform2",
    "random_streams",
]

#: The NumPy bit generators RandomStreams.seed takes by name.
BIT_GENERATORS = ("MT19937", "PCG64", "PCG64DXSM", "Philox", "SFC64")

# last spawn-key word of each backend's stream (numpy and cupy as in the reference layout)
_BACKEND_KEYS = {"numpy": 0, "cupy": 1, "gpupy": 2}


def _backend_module(backend):
    if backend == "gpupy":
        import gpupy

        return gpupy
    if backend == "cupy":
        import cupy

        return cupy
    return numpy


def get_rng(seed=None):
    """A new Generator of the active backend, seeded with `seed` (default_rng's seed forms)."""
    return _backend_module(get_backend()).random.default_rng(seed)


def _check_backend(op, backend):
    backend = get_backend() if backend is None else backend
    if backend not in _BACKEND_KEYS:
        names = ", ".join(map(repr, _BACKEND_KEYS))
        raise ValueError(f"[{op}] backend must be one of {names} or None, got {backend!r}")
    return backend


class RandomStreams:
    """The process's seeded generators, one per backend, created on first use from the stream
    (seed, rank). Not thread-safe, like the backend selection."""

    def __init__(self):
        self._sequence = None
        self._bit_generator = "PCG64"
        self._generators = {}

    def __repr__(self):
        if self._sequence is None:
            return "RandomStreams(not seeded)"
        return (
            f"RandomStreams(entropy={self._sequence.entropy}, "
            f"spawn_key={self._sequence.spawn_key}, bit_generator={self._bit_generator!r})"
        )

    @property
    def bit_generator(self):
        """The name of the NumPy bit generator (gpupy and CuPy use their own)."""
        return self._bit_generator

    def seed(self, value, rank=0, bit_generator=None):
        """Seeds all draws of this process with the stream (value, rank); value None takes
        entropy from the operating system. Replaces the generators of every backend, and seeds
        NumPy's global random state (and the active GPU backend's) from the same stream, for code
        that still calls numpy.random.* directly. bit_generator: one of BIT_GENERATORS (PCG64 when
        None) for the NumPy generator."""
        op = "random_streams.seed"
        if bit_generator is not None and bit_generator not in BIT_GENERATORS:
            raise ValueError(
                f"[{op}] unknown bit generator {bit_generator!r}; use one of "
                f"{', '.join(BIT_GENERATORS)}"
            )
        if value is not None:
            value = nonnegative_int(op, "the seed", value)
        rank = nonnegative_int(op, "rank", rank)
        self._bit_generator = bit_generator or "PCG64"
        self._sequence = numpy.random.SeedSequence(value, spawn_key=(rank,))
        self._generators.clear()
        legacy = int(self._sequence.generate_state(1)[0])
        numpy.random.seed(legacy)
        if get_backend() != "numpy":
            _backend_module(get_backend()).random.seed(legacy)

    def _backend_sequence(self, backend):
        if self._sequence is None:  # never seeded: fresh entropy, once per process
            self._sequence = numpy.random.SeedSequence()
        return numpy.random.SeedSequence(
            self._sequence.entropy, spawn_key=(*self._sequence.spawn_key, _BACKEND_KEYS[backend])
        )

    def generator(self, backend=None):
        """The process generator of `backend` ("numpy", "gpupy" or "cupy"; the active one when
        None), created on first use."""
        backend = _check_backend("random_streams.generator", backend)
        gen = self._generators.get(backend)
        if gen is None:
            sequence = self._backend_sequence(backend)
            if backend == "numpy":
                bits = getattr(numpy.random, self._bit_generator)(sequence)
                gen = numpy.random.Generator(bits)
            elif backend == "gpupy":
                gen = _backend_module("gpupy").random.default_rng(sequence)
            else:
                state = int(sequence.generate_state(1, dtype=numpy.uint64)[0])
                gen = _backend_module("cupy").random.default_rng(state)
            self._generators[backend] = gen
        return gen

    def make_generator(self, seed=None, backend=None):
        """A generator for a component: a new one from its own `seed`, else the process one."""
        if seed is None:
            return self.generator(backend)
        backend = _check_backend("random_streams.make_generator", backend)
        return _backend_module(backend).random.default_rng(seed)

    def _rng(self, rng):
        return self.generator() if rng is None else rng

    def random(self, size=None, rng=None):
        """Uniform samples in [0, 1) from `rng` (the process generator when None)."""
        return self._rng(rng).random(size=size)

    def standard_normal(self, size=None, rng=None):
        """Standard normal samples from `rng` (the process generator when None)."""
        return self._rng(rng).standard_normal(size=size)

    def normal(self, loc=0.0, scale=1.0, size=None, rng=None):
        """Normal samples from `rng` (the process generator when None)."""
        return self._rng(rng).normal(loc, scale, size)

    def uniform(self, low=0.0, high=1.0, size=None, rng=None):
        """Uniform samples in [low, high) from `rng` (the process generator when None)."""
        return self._rng(rng).uniform(low, high, size)


#: The random streams of this process.
random_streams = RandomStreams()
