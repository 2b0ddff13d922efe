"""gpupy.ufunc: the elementwise functions as NumPy-style ufunc objects. The call is the C++ type's
own (python/src/bind_ufunc.cpp); this module adds NumPy's attributes and methods (reduce,
accumulate, reduceat, outer, at), composed from gpupy's own device operations."""

import numpy
from numpy.exceptions import AxisError

from gpupy import _core
from gpupy._ufunc_at import TREE as _TREE
from gpupy._ufunc_at import segment_scan as _segment_scan
from gpupy._ufunc_at import ufunc_at as _ufunc_at
from gpupy._ufunc_signature import call_with_signature as _call_with_signature

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
# NumPy reduces over several axes at once only where the order of the operands cannot matter:
# ufuncs with an identity, and these four without one, which each pick one of their operands.
_REORDERABLE_WITHOUT_IDENTITY = frozenset(("maximum", "minimum", "fmax", "fmin"))
_COMPARISONS = frozenset("equal not_equal less less_equal greater greater_equal".split())
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
    if len(set(result)) != len(result):
        raise ValueError(f"[{op}] duplicate value in 'axis'")
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

    def _along_axis(self, method, array, axis, zero_d_message):
        """(array as a gpupy array, the op's name, its one normalised axis) for accumulate and
        reduceat, which need a binary ufunc and an array with at least one axis."""
        import gpupy

        a = gpupy.asarray(array)
        op = self._op(method)
        self._binary_only(method)
        if a.ndim == 0:
            raise TypeError(f"[{op}] {zero_d_message}")
        (axis,) = _axis_tuple(op, axis, a.ndim)
        return a, op, axis

    def _bool_loop_only(self, method, a, dtype):
        """NumPy reduces in a loop whose inputs and output share one dtype: the comparisons have
        one only for bool input, and dtype= must name a dtype with such a loop (divide has no
        integer one, logical_or only a bool one)."""
        dt = numpy.dtype(a.dtype if dtype is None else dtype)
        if self.__name__ not in _COMPARISONS and dtype is None:
            return
        if f"{dt.char}{dt.char}->{dt.char}" not in self.types:
            raise TypeError(
                f"[{self._op(method)}] ufunc '{self.__name__}' did not contain a loop with "
                f"signature matching types ({dt}, {dt}) -> {dt}"
            )

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
        from gpupy._manipulation import _array_operands

        self._binary_only("outer")
        A, B = _array_operands((A, B))
        return self.func(A.reshape(A.shape + (1,) * B.ndim), B, **kwargs)

    def reduce(
        self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True
    ):
        """See numpy.ufunc.reduce. add, multiply, maximum, minimum, logical_and and logical_or run
        as one device reduction; the others apply the function along the axis, slice by slice.
        where= leaves elements out: they become the identity (or, for maximum and the others
        that pick an operand, initial), or the slice-by-slice steps skip them."""
        import gpupy

        a = gpupy.asarray(array)
        op = self._op("reduce")
        self._binary_only("reduce")
        self._bool_loop_only("reduce", a, dtype)
        if self.__name__ in _REDUCTIONS:
            return self._device_reduce(a, axis, dtype, out, keepdims, initial, where)
        axes = _axis_tuple(op, axis, a.ndim)
        result = a if dtype is None else a.astype(dtype)
        _loop_dtype(self, result)  # NumPy resolves the loop (bool subtract raises) before the axes
        reorderable = self.identity is not None or self.__name__ in _REORDERABLE_WITHOUT_IDENTITY
        if len(axes) > 1 and not reorderable:
            raise ValueError(
                f"[{op}] reduction operation '{self.__name__}' is not reorderable, "
                "so at most one axis may be specified"
            )
        mask = None
        if where is not True:
            result, mask = self._masked(result, where, initial, op)
        if initial is _NO_VALUE and self.identity is not None and not _empty(a, axes):
            # NumPy's default: hypot.reduce([-8.0]) is 8.0, gcd's too
            initial = self._identity_in(_loop_dtype(self, result))
        if not axes:  # nothing to reduce: NumPy still applies the loop's types and initial
            result = result.astype(_loop_dtype(self, result), copy=True)
            if initial is not _NO_VALUE:
                combined = self.func(initial, result).astype(result.dtype, copy=False)
                result = combined if mask is None else gpupy.where(mask, combined, initial)
        start = initial if initial is not _NO_VALUE or not _empty(a, axes) else self.identity
        if axes and start is not None and start is not _NO_VALUE and _empty(a, axes):
            # an empty reduction is its start value, once, whichever axis is empty
            kept = tuple(n for i, n in enumerate(a.shape) if i not in axes)
            dt = _loop_dtype(self, result)
            if initial is _NO_VALUE:
                start = self._identity_in(dt)
            result = gpupy.full(kept, start, dtype=dt, device=a.device)
        elif len(axes) > 1:  # reorderable ops: initial joins each result once, at the end
            for ax in sorted(axes, reverse=True):
                result = self._reduce_one(result, ax, _NO_VALUE, op)
            if initial is not _NO_VALUE:
                result = self.func(initial, result).astype(result.dtype, copy=False)
        elif axes:
            result = self._reduce_one(result, axes[0], initial, op, mask)
        if keepdims:
            result = result.reshape(tuple(1 if i in axes else n for i, n in enumerate(a.shape)))
        return _finish(result, out)

    def _device_reduce(self, a, axis, dtype, out, keepdims, initial, where):
        """reduce as gpupy's sum, prod, max, min, all or any (their where= and initial=)."""
        import gpupy

        reduction = getattr(gpupy, _REDUCTIONS[self.__name__])
        kwargs = {"axis": axis, "keepdims": keepdims, "out": out, "where": where}
        if dtype is not None and self.__name__ in ("maximum", "minimum", "logical_and",
                                                   "logical_or"):  # fmt: skip
            a = a.astype(dtype, copy=False)  # these take no dtype=: the loop's input
        elif dtype is not None:
            kwargs["dtype"] = dtype
        if initial is not _NO_VALUE and self.__name__.startswith("logical"):
            # all/any take no initial=: it joins the result as one more operand
            kwargs["out"] = None
            return _finish(self.func(initial, reduction(a, **kwargs)), out)
        if initial is not _NO_VALUE:
            kwargs["initial"] = initial
        return reduction(a, **kwargs)

    def _masked(self, x, where, initial, op):
        """(x, mask) for where=: x with the left-out elements replaced by the identity, or by
        initial for the ufuncs that pick one of their operands (mask None then); else x and the
        mask, which the slice-by-slice steps apply."""
        import gpupy
        from gpupy._reduction import _fill, _mask

        mask = gpupy.broadcast_to(_mask(op, x, where), x.shape)
        if self.identity is not None:
            return _fill(x, mask, self._identity_in(_loop_dtype(self, x))), None
        if initial is _NO_VALUE:
            raise ValueError(
                f"[{op}] reduction operation '{self.__name__}' does not have an identity, so to "
                "use a where mask one has to specify 'initial'"
            )
        if self.__name__ in _REORDERABLE_WITHOUT_IDENTITY:
            return _fill(x, mask, initial), None
        return x, mask

    def _identity_in(self, dt):
        """The identity in dtype dt, cast unsafely as NumPy does: bitwise_and's -1 is all ones."""
        return numpy.array(self.identity).astype(dt)[()]

    def _reduce_one(self, a, axis, initial, op, mask=None):
        import gpupy

        n = a.shape[axis]
        if self.__name__ in _TREE and n > 1:
            x = gpupy.moveaxis(a, axis, 0)
            while len(x) > 1:
                half = len(x) // 2
                paired = self.func(x[:half], x[half : 2 * half])
                x = gpupy.concatenate([paired, x[2 * half :]]) if len(x) % 2 else paired
            result = x[0]
            if initial is _NO_VALUE:
                return result
            return self.func(initial, result).astype(result.dtype, copy=False)
        parts = [a[(slice(None),) * axis + (i,)] for i in range(n)]
        if initial is not _NO_VALUE:
            parts.insert(0, initial)
        if not parts:
            raise ValueError(
                f"[{op}] zero-size array to reduction operation {self.__name__} "
                "which has no identity"
            )
        result = parts[0]
        for i, p in enumerate(parts[1:]):
            step = self.func(result, p)
            # where= (given with initial: parts[0]) keeps the running value where it is False
            result = (
                step
                if mask is None
                else gpupy.where(mask[(slice(None),) * axis + (i,)], step, result)
            )
        if initial is not _NO_VALUE and n:  # a Python initial does not promote (bool stays bool)
            result = result.astype(_loop_dtype(self, a), copy=False)
        if initial is not _NO_VALUE and n == 0:
            shape = a.shape[:axis] + a.shape[axis + 1 :]
            result = gpupy.full(shape, initial, dtype=a.dtype, device=a.device)
        if result is parts[0]:  # one element: still in the loop's dtype, as NumPy's
            return result.astype(_loop_dtype(self, a), copy=True)
        return result

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """See numpy.ufunc.accumulate. add and multiply are device scans (cumsum, cumprod),
        maximum, minimum and the other exactly associative ufuncs take log2(n) passes; the rest
        apply the function along the axis, one slice after the other."""
        import gpupy

        a, op, axis = self._along_axis("accumulate", array, axis, "cannot accumulate on a scalar")
        self._bool_loop_only("accumulate", a, dtype)
        if self.__name__ in _SCANS:
            return getattr(gpupy, _SCANS[self.__name__])(a, axis=axis, dtype=dtype, out=out)
        if dtype is not None:  # NumPy casts the input to dtype= first
            a = a.astype(dtype, copy=False)
        else:
            empty = a[(slice(None),) * axis + (slice(0, 0),)]  # the loop's dtype, nothing computed
            dtype = gpupy.result_type(self.func(empty, empty))
        result = gpupy.empty(a.shape, dtype=dtype, device=a.device) if out is None else out
        if self.__name__ in _TREE:
            result[...] = a
            scan = gpupy.moveaxis(result, axis, 0)  # a view: the passes write into result
            shift = 1
            while shift < len(scan):
                scan[shift:] = self.func(scan[:-shift], scan[shift:])
                shift *= 2
            return result
        self._accumulate_in_order(gpupy.moveaxis(a, axis, 0), gpupy.moveaxis(result, axis, 0))
        return result

    def _accumulate_in_order(self, x, res):
        """res[i] = fn(res[i - 1], x[i]) along axis 0, in NumPy's order. Integer subtract and
        copysign have exact closed forms; the others take one pass per row, written in place."""
        import gpupy

        if len(x) == 0:
            return
        res[0] = x[0]
        if len(x) < 2:
            return
        if self.__name__ == "subtract" and res.dtype.kind in "iu":
            # x0 - x1 - ... - xi == 2 x0 - (x0 + ... + xi), exactly in wrapping integers
            res[...] = gpupy.subtract(res[0] * 2, gpupy.cumsum(x, axis=0, dtype=res.dtype))
            return
        if self.__name__ == "copysign":  # only the last sign counts
            res[1:] = self.func(res[0], x[1:])
            return
        if self.func(res[:0], x[:0]).dtype == res.dtype:
            for i in range(1, len(x)):
                self.func(res[i - 1], x[i], out=res[i])
            return
        for i in range(1, len(x)):
            res[i] = self.func(res[i - 1], x[i])

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        """See numpy.ufunc.reduceat: the reduction over a[indices[i]:indices[i+1]] (or a[indices[i]]
        where indices[i] >= indices[i+1]), and over a[indices[-1]:] last. The indices are read on
        the host (one small copy). add, multiply and the exactly associative ufuncs take one
        segmented scan of log2(longest segment) passes over the segments' elements (gathered
        when the indices do not increase); the others step through all segments together, in
        NumPy's order, one pass per element of the longest segment."""
        import gpupy

        a, op, axis = self._along_axis("reduceat", array, axis, "cannot reduceat a 0-d array")
        idx = indices.get() if isinstance(indices, _core.ndarray) else indices
        starts = numpy.asarray(idx, dtype=numpy.int64)
        if starts.ndim != 1:
            raise ValueError(f"[{op}] indices must be a 1-D sequence, got {starts.ndim} dimensions")
        n = a.shape[axis]
        bad = starts[(starts < 0) | (starts >= n)]
        if bad.size:
            raise IndexError(
                f"[{op}] index {bad[0]} out-of-bounds in {self.__name__}.reduceat [0, {n})"
            )
        self._bool_loop_only("reduceat", a, dtype)  # after the indices, as NumPy checks them
        x = gpupy.moveaxis(a if dtype is None else a.astype(dtype, copy=False), axis, 0)
        result_dtype = numpy.dtype(self.reduce(x[:1], axis=0, dtype=dtype).dtype)
        if not starts.size:
            result = gpupy.empty((0,) + x.shape[1:], dtype=result_dtype, device=a.device)
            return _finish(gpupy.moveaxis(result, 0, axis), out)
        stops = numpy.append(starts[1:], n)
        lengths = numpy.where(stops > starts, stops - starts, 1)
        if self.__name__ in _TREE or self.__name__ in _SCANS:
            if lengths.sum() <= 4 * max(n, len(starts)):  # overlapping segments gather copies
                result = self._segmented_reduce(x, starts, lengths, result_dtype)
            else:
                result = gpupy.concatenate(
                    [
                        self.reduce(x[int(s) : int(s + k)], axis=0, dtype=dtype, keepdims=True)
                        for s, k in zip(starts, lengths, strict=True)
                    ]
                )
        else:
            result = self._stepwise_reduce(x, starts, lengths, result_dtype)
        return _finish(gpupy.moveaxis(result, 0, axis), out)

    def _segmented_reduce(self, x, starts, lengths, result_dtype):
        """The segments' reductions along axis 0 by one segmented inclusive scan (segments laid
        end to end; contiguous already when the starts increase), then each segment's last."""
        import gpupy

        dev = x.device
        ends = numpy.cumsum(lengths)  # one past each segment's last element, laid end to end
        pos = gpupy.arange(int(ends[-1]), device=dev)
        ends_dev = gpupy.asarray(ends, device=dev)
        segment = gpupy.searchsorted(ends_dev, pos, side="right")
        if numpy.all(starts[1:] > starts[:-1]):
            gathered = x[int(starts[0]) :]
        else:
            offset = gpupy.asarray(starts - (ends - lengths), device=dev)
            gathered = x[pos + offset[segment]]
        scan = gathered.astype(result_dtype, copy=True)
        segment = segment.reshape((-1,) + (1,) * (scan.ndim - 1))
        _segment_scan(self.func, scan, segment, int(lengths.max()))
        return scan[ends_dev - 1]

    def _stepwise_reduce(self, x, starts, lengths, result_dtype):
        """The segments' reductions along axis 0, all segments together, element j of each in
        pass j: NumPy's left-to-right order."""
        import gpupy

        dev = x.device
        acc = x[gpupy.asarray(starts, device=dev)].astype(result_dtype, copy=True)
        for j in range(1, int(lengths.max())):
            active = numpy.flatnonzero(lengths > j)
            src = gpupy.asarray(starts[active] + j, device=dev)
            if len(active) == len(starts):
                acc[...] = self.func(acc, x[src])
            else:
                sel = gpupy.asarray(active, device=dev)
                acc[sel] = self.func(acc[sel], x[src])
        return acc

    def at(self, a, indices, b=None, /):
        """See numpy.ufunc.at: a[indices] = fn(a[indices], b), unbuffered, so an index that repeats
        applies the function once per occurrence, in order (how: _ufunc_at.ufunc_at)."""
        _ufunc_at(self, a, indices, b)


# The methods live on the C++ type itself: a Python subclass would lose its fast call on 3.11.
for _name, _value in vars(_Methods).items():
    if _name not in ("__dict__", "__weakref__", "__module__"):
        setattr(ufunc, _name, _value)
# the C++ call hands a call with signature= or sig= to this
ufunc._call_with_signature = _call_with_signature


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


def _empty(a, axes):
    return any(a.shape[ax] == 0 for ax in axes)


def _loop_dtype(u, x):
    """The dtype u computes in for two operands of x's dtype."""
    empty = x.reshape(-1)[:0]
    return numpy.dtype(u.func(empty, empty).dtype)
