"""The rarer samplers of gpupy.random.Generator (wald, vonmises, noncentral_chisquare,
noncentral_f, hypergeometric, multivariate_hypergeometric, logseries, zipf), vectorised as
gpupy array ops on the result's device like the others.

Methods follow NumPy's: the inverse-Gaussian transform for wald, Best-Fisher rejection for
vonmises, chi-square plus a shifted normal (df > 1) or a Poisson mixture (df <= 1) for the
noncentral chi-square, Kemp's method for logseries, rejection from a Pareto envelope for zipf,
and for hypergeometric sequential urn draws when min(nsample, total - nsample) < 10 and
Stadlober's ratio-of-uniforms (HRUA) otherwise.
"""

import math

from gpupy import _core
from gpupy._random_discrete import _LAM_MAX, _by_method, _Discrete
from gpupy._random_distributions import _where
from gpupy._random_draws import (
    _F64,
    _I64,
    _check,
    _done,
    _flat,
    _param,
    _place,
    _shape,
    loggam_ratio,
)

_HRUA_D1 = 1.7155277699214135  # 2 sqrt(2 / e)
_HRUA_D2 = 0.8989161620588988  # 3 - 2 sqrt(3 / e)
_SMALL_SAMPLE = 10  # hypergeometric: urn draws below (at most 9 steps), HRUA from here
_HYPER_MAX = 10**9  # Generator.hypergeometric's population limit, as in NumPy


def _wrap_angle(x):
    """x folded into [-pi, pi] the way NumPy's vonmises folds it (sign kept)."""
    folded = _core.fmod(_core.absolute(x) + math.pi, 2.0 * math.pi) - math.pi
    return _where(x < 0, -folded, folded)


def _int_param(x, op):
    try:
        return _param(x, _I64)
    except (ValueError, TypeError, OverflowError) as e:
        raise ValueError(f"[{op}] {e}") from None


