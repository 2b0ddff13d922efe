"""gpupy.poly1d, NumPy's one-dimensional polynomial class: see numpy.poly1d.

The coefficients (highest degree first) are a 1-D gpupy array on a device, and every operation is
one of gpupy's polynomial functions (gpupy._polynomial) on that device. Two things use the host
explicitly: `roots` (eigenvalues, as gpupy.roots) and `str()` (formatted with NumPy's own
poly1d printer from a host copy of the coefficients).
"""

import numpy

from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy._polynomial import (
    _trim_leading_zeros,
    poly,
    polyadd,
    polyder,
    polydiv,
    polyint,
    polymul,
    polysub,
    polyval,
    roots,
)

__all__ = ["poly1d"]


def _is_scalar(value):
    # numpy.isscalar's meaning: Python and NumPy scalars, not 0-d arrays.
    return isinstance(value, (bool, int, float, complex, numpy.generic))


class poly1d:
    """See numpy.poly1d. The coefficients live on a device as a gpupy array (``coeffs``); the
    arithmetic, evaluation, derivatives and integrals run there. ``roots`` computes eigenvalues on
    the host (as gpupy.roots does) and returns them on the coefficients' device; ``str()`` formats
    a host copy of the coefficients."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable if variable is None else variable
            self._coeffs = c_or_r._coeffs
            return
        if r:
            c_or_r = poly(c_or_r)
        (c,) = device_arrays("poly1d", c_or_r)
        if c.ndim == 0:
            c = c.reshape(1)
        if c.ndim > 1:
            raise ValueError("[poly1d] Polynomial must be 1d only.")
        self._coeffs = _trim_leading_zeros(c)
        self._variable = "x" if variable is None else variable

    # ---- attributes --------------------------------------------------------------------------

    @property
    def coeffs(self):
        """The polynomial coefficients (a gpupy array, highest degree first)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        # NumPy allows only the in-place form (p.coeffs *= 2), which assigns the same array back.
        if value is not self._coeffs:
            raise AttributeError("[poly1d] Cannot set attribute")

    @property
    def variable(self):
        """The name of the polynomial variable."""
        return self._variable

    @property
    def order(self):
        """The order or degree of the polynomial."""
        return self._coeffs.shape[0] - 1

    @property
    def roots(self):
        """The roots of the polynomial (eigenvalues on the host; see gpupy.roots)."""
        return roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    # ---- conversions and printing ------------------------------------------------------------

    def __array__(self, dtype=None, copy=None):
        # Same rule as the coefficient array: cpu shares memory, other devices refuse.
        return numpy.asarray(self._coeffs, dtype=dtype, copy=copy)

    def __repr__(self):
        return f"poly1d({repr(self._coeffs)[6:-1]})"

    def __str__(self):
        return str(numpy.poly1d(self._coeffs.get(), variable=self._variable))

    def __len__(self):
        return self.order

    def __iter__(self):
        return iter(self._coeffs)

    # ---- evaluation and arithmetic -----------------------------------------------------------

    def __call__(self, val):
        if isinstance(val, poly1d):
            # Composition: Horner's scheme with poly1d arithmetic.
            out = poly1d(self._zeros(1))
            for i in range(self._coeffs.shape[0]):
                out = out * val + poly1d(self._coeffs[i : i + 1])
            return out
        return polyval(self._coeffs, val)

    def _zeros(self, n):
        return _core.zeros((n,), self._coeffs.dtype, self._coeffs.device)

    def _other(self, other):
        # The other operand as a poly1d on this polynomial's device.
        if isinstance(other, poly1d):
            return other
        return poly1d(device_arrays("poly1d", self._coeffs, other)[1])

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if _is_scalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, self._other(other)._coeffs))

    def __rmul__(self, other):
        if _is_scalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(polymul(self._coeffs, self._other(other)._coeffs))

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, self._other(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, self._other(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(self._other(other)._coeffs, self._coeffs))

    def __pow__(self, val):
        if not _is_scalar(val) or isinstance(val, complex) or int(val) != val or val < 0:
            raise ValueError("[poly1d] Power to non-negative integers only.")
        from gpupy import ones

        res = ones((1,), dtype="int64", device=self._coeffs.device)
        for _ in range(int(val)):
            res = polymul(self._coeffs, res)
        return poly1d(res)

    def __truediv__(self, other):
        if _is_scalar(other):
            return poly1d(self._coeffs / other)
        q, rem = polydiv(self._coeffs, self._other(other)._coeffs)
        return poly1d(q), poly1d(rem)

    def __rtruediv__(self, other):
        if _is_scalar(other):
            return poly1d(other / self._coeffs)
        q, rem = polydiv(self._other(other)._coeffs, self._coeffs)
        return poly1d(q), poly1d(rem)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # ---- coefficient access ------------------------------------------------------------------

    def __getitem__(self, val):
        """The coefficient of x**val (zero beyond the order or below 0)."""
        if val > self.order or val < 0:
            return _core.zeros((), self._coeffs.dtype, self._coeffs.device)
        return self._coeffs[self.order - val]

    def __setitem__(self, key, val):
        if key < 0:
            raise ValueError("[poly1d] Does not support negative powers.")
        if key > self.order:
            from gpupy import concatenate

            self._coeffs = concatenate([self._zeros(key - self.order), self._coeffs])
        self._coeffs[self.order - key] = val

    # ---- calculus ----------------------------------------------------------------------------

    def integ(self, m=1, k=0):
        """See numpy.poly1d.integ (gpupy.polyint)."""
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        """See numpy.poly1d.deriv (gpupy.polyder)."""
        return poly1d(polyder(self._coeffs, m=m))
