"""More of NumPy's creation functions (tri, diagflat, indices, logspace, geomspace, fromfunction,
from* readers) and array introspection (copy, require, shares_memory, shape, ...).

Arrays are made on the device of the input gpupy array, else on `device` (default: the default
device). The from* readers parse host data with NumPy and copy the result to the device.
"""

import numbers
import operator

import numpy

from gpupy import _core
from gpupy._creation import _device_of
from gpupy._indexing import _int
from gpupy._manipulation import _arr

__all__ = [
    "asanyarray",
    "asarray_chkfinite",
    "asfortranarray",
    "copy",
    "diagflat",
    "frombuffer",
    "fromfunction",
    "fromiter",
    "fromstring",
    "geomspace",
    "indices",
    "isfortran",
    "isscalar",
    "iterable",
    "linspace",
    "logspace",
    "may_share_memory",
    "ndim",
    "require",
    "shape",
    "shares_memory",
    "size",
    "tri",
]


# ---- copies and layouts --------------------------------------------------------------------


def copy(a, order="K", subok=False):
    """See numpy.copy: a new array on the device of `a`, in the layout `order` asks for."""
    return _arr(a).copy(order=_core._check_order(order, "copy", "K", "CFAK"))


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """See numpy.asanyarray (gpupy has no ndarray subclasses: the same as gpupy.asarray)."""
    out = _asarray_as_is(a, dtype, _device_of(like, device=device), copy)
    return require(out, requirements=_order_req(order, "asanyarray"))


def _asarray_as_is(a, dtype, device, copy=None):
    """gpupy.asarray, returning `a` itself when it already is what was asked for (as NumPy)."""
    from gpupy import asarray

    if (
        isinstance(a, _core.ndarray)
        and not copy
        and (dtype is None or numpy.dtype(dtype) == a.dtype)
        and (device is None or _core.Device(device) == a.device)
    ):
        return a
    return asarray(a, dtype=dtype, device=device, copy=copy)


def _order_req(order, op):
    letter = _core._check_order(order, op, "K", "CFAK")
    return [letter] if letter in "CF" else None


def asarray_chkfinite(a, dtype=None, order=None):
    """See numpy.asarray_chkfinite: ValueError when a float or complex array holds inf or NaN
    (one boolean is read back)."""
    from gpupy import isfinite

    out = _asarray_as_is(a, dtype, None)
    if out.dtype.kind in "fc" and out.size and not bool(_core.all(isfinite(out))):
        raise ValueError("[asarray_chkfinite] array must not contain infs or NaNs")
    return require(out, requirements=_order_req(order, "asarray_chkfinite"))


def asfortranarray(a, dtype=None, *, like=None):
    """See numpy.asfortranarray: an F-contiguous array (ndim >= 1), `a` itself when it is one."""
    a = _asarray_as_is(a, dtype, _device_of(like))
    if a.ndim == 0:
        a = a.reshape(1)
    return a if a._f_contiguous else a.copy(order="F")


_REQUIREMENTS = {
    "C": "C",
    "C_CONTIGUOUS": "C",
    "CONTIGUOUS": "C",
    "F": "F",
    "F_CONTIGUOUS": "F",
    "FORTRAN": "F",
    "A": "A",
    "ALIGNED": "A",
    "W": "W",
    "WRITEABLE": "W",
    "O": "O",
    "OWNDATA": "O",
    "E": "E",
    "ENSUREARRAY": "E",
}


def require(a, dtype=None, requirements=None, *, like=None):
    """See numpy.require. gpupy's arrays are always aligned and never subclasses ('A', 'E');
    'C', 'F', 'W' and 'O' copy when `a` does not meet them."""
    # As in NumPy, a string is a sequence of one-letter requirements.
    try:
        reqs = {_REQUIREMENTS[r.upper()] for r in requirements or ()}
    except KeyError as exc:
        raise KeyError(f"[require] unknown requirement {exc.args[0]!r}") from None
    except (TypeError, AttributeError) as exc:  # NumPy's errors for a non-iterable, a non-string
        raise type(exc)(f"[require] requirements must be strings: {exc}") from None
    if {"C", "F"} <= reqs:
        raise ValueError('[require] cannot specify both "C" and "F" order')
    out = _asarray_as_is(a, dtype, _device_of(like))
    if "C" in reqs and not out._c_contiguous:
        out = _core.ascontiguousarray(out) if out.ndim else out.copy()
    if "F" in reqs and not out._f_contiguous:
        out = out.copy(order="F")
    if ("W" in reqs and out._readonly) or ("O" in reqs and not out._owndata):
        out = copy(out, order="F" if "F" in reqs else "C")
    return out


