"""Array creation and moving data between NumPy and gpupy devices."""

import math
import operator

import numpy

from gpupy import _core

_NO_COPY = "Unable to avoid copy while creating an array as requested."


def _is_foreign_device_array(obj):
    return hasattr(type(obj), "__cuda_array_interface__") and not isinstance(obj, _core.ndarray)


def _from_foreign_device_array(obj, dtype, device, copy):
    """Another library's CUDA array (CuPy, Numba, PyTorch) through __cuda_array_interface__:
    a zero-copy view on its cuda device (which CUDA names; the interface does not), then
    asarray's dtype, device and copy rules on that view."""
    view = _core._cuda_array_interface_import(obj)
    return _asarray_gpupy(view, dtype, device, copy)


def _asarray_gpupy(a, dtype, device, copy):
    """asarray's dtype, device and copy rules for a gpupy array `a`."""
    out = _core._asarray(a, dtype, device)
    shared = out._same_buffer(a)
    if copy is False and not shared:
        raise ValueError(_NO_COPY)
    return out.copy() if copy and shared else out


def _asarray_no_copy(obj, dtype, device):
    if _is_foreign_device_array(obj):
        return _from_foreign_device_array(obj, dtype, device, False)
    if isinstance(obj, _core.ndarray):
        return _asarray_gpupy(obj, dtype, device, False)
    # NumPy decides whether host data can be used as it is; only the cpu device can share it.
    host = numpy.asarray(obj, dtype=dtype, copy=False)
    target = _core.default_device() if device is None else _core.Device(device)
    if target.type != "cpu":
        raise ValueError(f"{_NO_COPY} (the data must move to '{target}')")
    return _core._wrap_numpy(host, False)


def _from_nested_arrays(obj, dtype, device):
    """numpy.asarray for nested sequences that hold gpupy arrays: the arrays' data stays on
    their device (it is stacked there), shape and dtype follow NumPy's rules."""

    def host_template(o):  # shapes and dtypes only: no data leaves the device
        if isinstance(o, _core.ndarray):
            return numpy.zeros(o.shape, o.dtype)
        return [host_template(e) for e in o] if isinstance(o, (list, tuple)) else o

    like = numpy.asarray(host_template(obj), dtype=dtype)
    if device is None:
        device = _first_gpupy_array(obj).device
    from gpupy._joining import stack

    def build(o, t):
        if not isinstance(o, (list, tuple)):
            return asarray(o, dtype=like.dtype, device=device)
        if not o:
            return _core.empty(t.shape, like.dtype, device)
        return stack([build(e, t[i]) for i, e in enumerate(o)])

    return build(obj, like)


def _first_gpupy_array(obj):
    """The first gpupy array inside nested lists and tuples, or None."""
    if not isinstance(obj, (list, tuple)):
        return None
    for e in obj:
        found = e if isinstance(e, _core.ndarray) else _first_gpupy_array(e)
        if found is not None:
            return found
    return None


def asarray(a, dtype=None, order=None, *, device=None, copy=None, like=None):
    """See numpy.asarray. NumPy input stays zero-copy on the cpu device unless ``copy=True`` or
    its address or strides are not multiples of the item size (gpupy's kernels load aligned
    items); ``copy=False`` raises ValueError when a copy (or a move between devices) is needed.
    Another library's CUDA arrays (``__cuda_array_interface__``: CuPy, Numba, PyTorch) are viewed
    in place on their cuda device, after gpupy's current stream waits for their stream.
    Nested sequences may hold gpupy arrays (of any device); their data is not copied through
    the host. ``order`` as NumPy's: 'C' or 'F' copies an array of another layout; copies are
    made in the layout order asks for ('K', the default: the input's; F-ordered NumPy arrays
    stay F-ordered)."""
    if (
        type(a) is numpy.ndarray
        and order is None
        and copy is None
        and like is None
        and a.flags.c_contiguous
    ):  # the common call, which _converted below would reduce to this (1.1 -> 0.6 us)
        return _core._asarray(a, dtype, device)
    letter = "K" if order is None else _core._check_order(order, "asarray", "K", "CFAK")
    return _converted(
        a, dtype, _device_of(like, device=device), _copy_flag(copy, "asarray"), letter
    )


