"""gpupy.random.Generator's sampling from given data: choice, permuted, multivariate_normal,
bytes.

choice with replacement inverts the cumulative sum of p (searchsorted); without replacement it
keeps the `size` smallest keys E / p (E standard exponential), which is sequential weighted
sampling (Efraimidis-Spirakis) and, for p=None, a uniformly random subset in random order.
"""

import math
import operator
import warnings

import numpy

from gpupy import _core
from gpupy._random_draws import _F64, _I64, _done, _Draws, _param, _shape

_CHECKS = ("warn", "raise", "ignore")
_METHODS = ("svd", "eigh", "cholesky")
_SPARSE_SAMPLE = 50  # without replacement, p=None: draw integers while k <= pop / 50 (NumPy's cut)


def _population(a, axis, device, op):
    """(population size, the gpupy array to sample from or None for an integer a, axis)."""
    from gpupy import asarray
    from gpupy._indexing import _axis

    if not isinstance(a, _core.ndarray) and numpy.ndim(a) == 0:
        try:
            return operator.index(a), None, 0
        except TypeError:
            raise ValueError(f"[{op}] a must be a sequence or an integer, not {type(a)}") from None
    arr = asarray(a, device=device)
    if arr.ndim == 0:
        raise ValueError(f"[{op}] a must be a sequence or an integer, not a 0-d array")
    axis = _axis(operator.index(axis), arr.ndim, op)
    return arr.shape[axis], arr, axis


def _probabilities(p, pop, op):
    dt = numpy.dtype(p.dtype) if hasattr(p, "dtype") else _F64
    atol = math.sqrt(numpy.finfo(dt if dt.kind == "f" else _F64).eps)  # as NumPy: by p's dtype
    p = _param(p)
    if p.ndim != 1:
        raise ValueError(f"[{op}] p must be 1-dimensional")
    if p.shape[0] != pop:
        raise ValueError(f"[{op}] a and p must have same size")
    if isinstance(p, _core.ndarray):
        # NumPy's three checks, read back together: one host sync for device probabilities.
        from gpupy import stack

        summary = stack([_core.any(p != p), _core.any(p < 0), p.sum()]).get()
    else:
        summary = (numpy.any(p != p), numpy.any(p < 0), p.sum())
    has_nan, has_negative, total = summary
    if has_nan:
        raise ValueError(f"[{op}] Probabilities contain NaN")
    if has_negative:
        raise ValueError(f"[{op}] Probabilities are not non-negative")
    if abs(float(total) - 1.0) > max(atol, math.sqrt(numpy.finfo(_F64).eps)):
        raise ValueError(f"[{op}] Probabilities do not sum to 1")
    return p


