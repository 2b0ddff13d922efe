"""ravel_multi_index and unravel_index: flat indices and coordinates, computed with gpupy's own
integer arithmetic on the index arrays' device; and the index objects mgrid, ogrid, r_, c_, s_,
index_exp, ndindex and ndenumerate (grids are made on the default device).

See the NumPy names. Bounds checks (mode='raise') read one boolean back.
"""

import itertools
import math
import operator

import numpy

from gpupy import _core

__all__ = [
    "c_",
    "index_exp",
    "mgrid",
    "ndenumerate",
    "ndindex",
    "ogrid",
    "r_",
    "ravel_multi_index",
    "s_",
    "unravel_index",
]


def _int_array(x, op, what):
    from gpupy import asarray

    a = x if isinstance(x, _core.ndarray) else asarray(x)
    if a.size == 0 and a.dtype.kind == "f" and not isinstance(x, (_core.ndarray, numpy.ndarray)):
        # As in NumPy, an empty list is refused rather than taken as integers.
        raise TypeError(
            f"[{op}] {what} must be integral: the provided empty sequence was inferred as float"
        )
    if numpy.dtype(a.dtype).kind not in "iu":
        raise TypeError(f"[{op}] only int indices permitted; {what} has dtype {a.dtype}")
    return a.astype("int64", copy=False)


def _dims(dims, op):
    dims = (dims,) if numpy.ndim(dims) == 0 else tuple(dims)
    dims = tuple(operator.index(d) for d in dims)
    if any(d < 0 for d in dims):
        raise ValueError(f"[{op}] dimensions must be non-negative")
    if math.prod(dims) > numpy.iinfo(numpy.int64).max:
        raise ValueError(
            f"[{op}] dimensions are too large; arrays and shapes with a total size "
            "greater than 'intp' are not supported."
        )
    return dims