def isfortran(a):
    """See numpy.isfortran: F-contiguous and not C-contiguous."""
    if not isinstance(a, _core.ndarray):
        return numpy.isfortran(a)
    return a._f_contiguous and not a._c_contiguous


# ---- memory overlap ------------------------------------------------------------------------


class _Extent:
    """Shape, strides and address of an array (never its data), for NumPy's overlap solver."""

    __slots__ = ("__array_interface__",)

    def __init__(self, a):
        self.__array_interface__ = {
            "shape": a.shape,
            "strides": a.strides,
            "typestr": f"|V{a.itemsize}",
            "data": (a._data_ptr, True),
            "version": 3,
        }


def _layout(x):
    """(device name, NumPy array with x's addresses) for a gpupy array; NumPy input as it is."""
    if isinstance(x, _core.ndarray):
        return str(x.device), numpy.asarray(_Extent(x))
    return "cpu", numpy.asarray(x)


def _overlap(a, b, max_work, check):
    dev_a, la = _layout(a)
    dev_b, lb = _layout(b)
    if dev_a != dev_b:
        return False
    try:
        return check(la, lb, max_work=max_work)
    except (numpy.exceptions.TooHardError, ValueError, TypeError, OverflowError) as exc:
        raise type(exc)(f"[{check.__name__}] {exc}") from None


def may_share_memory(a, b, /, max_work=0):
    """See numpy.may_share_memory: by default whether the byte ranges of `a` and `b` overlap
    (arrays on different devices never do). Works on shapes and addresses only."""
    return _overlap(a, b, max_work, numpy.may_share_memory)


def shares_memory(a, b, /, max_work=-1):
    """See numpy.shares_memory: whether `a` and `b` have an element byte in common, solved
    exactly from shapes, strides and addresses (NumPy's solver and max_work); no data is read."""
    return _overlap(a, b, max_work, numpy.shares_memory)


# ---- introspection -------------------------------------------------------------------------


def shape(a):
    """See numpy.shape."""
    return a.shape if isinstance(a, _core.ndarray) else numpy.shape(a)


def ndim(a):
    """See numpy.ndim."""
    return a.ndim if isinstance(a, _core.ndarray) else numpy.ndim(a)


def size(a, axis=None):
    """See numpy.size: the number of elements, along `axis` (an int or a tuple) if given."""
    if not isinstance(a, _core.ndarray):
        return numpy.size(a, axis)
    if axis is None:
        return a.size
    from gpupy._indexing import _axis

    axes = (axis,) if isinstance(axis, (int, numpy.integer)) else tuple(axis)
    result = 1
    for ax in axes:
        result *= a.shape[_axis(ax, a.ndim, "size")]
    return result


def isscalar(element):
    """See numpy.isscalar: Python and NumPy scalars (a 0-d gpupy array is not one)."""
    return (
        isinstance(element, (numpy.generic, numbers.Number, str, bytes))
        or type(element) in numpy.ScalarType
    )


def iterable(y):
    """See numpy.iterable: whether iter(y) works (not for 0-d arrays)."""
    try:
        iter(y)
    except TypeError:
        return False
    return True


# ---- creation ------------------------------------------------------------------------------


