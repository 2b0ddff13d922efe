"""Views with chosen shapes and strides: see numpy.lib.stride_tricks.

They are views of the input's memory on its device; gpupy refuses a view that would reach outside
that memory or misalign items (NumPy does not check, and can crash).
"""

import operator

import numpy

from gpupy._indexing import _axis, _int
from gpupy._manipulation import _arr

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """See numpy.lib.stride_tricks.as_strided: strides in bytes; a view of ``x``'s memory
    (read-only when ``writeable`` is False or ``x`` is read-only)."""
    x = _arr(x)
    shape = x.shape if shape is None else _int64s(shape, "shape")
    strides = x.strides if strides is None else _int64s(strides, "strides")
    return x._strided_view(shape, strides, 0, None, not writeable, "as_strided")


def _int64s(values, what):
    values = tuple(operator.index(v) for v in values)
    if any(not -(2**63) <= v < 2**63 for v in values):
        raise OverflowError(f"[as_strided] {what} {values} do not fit in 64-bit integers")
    return values


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """See numpy.lib.stride_tricks.sliding_window_view: a (read-only by default) view whose
    last axes run over each window."""
    x = _arr(x)
    op = "sliding_window_view"
    window = tuple(window_shape) if numpy.iterable(window_shape) else (window_shape,)
    window = tuple(_int(w, op, "window_shape") for w in window)
    if any(w < 0 for w in window):
        raise ValueError(f"[{op}] `window_shape` cannot contain negative values")
    if axis is None:
        axes = tuple(range(x.ndim))
        if len(window) != len(axes):
            raise ValueError(
                f"[{op}] since axis is `None`, must provide window_shape for all dimensions of "
                f"`x`; got {len(window)} window_shape elements and `x.ndim` is {x.ndim}."
            )
    else:
        axes = (axis,) if isinstance(axis, (int, numpy.integer)) else tuple(axis)
        axes = tuple(_axis(ax, x.ndim, op) for ax in axes)
        if len(window) != len(axes):
            raise ValueError(
                f"[{op}] must provide matching length window_shape and axis; got "
                f"{len(window)} window_shape elements and {len(axes)} axes elements."
            )
    shape = list(x.shape)
    for ax, w in zip(axes, window, strict=True):
        if shape[ax] < w:
            raise ValueError(f"[{op}] window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    strides = x.strides + tuple(x.strides[ax] for ax in axes)
    return x._strided_view(tuple(shape) + window, strides, 0, None, not writeable, op)
