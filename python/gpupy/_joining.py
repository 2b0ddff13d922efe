"""Selection, joining and splitting: see the NumPy functions of the same names.

Joins and tiles allocate their result and copy into views of it; splits and diagonals are views.
"""

import builtins
import math
import operator
import types

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._manipulation import _arr, broadcast_arrays, reshape
from gpupy._utilities import _into_out, check_operands

_SCALARS = (bool, int, float, complex)
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


def _list_device(values):
    """The device of the first gpupy array among values (None without one)."""
    return next((v.device for v in values if isinstance(v, ndarray)), None)


def _ints(value):
    if isinstance(value, ndarray):
        value = value.get().tolist()
    try:
        return [operator.index(value)]
    except TypeError:
        return [operator.index(v) for v in value]


# ---- selection ----------------------------------------------------------------------------------


def where(condition, x=_NO_VALUE, y=_NO_VALUE, /):
    """See numpy.where; ``where(condition)`` is ``nonzero(condition)``."""
    if x is _NO_VALUE and y is _NO_VALUE:
        from gpupy._indexing import nonzero

        return nonzero(condition)
    if x is _NO_VALUE or y is _NO_VALUE:
        raise ValueError("[where] either both or neither of x and y should be given")
    check_operands("where", (condition, x, y))  # None is an (object) array to NumPy, not "absent"
    dev = _list_device((condition, x, y))
    return _core._where(_operand(condition, dev), _operand(x, dev), _operand(y, dev))


def clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None, dtype=None,
         casting="same_kind"):  # fmt: skip
    """See numpy.clip: NaN bounds and NaN elements propagate; dtype as NumPy 2's promotion.
    The bounds are named ``min``/``max`` as in the Array API; NumPy's ``a_min``/``a_max``
    keywords are accepted too. Of the ufunc keywords NumPy passes on, ``dtype`` and ``casting``
    are taken: they rule the cast of the inputs to dtype and of the result into out."""
    if (min is not None or max is not None) and (a_min is not None or a_max is not None):
        raise ValueError("[clip] pass the bounds as min/max or as a_min/a_max, not both")
    casting = "same_kind" if casting is None else casting  # None: the ufunc default
    if casting not in _CASTINGS:
        raise ValueError(
            "[clip] casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'"
        )
    lo = a_min if min is None else min
    hi = a_max if max is None else max
    a = _arr(a)
    operands = [a, *(None if b is None else _operand(b, a.device) for b in (lo, hi))]
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

    x, y = _operand(a), _operand(b)
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
    a1, a2 = _arr(a1), _arr(a2)
    if a1.shape != a2.shape:
        return False
    if not equal_nan or a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
        return builtins.bool(_core.all(_core.equal(a1, a2)))
    same = _core.logical_or(
        _core.equal(a1, a2), _core.logical_and(_core.isnan(a1), _core.isnan(a2))
    )
    return builtins.bool(_core.all(same))


# ---- joining ------------------------------------------------------------------------------------


def _arrays(arrays, op):
    """The arrays a join takes (a sequence of them, or an array's rows) as gpupy arrays; TypeError
    naming op for anything else and for None among them."""
    if isinstance(arrays, ndarray):
        arrays = list(arrays) if arrays.ndim else [arrays]
    elif not hasattr(arrays, "__iter__"):
        raise TypeError(f"[{op}] expected a sequence of arrays, got {type(arrays).__name__}")
    elif isinstance(arrays, types.GeneratorType) or not hasattr(arrays, "__len__"):
        # NumPy 2 refuses one-shot iterables: their length is needed before they are read
        if op == "concatenate":
            raise TypeError("[concatenate] The first input argument needs to be a sequence")
        raise TypeError(
            f'[{op}] arrays to stack must be passed as a "sequence" type such as list or tuple.'
        )
    if len(arrays) > _MAX_ARRAYS:  # before converting 2**31 elements one by one
        raise ValueError(
            f"[{op}] {op}() only supports up to {_MAX_ARRAYS} arrays but got {len(arrays)}."
        )
    arrays = list(arrays)
    check_operands(op, arrays)
    dev = _list_device(arrays)
    return [_operand(a, dev) if isinstance(a, (list, tuple)) else _arr(a) for a in arrays]


_MAX_ARRAYS = 2**31 - 1  # NumPy's limit (a C int count)


