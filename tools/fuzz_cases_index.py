"""Case families of tools/fuzz_numpy.py: indexing that mixes basic, integer-array and boolean
indices (negative steps, None, Ellipsis) for reading, assignment and augmented assignment, and the
index-driven selection functions (take, put, *_along_axis, choose, compress, select, piecewise)
with their less common arguments (host Python only)."""

import math

import numpy as np
from fuzz_operands import (
    DTYPES,
    Arr,
    Case,
    Val,
    _index_repr,
    _to_dev,
    array,
    dtype,
    operand,
    shape,
    values,
)


def _slice(rng, d):
    step = int(rng.choice([1, 1, 2, 3, -1, -1, -2, -3]))
    lo = int(rng.integers(-d - 2, d + 2)) if rng.random() < 0.6 else None
    hi = int(rng.integers(-d - 2, d + 2)) if rng.random() < 0.6 else None
    return slice(lo, hi, step)


def _int_array(rng, d, bshape):
    """Integer indices into an axis of length d, of a shape that broadcasts to bshape."""
    s = tuple(n if rng.random() < 0.7 else 1 for n in bshape)
    if rng.random() < 0.03:  # out of range on purpose
        return np.full(s, d + 1, dtype=np.int64)
    values = rng.integers(-d, d, s) if d else np.zeros(s, dtype=np.int64)
    return values.astype(str(rng.choice(["int64", "int32", "int16", "uint8", "intp"])))


def mixed_index(rng, shp):
    """A tuple index over shp mixing slices (negative steps too), integers, integer arrays that
    broadcast together, boolean arrays, None and Ellipsis."""
    bshape = tuple(int(n) for n in rng.choice([1, 2, 3], int(rng.integers(0, 3))))
    parts = []
    for d in shp:
        r = rng.random()
        if r < 0.3 or (d == 0 and r < 0.7):
            parts.append(_slice(rng, d))
        elif r < 0.45:
            parts.append(int(rng.integers(-d, d)) if d else 0)
        elif r < 0.7:
            parts.append(_int_array(rng, d, bshape))
        elif r < 0.8:
            parts.append(rng.random(d) < 0.5)
        else:
            parts.append(slice(None))
    if parts and rng.random() < 0.25:  # Ellipsis for a run of full slices
        i = int(rng.integers(0, len(parts)))
        j = int(rng.integers(i, len(parts) + 1))
        parts[i:j] = [Ellipsis]
    for _ in range(int(rng.integers(0, 2))):
        parts.insert(int(rng.integers(0, len(parts) + 1)), None)
    if rng.random() < 0.2 and parts:  # fewer indices than dimensions
        parts = parts[: int(rng.integers(0, len(parts)))]
    return tuple(parts)


def _result_shape(shp, ix):
    try:
        return np.empty(shp, dtype=np.int8)[ix].shape
    except (IndexError, ValueError, TypeError):
        return ()


def gen_mixed_index(rng):
    dt = dtype(rng)
    shp = shape(rng, int(rng.choice([1, 2, 2, 3, 3, 4])))
    mode = str(rng.choice(["get", "get", "set", "set", "iadd", "view_set"]))
    a = array(rng, dt, shp, writable=mode != "get")
    ix = mixed_index(rng, shp)
    ops = [a]
    if mode != "get":
        rshape = _result_shape(shp, ix)
        r = rng.random()
        vshape = (
            rshape
            if r < 0.4
            else rshape[int(rng.integers(0, len(rshape) + 1)) :]
            if r < 0.7
            else tuple(1 if rng.random() < 0.5 else n for n in rshape)
        )
        vdt = dt if rng.random() < 0.5 else dtype(rng)
        ops.append(operand(rng, vdt, vshape, 0.3))
    if mode == "iadd" and np.dtype(dt) == np.bool_:
        mode = "set"  # NumPy refuses bool += for non-bool values in ways tested elsewhere
    single = all(type(p) is int or (isinstance(p, np.ndarray) and p.ndim == 0) for p in ix)
    if mode == "iadd" and single and len(ix) == len(shp):
        mode = "set"  # one element: NumPy's scalar += is not in place, gpupy's 0-d array's is

    def fn(xp, x, *rest):
        key = _to_dev(xp, ix)
        if mode == "get":
            return x[key]
        if mode == "set":
            x[key] = rest[0]
        elif mode == "iadd":
            x[key] += rest[0]
        else:  # assignment through a basic view first, then the mixed index
            v = x[::-1] if x.ndim else x
            v[key] = rest[0]
        return None

    return Case(f"mindex.{mode}", fn, ops, None, _index_repr(ix))


def _indices(rng, n, k, allow_bad=True):
    lo, hi = (-n - 1, n + 1) if allow_bad and rng.random() < 0.1 else (-n, n)
    return rng.integers(lo, max(hi, 1), k) if n else np.zeros(k, dtype=np.int64)


