"""gpupy.polynomial.polyutils: NumPy's helpers for the series modules (as_series, trimseq,
trimcoef, getdomain, mapdomain, mapparms, format_float) on gpupy arrays, and the private steps
every basis shares (addition, division, powers, roots of a product, n-d values and Vandermonde
matrices, least squares, the argument checks of der/int).

Coefficient arrays stay on the device of the gpupy arrays among the arguments (the default device
otherwise). Trimming trailing zeros reads one index back (the result's length depends on the
data), and fits read the rank back for NumPy's RankWarning.
"""

import operator
import warnings

import numpy as _numpy

import gpupy as _xp
from gpupy import _core
from gpupy._host_library import device_arrays as _device_arrays

__all__ = ["as_series", "format_float", "getdomain", "mapdomain", "mapparms", "trimcoef", "trimseq"]


def _as_int(op, x, desc):
    try:
        return operator.index(x)
    except TypeError as exc:
        raise TypeError(f"[{op}] {desc} must be an integer, received {x}") from exc


def _last_true(mask):
    """The index of mask's last True, or -1: one value read back."""
    n = mask.shape[0]
    return int(_xp.where(_core.any(mask), n - 1 - _xp.argmax(mask[::-1]), -1))


def trimseq(seq):
    """See numpy.polynomial.polyutils.trimseq: seq without its trailing zeros (the first element
    kept when all are zero)."""
    if isinstance(seq, _core.ndarray) and seq.ndim == 1:
        return seq[: max(_last_true(seq != 0), 0) + 1] if seq.shape[0] else seq
    if len(seq) == 0 or seq[-1] != 0:
        return seq
    i = len(seq) - 1
    while i > 0 and seq[i] == 0:
        i -= 1
    return seq[: i + 1]


def _check_host_kind(op, a):
    """Strings have no common type with numbers (NumPy's ValueError); Python objects such as
    Fraction, which NumPy keeps in object arrays, are refused by name."""
    if isinstance(a, (_core.ndarray, int, float, complex)):
        return
    try:
        kind = _numpy.asarray(a).dtype.kind
    except (ValueError, TypeError):  # ragged, or holding device arrays: asarray below decides
        return
    if kind in "USV":
        raise ValueError(f"[{op}] Coefficient arrays have no common type")
    if kind == "O":
        raise TypeError(f"[{op}] object coefficients are not supported: gpupy has no object arrays")


def _series(op, alist, trim=True):
    """NumPy's as_series: 1-D copies with one inexact dtype (numpy.common_type: integers become
    float64), on one device; errors name `op`."""
    for a in alist:
        _check_host_kind(op, a)
    arrays = [a.reshape(1) if a.ndim == 0 else a for a in _device_arrays(op, *alist)]
    for a in arrays:
        if a.size == 0:
            raise ValueError(f"[{op}] Coefficient array is empty")
        if a.ndim != 1:
            raise ValueError(f"[{op}] Coefficient array is not 1-d")
    if trim:
        arrays = [trimseq(a) for a in arrays]
    try:
        dtype = _numpy.common_type(*(_numpy.empty(0, a.dtype) for a in arrays))
    except TypeError as exc:
        raise ValueError(f"[{op}] Coefficient arrays have no common type") from exc
    return [a.astype(dtype) for a in arrays]


def as_series(alist, trim=True):
    """See numpy.polynomial.polyutils.as_series: a list of 1-D gpupy arrays of one inexact
    dtype (a 2-D array gives its rows)."""
    return _series("as_series", list(alist), trim)


def trimcoef(c, tol=0):
    """See numpy.polynomial.polyutils.trimcoef: trailing coefficients with absolute value <= tol
    removed (a single zero when none is left)."""
    if tol < 0:
        raise ValueError("[trimcoef] tol must be non-negative")
    [c] = _series("trimcoef", [c])
    last = _last_true(_xp.abs(c) > tol)
    return c[:1] * 0 if last < 0 else c[: last + 1].copy()


def getdomain(x):
    """See numpy.polynomial.polyutils.getdomain: [min, max] of x (for complex x, the corners of
    the smallest axis-aligned rectangle holding it), on x's device."""
    [x] = _series("getdomain", [x], trim=False)
    if x.dtype.kind == "c":
        re, im = _xp.real(x), _xp.imag(x)
        lo = _xp.stack([re.min(), re.max()]).astype("complex128")
        return lo + 1j * _xp.stack([im.min(), im.max()])
    return _xp.stack([x.min(), x.max()])


