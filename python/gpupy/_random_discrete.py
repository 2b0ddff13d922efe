"""Counting distributions of gpupy.random.Generator (poisson, binomial, multinomial,
negative_binomial) as vectorised gpupy array ops on the result's device.

Small means use inversion by sequential search (one step per value for all pending elements at
once); large means use Hormann's transformed rejection with squeeze (PTRS for Poisson, BTRS for
binomial), redrawing only the rejected elements. Results are int64, as in NumPy.
"""

import math

import numpy

from gpupy import _core
from gpupy._random_distributions import _Continuous, _where
from gpupy._random_draws import (
    _F64,
    _I64,
    _check,
    _done,
    _flat,
    _param,
    _place,
    log_poisson_pmf,
    loggam_ratio,
    output_shape,
)

_SMALL_MEAN = 10.0  # Poisson: inversion below, PTRS above (PTRS needs lam >= 10)
_SMALL_NP = 30.0  # binomial: inversion while n * min(p, 1 - p) stays below, BTRS above
_CHECK_EVERY = 8  # inversion searches read "anyone still searching?" every this many steps
_LAM_MAX = float(numpy.iinfo(numpy.int64).max - math.sqrt(numpy.iinfo(numpy.int64).max) * 10)


def _by_method(cond, small, large, *arrays, dtype=_I64):
    """small(*arrays) where `cond` holds, large(*arrays) elsewhere, for flat gpupy arrays of one
    length (compacts only when both methods are needed; one device read to decide)."""
    from gpupy import empty, flatnonzero

    count = int(_core.count_nonzero(cond))
    if count == cond.shape[0]:
        return small(*arrays)
    if count == 0:
        return large(*arrays)
    out = empty(cond.shape, dtype=dtype, device=cond.device)
    for at, method in (
        (flatnonzero(cond), small),
        (flatnonzero(_core.logical_not(cond)), large),
    ):
        out[at] = method(*(x[at] for x in arrays))
    return out


def _settle(ok, undecided, exact):
    """`ok`, with exact(at) (booleans for the positions `at`) filled in where the squeeze left
    the decision open: the costly log-density test runs only on those few elements."""
    from gpupy import flatnonzero

    at = flatnonzero(undecided)
    if at.shape[0]:
        ok[at] = exact(at)
    return ok


def _finished(active, step):
    """True once no element is searching, looked at every _CHECK_EVERY steps: the steps in
    between leave finished elements unchanged, so results do not depend on when we look."""
    return step % _CHECK_EVERY == 0 and not bool(_core.any(active))


