"""Writing into arrays and picking between arrays: put, putmask, place, copyto, fill_diagonal,
choose, select and piecewise (see the NumPy functions of the same names).

Everything is composed of gpupy's own device operations (gathers, scatters, where, flatnonzero),
so it runs on the target array's device. The in-place functions need a gpupy array to write
into; index, mask and value arguments given as lists or NumPy arrays are moved to its device.
Where NumPy writes a repeated index more than once, the last value wins on cpu and emu; on cuda
the order of such writes is unspecified.
"""

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._indexing import int_indices
from gpupy._utilities import check_casting, check_operands

__all__ = ["choose", "copyto", "fill_diagonal", "piecewise", "place", "put", "putmask", "select"]

_MODES = ("raise", "wrap", "clip")


def _target(a, op):
    if not isinstance(a, ndarray):
        raise TypeError(f"[{op}] the array to write into must be a gpupy.ndarray, not {type(a)}")
    if a._readonly:
        raise ValueError(f"[{op}] assignment destination is read-only")
    return a


def _on(x, device, op):
    """`x` as a gpupy array on `device`; a gpupy array elsewhere is refused."""
    if not isinstance(x, ndarray):
        return _core._asarray(x, device=device)
    if x.device != device:
        raise ValueError(
            f"[{op}] the arrays are on different devices ('{device}', '{x.device}'); "
            "move them first"
        )
    return x


def _device_of(groups):
    """The device of the first gpupy array among the items of `groups`, else the default."""
    for group in groups:
        if isinstance(group, ndarray):
            return group.device
        for x in group:
            if isinstance(x, ndarray):
                return x.device
    return _core.default_device()


_WEAK = (int, float, complex)  # Python scalars take the arrays' dtype where they fit (NEP 50)


def _common_dtype(items, device, op):
    """`items` as gpupy arrays on `device`, all of their common dtype."""
    from gpupy._dtypes import result_type

    items = [x if type(x) in _WEAK else _on(x, device, op) for x in items]
    dtype = result_type(*items)
    # A Python int that does not fit wraps around, as NumPy's cast of it does; one beyond every
    # integer dtype joins an inexact result as a float (else asarray raises OverflowError).
    items = [_core._asarray(_huge_as_float(x, dtype), device=device) if type(x) in _WEAK else x
             for x in items]  # fmt: skip
    return [x.astype(dtype, copy=False) for x in items]


def _is_huge(x):
    return type(x) is int and not -(2**63) <= x < 2**64


def _huge_as_float(x, dtype):
    return float(x) if _is_huge(x) and dtype.kind in "fc" else x


def weak_ints_as_floats(values):
    """`values` (operands, None for absent ones) with each Python int that fits no integer
    operand (beyond int64, or outside an integer array's range) read as a float where the other
    operands' result dtype is inexact, as NumPy's weak scalars are: clip(int16 data, 70000, 1+2j)
    is complex. Beside integers only (or alone) they stay, for the OverflowError."""
    integers = [v.dtype for v in values if isinstance(v, ndarray) and v.dtype.kind in "iu"]

    def misfit(v):
        if type(v) is not int:
            return False
        if not -(2**63) <= v < 2**63:
            return True
        return any(not numpy.iinfo(dt).min <= v <= numpy.iinfo(dt).max for dt in integers)

    if not any(misfit(v) for v in values):
        return values
    from gpupy._dtypes import result_type

    others = [v for v in values if v is not None and not misfit(v)]
    if not others:
        return values
    dtype = numpy.dtype(result_type(*others))
    return [float(v) if misfit(v) and dtype.kind in "fc" else v for v in values]


def _set_flat(a, flat_index, values):
    """a.flat[flat_index] = values, for any strides of `a` (a view when C-contiguous)."""
    if a._c_contiguous:
        a.reshape(-1)[flat_index] = values
    else:
        from gpupy._index_tricks import unravel_index

        a[unravel_index(flat_index, a.shape)] = values


def _cycled(values, n, like, op):
    """The first n items of `values` (flattened) repeated as often as needed."""
    v = _on(values, like.device, op).reshape(-1)
    if v.size == n:
        return v
    return v[_core.remainder(_core._arange(0, n, 1, "int64", like.device), v.size)]