def _copy_flag(copy, op):
    """copy= as True, False or None: NumPy's copy modes (numpy._CopyMode) are accepted, strings
    refused (NumPy's old copy="always" is not a mode)."""
    if copy is None or isinstance(copy, bool):
        return copy
    if isinstance(copy, numpy._CopyMode):
        return {"ALWAYS": True, "IF_NEEDED": None, "NEVER": False}[copy.name]
    if isinstance(copy, str):
        raise ValueError(
            f"[{op}] strings are not allowed for 'copy' keyword. Use True/False/None instead."
        )
    return bool(copy)


def _converted(obj, dtype, device, copy, letter):
    """asarray with order= read as one letter."""
    if type(obj) is _core.ndarray and device is None and not copy and _same_dtype(obj, dtype):
        return _in_order(obj, letter, copy)  # NumPy returns the array itself
    if _is_fortran_host_array(obj) and letter != "C":  # the C-ordered transpose, transposed
        return _converted(obj.T, dtype, device, copy, "C" if letter == "F" else letter).T
    if type(obj) is _core.ndarray and letter in "KA" and not obj._c_contiguous:
        axes = _core._layout_axes(obj, letter, "asarray")
        if axes is not None:  # a cast or a move keeps the layout: convert in memory order
            inner = _converted(obj.transpose(axes), dtype, device, copy, "K")
            return inner.transpose(tuple(numpy.argsort(axes)))
    if copy is False:
        return _in_order(_asarray_no_copy(obj, dtype, device), letter, copy)
    try:
        a = _core._asarray(obj, dtype, device)
    except TypeError:
        if _is_foreign_device_array(obj):  # checked only here, to keep the common path free
            return _in_order(_from_foreign_device_array(obj, dtype, device, copy), letter, copy)
        from gpupy._poly1d import poly1d  # (which imports this module)

        if isinstance(obj, poly1d):  # its coefficients on their device (__array__: cpu only)
            return _converted(obj.coeffs, dtype, device, copy, letter)
        if _first_gpupy_array(obj) is None:
            raise
        a = None
    if a is None:
        return _in_order(_from_nested_arrays(obj, dtype, device), letter, copy)
    if copy and (a is obj or not isinstance(obj, _core.ndarray) or a._same_buffer(obj)):
        if isinstance(obj, _core.ndarray) or a.device.type == "cpu":
            return a.copy(order=letter)
    return _in_order(a, letter, copy)


def _same_dtype(a, dtype):
    return dtype is None or a.dtype == dtype


def _is_fortran_host_array(obj):
    return (
        isinstance(obj, numpy.ndarray)
        and obj.ndim > 1
        and obj.flags.f_contiguous
        and not obj.flags.c_contiguous
    )


def _in_order(a, letter, copy):
    """`a` in the layout order= asks for: 'K' and 'A' take any layout, 'C' and 'F' copy an
    array of another one (an error under copy=False)."""
    if letter in "KA" or (a._c_contiguous if letter == "C" else a._f_contiguous):
        return a
    if copy is False:
        raise ValueError(_NO_COPY)
    return a.copy(order=letter)


def _device_of(*values, device=None):
    """`device`, else the device of the first gpupy array among `values` (NumPy's like=)."""
    if device is not None:
        return device
    for v in values:
        if isinstance(v, _core.ndarray):
            return v.device
    return None


