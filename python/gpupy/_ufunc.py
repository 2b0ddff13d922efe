"""NumPy's ufunc methods (reduce, accumulate, reduceat, outer, at) for gpupy's binary elementwise
functions, composed from gpupy's own device operations."""

import numpy
from numpy.exceptions import AxisError

from gpupy import _core

# ufunc.reduce/accumulate that gpupy has as one device reduction or scan.
_REDUCTIONS = {
    "add": "sum",
    "multiply": "prod",
    "maximum": "max",
    "minimum": "min",
    "logical_and": "all",
    "logical_or": "any",
}
_SCANS = {"add": "cumsum", "multiply": "cumprod"}
# NumPy refuses a reduction over several axes for these (the order of the operands matters).
_NOT_REORDERABLE = frozenset(
    ("subtract", "divide", "floor_divide", "remainder", "fmod", "power", "float_power", "arctan2")
)
# Exactly associative and commutative: reduce pairs halves (log2(n) passes) and accumulate
# doubles its stride (Hillis-Steele), with results equal to NumPy's left-to-right ones.
_TREE = frozenset(
    """maximum minimum fmax fmin logical_and logical_or logical_xor bitwise_and bitwise_or
    bitwise_xor gcd lcm""".split()
)
_NO_VALUE = object()


def _axis_tuple(op, axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if ndim == 0 and not isinstance(axis, tuple) and axis in (0, -1):
        return ()  # NumPy reads an integer axis 0 or -1 of a 0-d array as "no axis"
    axes = axis if isinstance(axis, tuple) else (axis,)
    result = []
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise AxisError(f"[{op}] axis {ax} is out of bounds for array of dimension {ndim}")
        result.append(ax % ndim)
    return tuple(result)


ufunc = _core._ufunc_type


def wrap(fn, nin=2, nout=1):
    """fn as a gpupy ufunc taking nin inputs and giving nout outputs."""
    u = ufunc(fn)
    u.__name__ = u.__qualname__ = fn.__name__
    u.__doc__ = fn.__doc__
    if (nin, nout) != (2, 1):
        u.nin, u.nout = nin, nout
    return u


class _Methods:
    """A gpupy ufunc: calling it runs the elementwise function; the attributes and methods follow
    NumPy's. See numpy.ufunc. ``types`` lists each input dtype gpupy accepts (NumPy lists its
    inner loops, which casting extends to more inputs)."""

    # The call itself is the C++ type's: a vectorcall straight into the wrapped function.
    nin, nout = 2, 1
    signature = None

    def __reduce__(self):
        # By name, as NumPy pickles its ufuncs (the C++ function itself does not pickle).
        return _by_name, (self.__name__,)

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    @property
    def nargs(self):
        return self.nin + self.nout

    @property
    def identity(self):
        """NumPy's identity for this ufunc (gpupy's reductions start from the same value)."""
        return getattr(numpy, self.__name__).identity

    @property
    def types(self):
        """'in->out' codes, found once by running the function on empty arrays of each dtype."""
        if "_types" not in self.__dict__:
            self._types = _probe_types(self)
        return list(self._types)

    @property
    def ntypes(self):
        return len(self.types)

    def _op(self, method):
        return f"{self.__name__}.{method}"

    def _binary_only(self, method):
        """NumPy's refusal of reduce/accumulate/reduceat (and outer) outside binary ufuncs."""
        if self.nin != 2:
            if method == "outer":
                raise ValueError(
                    f"[{self._op(method)}] outer product only supported for binary functions"
                )
            raise ValueError(f"[{self._op(method)}] {method} only supported for binary functions")
        if self.nout != 1 and method != "outer":
            raise ValueError(
                f"[{self._op(method)}] {method} only supported for functions returning a single "
                "value"
            )

    def outer(self, A, B, /, **kwargs):
        """See numpy.ufunc.outer: fn(A[..., None, ...], B) over every pair of elements."""
        from gpupy._creation import asarray

        self._binary_only("outer")
        A, B = asarray(A), asarray(B)
        return self.func(A.reshape(A.shape + (1,) * B.ndim), B, **kwargs)

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE):
        """See numpy.ufunc.reduce. add, multiply, maximum, minimum, logical_and and logical_or run
        as one device reduction; the others apply the function along the axis, slice by slice."""
        import gpupy

        a = gpupy.asarray(array)
        op = self._op("reduce")
        self._binary_only("reduce")
        if self.__name__ in _REDUCTIONS:
            kwargs = {"axis": axis, "keepdims": keepdims, "out": out}
            if dtype is not None:
                kwargs["dtype"] = dtype
            if initial is not _NO_VALUE and self.__name__.startswith("logical"):
                # all/any take no initial=: it joins the result as one more operand
                result = getattr(gpupy, _REDUCTIONS[self.__name__])(a, axis=axis, keepdims=keepdims)
                return _finish(self.func(initial, result), out)
            if initial is not _NO_VALUE:
                kwargs["initial"] = initial
            return getattr(gpupy, _REDUCTIONS[self.__name__])(a, **kwargs)
        axes = _axis_tuple(op, axis, a.ndim)
        if len(axes) > 1 and self.__name__ in _NOT_REORDERABLE:
            raise ValueError(
                f"[{op}] reduction operation '{self.__name__}' is not reorderable, "
                "so at most one axis may be specified"
            )
        result = a if dtype is None else a.astype(dtype)
        if not axes:  # nothing to reduce: NumPy still applies the loop's types and initial
            empty = result.reshape(-1)[:0]
            result = result.astype(self.func(empty, empty).dtype, copy=True)
            if initial is not _NO_VALUE:
                result = self.func(initial, result).astype(result.dtype, copy=False)
        for ax in sorted(axes, reverse=True):
            result = self._reduce_one(result, ax, initial, op)
        if keepdims:
            result = result.reshape(tuple(1 if i in axes else n for i, n in enumerate(a.shape)))
        return _finish(result, out)

    def _reduce_one(self, a, axis, initial, op):
        n = a.shape[axis]
        if self.__name__ in _TREE and n > 1:
            import gpupy

            x = gpupy.moveaxis(a, axis, 0)
            while len(x) > 1:
                half = len(x) // 2
                paired = self.func(x[:half], x[half : 2 * half])
                x = gpupy.concatenate([paired, x[2 * half :]]) if len(x) % 2 else paired
            result = x[0]
            return result if initial is _NO_VALUE else self.func(initial, result)
        parts = [a[(slice(None),) * axis + (i,)] for i in range(n)]
        if initial is not _NO_VALUE:
            parts.insert(0, initial)
        if not parts:
            raise ValueError(
                f"[{op}] zero-size array to reduction operation {self.__name__} "
                "which has no identity"
            )
        result = parts[0]
        for p in parts[1:]:
            result = self.func(result, p)
        if initial is not _NO_VALUE and n == 0:
            import gpupy

            shape = a.shape[:axis] + a.shape[axis + 1 :]
            result = gpupy.full(shape, initial, dtype=a.dtype, device=a.device)
        return result.copy() if result is parts[0] else result

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """See numpy.ufunc.accumulate. add and multiply are device scans (cumsum, cumprod),
        maximum, minimum and the other exactly associative ufuncs take log2(n) passes; the rest
        apply the function along the axis, one slice after the other."""
        import gpupy

        a = gpupy.asarray(array)
        op = self._op("accumulate")
        self._binary_only("accumulate")
        if a.ndim == 0:
            raise TypeError(f"[{op}] cannot accumulate on a scalar")
        (axis,) = _axis_tuple(op, axis, a.ndim)
        if self.__name__ in _SCANS:
            return getattr(gpupy, _SCANS[self.__name__])(a, axis=axis, dtype=dtype, out=out)
        if dtype is None:
            dtype = gpupy.result_type(
                self.func(
                    a[(slice(None),) * axis + (slice(0, 1),)],
                    a[(slice(None),) * axis + (slice(0, 1),)],
                )
            )
        result = gpupy.empty(a.shape, dtype=dtype, device=a.device) if out is None else out
        if self.__name__ in _TREE:
            result[...] = a
            scan = gpupy.moveaxis(result, axis, 0)  # a view: the passes write into result
            shift = 1
            while shift < len(scan):
                scan[shift:] = self.func(scan[:-shift], scan[shift:])
                shift *= 2
            return result
        prev = None
        for i in range(a.shape[axis]):
            key = (slice(None),) * axis + (i,)
            prev = a[key].astype(dtype) if prev is None else self.func(prev, a[key])
            result[key] = prev
            prev = result[key]
        return result

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """See numpy.ufunc.reduceat: the reduction over a[indices[i]:indices[i+1]] (or a[indices[i]]
        where indices[i] >= indices[i+1]), and over a[indices[-1]:] last. The indices are read on
        the host (one small copy). Increasing indices with add, multiply or an exactly associative
        ufunc take one segmented scan of log2(n) passes; other cases reduce segment by segment."""
        import gpupy

        a = gpupy.asarray(array)
        op = self._op("reduceat")
        self._binary_only("reduceat")
        if a.ndim == 0:
            raise TypeError(f"[{op}] cannot reduceat a 0-d array")
        (axis,) = _axis_tuple(op, axis, a.ndim)
        idx = indices.tolist() if isinstance(indices, _core.ndarray) else list(indices)
        idx = [int(i) for i in idx]
        n = a.shape[axis]
        for i in idx:
            if not 0 <= i < n:
                raise IndexError(
                    f"[{op}] index {i} out-of-bounds in {self.__name__}.reduceat [0, {n})"
                )
        increasing = all(i < j for i, j in zip(idx, idx[1:], strict=False))
        if increasing and len(idx) > 1 and (self.__name__ in _TREE or self.__name__ in _SCANS):
            result = self._segmented_scan(a, idx, axis, dtype)
            return _finish(result, out)
        pieces = []
        for j, start in enumerate(idx):
            stop = idx[j + 1] if j + 1 < len(idx) else n
            if stop <= start:
                stop = start + 1
            key = (slice(None),) * axis + (slice(start, stop),)
            pieces.append(self.reduce(a[key], axis=axis, dtype=dtype, keepdims=True))
        result = gpupy.concatenate(pieces, axis=axis)
        return _finish(result, out)

    def _segmented_scan(self, a, idx, axis, dtype):
        """reduceat for increasing indices: an inclusive scan that combines only elements of the
        same segment, then the last element of each segment."""
        import gpupy

        n = a.shape[axis]
        x = gpupy.moveaxis(a, axis, 0)[idx[0] :]
        result_dtype = self.reduce(x[:1], axis=0, dtype=dtype).dtype
        scan = x.astype(result_dtype, copy=True)
        starts = gpupy.asarray(idx, device=a.device)
        segment = gpupy.searchsorted(starts, gpupy.arange(idx[0], n, device=a.device), side="right")
        segment = segment.reshape((-1,) + (1,) * (scan.ndim - 1))
        shift = 1
        while shift < len(scan):
            same = segment[shift:] == segment[:-shift]
            scan[shift:] = gpupy.where(same, self.func(scan[:-shift], scan[shift:]), scan[shift:])
            shift *= 2
        ends = gpupy.asarray([*idx[1:], n], device=a.device) - 1 - idx[0]
        return gpupy.moveaxis(scan[ends], 0, axis)

    def at(self, a, indices, b=None, /):
        """See numpy.ufunc.at: a[indices] = fn(a[indices], b), unbuffered, so an index that repeats
        applies the function once per occurrence, in order. add and subtract sum the values of
        each repeated index first (exactly for integers, in float64 for real floats); the other
        ufuncs run in rounds, round r updating the r-th occurrence of every index, so their cost
        is one pass per repeat of the most repeated index."""
        import gpupy

        op = self._op("at")
        if self.nout != 1:
            raise ValueError(f"[{op}] Only single output ufuncs supported at this time")
        if self.nin == 1 and b is not None:
            raise ValueError(f"[{op}] second operand provided when ufunc is unary")
        if self.nin == 2 and b is None:
            raise TypeError(f"[{op}] second operand needed for ufunc")
        if not isinstance(a, _core.ndarray):
            raise TypeError(f"[{op}] the first operand must be a gpupy array")
        positions = gpupy.arange(a.size, device=a.device).reshape(a.shape)[indices]
        if b is None:
            values = None
        elif isinstance(b, (bool, int, float, complex)):  # a weak Python scalar, as in a + b
            values = gpupy.full((), b, dtype=gpupy.result_type(a, b), device=a.device)
        else:
            values = gpupy.asarray(b, device=a.device)
        if values is not None:
            values = gpupy.broadcast_to(values, positions.shape).reshape(-1)
        positions = positions.reshape(-1)
        if not len(positions):
            return
        order = gpupy.argsort(positions, kind="stable")
        sorted_pos = positions[order]
        result_dtype = None if values is None else gpupy.result_type(a.dtype, values.dtype)
        # Summing each index's values first equals NumPy's one-by-one updates only when no cast
        # back to a's dtype truncates between them.
        if (
            self.__name__ in ("add", "subtract")
            and result_dtype == a.dtype
            and a.dtype.kind in "iuf"
        ):
            kind = a.dtype.kind
            unique_pos, totals = _segment_sums(gpupy, sorted_pos, values[order], kind)
            self._update(op, a, unique_pos, totals)
            return
        # rank of each occurrence among the equal positions: its distance from the first one
        first = gpupy.searchsorted(sorted_pos, sorted_pos, side="left")
        rank = gpupy.arange(len(sorted_pos), device=a.device) - first
        for r in range(int(rank.max()) + 1):
            sel = order[rank == r]
            self._update(op, a, positions[sel], None if values is None else values[sel])

    def _update(self, op, a, flat_positions, values):
        """a at the (distinct) flat positions = fn(a there, values), cast back to a's dtype
        unsafely as NumPy's ufunc.at does (sqrt.at of integers truncates)."""
        import gpupy

        where = gpupy.unravel_index(flat_positions, a.shape)
        a[where] = self.func(a[where]) if values is None else self.func(a[where], values)


