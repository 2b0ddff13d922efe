"""ufunc.at (gpupy.add.at, ...) and the segmented combines it shares with ufunc.reduceat:
unbuffered in-place updates at repeated indices, composed from gpupy's device operations."""

import numpy

from gpupy import _core

# Exactly associative and commutative: reduce pairs halves (log2(n) passes) and accumulate
# doubles its stride (Hillis-Steele), with results equal to NumPy's left-to-right ones.
TREE = frozenset(
    """maximum minimum fmax fmin logical_and logical_or logical_xor bitwise_and bitwise_or
    bitwise_xor gcd lcm""".split()
)


def ufunc_at(u, a, indices, b=None):
    """ufunc u's at (see numpy.ufunc.at): a[indices] = fn(a[indices], b), unbuffered, so an
    index that repeats applies the function once per occurrence, in order. add and subtract of
    integers and of float32/float64 go through the device's bin_add: one add per occurrence, in
    order on cpu (NumPy's result bit for bit), atomic and in an unspecified order on cuda; other
    add and subtract sum the values of each repeated index first (in float64 for floats);
    multiply of integers and the exactly associative ufuncs (maximum, minimum, bitwise, ...)
    combine them by a segmented scan of log2(most repeats) passes. The others, and any ufunc
    whose result is cast back to a's dtype, run in rounds, round r updating the r-th occurrence of
    every index: one pass per repeat of the most repeated index."""
    import gpupy

    op = u._op("at")
    if u.nout != 1:
        raise ValueError(f"[{op}] Only single output ufuncs supported at this time")
    if u.nin == 1 and b is not None:
        raise ValueError(f"[{op}] second operand provided when ufunc is unary")
    if u.nin == 2 and b is None:
        raise ValueError(f"[{op}] second operand needed for ufunc")
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"[{op}] the first operand must be a gpupy array")
    if b is None:
        values = None
    elif _int_beyond(b, a.dtype):
        # NumPy's ufunc.at reads an int beyond a's integer dtype as int64 (uint64 above it),
        # computes in the promoted dtype and casts back: uint8 maximum.at 2**33 writes 0
        if not -(2**63) <= b < 2**64:
            raise OverflowError(f"[{op}] Python int too large to convert to C long")
        strong = numpy.int64(b) if b < 2**63 else numpy.uint64(b)
        values = gpupy.asarray(strong, device=a.device)
    elif isinstance(b, (bool, int, float, complex)):  # a weak Python scalar, as in a + b
        values = gpupy.full((), b, dtype=gpupy.result_type(a, b), device=a.device)
    else:
        values = gpupy.asarray(b, device=a.device)
    # NumPy finds the loop (TypeError) before it reads the indices (IndexError)
    flat = a.reshape(-1)[:0]
    u.func(flat) if values is None else u.func(flat, values.reshape(-1)[:0])
    positions = gpupy.arange(a.size, device=a.device).reshape(a.shape)[indices]
    if values is not None:
        values = gpupy.broadcast_to(values, positions.shape).reshape(-1)
    positions = positions.reshape(-1)
    if not len(positions):  # nothing to update, but the loop must exist (NumPy's TypeError)
        empty = a.reshape(-1)[:0]
        result = u.func(empty) if values is None else u.func(empty, values[:0])
        # and its result is still cast back to a's dtype (NumPy's ComplexWarning)
        gpupy.empty(0, dtype=a.dtype, device=a.device)[...] = result
        return
    result_dtype = None if values is None else gpupy.result_type(a.dtype, values.dtype)
    # Summing each index's values first equals NumPy's one-by-one updates only when no cast
    # back to a's dtype truncates between them.
    if (
        result_dtype == a.dtype
        and u.__name__ in ("add", "subtract")
        and a.dtype.kind in "iu" + "f" * (a.dtype.itemsize >= 4)
        and not a._readonly
    ):
        _add_at(a, positions, values, negate=u.__name__ == "subtract")
        return
    order = gpupy.argsort(positions, kind="stable")
    sorted_pos = positions[order]
    if result_dtype == a.dtype:
        if u.__name__ in ("add", "subtract") and a.dtype.kind in "iuf":
            unique_pos, totals = _segment_sums(gpupy, sorted_pos, values[order], a.dtype.kind)
            _update(u, op, a, unique_pos, totals)
            return
        if u.__name__ in TREE or (u.__name__ == "multiply" and a.dtype.kind in "biu"):
            # fn(fn(a, v1), v2) == fn(a, fn(v1, v2)) exactly: combine each index's values
            # first, by one segmented scan of log2(most repeats) passes
            ordered = values[order].astype(a.dtype, copy=False)  # combined in a's dtype
            unique_pos, totals = _segment_totals(u.func, sorted_pos, ordered)
            _update(u, op, a, unique_pos, totals)
            return
    # rank of each occurrence among the equal positions: its distance from the first one;
    # ordered by rank, round r is one contiguous slice (one read: the size of each round)
    first = gpupy.searchsorted(sorted_pos, sorted_pos, side="left")
    rank = gpupy.arange(len(sorted_pos), device=a.device) - first
    by_round = order[gpupy.argsort(rank, kind="stable")]
    positions = positions[by_round]
    values = None if values is None else values[by_round]
    start = 0
    for size in gpupy.bincount(rank).tolist():
        part = slice(start, start + size)
        _update(u, op, a, positions[part], None if values is None else values[part])
        start += size


