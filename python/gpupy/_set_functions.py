"""Set functions: numpy.unique (flattened or along an axis), isin, union1d, intersect1d,
setdiff1d, setxor1d and the Array API's unique_all, unique_counts, unique_inverse and unique_values.

All are built from device operations, so they run on every device. Integers spanning a small
range are counted in a table indexed by value (bin_add, flatnonzero, cumsum and a gather); other
input is sorted (a stable argsort when positions are asked for) and sorted neighbours compared.
The host reads only a few numbers (the range, the number of unique values) that size the results.
Values come back sorted, as NumPy's ``unique`` returns them.
"""

import math
from collections import namedtuple

from gpupy import _core
from gpupy._core import ndarray
from gpupy._host_library import device_arrays

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def _arr(a):
    return a if isinstance(a, ndarray) else _core._asarray(a)


# Integers whose range (max - min + 1) is at most this many times their count, plus a floor for
# small inputs, are counted in a table instead of sorted: O(n + range) against a sort's O(n log n).
_TABLE_RANGE_PER_ITEM = 2
_TABLE_RANGE_FLOOR = 1 << 16


def _unique(x, want_index, want_inverse, want_counts, equal_nan):
    """Sorted unique values of `x` flattened, with what was asked for, as a dict; NaNs are one
    value when `equal_nan`."""
    x = _arr(x)
    flat = x.reshape(-1)
    n = flat.size
    if n and not want_index and flat.dtype.kind in "biu":
        out = _unique_table(flat, want_inverse, want_counts)
        if out is not None:
            if want_inverse:
                out["inverse"] = out["inverse"].reshape(x.shape)
            return out
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
        # NaNs (complex: either part NaN) sort last; with equal_nan they are one value, as in
        # NumPy: the first starts a run, the others do not.
        first_nan = n
        if equal_nan and s.dtype.kind in "fc" and bool(_core.isnan(s[n - 1])):
            first_nan = n - int(_core.count_nonzero(_core.isnan(s)))
        if first_nan > 1:
            _core.not_equal(s[1:first_nan], s[: first_nan - 1], out=mask[1:first_nan])
        if first_nan < n:
            mask[first_nan : first_nan + 1] = True
            mask[first_nan + 1 :] = False
    out = _runs(s, perm if need_perm else None, mask, want_index, want_inverse, want_counts)
    if want_inverse:
        out["inverse"] = out["inverse"].reshape(x.shape)
    return out


def _unique_table(flat, want_inverse, want_counts):
    """unique of the 1-D, non-empty integer or bool `flat` by counting each value in a table
    over [min, max] (bin_add), or None when that range is too wide for a table."""
    lo, hi = int(_core.min(flat).item()), int(_core.max(flat).item())
    span = hi - lo + 1
    if span > max(_TABLE_RANGE_PER_ITEM * flat.size, _TABLE_RANGE_FLOOR):
        return None
    # Offsets from the minimum, in int64 (unsigned types subtract in uint64: no wrap either way).
    wide = "uint64" if flat.dtype.kind == "u" else "int64"
    offset = _core.subtract(flat.astype(wide, copy=False), lo).astype("int64", copy=False)
    counts = _core.zeros((span,), "int64", flat.device)
    _core.bin_add(counts, offset)
    present = _core.not_equal(counts, 0)
    starts = present._flatnonzero()
    values = _core.add(starts.astype(wide, copy=False), lo).astype(flat.dtype, copy=False)
    out = {"values": values}
    if want_counts:
        out["counts"] = counts[starts]
    if want_inverse:
        out["inverse"] = (_core.cumsum(present, dtype="int64") - 1)[offset]
    return out


def _runs(s, perm, mask, want_index, want_inverse, want_counts):
    """The results of unique from the sorted items `s` (taken from the input by `perm`) and
    `mask` (True where a run of equal items starts). The number of runs is read back to the
    host: it sizes the results."""
    n = mask.shape[0]
    starts = mask._flatnonzero()
    out = {"values": s[starts]}
    if want_index:
        out["indices"] = perm[starts]
    if want_inverse:
        inverse = _core.empty((n,), "int64", mask.device)
        if n:
            inverse[perm] = _core.cumsum(mask, dtype="int64") - 1
        out["inverse"] = inverse
    if want_counts:
        out["counts"] = _core.diff(starts, append=_core._asarray([n], device=mask.device))
    return out


