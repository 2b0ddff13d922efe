"""convolve, correlate, gradient, trapezoid, interp, unwrap, cross, kron and vander: see the NumPy
functions of the same names (the window functions are in _windows.py).

All of them run on the data's device. convolve and correlate are direct sums (no FFT: its error is
relative to the largest output, not to each one), so integer results are exact: one device
operation, _core._sliding_dot, computes the slice of the full correlation a mode asks for, each
output summed over the overlapping products only (an inf at an end stays inf instead of meeting a
padding zero), in ascending order, in the inputs' common dtype (integers wrap as NumPy's do, bool
is whether any product is true, float16 sums in float32). The others are composed of gpupy
operations.
"""

import builtins
import math
import operator
import warnings

import numpy

from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy._indexing import _axes, _axis

__all__ = [
    "convolve",
    "correlate",
    "cross",
    "gradient",
    "interp",
    "kron",
    "trapezoid",
    "unwrap",
    "vander",
]


_MODES = ("valid", "same", "full")


def _mode_name(op, mode):
    """NumPy's mode: a name, or one of its legacy integers 0, 1, 2 (valid, same, full)."""
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError(
                f"[{op}] mode must be one of 'valid', 'same', or 'full' (got {mode!r})"
            )
        return mode
    if isinstance(mode, (int, numpy.integer)) and not isinstance(mode, (bool, numpy.bool_)):
        if not 0 <= mode <= 2:
            raise ValueError(f"[{op}] integer convolve/correlate mode must be 0, 1, or 2")
        return _MODES[int(mode)]
    raise TypeError(f"[{op}] convolve/correlate mode not understood")


def _correlate_1d(op, a, v, mode, a_is_longer):
    """The slice of the full correlation NumPy's mode picks (a_is_longer: NumPy's swap rule)."""
    mode = _mode_name(op, mode)
    n, m = a.shape[0], v.shape[0]
    lo, hi = builtins.min(n, m), builtins.max(n, m)
    if mode == "full":
        start, length = 0, n + m - 1
    elif mode == "valid":
        start, length = lo - 1, hi - lo + 1
    else:
        start = (lo - 1) // 2 if a_is_longer else (lo - 1) - (lo - 1) // 2
        length = hi
    return _core._sliding_dot(a, v, start, length)


