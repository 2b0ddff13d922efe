"""NumPy's utility names: dtype queries, printing and print options, number formatting, error and
buffer settings, and array_equiv. Functions about dtypes or text delegate to NumPy; gpupy arrays
are printed by NumPy's formatter after one explicit copy to the host."""

import contextlib
import functools
import math
import operator
import sys

import numpy

from gpupy import _core

__all__ = [
    "array2string",
    "array_equiv",
    "array_repr",
    "array_str",
    "base_repr",
    "binary_repr",
    "common_type",
    "errstate",
    "format_float_positional",
    "format_float_scientific",
    "get_printoptions",
    "getbufsize",
    "geterr",
    "geterrcall",
    "issubdtype",
    "min_scalar_type",
    "mintypecode",
    "printoptions",
    "set_printoptions",
    "setbufsize",
    "seterr",
    "seterrcall",
    "typename",
]


# AxisError, alone of NumPy's exception subclasses, is also built from its message alone
_RENAMED = (TypeError, ValueError, OverflowError, KeyError, numpy.exceptions.AxisError)


def renamed_error(op, exc):
    """`exc` as named_errors re-raises it: a NumPy TypeError, ValueError, OverflowError, KeyError
    or AxisError with the operation name put first; anything else (or one already named)
    unchanged."""
    if type(exc) not in _RENAMED or str(exc).startswith("["):
        return exc
    renamed = type(exc)(f"[{op}] {exc}")
    renamed.__cause__ = exc
    return renamed


@contextlib.contextmanager
def named_errors(op):
    """Gives NumPy's TypeError, ValueError, OverflowError, KeyError and AxisError the operation
    name, as gpupy's own errors have it (other subclasses, which may take other arguments, pass
    unchanged)."""
    try:
        yield
    except _RENAMED as exc:
        renamed = renamed_error(op, exc)
        if renamed is exc:
            raise
        raise renamed from exc


def delegating(fn):
    """Decorates a function that calls NumPy: its errors name the function (named_errors)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with named_errors(fn.__name__):
            return fn(*args, **kwargs)

    return wrapper


def check_operands(op, values, optional=()):
    """TypeError naming op for a None among the array operands ``values`` (except at the positions
    in ``optional``): NumPy reads None as an object array, and gpupy has no object dtype."""
    for i, v in enumerate(values):
        if v is None and i not in optional:
            raise TypeError(
                f"[{op}] expected an array, got None (gpupy arrays have no object dtype)"
            )


def host_shape(op, shape, dtype):
    """The shape of a host buffer of ``dtype`` (an integer or a sequence of them, NumPy integers
    too) as a tuple: TypeError for other values, ValueError for a negative dimension or a size
    beyond the address space, each naming op."""
    try:
        shape = (operator.index(shape),)
    except TypeError:
        try:
            shape = tuple(operator.index(n) for n in shape)
        except TypeError:
            raise TypeError(
                f"[{op}] shape must be an integer or a sequence of integers, got {shape!r}"
            ) from None
    if any(n < 0 for n in shape):
        raise ValueError(f"[{op}] negative dimension in shape {shape}")
    if math.prod(shape) * numpy.dtype(dtype).itemsize > sys.maxsize:
        raise ValueError(f"[{op}] shape {shape} of {numpy.dtype(dtype)} is too big")
    return shape


CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def check_casting(op, casting):
    """A ValueError naming `op` unless `casting` is one of NumPy's casting rules."""
    if casting not in CASTINGS:
        raise ValueError(
            f"[{op}] casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' "
            f"(got {casting!r})"
        )


def _into_out(op, result, out, casting="unsafe"):
    """`result` written into the caller's ``out=`` array (which is returned), or `result` itself
    when there is none; the shapes must match and the dtypes cast under `casting`."""
    if out is None:
        return result
    if not isinstance(out, _core.ndarray):
        raise TypeError(f"[{op}] out must be a gpupy array, not {type(out).__name__}")
    if out.shape != result.shape:
        raise ValueError(f"[{op}] out has shape {out.shape}, the result has {result.shape}")
    if not numpy.can_cast(result.dtype, out.dtype, casting):
        raise TypeError(
            f"[{op}] cannot cast the result from {result.dtype} to out's {out.dtype} with "
            f"casting rule '{casting}'"
        )
    out[...] = result
    return out


