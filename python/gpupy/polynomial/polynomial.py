"""gpupy.polynomial.polynomial: numpy.polynomial.polynomial (power series, coefficients from low
to high degree, the opposite of gpupy.polyval's order) on gpupy arrays.

Everything is computed with gpupy operations on the device of the gpupy arrays among the
arguments (the default device otherwise); integer and boolean coefficients compute in float64,
as NumPy's do. Host steps: polyroots' eigenvalues (NumPy's LAPACK on an explicit copy of the
companion matrix, as gpupy.roots), the single index trimming reads back, polyfit's rank. The
constants polydomain, polyzero, polyone and polyx are NumPy arrays, usable with any device.
"""

import numpy

import gpupy as _xp
from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy.polynomial import polyutils as _pu

__all__ = [
    "polyzero",
    "polyone",
    "polyx",
    "polydomain",
    "polyline",
    "polyadd",
    "polysub",
    "polymulx",
    "polymul",
    "polydiv",
    "polypow",
    "polyval",
    "polyvalfromroots",
    "polyder",
    "polyint",
    "polyfromroots",
    "polyvander",
    "polyfit",
    "polytrim",
    "polyroots",
    "Polynomial",
    "polyval2d",
    "polyval3d",
    "polygrid2d",
    "polygrid3d",
    "polyvander2d",
    "polyvander3d",
    "polycompanion",
]

polytrim = _pu.trimcoef
polydomain = numpy.array([-1.0, 1.0])
polyzero = numpy.array([0])
polyone = numpy.array([1])
polyx = numpy.array([0, 1])


def _host_sample(v):
    """A NumPy scalar of v's dtype (v itself when it is not a gpupy array), for NumPy's
    dtype discovery of a small list."""
    return numpy.zeros((), v.dtype)[()] if isinstance(v, _core.ndarray) else v


def _line(op, off, scl):
    """[off, scl] ([off] when scl is 0), the dtype NumPy's numpy.array([off, scl]) gives."""
    off_a, scl_a = device_arrays(op, off, scl)
    if bool(scl_a != 0):
        dtype = numpy.array([_host_sample(off), _host_sample(scl)]).dtype
        return _xp.stack([off_a, scl_a]).astype(dtype)
    return off_a.reshape(1).astype(numpy.array([_host_sample(off)]).dtype)


def polyline(off, scl):
    """See numpy.polynomial.polynomial.polyline: the series off + scl x."""
    return _line("polyline", off, scl)


def polyfromroots(roots):
    """See numpy.polynomial.polynomial.polyfromroots: the monic series with these roots."""
    return _pu._fromroots("polyfromroots", polyline, polymul, roots)


def polyadd(c1, c2):
    """See numpy.polynomial.polynomial.polyadd."""
    return _pu._add("polyadd", c1, c2)


def polysub(c1, c2):
    """See numpy.polynomial.polynomial.polysub."""
    return _pu._add("polysub", c1, c2, sign=-1)


def polymulx(c):
    """See numpy.polynomial.polynomial.polymulx: c times x."""
    [c] = _pu._series("polymulx", [c])
    if c.shape[0] == 1 and bool(c[0] == 0):
        return c
    return _xp.concatenate([c[:1] * 0, c])


def polymul(c1, c2):
    """See numpy.polynomial.polynomial.polymul."""
    c1, c2 = _pu._series("polymul", [c1, c2])
    return _pu.trimseq(_xp.convolve(c1, c2))


def polydiv(c1, c2):
    """See numpy.polynomial.polynomial.polydiv: (quotient, remainder)."""
    c1, c2 = _pu._series("polydiv", [c1, c2])
    if bool(c2[-1] == 0):
        raise ZeroDivisionError("[polydiv] division by zero polynomial")
    n1, n2 = c1.shape[0], c2.shape[0]
    if n1 < n2:
        return c1[:1] * 0, c1
    if n2 == 1:
        return c1 / c2[-1], c1[:1] * 0
    scl = c2[-1]
    c2 = c2[:-1] / scl
    j = n1 - 1
    for i in range(n1 - n2, -1, -1):
        c1[i:j] = c1[i:j] - c2 * c1[j]
        j -= 1
    return c1[j + 1 :] / scl, _pu.trimseq(c1[: j + 1])


def polypow(c, pow, maxpower=None):
    """See numpy.polynomial.polynomial.polypow."""
    return _pu._pow("polypow", _xp.convolve, c, pow, maxpower)


def polyder(c, m=1, scl=1, axis=0):
    """See numpy.polynomial.polynomial.polyder: the m-th derivative along `axis`, each
    differentiation multiplied by scl."""
    c, cnt, axis = _pu._calculus_input("polyder", c, m, axis, "derivation")
    n = c.shape[0]
    if cnt >= n:
        c = c[:1] * 0
    else:
        for _ in range(cnt):
            n -= 1
            c *= scl
            c = c[1:] * _pu._index_range(n, c)
    return _xp.moveaxis(c, 0, axis)