def _check_bounds(idx, n, low, op, what):
    """Raises IndexError when an index lies outside [low, n); one boolean read back."""
    if idx.size and bool(_core.any(_core.logical_or(idx < low, idx >= n))):
        bad = idx.reshape(-1)[_core.argmax(_core.logical_or(idx < low, idx >= n).reshape(-1))]
        raise IndexError(f"[{op}] {what} {int(bad)} is out of bounds for size {n}")


def _clip_mode(mode, op):
    """put/choose's mode, checked as NumPy does (None means 'raise')."""
    if mode is None:
        return "raise"
    if not isinstance(mode, str):
        raise TypeError(f"[{op}] clipmode not understood: {mode!r}")
    if mode not in _MODES:
        raise ValueError(
            f"[{op}] clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})"
        )
    return mode


def _apply_mode(idx, n, mode, op):
    if mode == "wrap":
        return _core.remainder(idx, n)
    if mode == "clip":
        return _core._clip(idx, 0, n - 1)
    return idx


def _fill_values(values, a, op):
    """putmask/place values on a's device in a's dtype. As in NumPy, an array must cast to it
    safely, while lists and scalars convert as in an assignment (an int that does not fit is
    refused)."""
    if isinstance(values, (ndarray, numpy.ndarray)):
        if not numpy.can_cast(values.dtype, a.dtype, "safe"):
            raise TypeError(
                f"[{op}] Cannot cast array data from {numpy.dtype(values.dtype)!r} to "
                f"{numpy.dtype(a.dtype)!r} according to the rule 'safe'"
            )
        return _on(values, a.device, op).astype(a.dtype, copy=False)
    return _converted(values, a, op)


def _converted(values, a, op):
    """Host values (lists, scalars, NumPy arrays) converted to a's dtype as NumPy converts them
    in an assignment, then moved to a's device: an int that does not fit and a Python complex
    for a real array are refused, NumPy complex values lose their imaginary part with a
    ComplexWarning."""
    try:
        host = numpy.asarray(values, dtype=a.dtype)
    except (OverflowError, TypeError) as e:
        raise type(e)(f"[{op}] {e}") from None
    return _core._asarray(host, device=a.device)


def put(a, ind, v, mode="raise"):
    """See numpy.put: a.flat[ind] = v, with v repeated to len(ind); in place on a's device.

    mode 'raise' accepts negative indices from the end; 'wrap' and 'clip' bring every index
    into range. Bounds are checked with one boolean read back."""
    a = _target(a, "put")
    mode = _clip_mode(mode, "put")
    idx = int_indices(ind, a, "put").reshape(-1)
    n = a.size
    if n == 0 and idx.size:  # NumPy's first check, before the values convert
        raise IndexError("[put] cannot replace elements of an empty array")
    if isinstance(v, ndarray):  # NumPy casts the values to a's dtype first (unsafe, warning)
        v = _on(v, a.device, "put").astype(a.dtype, copy=False)
    else:
        v = _converted(v, a, "put")
    if idx.size == 0 or v.size == 0:
        return
    if mode == "raise":
        _check_bounds(idx, n, -n, "put", "index")
        idx = _core.remainder(idx, n)
    else:
        idx = _apply_mode(idx, n, mode, "put")
    _set_flat(a, idx, _cycled(v, idx.size, a, "put"))


def putmask(a, /, mask, values):
    """See numpy.putmask: a.flat[i] = values.flat[i % values.size] where mask.flat[i]."""
    a = _target(a, "putmask")
    mask = _on(mask, a.device, "putmask")
    if mask.size != a.size:
        raise ValueError("[putmask] mask and data must be the same size")
    values = _fill_values(values, a, "putmask").reshape(-1)
    if values.size == 0:
        return
    where = mask.astype("bool", copy=False).reshape(-1)._flatnonzero()
    _set_flat(a, where, values[_core.remainder(where, values.size)])