def _kept_axes(result, ndim, axes):
    """keepdims=True of the medians and quantiles: `result` (any leading quantile axes, then the
    kept axes of an ndim-d input) with the reduced `axes` back as length-1 axes, as views with zero
    strides there as NumPy's (a reshape gave them the next axis's stride)."""
    lead = result.ndim - (ndim - len(axes))
    return result[
        (slice(None),) * lead + tuple(None if i in axes else slice(None) for i in range(ndim))
    ]


def _host(a):
    """A gpupy array as a NumPy array (one device-to-host copy); anything else unchanged."""
    return a.get() if isinstance(a, _core.ndarray) else a


def _dtype_like(value):
    """A gpupy array stands for its dtype where NumPy only inspects the dtype (no copy)."""
    return numpy.empty(0, value.dtype) if isinstance(value, _core.ndarray) else value


# ---- dtype queries -------------------------------------------------------------------------------


@delegating
def issubdtype(arg1, arg2):
    """See numpy.issubdtype (gpupy's dtypes are NumPy's)."""
    return numpy.issubdtype(arg1, arg2)


@delegating
def common_type(*arrays):
    """See numpy.common_type: the inexact scalar type common to the arrays (reads only dtypes)."""
    return numpy.common_type(*(_dtype_like(a) for a in arrays))


@delegating
def min_scalar_type(a, /):
    """See numpy.min_scalar_type. A 0-d gpupy array's value is copied to the host to be inspected;
    for other arrays the answer is their dtype, as in NumPy."""
    if isinstance(a, _core.ndarray):
        return numpy.min_scalar_type(a.get() if a.ndim == 0 else _dtype_like(a))
    return numpy.min_scalar_type(a)


@delegating
def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """See numpy.mintypecode; gpupy arrays among ``typechars`` count by their dtype."""
    chars = [t.dtype.char if isinstance(t, _core.ndarray) else t for t in typechars]
    return numpy.mintypecode(chars, typeset, default)


@delegating
def typename(char):
    """See numpy.typename."""
    return numpy.typename(char)


# ---- printing ------------------------------------------------------------------------------------
# gpupy arrays print through NumPy's formatter, so NumPy's print options are gpupy's: the functions
# below set the same options that numpy.set_printoptions does, and gpupy's repr honours them.


@delegating
def array2string(a, max_line_width=None, precision=None, suppress_small=None, *args, **kwargs):
    """See numpy.array2string; a gpupy array is copied to the host once to be formatted."""
    return numpy.array2string(_host(a), max_line_width, precision, suppress_small, *args, **kwargs)


@delegating
def array_repr(arr, max_line_width=None, precision=None, suppress_small=None):
    """See numpy.array_repr; arrays not on the cpu name their device (``device='emu'``) as the last
    keyword. A gpupy array is copied to the host once to be formatted."""
    return _with_device(
        arr, numpy.array_repr(_host(arr), max_line_width, precision, suppress_small)
    )


def _with_device(arr, text):
    """A repr of ``arr`` made by NumPy, with the device added unless it is the cpu."""
    if not isinstance(arr, _core.ndarray) or arr.device.type == "cpu":
        return text
    if not text.endswith(")"):  # an override_repr function's own format
        return f"{text} (device='{arr.device}')"
    return f"{text[:-1]}, device='{arr.device}')"


@delegating
def array_str(a, max_line_width=None, precision=None, suppress_small=None):
    """See numpy.array_str; a gpupy array is copied to the host once to be formatted."""
    return numpy.array_str(_host(a), max_line_width, precision, suppress_small)


@delegating
def set_printoptions(*args, **kwargs):
    """See numpy.set_printoptions. gpupy arrays print through NumPy's formatter, so these are
    NumPy's options: they apply to gpupy and NumPy arrays alike."""
    numpy.set_printoptions(*args, **kwargs)


