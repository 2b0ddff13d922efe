"""numpy.pad on gpupy arrays: every NumPy mode, computed on the array's device.

The padded array is allocated once, the input copied into its middle, and the pad areas filled
one axis after another (each axis sees the areas earlier axes have filled), as NumPy does, so the
corners agree with NumPy's. pad_width, stat_length, constant_values and end_values given as gpupy
arrays are read back to the host: they size the result or are used as per-axis scalars.
"""

import numpy

from gpupy import _core
from gpupy._creation_extra import _linspace
from gpupy._manipulation import _arr

__all__ = ["pad"]

_MODE_KWARGS = {
    "constant": {"constant_values"},
    "edge": set(),
    "empty": set(),
    "linear_ramp": {"end_values"},
    "maximum": {"stat_length"},
    "mean": {"stat_length"},
    "median": {"stat_length"},
    "minimum": {"stat_length"},
    "reflect": {"reflect_type"},
    "symmetric": {"reflect_type"},
    "wrap": set(),
}


def _pairs(x, ndim, as_index=False):
    """pad_width, stat_length, constant_values or end_values as one (before, after) per axis."""
    if x is None:
        return [(None, None)] * ndim
    x = numpy.array(x.get() if isinstance(x, _core.ndarray) else x)
    if as_index:
        x = numpy.round(x).astype(numpy.int64)
    if as_index and x.size and x.min() < 0:
        raise ValueError("[pad] index can't contain negative values")
    # One value or one pair stays a NumPy scalar (strongly typed: linear_ramp computes in
    # float64 for float32 arrays), one pair per axis becomes Python numbers, as in NumPy.
    if x.ndim < 3 and x.size == 1:
        return [(x.ravel()[0],) * 2] * ndim
    if x.ndim < 3 and x.size == 2 and x.shape != (2, 1):
        return [tuple(x.ravel())] * ndim
    try:
        return [tuple(p) for p in numpy.broadcast_to(x, (ndim, 2)).tolist()]
    except ValueError:
        raise ValueError(
            f"[pad] operands could not be broadcast: shape {x.shape} does not fit ({ndim}, 2)"
        ) from None


def _pad_width(pad_width, ndim):
    if isinstance(pad_width, dict):
        pairs = [(0, 0)] * ndim
        for axis, width in pad_width.items():
            pairs[axis] = (width, width) if isinstance(width, int) else tuple(width)
        pad_width = pairs
    host = numpy.asarray(pad_width.get() if isinstance(pad_width, _core.ndarray) else pad_width)
    if host.dtype.kind not in "iu":
        raise TypeError("[pad] `pad_width` must be of integral type.")
    return [(int(b), int(a)) for b, a in _pairs(host, ndim, as_index=True)]


def _at(axis, key):
    return (slice(None),) * axis + (key,)


def _edges(roi, axis, before, after):
    n = roi.shape[axis]
    return roi[_at(axis, slice(before, before + 1))], roi[
        _at(axis, slice(n - after - 1, n - after))
    ]


def _fill(roi, axis, before, after, left, right):
    n = roi.shape[axis]
    if before:
        roi[_at(axis, slice(0, before))] = left
    if after:
        roi[_at(axis, slice(n - after, n))] = right


def _ramp(edge, end, width, axis, dtype):
    """NumPy's linspace(end, edge, width, endpoint=False, dtype=dtype) along `axis`."""
    from gpupy import floor

    ramp = _linspace(end, edge.squeeze(axis), width, False, axis, edge.device, "pad")[0]
    return (floor(ramp) if numpy.dtype(dtype).kind in "iu" else ramp).astype(dtype)


