"""Sorting by key, sums per key and compaction (see gpupy.cunumpy.algorithms) on the arrays'
backend: NumPy, gpupy on any device, CuPy. Device values are read back only where a result size
or a validation needs them; each such read is recorded as a `sync` event for count_transfers
(gpupy's gathers add one unrecorded read each: their index bounds check)."""

import math
import operator

import numpy

from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import is_gpu
from gpupy.cunumpy._checks import array_module, nonnegative_int

__all__ = [
    "SegmentPlan",
    "cell_offsets",
    "compact_by_mask",
    "segment_boundaries",
    "segment_sum",
    "sort_by_key",
]


def _on(xpm, like):
    """Creation keywords that put a new array next to `like` (gpupy creates on the default
    device otherwise)."""
    return {"device": like.device} if xpm.__name__ == "gpupy" else {}


def _sync(op, what, array):
    """Records that `array`, when it is on a device, is read back to the host now."""
    if profiling._active and is_gpu(array):
        profiling.record("sync", f"{op}: {what}")


def _read(op, what, array):
    """The value of a small array on the host (one read)."""
    _sync(op, what, array)
    return array.tolist()


def _integer_keys(op, keys, name="keys"):
    xpm = array_module(op, keys)
    keys = xpm.asarray(keys)
    if keys.ndim != 1:
        raise ValueError(f"[{op}] {name} must be 1-D, got shape {tuple(keys.shape)}")
    if numpy.dtype(keys.dtype).kind not in "iu":
        raise TypeError(f"[{op}] {name} must have an integer dtype, got {keys.dtype}")
    return xpm, keys


def _sorted_keys(op, keys, name):
    xpm, keys = _integer_keys(op, keys, name)
    if keys.shape[0] > 1 and _read(op, "sorted check", xpm.any(keys[1:] < keys[:-1])):
        raise ValueError(f"[{op}] {name} must be sorted in nondecreasing order")
    return xpm, keys


def _axes(op, what, n, arrays, axis):
    """The axis of each array that has the n entries (axis=-1: each array's last axis)."""
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"[{op}] axis must be an integer, got {type(axis).__name__}") from None
    axes = []
    for i, a in enumerate(arrays):
        if not -a.ndim <= axis < a.ndim:
            raise ValueError(f"[{op}] array {i} has {a.ndim} dimension(s), so no axis {axis}")
        ax = axis % a.ndim
        if a.shape[ax] != n:
            raise ValueError(
                f"[{op}] array {i} has shape {tuple(a.shape)}, expected {n} entries along "
                f"axis {axis} (one per {what})"
            )
        axes.append(ax)
    return axes


def segment_boundaries(sorted_keys):
    """The runs of equal keys in sorted integer keys: (unique_keys, starts, stops), run i being
    sorted_keys[starts[i]:stops[i]]. Sparse, negative and uint64 (Morton) keys are fine. On a
    device, two reads: the order check and the number of runs."""
    op = "segment_boundaries"
    xpm, keys = _sorted_keys(op, sorted_keys, "sorted_keys")
    n = keys.shape[0]
    if n == 0:
        empty = xpm.zeros(0, dtype=xpm.int64, **_on(xpm, keys))
        return keys.copy(), empty, empty.copy()
    _sync(op, "number of runs", keys)
    after = xpm.nonzero(keys[1:] != keys[:-1])[0].astype(xpm.int64) + 1
    starts = xpm.concatenate((xpm.zeros(1, dtype=xpm.int64, **_on(xpm, keys)), after))
    stops = xpm.concatenate((after, xpm.full(1, n, dtype=xpm.int64, **_on(xpm, keys))))
    return keys[starts], starts, stops


def cell_offsets(sorted_cells, n_cells):
    """n_cells + 1 int64 offsets: cell k is sorted_cells[offsets[k]:offsets[k + 1]] (empty cells
    have equal offsets). Cells must be sorted and in [0, n_cells): drop negative (invalid) cells
    first. On a device, one read for the checks."""
    op = "cell_offsets"
    n_cells = nonnegative_int(op, "n_cells", n_cells)
    xpm, cells = _integer_keys(op, sorted_cells, "sorted_cells")
    if cells.shape[0]:
        unsorted = xpm.any(cells[1:] < cells[:-1])
        outside = xpm.any(cells < 0) | xpm.any(cells >= n_cells)
        unsorted, outside = _read(op, "checks", xpm.stack((unsorted, outside)))
        if unsorted:
            raise ValueError(f"[{op}] sorted_cells must be sorted in nondecreasing order")
        if outside:
            raise ValueError(f"[{op}] cells must be in [0, n_cells) = [0, {n_cells})")
    bounds = xpm.arange(n_cells + 1, dtype=xpm.int64, **_on(xpm, cells))
    return xpm.searchsorted(cells, bounds, side="left").astype(xpm.int64)