def _unique_along(x, axis, want_index, want_inverse, want_counts):
    """Sorted unique slices of `x` along `axis`, as NumPy compares them: lexicographically by
    element, NaN != NaN (so rows holding NaN stay distinct whatever equal_nan says), -0.0 == 0.0.
    A stable lexsort over the slices' elements, then the same run detection as _unique."""
    from gpupy._indexing import _axis
    from gpupy._partition import lexsort

    x = _arr(x)
    axis = _axis(axis, x.ndim, "unique")
    moved = _core.moveaxis(x, axis, 0)
    n = moved.shape[0]
    rows = moved.reshape((n, math.prod(moved.shape[1:])))
    if rows.shape[1]:
        # lexsort's last key sorts first: the columns reversed make column 0 the primary key.
        perm = lexsort(_core.matrix_transpose(rows)[::-1])
    else:
        perm = _core._arange(0, n, 1, "int64", x.device)
    s = rows[perm]
    mask = _core.empty((n,), "bool", x.device)
    if n:
        mask[:1] = True
        mask[1:] = _core.any(_core.not_equal(s[1:], s[:-1]), axis=1)
    out = _runs(s, perm, mask, want_index, want_inverse, want_counts)
    values = out["values"].reshape((out["values"].shape[0],) + moved.shape[1:])
    out["values"] = _core.moveaxis(values, 0, axis)
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
    """See numpy.unique. With axis=None the inverse has the input's shape (NumPy 2.x); along an
    axis, slices are compared whole and the inverse runs along that axis."""
    if axis is not None:
        from gpupy._indexing import _axis

        ar = _arr(ar)
        if ar.ndim == 1 and _axis(axis, 1, "unique") == 0:
            axis = None  # a 1-D array's slices are its elements: equal_nan applies (NumPy 2.4)
    if axis is None:
        r = _unique(ar, return_index, return_inverse, return_counts, equal_nan)
    else:
        r = _unique_along(ar, axis, return_index, return_inverse, return_counts)
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