_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def _cast_for_join(arrays, dtype, casting, op, core_checks=True):
    """The arrays cast to dtype (else their result type) under NumPy's casting rule; the
    'same_kind' default is left to the C++ join where it checks it (concatenate)."""
    if casting not in _CASTINGS:
        raise ValueError(
            f"[{op}] casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'"
        )
    if (casting == "same_kind" and core_checks) or not arrays:
        return arrays, dtype
    if dtype is None and casting in ("same_kind", "safe", "unsafe"):
        return arrays, None  # promotion only makes safe casts, and the C++ join promotes
    to = numpy.dtype(dtype) if dtype is not None else numpy.result_type(*arrays)
    for a in arrays:
        if not numpy.can_cast(a.dtype, to, casting):
            raise TypeError(
                f"[{op}] Cannot cast array data from dtype('{a.dtype}') to dtype('{to}') "
                f"according to the rule '{casting}'"
            )
    return [a.astype(to, copy=False) for a in arrays], None


def _out_dtype(out, dtype, op):
    """The dtype the join casts to: out's (NumPy takes one of out= and dtype=) or dtype."""
    if not isinstance(out, ndarray):
        return dtype  # None, or an out= that _into_out refuses
    if dtype is not None:
        raise TypeError(
            f"[{op}] only takes `out` or `dtype` as an argument, but both were provided."
        )
    return out.dtype