def _complex_median(chunk, axis):
    """NumPy's median of complex values (gpupy.median takes real ones): the middle of the
    lexicographic sort, or the NaN that sorts last when there is one."""
    from gpupy import full, isnan, sort, where

    n = chunk.shape[axis]
    if n == 0:
        shape = chunk.shape[:axis] + (1,) + chunk.shape[axis + 1 :]
        return full(shape, complex(numpy.nan, numpy.nan), chunk.dtype, device=chunk.device)
    s = sort(chunk, axis=axis)
    k = n // 2
    mid = s[_at(axis, slice(k, k + 1))]
    if n % 2 == 0:
        mid = s[_at(axis, slice(k - 1, k))] + mid
    # NumPy takes the mean of the middle one or two: a complex division even by 1, which turns
    # an infinite part's partner into nan (-inf+0j becomes -inf+nanj).
    mid = mid / (2 - n % 2)
    last = s[_at(axis, slice(n - 1, n))]
    return where(isnan(last), last, mid)


def _stat(chunk, axis, mode, dtype):
    from gpupy import amax, amin, mean, median, round

    if mode == "maximum":
        return amax(chunk, axis=axis, keepdims=True)
    if mode == "minimum":
        return amin(chunk, axis=axis, keepdims=True)
    if mode == "median" and numpy.dtype(dtype).kind == "c":
        return _complex_median(chunk, axis).astype(dtype)
    value = (mean if mode == "mean" else median)(chunk, axis=axis, keepdims=True)
    if numpy.dtype(dtype).kind in "iu":
        value = round(value)
    return value.astype(dtype)


def _stats(roi, axis, before, after, lengths, mode):
    n = roi.shape[axis]
    lo, hi = before, n - after  # the valid (not yet padded) part of this axis
    valid = hi - lo
    left_len = valid if lengths[0] is None else min(lengths[0], valid)
    right_len = valid if lengths[1] is None else min(lengths[1], valid)
    if (left_len == 0 or right_len == 0) and mode in ("maximum", "minimum"):
        raise ValueError("[pad] stat_length of 0 yields no value for padding")
    left = _stat(roi[_at(axis, slice(lo, lo + left_len))], axis, mode, roi.dtype)
    if left_len == right_len == valid:
        return left, left
    return left, _stat(roi[_at(axis, slice(hi - right_len, hi))], axis, mode, roi.dtype)


def _reflect(roi, axis, before, after, odd, period, include_edge):
    """Fills as much of the pad areas as one reflection of the filled part reaches; returns the
    widths still to fill."""
    n = roi.shape[axis]
    filled = n - before - after
    if include_edge:
        chunk_max, edge_offset = filled // period * period, 1
    else:
        chunk_max, edge_offset = (filled - 1) // (period - 1) * (period - 1), 0
    if before:
        k = min(chunk_max, before)
        stop = before - edge_offset  # >= 0: the pad area is not empty
        src = roi[_at(axis, slice(stop + k, stop, -1))]
        if odd:
            src = 2 * roi[_at(axis, slice(before, before + 1))] - src
        roi[_at(axis, slice(before - k, before))] = src
        before -= k
    if after:
        k = min(chunk_max, after)
        stop = n - after - 1 + edge_offset - 1  # the item mirrored onto the first pad slot
        src = roi[_at(axis, slice(stop, stop - k if stop - k >= 0 else None, -1))]
        if odd:
            src = 2 * roi[_at(axis, slice(n - after - 1, n - after))] - src
        roi[_at(axis, slice(n - after, n - after + k))] = src
        after -= k
    return before, after


def _wrap(roi, axis, before, after, period):
    n = roi.shape[axis]
    filled = (n - before - after) // period * period
    if before:
        k = min(filled, before)
        roi[_at(axis, slice(before - k, before))] = roi[
            _at(axis, slice(before + filled - k, before + filled))
        ]
        before -= k
    if after:
        k = min(filled, after)
        start = n - after - filled
        roi[_at(axis, slice(n - after, n - after + k))] = roi[_at(axis, slice(start, start + k))]
        after -= k
    return before, after


def _check_kwargs(mode, kwargs):
    if mode not in _MODE_KWARGS:
        raise ValueError(f"[pad] mode '{mode}' is not supported")
    extra = set(kwargs) - _MODE_KWARGS[mode]
    if extra:
        raise ValueError(f"[pad] unsupported keyword arguments for mode '{mode}': {extra}")