_TABLE_OVER_LOOP = 4


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """See numpy.isin (also the Array API 2025.12 ``isin(x1, x2, /, *, invert=False)``): whether
    each element of ``element`` occurs in ``test_elements``, with ``element``'s shape.

    The strategy is NumPy's: integers and bools whose test values span a small range (or
    ``kind='table'``) look each element up in a table of that range; a handful of test values
    are compared one by one (also integers, up to four values: faster than the table);
    otherwise each element is binary-searched in the sorted test values.
    NaN is never found (NaN != NaN), as in NumPy. ``assume_unique`` does not change the result.
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"[isin] kind must be None, 'sort' or 'table', got {kind!r}")
    x, tests = device_arrays("isin", element, test_elements)
    if not x.flags.c_contiguous:  # NumPy compares x raveled: its answer is C-ordered
        x = x.copy(order="C")
    tests = tests.reshape(-1)
    integers = x.dtype.kind in "biu" and tests.dtype.kind in "biu"
    if kind == "table" and not integers:
        raise ValueError(
            "[isin] The 'table' method is only supported for boolean or integer arrays. "
            "Please select 'sort' or None for kind."
        )
    if tests.size == 0:
        return _core.full(x.shape, bool(invert), "bool", x.device)
    if {x.dtype.kind, tests.dtype.kind} == {"i", "u"} and "uint64" in (
        x.dtype.name,
        tests.dtype.name,
    ):
        return _isin_mixed_sign(x, tests, invert, kind)
    common = _core._promote_types(x.dtype, tests.dtype)
    # A table lookup costs about as much as comparing with this many values (the results are
    # the same; NumPy itself would use the table).
    few = kind is None and tests.size <= _TABLE_OVER_LOOP and common.kind in "biu"
    use_table = integers and (kind == "table" or (kind is None and not few))
    found = _isin_table(x, tests, kind == "table") if use_table else None
    if found is None:
        x, tests = x.astype(common, copy=False), tests.astype(common, copy=False)
        if tests.size < 10 * x.size**0.145:
            found = _isin_few(x, tests)
        else:
            found = _isin_sorted(x, tests)
    return _core.logical_not(found, out=found) if invert else found


def _isin_table(x, tests, forced):
    """isin for integer (or bool) x and tests by a lookup in a bool table over the tests'
    range, or None when that range is too wide (NumPy's limit: 6 items per element)."""
    import numpy

    lo, hi = int(_core.min(tests).item()), int(_core.max(tests).item())
    span = hi - lo
    limit = 255 if tests.dtype.kind == "b" else int(numpy.iinfo(numpy.dtype(tests.dtype)).max)
    if span > limit:
        if forced:
            raise RuntimeError(
                "[isin] You have specified kind='table', but the range of values in `ar2` or "
                "`ar1` exceed the maximum integer of the datatype. Please set `kind` to None "
                "or 'sort'."
            )
        return None
    if span > 6 * (x.size + tests.size) and not forced:
        return None
    # Offsets from the minimum modulo 2**64: elements outside [lo, hi] land beyond span and
    # are clamped onto a last table slot that stays False.
    table = _core.zeros((span + 2,), "bool", x.device)
    table[_table_offsets(tests, lo, span)] = True
    return table[_table_offsets(x, lo, span)]


def _isin_mixed_sign(x, tests, invert, kind):
    """isin of signed integers and uint64 (either way round), exact as NumPy's: their common
    type, float64, would merge values above 2**53. A negative value matches nothing; the others
    compare as uint64. kind='table' picks the table only where its range is small (NumPy tries
    a table over the whole span of both types and runs out of memory)."""
    if tests.dtype.kind == "i":
        tests = tests[_core.greater_equal(tests, 0)]
    nonnegative = _core.greater_equal(x, 0) if x.dtype.kind == "i" else None
    kind = None if kind == "table" else kind
    found = isin(x.astype("uint64"), tests.astype("uint64"), kind=kind)
    if nonnegative is not None:
        _core.logical_and(found, nonnegative, out=found)
    return _core.logical_not(found, out=found) if invert else found


def _table_offsets(a, lo, span):
    """min(a - lo modulo 2**64, span + 1) as int64, for integer or bool a."""
    # 8-byte integers are reinterpreted (two's complement): no conversion pass.
    wide = a.view("uint64") if a.dtype.itemsize == 8 and a.flags.c_contiguous else a
    offset = _core.subtract(wide.astype("uint64", copy=False), lo % (1 << 64))
    return _core.minimum(offset, span + 1, out=offset).view("int64")


def _isin_few(x, tests):
    """isin by comparing x with each test value in turn (NumPy's loop for few test values)."""
    found = _core.equal(x, tests[0])
    for k in range(1, tests.size):
        _core.logical_or(found, _core.equal(x, tests[k]), out=found)
    return found


def _isin_sorted(x, tests):
    """isin by a binary search of every element in the sorted test values."""
    table = _core.sort(tests, axis=0)
    position = _core.searchsorted(table, x, side="left")
    # Elements above every test value land past the end; clamp to compare with the last.
    position = _core.minimum(position, tests.size - 1, out=position)
    return _core.equal(table[position], x)


def _joined(ar1, ar2):
    from gpupy._joining import concatenate

    return concatenate((ar1.reshape(-1), ar2.reshape(-1)))


def _neighbours_equal(s):
    """s[1:] == s[:-1] for a sorted 1-D s (empty when s has fewer than two items)."""
    if s.size < 2:
        return _core.zeros((0,), "bool", s.device)
    return _core.equal(s[1:], s[:-1])


def union1d(ar1, ar2):
    """See numpy.union1d: the sorted unique values of both arrays, flattened."""
    ar1, ar2 = device_arrays("union1d", ar1, ar2)
    return unique(_joined(ar1, ar2))


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """See numpy.intersect1d: the sorted values found in both arrays; with return_indices, the
    positions of their first occurrences in each flattened input."""
    ar1, ar2 = device_arrays("intersect1d", ar1, ar2)
    if assume_unique:
        ar1, ar2 = ar1.reshape(-1), ar2.reshape(-1)
    elif return_indices:
        (ar1, first1), (ar2, first2) = unique(ar1, True), unique(ar2, True)
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    both = _joined(ar1, ar2)
    order = _core.argsort(both, axis=0, kind="stable") if return_indices else None
    s = both[order] if return_indices else _core.sort(both, axis=0)
    # A value present in both (each unique) shows up as two equal sorted neighbours.
    hits = _neighbours_equal(s)._flatnonzero()
    values = s[hits]
    if not return_indices:
        return values
    idx1, idx2 = order[hits], order[hits + 1] - ar1.size
    if not assume_unique:
        idx1, idx2 = first1[idx1], first2[idx2]
    return values, idx1, idx2


def setdiff1d(ar1, ar2, assume_unique=False):
    """See numpy.setdiff1d: the values of ar1 not in ar2 (sorted and unique unless
    assume_unique, which keeps ar1's order)."""
    ar1, ar2 = device_arrays("setdiff1d", ar1, ar2)
    ar1 = ar1.reshape(-1) if assume_unique else unique(ar1)
    return ar1[isin(ar1, ar2, invert=True)._flatnonzero()]


def setxor1d(ar1, ar2, assume_unique=False):
    """See numpy.setxor1d: the sorted values found in exactly one of the arrays."""
    ar1, ar2 = device_arrays("setxor1d", ar1, ar2)
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    s = _core.sort(_joined(ar1, ar2), axis=0)
    if s.size == 0:
        return s
    # Keep the items equal to neither neighbour.
    lonely = _core.full((s.size + 1,), True, "bool", s.device)
    lonely[1:-1] = _core.not_equal(s[1:], s[:-1])
    return s[_core.logical_and(lonely[1:], lonely[:-1])._flatnonzero()]


__all__ = [
    "intersect1d",
    "isin",
    "setdiff1d",
    "setxor1d",
    "union1d",
    "unique",
    "unique_all",
    "unique_counts",
    "unique_inverse",
    "unique_values",
]