def place(arr, mask, vals):
    """See numpy.place: the True places of mask get vals in order, repeated as needed."""
    arr = _target(arr, "place")
    mask = _on(mask, arr.device, "place")
    if mask.size != arr.size:
        raise ValueError("[place] mask and data must be the same size")
    where = mask.astype("bool", copy=False).reshape(-1)._flatnonzero()
    vals = _fill_values(vals, arr, "place").reshape(-1)
    if where.size == 0:
        return
    if vals.size == 0:
        raise ValueError("[place] Cannot insert from an empty array!")
    _set_flat(arr, where, _cycled(vals, where.size, arr, "place"))


def _src_dtype(src, dst_dtype):
    """The dtype NumPy checks copyto's casting rule with (Python scalars are weak, NEP 50)."""
    if isinstance(src, ndarray):
        return numpy.dtype(src.dtype)
    if isinstance(src, bool):
        return numpy.dtype(bool)
    if type(src) in (int, float, complex):
        return numpy.result_type(dst_dtype, src)
    return numpy.asarray(src).dtype


def copyto(dst, src, casting="same_kind", where=True):
    """See numpy.copyto: src (broadcast) is written into dst where `where` is True."""
    dst = _target(dst, "copyto")
    check_casting("copyto", casting)
    dst_dtype = numpy.dtype(dst.dtype)
    if isinstance(src, int) and not isinstance(src, bool) and dst_dtype.kind in "iu":
        info = numpy.iinfo(dst_dtype)
        if not info.min <= src <= info.max:
            raise OverflowError(f"[copyto] Python integer {src} out of bounds for {dst_dtype}")
    from_dtype = _src_dtype(src, dst_dtype)
    if not numpy.can_cast(from_dtype, dst_dtype, casting):
        raise TypeError(
            f"[copyto] Cannot cast array data from {from_dtype!r} to {dst_dtype!r} according "
            f"to the rule {casting!r}"
        )
    src = _on(_huge_as_float(src, dst_dtype), dst.device, "copyto")
    if src.dtype != dst.dtype:
        src = src.astype(dst.dtype)
    # As in NumPy's assignment, leading length-1 axes of src beyond dst's dimensions drop.
    while src.ndim > dst.ndim and src.shape[0] == 1:
        src = src.reshape(src.shape[1:])
    try:
        src = _core._broadcast_to(src, dst.shape)
    except ValueError:
        raise ValueError(
            f"[copyto] could not broadcast input array from shape {src.shape} into shape "
            f"{dst.shape}"
        ) from None
    if where is True:
        dst[...] = src
        return
    w = _on(where, dst.device, "copyto")
    if w.dtype.kind != "b":
        raise TypeError(f"[copyto] where must be a boolean array, not {w.dtype}")
    try:
        w = _core._broadcast_to(w, dst.shape)
    except ValueError:
        raise ValueError(
            f"[copyto] could not broadcast where mask from shape {w.shape} into shape {dst.shape}"
        ) from None
    dst[...] = _core._where(w, src, dst)


