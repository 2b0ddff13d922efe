"""Continuous distributions (and geometric) of gpupy.random.Generator, composed from gpupy array
ops on the draws of `_random_draws._Draws`: everything runs on the result's device.

Parameters broadcast against each other and against ``size`` as in NumPy; ``size=None`` with
scalar parameters returns a Python float (int for geometric). Samplers: inversion of the CDF
(exponential family, laplace, logistic, gumbel, rayleigh, weibull, pareto, power, cauchy,
triangular, geometric), Marsaglia-Tsang rejection for gamma (boosted by U**(1/a) for a < 1),
and ratios of gammas for beta, chisquare, f, standard_t and dirichlet (beta and dirichlet from
log-gammas, so that tiny shapes, whose gammas underflow, keep their tails).
"""

import math

import numpy

from gpupy import _core
from gpupy._random_draws import (
    _F64,
    _I64,
    _check,
    _done,
    _Draws,
    _flat,
    _float_dtype,
    _from_out,
    _param,
    _place,
    _shape,
)


def _fn(name, x):
    """The ufunc `name` of a placed parameter: gpupy on a device array, NumPy on a host number."""
    if isinstance(x, _core.ndarray):
        return getattr(_core, name)(x)
    with numpy.errstate(all="ignore"):
        return float(getattr(numpy, name)(x))


def _where(cond, a, b):
    from gpupy import where

    return where(cond, a, b)


def _store(r, size, out, dtype):
    r = r.astype(dtype, copy=False)
    if out is not None:
        out[...] = r
        return out
    return _done(r, size)


