"""Selection and comparison: where, clip, nan_to_num, the triangles and diagonals, trace,
isclose, allclose and array_equal (see the NumPy functions of the same names)."""

import builtins
import operator

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._manipulation import _arr, _array_operands, _list_device
from gpupy._placement import weak_ints_as_floats
from gpupy._utilities import check_casting, check_operands

_SCALARS = (bool, int, float, complex)
_DIRECT = frozenset((ndarray, *_SCALARS))  # operands where() passes to C++ unchanged
_DIRECT_VALUES = _DIRECT - {int}
_NO_VALUE = numpy._NoValue  # where(condition): x and y not given (None is a value to NumPy)


def _operand(x, list_device=None):
    """Python scalars stay weak scalars (NEP 50); lists become arrays on `list_device` (the
    device of the other gpupy operands, as the element-wise ops place them), anything else an
    array on the default device."""
    if isinstance(x, _SCALARS):
        return x
    if list_device is not None and isinstance(x, (list, tuple)):
        from gpupy._creation import asarray

        return asarray(x, device=list_device)
    return _arr(x)


def where(condition, x=_NO_VALUE, y=_NO_VALUE, /):
    """See numpy.where; ``where(condition)`` is ``nonzero(condition)``."""
    if x is _NO_VALUE and y is _NO_VALUE:
        from gpupy._indexing import nonzero

        return nonzero(condition)
    if x is _NO_VALUE or y is _NO_VALUE:
        raise ValueError("[where] either both or neither of x and y should be given")
    # Python ints are left to weak_ints_as_floats (one beyond int64 beside a float array)
    if type(condition) in _DIRECT and type(x) in _DIRECT_VALUES and type(y) in _DIRECT_VALUES:
        return _core._where(condition, x, y)  # _operand would return each as it is
    check_operands("where", (condition, x, y))  # None is an (object) array to NumPy, not "absent"
    dev = _list_device((condition, x, y))
    x, y = weak_ints_as_floats([_operand(x, dev), _operand(y, dev)])
    return _core._where(_operand(condition, dev), x, y)


def clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None, dtype=None,
         casting="same_kind"):  # fmt: skip
    """See numpy.clip: NaN bounds and NaN elements propagate; dtype as NumPy 2's promotion.
    The bounds are named ``min``/``max`` as in the Array API; NumPy's ``a_min``/``a_max``
    keywords are accepted too. Of the ufunc keywords NumPy passes on, ``dtype`` and ``casting``
    are taken: they rule the cast of the inputs to dtype and of the result into out."""
    if (min is not None or max is not None) and (a_min is not None or a_max is not None):
        raise ValueError("[clip] pass the bounds as min/max or as a_min/a_max, not both")
    casting = "same_kind" if casting is None else casting  # None: the ufunc default
    check_casting("clip", casting)
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    a = _arr(a)
    operands = weak_ints_as_floats(
        [a, *(None if b is None else _operand(b, a.device) for b in (lo, hi))]
    )
    if dtype is not None:
        to = numpy.dtype(dtype)
        for x in operands:
            if isinstance(x, ndarray) and not numpy.can_cast(x.dtype, to, casting):
                raise TypeError(
                    f"[clip] Cannot cast ufunc 'clip' input from dtype('{x.dtype}') to "
                    f"dtype('{to}') with casting rule '{casting}'"
                )
        operands = [x.astype(to, copy=False) if isinstance(x, ndarray) else x for x in operands]
    result = _core._clip(*operands)
    if dtype is not None:
        result = result.astype(dtype, copy=False)  # weak Python bounds do not widen dtype=
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError(f"[clip] out must be a gpupy.ndarray, got {type(out).__name__}")
    if not numpy.can_cast(result.dtype, out.dtype, casting):  # the ufunc's out= rule
        raise TypeError(
            f"[clip] Cannot cast ufunc 'clip' output from {result.dtype!r} to "
            f"{out.dtype!r} with casting rule '{casting}'"
        )
    try:  # a ufunc: out may be larger, the result is broadcast into it
        fits = numpy.broadcast_shapes(result.shape, out.shape) == out.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(
            f"[clip] non-broadcastable output operand with shape {out.shape} doesn't match the "
            f"broadcast shape {result.shape}"
        )
    out[...] = result
    return out


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """See numpy.nan_to_num; copy=False writes into x (a gpupy array) and returns it."""
    import numpy

    x = _arr(x)
    kind = x.dtype.kind
    if kind not in "fc":
        return x.copy() if copy else x
    for value in (nan, posinf, neginf):  # NumPy copies them in under same_kind casting
        if value is not None and not isinstance(value, (bool, int, float)):
            dt = numpy.result_type(value)
            if not numpy.can_cast(dt, x.real.dtype, "same_kind"):
                raise TypeError(
                    f"[nan_to_num] Cannot cast scalar from {dt!r} to {x.real.dtype!r} according "
                    "to the rule 'same_kind'"
                )
        elif isinstance(value, complex):
            raise TypeError("[nan_to_num] Cannot cast a Python complex to a real dtype")
    if kind == "c":
        parts = [nan_to_num(p, True, nan, posinf, neginf) for p in (x.real, x.imag)]
        r = parts[0] + parts[1] * 1j
    else:
        r = _real_nan_to_num(x, nan, posinf, neginf)
    if copy:
        return r.astype(x.dtype, copy=False)
    x[...] = r
    return x


