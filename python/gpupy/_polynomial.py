"""NumPy's legacy polynomial functions (poly, roots, polyadd, polysub, polymul, polydiv, polyder,
polyint, polyval, polyfit): see the NumPy functions of the same names. Coefficients run from the
highest degree to the constant term; like NumPy's, the functions also take gpupy.poly1d objects
(and then return poly1d objects, except polyval and roots).

Everything but the eigenvalue steps is composed of gpupy operations on the data's device;
polyfit's least squares is gpupy.linalg.lstsq. roots (and poly of a square matrix) need the
eigenvalues of a general matrix, which gpupy computes with NumPy's LAPACK on the host only: they
copy the (small) input to the host explicitly and return the result on the input's device.

Single values read back where NumPy's result depends on the data: the leading zeros polymul
drops and polydiv trims from its remainder (the result's length), poly's check that complex
roots come in conjugate pairs (the result's dtype) and polyfit's rank (its RankWarning).
"""

import functools
import operator
import warnings

import numpy

from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy._signal import convolve

__all__ = [
    "poly",
    "polyadd",
    "polyder",
    "polydiv",
    "polyfit",
    "polyint",
    "polymul",
    "polysub",
    "polyval",
    "roots",
]


def _coefficients(op, *values):
    """Coefficient sequences as 1-D gpupy arrays on one device (scalars become length 1)."""
    out = []
    for a in device_arrays(op, *values):
        if a.ndim == 0:
            a = a.reshape(1)
        if a.ndim != 1:
            raise ValueError(f"[{op}] the coefficients must be a 1-D sequence")
        out.append(a)
    return out


def _host_eigvals(op, matrix):
    """Eigenvalues of a general square matrix with NumPy's LAPACK: an explicit host copy."""
    host = matrix.get() if isinstance(matrix, _core.ndarray) else numpy.asarray(matrix)
    try:
        return numpy.linalg.eigvals(host)
    except numpy.linalg.LinAlgError as exc:  # e.g. infs or NaNs in the coefficients
        raise numpy.linalg.LinAlgError(f"[{op}] {exc}") from exc