def mapparms(old, new):
    """See numpy.polynomial.polyutils.mapparms: (off, scl) of the line mapping old onto new."""
    old_len, new_len = old[1] - old[0], new[1] - new[0]
    return (old[1] * new[0] - old[0] * new[1]) / old_len, new_len / old_len


def mapdomain(x, old, new):
    """See numpy.polynomial.polyutils.mapdomain: off + scl * x for the map from old to new."""
    if type(x) not in (int, float, complex) and not isinstance(x, _numpy.generic):
        [x] = _device_arrays("mapdomain", x)
    off, scl = mapparms(old, new)
    return off + scl * x


def format_float(x, parens=False):
    """See numpy.polynomial.polyutils.format_float: the text the series printers write for one
    coefficient (a gpupy scalar array is read back once)."""
    if isinstance(x, _xp.ndarray):
        x = x.item()
    return _numpy.polynomial.polyutils.format_float(x, parens)


# ---- steps shared by the basis modules -----------------------------------------------------


def _inexact(c):
    """Integer and boolean coefficients compute in float64, as NumPy's `c + 0.0`."""
    return c.astype("float64") if c.dtype.kind in "biu" else c


def _values_input(op, x, c):
    """c as an inexact gpupy array of at least one dimension, on x's device when x is a gpupy
    array, a sequence or a series; x stays a Python number when it is one (a weak scalar, as in
    NumPy)."""
    from gpupy.polynomial._polybase import ABCPolyBase

    if isinstance(x, ABCPolyBase):  # a composition: the series' arithmetic does the work
        (c,) = _device_arrays(op, x.coef, c)[1:]
    elif isinstance(x, (int, float, complex)) and not hasattr(x, "dtype"):
        (c,) = _device_arrays(op, c)
    else:
        x, c = _device_arrays(op, x, c)
    return x, _inexact(c.reshape(1) if c.ndim == 0 else c)


def _tensor(x, c, tensor):
    """c with one trailing unit axis per axis of x when `tensor` (each coefficient's values at
    every x)."""
    return c.reshape(c.shape + (1,) * x.ndim) if isinstance(x, _core.ndarray) and tensor else c


def _valnd(op, val_f, c, *points):
    *points, c = _device_arrays(op, *points, c)
    if any(p.shape != points[0].shape for p in points[1:]):
        names = {2: "x, y", 3: "x, y, z"}.get(len(points), "ordinates")
        raise ValueError(f"[{op}] {names} are incompatible")
    c = val_f(points[0], c)
    for p in points[1:]:
        c = val_f(p, c, tensor=False)
    return c


def _gridnd(op, val_f, c, *points):
    *points, c = _device_arrays(op, *points, c)
    for p in points:
        c = val_f(p, c)
    return c


def _vander_input(op, x, deg):
    deg = _as_int(op, deg, "deg")
    if deg < 0:
        raise ValueError(f"[{op}] deg must be non-negative")
    [x] = _device_arrays(op, x)
    return (x.reshape(1) if x.ndim == 0 else x) + 0.0, deg


def _vander_nd(op, vander_fs, points, degrees):
    n = len(vander_fs)
    if len(points) != n:
        raise ValueError(f"[{op}] Expected {n} dimensions of sample points, got {len(points)}")
    if len(degrees) != n:
        raise ValueError(f"[{op}] Expected {n} dimensions of degrees, got {len(degrees)}")
    points = _device_arrays(op, *points)
    if any(p.shape != points[0].shape for p in points[1:]):
        raise ValueError(f"[{op}] the point arrays must have one shape")
    dtype = _xp.result_type(*points, 0.0)
    out = None
    for i, (vander_f, p) in enumerate(zip(vander_fs, points, strict=True)):
        v = vander_f(p.astype(dtype), degrees[i])
        v = v.reshape(v.shape[:-1] + (1,) * i + v.shape[-1:] + (1,) * (n - 1 - i))
        out = v if out is None else out * v
    return out.reshape(out.shape[: out.ndim - n] + (-1,))