def _pad_callable(function, padded, widths, kwargs):
    from gpupy import moveaxis

    for axis in range(padded.ndim):
        view = moveaxis(padded, axis, -1)
        for pos in numpy.ndindex(view.shape[:-1]):
            function(view[pos], widths[axis], axis, kwargs)
    return padded


def pad(array, pad_width, mode="constant", **kwargs):
    """See numpy.pad: every mode (constant, edge, linear_ramp, maximum, mean, median, minimum,
    reflect, symmetric, wrap, empty, or a function called on gpupy 1-d views), pad_width as an
    int, a pair, one pair per axis or a dict {axis: width}."""
    from gpupy import empty, zeros

    a = _arr(array)
    widths = _pad_width(pad_width, a.ndim)
    if not callable(mode):
        _check_kwargs(mode, kwargs)
    shape = tuple(n + b + e for n, (b, e) in zip(a.shape, widths, strict=True))
    # Every mode fills all the pad areas; a function is handed zeros there, as in NumPy.
    padded = (zeros if callable(mode) else empty)(shape, a.dtype, device=a.device)
    inner = tuple(slice(b, b + n) for n, (b, _) in zip(a.shape, widths, strict=True))
    padded[inner] = a
    if callable(mode):
        return _pad_callable(mode, padded, widths, kwargs)
    if mode == "empty":
        return padded
    if mode != "constant" and a.size == 0:
        for axis, (b, e) in enumerate(widths):
            if a.shape[axis] == 0 and (b or e):
                raise ValueError(
                    f"[pad] can't extend empty axis {axis} using modes other than 'constant' "
                    "or 'empty'"
                )
        return padded
    _fill_axes(a, padded, inner, widths, mode, kwargs)
    return padded


def _fill_axes(a, padded, inner, widths, mode, kwargs):
    values = _pairs(kwargs.get("constant_values", 0), a.ndim)
    ends = _pairs(kwargs.get("end_values", 0), a.ndim)
    lengths = _pairs(kwargs.get("stat_length"), a.ndim, as_index=True)
    odd = kwargs.get("reflect_type", "even") == "odd"
    for axis, (before, after) in enumerate(widths):
        if not before and not after and mode not in ("maximum", "minimum", "constant"):
            continue  # (NumPy checks stat_length even for axes without padding)
        # Axes up to this one at full (padded) extent, the later ones still unpadded.
        roi = padded[(slice(None),) * (axis + 1) + inner[axis + 1 :]]
        if mode == "constant":
            # As NumPy: each side is set to an element of numpy.array(constant_values), a NumPy
            # scalar that converts as setitem's do (-1 into uint8 gives 255, 2**40 into int16
            # raises), also when the side is empty
            left, right = (numpy.asarray(v)[()] for v in values[axis])
            n = roi.shape[axis]
            roi[_at(axis, slice(0, before))] = left
            roi[_at(axis, slice(n - after, n))] = right
        elif mode == "edge" or (mode in ("reflect", "symmetric") and a.shape[axis] == 1):
            _fill(roi, axis, before, after, *_edges(roi, axis, before, after))
        elif mode == "linear_ramp":
            left, right = _edges(roi, axis, before, after)
            start, stop = ends[axis]
            left_ramp = _ramp(left, start, before, axis, a.dtype)
            right_ramp = _ramp(right, stop, after, axis, a.dtype)[_at(axis, slice(None, None, -1))]
            _fill(roi, axis, before, after, left_ramp, right_ramp)
        elif mode in ("maximum", "minimum", "mean", "median"):
            _fill(roi, axis, before, after, *_stats(roi, axis, before, after, lengths[axis], mode))
        elif mode == "wrap":
            while before or after:
                before, after = _wrap(roi, axis, before, after, a.shape[axis])
        else:
            while before or after:
                before, after = _reflect(
                    roi, axis, before, after, odd, a.shape[axis], mode == "symmetric"
                )
