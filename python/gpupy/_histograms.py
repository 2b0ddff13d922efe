"""bincount, histogram, histogram_bin_edges and digitize: the counting runs on the data's device
through one adding pattern (_core.bin_add, bins[index[k]] += weight[k]).

See the NumPy functions of the same names. Equal-width bins (an integer or a string `bins`) get
their indices as NumPy's histogram computes them, arithmetically and then corrected against the
edges (one device pass, _core._uniform_bin_index); other edges by searchsorted. Both follow NumPy's
edge rules exactly (bins half open, the last one closed). On cpu the weighted
sums add in NumPy's order (bit for bit); on cuda they are atomic adds, in an unspecified order.
Bin edges are computed as NumPy computes them (on the host: they are a handful of numbers).
String bins use NumPy's estimators (all but 'stone'), from device reductions.
"""

import operator
import warnings

import numpy

from gpupy import _core

__all__ = ["bincount", "digitize", "histogram", "histogram_bin_edges"]

# NumPy's weighted histogram with equal bins sums blocks of this many values in float64 and adds
# the block sums in the weights' dtype; gpupy follows it so that float sums match bit for bit.
_NUMPY_BLOCK = 65536


def _arr(a, device=None):
    from gpupy import asarray

    return a if isinstance(a, _core.ndarray) else asarray(a, device=device)


def _bin_sums(index, weights, n, device):
    """bincount's result for bin indices already in [0, n) (others are skipped): int64 counts, or
    float64 sums of the weights."""
    from gpupy import zeros

    bins = zeros((n,), "int64" if weights is None else "float64", device=device)
    _core.bin_add(bins, index, weights)
    return bins


def bincount(x, /, weights=None, minlength=0):
    """See numpy.bincount. On cuda the weighted sums are atomic adds, in an unspecified order."""
    if isinstance(x, (list, tuple)) and len(x) == 0:
        x = _arr(numpy.zeros(0, "int64"))  # NumPy reads a list as intp: [] is no float array
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("[bincount] x must be a 1-D array of non-negative integers")
    kind = numpy.dtype(x.dtype).kind
    if kind not in "biu":
        raise TypeError(
            f"[bincount] Cannot cast array data from dtype('{x.dtype}') to dtype('int64') "
            "according to the rule 'safe'"
        )
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("[bincount] 'minlength' must not be negative")
    if not x.size:  # NumPy returns int64 zeros before it looks at the weights
        return _core.zeros((minlength,), "int64", x.device)
    if x.dtype == numpy.uint64:  # NumPy reads it as int64: 2**63 and above are negative
        x = x.astype(numpy.int64)
        kind = "i"
    if kind == "i" and int(_core.min(x)) < 0:
        raise ValueError("[bincount] 'list' argument must have no negative elements")
    n = max(int(_core.max(x)) + 1, minlength)
    if weights is None:
        return _bin_sums(x, None, n, x.device)
    w = _arr(weights, x.device)
    if w.shape != x.shape:
        raise ValueError("[bincount] The weights and list don't have the same length.")
    if numpy.dtype(w.dtype).kind == "c":
        raise TypeError("[bincount] weights must be real numbers")
    return _bin_sums(x, w, n, x.device)