class _Discrete(_Continuous):
    """NumPy's discrete samplers; see numpy.random.Generator for their definitions."""

    def poisson(self, lam=1.0, size=None, *, device=None):
        """Poisson int64 counts with mean `lam`."""
        op = "poisson"
        lam = _param(lam)
        _check(op, "lam < 0 or lam is NaN", (lam < 0) | (lam != lam))
        _check(op, "lam value too large", lam > _LAM_MAX)
        shape, device, (lam,) = _place(op, size, device, [lam])
        lam = _flat(lam, shape, device=device)
        return _done(self._poisson(lam, op).reshape(shape), size)

    def _poisson(self, lam, op):
        """Poisson draws for the flat float64 gpupy array `lam`."""
        return _by_method(
            lam < _SMALL_MEAN,
            lambda lam: self._poisson_inversion(lam, op),
            lambda lam: self._poisson_ptrs(lam, op),
            lam,
        )

    def _poisson_inversion(self, lam, op):
        device = lam.device
        cap = 20.0 + 20.0 * _SMALL_MEAN  # the pmf beyond is below 1e-70 for lam < 10

        def propose(pos):
            lam_p = lam[pos]
            u = self._uniform(lam_p.shape, device, op)
            p = _core.exp(-lam_p)
            s, x, k = p, _core.zeros(lam_p.shape, _I64, device), 0
            active = u > s
            while k < cap and not _finished(active, k):
                k += 1
                x = x + active.astype(_I64)
                p = p * lam_p / float(k)
                s = s + p
                active = active & (u > s)
            return x, _core.logical_not(active)

        return self._rejection(lam.shape[0], _I64, device, propose, op)

    def _poisson_ptrs(self, lam, op):
        device = lam.device
        slam, loglam = _core.sqrt(lam), _core.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        log_inv_alpha = _core.log(1.1239 + 1.1328 / (b - 3.4))
        vr = 0.9277 - 3.6224 / (b - 2.0)

        def propose(pos):
            lp, ap, bp = lam[pos], a[pos], b[pos]
            u = self._uniform(lp.shape, device, op) - 0.5
            v = self._uniform(lp.shape, device, op)
            us = 0.5 - _core.absolute(u)
            k = _core.floor((2.0 * ap / us + bp) * u + lp + 0.43)
            quick = (us >= 0.07) & (v <= vr[pos])
            bad = (k < 0) | ((us < 0.013) & (v > us))

            def exact(at):
                sq, where_ = us[at], pos[at]
                lhs = (
                    _core.log(v[at])
                    + log_inv_alpha[where_]
                    - _core.log(ap[at] / (sq * sq) + bp[at])
                )
                return lhs <= log_poisson_pmf(k[at], lp[at], loglam[where_])

            undecided = _core.logical_not(quick | bad)
            return k.astype(_I64), _settle(quick, undecided, exact)

        return self._rejection(lam.shape[0], _I64, device, propose, op)

    def binomial(self, n, p, size=None, *, device=None):
        """Binomial int64 counts of successes in `n` trials of probability `p`."""
        op = "binomial"
        n, p = _param(n, _I64), _param(p)
        _check(op, "n < 0", n < 0)
        _check(op, "p < 0, p > 1 or p is NaN", (p < 0) | (p > 1) | (p != p))
        shape, device, (n, p) = _place(op, size, device, [n, p])
        n, p = _flat(n, shape, _I64, device), _flat(p, shape, device=device)
        return _done(self._binomial(n, p, op).reshape(shape), size)

    def _binomial(self, n, p, op):
        """Binomial draws for flat gpupy arrays n (int64) and p (float64) of one shape."""
        flip = p > 0.5
        q = _where(flip, 1.0 - p, p)  # the sampler works with min(p, 1 - p)
        nf = n.astype(_F64)
        out = _by_method(
            nf * q < _SMALL_NP,
            lambda n, p: self._binomial_inversion(n, p, op),
            lambda n, p: self._binomial_btrs(n, p, op),
            nf,
            q,
        )
        return _where(flip, n - out, out)

    def _binomial_inversion(self, n, p, op):
        device = n.device
        q = 1.0 - p
        s = p / q
        np_ = n * p
        bound = _core.minimum(n, np_ + 10.0 * _core.sqrt(np_ * q + 1.0))
        q_n = _core.exp(n * _core.log1p(-p))

        def propose(pos):
            n_p, s_p, bound_p = n[pos], s[pos], bound[pos]
            u = self._uniform(n_p.shape, device, op)
            r, x, k = q_n[pos], _core.zeros(n_p.shape, _F64, device), 0
            active, failed = u > r, _core.zeros(n_p.shape, numpy.bool_, device)
            while not _finished(active, k):
                k += 1
                u = _where(active, u - r, u)
                x = x + active.astype(_F64)
                r = r * ((n_p - float(k - 1)) * s_p / float(k))
                over = active & (x > bound_p)
                failed = failed | over
                active = active & _core.logical_not(over) & (u > r)
            return x.astype(_I64), _core.logical_not(failed)

        return self._rejection(n.shape[0], _I64, device, propose, op)

    def _binomial_btrs(self, n, p, op):
        device = n.device
        q = 1.0 - p
        spq = _core.sqrt(n * p * q)
        b = 1.15 + 2.53 * spq
        a = -0.0873 + 0.0248 * b + 0.01 * p
        c = n * p + 0.5
        vr = 0.92 - 4.2 / b
        log_alpha = _core.log((2.83 + 5.1 / b) * spq)
        lpq = _core.log(p / q)
        m = _core.floor((n + 1.0) * p)

        def propose(pos):
            n_p, a_p, b_p = n[pos], a[pos], b[pos]
            u = self._uniform(n_p.shape, device, op) - 0.5
            v = self._uniform(n_p.shape, device, op)
            us = 0.5 - _core.absolute(u)
            k = _core.floor((2.0 * a_p / us + b_p) * u + c[pos])
            inside = (k >= 0) & (k <= n_p)
            quick = (us >= 0.07) & (v <= vr[pos])

            def exact(at):
                sq, where_, kk, nn = us[at], pos[at], k[at], n_p[at]
                lhs = (
                    _core.log(v[at]) + log_alpha[where_] - _core.log(a_p[at] / (sq * sq) + b_p[at])
                )
                mm = m[where_]
                rhs = loggam_ratio(mm + 1.0, kk + 1.0) + loggam_ratio(nn - mm + 1.0, nn - kk + 1.0)
                return lhs <= rhs + (kk - mm) * lpq[where_]

            undecided = inside & _core.logical_not(quick)
            return k.astype(_I64), _settle(inside & quick, undecided, exact)

        return self._rejection(n.shape[0], _I64, device, propose, op)

    def negative_binomial(self, n, p, size=None, *, device=None):
        """Negative binomial int64 counts: Poisson(Gamma(n, (1 - p) / p))."""
        op = "negative_binomial"
        n, p = _param(n), _param(p)
        _check(op, "n <= 0", n <= 0)
        _check(op, "n must not be NaN", n != n)
        _check(op, "p <= 0, p > 1 or p contains NaNs", (p <= 0) | (p > 1) | (p != p))
        # NumPy's bound: the Poisson means stay below its limit with room for the gamma's spread
        # (also what keeps an infinite n from reaching the Poisson sampler).
        big = ((1.0 - p) / p) * (n + 10.0 * n**0.5) > _LAM_MAX
        _check(op, "n too large or p too small, see Generator.negative_binomial Notes", big)
        shape, device, (n, p) = _place(op, size, device, [n, p])
        lam = self._std_gamma(n, shape, device, op) * ((1.0 - p) / p)
        return _done(self._poisson(lam.reshape(-1), op).reshape(shape), size)

    def multinomial(self, n, pvals, size=None, *, device=None):
        """Multinomial int64 counts, shape ``size + (k,)`` (or the broadcast shape of n and
        pvals[..., 0], + (k,)) for k = pvals.shape[-1]: one conditional binomial per category;
        the last category takes the remainder. pvals may carry leading axes, as in NumPy."""
        from gpupy import asarray, stack

        op = "multinomial"
        n, pvals = _param(n, _I64), _param(pvals)
        if pvals.ndim == 0 or pvals.shape[-1] == 0:
            msg = "pvals must have at least 1 dimension and the last dimension of pvals must be "
            raise ValueError(f"[{op}] {msg}greater than 0")
        _check(op, "n < 0", n < 0)
        msg = "pvals < 0, pvals > 1 or pvals contains NaNs"
        _check(op, msg, (pvals < 0) | (pvals > 1) | (pvals != pvals))
        _check(op, "sum(pvals[:-1]) > 1.0", pvals[..., :-1].sum(axis=-1) > 1.0 + 1e-12)
        shape = output_shape(op, size, [n.shape, pvals.shape[:-1]])
        _, device, (n,) = _place(op, shape, device, [n])
        if not isinstance(pvals, _core.ndarray) or device is not None:
            pvals = asarray(pvals, device=device)
        left = _flat(n, shape, _I64, pvals.device)
        # The probability of category i given that none of 0..i-1 was drawn.
        rest = 1.0 - (_core.cumsum(pvals, pvals.ndim - 1) - pvals)
        ratio = _core.minimum(pvals / _core.maximum(rest, 1e-300), 1.0)
        counts = []
        for i in range(pvals.shape[-1] - 1):
            x = self._binomial(left, _flat(ratio[..., i], shape, device=left.device), op)
            counts.append(x)
            left = left - x
        counts.append(left)
        return stack(counts, axis=-1).reshape(shape + (pvals.shape[-1],))