def _update(u, op, a, flat_positions, values):
    """a at the (distinct) flat positions = fn(a there, values), cast back to a's dtype
    unsafely as NumPy's ufunc.at does (sqrt.at of integers truncates)."""
    import gpupy

    where = gpupy.unravel_index(flat_positions, a.shape)
    a[where] = u.func(a[where]) if values is None else u.func(a[where], values)


def _int_beyond(b, dtype):
    """Whether b is a Python int outside the range of the integer dtype, or any with uint64 (which
    NumPy's ufunc.at reads as int64 too: bitwise_and.at(uint64, i, 5) finds no loop)."""
    if type(b) is not int or dtype.kind not in "iu":
        return False
    info = numpy.iinfo(dtype)
    return dtype == numpy.uint64 or not info.min <= b <= info.max


def _add_at(a, positions, values, negate):
    """a.flat[positions[k]] += values[k] (-= when `negate`) for each k, through bin_add: in a's
    dtype for float32/float64, in index order on cpu as NumPy's; integers in int64, whose
    wrap-around the cast back to a's dtype turns into that of a's dtype."""
    bins_dtype = a.dtype if a.dtype.kind == "f" else numpy.dtype("int64")
    in_place = a._c_contiguous and a.dtype == bins_dtype
    bins = a.reshape(-1) if in_place else a.astype(bins_dtype).reshape(-1)
    w = values.astype(bins_dtype)  # a copy: values may share memory with a
    _core.bin_add(bins, positions, -w if negate else w)
    if not in_place:
        a[...] = bins.reshape(a.shape).astype(a.dtype)


def segment_scan(func, scan, segment, longest):
    """An inclusive scan along axis 0 of `scan`, in place, combining only rows of the same
    segment (segment ids ascending along axis 0; the longest segment has `longest` rows):
    Hillis-Steele, ceil(log2(longest)) passes."""
    import gpupy

    shift = 1
    while shift < longest:
        same = segment[shift:] == segment[:-shift]
        scan[shift:] = gpupy.where(same, func(scan[:-shift], scan[shift:]), scan[shift:])
        shift *= 2
    return scan


def _runs(gpupy, sorted_pos):
    """(segment id of each position, first and last index of each run of equal positions) for
    positions sorted in ascending order."""
    n = len(sorted_pos)
    starts_run = gpupy.concatenate(
        [gpupy.ones(1, dtype=bool, device=sorted_pos.device), sorted_pos[1:] != sorted_pos[:-1]]
    )
    starts = gpupy.flatnonzero(starts_run)
    ends = gpupy.concatenate([starts[1:], gpupy.asarray([n], device=starts.device)]) - 1
    return gpupy.cumsum(starts_run) - 1, starts, ends


def _segment_totals(func, sorted_pos, sorted_values):
    """(each distinct position, func over its values in order) for positions sorted in
    ascending order, by a segmented scan; one read (the longest run)."""
    import gpupy

    segment, starts, ends = _runs(gpupy, sorted_pos)
    scan = segment_scan(func, sorted_values.copy(), segment, int((ends - starts).max()) + 1)
    return sorted_pos[starts], scan[ends]


def _segment_sums(gpupy, sorted_pos, sorted_values, kind):
    """(each distinct position, the sum of its values) for positions sorted in ascending order.
    Integers: differences of a cumulative sum, exact in modular arithmetic as NumPy's repeated
    adds are. Floats: bincount's float64 sums, free of a cumulative sum's cancellation."""
    segment, starts, ends = _runs(gpupy, sorted_pos)
    if kind == "f":
        return sorted_pos[starts], gpupy.bincount(segment, weights=sorted_values)
    running = gpupy.cumsum(sorted_values)
    before = gpupy.where(starts > 0, running[gpupy.maximum(starts - 1, 0)], 0)
    return sorted_pos[starts], running[ends] - before