def array(
    object,  # noqa: A002 - NumPy's keyword
    dtype=None,
    device=None,
    copy=True,
    *,
    order="K",
    subok=False,
    ndmin=0,
    ndmax=None,
    like=None,
):
    """See numpy.array: copies by default, in the layout `order` asks for ('K': the input's;
    F-ordered NumPy arrays stay F-ordered). ``subok`` has no effect (gpupy has no ndarray
    subclasses). ``ndmax`` limits the dimensions nested sequences may give (NumPy 2.4's; gpupy
    has no object dtype to stop at, so deeper nesting raises ValueError)."""
    letter = _core._check_order(order, "array", "K", "CFAK")
    ndmin = operator.index(ndmin)
    if ndmin > 64:
        raise ValueError(f"[array] ndmin bigger than allowable number of dimensions 64: {ndmin}")
    if ndmax is not None:
        _check_ndmax(operator.index(ndmax), ndmin)
    device = _device_of(like, device=device)
    a = _converted(object, dtype, device, _copy_flag(copy, "array"), letter)
    if ndmax is not None and a.ndim > ndmax and not _is_array(object):
        raise ValueError(
            "[array] setting an array element with a sequence. The requested array would exceed "
            f"the maximum number of dimension of {ndmax}."
        )
    return a.reshape((1,) * (ndmin - a.ndim) + a.shape) if a.ndim < ndmin else a


def _check_ndmax(ndmax, ndmin):
    if not 0 <= ndmax <= 64:
        raise ValueError(f"[array] ndmax must be in the range [0, NPY_MAXDIMS (64)] (got {ndmax})")
    if ndmin > ndmax:
        raise ValueError(f"[array] ndmin must be <= ndmax ({ndmax})")


def _is_array(obj):
    # NumPy's ndmax limits the dimensions found in nested sequences, not those of an array
    return hasattr(type(obj), "__array__") or _is_foreign_device_array(obj)


def arange(start_or_stop=None, /, stop=None, step=None, dtype=None, device=None, *, start=None):
    """See numpy.arange: ``arange(stop)``, ``arange(start, stop[, step])``; start, stop and step
    may be given by keyword (a lone positional value is the stop)."""
    if type(start_or_stop) is int and stop is None and step is None and start is None:
        if dtype is None:  # arange(n), the common call: nothing to check or reorder
            return _core._arange(0, start_or_stop, 1, None, device)
    if start_or_stop is not None:
        if start is not None:
            raise TypeError("[arange] got multiple values for argument 'start'")
        start, stop = (0, start_or_stop) if stop is None else (start_or_stop, stop)
    if stop is None:
        raise TypeError("[arange] arange() requires stop to be specified.")
    start = 0 if start is None else start
    step = 1 if step is None else step
    _check_arange_length(start, stop, step, dtype)
    if (
        dtype is not None
        and numpy.dtype(dtype).kind in "iu"
        and not all(isinstance(v, (int, numpy.integer)) for v in (start, stop, step))
    ):
        return _integer_arange(start, stop, step, numpy.dtype(dtype), device)
    return _core._arange(start, stop, step, dtype, device)


def _check_arange_length(start, stop, step, dtype):
    """NumPy's errors for a length arange cannot have: a zero step, NaN bounds or step, and
    more than two booleans (the values of a bool arange are its first two, repeated)."""
    if step == 0:
        raise ZeroDivisionError("[arange] division by zero (step is zero)")
    if dtype is None and type(start) is int and type(stop) is int and type(step) is int:
        return  # the common call: nothing more to check
    if any(isinstance(v, (float, numpy.floating)) for v in (start, stop, step)):
        if math.isnan((stop - start) / step):
            raise ValueError("[arange] cannot compute length (NaN in start, stop or step)")
    if dtype is not None and numpy.dtype(dtype) == numpy.bool_:
        if math.ceil((stop - start) / step) > 2:
            raise TypeError(
                "[arange] arange() is only supported for booleans when the result has at most "
                "length 2."
            )