class SegmentPlan:
    """Checked segment keys (1-D integers, a negative key drops its row), reused by repeated
    sum() calls. The keys are copied. Creating a plan reads the device once (the check that every
    key is below n_segments); sum() reads nothing back."""

    def __init__(self, keys, n_segments, *, _op="SegmentPlan"):
        self._op = _op
        self._n = nonnegative_int(_op, "n_segments", n_segments)
        self._xp, keys = _integer_keys(_op, keys)
        if keys.shape[0] and _read(_op, "key check", self._xp.any(keys >= self._n)):
            raise ValueError(
                f"[{_op}] keys must be smaller than n_segments={self._n}, the largest is "
                f"{int(keys.max())}"
            )
        self._keys = keys.astype(self._xp.int64, copy=True)
        if self._xp is numpy:
            valid = self._keys >= 0
            self._valid = None if valid.all() else valid
            self._valid_keys = self._keys if self._valid is None else self._keys[valid]

    @property
    def n_segments(self):
        """The number of segments (rows of a sum)."""
        return self._n

    def __repr__(self):
        return f"<SegmentPlan {self._keys.shape[0]} keys, {self._n} segments>"

    def sum(self, values, *, out=None):
        """out[k] = the sum of the rows values[i] with keys[i] == k (shape (n_segments, ...)).
        Float and complex dtypes are kept (float16 adds in float32); integers and booleans give
        float64. Rows add in index order on NumPy and on gpupy's cpu device (NumPy's add.at
        result); on cuda and emu they add by atomics, in an unspecified order."""
        op = self._op
        xpm = array_module(op, self._keys, values, *(() if out is None else (out,)))
        values = xpm.asarray(values)
        n = self._keys.shape[0]
        if values.ndim < 1 or values.shape[0] != n:
            raise ValueError(
                f"[{op}] values must have one row per key ({n}), got shape {tuple(values.shape)}"
            )
        kind = numpy.dtype(values.dtype).kind
        if kind not in "biufc":
            raise TypeError(f"[{op}] values must be numbers, got dtype {values.dtype}")
        dtype = numpy.dtype(values.dtype if kind in "fc" else numpy.float64)
        shape = (self._n, *values.shape[1:])
        out = self._output(xpm, out, shape, dtype, values)
        real = numpy.dtype(dtype.char.lower()) if dtype.kind == "c" else dtype
        width = math.prod(values.shape[1:]) * (2 if dtype.kind == "c" else 1)
        acc = numpy.dtype(numpy.float32) if real == numpy.float16 else real
        rows = xpm.ascontiguousarray(values.astype(dtype, copy=False))
        rows = (
            (rows.view(real) if dtype.kind == "c" else rows)
            .reshape(n, width)
            .astype(acc, copy=False)
        )
        if acc == real:
            out.fill(0)
            target = (out.view(real) if dtype.kind == "c" else out).reshape(self._n, width)
        else:
            target = xpm.zeros((self._n, width), dtype=acc, **_on(xpm, values))
        self._add(xpm, target, rows, width)
        if acc != real:
            out[...] = target.reshape(shape).astype(dtype)
        return out

    def _output(self, xpm, out, shape, dtype, values):
        op = self._op
        if out is None:
            return xpm.empty(shape, dtype=dtype, **_on(xpm, values))
        if tuple(out.shape) != shape or numpy.dtype(out.dtype) != dtype:
            raise ValueError(
                f"[{op}] out must have shape {shape} and dtype {dtype}, got shape "
                f"{tuple(out.shape)} and dtype {out.dtype}"
            )
        if not out.flags.c_contiguous:
            raise ValueError(f"[{op}] out must be C-contiguous")
        if not out.flags.writeable:
            raise ValueError(f"[{op}] out is read-only")
        if xpm.may_share_memory(out, values):
            raise ValueError(f"[{op}] out must not share memory with values")
        return out

    def _add(self, xpm, target, rows, width):
        """target[keys[i]] += rows[i] for every row with a valid key; target is zero."""
        if xpm is numpy:
            rows = rows if self._valid is None else rows[self._valid]
            if target.dtype == numpy.float64:  # bincount: add.at's sums (same order), faster
                for j in range(width):
                    target[:, j] = numpy.bincount(self._valid_keys, rows[:, j], self._n)
            else:
                numpy.add.at(target, self._valid_keys, rows)
        elif xpm.__name__ == "gpupy":
            from gpupy import _core

            index = self._keys  # bin_add skips indices outside the bins: negative keys drop out
            if width != 1:
                j = xpm.arange(width, dtype=xpm.int64, device=index.device)
                index = (index[:, None] * width + j).reshape(-1)
            _core.bin_add(target.reshape(-1), index, rows.reshape(-1))
        else:  # CuPy: dropped rows go to a spare row, so no boolean mask (and no read) is needed
            import cupyx

            spare = xpm.zeros((self._n + 1, width), dtype=target.dtype)
            cupyx.scatter_add(spare, xpm.where(self._keys >= 0, self._keys, self._n), rows)
            target[...] = spare[: self._n]