def tri(N, M=None, k=0, dtype=float, *, like=None, device=None):
    """See numpy.tri: ones at and below the k-th diagonal."""
    from gpupy import arange

    M = N if M is None else M
    N, M, k = _tri_bound(N, "N"), _tri_bound(M, "M"), _tri_bound(k, "k")
    device = _device_of(like, device=device)
    if all(isinstance(v, int) for v in (N, M, k)):
        rows = arange(N, dtype="int64", device=device).reshape(N, 1)
        return (rows >= arange(-k, M - k, dtype="int64", device=device)).astype(dtype)
    # Real bounds: NumPy's tri compares aranges of an integer dtype, whose lengths come from the
    # real bounds and whose values from the first two truncated elements; NumPy builds them here.
    try:
        rows = numpy.arange(N, dtype="int64").reshape(-1, 1)
        cols = numpy.arange(-k, M - k, dtype="int64")
    except ValueError as exc:  # NaN or an infinite bound
        raise ValueError(f"[tri] {exc}") from None
    rows, cols = _core._asarray(rows, None, device), _core._asarray(cols, None, device)
    return (rows >= cols).astype(dtype)


def _tri_bound(value, name):
    """tri's N, M or k: an int where it is one, else a real number (NumPy's tri accepts floats)."""
    try:
        return operator.index(value)
    except TypeError:
        pass
    if not isinstance(value, (str, bytes)) and numpy.ndim(value) == 0:
        if not numpy.iscomplexobj(value):
            try:
                return float(value)
            except (TypeError, ValueError):
                pass
    raise TypeError(f"[tri] {name} must be a real number, not {type(value).__name__}")


def diagflat(v, k=0):
    """See numpy.diagflat: the flattened input on the k-th diagonal of a square array."""
    from gpupy import diag

    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"[diagflat] k must be an integer, got {type(k).__name__}") from None
    return diag(_arr(v).ravel(), k)


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """See numpy.indices: one grid per dimension (stacked, or open grids when sparse)."""
    from gpupy import arange, broadcast_to, empty

    try:
        dims = tuple(dimensions)
    except TypeError:
        raise TypeError(
            f"[indices] dimensions must be a sequence of integers, not {dimensions!r}"
        ) from None
    dims = tuple(_int(d, "indices", "dimensions") for d in dims)
    if any(d < 0 for d in dims):
        raise ValueError("[indices] negative dimensions are not allowed")
    n = len(dims)
    grids = []
    for i, d in enumerate(dims):
        shape = (1,) * i + (d,) + (1,) * (n - i - 1)
        grids.append(arange(d, dtype=dtype, device=device).reshape(shape))
    if sparse:
        return tuple(grids)
    out = empty((n,) + dims, numpy.dtype(dtype), device=device)
    for i, g in enumerate(grids):
        out[i] = broadcast_to(g, dims)
    return out


def fromfunction(function, shape, *, dtype=float, like=None, device=None, **kwargs):
    """See numpy.fromfunction: ``function`` is called once with gpupy index grids."""
    return function(*indices(shape, dtype=dtype, device=_device_of(like, device=device)), **kwargs)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """See numpy.linspace. start and stop may be arrays (0-d results such as ``x.min()``, or
    arrays broadcast together, the samples along `axis`); they stay on their device. The step
    of ``retstep=True`` is a 0-d array for scalar endpoints (NumPy: a scalar), NaN if undefined."""
    from gpupy import floor, moveaxis

    scalars = not any(isinstance(x, _core.ndarray) or numpy.ndim(x) for x in (start, stop))
    if scalars and not retstep:
        y = _core.linspace(start, stop, _int(num, "linspace", "num"), endpoint, dtype, device)
        return y if axis == 0 else moveaxis(y, 0, axis)
    device = _device_of(start, stop, device=device)
    y, step = _linspace(start, stop, num, endpoint, axis, device, "linspace")
    if dtype is not None:
        y = (floor(y) if numpy.dtype(dtype).kind in "iu" else y).astype(dtype, copy=False)
    return (y, step) if retstep else y