def gen_select_more(rng):
    name = str(
        rng.choice(
            ["take", "take_out", "put", "take_along_none", "put_along", "choose_out",
             "compress_axis", "select_default", "piecewise", "piecewise_func", "extract2"]
        )
    )  # fmt: skip
    dt = dtype(rng)
    shp = shape(rng, int(rng.integers(1, 4)))
    n = math.prod(shp)
    a = array(rng, dt, shp, writable=name in ("put", "put_along"))
    ops, kw = [a], {}
    if name in ("take", "take_out"):
        axis = int(rng.integers(-len(shp), len(shp)))
        d = shp[axis]
        ishape = shape(rng, int(rng.integers(0, 3)), small=True)
        ops.append(Val(_indices(rng, d, math.prod(ishape)).reshape(ishape)))
        kw = {"axis": axis, "mode": str(rng.choice(["raise", "wrap", "clip"]))}
        if d == 0 and kw["mode"] != "raise":
            kw["mode"] = "raise"  # NumPy: cannot do a non-empty take from an empty axis
        try:
            out_shape = np.take(np.zeros(shp, np.int8), ops[1].value, **kw).shape
        except IndexError:  # the error, not a mismatched out=, must be what both raise
            name = "take"
    elif name == "put":
        k = int(rng.integers(0, 5))
        ops.append(Val(_indices(rng, n, k)))
        ops.append(operand(rng, dtype(rng), (int(rng.integers(1, 4)),), 0.3))
        kw["mode"] = str(rng.choice(["raise", "wrap", "clip"])) if n else "raise"
    elif name == "take_along_none":
        ops.append(Val(_indices(rng, n, int(rng.integers(0, 5)), False)))
    elif name == "put_along":
        axis = int(rng.integers(-len(shp), len(shp)))
        ishape = list(shp)
        ishape[axis] = int(rng.integers(1, 3)) if shp[axis] else 0
        d = shp[axis]
        ops.append(Val(_indices(rng, d, math.prod(ishape), False).reshape(ishape)))
        ops.append(operand(rng, dtype(rng), tuple(ishape), 0.4))
        kw["axis"] = axis
    elif name == "choose_out":
        k = int(rng.integers(1, 4))
        ops = [Val(rng.integers(0, k, shp))] + [array(rng, dt, shp) for _ in range(k)]
        # contiguous: NumPy 2.4's clip/wrap choose into a strided out= writes past its end
        ops.append(Arr(values(rng, dtype(rng), n).reshape(shp), "c", lambda xp, x: x))
        kw["mode"] = str(rng.choice(["raise", "wrap", "clip"]))
    elif name == "compress_axis":
        axis = int(rng.integers(-len(shp), len(shp)))
        ops.append(Val([bool(b) for b in rng.random(int(rng.integers(0, shp[axis] + 2))) < 0.5]))
        kw["axis"] = axis
    elif name == "select_default":
        k = int(rng.integers(1, 4))
        conds = [array(rng, "bool", shp[int(rng.integers(0, len(shp) + 1)) :]) for _ in range(k)]
        # arrays and NumPy scalars: NumPy copies Python int choices in as int64, which its
        # same_kind rule refuses for unsigned results (documented)
        choices = [array(rng, dt, shp) for _ in range(k)]
        ops = conds + choices
        kw = {"k": k, "default": np.dtype(dt).type(values(rng, dt, 1)[0])}
    elif name in ("piecewise", "piecewise_func"):
        k = int(rng.integers(1, 3))
        ops += [array(rng, "bool", shp) for _ in range(k)]
        kw = {"k": k, "values": [int(v) for v in rng.integers(-3, 4, k + int(rng.random() < 0.5))]}
    elif name == "extract2":
        ops.append(array(rng, dtype(rng, DTYPES), shp))

    def fn(xp, x, *rest):
        kwargs = dict(kw)
        if name == "take":
            return xp.take(x, rest[0], **kwargs)
        if name == "take_out":
            out = xp.zeros(out_shape, dtype=x.dtype)
            xp.take(x, rest[0], out=out, **kwargs)
            return out
        if name == "put":
            xp.put(x, rest[0], rest[1], **kwargs)
            return None
        if name == "take_along_none":
            return xp.take_along_axis(x, rest[0], axis=None)
        if name == "put_along":
            xp.put_along_axis(x, rest[0], rest[1], **kwargs)
            return None
        if name == "choose_out":
            choices, out = list(rest[:-1]), rest[-1]
            xp.choose(x, choices, out=out, **kwargs)
            return out
        if name == "compress_axis":
            return xp.compress(rest[0], x, **kwargs)
        if name == "select_default":
            k = kwargs["k"]
            return xp.select([x, *rest[: k - 1]], list(rest[k - 1 :]), default=kwargs["default"])
        if name == "piecewise":
            return xp.piecewise(x, list(rest), kwargs["values"])
        if name == "piecewise_func":
            funcs = [lambda v, c=c: v * c for c in kwargs["values"]]
            return xp.piecewise(x, list(rest), funcs)
        return xp.extract(rest[0], x)

    return Case(f"select2.{name}", fn, ops, None, repr(kw))