def segment_sum(values, keys, n_segments, out=None):
    """out[k] = the sum of the rows values[i] with keys[i] == k, for k < n_segments; rows with a
    negative key are dropped, a key >= n_segments is an error. Use SegmentPlan when the keys are
    reused (the key check reads the device once per plan)."""
    return SegmentPlan(keys, n_segments, _op="segment_sum").sum(values, out=out)


# NumPy's stable argsort of 16-bit integers is a radix sort: LSD radix over 16-bit digits beats
# its merge sort of 64-bit keys above a few thousand keys.
_RADIX_MIN_SIZE = 4096


def _radix_argsort(keys):
    """A stable argsort of integer NumPy keys: one uint16 argsort per 16-bit digit of the range."""
    low = int(keys.min())
    if keys.dtype == numpy.uint64:
        offsets = keys - numpy.uint64(low)
    else:  # offsets from the smallest key fit uint64 (modular subtraction of the int64 bits)
        offsets = keys.astype(numpy.int64).view(numpy.uint64) - numpy.uint64(low % 2**64)
    span = int(offsets.max())
    order = numpy.argsort((offsets & numpy.uint64(0xFFFF)).astype(numpy.uint16), kind="stable")
    shift = 16
    while span >> shift:
        digit = (offsets[order] >> numpy.uint64(shift)) & numpy.uint64(0xFFFF)
        order = order[numpy.argsort(digit.astype(numpy.uint16), kind="stable")]
        shift += 16
    return order


def sort_by_key(keys, *arrays, axis=0):
    """(keys[order], order, *each array taken by order along axis), order being the int64 stable
    argsort of the 1-D keys: equal keys keep their order. axis=-1 takes each array along its
    last axis (component-major (ncomp, n) markers next to (n,) arrays). The results are new
    arrays on the keys' backend."""
    op = "sort_by_key"
    xpm = array_module(op, keys, *arrays)
    keys = xpm.asarray(keys)
    if keys.ndim != 1:
        raise ValueError(f"[{op}] keys must be 1-D, got shape {tuple(keys.shape)}")
    axes = _axes(op, "key", keys.shape[0], arrays, axis)
    if xpm is numpy and keys.dtype.kind in "iu" and keys.shape[0] > _RADIX_MIN_SIZE:
        order = _radix_argsort(keys)
    else:
        order = xpm.argsort(keys, kind="stable")
    order = order.astype(xpm.int64, copy=False)
    taken = (xpm.take(a, order, axis=ax) for a, ax in zip(arrays, axes, strict=True))
    return (keys[order], order, *taken)


def compact_by_mask(mask, *arrays, axis=0):
    """Moves the entries where the 1-D boolean mask is True to the front of every array, in place
    and in their order, and returns their number n; entries from n on are unspecified. On a
    device the count is read back: one recorded read per call (plus, on gpupy, the bounds check
    of each array's gather)."""
    op = "compact_by_mask"
    xpm = array_module(op, mask, *arrays)
    mask = xpm.asarray(mask)
    if mask.ndim != 1 or mask.dtype != numpy.bool_:
        raise TypeError(
            f"[{op}] mask must be a 1-D boolean array, got dtype {mask.dtype} and shape "
            f"{tuple(mask.shape)}"
        )
    axes = _axes(op, "mask entry", mask.shape[0], arrays, axis)
    for i, a in enumerate(arrays):
        if not a.flags.writeable:
            raise ValueError(f"[{op}] array {i} is read-only")
    _sync(op, "number of kept entries", mask)
    rows = xpm.nonzero(mask)[0]
    n = int(rows.shape[0])
    for a, ax in zip(arrays, axes, strict=True):
        # the right-hand side is a new array, so the rows may move onto each other
        a[(slice(None),) * ax + (slice(0, n),)] = xpm.take(a, rows, axis=ax)
    return n