def fill_diagonal(a, val, wrap=False):
    """See numpy.fill_diagonal: in place; val is repeated along the diagonal; a tall 2-d
    array restarts its diagonal every ncols + 1 rows when wrap=True."""
    a = _target(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError("[fill_diagonal] array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.size, a.shape[1] * a.shape[1])
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("[fill_diagonal] All dimensions of input must be of equal length")
        step = sum(a.shape[0] ** i for i in range(a.ndim))
        end = a.size
    idx = _core._arange(0, end, step, "int64", a.device)
    if not isinstance(val, ndarray):
        # As NumPy's flat assignment: host values convert into a's dtype (a Python complex for
        # a real array is refused, an int that does not fit overflows).
        try:
            val = numpy.asarray(val, dtype=a.dtype)
        except (TypeError, ValueError, OverflowError) as exc:
            raise type(exc)(f"[fill_diagonal] {exc}") from None
    val = _on(val, a.device, "fill_diagonal")
    if idx.size == 0 or val.size == 0:
        return
    _set_flat(a, idx, _cycled(val, idx.size, a, "fill_diagonal"))


def choose(a, choices, out=None, mode="raise"):
    """See numpy.choose: result[i] = choices[a[i]][i] with a and the choices broadcast."""
    mode = _clip_mode(mode, "choose")
    check_operands("choose", (a, choices))
    a = a if isinstance(a, ndarray) else _core._asarray(a, device=_device_of([choices]))
    if a.dtype.kind not in "biu":
        raise TypeError(
            f"[choose] Cannot cast array data from {a.dtype!r} to dtype('int64') according to "
            "the rule 'safe'"
        )
    if len(choices) == 0:
        raise ValueError("[choose] choices must not be empty")
    chosen = _common_dtype(list(choices), a.device, "choose")
    n = len(chosen)
    idx = a.astype("int64", copy=False)
    if mode == "raise":
        if idx.size and bool(_core.any(_core.logical_or(idx < 0, idx >= n))):
            raise ValueError("[choose] invalid entry in choice array")
    else:
        idx = _apply_mode(idx, n, mode, "choose")
    from gpupy._indexing import take_along_axis

    idx, *chosen = _core._broadcast_arrays([idx] + chosen)
    key = idx.reshape((1,) + idx.shape)
    result = take_along_axis(_core._stack(chosen, 0), key, axis=0).reshape(idx.shape)
    if out is not None:
        out[...] = result
        return out
    return result


def select(condlist, choicelist, default=0):
    """See numpy.select: the choice of the first true condition, else default."""
    check_operands("select", (condlist, choicelist))
    if len(condlist) != len(choicelist):
        raise ValueError("[select] list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("[select] select with an empty condition list is not possible")
    device = _device_of([condlist, choicelist])
    conds = [_on(c, device, "select") for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype.kind != "b":
            raise TypeError(f"[select] invalid entry {i} in condlist: should be boolean ndarray")
    *choices, result = _common_dtype(list(choicelist) + [default], device, "select")
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        result = _core._where(cond, choice, result)
    # NumPy fills a C-ordered result (where() keeps the choices' layout)
    return result if result.flags.c_contiguous else result.copy(order="C")


def piecewise(x, condlist, funclist, *args, **kw):
    """See numpy.piecewise: y takes funclist[i] (a callable of x[condlist[i]], or a value)
    where condlist[i] holds; with one function more than conditions, the last covers the rest.
    The result has x's dtype; the callables receive gpupy arrays."""
    check_operands("piecewise", (x, condlist, funclist))
    x = x if isinstance(x, ndarray) else _core._asarray(x)
    n_funcs = len(funclist)
    if isinstance(condlist, (ndarray, numpy.ndarray)):
        wrap = condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0)
    else:
        wrap = numpy.isscalar(condlist) or (
            not isinstance(condlist[0], (list, ndarray, numpy.ndarray)) and x.ndim != 0
        )
    if wrap:
        condlist = [condlist]
    conds = [_on(c, x.device, "piecewise").astype("bool", copy=False) for c in condlist]
    conds = [_core._broadcast_to(c, x.shape) for c in conds]
    if len(conds) == n_funcs - 1:
        anything = _core.zeros(x.shape, "bool", x.device)
        for c in conds:
            anything = _core.logical_or(anything, c)
        conds.append(_core.logical_not(anything))
    elif len(conds) != n_funcs:
        raise ValueError(
            f"[piecewise] with {len(conds)} condition(s), either {len(conds)} or "
            f"{len(conds) + 1} functions are expected"
        )
    from gpupy._creation import zeros_like

    y = zeros_like(x)  # in x's layout, as NumPy's
    for cond, func in zip(conds, funclist, strict=True):
        if not callable(func):  # converted (and refused) as NumPy does, even where no cond holds
            y[cond] = func
            continue
        vals = x[cond]
        if vals.size:
            y[cond] = _on(func(vals, *args, **kw), x.device, "piecewise").astype(x.dtype)
    return y


ndarray.put = lambda self, indices, values, mode="raise": put(self, indices, values, mode)


def _choose_method(self, *choices, out=None, mode="raise"):
    # As NumPy's method: a.choose(c0, c1, ...) takes the choices as separate arguments too
    return choose(self, choices[0] if len(choices) == 1 else choices, out, mode)


ndarray.choose = _choose_method