def _strides(dims, order, op):
    if order not in ("C", "F"):
        raise ValueError(f"[{op}] only 'C' or 'F' order is permitted")
    axes = range(len(dims) - 1, -1, -1) if order == "C" else range(len(dims))
    strides, step = [0] * len(dims), 1
    for i in axes:
        strides[i], step = step, step * dims[i]
    return strides


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """See numpy.ravel_multi_index: mode 'raise', 'wrap' or 'clip' (or one per dimension)."""
    from gpupy import broadcast_arrays, clip, remainder

    op = "ravel_multi_index"
    dims = _dims(dims, op)
    coords = [_int_array(c, op, "multi_index") for c in multi_index]
    if len(coords) != len(dims):
        raise ValueError(f"[{op}] parameter multi_index must be a sequence of length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    if len(modes) != len(dims):
        raise ValueError(f"[{op}] mode must be a string or one mode per dimension")
    coords = broadcast_arrays(*coords) if coords else coords
    if coords and coords[0].size and 0 in dims:  # no valid coordinate along an empty axis
        raise ValueError(f"[{op}] cannot unravel if shape has zero entries (is empty).")
    strides = _strides(dims, order, op)
    result = None
    for c, d, m, st in zip(coords, dims, modes, strides, strict=True):
        if m == "raise":
            if c.size and bool(_core.any(_core.logical_or(c < 0, c >= d))):
                raise ValueError(f"[{op}] invalid entry in coordinates array")
        elif m == "wrap":
            c = remainder(c, d) if d else c
        elif m == "clip":
            c = clip(c, 0, max(d - 1, 0))
        else:
            raise ValueError(f"[{op}] clipmode must be one of 'clip', 'raise', or 'wrap'")
        term = c * st
        result = term if result is None else result + term
    if result is None:
        raise ValueError(f"[{op}] multi_index must not be empty")
    return result


def unravel_index(indices, shape, order="C"):
    """See numpy.unravel_index: a tuple of int64 coordinate arrays."""
    from gpupy import floor_divide, remainder

    op = "unravel_index"
    shape = _dims(shape, op)
    idx = _int_array(indices, op, "indices")
    size = math.prod(shape)
    if idx.size and bool(_core.any(_core.logical_or(idx < 0, idx >= size))):
        bad = idx.reshape(-1)[_core.argmax(_core.logical_or(idx < 0, idx >= size).reshape(-1))]
        raise ValueError(f"[{op}] index {int(bad)} is out of bounds for array with size {size}")
    if not shape and idx.ndim:  # NumPy: a 0-d shape unravels 0-d indices only
        raise ValueError(f"[{op}] multiple indices are not supported for 0d arrays")
    strides = _strides(shape, order, op)
    return tuple(remainder(floor_divide(idx, st), d) for st, d in zip(strides, shape, strict=True))


# ---- index objects: mgrid, ogrid, r_, c_, s_, index_exp, ndindex, ndenumerate ----------------


def _slice_parts(s):
    """start, stop, step of a grid slice; a complex step means that many points, stop included."""
    start = 0 if s.start is None else s.start
    step = 1 if s.step is None else s.step
    return start, s.stop, step


def _grid_axis(s, dtype):
    """The points of one mgrid/ogrid/r_ slice: arange, or linspace for a complex step."""
    from gpupy import arange

    start, stop, step = _slice_parts(s)
    if isinstance(step, (complex, numpy.complexfloating)):
        n = int(abs(step))
        spacing = (stop - start) / float(n - 1) if n != 1 else 1
        return arange(n, dtype=dtype) * spacing + start
    n = max(math.ceil((stop - start) / step), 0)
    return arange(n, dtype=dtype) * step + start


class _Grid:
    """mgrid (dense, stacked) and ogrid (open) index grids: see numpy.mgrid and numpy.ogrid."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        from gpupy import arange, broadcast_to, stack

        if isinstance(key, slice):
            start, stop, step = _slice_parts(key)
            if isinstance(step, (complex, numpy.complexfloating)):
                return _grid_axis(key, numpy.result_type(start, stop, abs(step)))
            return arange(start, stop, step)
        parts = [0]
        for s in key:
            start, stop, step = _slice_parts(s)
            cplx = isinstance(step, (complex, numpy.complexfloating))
            parts += [start, stop, abs(step) if cplx else step]
            # NumPy's dense grid refuses a range running backwards; the open one leaves it empty.
            if not (cplx or self.sparse) and math.ceil((stop - start) / step) < 0:
                raise ValueError("[mgrid] negative dimensions are not allowed")
        dtype = numpy.result_type(*parts)
        axes = [_grid_axis(s, dtype) for s in key]
        n = len(axes)
        axes = [g.reshape((1,) * i + (g.size,) + (1,) * (n - i - 1)) for i, g in enumerate(axes)]
        if self.sparse:
            return tuple(axes)
        shape = tuple(g.size for g in axes)
        if not axes:
            return arange(0, dtype=dtype)
        return stack([broadcast_to(g, shape) for g in axes])


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concatenator:
    """r_ and c_: see numpy.r_ and numpy.c_ (string directives 'axis', 'axis,ndmin[,trans1d]';
    the matrix directives 'r' and 'c' are refused: gpupy has no matrix type)."""

    def __init__(self, name, axis=0, ndmin=1, trans1d=-1):
        self.name, self.axis, self.ndmin, self.trans1d = name, axis, ndmin, trans1d

    def _directive(self, item):
        if item in ("r", "c"):
            raise NotImplementedError(f"[{self.name}] matrix directives are not supported")
        try:
            values = [int(x) for x in item.split(",")]
        except ValueError:
            raise ValueError(f"[{self.name}] unknown special directive {item!r}") from None
        if len(values) > 3 or (len(values) == 1 and "," in item):
            raise ValueError(f"[{self.name}] unknown special directive {item!r}")
        return (values + [self.ndmin, self.trans1d][len(values) - 1 :])[:3]

    def _item(self, item, ndmin, trans1d, device):
        from gpupy import arange, asarray, linspace

        if isinstance(item, slice):
            start, stop, step = _slice_parts(item)
            if isinstance(step, (complex, numpy.complexfloating)):
                out = linspace(start, stop, int(abs(step)), device=device)
            else:
                out = arange(start, stop, step, device=device)
            if ndmin > 1:
                out = out.reshape((1,) * (ndmin - 1) + out.shape)
                if trans1d != -1:
                    out = out.swapaxes(-1, trans1d)
            return out
        item_ndim = item.ndim if isinstance(item, _core.ndarray) else numpy.ndim(item)
        out = asarray(item, device=device)
        if out.ndim < ndmin:
            out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
        if trans1d != -1 and item_ndim < ndmin:
            k2, k1 = ndmin - item_ndim, trans1d
            k1 += k2 + 1 if k1 < 0 else 0
            axes = list(range(ndmin))
            out = out.transpose(axes[:k1] + axes[k2:] + axes[k1:k2])
        return out

    def __getitem__(self, key):
        from gpupy import asarray, concatenate, result_type

        key = key if isinstance(key, tuple) else (key,)
        # Scalars, lists and ranges join the first gpupy array's device (else the default).
        device = next((x.device for x in key if isinstance(x, _core.ndarray)), None)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, types = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError(f"[{self.name}] special directives must be the first entry")
                axis, ndmin, trans1d = self._directive(item)
                continue
            if type(item) in numpy.ScalarType:
                objs.append(item)
                types.append(item)
                continue
            objs.append(self._item(item, ndmin, trans1d, device))
            types.append(objs[-1].dtype)
        dtype = result_type(*types) if types else None
        arrays = []
        for o in objs:
            a = asarray(o, dtype=dtype, device=device)
            arrays.append(a.reshape((1,) * (ndmin - a.ndim) + a.shape) if a.ndim < ndmin else a)
        return concatenate(arrays, axis=axis)


r_ = _Concatenator("r_")
c_ = _Concatenator("c_", axis=-1, ndmin=2, trans1d=0)


class _IndexExpression:
    """s_ and index_exp: see numpy.s_ (the key as it is) and numpy.index_exp (always a tuple)."""

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        return (item,) if self.maketuple and not isinstance(item, tuple) else item


s_ = _IndexExpression(maketuple=False)
index_exp = _IndexExpression(maketuple=True)


class ndindex:  # noqa: N801 - NumPy's name
    """See numpy.ndindex: the index tuples of a shape in C order (no array is involved)."""

    def __init__(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], tuple):
            shape = shape[0]
        shape = tuple(operator.index(n) for n in shape)
        if any(n < 0 for n in shape):
            raise ValueError("[ndindex] negative dimensions are not allowed")
        self._it = itertools.product(*(range(n) for n in shape))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


class ndenumerate:  # noqa: N801 - NumPy's name
    """See numpy.ndenumerate: (index, value) pairs. A gpupy array is copied to the host once and
    its values come back as NumPy scalars."""

    def __init__(self, arr):
        host = arr.get() if isinstance(arr, _core.ndarray) else numpy.asarray(arr)
        self._it = numpy.ndenumerate(host)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)
