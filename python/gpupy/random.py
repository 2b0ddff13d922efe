"""Random numbers: NumPy's ``default_rng``/``Generator`` API and its legacy module API
(``seed``, ``rand``, ``randint``, ``RandomState``, ...) on every gpupy device.

The bits come from Philox4x32-10 (gpupy.cunumpy.rng is its host reference), one counter per
output element, generated on the array's device: the same seed gives the same numbers on cpu,
emu and cuda (transformed samplers agree up to the last bits of each device's log/exp/...;
a rejection decision that falls within those bits, about once in 1e15 draws, can differ).
The streams differ from NumPy's (PCG64 for Generator, MT19937 for the legacy functions): same
API, same distributions, different numbers; ``get_state`` returns gpupy's (key, counter) state.
The legacy functions share one global RandomState, as in NumPy.

Element ``i`` of a draw uses counter ``c + i``, where ``c`` counts the elements the generator has
drawn before; ``uniform`` float64 values equal ``gpupy.cunumpy.rng.philox_uniform(seed, c + i)``.
``integers`` reduces 64 random bits modulo the range (bias below range / 2**64).

Seeding follows NumPy's shape: ``default_rng`` also takes a SeedSequence (NumPy's hash; the key
is ``generate_state(1, uint64)[0]``), ``Generator.spawn`` derives children from it, and
``Generator.bit_generator.state`` reads or sets the (key, counter) pair.

Draws stay on the device; what is read back to the host is NumPy's parameter validation for
device parameters (one read per check, integers' bounds and choice's p in one read each), the
number of rejected elements per round of the rejection samplers (a compaction), and in the
small-mean Poisson and binomial searches one "still searching?" flag per 8 steps.
"""

import functools as _functools
import math as _math
import operator as _operator
import sys as _sys

import numpy as _numpy

from gpupy import _core
from gpupy._random_draws import _check, _float_dtype, _from_out, _param, _shape
from gpupy._random_draws import output_shape as _output_shape
from gpupy._random_more import _MoreDistributions
from gpupy._random_sampling import _Sampling
from gpupy._random_seeding import PhiloxBits, SeedSequence
from gpupy._random_seeding import key_of_sequence as _key_of_sequence

__all__ = ["Generator", "SeedSequence", "default_rng"]

_U64 = 1 << 64
_DIST = _core._RandomDistribution


def _key_of(seed):
    """The 64-bit Philox key of a non-negative integer seed; wider seeds are folded in."""
    seed = _operator.index(seed)
    if seed < 0:
        raise ValueError("[default_rng] Seed must be non-negative")
    key = 0
    while True:
        key ^= seed % _U64
        seed >>= 64
        if not seed:
            return key
        key = (key * 0x9E3779B97F4A7C15 + 1) % _U64


