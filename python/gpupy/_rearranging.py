"""Rearranging elements: append, insert, delete, resize, rotations and flips, block, trim_zeros,
ediff1d and the apply_* helpers; see the NumPy functions of the same names.

Everything runs on the array's device with gpupy's own operations. Where the result's shape
depends on data (``trim_zeros``, index arrays given as gpupy arrays to ``insert``/``delete``),
those few values are read back to the host, as the shape must be known there.
"""

import math

import numpy

from gpupy import _core
from gpupy._indexing import _axes, _axis, _int
from gpupy._manipulation import _arr

__all__ = [
    "append",
    "apply_along_axis",
    "apply_over_axes",
    "block",
    "delete",
    "ediff1d",
    "fliplr",
    "flipud",
    "insert",
    "resize",
    "rollaxis",
    "rot90",
    "trim_zeros",
]


def _at(axis, key):
    """An index tuple that applies `key` along `axis` and takes everything before it."""
    return (slice(None),) * axis + (key,)


def _flat_axis(arr, axis, op):
    # insert/delete/append: axis=None works on the flattened array.
    if axis is None:
        return (arr.ravel() if arr.ndim != 1 else arr), 0
    return arr, _axis(axis, arr.ndim, op)


def _host_index(obj):
    """An index argument as a NumPy array; gpupy arrays are read back (they decide the shape)."""
    return obj.get() if isinstance(obj, _core.ndarray) else numpy.array(obj)


def _fit(values, ndim):
    """Drops leading length-1 axes beyond `ndim`, as NumPy's assignment does."""
    extra = values.ndim - ndim
    if extra > 0 and all(n == 1 for n in values.shape[:extra]):
        return values.reshape(values.shape[extra:])
    return values


def append(arr, values, axis=None):
    """See numpy.append: a new array; axis=None flattens both inputs."""
    from gpupy import asarray, concatenate

    arr = _arr(arr)
    if not isinstance(values, _core.ndarray):
        values = asarray(values, device=arr.device)
    if axis is None:
        arr, values, axis = arr.ravel(), values.ravel(), 0
    return concatenate((arr, values), axis=_axis(axis, arr.ndim, "append"))


def insert(arr, obj, values, axis=None):
    """See numpy.insert: `obj` is an int, a slice or a sequence of ints (or booleans)."""
    from gpupy import asarray, empty, moveaxis

    arr, axis = _flat_axis(_arr(arr), axis, "insert")
    n = arr.shape[axis]
    if isinstance(obj, slice):
        indices = numpy.arange(*obj.indices(n), dtype=numpy.int64)
    else:
        indices = _host_index(obj)
        if indices.dtype == bool:
            if indices.ndim != 1:
                raise ValueError("[insert] boolean array argument obj must be one dimensional")
            indices = numpy.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("[insert] index array argument obj must be one dimensional or scalar")
        # an empty list is read as int indices, an empty float array is refused (as NumPy)
        empty_list = not indices.size and not isinstance(obj, (_core.ndarray, numpy.ndarray))
        if not empty_list and indices.dtype.kind not in "iu":
            if indices.size == 1:
                raise TypeError(f"[insert] index must be an integer, got {obj!r}")
            raise IndexError("[insert] index arrays must be of integer (or boolean) type")
    values_arr = asarray(values, dtype=arr.dtype, device=arr.device)
    shape = list(arr.shape)
    if indices.size == 1:
        index = int(indices.item())
        if not -n <= index <= n:
            raise IndexError(f"[insert] index {obj} is out of bounds for axis {axis} with size {n}")
        index += n if index < 0 else 0
        if values_arr.ndim < arr.ndim:
            values_arr = values_arr.reshape((1,) * (arr.ndim - values_arr.ndim) + values_arr.shape)
        if indices.ndim == 0:
            values_arr = moveaxis(values_arr, 0, axis)
        count = values_arr.shape[axis]
        shape[axis] += count
        new = empty(tuple(shape), arr.dtype, device=arr.device)
        new[_at(axis, slice(None, index))] = arr[_at(axis, slice(None, index))]
        new[_at(axis, slice(index, index + count))] = _fit(values_arr, arr.ndim)
        new[_at(axis, slice(index + count, None))] = arr[_at(axis, slice(index, None))]
        return new
    indices = indices.astype(numpy.int64)
    if indices.size and (indices.min() < -n or indices.max() > n):
        bad = indices[(indices < -n) | (indices > n)][0]
        raise IndexError(f"[insert] index {bad} is out of bounds for axis {axis} with size {n}")
    indices[indices < 0] += n
    # Each new item lands after the ones inserted before it (a stable sort keeps equal indices
    # in the order given).
    indices[numpy.argsort(indices, kind="stable")] += numpy.arange(indices.size)
    shape[axis] += indices.size
    old = numpy.ones(shape[axis], dtype=bool)
    old[indices] = False
    new = empty(tuple(shape), arr.dtype, device=arr.device)
    new[_at(axis, asarray(indices, device=arr.device))] = _fit(values_arr, arr.ndim)
    new[_at(axis, asarray(numpy.flatnonzero(old), device=arr.device))] = arr
    return new


