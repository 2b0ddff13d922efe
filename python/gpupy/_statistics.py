"""average, cov, corrcoef, ptp, histogram2d and histogramdd: see the NumPy functions of the same
names. Everything is composed of gpupy operations and runs on the data's device; the only values
read back to the host are the checks NumPy makes (weights summing to zero, negative weights) and
histogramdd's bin edges (a handful of numbers, as gpupy.histogram computes them).
"""

import builtins
import operator

import numpy

from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy._indexing import _axes
from gpupy._utilities import _into_out

__all__ = ["average", "corrcoef", "cov", "histogram2d", "histogramdd", "ptp"]


def _weights_along(a, w, axes):
    """w reshaped to broadcast against a, as NumPy's average accepts it."""
    if w.shape == a.shape:
        return w
    if axes is None:
        raise TypeError("[average] Axis must be specified when shapes of a and weights differ.")
    if w.shape != tuple(a.shape[ax] for ax in axes):
        raise ValueError(
            "[average] Shape of weights must be consistent with shape of a along specified axis."
        )
    w = _core.permute_dims(w, tuple(numpy.argsort(axes)))
    return w.reshape(tuple(s if d in axes else 1 for d, s in enumerate(a.shape)))


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """See numpy.average."""
    from gpupy import broadcast_to, full, sum

    a, weights = device_arrays("average", a, weights, optional=(1,))
    axes = None if axis is None else _axes(axis, a.ndim, "average")
    if weights is None:
        avg = _core.mean(a, axes, None, None, bool(keepdims))
        if avg.size == 0:
            # NumPy's a.size / avg.size: an empty result is a ZeroDivisionError there too.
            raise ZeroDivisionError("[average] division by zero (the average is empty)")
        scl = full(avg.shape, a.size / avg.size, dtype=avg.dtype, device=a.device)
    else:
        w = _weights_along(a, weights, axes)
        kinds = numpy.dtype(a.dtype).kind
        extra = ("f8",) if kinds in "biu" else ()
        dt = numpy.result_type(a.dtype, w.dtype, *extra)
        scl = sum(w, axis=axes, dtype=dt, keepdims=bool(keepdims))
        if scl.size and bool(_core.any(scl == 0)):
            raise ZeroDivisionError("[average] Weights sum to zero, can't be normalized")
        avg = sum(a.astype(dt) * w.astype(dt), axis=axes, keepdims=bool(keepdims)) / scl
    if not returned:
        return avg
    if scl.shape != avg.shape:
        scl = broadcast_to(scl, avg.shape).copy()
    return avg, scl


def ptp(a, axis=None, out=None, keepdims=False):
    """See numpy.ptp: max - min (integers wrap around as in NumPy)."""
    (a,) = device_arrays("ptp", a)
    # NumPy's maximum.reduce reads an integer axis 0 or -1 on a 0-d array as "no axis".
    zero_d_axis = a.ndim == 0 and not isinstance(axis, tuple) and axis in (0, -1)
    axes = () if zero_d_axis else None if axis is None else _axes(axis, a.ndim, "ptp")
    if a.size == 0 and (axes is None or any(a.shape[ax] == 0 for ax in axes)):
        raise ValueError(
            "[ptp] zero-size array to reduction operation maximum which has no identity"
        )
    if numpy.dtype(a.dtype).kind == "b":
        raise TypeError("[ptp] numpy boolean subtract is not supported, use bitwise_xor instead")
    hi = _core.max(a, axes, None, bool(keepdims))
    lo = _core.min(a, axes, None, bool(keepdims))
    result = hi - lo
    if out is not None:
        return _into_out("ptp", result, out, "same_kind")
    return result


def _cov_inputs(m, y, rowvar, dtype):
    m, y = device_arrays("cov", m, y, optional=(1,))
    if m.ndim > 2:
        raise ValueError("[cov] m has more than 2 dimensions")
    if y is not None and y.ndim > 2:
        raise ValueError("[cov] y has more than 2 dimensions")
    if dtype is None:
        dtype = numpy.result_type(m.dtype, *(() if y is None else (y.dtype,)), numpy.float64)
    x = m.astype(dtype).reshape((1,) * (2 - m.ndim) + m.shape)
    if not rowvar and m.ndim != 1:
        x = x.T
    if y is not None:
        y = y.astype(dtype).reshape((1,) * (2 - y.ndim) + y.shape)
        if not rowvar and y.shape[0] != 1:
            y = y.T
        if x.shape[0] and y.shape[1] != x.shape[1]:
            raise ValueError("[cov] m and y must have the same number of observations")
    return x, y


