"""Sorting, searching, counting and cumulative ops, re-exported under NumPy's names.

See the NumPy functions of the same names. Every sort is stable whatever ``kind=``; the Array API's
``descending=`` is accepted too (NaNs then come first, ties keep their order).
"""

import math
import warnings

import numpy
from numpy.lib.array_utils import normalize_axis_tuple

from gpupy import _core
from gpupy._core import (  # noqa: F401
    argsort,
    count_nonzero,
    cumprod,
    cumsum,
    cumulative_prod,
    cumulative_sum,
    diff,
    searchsorted,
    sort,
)
from gpupy._utilities import _into_out, _kept_axes
from gpupy._weighted_quantile import host_q, with_weights


def _as_gpupy(a):
    from gpupy._creation import asarray

    return a if isinstance(a, _core.ndarray) else asarray(a)


def _selected_along(a, axis, name, positions, complex_ok=False):
    """`a` (flattened when axis is None) partitioned along `axis` so that each of
    `positions(n)` (n: the axis length) holds the value a sort puts there, with the last
    position too for inexact types (NaNs sort last, and _nan_if_any reads it); and the axis
    used."""
    from gpupy._indexing import _axis

    a = _as_gpupy(a)
    if numpy.dtype(a.dtype).kind == "c" and not complex_ok:
        raise TypeError(f"[{name}] a must be an array of real numbers")
    if axis is None:
        a, axis = a.reshape(-1), 0
    elif not isinstance(axis, int):
        raise NotImplementedError(f"[{name}] only a single axis or None is supported")
    axis = _axis(axis, a.ndim, name)
    n = a.shape[axis]
    kth = set(positions(n))
    if numpy.dtype(a.dtype).kind in "fc":
        kth.add(n - 1)
    return _core.partition(a, sorted(k for k in kth if 0 <= k < n), axis=axis), axis


def _along(s, axis, i):
    return s[(slice(None),) * (axis % s.ndim) + (i,)]


def _nan_if_any(result, s, axis):
    # NaNs sort last: a NaN in the last place spreads into the result (0/0 is NaN, 0/1 is 0).
    if numpy.dtype(s.dtype).kind not in "fc" or s.shape[axis] == 0:
        return result
    if numpy.dtype(s.dtype).kind == "c":  # NumPy gives the NaN element itself (1+nanj)
        last = _along(s, axis, -1)
        return _core._where(_core.isnan(last), last, result).astype(result.dtype, copy=False)
    clean = _core.logical_not(_core.isnan(_along(s, axis, -1))).astype(result.dtype)
    return result + 0.0 / clean


def _keep(result, a_shape, axis, keepdims, flat):
    if not keepdims:
        return result
    ndim = len(a_shape)
    return _kept_axes(result, ndim, range(ndim) if flat else (axis % ndim,))


def _is_bool(x):
    return isinstance(x, bool) or numpy.dtype(getattr(x, "dtype", object)) == numpy.bool_


def quantile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
    weights=None,
):  # fmt: skip
    """See numpy.quantile."""
    if weights is not None:
        return with_weights(a, q, axis, out, method, keepdims, weights, "quantile")
    if method == "linear" and _is_bool(a) and _is_bool(q):
        method = "lower"  # quantiles 0 and 1 pick elements: NumPy keeps booleans then
    if method != "linear" or not (axis is None or isinstance(axis, int)):
        from gpupy._nanfunctions import quantile_method

        return quantile_method(a, q, axis, out, method, keepdims, "quantile")
    from gpupy._nanfunctions import refuse_bool_interpolation

    a = _as_gpupy(a)
    refuse_bool_interpolation(a, method, "quantile", axis)
    qs = host_q(q, "quantile")
    q_list = qs.reshape(-1).tolist()

    def bounds(n):  # the positions each quantile reads, and its weight between them
        for qi in q_list:
            pos = qi * (n - 1)
            lo = int(numpy.floor(pos))
            yield lo, min(lo + 1, n - 1), pos - lo

    def positions(n):
        return [i for lo, hi, _ in bounds(n) for i in (lo, hi)]

    s, ax = _selected_along(a, axis, "quantile", positions)
    dt = numpy.result_type(
        numpy.dtype(a.dtype), q if numpy.ndim(q) == 0 and not hasattr(q, "dtype") else qs.dtype
    )
    if dt.kind not in "fc":
        dt = numpy.dtype("float64")
    results = []
    for lo, hi, t in bounds(s.shape[ax]):
        # C-ordered, as NumPy's quantiles are (it reads them with take)
        x0, x1 = (_along(s, ax, i).astype(dt.name, order="C") for i in (lo, hi))
        # NumPy's lerp: from the nearer end, so that t = 0 and t = 1 are exact.
        r = x1 - (x1 - x0) * (1 - t) if t >= 0.5 else x0 + (x1 - x0) * t
        results.append(_nan_if_any(r, s, ax))
    if qs.ndim == 0:
        result = results[0]
    else:
        result = _core.empty(
            (len(results),) + tuple(results[0].shape), dtype=dt.name, device=a.device
        )
        for i, r in enumerate(results):
            result[i] = r
        result = result.reshape(qs.shape + tuple(results[0].shape))
    result = _keep(result, a.shape, ax, keepdims, axis is None)
    return _into_out("quantile", result, out, "same_kind")