def get_printoptions():
    """See numpy.get_printoptions (the options gpupy and NumPy arrays print with)."""
    return numpy.get_printoptions()


@contextlib.contextmanager
def printoptions(*args, **kwargs):
    """See numpy.printoptions: sets print options (for gpupy and NumPy arrays) inside a with
    block and restores them after it."""
    with named_errors("printoptions"):
        manager = numpy.printoptions(*args, **kwargs)
        options = manager.__enter__()
    try:
        yield options
    finally:
        manager.__exit__(None, None, None)


def _host_scalar(x):
    return x.get()[()] if isinstance(x, _core.ndarray) else x


@delegating
def format_float_positional(x, *args, **kwargs):
    """See numpy.format_float_positional; a 0-d gpupy array is formatted at its own precision."""
    return numpy.format_float_positional(_host_scalar(x), *args, **kwargs)


@delegating
def format_float_scientific(x, *args, **kwargs):
    """See numpy.format_float_scientific; a 0-d gpupy array is formatted at its own precision."""
    return numpy.format_float_scientific(_host_scalar(x), *args, **kwargs)


@delegating
def base_repr(number, base=2, padding=0):
    """See numpy.base_repr."""
    return numpy.base_repr(_host_scalar(number), base, padding)


@delegating
def binary_repr(num, width=None):
    """See numpy.binary_repr."""
    return numpy.binary_repr(_host_scalar(num), width)


# ---- comparison ----------------------------------------------------------------------------------


def array_equiv(a1, a2):
    """See numpy.array_equiv: True when the shapes broadcast together and all elements are equal.
    Computed on the arrays' device; only the final bool comes back to the host."""
    from gpupy._creation import _first_gpupy_array, asarray
    from gpupy._elementwise import equal
    from gpupy._reduction import all as all_

    first = _first_gpupy_array([a1, a2])
    device = None if first is None else first.device
    # Only non-gpupy operands are placed; gpupy arrays on different devices raise in equal.
    try:
        a1, a2 = (
            a if isinstance(a, _core.ndarray) else asarray(a, device=device) for a in (a1, a2)
        )
    except TypeError as exc:
        raise TypeError(f"[array_equiv] {exc}") from exc
    try:
        numpy.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return bool(all_(equal(a1, a2)))


# ---- floating-point error handling and buffers ---------------------------------------------------
# gpupy's kernels (cpu, emu and cuda) follow IEEE 754 without traps: division by zero, overflow and
# invalid operations give inf or nan and never warn, raise or call a handler. These settings are
# NumPy's, kept for code that sets and reads them and for the NumPy code it runs on the host.


@delegating
def seterr(all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002 - NumPy's name
    """See numpy.seterr; returns the old settings. gpupy kernels never warn or raise on
    floating-point errors, whatever is set: the settings apply to NumPy's own computations."""
    return numpy.seterr(all=all, divide=divide, over=over, under=under, invalid=invalid)


def geterr():
    """See numpy.geterr (the settings seterr and errstate record; gpupy kernels ignore them)."""
    return numpy.geterr()


@delegating
def seterrcall(func):
    """See numpy.seterrcall. gpupy kernels never call the handler; NumPy's computations do."""
    return numpy.seterrcall(func)


def geterrcall():
    """See numpy.geterrcall."""
    return numpy.geterrcall()


class errstate(numpy.errstate):  # noqa: N801 - NumPy's name
    """See numpy.errstate: a context manager (and decorator) that sets floating-point error
    handling inside its block. gpupy kernels never warn or raise on floating-point errors (they
    give inf or nan), so the settings affect only NumPy's computations inside the block."""

    __slots__ = ()


def getbufsize():
    """See numpy.getbufsize: the size of NumPy's ufunc buffer (gpupy kernels do not use it)."""
    return numpy.getbufsize()


@delegating
def setbufsize(size):
    """See numpy.setbufsize: sets NumPy's ufunc buffer size and returns the old one; gpupy kernels
    do not buffer, so it does not change them."""
    return numpy.setbufsize(size)