def _real_nan_to_num(x, nan, posinf, neginf):
    import numpy

    info = numpy.finfo(x.dtype)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    # the masks are x's own: a NaN replaced by inf stays inf, as in NumPy
    up = _core.logical_and(_core.isinf(x), _core.greater(x, 0))
    down = _core.logical_and(_core.isinf(x), _core.less(x, 0))
    r = _core._where(_core.isnan(x), float(nan), x)
    r = _core._where(up, float(posinf), r)
    return _core._where(down, float(neginf), r)


def tril(m, k=0):
    """See numpy.tril."""
    return _core._tril(_arr(m), operator.index(k))


def triu(m, k=0):
    """See numpy.triu."""
    return _core._triu(_arr(m), operator.index(k))


def diagonal(a, offset=0, axis1=0, axis2=1):
    """See numpy.diagonal: a read-only view."""
    return _core._diagonal(_arr(a), operator.index(offset), axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """See numpy.trace."""
    a = _arr(a)
    if out is not None and dtype is None:  # NumPy's add.reduce sums in the promotion with out
        dtype = numpy.promote_types(a.dtype, out.dtype)
    result = _core._trace(a, operator.index(offset), axis1, axis2, dtype)
    if out is not None:
        if out.ndim != result.ndim:  # NumPy's reduction out=: no broadcasting
            raise ValueError(
                "[trace] output parameter for reduction operation add has the wrong number of "
                f"dimensions: Found {out.ndim} but expected {result.ndim}"
            )
        out[...] = result
        return out
    return result


def diag(v, k=0):
    """See numpy.diag: 1-D -> a new 2-D array; 2-D -> a read-only view of the diagonal."""
    return _core._diag(_arr(v), operator.index(k))


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """See numpy.isclose (tolerance relative to ``b``)."""
    import gpupy as gp

    dev = _list_device((a, b))
    x, y = _operand(a, dev), _operand(b, dev)
    if isinstance(y, ndarray):
        y = y.astype(_core._result_type(y, 1.0), copy=False)
    elif isinstance(y, int):
        y = float(y)
    # a Python scalar y keeps the tolerance a weak scalar (NEP 50): float32 x compares in float32
    abs_y = builtins.abs(y) if isinstance(y, _SCALARS) else gp.abs(y)
    close = gp.less_equal(gp.abs(gp.subtract(x, y)), atol + rtol * abs_y)
    result = gp.logical_or(gp.logical_and(close, gp.isfinite(y)), gp.equal(x, y))
    if equal_nan:
        result = gp.logical_or(result, gp.logical_and(gp.isnan(x), gp.isnan(y)))
    return result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """See numpy.allclose."""
    return builtins.bool(_core.all(_arr(isclose(a, b, rtol, atol, equal_nan))))


def array_equal(a1, a2, equal_nan=False):
    """See numpy.array_equal."""
    a1, a2 = _array_operands((a1, a2))
    if a1.shape != a2.shape:
        return False
    if not equal_nan or a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
        return builtins.bool(_core.all(_core.equal(a1, a2)))
    same = _core.logical_or(
        _core.equal(a1, a2), _core.logical_and(_core.isnan(a1), _core.isnan(a2))
    )
    return builtins.bool(_core.all(same))


# ---- joining ------------------------------------------------------------------------------------


ndarray.diagonal = diagonal
ndarray.trace = trace
ndarray.clip = clip

__all__ = [
    "allclose",
    "array_equal",
    "clip",
    "diag",
    "diagonal",
    "isclose",
    "nan_to_num",
    "trace",
    "tril",
    "triu",
    "where",
]