def _range_of(a, range_, op):
    if range_ is not None:
        first, last = range_
        if first > last:
            raise ValueError(f"[{op}] max must be larger than min in range parameter.")
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"[{op}] supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        # NumPy scalars of a's dtype, as NumPy's a.min() gives: they set linspace's precision.
        first, last = _core.min(a).get()[()], _core.max(a).get()[()]
        if not (numpy.isfinite(first) and numpy.isfinite(last)):
            raise ValueError(f"[{op}] autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _ptp(x):
    # in x's dtype, as NumPy's estimators (signed integers subtract as their unsigned type)
    return _unsigned_subtract(_core.max(x).get()[()], _core.min(x).get()[()])


def _width_sqrt(x):
    return _ptp(x) / numpy.sqrt(x.size)


def _width_sturges(x):
    return _ptp(x) / (numpy.log2(x.size) + 1.0)


def _width_rice(x):
    return _ptp(x) / (2.0 * x.size ** (1.0 / 3))


def _width_scott(x):
    return (24.0 * numpy.pi**0.5 / x.size) ** (1.0 / 3.0) * float(_core.std(x))


def _width_fd(x):
    from gpupy import percentile

    q75, q25 = percentile(x, [75, 25]).get()
    return 2.0 * float(q75 - q25) * x.size ** (-1.0 / 3.0)


def _width_doane(x):
    if x.size <= 2:
        return 0.0
    sg1 = numpy.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
    sigma = float(_core.std(x))
    if sigma <= 0.0:
        return 0.0
    g1 = float(_core.mean(((x - _core.mean(x)) / sigma) ** 3))
    return _ptp(x) / (1.0 + numpy.log2(x.size) + numpy.log2(1.0 + abs(g1) / sg1))


def _width_auto(x):
    # NumPy 2.3+: the FD width is at least half the sqrt width, which bounds the number of bins
    fd = max(_width_fd(x), _width_sqrt(x) / 2)
    return min(fd, _width_sturges(x))


# NumPy's bin-width estimators (numpy.histogram_bin_edges), computed from device reductions.
_WIDTHS = {
    "auto": _width_auto,
    "doane": _width_doane,
    "fd": _width_fd,
    "rice": _width_rice,
    "scott": _width_scott,
    "sqrt": _width_sqrt,
    "sturges": _width_sturges,
}


def _estimated_bins(a, name, range_, weights, op):
    """The number of equal bins NumPy's estimator `name` picks for a."""
    from gpupy import compress

    if name == "stone":
        raise NotImplementedError(f"[{op}] the 'stone' bin estimator is not supported")
    if name not in _WIDTHS:
        raise ValueError(f"[{op}] {name!r} is not a valid estimator for `bins`")
    if weights is not None:
        raise TypeError(
            f"[{op}] Automated estimation of the number of bins is not supported for weighted data"
        )
    if a.dtype == numpy.bool_:  # NumPy's histograms read booleans as uint8
        a = a.astype(numpy.uint8)
    first, last = _range_of(a, range_, op)
    if range_ is not None:
        a = compress(_core.logical_and(a >= first, a <= last), a)
    if a.size == 0:
        return 1
    width = _WIDTHS[name](a)
    if not width:
        return 1
    if numpy.dtype(a.dtype).kind in "iu" and width < 1:
        width = 1
    return int(numpy.ceil(_unsigned_subtract(last, first) / width))


def _bin_edges(a, bins, range_, op, weights=None):
    """The edges as a gpupy array on a's device."""
    return _bins_and_range(a, bins, range_, op, weights)[0]


def _bins_and_range(a, bins, range_, op, weights=None):
    """The edges as a gpupy array on a's device and, for equal-width bins, NumPy's outer edges
    (first, last) as it computes them (else None)."""
    from gpupy import any as any_

    if isinstance(bins, str):
        bins = _estimated_bins(a, bins, range_, weights, op)
    if numpy.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError(f"[{op}] `bins` must be an integer, a string, or an array") from None
        if n < 1:
            raise ValueError(f"[{op}] `bins` must be positive, when an integer")
        first, last = _range_of(a, range_, op)
        dt = numpy.result_type(first, last, numpy.dtype(a.dtype))
        if dt.kind not in "fc":
            dt = numpy.dtype("float64")
        edges = numpy.linspace(first, last, n + 1, endpoint=True, dtype=dt)
        if numpy.any(edges[:-1] >= edges[1:]):
            raise ValueError(
                f"[{op}] Too many bins for data range. Cannot create {n} finite-sized bins."
            )
        return _arr(edges, a.device), (first, last)
    edges = _arr(bins, a.device)
    if edges.ndim != 1:
        raise ValueError(f"[{op}] `bins` must be 1d, when an array")
    # Neighbours compared as NumPy does, not subtracted: an integer difference can overflow.
    if edges.size > 1 and bool(any_(edges[:-1] > edges[1:])):
        raise ValueError(f"[{op}] `bins` must increase monotonically, when an array")
    return edges, None


def _unsigned_subtract(x, y):
    """x - y as NumPy's histogram takes it: signed integers subtract as their unsigned type."""
    dt = numpy.result_type(x, y)
    if dt.kind != "i":
        return numpy.subtract(x, y, dtype=dt)
    unsigned = numpy.dtype(dt.str.replace("i", "u"))
    return numpy.subtract(
        numpy.asarray(x, dt), numpy.asarray(y, dt), casting="unsafe", dtype=unsigned
    )


def _uniform_bins(a, edges, outer, range_):
    """The arguments of _core._uniform_bin_index that reproduce NumPy's equal-bins arithmetic for
    `a`, or None where its promotion leaves float32/float64 (float16, integer range bounds with
    integer data): those go through searchsorted."""
    first, last = outer
    x_dt, e_dt = numpy.dtype(a.dtype), numpy.dtype(edges.dtype)
    if x_dt.kind not in "iuf" or (x_dt.kind == "f" and x_dt.itemsize < 4):
        return None
    wide = (numpy.dtype("float32"), numpy.dtype("float64"))
    if e_dt not in wide:
        return None
    keep = [-numpy.inf, numpy.inf]  # an autodetected range holds every element
    if range_ is not None:
        for k, bound in enumerate((first, last)):
            # NumPy compares a with the bound in their promoted dtype, exactly as in float64.
            p = numpy.result_type(numpy.empty(0, x_dt), bound)
            if p not in wide:
                return None
            keep[k] = float(p.type(bound))
    sub = numpy.result_type(numpy.empty(0, e_dt), first)
    denom = _unsigned_subtract(last, first)
    div = numpy.result_type(numpy.empty(0, sub), denom)
    if sub not in wide or div not in wide:
        return None
    single = numpy.dtype("float32")
    return (*keep, float(sub.type(first)), float(div.type(denom)), sub == single, div == single)


def _flat_sample(a):
    """The histogram's data, flat; booleans as uint8 with NumPy's RuntimeWarning."""
    a = _arr(a).reshape(-1)
    if a.dtype == numpy.bool_:
        warnings.warn(
            f"Converting input from {a.dtype} to {numpy.uint8} for compatibility.",
            RuntimeWarning,
            stacklevel=3,
        )
        a = a.astype(numpy.uint8)
    return a


def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002 - NumPy's name
    """See numpy.histogram_bin_edges (every bin estimator but 'stone')."""
    a = _flat_sample(a)
    return _bin_edges(a, bins, range, "histogram_bin_edges", weights)


def _weighted_hist(index, w, n, blocked):
    """NumPy's weighted histogram sums, in the weights' dtype (int64 for bool weights): float64
    bin sums, per block of _NUMPY_BLOCK values when `blocked` (NumPy's equal-bins path), added
    in that dtype; complex weights sum their real and imaginary parts apart."""
    kind = numpy.dtype(w.dtype).kind
    if kind == "c":
        re = _weighted_hist(index, _core.real(w), n, blocked)
        return re + 1j * _weighted_hist(index, _core.imag(w), n, blocked)
    ntype = "int64" if kind == "b" else w.dtype
    step = _NUMPY_BLOCK if blocked else max(index.size, 1)
    hist = None
    for i in range(0, max(index.size, 1), step):
        part = _bin_sums(index[i : i + step], w[i : i + step], n, w.device).astype(ntype)
        hist = part if hist is None else hist + part
    return hist


def histogram(a, bins=10, range=None, density=None, weights=None):  # noqa: A002 - NumPy's name
    """See numpy.histogram (every bin estimator but 'stone'). On cuda weighted sums are atomic
    adds, in an unspecified order."""
    from gpupy import searchsorted, where
    from gpupy import sum as sum_

    a = _flat_sample(a)
    if numpy.dtype(a.dtype).kind == "c":
        raise TypeError("[histogram] complex data is not supported")
    edges, outer = _bins_and_range(a, bins, range, "histogram", weights)
    equal_bins = outer is not None
    n = edges.size - 1
    uniform = _uniform_bins(a, edges, outer, range) if equal_bins else None
    if uniform is not None:
        index = _core._uniform_bin_index(a, edges, *uniform)
    else:
        dt = numpy.result_type(a.dtype, edges.dtype)
        s, e = a.astype(dt, copy=False), edges.astype(dt, copy=False)
        # Bins are [e_i, e_i+1) except the last, [e_n-1, e_n]: NumPy's rule. Values outside the
        # edges (and NaN) get index -1 or n, which bin_add skips.
        index = searchsorted(e, s, side="right") - 1
        index = where(s == e[-1:], n - 1, index)
    if weights is None:
        hist = _bin_sums(index, None, n, a.device)
    else:
        w = _arr(weights, a.device).reshape(-1)
        if w.shape != a.shape:
            raise ValueError("[histogram] weights should have the same shape as a.")
        hist = _weighted_hist(index, w, n, equal_bins)
    if density:
        widths = _core.diff(edges).astype("float64")
        hist = hist.astype("float64") / widths / sum_(hist)
    return hist, edges


def digitize(x, bins, right=False):
    """See numpy.digitize."""
    from gpupy import flip, searchsorted

    x = _arr(x)
    bins = _arr(bins, x.device)
    if bins.ndim != 1:
        raise ValueError("[digitize] bins must be 1-dimensional")
    if numpy.dtype(x.dtype).kind == "c" or numpy.dtype(bins.dtype).kind == "c":
        raise TypeError("[digitize] x may not be complex")
    # Neighbours compared, not subtracted: an integer difference can overflow (int16 -32768, 4).
    lo, hi = bins[:-1], bins[1:]
    if bins.size > 1 and bool(_core.all(hi >= lo)):
        mono = 1
    elif bins.size > 1 and bool(_core.all(hi <= lo)):
        mono = -1
    elif bins.size <= 1:
        mono = 1
    else:
        raise ValueError("[digitize] bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    dt = numpy.result_type(x.dtype, bins.dtype)
    x, bins = x.astype(dt, copy=False), bins.astype(dt, copy=False)
    if mono == -1:
        return bins.size - searchsorted(flip(bins), x, side=side)
    return searchsorted(bins, x, side=side)