def _accepts_poly1d(returns_poly1d=True):
    """NumPy's polynomial functions also take poly1d objects (their coefficients), and then
    return poly1d objects."""

    def decorator(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            from gpupy._poly1d import poly1d

            if not any(isinstance(v, poly1d) for v in (*args, *kwargs.values())):
                return func(*args, **kwargs)
            args = [v.coeffs if isinstance(v, poly1d) else v for v in args]
            kwargs = {k: v.coeffs if isinstance(v, poly1d) else v for k, v in kwargs.items()}
            out = func(*args, **kwargs)
            if not returns_poly1d:
                return out
            return tuple(map(poly1d, out)) if isinstance(out, tuple) else poly1d(out)

        return wrapper

    return decorator


# NumPy's mintypecode over 'GDFgdf' for the types gpupy has: the smallest inexact type holding it.
_INEXACT = {"f": "float32", "d": "float64", "F": "complex64", "D": "complex128"}


def poly(seq_of_zeros):
    """See numpy.poly. A square matrix's eigenvalues are computed on the host (see the module
    docstring); the coefficients are built on the input's device."""
    from gpupy import all, asarray, concatenate, conj, ones, real, sort

    (z,) = device_arrays("poly", seq_of_zeros)
    z = z.reshape(1) if z.ndim == 0 else z
    if z.ndim == 2 and z.shape[0] == z.shape[1] and z.shape[0] != 0:
        z = asarray(_host_eigvals("poly", z), device=z.device)
    elif z.ndim == 1:
        z = z.astype(_INEXACT.get(numpy.dtype(z.dtype).char, "float64"))
    else:
        raise ValueError("[poly] input must be 1d or non-empty square 2d array.")
    if z.shape[0] == 0:
        return 1.0
    a = ones((1,), dtype=z.dtype, device=z.device)
    for i in range(z.shape[0]):
        # a * (x - z_i), the two-term convolution NumPy forms; its ends are single products (no
        # 0 * z_i term, which would turn an infinite zero into nan).
        minus_zi = -z[i]
        a = concatenate([a[:1], a[1:] + a[:-1] * minus_zi, a[-1:] * minus_zi])
    a = a + 0.0  # NumPy's convolution sums from +0, so its zero coefficients are never -0
    if numpy.dtype(a.dtype).kind == "c":
        r = z.astype("complex128")
        if bool(all(sort(r) == sort(conj(r)))):
            a = real(a).copy()
    return a


@_accepts_poly1d(returns_poly1d=False)
def roots(p):
    """See numpy.roots: the eigenvalues of the companion matrix, computed with NumPy's LAPACK on
    the host (an explicit copy of p); the roots are returned on p's device."""
    from gpupy import asarray

    (p,) = device_arrays("roots", p)
    device = p.device
    h = p.get().reshape(-1) if p.ndim == 0 else p.get()
    if h.ndim != 1:
        raise ValueError("[roots] Input must be a rank-1 array.")
    nz = numpy.flatnonzero(h)
    if nz.size == 0:
        return asarray(numpy.array([]), device=device)
    trailing = h.shape[0] - nz[-1] - 1
    h = h[nz[0] : nz[-1] + 1]
    if h.dtype.kind not in "fc":
        h = h.astype(float)
    if h.shape[0] > 1:
        companion = numpy.diag(numpy.ones(h.shape[0] - 2, h.dtype), -1)
        companion[0, :] = -h[1:] / h[0]
        r = _host_eigvals("roots", companion)
    else:
        r = numpy.array([])
    return asarray(numpy.concatenate([r, numpy.zeros(trailing, r.dtype)]), device=device)


def _padded_sum(op, combine, a1, a2):
    """NumPy's polyadd/polysub: the shorter input (by its first dimension; scalars have length
    1) gets leading zeros, then the two combine with broadcasting, so equal-length 2-D inputs
    combine elementwise."""
    from gpupy import concatenate, zeros

    a1, a2 = (a.reshape(1) if a.ndim == 0 else a for a in device_arrays(op, a1, a2))
    diff = a2.shape[0] - a1.shape[0]
    short, pad = (a1, diff) if diff > 0 else (a2, -diff)
    if pad and short.ndim != 1:
        raise ValueError(
            f"[{op}] the shorter coefficient array must be 1-D to be padded, got shapes "
            f"{a1.shape} and {a2.shape}"
        )
    if pad:
        padded = concatenate([zeros((pad,), dtype=short.dtype, device=short.device), short])
        a1, a2 = (padded, a2) if diff > 0 else (a1, padded)
    try:
        return combine(a1, a2)
    except ValueError:
        raise ValueError(
            f"[{op}] operands could not be broadcast together with shapes {a1.shape} {a2.shape}"
        ) from None


@_accepts_poly1d()
def polyadd(a1, a2):
    """See numpy.polyadd."""
    return _padded_sum("polyadd", _core.add, a1, a2)


@_accepts_poly1d()
def polysub(a1, a2):
    """See numpy.polysub."""
    return _padded_sum("polysub", _core.subtract, a1, a2)


def _trim_leading_zeros(a):
    """a without its leading zeros ([0] of a's dtype when all are zero), as numpy.poly1d keeps."""
    from gpupy import argmax, where

    if a.shape[0] == 0:
        return _core.zeros((1,), a.dtype, a.device)
    nonzero = a != 0
    # The first nonzero position, or the last one when all are zero (leaving [0]): one read.
    first = where(_core.any(nonzero), argmax(nonzero), a.shape[0] - 1)
    return a[int(first) :]


@_accepts_poly1d()
def polymul(a1, a2):
    """See numpy.polymul (leading zeros dropped first, as NumPy does)."""
    a1, a2 = _coefficients("polymul", a1, a2)
    return convolve(_trim_leading_zeros(a1), _trim_leading_zeros(a2))


@_accepts_poly1d()
def polydiv(u, v):
    """See numpy.polydiv: (quotient, remainder)."""
    from gpupy import abs, cumprod, sum, zeros

    u, v = _coefficients("polydiv", u, v)
    if u.shape[0] == 0 or v.shape[0] == 0:  # NumPy fails indexing the leading coefficient
        raise IndexError("[polydiv] the coefficients of u and v must not be empty")
    u, v = u + 0.0, v + 0.0
    dt = numpy.result_type(u.dtype, v.dtype)
    m, n = u.shape[0] - 1, v.shape[0] - 1
    scale = 1.0 / v[0]  # in v's precision, as NumPy computes it
    q = zeros((max(m - n + 1, 1),), dtype=dt, device=u.device)
    r = u.astype(dt)
    for k in range(m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k : k + n + 1] = r[k : k + n + 1] - d * v
    # Drop the remainder's leading entries NumPy's allclose(r[0], 0, rtol=1e-14) calls zero.
    small = (abs(r) <= 1e-8).astype("int64")
    lead = int(sum(cumprod(small)))
    return q, r[min(lead, r.shape[0] - 1) :]


@_accepts_poly1d()
def polyder(p, m=1):
    """See numpy.polyder."""
    from gpupy import arange

    m = operator.index(m)
    if m < 0:
        raise ValueError("[polyder] Order of derivative must be positive (see polyint)")
    (p,) = _coefficients("polyder", p)
    for _ in range(m):
        n = p.shape[0] - 1
        p = p[:-1] * arange(n, 0, -1, dtype="int64", device=p.device)
    return p


@_accepts_poly1d()
def polyint(p, m=1, k=None):
    """See numpy.polyint."""
    from gpupy import arange, asarray, concatenate

    m = int(m)
    if m < 0:
        raise ValueError("[polyint] Order of integral must be positive (see polyder)")
    (p,) = device_arrays("polyint", p)
    k = numpy.zeros(m, float) if k is None else numpy.atleast_1d(_host_constants(k))
    if len(k) == 1 and m > 1:
        k = k[0] * numpy.ones(m, float)
    if len(k) < m:
        raise ValueError("[polyint] k must be a scalar or a rank-1 array of length 1 or >m.")
    if m == 0:
        return p
    p = p.reshape(1) if p.ndim == 0 else p
    for i in range(m):
        scaled = p / arange(p.shape[0], 0, -1, dtype="int64", device=p.device)
        p = concatenate([scaled, asarray(k[i : i + 1], device=p.device)])
    return p


def _host_constants(k):
    # Integration constants are a few user-given numbers.
    return k.get() if isinstance(k, _core.ndarray) else numpy.asarray(k)


def polyval(p, x):
    """See numpy.polyval: Horner's scheme with gpupy operations (x may be an array, or a poly1d:
    the composition)."""
    from gpupy import zeros
    from gpupy._poly1d import poly1d

    if isinstance(x, poly1d):
        return poly1d(p)(x)
    p = p.coeffs if isinstance(p, poly1d) else p
    p, x = device_arrays("polyval", p, x)
    p = p.reshape(1) if p.ndim == 0 else p
    dt = numpy.result_type(x.dtype, p.dtype) if p.shape[0] else x.dtype
    y = zeros(x.shape, dtype=x.dtype, device=x.device)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y.astype(dt, copy=False)


def _polyfit_inputs(x, y, deg, w):
    x, y, w = device_arrays("polyfit", x, y, w, optional=(2,))
    x, y = x + 0.0, y + 0.0
    if deg < 0:
        raise ValueError("[polyfit] expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("[polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[polyfit] expected x and y to have same length")
    if w is not None:
        w = w + 0.0
        if w.ndim != 1:
            raise TypeError("[polyfit] expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("[polyfit] expected w and y to have the same length")
    return x, y, w


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """See numpy.polyfit: least squares through gpupy.linalg.lstsq on the data's device."""
    from gpupy import linalg, matmul, outer, sqrt, sum
    from gpupy._signal import vander

    order = int(deg) + 1
    x, y, w = _polyfit_inputs(x, y, deg, w)
    if rcond is None:
        rcond = x.shape[0] * numpy.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    scale = sqrt(sum(lhs * lhs, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = linalg.lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    rank = int(rank)
    if rank != order and not full:
        warnings.warn(
            "Polyfit may be poorly conditioned", numpy.exceptions.RankWarning, stacklevel=2
        )
    if full:
        return c, resids, numpy.int32(rank), s, rcond  # NumPy's lstsq rank is a LAPACK int32
    if not cov:
        return c
    vbase = linalg.inv(matmul(lhs.T, lhs)) / outer(scale, scale)
    if cov == "unscaled":
        fac = 1
    else:
        if x.shape[0] <= order:
            raise ValueError(
                "[polyfit] the number of data points must exceed order to scale the covariance "
                "matrix"
            )
        fac = resids / (x.shape[0] - order)
    return c, (vbase * fac if y.ndim == 1 else vbase[:, :, None] * fac)