class _Continuous(_Draws):
    """NumPy's continuous samplers; see numpy.random.Generator for each one's definition."""

    def _loc_scale(self, op, loc, scale, size, device, base):
        loc, scale = _param(loc), _param(scale)
        _check(op, "scale < 0", scale < 0)
        shape, device, (loc, scale) = _place(op, size, device, [loc, scale])
        return _done(base(shape, device, op) * scale + loc, size)

    def _one_param(self, op, a, size, device, message, bad):
        a = _param(a)
        _check(op, message, bad(a))
        shape, device, (a,) = _place(op, size, device, [a])
        return shape, device, a

    def standard_exponential(
        self, size=None, dtype=numpy.float64, method="zig", out=None, *, device=None
    ):
        """Standard exponential floats by inversion (``method`` 'zig' or 'inv' give the same
        stream here)."""
        op = "standard_exponential"
        if method not in ("zig", "inv"):
            raise ValueError(f"[{op}] method must be either 'zig' or 'inv'")
        dt = _float_dtype(dtype, op)
        size, device = _from_out(out, size, device, op)
        return _store(self._exponential(_shape(size), device, op), size, out, dt)

    def exponential(self, scale=1.0, size=None, *, device=None):
        """Exponential floats with mean `scale`."""
        return self._loc_scale("exponential", 0.0, scale, size, device, self._exponential)

    def laplace(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Laplace (double exponential) floats."""
        return self._loc_scale("laplace", loc, scale, size, device, self._std_laplace)

    def _std_laplace(self, shape, device, op):
        u = self._open_uniform(shape, device, op)
        return _where(u < 0.5, _core.log(u + u), -_core.log(2.0 - (u + u)))

    def logistic(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Logistic floats: log(U / (1 - U))."""
        return self._loc_scale("logistic", loc, scale, size, device, self._std_logistic)

    def _std_logistic(self, shape, device, op):
        u = self._open_uniform(shape, device, op)
        return _core.log(u / (1.0 - u))

    def gumbel(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Gumbel (extreme value type I) floats: loc - scale * log(-log(U))."""
        return self._loc_scale("gumbel", loc, scale, size, device, self._std_gumbel)

    def _std_gumbel(self, shape, device, op):
        e = self._exponential(shape, device, op)
        return _core.negative(_core.log(e, out=e), out=e)

    def rayleigh(self, scale=1.0, size=None, *, device=None):
        """Rayleigh floats: scale * sqrt(2 E)."""
        return self._loc_scale("rayleigh", 0.0, scale, size, device, self._std_rayleigh)

    def _std_rayleigh(self, shape, device, op):
        e = self._exponential(shape, device, op)
        return _core.sqrt(_core.multiply(e, 2.0, out=e), out=e)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, *, device=None):
        """Log-normal floats: exp(mean + sigma * N)."""
        mean, sigma = _param(mean), _param(sigma)
        _check("lognormal", "sigma < 0", sigma < 0)
        shape, device, (mean, sigma) = _place("lognormal", size, device, [mean, sigma])
        z = self._normal(shape, device, "lognormal")
        return _done(_core.exp(z * sigma + mean), size)

    def standard_cauchy(self, size=None, *, device=None):
        """Standard Cauchy floats: tan(pi (U - 1/2)) with U in (0, 1)."""
        u = self._open_uniform(_shape(size), device, "standard_cauchy")
        return _done(_core.tan(math.pi * (u - 0.5)), size)

    def weibull(self, a, size=None, *, device=None):
        """Weibull floats: E ** (1/a) (0 where a == 0)."""
        shape, device, a = self._one_param("weibull", a, size, device, "a < 0", lambda a: a < 0)
        e = self._exponential(shape, device, "weibull")
        return _done(_where(a == 0, 0.0, e ** _fn("reciprocal", a)), size)

    def pareto(self, a, size=None, *, device=None):
        """Pareto II (Lomax) floats: expm1(E / a)."""
        shape, device, a = self._one_param("pareto", a, size, device, "a <= 0", lambda a: a <= 0)
        return _done(_core.expm1(self._exponential(shape, device, "pareto") / a), size)

    def power(self, a, size=None, *, device=None):
        """Power-distribution floats in [0, 1]: (1 - exp(-E)) ** (1/a)."""
        shape, device, a = self._one_param("power", a, size, device, "a <= 0", lambda a: a <= 0)
        e = self._exponential(shape, device, "power")
        return _done((-_core.expm1(-e)) ** _fn("reciprocal", a), size)

    def triangular(self, left, mode, right, size=None, *, device=None):
        """Triangular floats on [left, right] with peak at `mode`, by inversion."""
        op = "triangular"
        left, mode, right = _param(left), _param(mode), _param(right)
        _check(op, "left > mode", left > mode)
        _check(op, "mode > right", mode > right)
        _check(op, "left == right", left == right)
        shape, device, (left, mode, right) = _place(op, size, device, [left, mode, right])
        base = right - left
        u = self._uniform(shape, device, op)
        low = left + _fn("sqrt", u * ((mode - left) * base))
        high = right - _fn("sqrt", (1.0 - u) * ((right - mode) * base))
        return _done(_where(u <= (mode - left) / base, low, high), size)

    def geometric(self, p, size=None, *, device=None):
        """Geometric int64 on {1, 2, ...}: ceil(log(U) / log(1 - p)), U in (0, 1)."""
        op = "geometric"
        msg = "p <= 0, p > 1 or p contains NaNs"
        shape, device, p = self._one_param(op, p, size, device, msg, _outside_0_1)
        u = self._open_uniform(shape, device, op)
        k = _core.ceil(_core.log(u) / _fn("log1p", -p))
        k = _core.minimum(_where(p == 1, 1.0, k), 9.2e18)  # int64 saturates, as in NumPy
        return _done(k.astype(_I64), size)

    def standard_gamma(self, shape, size=None, dtype=numpy.float64, out=None, *, device=None):
        """Standard gamma floats (Marsaglia-Tsang; shape < 1 boosted by U**(1/shape))."""
        op = "standard_gamma"
        dt = _float_dtype(dtype, op)
        size, device = _from_out(out, size, device, op)
        oshape, device, a = self._one_param(op, shape, size, device, "shape < 0", _negative)
        return _store(self._std_gamma(a, oshape, device, op), size, out, dt)

    def gamma(self, shape, scale=1.0, size=None, *, device=None):
        """Gamma floats: scale * standard_gamma(shape)."""
        a, scale = _param(shape), _param(scale)
        _check("gamma", "shape < 0", a < 0)
        _check("gamma", "scale < 0", scale < 0)
        oshape, device, (a, scale) = _place("gamma", size, device, [a, scale])
        return _done(self._std_gamma(a, oshape, device, "gamma") * scale, size)

    def _std_gamma(self, a, shape, device, op, log=False):
        """Standard gamma of the placed parameter `a` broadcast to `shape` (float64); with
        log=True its logarithm, which stays finite where a tiny shape's draw underflows."""
        n = math.prod(shape)
        if not isinstance(a, _core.ndarray):  # a host number: its constants stay on the host
            return self._std_gamma_of_number(float(a), shape, device, op, log)
        af = _flat(a, shape, device=device)
        device = af.device
        finite = _core.isfinite(af)
        safe = _where(finite, af, 1.0)
        boost = safe < 1.0
        d = _where(boost, safe + 1.0, safe) - 1.0 / 3.0
        c = 1.0 / _core.sqrt(9.0 * d)
        g = self._rejection(n, _F64, device, self._gamma_proposal(d, c, device, op), op)
        if log:
            g = _core.log(g)
        if n:  # a device shape always draws the boost's uniforms rather than read a flag back
            u = self._open_uniform((n,), device, op)
            if log:
                g = _where(boost, g + _core.log(u) / safe, g)
            else:
                g = _where(boost, g * u ** (1.0 / safe), g)
        special = _core.log(af) if log else af  # log(0) = -inf for a zero shape
        g = _where(finite, _where(af == 0, -math.inf if log else 0.0, g), special)
        return g.reshape(shape)

    def _std_gamma_of_number(self, a, shape, device, op, log):
        """_std_gamma for a host number a: the same draws and arithmetic, with d and c as
        numbers (no n-element parameter arrays, gathers or special-value passes); a zero,
        infinite or NaN shape draws nothing."""
        from gpupy import full

        n = math.prod(shape)
        if a == 0 or not math.isfinite(a):
            value = (math.log(a) if a else -math.inf) if log else a
            return full(shape, value, dtype=_F64, device=device)
        d = (a + 1.0 if a < 1.0 else a) - 1.0 / 3.0
        c = 1.0 / math.sqrt(9.0 * d)
        g = self._rejection(n, _F64, device, self._gamma_proposal(d, c, device, op), op)
        if log:
            g = _core.log(g)
        if n and a < 1.0:
            u = self._open_uniform((n,), device, op)
            g = g + _core.log(u) / a if log else g * u ** (1.0 / a)
        return g.reshape(shape)

    def _gamma_proposal(self, d, c, device, op):
        """Marsaglia-Tsang's proposal for the pending positions: (d v**3, accepted) with
        v = 1 + c x, accepted where log(u) < x**2 / 2 + d - d v**3 + d log(v**3). d and c are
        numbers or per-position arrays; the passes write in place where they can."""
        per_position = isinstance(d, _core.ndarray)

        def propose(pos):
            dd, cc = (d[pos], c[pos]) if per_position else (d, c)
            m = (pos.shape[0],)
            x = self._normal(m, device, op)
            u = self._open_uniform(m, device, op)
            v = _core.add(_core.multiply(x, cc), 1.0)
            v3 = _core.multiply(v, v)
            _core.multiply(v3, v, out=v3)
            rhs = _core.multiply(x, x, out=x)  # 0.5 * x * x: halving is exact
            _core.multiply(rhs, 0.5, out=rhs)
            _core.add(rhs, dd, out=rhs)
            value = _core.multiply(v3, dd)
            _core.subtract(rhs, value, out=rhs)
            # v <= 0 makes log(v**3) NaN or -inf, so the test fails there, as it must
            log_v3 = _core.log(v3, out=v3)
            _core.add(rhs, _core.multiply(log_v3, dd, out=log_v3), out=rhs)
            return value, _core.less(_core.log(u, out=u), rhs)

        return propose

    def beta(self, a, b, size=None, *, device=None):
        """Beta floats: X / (X + Y) for X ~ Gamma(a), Y ~ Gamma(b), formed from log X and log Y
        as 1 / (1 + exp(log Y - log X)): tiny shapes' gammas underflow to 0 (a ** (1/a) with
        a = 1e-3), their logarithms do not, so the tails near 0 and 1 stay right."""
        a, b = _param(a), _param(b)
        _check("beta", "a <= 0", a <= 0)
        _check("beta", "b <= 0", b <= 0)
        shape, device, (a, b) = _place("beta", size, device, [a, b])
        log_x = self._std_gamma(a, shape, device, "beta", log=True)
        log_y = self._std_gamma(b, shape, device, "beta", log=True)
        r = 1.0 / (1.0 + _core.exp(log_y - log_x))
        # NumPy's x / (x + y) is inf / inf = nan for an infinite a; keep that.
        return _done(_where(log_x == math.inf, math.nan, r), size)

    def chisquare(self, df, size=None, *, device=None):
        """Chi-square floats: 2 * standard_gamma(df / 2)."""
        shape, device, df = self._one_param("chisquare", df, size, device, "df <= 0", _nonpos)
        return _done(2.0 * self._std_gamma(df * 0.5, shape, device, "chisquare"), size)

    def f(self, dfnum, dfden, size=None, *, device=None):
        """F floats: (chisquare(dfnum) / dfnum) / (chisquare(dfden) / dfden)."""
        dfnum, dfden = _param(dfnum), _param(dfden)
        _check("f", "dfnum <= 0", dfnum <= 0)
        _check("f", "dfden <= 0", dfden <= 0)
        shape, device, (dfnum, dfden) = _place("f", size, device, [dfnum, dfden])
        num = self._std_gamma(dfnum * 0.5, shape, device, "f")
        den = self._std_gamma(dfden * 0.5, shape, device, "f")
        return _done((num * dfden) / (den * dfnum), size)

    def standard_t(self, df, size=None, *, device=None):
        """Student's t floats: N * sqrt(df / chisquare(df))."""
        shape, device, df = self._one_param("standard_t", df, size, device, "df <= 0", _nonpos)
        z = self._normal(shape, device, "standard_t")
        g = self._std_gamma(df * 0.5, shape, device, "standard_t")
        return _done(z * _core.sqrt((df * 0.5) / g), size)

    def dirichlet(self, alpha, size=None, *, device=None):
        """Dirichlet vectors, shape ``size + (len(alpha),)``: gammas normalised to sum 1."""
        op = "dirichlet"
        alpha = _param(alpha)
        if alpha.ndim != 1:
            raise ValueError(f"[{op}] alpha must be 1-dimensional, got {alpha.ndim} dimensions")
        _check(op, "alpha < 0", alpha < 0)  # a NaN alpha gives NaN vectors, as in NumPy
        shape = _shape(size) + alpha.shape
        shape, device, (alpha,) = _place(op, shape, device, [alpha])
        if not math.prod(shape):
            return _core.zeros(shape, _F64, device)
        # Normalised in log space: tiny alphas' gammas underflow to 0 (0 / 0 = nan) while their
        # logarithms stay finite; all-zero alphas give zeros, as in NumPy.
        log_g = self._std_gamma(alpha, shape, device, op, log=True)
        top = _core.max(log_g, (len(shape) - 1,), None, True)
        w = _core.exp(log_g - _where(top == -math.inf, 0.0, top))
        total = _core.sum(w, axis=-1, keepdims=True)
        return w / _where(total == 0, 1.0, total)


def _negative(x):
    return x < 0


def _nonpos(x):
    return x <= 0


def _outside_0_1(p):
    return (p <= 0) | (p > 1) | (p != p)