def _integer_arange(start, stop, step, dtype, device):
    """NumPy's arange of an integer dtype with float bounds or step: the length comes from the
    floats, the values from the first two cast to dtype (arange(-3.0, -1.0, 0.5, dtype=int8) is
    -3, -2, -1, 0)."""
    start, stop, step = float(start), float(stop), float(step)
    n = max(math.ceil((stop - start) / step), 0)
    if n == 0:
        return _core._arange(0, 0, 1, dtype, device)
    # NumPy stores the first two values as Python floats: int() of one the dtype cannot hold
    # raises OverflowError (arange(-5.0, 4.0, dtype=uint32))
    first = numpy.array(start, dtype=dtype)
    second = numpy.array(start + step, dtype=dtype) if n > 1 else first
    delta = int(second) - int(first)
    ramp = _core._arange(0, n, 1, "int64", device) * delta + int(first)
    return ramp.astype(dtype)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """A NumPy copy of a gpupy array from any device (CuPy's ``asnumpy``: `order`, `out`,
    `stream` and `blocking` as in ndarray.get); other input goes through numpy.asarray (NumPy
    arrays are returned as they are unless `order` or `out` asks for a copy)."""
    if isinstance(a, _core.ndarray):
        return a.get(stream, order, out, blocking)
    host = numpy.asarray(a, order=order)
    if out is None:
        return host
    out[...] = host
    return out


def astype(x, dtype, /, *, copy=True, device=None):
    """Array API ``astype``: ``x`` converted to ``dtype`` (and moved to ``device`` if given)."""
    if not hasattr(x, "astype"):  # NumPy's astype takes arrays and scalars only, not lists
        raise TypeError(
            f"[astype] Input should be a gpupy or NumPy array or scalar. It is a "
            f"{type(x).__name__} instead."
        )
    if device is not None:
        x = x.to_device(device)
    return x.astype(dtype, copy=copy)


def _reversed_shape(shape):
    """A shape argument (an int or any sequence) with its dimensions reversed."""
    try:
        return tuple(shape)[::-1]
    except TypeError:
        return (shape,)


def _in_fortran_order(make, shape, *args):
    """make(shape, *args) in F order: the C-ordered array of the reversed shape, transposed."""
    return make(_reversed_shape(shape), *args).T


def _made_in_order(op, make, shape, dtype, order, device, like):
    """make(shape, dtype, device) in order 'C' or 'F' (NumPy's creation functions)."""
    device = _device_of(like, device=device)
    if _core._check_order(order, op, "C", "CF") == "C":
        return make(shape, dtype, device)
    return _in_fortran_order(make, shape, dtype, device)


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    """See numpy.empty (order 'C' or 'F')."""
    if order == "C" and like is None:
        return _core.empty(shape, dtype, device)
    return _made_in_order("empty", _core.empty, shape, dtype, order, device, like)


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    """See numpy.zeros (order 'C' or 'F')."""
    if order == "C" and like is None:
        return _core.zeros(shape, dtype, device)
    return _made_in_order("zeros", _core.zeros, shape, dtype, order, device, like)


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    """See numpy.ones (order 'C' or 'F')."""
    if order == "C" and like is None:
        return _core.ones(shape, dtype, device)
    return _made_in_order("ones", _core.ones, shape, dtype, order, device, like)


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    """See numpy.full (order 'C' or 'F'). `fill_value` may also be an array: a 0-d result such
    as ``x.max()``, or one that broadcasts to `shape` (its dtype is then the default, and a gpupy
    array's device)."""
    device = _device_of(like, fill_value, device=device)
    fortran = order != "C" and _core._check_order(order, "full", "C", "CF") == "F"
    if _is_scalar_fill(fill_value):
        if fortran:
            return _in_fortran_order(_full_in_shape, shape, fill_value, dtype, device)
        return _full_in_shape(shape, fill_value, dtype, device)
    value = asarray(fill_value, device=device)
    args = (value.dtype if dtype is None else dtype, value.device)
    out = _in_fortran_order(_core.empty, shape, *args) if fortran else _core.empty(shape, *args)
    out[...] = value  # unsafe casting, as NumPy's copyto in full
    return out


def _is_scalar_fill(fill_value):
    if type(fill_value) in (float, int, bool, complex):  # numpy.ndim costs ~0.9 us
        return True
    return not isinstance(fill_value, _core.ndarray) and numpy.ndim(fill_value) == 0


