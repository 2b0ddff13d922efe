"""quantile/percentile/nanquantile/nanpercentile with weights= (NumPy 2's method='inverted_cdf').

Each row is sorted with its weights; the answer is the first value whose cumulative weight (as a
fraction of the row's total) reaches q, found by counting the smaller fractions on the device.
"""

import math
import warnings

import numpy
from numpy.lib.array_utils import normalize_axis_tuple

from gpupy import _core
from gpupy._utilities import _into_out, _kept_axes


def _valid_weights(a, weights, axis, op):
    """NumPy's checks of the weights, which are returned broadcast to a's shape."""
    from gpupy import asarray, broadcast_to, transpose

    w = weights if isinstance(weights, _core.ndarray) else asarray(weights, device=a.device)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError(f"[{op}] Axis must be specified when shapes of a and weights differ.")
        if w.shape != tuple(a.shape[ax] for ax in axis):
            raise ValueError(
                f"[{op}] Shape of weights must be consistent with shape of a along specified axis."
            )
        w = transpose(w, tuple(numpy.argsort(axis))) if w.ndim > 1 else w
        w = w.reshape(tuple(s if ax in axis else 1 for ax, s in enumerate(a.shape)))
    if bool(_core.any(w < 0)):
        raise ValueError(f"[{op}] Weights must be non-negative.")
    return broadcast_to(w, a.shape)


def weighted_quantile(a, q, axis, out, method, keepdims, weights, op, skip_nan):
    """The weighted inverted_cdf quantile of a (q already in [0, 1], a NumPy array or scalar)."""
    from gpupy import all as all_
    from gpupy import any as any_
    from gpupy import asarray, count_nonzero, cumsum, moveaxis, stack, take_along_axis

    a = a if isinstance(a, _core.ndarray) else asarray(a)
    if numpy.dtype(a.dtype).kind == "c":
        raise TypeError(f"[{op}] a must be an array of real numbers")
    if method != "inverted_cdf":
        raise ValueError(f"[{op}] Only method 'inverted_cdf' supports weights. Got: {method}.")
    axes = None if axis is None else normalize_axis_tuple(axis, a.ndim, argname="axis")
    w = _valid_weights(a, weights, axes, op)
    reduced = tuple(range(a.ndim)) if axes is None else tuple(sorted(axes))
    k = len(reduced)
    last = tuple(range(a.ndim - k, a.ndim))
    a2, w2 = moveaxis(a, reduced, last), moveaxis(w, reduced, last)
    rows_shape = a2.shape[: a.ndim - k] + (math.prod(a2.shape[a.ndim - k :]),)
    rows, wrows = a2.reshape(rows_shape), w2.reshape(rows_shape)
    nan = _core.isnan(rows) if numpy.dtype(a.dtype).kind == "f" else None
    if skip_nan and nan is not None:  # NaNs drop out with their weights
        wrows = _core._where(nan, 0, wrows)
    order = _core.argsort(rows, axis=-1, kind="stable")
    s, ws = take_along_axis(rows, order, axis=-1), take_along_axis(wrows, order, axis=-1)
    cdf = cumsum(ws, axis=-1, dtype="float64")
    if rows_shape[-1]:
        total = cdf[..., -1:]
        cdf = cdf / total
        broken = _core.isnan(cdf[..., -1])
        if skip_nan and nan is not None and bool(any_(all_(nan, axis=-1))):
            # an all-NaN row is NaN (NumPy drops the NaNs first and answers before the weights)
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
            broken = _core.logical_and(broken, _core.logical_not(all_(nan, axis=-1)))
        if bool(any_(broken)):
            raise ValueError(f"[{op}] Weights included NaN, inf or were all zero.")
    qs = numpy.asarray(q)
    if qs.dtype.kind == "f":  # NumPy compares in q's precision
        cdf = cdf.astype(qs.dtype)
    cdf = _core._where(cdf == 0, -1, cdf)  # leading zero weights never hold a quantile
    n = rows_shape[-1]
    results = []
    for qi in qs.reshape(-1).tolist():
        idx = _core.minimum(count_nonzero(cdf < qi, axis=-1, keepdims=True), max(n - 1, 0))
        r = take_along_axis(s, idx, axis=-1)[..., 0] if n else s.sum(axis=-1) * numpy.nan
        if nan is not None:  # a NaN sorts last: in quantile it makes the row's answer NaN
            spoiled = all_(nan, axis=-1) if skip_nan else any_(nan, axis=-1)
            r = _core._where(spoiled, numpy.nan, r).astype(r.dtype)
        results.append(r)
    r = results[0] if qs.ndim == 0 else stack(results).reshape(qs.shape + results[0].shape)
    if keepdims:
        r = _kept_axes(r, a.ndim, reduced)
    if out is not None:
        return _into_out(op, r, out, "unsafe" if skip_nan else "same_kind")
    return r


def host_q(q, op, percent=False):
    """q as a host NumPy array, after NumPy's range check: [0, 100] for percentiles, [0, 1] for
    quantiles (the quantile functions read q on the host to plan their gathers)."""
    qs = numpy.asarray(q.get() if isinstance(q, _core.ndarray) else q)
    if qs.dtype == object and any(v is None for v in qs.flat):  # NumPy: "'<' not supported"
        raise TypeError(f"[{op}] q must be a number or an array of numbers, got None")
    top, what = (100, "Percentiles") if percent else (1, "Quantiles")
    if qs.size and (numpy.any(qs < 0) or numpy.any(qs > top)):
        raise ValueError(f"[{op}] {what} must be in the range [0, {top}]")
    return qs


def with_weights(a, q, axis, out, method, keepdims, weights, op, percent=False):
    """The public functions' weights= path: NumPy checks q first."""
    qs = host_q(q, op, percent)
    qs = qs / 100 if percent else qs
    return weighted_quantile(a, qs, axis, out, method, keepdims, weights, op, op.startswith("nan"))