class Generator(_MoreDistributions, _Sampling):
    """See numpy.random.Generator; ``device=`` on each method places the result (default: the
    default device). Arrays are generated on that device; ``size=None`` returns a Python
    scalar as NumPy does."""

    def __init__(self, key, counter=0):
        try:
            self._key, self._counter = _operator.index(key) % _U64, _operator.index(counter) % _U64
        except TypeError:
            raise TypeError(
                "[Generator] key and counter must be integers; for a bit generator or a seed "
                "use gpupy.random.default_rng"
            ) from None
        self._seed_seq = None  # made on first spawn when the generator was keyed directly

    def __repr__(self):
        return f"Generator(Philox4x32-10, key={self._key:#x}, counter={self._counter})"

    @property
    def bit_generator(self):
        """Philox4x32-10's view of this generator: ``state`` reads or sets (key, counter)."""
        return PhiloxBits(self)

    def _seed_sequence(self):
        if self._seed_seq is None:
            self._seed_seq = SeedSequence(self._key)
        return self._seed_seq

    def spawn(self, n_children):
        """`n_children` new Generators with independent streams (keys from the spawned children
        of this generator's SeedSequence, as NumPy spawns)."""
        kids = self._seed_sequence().spawn(_operator.index(n_children))
        return [_from_sequence(kid) for kid in kids]

    def _draw(self, size, dtype, dist, device, op):
        shape = _shape(size, op)
        n = 1
        for s in shape:  # a loop: any() over a generator and math.prod cost ~0.4 us
            if s < 0:
                raise ValueError(f"[{op}] negative dimensions are not allowed")
            n *= s
        if type(dtype) is not _numpy.dtype:
            dtype = _numpy.dtype(dtype)
        if n * dtype.itemsize > _sys.maxsize:
            raise ValueError(
                f"[{op}] array is too big; the size {shape} overflows the address space"
            )
        out = _core._philox_random(shape, dtype, dist, self._key, self._counter, device)
        self._counter = (self._counter + n) % _U64
        return out

    @staticmethod
    def _result(a, size, out):
        if out is not None:
            out[...] = a
            return out
        return a[()].item() if size is None else a

    def random(self, size=None, dtype=_numpy.float64, out=None, *, device=None):
        """Uniform floats in [0, 1)."""
        dt = _float_dtype(dtype, "random")
        size, device = _from_out(out, size, device)
        return self._result(self._draw(size, dt, _DIST.uniform, device, "random"), size, out)

    def standard_normal(self, size=None, dtype=_numpy.float64, out=None, *, device=None):
        """Standard normal floats (Box-Muller in float64)."""
        dt = _float_dtype(dtype, "standard_normal")
        size, device = _from_out(out, size, device)
        z = self._draw(size, dt, _DIST.normal, device, "standard_normal")
        return self._result(z, size, out)

    def _scaled(self, dist, a, b, size, dtype, device, op):
        """a + b * draw, broadcasting array parameters as NumPy does."""
        from gpupy import asarray

        dt = _float_dtype(dtype, op)
        if _plain(a) and _plain(b):  # the common call: no shapes to broadcast
            z = self._draw(_shape(size, op), dt, dist, device, op)
            # z * b + a in place, rounded in dt as the two operations round it (z * 1 is z).
            if b != 1:
                _core.multiply(z, dt.type(b), out=z)
            _core.add(z, dt.type(a), out=z)
            return z[()].item() if size is None else z
        arrays = [x for x in (a, b) if isinstance(x, _core.ndarray) or _numpy.ndim(x) > 0]
        arrays = [asarray(x, device=device) for x in arrays]
        if device is None and arrays:
            device = arrays[0].device
        shape = _output_shape(op, size, [x.shape for x in arrays])
        z = self._draw(shape, dt, dist, device, op)
        if not isinstance(a, _core.ndarray):
            a = (
                _numpy.asarray(a, dtype=dt)[()]
                if _numpy.ndim(a) == 0
                else asarray(a, dt, device=device)
            )
        if not isinstance(b, _core.ndarray):
            b = (
                _numpy.asarray(b, dtype=dt)[()]
                if _numpy.ndim(b) == 0
                else asarray(b, dt, device=device)
            )
        r = (z * b + a).astype(dt, copy=False)
        return r[()].item() if size is None and r.ndim == 0 else r

    def normal(self, loc=0.0, scale=1.0, size=None, *, dtype=_numpy.float64, device=None):
        """Normal floats: loc + scale * standard_normal."""
        if _plain(scale):
            if scale < 0:
                raise ValueError("[normal] scale < 0")
        else:
            _check("normal", "scale < 0", _param(scale) < 0)  # on the device for gpupy arrays
        return self._scaled(_DIST.normal, loc, scale, size, dtype, device, "normal")

    def uniform(self, low=0.0, high=1.0, size=None, *, dtype=_numpy.float64, device=None):
        """Uniform floats in [low, high): low + (high - low) * random."""
        return self._uniform_range(low, high, size, dtype, device, reversed_ok=False)

    def _uniform_range(self, low, high, size, dtype, device, reversed_ok):
        """uniform; reversed_ok: high < low is allowed (RandomState.uniform's rule)."""
        from gpupy import asarray, isfinite

        if _plain(low) and _plain(high):
            width = float(high) - float(low)  # float64 arithmetic, as numpy.subtract's below
            if not _math.isfinite(width):
                raise OverflowError("[uniform] high - low range exceeds valid bounds")
            if width < 0 and not reversed_ok:
                raise ValueError("[uniform] high - low < 0")
            return self._scaled(_DIST.uniform, low, width, size, dtype, device, "uniform")
        if isinstance(low, _core.ndarray) or isinstance(high, _core.ndarray):
            width = asarray(high) - asarray(low)
            finite = isfinite(width)
        else:
            with _numpy.errstate(invalid="ignore", over="ignore"):
                width = _numpy.subtract(high, low, dtype=_numpy.float64)
            finite = _numpy.isfinite(width)
        msg = "high - low range exceeds valid bounds"
        _check("uniform", msg, ~finite, OverflowError)
        if not reversed_ok:
            _check("uniform", "high - low < 0", width < 0)
        return self._scaled(_DIST.uniform, low, width, size, dtype, device, "uniform")

    def integers(
        self, low, high=None, size=None, dtype=_numpy.int64, endpoint=False, *, device=None
    ):
        """Integers in [low, high) (or [low, high] with endpoint=True); low and high may be
        arrays (broadcast as NumPy does)."""
        return self._integers("integers", low, high, size, dtype, endpoint, device)

    def _integers(self, op, low, high, size, dtype, endpoint, device):
        dt = _numpy.dtype(dtype)
        if dt.kind not in "iub":
            raise TypeError(f"[{op}] dtype must be an integer type, got {dt}")
        if size is not None and 0 in _shape(size, op):  # NumPy skips the bound checks too
            return self._draw(size, _numpy.uint64, _DIST.bits, device, op).astype(dt)
        if dt == _numpy.bool_:  # NumPy allows bool for the range [0, 1]
            if high is None:
                low, high = 0, low
            if _is_array(low) or _is_array(high):
                raise NotImplementedError(f"[{op}] array bounds need an integer dtype")
            if _operator.index(low) < 0:
                raise ValueError(f"[{op}] low is out of bounds for bool")
            if _operator.index(high) - (0 if endpoint else 1) > 1:
                raise ValueError(f"[{op}] high is out of bounds for bool")
            r = self._integers(op, low, high, size, _numpy.uint8, endpoint, device)
            return r != 0 if isinstance(r, _core.ndarray) else bool(r)
        if high is None:
            low, high = 0, low
        if _is_array(low) or _is_array(high):
            return self._integers_array(op, low, high, size, dt, endpoint, device)
        low, high = _integer_bound(low, op), _integer_bound(high, op)
        top = high if endpoint else high - 1
        info_min, info_max = _integer_range(dt)
        if low < info_min:
            raise ValueError(f"[{op}] low is out of bounds for {dt}")
        if top > info_max:
            raise ValueError(f"[{op}] high is out of bounds for {dt}")
        if top < low:
            raise ValueError(f"[{op}] low > high" if endpoint else f"[{op}] low >= high")
        span = top - low + 1
        bits = self._draw(_shape(size), _numpy.uint64, _DIST.bits, device, op)
        if span != _U64:
            _core.remainder(bits, _numpy.uint64(span), out=bits)
        # uint64 arithmetic wraps, so low's two's complement gives the right value in any dtype.
        if low:
            _core.add(bits, _numpy.uint64(low % _U64), out=bits)
        r = bits if dt == _numpy.uint64 else bits.astype(dt)
        return r[()].item() if size is None else r

    def _integers_array(self, op, low, high, size, dt, endpoint, device):
        from gpupy import asarray, broadcast_shapes, stack

        if dt == _numpy.uint64:
            raise NotImplementedError(f"[{op}] array bounds need a signed or narrower dtype")
        lo = asarray(low, device=device)
        hi = asarray(high, device=lo.device)
        if _numpy.dtype(lo.dtype).kind not in "iu" or _numpy.dtype(hi.dtype).kind not in "iu":
            raise TypeError(f"[{op}] low and high must be integers")
        lo, hi = lo.astype("int64"), hi.astype("int64")
        info = _numpy.iinfo(dt)
        top = hi if endpoint else hi - 1
        # NumPy's three checks, read back together (one host sync instead of three).
        bad = (lo < info.min, top > info.max, hi < lo if endpoint else hi <= lo)
        low_out, high_out, empty_range = stack([_core.any(b) for b in bad]).get()
        if low_out:
            raise ValueError(f"[{op}] low is out of bounds for {dt}")
        if high_out:
            raise ValueError(f"[{op}] high is out of bounds for {dt}")
        if empty_range:
            raise ValueError(f"[{op}] low > high" if endpoint else f"[{op}] low >= high")
        shape = broadcast_shapes(lo.shape, hi.shape) if size is None else _shape(size)
        bits = self._draw(shape, _numpy.uint64, _DIST.bits, lo.device, op)
        span = (top - lo).astype("uint64") + _numpy.uint64(1)  # wraps to 0 for a 2**64 span
        full = span == 0
        offset = _core._where(full, bits, bits % _core._where(full, _numpy.uint64(1), span))
        return (offset + lo.astype("uint64")).astype(dt)

    def permutation(self, x, axis=0):
        """A shuffled copy of x (or of arange(x)) along `axis`: argsort of uniform keys."""
        from gpupy import arange, asarray, take

        if isinstance(x, int) or (isinstance(x, _numpy.integer)):
            x = arange(int(x))
        x = asarray(x)
        if x.ndim == 0:
            raise ValueError("[permutation] x must be an integer or at least 1-dimensional")
        axis = _operator.index(axis)
        if not -x.ndim <= axis < x.ndim:
            raise ValueError(
                f"[permutation] axis {axis} is out of bounds for array of dimension {x.ndim}"
            )
        keys = self._draw((x.shape[axis],), _numpy.float64, _DIST.uniform, x.device, "permutation")
        return take(x, _core.argsort(keys), axis=axis)

    def shuffle(self, x, axis=0):
        """Shuffles x in place along `axis`. A NumPy array or a list is host data: its order is
        drawn here and applied on the host."""
        if isinstance(x, _core.ndarray):
            if x.ndim == 0:  # NumPy's len() of it
                raise TypeError(
                    "[shuffle] x must be at least 1-dimensional (len() of unsized object)"
                )
            x[...] = self.permutation(x, axis)
        elif isinstance(x, _numpy.ndarray) and x.ndim:
            order = self.permutation(x.shape[axis]).get()
            x[...] = _numpy.take(x, order, axis=axis)
        elif isinstance(x, list) and axis == 0:
            x[:] = [x[i] for i in self.permutation(len(x)).get()] if x else x
        else:
            raise TypeError("[shuffle] x must be a gpupy array, a NumPy array or a list")


