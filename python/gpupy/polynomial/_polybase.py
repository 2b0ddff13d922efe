"""gpupy.polynomial._polybase: the shared base of the series classes (Polynomial, Chebyshev,
Legendre, Hermite, HermiteE, Laguerre), NumPy's ABCPolyBase on gpupy arrays.

A class names its basis's functions (add, sub, mul, div, pow, val, int, der, fit, line, roots,
fromroots) and its default domain and window; everything else is here. The coefficients (lowest
degree first) are a 1-D gpupy array on a device, and so are values, derivatives, integrals and
fits. The domain and window are two host numbers each, as in NumPy. Host steps: roots
(eigenvalues, see the basis modules), fit's default domain (x's extremes, two numbers),
comparisons, repr() and str() (NumPy's printer on a host copy).
"""

import numbers

import numpy

import gpupy as _xp
from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy.polynomial import polyutils as _pu

__all__ = ["ABCPolyBase"]

_ROLES = (
    "add",
    "sub",
    "mul",
    "div",
    "pow",
    "val",
    "int",
    "der",
    "fit",
    "line",
    "roots",
    "fromroots",
)


def _host_pair(op, name, value):
    """A domain or window as NumPy's as_series makes it: a host array of two numbers."""
    value = value.get() if isinstance(value, _core.ndarray) else value
    try:
        [pair] = numpy.polynomial.polyutils.as_series([value], trim=False)
    except ValueError as exc:
        raise ValueError(f"[{op}] {exc}") from None
    if pair.shape[0] != 2:
        raise ValueError(f"[{op}] {name} has wrong number of elements.")
    return pair