def _fromroots(op, line_f, raw_mul, roots):
    """The product of the lines (x - r), multiplied pairwise as NumPy does (with the basis's
    untrimmed product, trimmed once)."""
    [roots] = _device_arrays(op, roots)
    if roots.ndim == 0:  # NumPy takes len() of the roots, which a scalar has not
        raise TypeError(f"[{op}] the roots must be a sequence, got a scalar")
    if roots.shape[0] == 0:  # NumPy's len(roots) == 0, whatever the other dimensions
        return _xp.ones((1,), device=roots.device)
    [roots] = _series(op, [roots], trim=False)
    roots = _xp.sort(roots.astype(_numpy.result_type(roots.dtype, _numpy.float64)))
    p = [line_f(-roots[i], 1) for i in range(roots.shape[0])]
    while len(p) > 1:
        m, odd = divmod(len(p), 2)
        products = [raw_mul(p[i], p[i + m]) for i in range(m)]
        if odd:
            products[0] = raw_mul(products[0], p[-1])
        p = products
    return trimseq(p[0])


def _raw_add(c1, c2, sign=1):
    """c1 + sign * c2 for 1-D series of any lengths (the shorter padded with zeros), untrimmed:
    the recurrences of the bases sum with it and trim once at the end."""
    n = max(c1.shape[0], c2.shape[0])
    out = _xp.zeros((n,), dtype=_xp.result_type(c1, c2), device=c1.device)
    out[: c1.shape[0]] = c1
    out[: c2.shape[0]] = out[: c2.shape[0]] + c2 if sign > 0 else out[: c2.shape[0]] - c2
    return out


def _add(op, c1, c2, sign=1):
    c1, c2 = _series(op, [c1, c2])
    return trimseq(_raw_add(c1, c2, sign))


def _div_input(op, c1, c2):
    """(c1, c2, result): the two series, and the quotient and remainder where no long division
    is needed (a lower degree numerator, a constant denominator), else None."""
    c1, c2 = _series(op, [c1, c2])
    if bool(c2[-1] == 0):
        raise ZeroDivisionError(f"[{op}] division by zero polynomial")
    if c1.shape[0] < c2.shape[0]:
        return c1, c2, (c1[:1] * 0, c1)
    if c2.shape[0] == 1:
        return c1, c2, (c1 / c2[-1], c1[:1] * 0)
    return c1, c2, None


def _div(op, raw_mul, c1, c2):
    """Long division in any basis: the quotient's coefficients from the top down (raw_mul is
    the basis's untrimmed product: the products of the basis functions with c2 keep c2's
    nonzero leading term, so NumPy's trimming of them changes nothing)."""
    c1, c2, result = _div_input(op, c1, c2)
    if result is not None:
        return result
    n1, n2 = c1.shape[0], c2.shape[0]
    quo = _xp.empty((n1 - n2 + 1,), dtype=c1.dtype, device=c1.device)
    basis = _xp.eye(n1 - n2 + 1, device=c1.device)  # float64, as NumPy's [0, ..., 0, 1]
    rem = c1
    for i in range(n1 - n2, -1, -1):
        p = raw_mul(basis[i, : i + 1], c2)
        q = rem[-1] / p[-1]
        rem = rem[:-1] - q * p[:-1]
        quo[i] = q
    return quo, trimseq(rem)


def _pow(op, raw_mul, c, power, maxpower, trim=True):
    """c**power by repeated untrimmed products, trimmed once (NumPy's polypow never trims)."""
    [c] = _series(op, [c])
    n = int(power)
    if n != power or n < 0:
        raise ValueError(f"[{op}] Power must be a non-negative integer.")
    if maxpower is not None and n > maxpower:
        raise ValueError(f"[{op}] Power is too large")
    if n == 0:
        return _xp.ones((1,), dtype=c.dtype, device=c.device)
    out = c
    for _ in range(n - 1):
        out = raw_mul(out, c)
    return trimseq(out) if trim else out


def _calculus_input(op, c, m, axis, what):
    """NumPy's checks for der/int: (c as an inexact copy with `axis` moved to the front, the
    count, the axis made non-negative)."""
    [c] = _device_arrays(op, c)
    c = _inexact(c.reshape(1) if c.ndim == 0 else c).copy()
    cnt = _as_int(op, m, f"the order of {what}")
    iaxis = _as_int(op, axis, "the axis")
    if cnt < 0:
        raise ValueError(f"[{op}] The order of {what} must be non-negative")
    if not -c.ndim <= iaxis < c.ndim:
        raise _numpy.exceptions.AxisError(
            f"[{op}] axis {iaxis} is out of bounds for array of dimension {c.ndim}"
        )
    return _xp.moveaxis(c, iaxis, 0), cnt, iaxis % c.ndim


