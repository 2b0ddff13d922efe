"""Case families of tools/fuzz_numpy.py: convolve/correlate (modes, every dtype, empty and 2-d
input), pad (every mode with its options, bad widths), take_along_axis/put_along_axis and
apply_along_axis (host Python only)."""

import numpy as np
from fuzz_operands import DTYPES, NUMERIC, Case, Val, array, dtype, shape, sum_tol

_MODES = ["full", "same", "valid"]


def gen_convolve(rng):
    name = str(rng.choice(["convolve", "correlate"]))
    dts = [dtype(rng, DTYPES) for _ in range(2)]
    if rng.random() < 0.3:
        dts[1] = dts[0]
    ns = [int(rng.choice([0, 1, 1, 2, 3, 4, 5, 7])) for _ in range(2)]
    ops = [array(rng, dt, (n,)) for dt, n in zip(dts, ns, strict=True)]
    r = rng.random()
    if r < 0.05:
        ops[int(rng.integers(0, 2))] = array(rng, dts[0], (2, 2))  # too deep
    elif r < 0.1:
        ops[int(rng.integers(0, 2))] = array(rng, dts[0], ())  # 0-d: read as length 1
    kw = {}
    if rng.random() < 0.8:
        m = rng.random()
        kw["mode"] = str(rng.choice(_MODES)) if m < 0.9 else "bogus" if m < 0.95 else 1

    def fn(xp, a, v):
        return getattr(xp, name)(a, v, **kw)

    return Case(f"conv.{name}", fn, ops, sum_tol, repr(kw))


_PAD_MODES = ["constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum",
              "reflect", "symmetric", "wrap", "empty"]  # fmt: skip


def _pad_width(rng, ndim):
    r = rng.random()
    if r < 0.3:
        return int(rng.integers(0, 4))
    if r < 0.5:
        return (int(rng.integers(0, 3)), int(rng.integers(0, 3)))
    if r < 0.9 or ndim == 0:
        return tuple((int(rng.integers(0, 3)), int(rng.integers(0, 4))) for _ in range(ndim))
    bad = [[1, 2, 3], -1, ((1, 2),) * (ndim + 1), 1.5]
    return bad[int(rng.integers(0, len(bad)))]


def _pad_stat(rng):
    r = rng.random()
    if r < 0.5:
        return int(rng.integers(1, 4))
    if r < 0.8:
        return (int(rng.integers(1, 3)), int(rng.integers(1, 4)))
    return None if r < 0.95 else 0


def gen_pad(rng):
    mode = str(rng.choice(_PAD_MODES))
    dt = dtype(rng, DTYPES if mode not in ("mean", "median", "linear_ramp") else NUMERIC)
    shp = shape(rng, int(rng.integers(0, 4)))
    ops, kw = [array(rng, dt, shp)], {"pad_width": _pad_width(rng, len(shp)), "mode": mode}
    if mode == "constant" and rng.random() < 0.6:
        kw["constant_values"] = (
            int(rng.integers(-3, 4))
            if rng.random() < 0.6
            else (float(rng.integers(-2, 3)), float(rng.choice([0.5, 7.0])))
        )
    elif mode == "linear_ramp" and rng.random() < 0.6:
        kw["end_values"] = (
            int(rng.integers(-3, 4))
            if rng.random() < 0.5
            else (int(rng.integers(-2, 3)), int(rng.integers(-5, 6)))
        )
    elif mode in ("maximum", "mean", "median", "minimum") and rng.random() < 0.6:
        kw["stat_length"] = _pad_stat(rng)
    elif mode in ("reflect", "symmetric") and rng.random() < 0.4:
        kw["reflect_type"] = str(rng.choice(["even", "odd"]))
    if rng.random() < 0.03:
        kw["mode"] = "bogus"

    def fn(xp, a):
        r = xp.pad(a, **kw)
        return r.shape if kw["mode"] == "empty" else r  # 'empty' leaves the pads undefined

    mean = mode in ("mean", "median", "linear_ramp") or kw.get("reflect_type") == "odd"
    return Case(f"pad.{mode}", fn, ops, sum_tol if mean else None, repr(kw))


def _along_indices(rng, shp, axis):
    """Indices for take_along_axis: the array's shape with the axis resized (sometimes a
    broadcastable 1, a wrong ndim, out of range or not integers)."""
    if axis is None:
        ishape = (int(rng.integers(0, 5)),)
    else:
        ishape = list(shp)
        ishape[axis] = int(rng.integers(0, 4))
        ishape = tuple(1 if rng.random() < 0.2 else d for d in ishape)
    n = int(np.prod(shp)) if axis is None else shp[axis]
    idt = str(rng.choice(["int64", "int32", "uint8", "int8"]))
    r = rng.random()
    if r < 0.05:
        ishape = ishape + (1,)
    elif r < 0.1:
        idt = "float64"
    hi = n + (1 if rng.random() < 0.05 else 0)
    lo = -n if idt[0] == "i" else 0
    idx = rng.integers(lo, max(hi, 1), int(np.prod(ishape))).reshape(ishape) if n else None
    if idx is None:
        idx = np.zeros(ishape, dtype=int)
    return Val(idx.astype(idt))


def gen_along(rng):
    name = str(rng.choice(["take_along_axis", "put_along_axis", "apply_along_axis"]))
    dt = dtype(rng, DTYPES)
    shp = shape(rng, int(rng.integers(1, 4)))
    ndim = len(shp)
    axis = int(rng.integers(-ndim, ndim)) if rng.random() < 0.9 else None
    if rng.random() < 0.03:
        axis = ndim  # out of range
    ops = [array(rng, dt, shp, writable=name == "put_along_axis")]
    kw = {"axis": axis}
    if name == "apply_along_axis":
        if axis is None:
            kw["axis"] = 0
        kw["func"] = str(rng.choice(["sum", "cumsum", "flip", "first", "outer", "sort"]))
    else:
        ax = None if axis is None or not -ndim <= axis < ndim else axis % ndim
        ops.append(_along_indices(rng, shp, ax))
        if name == "put_along_axis":
            vshape = ops[1].value.shape if rng.random() < 0.5 else ()
            ops.append(array(rng, dtype(rng, DTYPES), vshape) if vshape else Val(3))

    def fn(xp, a, *rest):
        if name == "take_along_axis":
            return xp.take_along_axis(a, rest[0], axis=kw["axis"])
        if name == "put_along_axis":
            xp.put_along_axis(a, rest[0], rest[1], axis=kw["axis"])
            return None
        f = {
            "sum": xp.sum, "cumsum": xp.cumsum, "flip": lambda v: v[::-1],
            "first": lambda v: v[0], "outer": lambda v: xp.outer(v, v), "sort": xp.sort,
        }[kw["func"]]  # fmt: skip
        return xp.apply_along_axis(f, kw["axis"], a)

    return Case(f"along.{name}", fn, ops, sum_tol, repr(kw))