def convolve(a, v, mode="full"):
    """See numpy.convolve (a direct sum: integer inputs are exact)."""
    from gpupy import flip

    a, v = device_arrays("convolve", a, v)
    a, v = (x.reshape(1) if x.ndim == 0 else x for x in (a, v))
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[convolve] object too deep for desired array")
    if a.shape[0] == 0:
        raise ValueError("[convolve] a cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("[convolve] v cannot be empty")
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _correlate_1d("convolve", a, flip(v), mode, True)


def correlate(a, v, mode="valid"):
    """See numpy.correlate: c[k] = sum_n a[n+k] * conj(v[n]) (a direct sum)."""
    from gpupy import conj

    mode = _mode_name("correlate", mode)  # NumPy parses it with the arguments
    a, v = device_arrays("correlate", a, v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[correlate] a and v must be one-dimensional")
    if a.shape[0] == 0:
        raise ValueError("[correlate] first array argument cannot be empty")
    if v.shape[0] == 0:
        raise ValueError("[correlate] second array argument cannot be empty")
    if numpy.dtype(v.dtype).kind == "c":
        v = conj(v)
    return _correlate_1d("correlate", a, v, mode, a.shape[0] >= v.shape[0])


# ---- gradient ----------------------------------------------------------------------------------


def _spacings(varargs, f, axes):
    """One spacing per axis: a Python scalar, a 0-d array, or 1-D coordinates on f's device."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and numpy.ndim(varargs[0]) == 0:
        return [varargs[0]] * len(axes)
    if n != len(axes):
        raise TypeError("[gradient] invalid number of arguments")
    out = []
    for i, dist in enumerate(varargs):
        if numpy.ndim(dist) == 0:
            out.append(dist)
            continue
        x, _ = device_arrays("gradient", dist, f)
        if x.ndim != 1:
            raise ValueError("[gradient] distances must be either scalars or 1d")
        if x.shape[0] != f.shape[axes[i]]:
            raise ValueError(
                "[gradient] when 1d, distances must match the length of the corresponding dimension"
            )
        if numpy.dtype(x.dtype).kind in "iub":
            x = x.astype("float64")
        out.append(_core.diff(x))
    return out


def _along(f, axis, sl):
    return f[(slice(None),) * axis + (sl,)]


def _shaped(d, ndim, axis):
    """1-D spacings reshaped to broadcast along ``axis`` of an ndim array."""
    return d.reshape((1,) * axis + (-1,) + (1,) * (ndim - axis - 1))


def _gradient_axis(f, axis, h, edge_order):
    """The derivative of f along axis, for a scalar spacing h or 1-D differences h."""

    def at(sl):
        return _along(f, axis, sl)

    if isinstance(h, _core.ndarray) and h.ndim == 1:
        d1, d2 = _shaped(h[:-1], f.ndim, axis), _shaped(h[1:], f.ndim, axis)
        a = -d2 / (d1 * (d1 + d2))
        b = (d2 - d1) / (d1 * d2)
        c = d1 / (d2 * (d1 + d2))
        mid = a * at(slice(None, -2)) + b * at(slice(1, -1)) + c * at(slice(2, None))
        h0, h1, hm2, hm1 = h[0], h[1 % h.shape[0]], h[-2 % h.shape[0]], h[-1]
    else:
        mid = (at(slice(2, None)) - at(slice(None, -2))) / (2.0 * h)
        h0 = h1 = hm2 = hm1 = h
    if edge_order == 1:
        first = (at(slice(1, 2)) - at(slice(0, 1))) / h0
        last = (at(slice(-1, None)) - at(slice(-2, -1))) / hm1
        return _joined(f, first, mid, last, axis)
    if isinstance(h, _core.ndarray) and h.ndim == 1:
        a, b, c = -(2.0 * h0 + h1) / (h0 * (h0 + h1)), (h0 + h1) / (h0 * h1), -h0 / (h1 * (h0 + h1))
        first = a * at(slice(0, 1)) + b * at(slice(1, 2)) + c * at(slice(2, 3))
        a, b = hm1 / (hm2 * (hm2 + hm1)), -(hm1 + hm2) / (hm2 * hm1)
        c = (2.0 * hm1 + hm2) / (hm1 * (hm2 + hm1))
    else:
        first = (-1.5 / h) * at(slice(0, 1)) + (2.0 / h) * at(slice(1, 2))
        first = first + (-0.5 / h) * at(slice(2, 3))
        a, b, c = 0.5 / h, -2.0 / h, 1.5 / h
    last = a * at(slice(-3, -2)) + b * at(slice(-2, -1)) + c * at(slice(-1, None))
    return _joined(f, first, mid, last, axis)


def _joined(f, first, mid, last, axis):
    """first, mid and last written along axis into an array of f's dtype and layout (NumPy's
    gradient fills an empty_like(f))."""
    from gpupy._creation import empty_like

    out = empty_like(f)
    n = f.shape[axis]
    for part, sl in ((first, slice(0, 1)), (mid, slice(1, n - 1)), (last, slice(n - 1, n))):
        _along(out, axis, sl)[...] = part
    return out


def gradient(f, *varargs, axis=None, edge_order=1):
    """See numpy.gradient: one array, or a tuple of arrays (one per axis)."""
    (f,) = device_arrays("gradient", f)
    axes = _axes(axis, f.ndim, "gradient")
    spacings = _spacings(varargs, f, axes)
    if edge_order > 2:
        raise ValueError("[gradient] 'edge_order' greater than 2 not supported")
    kind = numpy.dtype(f.dtype).kind
    otype = numpy.dtype(f.dtype) if kind in "fc" else numpy.dtype("float64")
    out = []
    for ax, h in zip(axes, spacings, strict=True):
        if f.shape[ax] < edge_order + 1:
            raise ValueError(
                "[gradient] Shape of array too small to calculate a numerical gradient, at least "
                "(edge_order + 1) elements are required."
            )
        if kind == "b":  # NumPy fails at the first difference, after the shape check
            raise TypeError("[gradient] numpy boolean subtract is not supported")
        f = f.astype(otype, copy=False)
        out.append(_gradient_axis(f, ax, h, edge_order))
    return out[0] if len(axes) == 1 else tuple(out)


# ---- integration, interpolation, phase ---------------------------------------------------------


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """See numpy.trapezoid."""
    y, x = device_arrays("trapezoid", y, x, optional=(1,))
    ax = _axis(axis, y.ndim, "trapezoid")
    if x is None:
        d = dx  # a Python number stays weak in the promotion, a NumPy scalar is strong (NEP 50)
    elif x.ndim == 1:
        d = _shaped(_core.diff(x), y.ndim, ax)
    else:
        d = _core.diff(x, 1, axis)
    ends = _along(y, ax, slice(1, None)) + _along(y, ax, slice(None, -1))
    try:
        products = d * ends
    except ValueError as err:  # x's spacings do not match y along the axis
        raise ValueError(f"[trapezoid] {str(err).split('] ', 1)[-1]}") from None
    return _core.sum(products / 2.0, axis)


def _interp_periodic(x, xp, fp, period):
    from gpupy import argsort, concatenate, take

    if period == 0:
        raise ValueError("[interp] period must be a non-zero value")
    period = abs(period)
    x, xp = x % period, xp % period
    order = argsort(xp)
    xp, fp = take(xp, order), take(fp, order)
    xp = concatenate([xp[-1:] - period, xp, xp[0:1] + period])
    fp = concatenate([fp[-1:], fp, fp[0:1]])
    return x, xp, fp


def _interp_real(x, xp, fp, left, right):
    """interp of float64 x, xp, fp (xp sorted, at least one point) with float edge values."""
    from gpupy import clip, isnan, searchsorted, take, where

    n = xp.shape[0]
    lval = fp[0] if left is None else left
    rval = fp[-1] if right is None else right
    if n == 1:
        inner = _core.zeros(x.shape, fp.dtype, x.device) + fp[0]
    else:
        j = clip(searchsorted(xp, x, side="right") - 1, 0, n - 2)
        x0, x1, f0, f1 = take(xp, j), take(xp, j + 1), take(fp, j), take(fp, j + 1)
        slope = (f1 - f0) / (x1 - x0)
        inner = slope * (x - x0) + f0
        # NumPy's fallbacks when the slope is not finite: from the right end, then f0.
        inner = where(isnan(inner), slope * (x - x1) + f1, inner)
        inner = where(isnan(inner) & (f0 == f1), f0, inner)
        inner = where(x == x0, f0, inner)
        inner = where(x == xp[-1], fp[-1], inner)
        inner = where(isnan(x), x, inner)
    out = where(x < xp[0], lval, where(x > xp[-1], rval, inner))
    return out.astype("float64", copy=False)


def _part(value, name):
    """The real or imaginary part of an edge value (None stays None)."""
    return None if value is None else getattr(numpy, name)(value)


def interp(x, xp, fp, left=None, right=None, period=None):
    """See numpy.interp: float64 results (complex128 for complex fp, whose real and imaginary
    parts are interpolated separately, as NumPy does)."""
    from gpupy import imag, real, stack

    x, xp, fp = device_arrays("interp", x, xp, fp)
    if numpy.dtype(x.dtype).kind == "c" or numpy.dtype(xp.dtype).kind == "c":
        raise TypeError("[interp] x and xp must be real numbers")
    complex_fp = numpy.dtype(fp.dtype).kind == "c"
    fp = fp.astype("complex128" if complex_fp else "float64")
    x, xp = x.astype("float64"), xp.astype("float64")
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("[interp] xp and fp must be 1-D sequences")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("[interp] fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("[interp] array of sample points is empty")
    if period is not None:
        x, xp, fp = _interp_periodic(x, xp, fp, period)
        left = right = None
    if not complex_fp:
        return _interp_real(x, xp, fp, left, right)
    parts = [
        _interp_real(x, xp, part(fp), _part(left, part.__name__), _part(right, part.__name__))
        for part in (real, imag)
    ]
    # Paired as (re, im) in memory rather than re + 1j * im, which turns an inf into nan.
    return stack(parts, axis=-1).view("complex128").reshape(x.shape)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """See numpy.unwrap."""
    from gpupy import abs, concatenate, cumsum, where

    (p,) = device_arrays("unwrap", p)
    ax = _axis(axis, p.ndim, "unwrap")
    if numpy.dtype(p.dtype).kind == "c":
        raise TypeError("[unwrap] complex input is not supported")
    dd = _core.diff(p, 1, ax)
    if discont is None:
        discont = period / 2
    dt = numpy.result_type(dd.dtype, period)
    if dt.kind in "iu":
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    ddmod = (dd - -high) % period + -high
    if ambiguous:
        ddmod = where((ddmod == -high) & (dd > 0), high, ddmod)
    correct = where(abs(dd) < discont, 0, ddmod - dd)
    up = p.astype(dt)
    head = _along(up, ax, slice(0, 1))
    tail = _along(p, ax, slice(1, None)) + cumsum(correct, axis=ax)
    return concatenate([head, tail.astype(dt, copy=False)], axis=ax)


# ---- products ----------------------------------------------------------------------------------


def _component(x, i):
    return x[..., i]


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """See numpy.cross (2- and 3-element vectors; 2-element ones warn as in NumPy 2)."""
    from gpupy import broadcast_arrays, moveaxis, stack

    a, b = device_arrays("cross", a, b)
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(a, _axis(axisa, a.ndim, "cross"), -1) if a.ndim else a
    b = moveaxis(b, _axis(axisb, b.ndim, "cross"), -1) if b.ndim else b
    if a.ndim == 0 or b.ndim == 0 or a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError(
            "[cross] incompatible dimensions for cross product\n(dimension must be 2 or 3)"
        )
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional "
            "vectors instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=2,
        )
    dt = numpy.result_type(a.dtype, b.dtype)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    a0, a1, b0, b1 = (_component(x, i) for x in (a, b) for i in (0, 1))
    z = a0 * b1 - a1 * b0
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    # A 2-vector's missing third component is left out of the products (not multiplied as 0),
    # so an inf in the other operand gives NumPy's inf rather than 0 * inf = nan.
    if a.shape[-1] == 2:
        b2 = _component(b, 2)
        x, y = a1 * b2, -(a0 * b2)
    elif b.shape[-1] == 2:
        a2 = _component(a, 2)
        x, y = -(a2 * b1), a2 * b0
    else:
        a2, b2 = _component(a, 2), _component(b, 2)
        x, y = a1 * b2 - a2 * b1, a2 * b0 - a0 * b2
    x, y, z = broadcast_arrays(x, y, z)
    cp = stack([x, y, z], axis=-1)
    return moveaxis(cp, -1, _axis(axisc, cp.ndim, "cross"))


def kron(a, b):
    """See numpy.kron."""
    a, b = device_arrays("kron", a, b)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    nd = builtins.max(a.ndim, b.ndim)
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    b = b.reshape((1,) * (nd - b.ndim) + b.shape)
    # Interleave the axes: a's along even positions, b's along odd ones.
    prod = a.reshape(tuple(s for d in a.shape for s in (d, 1))) * b.reshape(
        tuple(s for d in b.shape for s in (1, d))
    )
    return prod.reshape(tuple(p * q for p, q in zip(a.shape, b.shape, strict=True)))


def vander(x, N=None, increasing=False):  # noqa: N803 - NumPy's name
    """See numpy.vander: powers by a running product, as NumPy forms them."""
    from gpupy import broadcast_to, cumprod, flip, ones

    (x,) = device_arrays("vander", x)
    if x.ndim != 1:
        raise ValueError("[vander] x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else operator.index(N)
    if n < 0:
        raise ValueError(f"[vander] negative dimensions are not allowed (N={n})")
    dt = numpy.promote_types(x.dtype, numpy.int64)
    v = ones((x.shape[0], n), dtype=dt, device=x.device)
    if n > 1:
        v[:, 1:] = cumprod(broadcast_to(x.astype(dt)[:, None], (x.shape[0], n - 1)), axis=1)
    return v if increasing else flip(v, axis=1).copy()