def _full_in_shape(shape, fill_value, dtype, device, op="full"):
    """full of a scalar fill_value, converted as NumPy converts it into the item."""
    if type(fill_value) is int and not -(2**63) <= fill_value < 2**63 and dtype is not None:
        kind = numpy.dtype(dtype).kind
        if kind in "fc" and 0 <= fill_value < 2**64:
            pass  # uint64's range: converted below as elsewhere
        elif kind in "fc":  # NumPy converts a huge int to the float item
            fill_value = float(fill_value)
        elif kind == "b":  # NumPy's bool item takes a C long
            raise OverflowError(f"[{op}] Python int too large to convert to C long")
    return _core.full(shape, fill_value, dtype, device)


def _prototype(a, device):
    """A *_like function's prototype as a gpupy array: a NumPy array or sequence is only viewed
    (on the cpu device) for its shape, dtype and strides, and the result goes to `device` (the
    default device when None), not to the cpu."""
    if isinstance(a, _core.ndarray):
        return a, device
    view = _core._asarray(numpy.asarray(a), None, "cpu")
    return view, _core.default_device() if device is None else device


def _made_like(op, make, prototype, dtype, order, shape, device, *args):
    """make(shape, *args, dtype, device) in the layout a *_like function gives: a C-ordered
    allocation with its axes put back."""
    a, device = _prototype(prototype, device)
    allocated, axes = _core._like_layout(a, shape, order, op)
    out = make(
        allocated,
        *args,
        a.dtype if dtype is None else dtype,
        a.device if device is None else device,
    )
    return out if axes is None else out.transpose(axes)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """See numpy.empty_like; dtype, device and layout ('K') default to those of `prototype`."""
    return _made_like("empty_like", _core.empty, prototype, dtype, order, shape, device)


def zeros_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """See numpy.zeros_like; dtype, device and layout ('K') default to those of `prototype`."""
    return _made_like("zeros_like", _core.zeros, prototype, dtype, order, shape, device)


def ones_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """See numpy.ones_like; dtype, device and layout ('K') default to those of `prototype`."""
    return _made_like("ones_like", _core.ones, prototype, dtype, order, shape, device)


def full_like(prototype, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    """See numpy.full_like; dtype, device and layout ('K') default to those of `prototype`. An
    array `fill_value` broadcasts to the result's shape."""
    if not _is_scalar_fill(fill_value):
        out = _made_like("full_like", _core.empty, prototype, dtype, order, shape, device)
        out[...] = fill_value  # unsafe casting, as NumPy's copyto in full_like
        return out

    def fill(allocated, value, dt, dev):
        return _full_in_shape(allocated, value, dt, dev, "full_like")

    return _made_like("full_like", fill, prototype, dtype, order, shape, device, fill_value)


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, like=None):
    """See numpy.eye (order 'C' or 'F'). A diagonal offset ``k`` past the matrix (of any size,
    also beyond int64) gives all zeros, as in NumPy."""
    device = _device_of(like, device=device)
    n_cols = N if M is None else M
    try:
        k = operator.index(k)
    except TypeError:
        raise TypeError(f"[eye] k must be an integer, got {type(k).__name__}") from None
    if order != "C" and _core._check_order(order, "eye", "C", "CF") == "F":
        return eye(n_cols, N, -k, dtype, device=device).T  # the transpose of eye(M, N, -k)
    if isinstance(N, int) and isinstance(n_cols, int):
        k = max(min(k, n_cols), -N)
    return _core.eye(N, M, k, dtype, device)


def identity(n, dtype=None, device=None):
    """See numpy.identity."""
    return eye(n, dtype=dtype, device=device)


def get_default_device():
    """The device new arrays are created on (see gpupy.Device for a scoped change)."""
    return _core.default_device()


def set_default_device(device):
    """Changes the process-wide default device ($GPUPY_DEVICE sets it at start-up)."""
    _core.set_default_device(device)


__all__ = [
    "arange",
    "astype",
    "array",
    "asarray",
    "asnumpy",
    "empty",
    "empty_like",
    "eye",
    "full",
    "full_like",
    "get_default_device",
    "identity",
    "ones",
    "ones_like",
    "set_default_device",
    "zeros",
    "zeros_like",
]
