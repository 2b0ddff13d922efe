"""gpupy.polynomial.Polynomial: the basics of numpy.polynomial.Polynomial (power series with a
domain and a window) on gpupy arrays.

The coefficients (lowest degree first) are a 1-D gpupy array on a device, and the arithmetic,
evaluation, calculus and least-squares fit are gpupy's polynomial functions (gpupy._polynomial,
which order coefficients highest first, so they see reversed views) on that device. The domain
and window are two host numbers each, as in NumPy. Host steps are explicit: roots (eigenvalues,
as gpupy.roots), fit's default domain (x's min and max, two numbers), repr() and str().
"""

import numbers
import operator

import numpy

from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy._polynomial import _trim_leading_zeros, polydiv, polyfit, polyval, roots
from gpupy._signal import convolve

__all__ = ["Polynomial"]

_DEFAULT = numpy.array([-1.0, 1.0])


def _series(value, device=None):
    """A coefficient sequence as a 1-D float or complex gpupy array (NumPy's as_series rules)."""
    from gpupy import asarray

    c = (
        asarray(value, device=device)
        if device is not None
        else device_arrays("Polynomial", value)[0]
    )
    c = c.reshape(1) if c.ndim == 0 else c
    if c.ndim != 1:
        raise ValueError("[Polynomial] Coefficient array is not 1-d")
    if c.shape[0] == 0:
        raise ValueError("[Polynomial] Coefficient array is empty")
    if c.dtype.kind == "b":
        raise ValueError("[Polynomial] Coefficient arrays have no common type")
    if c.dtype.kind in "iu":
        c = c.astype("float64")
    return c


def _trimseq(c):
    """c without its trailing exact zeros (one coefficient kept)."""
    return _trim_leading_zeros(c[::-1])[::-1]


def _pair(name, value):
    out = numpy.array(value, dtype=float).reshape(-1) if value is not None else _DEFAULT.copy()
    if out.shape != (2,):
        raise ValueError(f"[Polynomial] {name} has wrong number of elements.")
    return out