def _linspace(start, stop, num, endpoint, axis, device, op):
    """numpy.linspace with array endpoints and `axis`, on the device; computed in the inexact
    dtype of the endpoints, as NumPy does. Returns the samples and the step (NaN if none)."""
    from gpupy import any as any_
    from gpupy import arange, asarray, moveaxis, where

    num = _int(num, op, "num")
    if num < 0:
        raise ValueError(f"[{op}] number of samples, {num}, must be non-negative")
    # Python numbers stay weakly typed, as in NumPy: linspace(float32 array, 2) is float32.
    start, stop = (
        x if isinstance(x, (int, float, complex)) else asarray(x, device=device)
        for x in (start, stop)
    )
    if not isinstance(start, _core.ndarray) and not isinstance(stop, _core.ndarray):
        start = asarray(start, device=device)
    start, stop = start * 1.0, stop * 1.0
    div = num - 1 if endpoint else num
    delta = stop - start
    real = {"complex64": "float32", "complex128": "float64"}.get(delta.dtype.name, delta.dtype)
    t = arange(num, dtype=real, device=delta.device)
    t = t.reshape((num,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        y = where(any_(step == 0), t / div * delta, t * step) + start
    else:
        step = numpy.nan
        y = t * delta + start
    if endpoint and num > 1:
        y[-1] = stop
    return (moveaxis(y, 0, axis) if axis != 0 else y), step


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *, device=None):
    """See numpy.logspace: ``base ** linspace(start, stop)``; start, stop and base may be
    arrays (broadcast together, the samples along `axis`). A Python number as base takes the
    dtype of the samples, as in NumPy."""
    from gpupy import asarray, broadcast_shapes, expand_dims, power

    device = _device_of(start, stop, base, device=device)
    if not isinstance(base, (float, int)) and numpy.ndim(base):
        start, stop, base = (asarray(x, device=device) for x in (start, stop, base))
        nd = len(broadcast_shapes(start.shape, stop.shape, base.shape))
        start, stop, base = (x.reshape((1,) * (nd - x.ndim) + x.shape) for x in (start, stop, base))
        base = expand_dims(base, axis)
    out = power(base, _linspace(start, stop, num, endpoint, axis, device, "logspace")[0])
    return out if dtype is None else out.astype(dtype, copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """See numpy.geomspace. Whether start or stop holds a zero is read back (one boolean)."""
    from gpupy import any as any_
    from gpupy import asarray, log10, power, result_type, sign, zeros

    device = _device_of(start, stop, device=device)
    start, stop = asarray(start, device=device), asarray(stop, device=device)
    if bool(any_(start == 0) | any_(stop == 0)):  # NumPy's first check, before num's
        raise ValueError("[geomspace] geometric sequence cannot include zero")
    num = _int(num, "geomspace", "num")
    dt = result_type(start, stop, float(num), zeros((), dtype))
    start, stop = start.astype(dt), stop.astype(dt)
    out_sign = sign(start)
    if dt.kind == "c":  # NumPy's complex sign is z / |z|
        from gpupy import absolute

        out_sign = start / absolute(start)
    start, stop = start / out_sign, stop / out_sign
    y = _linspace(log10(start), log10(stop), num, endpoint, 0, start.device, "geomspace")[0]
    result = power(asarray(10.0, device=y.device), y).astype(dt, copy=False)
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = out_sign * result
    if axis != 0:
        from gpupy import moveaxis

        result = moveaxis(result, 0, axis)
    return result.astype(dtype if dtype is not None else dt, copy=False)


# ---- readers (host parsing) ----------------------------------------------------------------


def _to_device(host, device):
    from gpupy import asarray

    return asarray(host, device=device)


def fromiter(iter, dtype, count=-1, *, like=None, device=None):  # noqa: A002 - NumPy's name
    """See numpy.fromiter: the items are collected on the host, then copied to the device."""
    try:
        host = numpy.fromiter(iter, dtype, count)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"[fromiter] {exc}") from None
    return _to_device(host, _device_of(like, device=device))


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None, device=None):
    """See numpy.frombuffer. On the cpu device the result shares the buffer's memory (read-only
    when the buffer is), elsewhere it is a copy on the device."""
    try:
        host = numpy.frombuffer(buffer, dtype, count, offset)
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"[frombuffer] {exc}") from None
    return _to_device(host, _device_of(like, device=device))


def fromstring(string, dtype=float, count=-1, *, sep, like=None, device=None):
    """See numpy.fromstring (text with a separator; the binary mode NumPy removed is refused)."""
    if sep == "":
        raise ValueError(
            "[fromstring] the binary mode of fromstring is removed, use frombuffer instead"
        )
    try:
        host = numpy.fromstring(string, dtype, count, sep=sep)
    except (ValueError, DeprecationWarning) as exc:
        raise ValueError(f"[fromstring] {exc}") from None
    return _to_device(host, _device_of(like, device=device))
