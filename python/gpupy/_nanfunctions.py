"""NaN-ignoring reductions (nansum ... nanpercentile) and quantile's interpolation methods.

See the NumPy functions of the same names. NaNs are masked with gpupy's own where/isnan, so the
work stays on the array's device; only the checks behind NumPy's all-NaN warnings and errors read
one boolean back. Integer and bool arrays hold no NaNs and go straight to the plain reduction.
"""

import math
import warnings

import numpy

from gpupy import _core
from gpupy._indexing import _axes
from gpupy._utilities import _into_out, _kept_axes
from gpupy._weighted_quantile import host_q, with_weights

_NO_VALUE = numpy._NoValue  # NumPy's "not given", which numpy.nansum(x, initial=...) forwards

__all__ = [
    "nanargmax",
    "nanargmin",
    "nancumprod",
    "nancumsum",
    "nanmax",
    "nanmean",
    "nanmedian",
    "nanmin",
    "nanpercentile",
    "nanprod",
    "nanquantile",
    "nanstd",
    "nansum",
    "nanvar",
]


def _arr(a):
    from gpupy import asarray

    return a if isinstance(a, _core.ndarray) else asarray(a)


def _inexact(a):
    return numpy.dtype(a.dtype).kind in "fc"


def _replace_nan(a, value, where=True, op=None):
    """(a with NaNs, and the elements where= masks out, replaced by value; the mask of the
    replaced elements, or None when there are none: a cannot hold NaNs and where= is True)."""
    from gpupy._reduction import _mask

    a = _arr(a)
    mask = _core.isnan(a) if _inexact(a) else None
    if where is not True:
        from gpupy import broadcast_to

        left_out = broadcast_to(_core.logical_not(_mask(op, a, where)), a.shape)
        mask = left_out if mask is None else _core.logical_or(mask, left_out)
    if mask is None:
        return a, None
    # in a's dtype: a bool array's stand-in for initial=3 is True, as NumPy casts initial
    return _core._where(mask, value, a).astype(a.dtype, copy=False), mask