class Polynomial:
    """See numpy.polynomial.Polynomial. ``coef`` is a gpupy array (lowest degree first) on its
    device, and so are the values, derivatives, integrals and fits computed from it. ``roots()``
    computes eigenvalues on the host (as gpupy.roots does) and returns them on the coefficients'
    device; ``fit`` without a domain reads x's minimum and maximum; repr() and str() format a host
    copy with NumPy's printer. Implemented: evaluation, + - * // % divmod ** (and / by numbers),
    deriv, integ, roots, fit, convert, linspace, degree, trim, truncate, cutdeg, copy,
    mapparms."""

    maxpower = 100
    __hash__ = None
    __array_ufunc__ = None  # NumPy arrays defer to the Polynomial's operators

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        self.coef = _series(coef)
        self.domain = _pair("Domain", domain)
        self.window = _pair("Window", window)
        if not isinstance(symbol, str) or not symbol.isidentifier():
            raise ValueError("[Polynomial] Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self):
        return self._symbol

    def _new(self, coef):
        return Polynomial(coef, self.domain, self.window, self._symbol)

    def _device(self):
        return self.coef.device

    # ---- mapping and evaluation --------------------------------------------------------------

    def mapparms(self):
        """(offset, scale) of the linear map from the domain to the window."""
        (d0, d1), (w0, w1) = self.domain, self.window
        return (d1 * w0 - d0 * w1) / (d1 - d0), (w1 - w0) / (d1 - d0)

    def _mapped(self, x):
        # NumPy maps with float64 scalars, which lift float32 and integer inputs to double.
        off, scl = self.mapparms()
        (x,) = device_arrays("Polynomial", x) if isinstance(x, _core.ndarray) else (x,)
        if not isinstance(x, _core.ndarray):
            from gpupy import asarray

            x = asarray(x, device=self._device())
        x = x.astype(numpy.result_type(x.dtype, numpy.float64), copy=False)
        return off + scl * x

    def __call__(self, x):
        return polyval(self.coef[::-1], self._mapped(x))

    def convert(self, domain=None, kind=None, window=None):
        """The same polynomial with another domain and window ([-1, 1] by default, so
        ``Polynomial.fit(x, y, deg).convert().coef`` are the coefficients in x itself)."""
        from gpupy import asarray

        if kind is not None and kind is not Polynomial:
            raise NotImplementedError("[Polynomial.convert] gpupy has only kind=Polynomial")
        domain = _DEFAULT if domain is None else _pair("Domain", domain)
        window = _DEFAULT if window is None else _pair("Window", window)
        target = Polynomial(asarray([1.0], device=self._device()), domain, window, self._symbol)
        (off, scl), (t_off, t_scl) = self.mapparms(), target.mapparms()
        # self's mapped variable as a line in the target's one, then Horner's rule on the series
        line = target._new(asarray([off - scl / t_scl * t_off, scl / t_scl], device=self._device()))
        result = target._new(self.coef[-1:])
        for k in range(self.coef.shape[0] - 2, -1, -1):
            result = result * line + target._new(self.coef[k : k + 1])
        return result

    def linspace(self, n=100, domain=None):
        """(x, self(x)) at n equally spaced points of the domain (or `domain`)."""
        from gpupy import linspace

        d = self.domain if domain is None else _pair("Domain", domain)
        x = linspace(float(d[0]), float(d[1]), n, device=self._device())
        return x, self(x)

    # ---- arithmetic --------------------------------------------------------------------------

    def _other_coef(self, other):
        if isinstance(other, Polynomial):
            if not numpy.array_equal(self.domain, other.domain):
                raise TypeError("[Polynomial] Domains differ")
            if not numpy.array_equal(self.window, other.window):
                raise TypeError("[Polynomial] Windows differ")
            if self._symbol != other._symbol:
                raise ValueError("[Polynomial] Polynomial symbols differ")
            return other.coef
        if isinstance(other, numbers.Number) and not isinstance(other, _core.ndarray):
            from gpupy import asarray

            return _series(asarray(other, device=self._device()))
        return _series(device_arrays("Polynomial", self.coef, other)[1])

    def _add(self, a, b):
        from gpupy import concatenate, zeros

        a, b = _trimseq(a), _trimseq(b)
        n = max(a.shape[0], b.shape[0])
        a, b = (
            concatenate([c, zeros((n - c.shape[0],), dtype=c.dtype, device=c.device)])
            for c in (a, b)
        )
        return a + b

    def __add__(self, other):
        return self._new(_trimseq(self._add(self.coef, self._other_coef(other))))

    def __sub__(self, other):
        return self._new(_trimseq(self._add(self.coef, -self._other_coef(other))))

    def __mul__(self, other):
        return self._new(_trimseq(convolve(_trimseq(self.coef), _trimseq(self._other_coef(other)))))

    def __radd__(self, other):
        return self._new(_trimseq(self._add(self._other_coef(other), self.coef)))

    def __rsub__(self, other):
        return self._new(_trimseq(self._add(self._other_coef(other), -self.coef)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(
                f"[Polynomial] unsupported types for true division: '{type(self)}', '{type(other)}'"
            )
        return self // other  # NumPy divides by a number as by a constant polynomial

    def _divmod(self, num, den):
        from gpupy import all as all_

        num, den = _trimseq(num), _trimseq(den)
        if bool(all_(den == 0)):
            raise ZeroDivisionError("[Polynomial] division by zero polynomial")
        q, r = polydiv(num[::-1], den[::-1])
        return self._new(_trimseq(q[::-1])), self._new(_trimseq(r[::-1]))

    def __divmod__(self, other):
        return self._divmod(self.coef, self._other_coef(other))

    def __rdivmod__(self, other):
        return self._divmod(self._other_coef(other), self.coef)

    def __floordiv__(self, other):
        return divmod(self, other)[0]

    def __rfloordiv__(self, other):
        return self.__rdivmod__(other)[0]

    def __mod__(self, other):
        return divmod(self, other)[1]

    def __rmod__(self, other):
        return self.__rdivmod__(other)[1]

    def __pow__(self, other):
        try:
            power = operator.index(other)
        except TypeError:
            power = int(other) if isinstance(other, float) and other == int(other) else -1
        if power < 0:
            raise ValueError("[Polynomial] Power must be a non-negative integer.")
        if power > self.maxpower:
            raise ValueError("[Polynomial] Power is too large")
        c = _trimseq(self.coef)
        out = c[:1] * 0 + 1
        for _ in range(power):
            out = convolve(out, c)
        return self._new(out)

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __eq__(self, other):
        return (
            isinstance(other, Polynomial)
            and numpy.array_equal(self.domain, other.domain)
            and numpy.array_equal(self.window, other.window)
            and self._symbol == other._symbol
            and self.coef.shape == other.coef.shape
            and bool((self.coef == other.coef).all())
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    # ---- calculus and roots ------------------------------------------------------------------

    def deriv(self, m=1):
        """See numpy.polynomial.Polynomial.deriv."""
        from gpupy import arange

        m = operator.index(m)
        if m < 0:
            raise ValueError("[Polynomial] The order of derivation must be non-negative")
        c, scl = self.coef, self.mapparms()[1]
        if m >= c.shape[0]:
            return self._new(c[:1] * 0)
        for _ in range(m):
            c = c[1:] * (arange(1, c.shape[0], dtype="int64", device=c.device) * scl)
        return self._new(c)

    def integ(self, m=1, k=(), lbnd=None):
        """See numpy.polynomial.Polynomial.integ."""
        from gpupy import arange, concatenate

        m = operator.index(m)
        if m < 0:
            raise ValueError("[Polynomial] The order of integration must be non-negative")
        k = [k] if numpy.ndim(k) == 0 else list(k)
        if len(k) > m:
            raise ValueError("[Polynomial] Too many integration constants")
        k = k + [0] * (m - len(k))
        off, scl = self.mapparms()
        lbnd = 0.0 if lbnd is None else off + scl * lbnd
        c = self.coef
        for i in range(m):
            c = c / scl
            body = c / arange(1, c.shape[0] + 1, dtype="int64", device=c.device)
            c = concatenate([c[:1] * 0, body])
            c[0] = k[i] - polyval(c[::-1], lbnd)
        return self._new(c)

    def roots(self):
        """The roots, sorted, in the domain (eigenvalues on the host, as gpupy.roots)."""
        from gpupy import sort

        r = sort(roots(_trimseq(self.coef)[::-1]))
        off, scl = Polynomial([0], self.window, self.domain).mapparms()
        return off + scl * r

    # ---- fitting -----------------------------------------------------------------------------

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        """See numpy.polynomial.Polynomial.fit (an integer degree; gpupy.polyfit's least squares
        on the data's device)."""
        if not isinstance(deg, (int, numpy.integer)):
            raise NotImplementedError("[Polynomial.fit] deg must be an integer")
        x, y = device_arrays("Polynomial.fit", x, y)
        if domain is None:
            domain = [float(x.min()), float(x.max())] if x.size else None
        elif isinstance(domain, list) and not domain:
            domain = None
        probe = cls([0], domain, window, symbol)
        xm = probe._mapped(x)
        res = polyfit(xm, y, int(deg), rcond=rcond, full=full, w=w)
        coef = res[0] if full else res
        out = cls(coef[::-1], probe.domain, probe.window, symbol)
        return (out, list(res[1:])) if full else out

    # ---- shape of the series -----------------------------------------------------------------

    def __len__(self):
        return self.coef.shape[0]

    def degree(self):
        return self.coef.shape[0] - 1

    def copy(self):
        return self._new(self.coef.copy())

    def trim(self, tol=0):
        """Trailing coefficients with absolute value <= tol removed (one kept)."""
        from gpupy import abs as abs_

        if tol < 0:
            raise ValueError("[Polynomial] tol must be non-negative")
        nz = (abs_(self.coef) > tol)._flatnonzero()
        return self._new(self.coef[: int(nz[-1]) + 1] if nz.shape[0] else self.coef[:1] * 0)

    def truncate(self, size):
        size = int(size)
        if size < 1:
            raise ValueError("[Polynomial] size must be a positive integer")
        return self._new(self.coef[:size])

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    # ---- printing ----------------------------------------------------------------------------

    def _host(self):
        return numpy.polynomial.Polynomial(self.coef.get(), self.domain, self.window, self._symbol)

    def __repr__(self):
        text = repr(self._host())
        if self.coef.device == _core.Device("cpu"):
            return text
        return f"{text[:-1]}, device='{self.coef.device}')"

    def __str__(self):
        return str(self._host())