# The methods live on the C++ type itself: a Python subclass would lose its fast call on 3.11.
for _name, _value in vars(_Methods).items():
    if _name not in ("__dict__", "__weakref__", "__module__"):
        setattr(ufunc, _name, _value)


def _probe_types(u):
    """u's accepted input dtypes (the same for every input) as NumPy's 'in->out' type codes, in
    NumPy's order of type characters."""
    import gpupy

    codes = []
    for dt in dict.fromkeys(numpy.dtype(c) for c in "?bBhHiIlLqQefdgFDG"):  # l is q on Linux
        char = dt.char
        try:
            empty = gpupy.zeros(0, dtype=char)
            result = u.func(*[empty] * u.nin)
        except (TypeError, ValueError, NotImplementedError):
            continue  # a dtype gpupy lacks, or one the function refuses
        outs = result if isinstance(result, tuple) else (result,)
        codes.append(char * u.nin + "->" + "".join(numpy.dtype(o.dtype).char for o in outs))
    return tuple(codes)


def _finish(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def _by_name(name):
    import gpupy

    return getattr(gpupy, name)


def _segment_sums(gpupy, sorted_pos, sorted_values, kind):
    """(each distinct position, the sum of its values) for positions sorted in ascending order.
    Integers: differences of a cumulative sum, exact in modular arithmetic as NumPy's repeated
    adds are. Floats: bincount's float64 sums, free of a cumulative sum's cancellation."""
    n = len(sorted_pos)
    starts_segment = gpupy.concatenate(
        [gpupy.ones(1, dtype=bool, device=sorted_pos.device), sorted_pos[1:] != sorted_pos[:-1]]
    )
    segment = gpupy.cumsum(starts_segment) - 1
    starts = gpupy.flatnonzero(starts_segment)
    if kind == "f":
        return sorted_pos[starts], gpupy.bincount(segment, weights=sorted_values)
    running = gpupy.cumsum(sorted_values)
    ends = gpupy.concatenate([starts[1:], gpupy.asarray([n], device=starts.device)]) - 1
    before = gpupy.where(starts > 0, running[gpupy.maximum(starts - 1, 0)], 0)
    return sorted_pos[starts], running[ends] - before