def delete(arr, obj, axis=None):
    """See numpy.delete: `obj` is an int, a slice, a sequence of ints or a boolean mask."""
    from gpupy import asarray, take

    arr, axis = _flat_axis(_arr(arr), axis, "delete")
    n = arr.shape[axis]
    if isinstance(obj, (int, numpy.integer)) and not isinstance(obj, bool):
        if not -n <= obj < n:
            raise IndexError(f"[delete] index {obj} is out of bounds for axis {axis} with size {n}")
        obj = slice(obj % n, obj % n + 1)
    if isinstance(obj, slice):
        start, stop, step = obj.indices(n)
        count = len(range(start, stop, step))
        if abs(step) == 1:
            # One run of items goes: join what lies on either side (no index array to send).
            from gpupy import concatenate

            lo = start if step == 1 else start - count + 1
            kept = (arr[_at(axis, slice(None, lo))], arr[_at(axis, slice(lo + count, None))])
            return concatenate(kept, axis=axis)
        keep = numpy.ones(n, dtype=bool)
        keep[obj] = False
    else:
        index = _host_index(obj)
        if index.size == 0 and not isinstance(obj, (numpy.ndarray, _core.ndarray)):
            index = index.astype(numpy.int64)
        if index.dtype == bool:
            if index.shape != (n,):
                raise ValueError(
                    "[delete] boolean array argument obj must be one dimensional and match "
                    f"the axis length of {n}"
                )
            keep = ~index
        elif index.dtype.kind not in "iu":
            raise IndexError("[delete] index arrays must be of integer (or boolean) type")
        else:
            if index.size and (index.min() < -n or index.max() >= n):
                bad = index[(index < -n) | (index >= n)].flat[0]
                raise IndexError(
                    f"[delete] index {bad} is out of bounds for axis {axis} with size {n}"
                )
            keep = numpy.ones(n, dtype=bool)
            keep[index.ravel()] = False
    return take(arr, asarray(numpy.flatnonzero(keep), device=arr.device), axis=axis)