def _inexact_dtype(a, dtype, op, out=None):
    """NumPy's nanmean/nanvar/nanstd refuse an integer (or bool) dtype= or out= for float or
    complex data."""
    if not _inexact(_arr(a)):
        return
    if dtype is not None and numpy.dtype(dtype).kind not in "fc":
        raise TypeError(f"[{op}] If a is inexact, then dtype must be inexact")
    if isinstance(out, _core.ndarray) and numpy.dtype(out.dtype).kind not in "fc":
        raise TypeError(f"[{op}] If a is inexact, then out must be inexact")


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """See numpy.nansum."""
    from gpupy._reduction import sum as total

    a, _ = _replace_nan(a, 0, where, "nansum")
    return total(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """See numpy.nanprod."""
    from gpupy._reduction import prod

    a, _ = _replace_nan(a, 1, where, "nanprod")
    return prod(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims, initial=initial)


def nancumsum(a, axis=None, dtype=None, out=None):
    """See numpy.nancumsum."""
    a, _ = _replace_nan(a, 0)
    return _core.cumsum(a, axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """See numpy.nancumprod."""
    a, _ = _replace_nan(a, 1)
    return _core.cumprod(a, axis=axis, dtype=dtype, out=out)


def _counts(mask, axis, keepdims):
    return _core.sum(_core.logical_not(mask), axis=axis, dtype="int64", keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """See numpy.nanmean; RuntimeWarning 'Mean of empty slice' where a slice is all NaN."""
    _inexact_dtype(a, dtype, "nanmean", out)
    arr, mask = _replace_nan(a, 0, where, "nanmean")
    if mask is None:  # no NaN possible: mean, with its warning for empty slices
        from gpupy._reduction import mean

        return mean(arr, axis=axis, dtype=dtype, out=out, keepdims=keepdims)
    cnt = _counts(mask, axis, keepdims)
    if dtype is None and not _inexact(arr):
        dtype = "float64"  # integers masked by where=: NumPy's mean of integers
    tot = _core.sum(arr, axis=axis, dtype=dtype, keepdims=keepdims)
    if bool(_core.any(cnt == 0)):
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    return _into_out("nanmean", (tot / cnt).astype(tot.dtype, copy=False), out)


def nanvar(
    a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
    correction=None,
):  # fmt: skip
    """See numpy.nanvar; RuntimeWarning 'Degrees of freedom <= 0 for slice.' (result NaN) where
    fewer than ddof + 1 values are not NaN. ``mean`` is a precomputed nanmean with
    keepdims=True, ``correction`` the Array API's name of ddof."""
    _inexact_dtype(a, dtype, "nanvar", out)
    if correction is not None:
        if ddof != 0:
            raise ValueError("[nanvar] ddof and correction can't be provided simultaneously.")
        ddof = correction
    arr, mask = _replace_nan(a, 0, where, "nanvar")
    if mask is None:
        from gpupy._reduction import var

        return var(arr, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, mean=mean)
    cnt = _counts(mask, axis, True)
    if dtype is None and not _inexact(arr):
        dtype = "float64"
    if mean is None:
        tot = _core.sum(arr, axis=axis, dtype=dtype, keepdims=True)
        avg = (tot / cnt).astype(tot.dtype, copy=False)
    else:
        avg = _arr(mean)
    dev = arr - avg
    if _inexact(arr):  # NumPy subtracts into arr itself: the data's dtype (float16 too)
        dev = dev.astype(arr.dtype, copy=False)
    dev = _core._where(mask, 0, dev)
    sq = (dev * _core.conjugate(dev)).real if numpy.dtype(dev.dtype).kind == "c" else dev * dev
    ss = _core.sum(sq, axis=axis, dtype=dtype, keepdims=keepdims)
    dof = (cnt if keepdims else _squeeze_like(cnt, ss)) - ddof
    bad = dof <= 0
    if bool(_core.any(bad)):
        warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=2)
    var = _core._where(bad, numpy.nan, ss / _core._where(bad, 1, dof))
    return _into_out("nanvar", var.astype(ss.dtype, copy=False), out)


def _squeeze_like(kept, target):
    return kept.reshape(target.shape)


def nanstd(
    a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
    correction=None,
):  # fmt: skip
    """See numpy.nanstd (``mean`` and ``correction`` as in nanvar)."""
    _inexact_dtype(a, dtype, "nanstd", out)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        var = nanvar(
            a, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims, where=where, mean=mean,
            correction=correction,
        )  # fmt: skip
    for w in caught:
        warnings.warn(w.message, w.category, stacklevel=2)
    return _into_out("nanstd", _core.sqrt(var), out)


def _nan_extreme(a, axis, out, keepdims, fill, reduce, op, initial=_NO_VALUE, where=True):
    if initial is not _NO_VALUE:
        # NaNs and masked-out elements take initial's place, and empty or all-NaN slices give it
        from gpupy import _reduction

        arr, _ = _replace_nan(a, initial, where, op)
        bounded = _reduction.max if reduce is _core.max else _reduction.min
        return bounded(arr, axis=axis, out=out, keepdims=keepdims, initial=initial)
    if where is not True:
        name = "fmax" if reduce is _core.max else "fmin"
        raise ValueError(
            f"[{op}] reduction operation '{name}' does not have an identity, so to use a where "
            "mask one has to specify 'initial'"
        )
    arr, mask = _replace_nan(a, fill)
    if mask is None:
        return reduce(arr, axis=axis, out=out, keepdims=keepdims)
    r = reduce(arr, axis=axis, keepdims=keepdims)
    all_nan = _core.all(mask, axis=axis, keepdims=keepdims)
    if bool(_core.any(all_nan)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        r = _core._where(all_nan, numpy.nan, r).astype(r.dtype, copy=False)
    return _into_out(op, r, out)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """See numpy.nanmin; NaN and a RuntimeWarning for all-NaN slices (initial, when given)."""
    return _nan_extreme(a, axis, out, keepdims, numpy.inf, _core.min, "nanmin", initial, where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
    """See numpy.nanmax; NaN and a RuntimeWarning for all-NaN slices (initial, when given)."""
    return _nan_extreme(a, axis, out, keepdims, -numpy.inf, _core.max, "nanmax", initial, where)


def _nan_arg(a, axis, out, keepdims, fill, reduce, arg, op):
    a = _arr(a)
    if not _inexact(a) or a.size == 0:  # no NaN to skip (argmin's error for an empty slice)
        return arg(a, axis=axis, out=out, keepdims=keepdims)
    mask = _core.isnan(a)
    if bool(_core.any(_core.all(mask, axis=axis))):
        raise ValueError(f"[{op}] All-NaN slice encountered")
    # The first position equal to the NaN-free extreme (NaN equals nothing, so it never wins).
    m = reduce(_core._where(mask, fill, a), axis=axis, keepdims=True)
    r = _core.argmax(a == m, axis=axis, keepdims=keepdims)
    return _into_out(op, r, out)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """See numpy.nanargmin; ValueError for all-NaN slices."""
    return _nan_arg(a, axis, out, keepdims, numpy.inf, _core.min, _core.argmin, "nanargmin")


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """See numpy.nanargmax; ValueError for all-NaN slices."""
    return _nan_arg(a, axis, out, keepdims, -numpy.inf, _core.max, _core.argmax, "nanargmax")


# ---- quantiles -----------------------------------------------------------------------------------

# Continuous methods: the virtual index is n q + alpha + q (1 - alpha - beta) - 1 (Hyndman & Fan).
_ALPHA_BETA = {
    "interpolated_inverted_cdf": (0.0, 1.0),
    "hazen": (0.5, 0.5),
    "weibull": (0.0, 0.0),
    "median_unbiased": (1 / 3, 1 / 3),
    "normal_unbiased": (3 / 8, 3 / 8),
}
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")
METHODS = ("linear", "averaged_inverted_cdf", "midpoint", *_ALPHA_BETA, *_DISCRETE)


def _gpupy_ops():
    """gpupy's ops under the NumPy names _virtual_index uses."""
    from types import SimpleNamespace

    from gpupy import floor

    return SimpleNamespace(
        floor=floor,
        ceil=_core.ceil,
        round=_core.round,
        where=_core._where,
        logical_and=_core.logical_and,
        remainder=_core.remainder,
    )


def _virtual_index(n, q, method, xp=None):
    """(virtual index, its kind: "interp", "averaged", "midpoint" or None for a discrete method)
    per slice; n is float64 counts. `xp` is numpy for counts on the host, else gpupy's ops."""
    xp = xp or _gpupy_ops()
    floor = xp.floor
    if method == "linear":
        return (n - 1) * q, "interp"
    if method in _ALPHA_BETA:
        alpha, beta = _ALPHA_BETA[method]
        return n * q + (alpha + q * (1 - alpha - beta)) - 1, "interp"
    if method == "averaged_inverted_cdf":
        return n * q - 1, "averaged"
    if method == "midpoint":
        return 0.5 * (floor((n - 1) * q) + xp.ceil((n - 1) * q)), "midpoint"
    if method == "lower":
        return floor((n - 1) * q), None
    if method == "higher":
        return xp.ceil((n - 1) * q), None
    if method == "nearest":
        return xp.round((n - 1) * q), None
    v = n * q - 1 - (0.5 if method == "closest_observation" else 0.0)
    prev = floor(v)
    take_prev = (v - prev) == 0
    if method == "closest_observation":
        take_prev = xp.logical_and(take_prev, xp.remainder(prev, 2) == 1)
    return xp.where(take_prev, prev, prev + 1), None


def _lerp(x0, x1, t):
    d = x1 - x0
    return _core._where(t >= 0.5, x1 - d * (1 - t), x0 + d * t)


def quantile_sorted(s, n, q, method, dtype=None, middle_mean=False):
    """The q-quantile of each row of s (the first n[row] values valid), NumPy's `method`; n is an
    int64 array of s.shape[:-1]. s need only be sorted at the positions _positions names.
    Interpolating methods compute in `dtype` (default: s's float dtype, float64 for integers).
    middle_mean: NumPy's median, the mean of the two middle values (inf for two infs, where
    'linear' interpolation gives NaN); it reads the positions 'linear' does for q = 0.5."""
    from gpupy import clip, expand_dims, take_along_axis

    nf = n.astype("float64")
    v, kind = _virtual_index(nf, q, method)
    last = _core.maximum(nf - 1, 0)

    def at(i):
        i = expand_dims(clip(i, 0, last).astype("int64"), -1)
        return take_along_axis(s, i, axis=-1)[..., 0]

    if middle_mean:
        dt = s.dtype if _inexact(s) else numpy.dtype("float64")
        lo, hi = at(_core.floor((nf - 1) / 2)).astype(dt), at(_core.floor(nf / 2)).astype(dt)
        return ((lo + hi) / 2).astype(dt, copy=False)

    if kind is None:
        return at(v)
    prev = _core.floor(v)
    gamma = v - prev
    if kind == "averaged":
        gamma = _core._where(gamma == 0, 0.5, 1.0)
    elif kind == "midpoint":
        gamma = _core._where(_core.remainder(v, 1) == 0, 0.0, 0.5)
    above, below = v >= nf - 1, v < 0
    prev = _core._where(above, last, _core._where(below, 0.0, prev))
    nxt = _core._where(above, last, _core._where(below, 0.0, prev + 1))
    if dtype is not None:
        dt = numpy.dtype(dtype)
    else:
        dt = s.dtype if _inexact(s) else numpy.dtype("float64")
    x0, x1 = at(prev).astype(dt), at(nxt).astype(dt)
    return _lerp(x0, x1, gamma.astype(dt) if numpy.dtype(dt).kind == "f" else gamma)


# Beyond this many positions to select, rows are sorted instead.
_MAX_KTH = 64


def _positions(counts, qs, method, row):
    """The positions quantile_sorted reads in rows of length `row` whose valid counts are among
    `counts` (host integers), sorted; None when there are too many to select."""
    nf = numpy.asarray(counts, dtype="float64")
    last = numpy.maximum(nf - 1, 0)
    kth = set()
    for q in qs:
        v, _ = _virtual_index(nf, q, method, numpy)
        # Every method reads floor(v) and floor(v) + 1, clipped to the valid values (a discrete
        # v is whole, a clipped one is 0 or last).
        prev = numpy.floor(v)
        for i in (prev, prev + 1):
            kth.update(numpy.clip(i, 0, last).astype(int).tolist())
    kth = sorted(k for k in kth if k < row)
    return kth if len(kth) <= _MAX_KTH else None


def _arranged(rows, n, qs, method):
    """`rows` with the values quantile_sorted reads (for the quantiles `qs`) where a sort puts
    them: selected at those positions, or sorted when they are too many or rows of unequal valid
    counts `n` (None: all values count) are off the cpu. Floats whose values all count select
    the last position too, for the NaN check."""
    from gpupy import sort

    m = rows.shape[-1]
    if n is None:
        counts, extra = (m,), ((m - 1,) if _inexact(rows) else ())
    else:  # the counts of the rows, read back on cpu only
        counts = numpy.unique(n.get()) if rows.device == _core.Device("cpu") else None
        extra = ()
    kth = None if counts is None or rows.size == 0 else _positions(counts, qs, method, m)
    if kth is None:
        return sort(rows, axis=-1)
    return _core.partition(rows, sorted(set(kth).union(extra)), axis=-1)


def refuse_bool_interpolation(a, method, op, axis):
    """NumPy's TypeError for quantiles of a bool array with a method that interpolates (subtracts
    neighbours, which NumPy refuses for booleans) rather than picks an element. A bad axis or
    nothing to reduce raises NumPy's earlier error further on."""
    if numpy.dtype(a.dtype) != numpy.bool_ or method in _DISCRETE:
        return
    axes = range(a.ndim) if axis is None else axis if isinstance(axis, tuple) else (axis,)
    try:
        if not all(a.shape[int(k)] for k in axes):
            return
    except (IndexError, TypeError, ValueError):
        return
    raise TypeError(
        f"[{op}] method {method!r} cannot interpolate between booleans (NumPy's boolean "
        "subtract is not supported); convert with astype or pick a method such as 'lower'"
    )


def _in_layout_of(r, like):
    """r copied into an array laid out as `like` (of r's shape) is, NumPy's order='K'."""
    from gpupy._creation import empty_like

    out = empty_like(like, dtype=r.dtype)
    out[...] = r
    return out


def _nanquantile(a, q, axis, out, method, keepdims, op, skip_nan=True, middle_mean=False):
    from gpupy import moveaxis

    if method not in METHODS:
        raise ValueError(f"[{op}] '{method}' is not a valid method. Use one of: {METHODS}")
    a = _arr(a)
    if numpy.dtype(a.dtype).kind == "c" and not middle_mean:  # nanmedian sorts complex values
        raise TypeError(f"[{op}] a must be an array of real numbers")
    # NumPy's medians average booleans as numbers; its nan-functions of empty input subtract none
    if op != "nanmedian" and (a.size or not skip_nan):
        refuse_bool_interpolation(a, method, op, axis)
    given = numpy.asarray(q.get() if isinstance(q, _core.ndarray) else q)
    qs = given.astype("float64")
    if qs.size and (numpy.any(qs < 0) or numpy.any(qs > 1)):
        raise ValueError(f"[{op}] Quantiles must be in the range [0, 1]")
    if skip_nan and a.size == 0:
        # NumPy answers an empty input with nanmean's (NaN, "Mean of empty slice"), whatever q
        return nanmean(a, axis=axis, out=out, keepdims=keepdims)
    # As NumPy: with a list, an array or a NumPy scalar of quantiles, interpolation runs in the
    # dtype of a and q together (a list is float64); integer data interpolates in float64.
    weak = given.ndim == 0 and not hasattr(q, "dtype")  # a Python float
    dt = None if weak else numpy.result_type(numpy.dtype(a.dtype), given.dtype)
    if dt is not None and dt.kind not in "fc":
        dt = numpy.dtype("float64")
    axes = tuple(sorted(_axes(axis, a.ndim, op)))
    # The reduced axes, moved last and merged into one, are the rows to select in.
    k = len(axes)
    a2 = moveaxis(a, axes, tuple(range(a.ndim - k, a.ndim))) if k else a
    rows = a2.reshape(a2.shape[: a.ndim - k] + (math.prod(a2.shape[a.ndim - k :]),))
    m = rows.shape[-1]
    if skip_nan and _inexact(rows):
        n = _counts(_core.isnan(rows), -1, False)
        # one warning per all-NaN slice, as NumPy's per-row loops give
        for _ in range(int(_core.sum(n == 0)) if m else 0):
            warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
        invalid = n == 0
        s = _arranged(rows, n, qs.reshape(-1).tolist(), method)
    else:
        n = _core.full(rows.shape[:-1], m, dtype="int64", device=rows.device)
        invalid = None
        s = _arranged(rows, None, qs.reshape(-1).tolist(), method)
    if invalid is None and _inexact(s) and m:
        # NaNs sort last: a NaN in the last place makes the whole row's quantile NaN.
        invalid = _core.isnan(s[..., -1])
    results = [quantile_sorted(s, n, qi, method, dt, middle_mean) for qi in qs.reshape(-1).tolist()]
    if invalid is not None:
        results = [
            _core._where(invalid, numpy.nan, r).astype(r.dtype) if _inexact(r) else r
            for r in results
        ]
    from gpupy import stack

    # C-ordered, as NumPy's (apply_along_axis) are, whatever layout the gathers left
    results = [x if x.flags.c_contiguous else x.copy() for x in results]
    kept = results[0].shape
    if qs.ndim and skip_nan and axis is not None and a.ndim > 1:
        # NumPy's nanquantile applies its 1-d function along the axis: the quantiles' axes lead
        # the result but are the innermost in memory
        r = stack(results, axis=-1).reshape(kept + qs.shape)
        r = moveaxis(r, tuple(range(len(kept), r.ndim)), tuple(range(qs.ndim)))
    else:
        r = results[0] if qs.ndim == 0 else stack(results).reshape(qs.shape + kept)
    if middle_mean and axis is not None and a.ndim > 1 and m < 600:
        # NumPy's nanmedian sorts rows shorter than 600 in place: its result keeps their layout
        r = _in_layout_of(r, rows[..., 0])
    if keepdims:
        r = _kept_axes(r, a.ndim, axes)
    # quantile and percentile (skip_nan False) add into out= under 'same_kind', as NumPy's
    return _into_out(op, r, out, "unsafe" if skip_nan else "same_kind")


def nanquantile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
    weights=None,
):  # fmt: skip
    """See numpy.nanquantile; all-NaN slices give NaN and a warning."""
    if weights is not None:
        return with_weights(a, q, axis, out, method, keepdims, weights, "nanquantile")
    return _nanquantile(a, q, axis, out, method, keepdims, "nanquantile")


def nanpercentile(
    a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
    weights=None,
):  # fmt: skip
    """See numpy.nanpercentile."""
    if weights is not None:
        return with_weights(a, q, axis, out, method, keepdims, weights, "nanpercentile", True)
    qs = host_q(q, "nanpercentile", percent=True)
    q = qs / 100 if hasattr(q, "dtype") or numpy.ndim(q) else q / 100
    return _nanquantile(a, q, axis, out, method, keepdims, "nanpercentile")


def quantile_method(a, q, axis, out, method, keepdims, op):
    """quantile/percentile with any of NumPy's methods (NaNs propagate as in NumPy)."""
    return _nanquantile(a, q, axis, out, method, keepdims, op, skip_nan=False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """See numpy.nanmedian."""
    a = _arr(a)
    if a.dtype == numpy.float16:
        # NumPy averages the middle values of float16 in float32 and rounds once.
        r = _nanquantile(
            a.astype("float32"), 0.5, axis, None, "linear", keepdims, "nanmedian", middle_mean=True
        )
        return _into_out("nanmedian", r.astype("float16"), out)
    return _nanquantile(a, 0.5, axis, out, "linear", keepdims, "nanmedian", middle_mean=True)