def polyint(c, m=1, k=[], lbnd=0, scl=1, axis=0):  # noqa: B006 - NumPy's signature
    """See numpy.polynomial.polynomial.polyint: m integrations along `axis`, constants k (the
    value at lbnd), each integration multiplied by scl."""
    c, cnt, axis = _pu._calculus_input("polyint", c, m, axis, "integration")
    k = _pu._integration_constants("polyint", c, cnt, k, lbnd, scl)
    for i in range(cnt):
        n = c.shape[0]
        c *= scl
        if n == 1 and bool(_xp.all(c[0] == 0)):
            c[0] = c[0] + k[i]
            continue
        out = _xp.empty((n + 1,) + c.shape[1:], dtype=c.dtype, device=c.device)
        out[0] = c[0] * 0
        out[1:] = c / _pu._index_range(n, c)
        out[0] = out[0] + (k[i] - polyval(lbnd, out))
        c = out
    return _xp.moveaxis(c, 0, axis)


def polyval(x, c, tensor=True):
    """See numpy.polynomial.polynomial.polyval: c[0] + c[1] x + c[2] x**2 + ... (Horner). With
    `tensor`, each coefficient's trailing axes are evaluated at every x (result shape
    c.shape[1:] + x.shape); without it, they broadcast against x."""
    x, c = _pu._values_input("polyval", x, c)
    c = _pu._tensor(x, c, tensor)
    result = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        result = c[-i] + result * x
    return result


def polyvalfromroots(x, r, tensor=True):
    """See numpy.polynomial.polynomial.polyvalfromroots: the product of (x - r) over r's first
    axis."""
    x, r = _pu._values_input("polyvalfromroots", x, r)
    if isinstance(x, _core.ndarray) and not tensor and x.ndim >= r.ndim:
        raise ValueError("[polyvalfromroots] x.ndim must be < r.ndim when tensor == False")
    return _xp.prod(x - _pu._tensor(x, r, tensor), axis=0)


def polyval2d(x, y, c):
    """See numpy.polynomial.polynomial.polyval2d: sum of c[i, j] x**i y**j at the points
    (x, y), which must have one shape."""
    return _pu._valnd("polyval2d", polyval, c, x, y)


def polyval3d(x, y, z, c):
    """See numpy.polynomial.polynomial.polyval3d."""
    return _pu._valnd("polyval3d", polyval, c, x, y, z)


def polygrid2d(x, y, c):
    """See numpy.polynomial.polynomial.polygrid2d: the values on the Cartesian product of x
    and y (result shape c.shape[2:] + x.shape + y.shape)."""
    return _pu._gridnd("polygrid2d", polyval, c, x, y)


def polygrid3d(x, y, z, c):
    """See numpy.polynomial.polynomial.polygrid3d."""
    return _pu._gridnd("polygrid3d", polyval, c, x, y, z)


def polyvander(x, deg):
    """See numpy.polynomial.polynomial.polyvander: [1, x, x**2, ..., x**deg] along a new last
    axis."""
    x, deg = _pu._vander_input("polyvander", x, deg)
    columns = [x * 0 + 1]
    if deg > 0:
        columns.append(x)
    for _ in range(2, deg + 1):
        columns.append(columns[-1] * x)
    return _xp.stack(columns, axis=-1)


def polyvander2d(x, y, deg):
    """See numpy.polynomial.polynomial.polyvander2d (deg = [x_deg, y_deg])."""
    return _pu._vander_nd("polyvander2d", (polyvander, polyvander), (x, y), deg)


def polyvander3d(x, y, z, deg):
    """See numpy.polynomial.polynomial.polyvander3d (deg = [x_deg, y_deg, z_deg])."""
    return _pu._vander_nd("polyvander3d", (polyvander,) * 3, (x, y, z), deg)


def polyfit(x, y, deg, rcond=None, full=False, w=None):
    """See numpy.polynomial.polynomial.polyfit: least squares (gpupy.linalg.lstsq on the data's
    device); deg is a degree or a list of the degrees to fit. With `full`, also
    [residuals, rank, singular values, rcond]."""
    return _pu._fit("polyfit", polyvander, x, y, deg, rcond, full, w)


def polycompanion(c):
    """See numpy.polynomial.polynomial.polycompanion."""
    [c] = _pu._series("polycompanion", [c])
    n = c.shape[0] - 1
    if n < 1:
        raise ValueError("[polycompanion] Series must have maximum degree of at least 1.")
    if n == 1:
        return (-c[0] / c[1]).reshape(1, 1)
    mat = _xp.eye(n, k=-1, dtype=c.dtype, device=c.device)
    mat[:, -1] = mat[:, -1] - c[:-1] / c[-1]
    return mat


def polyroots(c):
    """See numpy.polynomial.polynomial.polyroots: sorted, from the companion matrix's eigenvalues
    (computed on the host, see the module docstring), on c's device."""
    [c] = _pu._series("polyroots", [c])
    if c.shape[0] < 2:
        return _xp.empty((0,), dtype=c.dtype, device=c.device)
    if c.shape[0] == 2:
        return (-c[0] / c[1]).reshape(1)
    return _pu._eig_roots("polyroots", polycompanion(c))


from gpupy.polynomial._polynomial_class import Polynomial  # noqa: E402