def resize(a, new_shape):
    """See numpy.resize: the data repeated (in C order) to fill `new_shape`; zeros when `a` is
    empty."""
    from gpupy import tile, zeros

    a = _arr(a)
    shape = (new_shape,) if isinstance(new_shape, (int, numpy.integer)) else tuple(new_shape)
    shape = tuple(_int(s, "resize", "new_shape") for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("[resize] all elements of `new_shape` must be non-negative")
    total = math.prod(shape)
    if total >= 2**63:
        raise OverflowError("[resize] the size of `new_shape` does not fit in 64-bit integers")
    if a.size == 0 or total == 0:
        return zeros(shape, a.dtype, device=a.device)
    flat = a.ravel()
    copies = -(-total // a.size)
    return (tile(flat, copies) if copies > 1 else flat)[:total].reshape(shape)


def rot90(m, k=1, axes=(0, 1)):
    """See numpy.rot90: a view of `m` rotated by 90 degrees `k` times in the plane of `axes`."""
    from gpupy import flip

    m = _arr(m)
    try:
        axes = tuple(axes)
    except TypeError:
        raise TypeError(f"[rot90] axes must be a pair of integers, not {axes!r}") from None
    axes = tuple(_int(ax, "rot90", "axes") for ax in axes)
    if len(axes) != 2:
        raise ValueError("[rot90] len(axes) must be 2")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("[rot90] axes must be different")
    if not all(-m.ndim <= ax < m.ndim for ax in axes):
        raise ValueError(f"[rot90] axes={axes} out of range for array of ndim={m.ndim}")
    k = _int(k, "rot90", "k") % 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    a0, a1 = axes[0] % m.ndim, axes[1] % m.ndim
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return flip(m, axes[1]).transpose(perm)
    return flip(m.transpose(perm), axes[1])


def fliplr(m):
    """See numpy.fliplr: a view with the second axis reversed."""
    m = _arr(m)
    if m.ndim < 2:
        raise ValueError("[fliplr] input must be >= 2-d")
    return m[:, ::-1]


def flipud(m):
    """See numpy.flipud: a view with the first axis reversed."""
    m = _arr(m)
    if m.ndim < 1:
        raise ValueError("[flipud] input must be >= 1-d")
    return m[::-1, ...]


def rollaxis(a, axis, start=0):
    """See numpy.rollaxis (a view); numpy.moveaxis is the clearer spelling."""
    a = _arr(a)
    n = a.ndim
    axis = _axis(axis, n, "rollaxis")
    start = _int(start, "rollaxis", "start")
    start += n if start < 0 else 0
    if not 0 <= start < n + 1:
        raise numpy.exceptions.AxisError(
            f"[rollaxis] 'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in"
        )
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    perm = [i for i in range(n) if i != axis]
    perm.insert(start, axis)
    return a.transpose(perm)


# ---- block -----------------------------------------------------------------------------------


def _block_depths(arrays, index=()):
    """(index of the first leaf, depth of the lists, largest leaf ndim), checking NumPy's rules:
    only lists nest, none is empty, and every leaf sits at the same depth."""
    if isinstance(arrays, tuple):
        raise TypeError(
            f"[block] arrays{''.join(f'[{i}]' for i in index)} is a tuple. Only lists can be "
            "used to arrange blocks, and np.block does not allow implicit conversion from "
            "tuple to ndarray."
        )
    if not isinstance(arrays, list):
        return index, len(index), numpy.ndim(arrays) if not hasattr(arrays, "ndim") else arrays.ndim
    if not arrays:
        raise ValueError(f"[block] list at arrays{''.join(f'[{i}]' for i in index)} is empty")
    first, depth, ndim = None, None, 0
    for i, item in enumerate(arrays):
        item_first, item_depth, item_ndim = _block_depths(item, index + (i,))
        if depth is not None and item_depth != depth:
            raise ValueError(
                f"[block] list depths are mismatched. First element was at depth {depth}, but "
                f"there is an element at depth {item_depth} "
                f"(arrays{''.join(f'[{j}]' for j in item_first)})"
            )
        if depth is None:
            first, depth = item_first, item_depth
        ndim = max(ndim, item_ndim)
    return first, depth, ndim


def block(arrays):
    """See numpy.block: nested lists of arrays joined along the last axes (innermost lists along
    the last axis)."""
    from gpupy import asarray, concatenate, result_type

    _, depth, leaf_ndim = _block_depths(arrays)
    ndim = max(depth, leaf_ndim)
    leaves = []

    def gather(x):
        if isinstance(x, list):
            return [gather(e) for e in x]
        a = x if isinstance(x, _core.ndarray) else asarray(x)
        leaves.append(a)
        return a.reshape((1,) * (ndim - a.ndim) + a.shape)

    nested = gather(arrays)
    dtype = result_type(*leaves)

    def join(x, level):
        if level == depth:
            return x.astype(dtype, copy=False)
        parts = [join(e, level + 1) for e in x]
        try:
            return concatenate(parts, axis=level - depth)
        except ValueError as exc:  # named as block's error, not concatenate's
            raise ValueError(f"[block] {str(exc).removeprefix('[concatenate] ')}") from None

    out = join(nested, 0)
    return out.copy() if depth == 0 or (len(leaves) == 1 and out._same_buffer(leaves[0])) else out


# ---- trim_zeros, ediff1d ---------------------------------------------------------------------


def _nonzero_bounds(a, axes):
    """Per axis in `axes`, the first and last index of a slice holding a nonzero, or None when
    all are zero; computed on the device and read back together in one transfer."""
    from gpupy import any as any_
    from gpupy import argmax, stack

    if a.size == 0:
        return [None] * len(axes)
    found = []
    for axis in axes:
        others = tuple(d for d in range(a.ndim) if d != axis)
        hits = any_(a != 0, axis=others) if others else a != 0
        n = hits.shape[0]
        last = (n - 1) - argmax(hits[::-1])
        found.append(stack([any_(hits).astype("int64"), argmax(hits), last]))
    host = stack(found).get()
    return [(int(first), int(last)) if has else None for has, first, last in host]


def trim_zeros(filt, trim="fb", axis=None):
    """See numpy.trim_zeros (NumPy 2.2's axis argument included): a view without the leading
    ('f') and trailing ('b') zeros; for n-d input, the bounding box of the nonzeros along `axis`
    (all axes by default). The bounds are read back to the host. A list comes back as a gpupy
    array (NumPy slices the list itself)."""
    a = _arr(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"[trim_zeros] unexpected character(s) in `trim`: {trim!r}")
    axes = _axes(axis, a.ndim, "trim_zeros")
    if not axes:
        return a
    key = [slice(None)] * a.ndim
    for ax, bounds in zip(axes, _nonzero_bounds(a, axes), strict=True):
        if bounds is None:
            key[ax] = slice(0, 0)
        else:
            key[ax] = slice(
                bounds[0] if "f" in trim else None, bounds[1] + 1 if "b" in trim else None
            )
    return a[tuple(key)]


def _ediff_edge(value, dtype, name, device):
    from gpupy import asarray, can_cast

    if value is None:
        return None
    edge = _arr(value)
    if not can_cast(edge.dtype, dtype, casting="same_kind"):
        raise TypeError(
            f"[ediff1d] dtype of `{name}` must be compatible with input `ary` under the "
            "`same_kind` rule."
        )
    return asarray(edge.ravel(), dtype=dtype, device=device)


def ediff1d(ary, to_end=None, to_begin=None):
    """See numpy.ediff1d: differences of the flattened array, with optional values before and
    after; the result has the dtype of `ary`."""
    from gpupy import concatenate

    a = _arr(ary).ravel()
    begin = _ediff_edge(to_begin, a.dtype, "to_begin", a.device)
    end = _ediff_edge(to_end, a.dtype, "to_end", a.device)
    diff = a[1:] - a[:-1]
    if diff.dtype != a.dtype:
        diff = diff.astype(a.dtype)
    parts = [p for p in (begin, diff, end) if p is not None]
    return concatenate(parts) if len(parts) > 1 else diff


# ---- apply_along_axis, apply_over_axes --------------------------------------------------------


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """See numpy.apply_along_axis. `func1d` receives gpupy 1-d views of `arr` (on its device),
    one call per slice, so this suits few slices; whole-array operations are faster."""
    from gpupy import asarray, empty, moveaxis

    arr = _arr(arr)
    axis = _axis(axis, arr.ndim, "apply_along_axis")
    moved = moveaxis(arr, axis, -1)
    outer = moved.shape[:-1]
    if any(n == 0 for n in outer):
        raise ValueError(
            "[apply_along_axis] cannot apply_along_axis when any iteration dimensions are 0"
        )
    positions = iter(numpy.ndindex(outer))
    first_pos = next(positions)
    first = asarray(func1d(moved[first_pos], *args, **kwargs), device=arr.device)
    out = empty(outer + first.shape, first.dtype, device=arr.device)
    out[first_pos] = first
    for pos in positions:
        out[pos] = asarray(func1d(moved[pos], *args, **kwargs), device=arr.device)
    # The result's own axes take the place of `axis`.
    order = list(range(len(outer)))
    res_axes = list(range(len(outer), out.ndim))
    return out.transpose(order[:axis] + res_axes + order[axis:])


def apply_over_axes(func, a, axes):
    """See numpy.apply_over_axes: ``func(a, axis)`` repeatedly, keeping the reduced axes."""
    from gpupy import expand_dims

    a = _arr(a)
    n = a.ndim
    for axis in numpy.atleast_1d(axes).tolist():
        axis += n if axis < 0 else 0
        res = _arr(func(a, axis))
        if res.ndim != a.ndim:
            res = expand_dims(res, axis)
            if res.ndim != a.ndim:
                raise ValueError(
                    "[apply_over_axes] function is not returning an array of the correct shape"
                )
        a = res
    return a
