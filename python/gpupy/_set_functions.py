"""Set functions: numpy.unique (axis=None) and the Array API's unique_all, unique_counts,
unique_inverse and unique_values.

All are built from device operations (a stable argsort of the flattened input, gathers, a
comparison of sorted neighbours, cumsum, flatnonzero, diff and an integer-array scatter), so they
run on every device. The only host read is the number of unique values, which sizes the results.
Values come back sorted, as NumPy's ``unique`` returns them.
"""

from collections import namedtuple

from gpupy import _core
from gpupy._core import ndarray

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _arr(a):
    return a if isinstance(a, ndarray) else _core._asarray(a)


def _unique(x, want_index, want_inverse, want_counts, equal_nan):
    """Sorted unique values of `x` flattened, with what was asked for, as a dict."""
    x = _arr(x)
    flat = x.reshape(-1)
    n = flat.size
    need_perm = want_index or want_inverse
    if need_perm:
        perm = _core.argsort(flat, axis=0, kind="stable")
        s = flat[perm]
    else:
        s = _core.sort(flat, axis=0)
    # mask[i]: sorted element i starts a new run of equal values.
    mask = _core.empty((n,), "bool", x.device)
    if n:
        mask[:1] = True
        prev, nxt = s[:-1], s[1:]
        new = _core.not_equal(nxt, prev)
        if equal_nan and s.dtype.kind in "fc":
            # NaNs (complex: either part NaN) sort last; they are one value, as in NumPy.
            both_nan = _core.logical_and(_core.isnan(nxt), _core.isnan(prev))
            new = _core.logical_and(new, _core.logical_not(both_nan))
        mask[1:] = new
    starts = mask._flatnonzero()  # int64 positions in the sorted order; sized on the host
    out = {"values": s[starts]}
    if want_index:
        out["indices"] = perm[starts]
    if want_inverse:
        inverse = _core.empty((n,), "int64", x.device)
        if n:
            inverse[perm] = _core.cumsum(mask, dtype="int64") - 1
        out["inverse"] = inverse.reshape(x.shape)
    if want_counts:
        out["counts"] = _core.diff(starts, append=_core._asarray([n], device=x.device))
    return out


def unique(
    ar,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    *,
    equal_nan=True,
    sorted=True,
):
    """See numpy.unique; only axis=None. The inverse has the input's shape (NumPy 2.x)."""
    if axis is not None:
        raise NotImplementedError("[unique] only axis=None is supported")
    r = _unique(ar, return_index, return_inverse, return_counts, equal_nan)
    extra = []
    if return_index:
        extra.append(r["indices"])
    if return_inverse:
        extra.append(r["inverse"])
    if return_counts:
        extra.append(r["counts"])
    return (r["values"], *extra) if extra else r["values"]


def unique_all(x, /):
    """Array API unique_all: sorted values, first indices, inverse (x's shape), counts; NaNs
    are distinct."""
    r = _unique(x, True, True, True, False)
    return UniqueAllResult(r["values"], r["indices"], r["inverse"], r["counts"])


def unique_counts(x, /):
    """Array API unique_counts: sorted values and their counts; NaNs are distinct."""
    r = _unique(x, False, False, True, False)
    return UniqueCountsResult(r["values"], r["counts"])


def unique_inverse(x, /):
    """Array API unique_inverse: sorted values and the inverse (x's shape); NaNs are distinct."""
    r = _unique(x, False, True, False, False)
    return UniqueInverseResult(r["values"], r["inverse"])


def unique_values(x, /):
    """Array API unique_values: the sorted values; NaNs are distinct."""
    return _unique(x, False, False, False, False)["values"]


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """See numpy.isin (also the Array API 2025.12 ``isin(x1, x2, /, *, invert=False)``): whether
    each element of ``element`` occurs in ``test_elements``, with ``element``'s shape.

    A binary search of every element in the sorted test values, on the elements' device. NaN is
    never found (NaN != NaN), as in NumPy. ``assume_unique`` and ``kind`` only tune NumPy's
    algorithm choice and do not change the result; they are accepted for compatibility.
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"[isin] kind must be None, 'sort' or 'table', got {kind!r}")
    x = _arr(element)
    tests = test_elements
    if not isinstance(tests, ndarray):
        tests = _core._asarray(tests, device=x.device)
    elif tests.device != x.device:
        raise ValueError(
            f"[isin] the arrays are on different devices ('{x.device}', '{tests.device}'); "
            "move them first"
        )
    common = _core._promote_types(x.dtype, tests.dtype)
    x, tests = x.astype(common), tests.reshape(-1).astype(common)
    if tests.size == 0:
        found = _core.zeros(x.shape, "bool", x.device)
    else:
        table = _core.sort(tests, axis=0)
        position = _core.searchsorted(table, x, side="left")
        # Elements above every test value land past the end; clamp to compare with the last.
        position = _core.minimum(position, _core._asarray(tests.size - 1, device=x.device))
        found = _core.equal(table[position], x)
    return _core.logical_not(found) if invert else found


__all__ = ["isin", "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values"]