class _Sampling(_Draws):
    """choice, permuted, multivariate_normal and bytes; see numpy.random.Generator."""

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *, device=None):
        """Random elements of `a` (or of arange(a) for an integer), along `axis`. ``shuffle``
        is accepted for NumPy compatibility: samples without replacement always come in random
        order here."""
        from gpupy import asarray, take

        op = "choice"
        if device is None and isinstance(p, _core.ndarray):
            device = p.device
        pop, arr, axis = _population(a, axis, device, op)
        device = arr.device if arr is not None else device
        shape = _shape(size, op)
        if any(s < 0 for s in shape):
            raise ValueError(f"[{op}] negative dimensions are not allowed")
        k = math.prod(shape)
        if pop <= 0 and k:
            what = "a cannot be empty" if arr is not None else "a must be a positive integer"
            raise ValueError(f"[{op}] {what} unless no samples are taken")
        if p is not None:
            p = asarray(_probabilities(p, pop, op), device=device)
        if not replace and k > pop:
            msg = "Cannot take a larger sample than population when replace is False"
            raise ValueError(f"[{op}] {msg}")
        if k == 0:
            idx = _core.zeros(shape, _I64, device)
        elif replace:
            idx = self._with_replacement(pop, p, shape, device, op)
        else:
            idx = self._without_replacement(pop, p, k, device, op).reshape(shape)
        if arr is None:
            return _done(idx, size)
        return _done(take(arr, idx, axis=axis), size)

    def permuted(self, x, axis=None, out=None):
        """x with each slice along `axis` shuffled independently (the flattened x for
        axis=None), by argsort of uniform keys on x's device; written to `out` when given."""
        from gpupy import asarray, take_along_axis
        from gpupy._indexing import _axis

        op = "permuted"
        if out is not None and not isinstance(out, _core.ndarray):
            raise TypeError(f"[{op}] out must be a gpupy array")
        on_out = out is not None and not isinstance(x, _core.ndarray)
        x = asarray(x, device=out.device) if on_out else asarray(x)
        if x.ndim == 0:  # as NumPy: no axis of a 0-d array (AxisError), no len() of it
            if axis is not None:
                raise numpy.exceptions.AxisError(
                    f"[{op}] axis {axis} is out of bounds for array of dimension 0"
                )
            raise TypeError(f"[{op}] x must be at least 1-dimensional (len() of unsized object)")
        if out is not None:
            if out.shape != x.shape:
                raise ValueError(f"[{op}] out must have the same shape as x")
            if not numpy.can_cast(x.dtype, out.dtype, "safe"):
                raise TypeError(f"[{op}] cannot cast {x.dtype} to out's {out.dtype} safely")
        if axis is None:
            keys = self._uniform((x.size,), x.device, op)
            r = x.reshape(-1)[_core.argsort(keys)].reshape(x.shape)
        else:
            axis = _axis(operator.index(axis), x.ndim, op)
            keys = self._uniform(x.shape, x.device, op)
            r = take_along_axis(x, _core.argsort(keys, axis), axis=axis)
        if out is None:
            return r
        out[...] = r
        return out

    def _with_replacement(self, pop, p, shape, device, op):
        from gpupy import searchsorted

        if p is None:
            return self.integers(0, pop, size=shape, device=device)
        cdf = _core.cumsum(p, 0)
        cdf = cdf / cdf[-1]
        u = self._uniform(shape, device, op)
        return _core.minimum(searchsorted(cdf, u, side="right"), pop - 1)

    def _without_replacement(self, pop, p, k, device, op):
        if p is None and k * _SPARSE_SAMPLE <= pop:
            return self._sparse_subset(pop, k, device, op)
        if p is None:
            keys = self._uniform((pop,), device, op)
        else:
            if int(_core.count_nonzero(p)) < k:
                raise ValueError(f"[{op}] Fewer non-zero entries in p than size")
            keys = self._exponential((pop,), device, op) / p  # p == 0 gives inf: never picked
        return _core.argsort(keys)[:k]

    def _sparse_subset(self, pop, k, device, op):
        """k distinct integers below pop in random order, in O(k) memory: the first k distinct
        values of a stream of uniform integers (sequential sampling that skips repeats). With
        pop >= 50 k a stream of 2 k + 16 draws nearly always holds k distinct values."""
        from gpupy import argsort, concatenate, ones, sort

        m = 2 * k + 16
        while True:
            draws = self.integers(0, pop, size=m, device=device)
            order = argsort(draws, kind="stable")
            ordered = draws[order]
            first = concatenate([ones((1,), bool, device=device), ordered[1:] != ordered[:-1]])
            first_positions = order[first]  # where each distinct value first appears
            if first_positions.shape[0] >= k:
                return draws[sort(first_positions)[:k]]
            m *= 2

    def multivariate_normal(
        self, mean, cov, size=None, check_valid="warn", tol=1e-8, *, method="svd", device=None
    ):
        """Multivariate normal floats, shape ``size + (len(mean),)``: mean + z @ A.T with
        A A^T = cov from gpupy.linalg's svd, eigh or cholesky on the arrays' device."""
        from gpupy import allclose, asarray, linalg

        op = "multivariate_normal"
        if method not in _METHODS:
            raise ValueError(f"[{op}] method must be one of {{'eigh', 'svd', 'cholesky'}}")
        if check_valid not in _CHECKS:
            raise ValueError(f"[{op}] check_valid must equal 'warn', 'raise', or 'ignore'")
        if device is None:
            device = next((x.device for x in (mean, cov) if isinstance(x, _core.ndarray)), None)
        mean = asarray(mean, dtype=_F64, device=device)
        cov = asarray(cov, dtype=_F64, device=mean.device)
        if mean.ndim != 1:
            raise ValueError(f"[{op}] mean must be 1 dimensional")
        if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
            raise ValueError(f"[{op}] cov must be 2 dimensional and square")
        if mean.shape[0] != cov.shape[0]:
            raise ValueError(f"[{op}] mean and cov must have same length")
        z = self._normal(_shape(size) + mean.shape, mean.device, op)
        if method == "cholesky":
            factor = linalg.cholesky(cov)
        elif method == "eigh":
            s, u = linalg.eigh(cov)
            psd = not bool(_core.any(s < -tol))
            factor = u * _core.sqrt(_core.absolute(s))
        else:
            u, s, vh = linalg.svd(cov)
            psd = allclose(_core.matmul(vh.mT * s, vh), cov, rtol=tol, atol=tol)
            factor = u * _core.sqrt(s)
        if method != "cholesky" and check_valid != "ignore" and not psd:
            msg = "covariance is not symmetric positive-semidefinite."
            if check_valid == "raise":
                raise ValueError(f"[{op}] {msg}")
            warnings.warn(f"[{op}] {msg}", RuntimeWarning, stacklevel=2)
        return _core.matmul(z, factor.mT) + mean

    def bytes(self, length):
        """`length` random bytes (drawn on the default device, returned as Python bytes)."""
        n = operator.index(length)
        if n < 0:  # NumPy returns a few arbitrary bytes here; refusing is clearer
            raise ValueError(f"[bytes] length must be non-negative, got {n}")
        r = self.integers(0, 256, size=n, dtype=numpy.uint8)
        return r.get().tobytes()