class _MoreDistributions(_Discrete):
    """See numpy.random.Generator for each sampler's definition."""

    def wald(self, mean, scale, size=None, *, device=None):
        """Wald (inverse Gaussian) floats."""
        op = "wald"
        mean, scale = _param(mean), _param(scale)
        _check(op, "mean <= 0", mean <= 0)
        _check(op, "scale <= 0", scale <= 0)
        shape, device, (mean, scale) = _place(op, size, device, [mean, scale])
        y = self._normal(shape, device, op)
        y = mean * (y * y)
        # mean - mean/(2 scale) (sqrt(4 scale y + y^2) - y), without the cancellation
        x = mean - 2.0 * mean * y / (y + _core.sqrt(y * y + 4.0 * scale * y))
        u = self._uniform(shape, x.device, op)
        return _done(_where(u <= mean / (mean + x), x, mean * mean / x), size)

    def vonmises(self, mu, kappa, size=None, *, device=None):
        """von Mises floats on [-pi, pi] (Best-Fisher rejection; uniform for kappa < 1e-8, a
        wrapped normal for kappa > 1e6, as NumPy)."""
        op = "vonmises"
        mu, kappa = _param(mu), _param(kappa)
        _check(op, "kappa < 0", kappa < 0)
        shape, device, (mu, kappa) = _place(op, size, device, [mu, kappa])
        n = math.prod(shape)
        k = _flat(kappa, shape, device=device)
        device = k.device
        mid = (k >= 1e-8) & (k <= 1e6)
        ks = _where(mid, k, 1.0)
        r = 1.0 + _core.sqrt(1.0 + 4.0 * ks * ks)
        rho = (r - _core.sqrt(2.0 * r)) / (2.0 * ks)
        s = _where(ks < 1e-5, 1.0 / ks + ks, (1.0 + rho * rho) / (2.0 * rho))

        def propose(pos):
            sp, kp = s[pos], ks[pos]
            z = _core.cos(math.pi * self._uniform(pos.shape, device, op))
            w = (1.0 + sp * z) / (sp + z)
            y = kp * (sp - w)
            v = self._open_uniform(pos.shape, device, op)
            ok = (y * (2.0 - y) - v >= 0) | (_core.log(y / v) + 1.0 - y >= 0)
            return w, ok

        w = self._rejection(n, _F64, device, propose, op)
        u = self._uniform((n,), device, op)
        angle = _core.arccos(_core.minimum(_core.maximum(w, -1.0), 1.0))
        mu = _flat(mu, shape, device=device)
        angle = _where(u < 0.5, -angle, angle) + mu
        wide = mu + _core.sqrt(1.0 / _where(mid, 1.0, k)) * self._normal((n,), device, op)
        angle = _wrap_angle(_where(mid, angle, wide))
        tiny = math.pi * (2.0 * self._uniform((n,), device, op) - 1.0)  # NumPy ignores mu here
        out = _where(k < 1e-8, tiny, _where(k != k, math.nan, angle))
        return _done(out.reshape(shape), size)

    def noncentral_chisquare(self, df, nonc, size=None, *, device=None):
        """Noncentral chi-square floats."""
        op = "noncentral_chisquare"
        df, nonc = _param(df), _param(nonc)
        _check(op, "df <= 0", df <= 0)
        _check(op, "nonc < 0", nonc < 0)
        shape, device, (df, nonc) = _place(op, size, device, [df, nonc])
        return _done(self._ncx2(df, nonc, shape, device, op), size)

    def _ncx2(self, df, nonc, shape, device, op):
        """Noncentral chi-square of placed parameters broadcast to `shape` (float64)."""
        dff = _flat(df, shape, device=device)
        nc = _flat(nonc, shape, device=dff.device)
        if dff.shape[0] == 0:
            return dff.reshape(shape)
        nan = nc != nc
        nc = _where(nan, 0.0, nc)

        def shifted(d, c):  # df > 1: chi2(df - 1) + (N + sqrt(nonc))^2
            z = self._normal(d.shape, d.device, op) + _core.sqrt(c)
            return 2.0 * self._std_gamma((d - 1.0) * 0.5, d.shape, d.device, op) + z * z

        def mixture(d, c):  # df <= 1: chi2(df + 2 Poisson(nonc / 2))
            lam = c * 0.5
            huge = lam > _LAM_MAX  # beyond int64 counts, and inf would never be accepted
            i = self._poisson(_where(huge, 0.0, lam), op).astype(_F64)
            # There Poisson(lam) is lam + sqrt(lam) N to within a relative 1 / sqrt(lam) < 1e-9.
            normal = self._normal(d.shape, d.device, op)
            i = _where(huge, lam * (1.0 + normal / _core.sqrt(lam)), i)  # inf stays inf
            return 2.0 * self._std_gamma(d * 0.5 + i, d.shape, d.device, op)

        out = _by_method(dff > 1.0, shifted, mixture, dff, nc, dtype=_F64)
        return _where(nan, math.nan, out).reshape(shape)

    def noncentral_f(self, dfnum, dfden, nonc, size=None, *, device=None):
        """Noncentral F floats: (ncx2(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden)."""
        op = "noncentral_f"
        dfnum, dfden, nonc = _param(dfnum), _param(dfden), _param(nonc)
        _check(op, "dfnum <= 0", dfnum <= 0)
        _check(op, "dfden <= 0", dfden <= 0)
        _check(op, "nonc < 0", nonc < 0)
        shape, device, (dfnum, dfden, nonc) = _place(op, size, device, [dfnum, dfden, nonc])
        t = self._ncx2(dfnum, nonc, shape, device, op) * dfden
        den = 2.0 * self._std_gamma(dfden * 0.5, shape, device, op)
        return _done(t / (den * dfnum), size)

    def logseries(self, p, size=None, *, device=None):
        """Logarithmic-series int64 draws on {1, 2, ...} (Kemp's second method)."""
        op = "logseries"
        p = _param(p)
        _check(op, "p < 0, p >= 1 or p is NaN", (p < 0) | (p >= 1) | (p != p))
        shape, device, (p,) = _place(op, size, device, [p])
        pf = _flat(p, shape, device=device)
        v = self._open_uniform(pf.shape, pf.device, op)
        u = self._open_uniform(pf.shape, pf.device, op)
        q = -_core.expm1(_core.log1p(-pf) * u)
        # where V <= q^2 the quotient is at least 2 (log V <= 2 log q < 0): no rejection needed
        many = _core.floor(1.0 + _core.log(v) / _core.log(_where(v <= q * q, q, 0.5)))
        k = _where(v >= pf, 1.0, _where(v <= q * q, many, _where(v >= q, 1.0, 2.0)))
        return _done(k.astype(_I64).reshape(shape), size)

    def zipf(self, a, size=None, *, device=None):
        """Zipf int64 draws on {1, 2, ...} (rejection from a Pareto envelope, as NumPy)."""
        op = "zipf"
        a = _param(a)
        _check(op, "a <= 1 or a is NaN", (a <= 1) | (a != a))
        shape, device, (a,) = _place(op, size, device, [a])
        af = _flat(a, shape, device=device)
        device = af.device
        flat = af >= 1025.0  # the pmf is 1 at k = 1 to double precision
        am1 = _where(flat, 1.0, af - 1.0)
        b = 2.0**am1

        def propose(pos):
            e, bp = am1[pos], b[pos]
            u = self._open_uniform(pos.shape, device, op)
            v = self._uniform(pos.shape, device, op)
            x = _core.floor(u ** (-1.0 / e))
            valid = (x >= 1.0) & (x <= 9.2e18)  # past int64 NumPy rejects too
            xs = _where(valid, x, 1.0)
            t = (1.0 + 1.0 / xs) ** e
            return xs, valid & (v * xs * (t - 1.0) / (bp - 1.0) <= t / bp)

        x = self._rejection(af.shape[0], _F64, device, propose, op)
        return _done(_where(flat, 1.0, x).astype(_I64).reshape(shape), size)

    def hypergeometric(self, ngood, nbad, nsample, size=None, *, device=None):
        """Hypergeometric int64 counts of good items in `nsample` drawn without replacement
        (ngood and nbad below 10**9, as NumPy's Generator)."""
        return self._hypergeometric(ngood, nbad, nsample, size, device, legacy=False)

    def _hypergeometric(self, ngood, nbad, nsample, size, device, legacy):
        op = "hypergeometric"
        good, bad, sample = (_int_param(x, op) for x in (ngood, nbad, nsample))
        _check(op, "ngood < 0", good < 0)
        _check(op, "nbad < 0", bad < 0)
        if legacy:
            _check(op, "nsample < 1 or nsample is NaN", sample < 1)
        else:
            _check(op, "nsample < 0", sample < 0)
        _check(op, "ngood + nbad < nsample", good + bad < sample)
        if not legacy:
            msg = f"both ngood and nbad must be less than {_HYPER_MAX}"
            _check(op, msg, (good >= _HYPER_MAX) | (bad >= _HYPER_MAX))
        shape, device, params = _place(op, size, device, [good, bad, sample])
        g, b, s = (_flat(x, shape, _F64, device) for x in params)
        if g.shape[0] == 0:
            return g.astype(_I64).reshape(shape)
        small = _core.minimum(s, g + b - s) < _SMALL_SAMPLE
        k = _by_method(small, self._hyper_urn, self._hyper_hrua, g, b, s, dtype=_F64)
        return _done(k.astype(_I64).reshape(shape), size)

    def _hyper_urn(self, g, b, s):
        """Draws min(s, total - s) < 10 items one at a time (all elements in step)."""
        op = "hypergeometric"
        total = g + b
        complement = total - s < s  # draw the items left out instead
        m = _where(complement, total - s, s)
        good_left, left, k = g, total, _core.zeros(g.shape, _F64, g.device)
        for step in range(_SMALL_SAMPLE - 1):
            u = self._uniform(g.shape, g.device, op)
            active = m > float(step)
            pick = (active & (u * left < good_left)).astype(_F64)
            k, good_left = k + pick, good_left - pick
            left = left - active.astype(_F64)
        return _where(complement, g - k, k)

    def _hyper_hrua(self, good, bad, sample):
        """Stadlober's ratio-of-uniforms for min(s, total - s) >= 10 (float64 counts)."""
        op = "hypergeometric"
        device = good.device
        total = good + bad
        cs = _core.minimum(sample, total - sample)
        lo, hi = _core.minimum(good, bad), _core.maximum(good, bad)
        p, q = lo / total, hi / total
        a = cs * p + 0.5
        c = _core.sqrt((total - cs) * cs * p * q / (total - 1.0) + 0.5)
        h = _HRUA_D1 * c + _HRUA_D2
        mode = _core.floor((cs + 1.0) * (lo + 1.0) / (total + 2.0))
        top = _core.minimum(_core.minimum(cs, lo) + 1.0, _core.floor(a + 16.0 * c))

        def propose(pos):
            u = self._open_uniform(pos.shape, device, op)
            v = self._uniform(pos.shape, device, op)
            x = a[pos] + h[pos] * (v - 0.5) / u
            inside = (x >= 0.0) & (x < top[pos])
            kk = _where(inside, _core.floor(x), mode[pos])
            m, lp, cp, hp = mode[pos], lo[pos], cs[pos], hi[pos]
            t = (
                loggam_ratio(m + 1.0, kk + 1.0)
                + loggam_ratio(lp - m + 1.0, lp - kk + 1.0)
                + loggam_ratio(cp - m + 1.0, cp - kk + 1.0)
                + loggam_ratio(hp - cp + m + 1.0, hp - cp + kk + 1.0)
            )
            quick = u * (4.0 - u) - 3.0 <= t
            out = u * (u - t) >= 1.0
            ok = inside & (quick | (_core.logical_not(out) & (2.0 * _core.log(u) <= t)))
            return kk, ok

        k = self._rejection(good.shape[0], _F64, device, propose, op)
        k = _where(good > bad, cs - k, k)
        return _where(cs < sample, good - k, k)

    def multivariate_hypergeometric(
        self, colors, nsample, size=None, method="marginals", *, device=None
    ):
        """int64 counts per color, shape ``size + (len(colors),)``: one hypergeometric per color
        on what is left ('marginals' and 'count' give the same distribution here)."""
        from gpupy import stack

        op = "multivariate_hypergeometric"
        if method not in ("marginals", "count"):
            raise ValueError(f'[{op}] method must be "count" or "marginals".')
        colors = _int_param(colors, op)
        if colors.ndim != 1:
            raise ValueError(f"[{op}] colors must be a one-dimensional sequence of integers")
        _check(op, "colors must be a sequence of nonnegative integers", colors < 0)
        total = int(colors.sum())
        nsample = int(_int_param(nsample, op))
        if nsample < 0:
            raise ValueError(f"[{op}] nsample must be nonnegative.")
        if nsample > total:
            raise ValueError(f"[{op}] nsample > sum(colors)")
        shape = _shape(size)
        _, device, (colors,) = _place(op, None, device, [colors])
        if not isinstance(colors, _core.ndarray):
            from gpupy import asarray

            colors = asarray(colors, device=device)
        n, device = math.prod(shape), colors.device
        colors = colors.astype(_F64)
        bads = float(total) - _core.cumsum(colors, 0)  # what is left after color i
        left = _core.full((n,), float(nsample), _F64, device)
        counts = []
        for i in range(colors.shape[0] - 1):
            good, bad = _flat(colors[i], (n,), _F64, device), _flat(bads[i], (n,), _F64, device)
            small = _core.minimum(left, good + bad - left) < _SMALL_SAMPLE
            if n:
                x = _by_method(
                    small, self._hyper_urn, self._hyper_hrua, good, bad, left, dtype=_F64
                )
                counts.append(x)
                left = left - x
            else:
                counts.append(left)
        counts.append(left)
        if colors.shape[0] == 0:
            return _core.zeros(shape + (0,), _I64, device)
        out = stack(counts, axis=-1).astype(_I64)
        return out.reshape(shape + (colors.shape[0],))