def concatenate(arrays, /, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """See numpy.concatenate (axis=None joins the flattened inputs)."""
    if axis is not None:
        axis = operator.index(axis)
    to = _out_dtype(out, dtype, "concatenate")
    # with out=, casting is checked here against out's dtype (the C++ join checks dtype=)
    arrays, to = _cast_for_join(
        _arrays(arrays, "concatenate"), to, casting, "concatenate", out is None
    )
    return _into_out("concatenate", _core._concatenate(arrays, axis, to), out)


def concat(arrays, /, *, axis=0):
    """See numpy.concat (the Array API name of concatenate)."""
    return concatenate(arrays, axis=axis)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """See numpy.stack."""
    arrays = _arrays(arrays, "stack")
    if len({a.shape for a in arrays}) > 1:  # NumPy checks the shapes before the casting
        raise ValueError("[stack] all input arrays must have the same shape")
    axis = operator.index(axis)
    if arrays and not -arrays[0].ndim - 1 <= axis <= arrays[0].ndim:
        raise numpy.exceptions.AxisError(
            f"[stack] axis {axis} is out of bounds for array of dimension {arrays[0].ndim + 1}"
        )
    to = _out_dtype(out, dtype, "stack")
    arrays, _ = _cast_for_join(arrays, to, casting, "stack", False)
    return _into_out("stack", _core._stack(arrays, axis), out)


def atleast_1d(*arys):
    """See numpy.atleast_1d."""
    res = [reshape(a, (1,)) if a.ndim == 0 else a for a in map(_arr, arys)]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_2d(*arys):
    """See numpy.atleast_2d."""
    res = []
    for a in map(_arr, arys):
        res.append(reshape(a, (1, 1)) if a.ndim == 0 else a[None] if a.ndim == 1 else a)
    return res[0] if len(res) == 1 else tuple(res)


def atleast_3d(*arys):
    """See numpy.atleast_3d: (N,) -> (1, N, 1), (M, N) -> (M, N, 1)."""
    res = []
    for a in map(_arr, arys):
        if a.ndim == 0:
            a = reshape(a, (1, 1, 1))
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def _as_list(arrs, fn, op):
    out = fn(*_arrays(arrs, op))
    return list(out) if isinstance(out, tuple) else [out]


def vstack(tup, *, dtype=None, casting="same_kind"):
    """See numpy.vstack."""
    return concatenate(_as_list(tup, atleast_2d, "vstack"), axis=0, dtype=dtype, casting=casting)


row_stack = vstack


def hstack(tup, *, dtype=None, casting="same_kind"):
    """See numpy.hstack."""
    arrs = _as_list(tup, atleast_1d, "hstack")
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    return concatenate(arrs, axis=axis, dtype=dtype, casting=casting)


def dstack(tup):
    """See numpy.dstack."""
    return concatenate(_as_list(tup, atleast_3d, "dstack"), axis=2)


def column_stack(tup):
    """See numpy.column_stack: 1-D inputs become columns."""
    arrs = [a[:, None] if a.ndim < 2 else a for a in _as_list(tup, atleast_1d, "column_stack")]
    return concatenate(arrs, axis=1)


def unstack(x, /, *, axis=0):
    """See numpy.unstack: views of the slices along ``axis``."""
    x = _arr(x)
    if x.ndim == 0:
        raise ValueError("[unstack] Input array must be at least 1-d.")
    moved = _core.moveaxis(x, axis, 0)
    return tuple(moved[i] for i in range(moved.shape[0]))


# ---- splitting ----------------------------------------------------------------------------------


def _refuse_zero_d(a, op):
    if a.ndim == 0:  # NumPy reads the 0-d array's (missing) axis length: IndexError
        raise IndexError(f"[{op}] cannot split a 0-d array (it has no axis to split along)")


def array_split(ary, indices_or_sections, axis=0):
    """See numpy.array_split: views of ``ary``."""
    a = _arr(ary)
    _refuse_zero_d(a, "array_split")
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        return _core._split_at(a, _ints(indices_or_sections), axis)
    return _core._array_split(a, sections, axis)


def split(ary, indices_or_sections, axis=0):
    """See numpy.split: sections must divide the axis evenly."""
    a = _arr(ary)
    _refuse_zero_d(a, "split")
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        return array_split(a, indices_or_sections, axis)
    if sections > 0 and a.ndim and a.shape[axis] % sections:
        raise ValueError("[split] array split does not result in an equal division")
    return array_split(a, sections, axis)


def hsplit(ary, indices_or_sections):
    """See numpy.hsplit."""
    a = _arr(ary)
    if a.ndim == 0:
        raise ValueError("[hsplit] hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """See numpy.vsplit."""
    a = _arr(ary)
    if a.ndim < 2:
        raise ValueError("[vsplit] vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    """See numpy.dsplit."""
    a = _arr(ary)
    if a.ndim < 3:
        raise ValueError("[dsplit] dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, 2)


# ---- tiling and rearranging ---------------------------------------------------------------------


def tile(A, reps):
    """See numpy.tile (always a new array)."""
    return _core._tile(_arr(A), _ints(reps))


def repeat(a, repeats, axis=None):
    """See numpy.repeat; per-element counts in an array are read back to the host."""
    a = _arr(a)
    axis = None if axis is None else operator.index(axis)
    if isinstance(repeats, ndarray):
        return _core._repeat_array(a, repeats, axis)
    return _core._repeat(a, _ints(repeats), axis)


def roll(a, shift, axis=None):
    """See numpy.roll (always a new array)."""
    axes = None if axis is None else _ints(axis)
    a, shifts = _arr(a), _ints(shift)
    if any(not -(2**63) <= s < 2**63 for s in shifts):
        # beyond int64 (2**100, NumPy's uint64 2**63 + 2): the shift modulo every rolled length
        lengths = [a.size] if axes is None else [a.shape[x] for x in axes if -a.ndim <= x < a.ndim]
        period = math.lcm(*lengths) if all(lengths) else 1
        shifts = [s % period for s in shifts]
    return _core._roll(a, shifts, axes)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """See numpy.meshgrid."""
    if indexing not in ("xy", "ij"):
        raise ValueError("[meshgrid] Valid values for `indexing` are 'xy' and 'ij'.")
    arrs = [reshape(_arr(x), (-1,)) for x in xi]
    ndim = len(arrs)
    out = []
    for i, x in enumerate(arrs):
        shape = [1] * ndim
        shape[i] = x.shape[0]
        out.append(reshape(x, tuple(shape)))
    if indexing == "xy" and ndim > 1:
        out = [_core.swapaxes(o, 0, 1) for o in out]
    if not sparse:
        out = list(broadcast_arrays(*out))
    if copy:
        out = [o.copy() for o in out]
    return tuple(out)


ndarray.diagonal = diagonal
ndarray.trace = trace
ndarray.clip = clip
ndarray.repeat = repeat

__all__ = [
    "allclose",
    "array_equal",
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "clip",
    "column_stack",
    "concat",
    "concatenate",
    "diag",
    "diagonal",
    "dsplit",
    "dstack",
    "hsplit",
    "hstack",
    "isclose",
    "meshgrid",
    "nan_to_num",
    "repeat",
    "roll",
    "row_stack",
    "split",
    "stack",
    "tile",
    "trace",
    "tril",
    "triu",
    "unstack",
    "vsplit",
    "vstack",
    "where",
]