def percentile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
    weights=None,
):  # fmt: skip
    """See numpy.percentile."""
    if weights is not None:
        return with_weights(a, q, axis, out, method, keepdims, weights, "percentile", True)
    qs = host_q(q, "percentile", percent=True)
    q = qs / 100 if hasattr(q, "dtype") or numpy.ndim(q) else q / 100
    return quantile(a, q, axis, out, overwrite_input, method, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """See numpy.median."""
    empty = _empty_median(a, axis, keepdims)
    if empty is not None:
        if out is not None:
            return _into_out("median", empty, out, "same_kind")
        return empty
    a = _as_gpupy(a)
    if isinstance(axis, numpy.integer):
        axis = int(axis)
    if not (axis is None or isinstance(axis, int)):
        # several axes: moved last and merged into one, whatever the dtype (complex included)
        from gpupy._indexing import _axes
        from gpupy._manipulation import moveaxis

        axes = tuple(sorted(_axes(axis, a.ndim, "median")))
        k = len(axes)
        moved = moveaxis(a, axes, tuple(range(a.ndim - k, a.ndim)))
        merged = math.prod(a.shape[ax] for ax in axes)  # not -1: the kept axes may be empty
        result = median(moved.reshape(moved.shape[: a.ndim - k] + (merged,)), axis=-1)
        if keepdims:
            result = _kept_axes(result, a.ndim, axes)
        if out is not None:
            return _into_out("median", result, out, "same_kind")
        return result
    # NumPy's median takes complex values too (sorted lexicographically)
    s, ax = _selected_along(a, axis, "median", lambda n: (n // 2 - 1, n // 2), complex_ok=True)
    dt = numpy.dtype(a.dtype) if numpy.dtype(a.dtype).kind in "fc" else numpy.dtype("float64")
    n = s.shape[ax]
    mid = _along(s, ax, n // 2).astype(dt.name)
    result = mid if n % 2 else (_along(s, ax, n // 2 - 1).astype(dt.name) + mid) / 2
    result = _keep(_nan_if_any(result, s, ax), a.shape, ax, keepdims, axis is None)
    if out is not None:
        return _into_out("median", result, out, "same_kind")
    return result


def _empty_median(a, axis, keepdims):
    """NumPy's median over an empty axis: NaN (the mean of an empty slice), else None."""
    a = _as_gpupy(a)
    if a.ndim == 0 or a.size:
        return None
    axes = normalize_axis_tuple(range(a.ndim) if axis is None else axis, a.ndim, "[median] axis")
    if all(a.shape[i] for i in axes):
        return None  # the reduced axes are not empty: an empty result, computed as usual
    warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
    kind = numpy.dtype(a.dtype).kind
    dt = a.dtype if kind in "fc" else "float64"
    shape = tuple(1 if i in axes else n for i, n in enumerate(a.shape) if keepdims or i not in axes)
    return _core.full(shape, numpy.nan, dtype=dt, device=a.device)


__all__ = [
    "argsort",
    "count_nonzero",
    "cumprod",
    "cumsum",
    "cumulative_prod",
    "cumulative_sum",
    "diff",
    "median",
    "percentile",
    "quantile",
    "searchsorted",
    "sort",
]