def _cov_weights(name, w, n, device):
    from gpupy import asarray

    w = asarray(w, dtype="float64", device=device)
    if w.ndim > 1:
        raise RuntimeError(f"[cov] cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"[cov] incompatible numbers of samples and {name}")
    if bool(_core.any(w < 0)):
        raise ValueError(f"[cov] {name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """See numpy.cov."""
    from gpupy import concatenate, conj, empty, matmul, round

    if ddof is not None and ddof != int(ddof):
        raise ValueError("[cov] ddof must be integer")
    x, y = _cov_inputs(m, y, rowvar, dtype)
    if x.shape[0] == 0:
        return empty((0, 0), dtype="float64", device=x.device)
    if y is not None:
        x = concatenate([x, y], axis=0)
    ddof = (0 if bias else 1) if ddof is None else int(ddof)
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = _cov_weights("fweights", fweights, n, x.device)
        if not bool(_core.all(w == round(w))):
            raise TypeError("[cov] fweights must be integer")
    if aweights is not None:
        aw = _cov_weights("aweights", aweights, n, x.device)
        w = aw if w is None else w * aw
    avg, w_sum = average(x, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        fact = float(n - ddof)
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _core.sum(w * aw) / w_sum
    if isinstance(fact, _core.ndarray) and numpy.dtype(fact.dtype).kind == "c":
        fact = _core.real(fact)  # the weights are real: complex data gives a complex sum, imag 0
    if float(fact) <= 0:  # a read back of a weighted count: NumPy's check, for its warning
        import warnings

        warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning, stacklevel=2)
        fact = 0.0
    x = x - avg[:, None]
    xt = (x if w is None else x * w).T
    c = matmul(x, conj(xt))
    # NumPy scales by 1/fact in c's precision (inf when no degrees of freedom are left).
    real_dt = numpy.empty(0, c.dtype).real.dtype
    if isinstance(fact, float):
        with numpy.errstate(divide="ignore"):
            recip = numpy.true_divide(1.0, fact)
        return (c * float(recip)).squeeze()
    return (c * (1.0 / fact).astype(real_dt)).squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """See numpy.corrcoef."""
    from gpupy import clip, diagonal, imag, real, sqrt

    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim != 2:
        return c / c
    stddev = sqrt(real(diagonal(c)))
    c = c / stddev[:, None] / stddev[None, :]
    if numpy.dtype(c.dtype).kind == "c":
        return clip(real(c), -1, 1) + 1j * clip(imag(c), -1, 1)
    return clip(c, -1, 1)


# ---- multi-dimensional histograms --------------------------------------------------------------


def _sample_columns(sample):
    """histogramdd's sample as (N, D) on one device: an (N, D) array or a sequence of D arrays."""
    from gpupy import stack

    if isinstance(sample, (list, tuple)):
        cols = device_arrays("histogramdd", *sample)
        if cols and all(c.ndim == 0 for c in cols):  # a list of numbers: one coordinate (D = 1)
            return stack(cols)[:, None]
        if any(c.ndim != 1 for c in cols) or len({c.shape for c in cols}) > 1:
            raise ValueError("[histogramdd] the sample coordinates must be 1-D of one length")
        return stack(cols, axis=1) if cols else None
    (s,) = device_arrays("histogramdd", sample)
    if s.ndim == 2:
        return s
    return s.reshape((1,) * (2 - s.ndim) + s.shape).T if s.ndim < 2 else None


def _dim_edges(col, bins, range_, i):
    from gpupy import asarray

    if numpy.ndim(bins) == 0:
        if bins < 1:
            raise ValueError(f"[histogramdd] `bins[{i}]` must be positive, when an integer")
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError(
                f"[histogramdd] `bins[{i}]` must be an integer, when a scalar"
            ) from None
        from gpupy._histograms import _range_of

        first, last = _range_of(col, range_, "histogramdd")
        return asarray(numpy.linspace(first, last, n + 1), device=col.device)
    if numpy.ndim(bins) != 1:
        raise ValueError(f"[histogramdd] `bins[{i}]` must be a scalar or 1d array")
    edges = asarray(bins, device=col.device)
    if edges.size > 1 and bool(_core.any(edges[:-1] > edges[1:])):
        raise ValueError(
            f"[histogramdd] `bins[{i}]` must be monotonically increasing, when an array"
        )
    return edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """See numpy.histogramdd: (hist, [edges per dimension]); hist is float64."""
    from gpupy import ravel_multi_index, searchsorted, where

    s = _sample_columns(sample)
    if s is None:
        raise ValueError("[histogramdd] sample must be an (N, D) array or a sequence of D arrays")
    n, d = s.shape
    try:
        if len(bins) != d:
            raise ValueError(
                "[histogramdd] The dimension of bins must be equal to the dimension of the "
                "sample x."
            )
    except TypeError:
        bins = d * [bins]
    if range is None:
        range = (None,) * d
    elif len(range) != d:
        raise ValueError("[histogramdd] range argument must have one entry per dimension")
    if weights is not None:
        weights, _ = device_arrays("histogramdd", weights, s)
        weights = weights.reshape(-1)
        if weights.shape[0] != n:
            raise ValueError("[histogramdd] weights must have one entry per sample")
    edges, index = [], []
    for i in builtins.range(d):
        col = s[:, i]
        e = _dim_edges(col, bins[i], range[i], i)
        # Bin i holds [e_i, e_i+1); values on the last edge go in the last bin (NumPy's rule).
        dt = numpy.result_type(col.dtype, e.dtype)
        k = searchsorted(e.astype(dt, copy=False), col.astype(dt, copy=False), side="right")
        index.append(where(col == e[-1], k - 1, k))
        edges.append(e)
    nbin = tuple(e.shape[0] + 1 for e in edges)
    # In range by construction: "clip" skips the bounds check and its read back to the host.
    flat = ravel_multi_index(tuple(index), nbin, mode="clip")
    from gpupy._histograms import _bin_sums

    hist = _bin_sums(flat, weights, int(numpy.prod(nbin)), s.device)
    hist = hist.astype("float64").reshape(nbin)[(slice(1, -1),) * d]
    if density:
        total = _core.sum(hist)
        for i, e in enumerate(edges):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            hist = hist / _core.diff(e).reshape(tuple(shape))
        hist = hist / total
    return hist, edges


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002
    """See numpy.histogram2d: (hist, xedges, yedges)."""
    x, y = device_arrays("histogram2d", x, y)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("[histogram2d] x and y must be 1-D arrays of the same length")
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb not in (1, 2):
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]