def _integration_constants(op, cnt, k, lbnd, scl):
    """NumPy's checks of int's k, lbnd and scl: the constants, padded with zeros to cnt."""
    k = list(k) if _numpy.iterable(k) else [k]
    if len(k) > cnt:
        raise ValueError(f"[{op}] Too many integration constants")
    if _numpy.ndim(lbnd) != 0:
        raise ValueError(f"[{op}] lbnd must be a scalar.")
    if _numpy.ndim(scl) != 0:
        raise ValueError(f"[{op}] scl must be a scalar.")
    return k + [0] * (cnt - len(k))


def _index_range(n, c, start=1):
    """start, start + 1, ... as c's real dtype, shaped to scale c's first axis."""
    real = _numpy.empty(0, c.dtype).real.dtype
    j = _xp.arange(start, start + n, dtype=real, device=c.device)
    return j.reshape((n,) + (1,) * (c.ndim - 1))


def _eig_roots(op, matrix, rotate=False):
    """Eigenvalues of a companion matrix with NumPy's LAPACK on the host (an explicit copy),
    sorted, on the matrix's device."""
    host = matrix.get()
    if rotate:  # NumPy's bases rotate the matrix for a better-conditioned eigenproblem
        host = host[::-1, ::-1]
    try:
        r = _numpy.linalg.eigvals(host)
    except _numpy.linalg.LinAlgError as exc:
        raise _numpy.linalg.LinAlgError(f"[{op}] {exc}") from exc
    r.sort()
    return _xp.asarray(r, device=matrix.device)


def _fit_input(op, x, y, deg, w):
    x, y, w = _device_arrays(op, x, y, w, optional=(2,))
    x, y = x + 0.0, y + 0.0
    deg = _numpy.asarray(deg.get() if isinstance(deg, _core.ndarray) else deg)
    if deg.ndim > 1 or deg.dtype.kind not in "iu" or deg.size == 0:
        raise TypeError(f"[{op}] deg must be an int or non-empty 1-D array of int")
    if deg.min() < 0:
        raise ValueError(f"[{op}] expected deg >= 0")
    if x.ndim != 1:
        raise TypeError(f"[{op}] expected 1D vector for x")
    if x.size == 0:
        raise TypeError(f"[{op}] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError(f"[{op}] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError(f"[{op}] expected x and y to have same length")
    if w is not None:
        w = w + 0.0
        if w.ndim != 1:
            raise TypeError(f"[{op}] expected 1D vector for w")
        if x.shape[0] != w.shape[0]:
            raise TypeError(f"[{op}] expected x and w to have same length")
    return x, y, deg, w


def _fit(op, vander_f, x, y, deg, rcond=None, full=False, w=None):
    """Least squares in any basis (gpupy.linalg.lstsq on the data's device), with NumPy's column
    scaling; a degree list fits only those terms."""
    x, y, deg, w = _fit_input(op, x, y, deg, w)
    lmax = int(deg.max())
    van = vander_f(x, lmax)
    order = lmax + 1
    if deg.ndim:
        deg = _numpy.sort(deg)
        order = deg.shape[0]
        van = van[:, deg.tolist()]
    lhs, rhs = van.T, y.T
    if w is not None:
        lhs, rhs = lhs * w, rhs * w
    if rcond is None:
        rcond = x.shape[0] * _numpy.finfo(x.dtype).eps
    if lhs.dtype.kind == "c":
        scl = _xp.sqrt((_xp.square(_xp.real(lhs)) + _xp.square(_xp.imag(lhs))).sum(1))
    else:
        scl = _xp.sqrt(_xp.square(lhs).sum(1))
    scl = _xp.where(scl == 0, 1, scl)
    c, resids, rank, s = _xp.linalg.lstsq(lhs.T / scl, rhs.T, rcond)
    c = (c.T / scl).T
    if deg.ndim:
        full_c = _xp.zeros((lmax + 1,) + c.shape[1:], dtype=c.dtype, device=c.device)
        full_c[deg.tolist()] = c
        c = full_c
    rank = _numpy.int32(int(rank))  # NumPy's lstsq rank is a LAPACK int32
    if rank != order and not full:
        warnings.warn(
            "The fit may be poorly conditioned", _numpy.exceptions.RankWarning, stacklevel=3
        )
    return (c, [resids, rank, s, rcond]) if full else c
