"""Joining, splitting and tiling: see the NumPy functions of the same names.

Joins and tiles allocate their result and copy into views of it; splits and diagonals are views.
"""

import math
import operator
import types

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._manipulation import _arr, _array_operands, broadcast_arrays, reshape
from gpupy._utilities import _into_out, check_casting, check_operands


def _ints(value):
    if isinstance(value, ndarray):
        value = value.get().tolist()
    try:
        return [operator.index(value)]
    except TypeError:
        return [operator.index(v) for v in value]


# ---- selection ----------------------------------------------------------------------------------


def _arrays(arrays, op):
    """The arrays a join takes (a sequence of them, or an array's rows) as gpupy arrays; TypeError
    naming op for anything else and for None among them."""
    if type(arrays) in (list, tuple) and all(type(a) is ndarray for a in arrays):
        if len(arrays) <= _MAX_ARRAYS:
            return list(arrays)  # what the checks below leave of gpupy arrays, 1.5 us sooner
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
    return _array_operands(arrays)


_MAX_ARRAYS = 2**31 - 1  # NumPy's limit (a C int count)


def _cast_for_join(arrays, dtype, casting, op, core_checks=True):
    """The arrays cast to dtype (else their result type) under NumPy's casting rule; the
    'same_kind' default is left to the C++ join where it checks it (concatenate)."""
    check_casting(op, casting)
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
    if to is None and out is None:
        to = _weak_scalars_dtype(arrays)
    # with out=, casting is checked here against out's dtype (the C++ join checks dtype=)
    arrays, to = _cast_for_join(
        _arrays(arrays, "concatenate"), to, casting, "concatenate", out is None
    )
    return _into_out("concatenate", _core._concatenate(arrays, axis, to), out)


def _weak_scalars_dtype(items):
    """NumPy 2.4 joins Python int/float/complex items as weak scalars: beside complex64 data the
    result is complex64. The dtype that gives where it is inexact (None otherwise: an integer
    result keeps the int64 join, which never wraps a value)."""
    if not isinstance(items, (list, tuple)) or not any(
        type(x) in (int, float, complex) for x in items
    ):
        return None
    if not any(isinstance(x, ndarray) for x in items):
        return None
    from gpupy._dtypes import result_type

    try:
        dtype = numpy.dtype(result_type(*items))
    except (TypeError, ValueError, OverflowError):
        return None  # the join reports the item
    return dtype if dtype.kind in "fc" else None


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
    arrs = [reshape(x, (-1,)) for x in _array_operands(xi)]
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


ndarray.repeat = repeat

__all__ = [
    "array_split",
    "atleast_1d",
    "atleast_2d",
    "atleast_3d",
    "column_stack",
    "concat",
    "concatenate",
    "dsplit",
    "dstack",
    "hsplit",
    "hstack",
    "meshgrid",
    "repeat",
    "roll",
    "row_stack",
    "split",
    "stack",
    "tile",
    "unstack",
    "vsplit",
    "vstack",
]