class ABCPolyBase:
    """See numpy.polynomial._polybase.ABCPolyBase. Subclasses name their basis functions (see
    __init_subclass__) and set `domain`, `window`, `basis_name` and `_numpy_class` (NumPy's
    class, for printing)."""

    maxpower = 100
    __hash__ = None
    __array_ufunc__ = None  # NumPy arrays defer to the series' operators

    def __init_subclass__(cls, prefix=None, namespace=None, **kwargs):
        """`class Chebyshev(ABCPolyBase, prefix="cheb", namespace=globals())` takes chebadd,
        chebsub, ... of the namespace as its basis functions."""
        super().__init_subclass__(**kwargs)
        if prefix is not None:
            for role in _ROLES:
                setattr(cls, f"_{role}", staticmethod(namespace[prefix + role]))

    def __init__(self, coef, domain=None, window=None, symbol="x"):
        op = type(self).__name__
        [self.coef] = _pu._series(op, [coef], trim=False)
        self.domain = _host_pair(op, "Domain", type(self).domain if domain is None else domain)
        self.window = _host_pair(op, "Window", type(self).window if window is None else window)
        try:
            if not symbol.isidentifier():
                raise ValueError(f"[{op}] Symbol string must be a valid Python identifier")
        except AttributeError:
            raise TypeError(f"[{op}] Symbol must be a non-empty string") from None
        self._symbol = symbol

    @property
    def symbol(self):
        return self._symbol

    def _new(self, coef):
        return self.__class__(coef, self.domain, self.window, self._symbol)

    # ---- comparisons -------------------------------------------------------------------------

    def has_samecoef(self, other):
        return len(self.coef) == len(other.coef) and bool(_xp.all(self.coef == other.coef))

    def has_samedomain(self, other):
        return bool(numpy.all(self.domain == other.domain))

    def has_samewindow(self, other):
        return bool(numpy.all(self.window == other.window))

    def has_sametype(self, other):
        return isinstance(other, self.__class__)

    def __eq__(self, other):
        return (
            isinstance(other, self.__class__)
            and self.has_samedomain(other)
            and self.has_samewindow(other)
            and self.coef.shape == other.coef.shape
            and self.coef.device == other.coef.device
            and bool(_xp.all(self.coef == other.coef))
            and self._symbol == other._symbol
        )

    def __ne__(self, other):
        return not self.__eq__(other)

    # ---- evaluation --------------------------------------------------------------------------

    def mapparms(self):
        """(offset, scale) of the linear map from the domain to the window."""
        return _pu.mapparms(self.domain, self.window)

    def __call__(self, arg):
        if not isinstance(arg, (ABCPolyBase, _core.ndarray, int, float, complex, numpy.generic)):
            arg = _xp.asarray(arg, device=self.coef.device)
        if isinstance(arg, ABCPolyBase):  # composition: stays a series
            off, scl = self.mapparms()
            return self._val(off + scl * arg, self.coef)
        return self._val(_pu.mapdomain(arg, self.domain, self.window), self.coef)

    def __iter__(self):
        return iter(self.coef)

    def __len__(self):
        return self.coef.shape[0]

    # ---- arithmetic --------------------------------------------------------------------------

    def _get_coefficients(self, other):
        op = type(self).__name__
        if isinstance(other, ABCPolyBase):
            if not isinstance(other, self.__class__):
                raise TypeError(f"[{op}] Polynomial types differ")
            if not self.has_samedomain(other):
                raise TypeError(f"[{op}] Domains differ")
            if not self.has_samewindow(other):
                raise TypeError(f"[{op}] Windows differ")
            if self._symbol != other._symbol:
                raise ValueError(f"[{op}] Polynomial symbols differ")
            return other.coef
        return other

    def _same_device(self, *operands):
        # checked first: NumPy's NotImplemented below would hide why the operation failed
        for v in operands:
            if isinstance(v, _core.ndarray) and v.device != self.coef.device:
                raise ValueError(
                    f"[{type(self).__name__}] the operands are on different devices "
                    f"('{self.coef.device}', '{v.device}'); move them first"
                )

    def _binary(self, fn, a, b):
        # NumPy returns NotImplemented when the basis function rejects the operand
        self._same_device(a, b)
        try:
            return self._new(fn(a, b))
        except Exception:  # noqa: BLE001
            return NotImplemented

    def __neg__(self):
        return self._new(-self.coef)

    def __pos__(self):
        return self

    def __add__(self, other):
        return self._binary(self._add, self.coef, self._get_coefficients(other))

    def __sub__(self, other):
        return self._binary(self._sub, self.coef, self._get_coefficients(other))

    def __mul__(self, other):
        return self._binary(self._mul, self.coef, self._get_coefficients(other))

    def __radd__(self, other):
        return self._binary(self._add, other, self.coef)

    def __rsub__(self, other):
        return self._binary(self._sub, other, self.coef)

    def __rmul__(self, other):
        return self._binary(self._mul, other, self.coef)

    def __truediv__(self, other):
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(
                f"[{type(self).__name__}] unsupported types for true division: "
                f"'{type(self)}', '{type(other)}'"
            )
        return self.__floordiv__(other)  # NumPy divides by a number as by a constant series

    def __rtruediv__(self, other):
        return NotImplemented

    def _divmod(self, a, b):
        self._same_device(a, b)
        try:
            quo, rem = self._div(a, b)
        except ZeroDivisionError:
            raise
        except Exception:  # noqa: BLE001
            return NotImplemented
        return self._new(quo), self._new(rem)

    def __divmod__(self, other):
        return self._divmod(self.coef, self._get_coefficients(other))

    def __rdivmod__(self, other):
        return self._divmod(other, self.coef)

    def __floordiv__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[0]

    def __mod__(self, other):
        res = self.__divmod__(other)
        return res if res is NotImplemented else res[1]

    def __rfloordiv__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[0]

    def __rmod__(self, other):
        res = self.__rdivmod__(other)
        return res if res is NotImplemented else res[1]

    def __pow__(self, other):
        return self._new(self._pow(self.coef, other, maxpower=self.maxpower))

    # ---- shape of the series -----------------------------------------------------------------

    def copy(self):
        return self._new(self.coef.copy())

    def degree(self):
        return len(self) - 1

    def cutdeg(self, deg):
        return self.truncate(deg + 1)

    def trim(self, tol=0):
        """Trailing coefficients with absolute value <= tol removed (one kept)."""
        return self._new(_pu.trimcoef(self.coef, tol))

    def truncate(self, size):
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError(f"[{type(self).__name__}] size must be a positive integer")
        return self._new(self.coef[:isize])

    # ---- conversion, calculus, roots ---------------------------------------------------------

    def convert(self, domain=None, kind=None, window=None):
        """The same function as a series of class `kind` (this class by default) with another
        domain and window (the kind's defaults)."""
        kind = self.__class__ if kind is None else kind
        if not (isinstance(kind, type) and issubclass(kind, ABCPolyBase)):
            raise TypeError(
                f"[{type(self).__name__}.convert] kind must be a gpupy.polynomial class "
                f"(Polynomial, Chebyshev, ...), got {kind!r}"
            )
        domain = kind.domain if domain is None else domain
        window = kind.window if window is None else window
        identity = kind.identity(domain, window=window, symbol=self._symbol)
        identity.coef = _xp.asarray(identity.coef, device=self.coef.device)
        return self(identity)

    def integ(self, m=1, k=[], lbnd=None):  # noqa: B006 - NumPy's signature
        """See numpy.polynomial.Polynomial.integ (lbnd in the domain)."""
        off, scl = self.mapparms()
        lbnd = 0 if lbnd is None else off + scl * lbnd
        return self._new(self._int(self.coef, m, k, lbnd, 1.0 / scl))

    def deriv(self, m=1):
        """See numpy.polynomial.Polynomial.deriv."""
        return self._new(self._der(self.coef, m, self.mapparms()[1]))

    def roots(self):
        """The roots in the domain, sorted (eigenvalues on the host, see the basis module)."""
        return _pu.mapdomain(self._roots(self.coef), self.window, self.domain)

    def linspace(self, n=100, domain=None):
        """(x, self(x)) at n equally spaced points of the domain (or `domain`)."""
        d = self.domain if domain is None else domain
        x = _xp.linspace(d[0], d[1], n, device=self.coef.device)
        return x, self(x)

    # ---- constructors ------------------------------------------------------------------------

    @classmethod
    def fit(cls, x, y, deg, domain=None, rcond=None, full=False, w=None, window=None, symbol="x"):
        """See numpy.polynomial.Polynomial.fit: least squares on the data's device; the default
        domain is x's extremes (read back)."""
        if domain is None:
            domain = _pu.getdomain(x).get()
            if domain[0] == domain[1]:
                domain[0] -= 1
                domain[1] += 1
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else window
        domain = _host_pair(f"{cls.__name__}.fit", "Domain", domain)
        window = _host_pair(f"{cls.__name__}.fit", "Window", window)
        [x] = device_arrays(f"{cls.__name__}.fit", x)
        res = cls._fit(_pu.mapdomain(x, domain, window), y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain=domain, window=window, symbol=symbol), status
        return cls(res, domain=domain, window=window, symbol=symbol)

    @classmethod
    def fromroots(cls, roots, domain=[], window=None, symbol="x"):  # noqa: B006 - NumPy's
        """The series with these roots, in the domain (`None`: the roots' extremes)."""
        [roots] = _pu._series(f"{cls.__name__}.fromroots", [roots], trim=False)
        if domain is None:
            domain = _pu.getdomain(roots).get()
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain
        window = cls.window if window is None else window
        off, scl = _pu.mapparms(domain, window)
        coef = cls._fromroots(off + scl * roots) / scl ** roots.shape[0]
        return cls(coef, domain=domain, window=window, symbol=symbol)

    @classmethod
    def identity(cls, domain=None, window=None, symbol="x"):
        """The series of x itself over domain and window."""
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        domain = _host_pair(cls.__name__, "Domain", domain)
        off, scl = _pu.mapparms(_host_pair(cls.__name__, "Window", window), domain)
        return cls(cls._line(off, scl), domain, window, symbol)

    @classmethod
    def basis(cls, deg, domain=None, window=None, symbol="x"):
        """The basis function of degree deg."""
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError(f"[{cls.__name__}.basis] deg must be non-negative integer")
        return cls([0] * ideg + [1], domain, window, symbol)

    @classmethod
    def cast(cls, series, domain=None, window=None):
        """series converted to this class."""
        domain = cls.domain if domain is None else domain
        window = cls.window if window is None else window
        return series.convert(domain, cls, window)

    # ---- printing ----------------------------------------------------------------------------

    def _host(self):
        return self._numpy_class(self.coef.get(), self.domain, self.window, self._symbol)

    def __repr__(self):
        text = repr(self._host())
        if self.coef.device == _core.Device("cpu"):
            return text
        return f"{text[:-1]}, device='{self.coef.device}')"

    def __str__(self):
        return str(self._host())

    def __format__(self, fmt_str):
        if fmt_str not in ("", "ascii", "unicode"):
            raise ValueError(
                f"[{type(self).__name__}] Unsupported format string '{fmt_str}'. Valid options "
                "are 'ascii' and 'unicode'"
            )
        return format(self._host(), fmt_str)

    def _repr_latex_(self):
        return self._host()._repr_latex_()