def _integer_bound(v, op):
    """An integers() bound: NumPy truncates a float bound toward zero (integers(2.5) is [0, 2))."""
    try:
        return _operator.index(v)
    except TypeError:
        if isinstance(v, (float, _numpy.floating)):
            return int(v)
        raise TypeError(f"[{op}] low and high must be integers") from None


@_functools.cache
def _integer_range(dt):
    """(min, max) of the integer dtype dt (numpy.iinfo costs ~0.7 us a call)."""
    info = _numpy.iinfo(dt)
    return int(info.min), int(info.max)


def _plain(x):
    """A Python float, or an int that float64 holds exactly: parameters with a short path."""
    return type(x) is float or (type(x) is int and -(2**53) <= x <= 2**53)


def _is_array(x):
    return isinstance(x, _core.ndarray) or _numpy.ndim(x) > 0


def _from_sequence(seq):
    gen = Generator(_key_of_sequence(seq))
    gen._seed_seq = seq
    return gen


def default_rng(seed=None):
    """See numpy.random.default_rng: a Philox4x32-10 Generator (not NumPy's PCG64 stream).

    ``seed``: None (fresh entropy), a non-negative integer (the key itself), a sequence of
    integers or a SeedSequence (keyed by its generate_state), a Generator (returned as is) or a
    Generator's ``bit_generator`` (its Generator)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, PhiloxBits):
        return seed._gen
    if isinstance(seed, _numpy.random.SeedSequence):
        return _from_sequence(seed)
    if isinstance(seed, _numpy.random.BitGenerator):
        raise TypeError(
            "[default_rng] NumPy bit generators cannot drive gpupy's Philox4x32-10 streams; "
            "pass a seed or a SeedSequence"
        )
    if seed is None or _is_array(seed):
        if isinstance(seed, _core.ndarray):
            seed = seed.get()
        try:
            return _from_sequence(SeedSequence(seed))
        except (TypeError, ValueError) as e:
            raise type(e)(f"[default_rng] {e}") from None
    gen = Generator(_key_of(seed))
    gen._seed_seq = SeedSequence(_operator.index(seed))
    return gen


from gpupy import _random_legacy  # noqa: E402 - needs Generator defined above
from gpupy._random_legacy import *  # noqa: E402,F403

__all__ += _random_legacy.__all__
