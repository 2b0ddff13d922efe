"""Case families of tools/fuzz_numpy.py: shape manipulation with the arguments the joining
family does not draw (tuples of axes and shifts, per-axis pad widths and every pad mode, array
repeats, slices for insert/delete, trim= for trim_zeros, ...) (host Python only)."""

import math

import numpy as np
from fuzz_operands import REAL, Case, Val, array, dtype, scalar, shape, sum_tol

_PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "linear_ramp", "maximum",
              "minimum", "mean", "median"]  # fmt: skip


def _axes(rng, ndim, k=None):
    k = int(rng.integers(1, ndim + 1)) if k is None else k
    return tuple(int(a) for a in rng.choice(range(-ndim, ndim), k, replace=False))


def _pad_width(rng, ndim):
    r = rng.random()
    if r < 0.3:
        return int(rng.integers(0, 3))
    if r < 0.5:
        return (int(rng.integers(0, 3)), int(rng.integers(0, 3)))
    return tuple((int(rng.integers(0, 3)), int(rng.integers(0, 3))) for _ in range(ndim))


def _pad_kwargs(rng, mode, dt):
    kw = {}
    if mode == "constant" and rng.random() < 0.6:
        kw["constant_values"] = scalar(rng, dt) if rng.random() < 0.5 else (1, 2)
    if mode in ("reflect", "symmetric") and rng.random() < 0.4:
        kw["reflect_type"] = "odd"
    if mode in ("maximum", "minimum", "mean", "median") and rng.random() < 0.5:
        kw["stat_length"] = int(rng.integers(1, 4))
    if mode == "linear_ramp" and rng.random() < 0.5:
        kw["end_values"] = int(rng.integers(-3, 4))
    return kw


def gen_shape(rng):
    name = str(
        rng.choice(
            ["moveaxis", "swapaxes", "roll", "rot90", "tile", "repeat", "pad", "insert", "delete",
             "append", "resize", "trim_zeros", "flip", "transpose", "expand_dims", "reshape_F",
             "unstack", "concat_none", "atleast_3d", "fliplr_ud"]
        )
    )  # fmt: skip
    dt = dtype(rng)
    shp = shape(rng, int(rng.integers(1, 4)))
    ndim = len(shp)
    ops, kw = [array(rng, dt, shp)], {}
    tol = None
    if name == "moveaxis":
        k = int(rng.integers(1, ndim + 1))
        kw = {"source": _axes(rng, ndim, k), "destination": _axes(rng, ndim, k)}
    elif name == "swapaxes":
        kw = {"axis1": int(rng.integers(-ndim, ndim)), "axis2": int(rng.integers(-ndim, ndim))}
    elif name == "roll":
        axes = _axes(rng, ndim)
        shifts = tuple(int(s) for s in rng.integers(-7, 8, len(axes)))
        kw = {"shift": shifts if rng.random() < 0.7 else shifts[0], "axis": axes}
    elif name == "rot90":
        kw = {"k": int(rng.integers(-3, 6)), "axes": _axes(rng, ndim, 2) if ndim >= 2 else (0, 1)}
    elif name == "tile":
        kw["reps"] = tuple(int(r) for r in rng.integers(0, 3, int(rng.integers(1, 5))))
    elif name == "repeat":
        axis = int(rng.integers(-ndim, ndim))
        reps = rng.integers(0, 3, shp[axis] if rng.random() < 0.8 else shp[axis] + 1)
        kw = {"repeats": [int(r) for r in reps], "axis": axis}
    elif name == "pad":
        mode = str(rng.choice(_PAD_MODES))
        kw = {"pad_width": _pad_width(rng, ndim), "mode": mode, **_pad_kwargs(rng, mode, dt)}
        if mode in ("mean", "linear_ramp", "median"):
            ops = [array(rng, dtype(rng, REAL[1:]), shp)]  # NumPy's bool mean/ramp: not drawn
            tol = sum_tol
    elif name in ("insert", "delete"):
        axis = int(rng.integers(-ndim, ndim)) if rng.random() < 0.7 else None
        n = shp[axis] if axis is not None else math.prod(shp)
        r = rng.random()
        obj = (
            slice(int(rng.integers(-n - 1, n + 1)), None, int(rng.choice([1, 2, -1])))
            if r < 0.4
            else [int(i) for i in rng.integers(-n, n + 1, int(rng.integers(0, 4)))]
            if r < 0.8 or not n
            else np.array(rng.random(n) < 0.5)
        )
        if name == "insert" and isinstance(obj, np.ndarray):
            obj = [int(i) for i in np.flatnonzero(obj)]
        kw = {"obj": obj, "axis": axis}
        if name == "insert":
            ops.append(Val(scalar(rng, dt)) if rng.random() < 0.6 else Val([1, 2]))
    elif name == "append":
        axis = int(rng.integers(-ndim, ndim)) if rng.random() < 0.7 else None
        s = list(shp)
        if axis is not None:
            s[axis] = int(rng.integers(0, 3))
        ops.append(array(rng, dt if rng.random() < 0.6 else dtype(rng), tuple(s)))
        kw["axis"] = axis
    elif name == "resize":
        kw["new_shape"] = shape(rng, int(rng.integers(0, 3)))
    elif name == "trim_zeros":
        ops = [array(rng, dt, (int(rng.integers(0, 8)),))]
        kw["trim"] = str(rng.choice(["fb", "f", "b", "FB", "bf"]))
    elif name == "flip":
        kw["axis"] = _axes(rng, ndim)
    elif name == "transpose":
        kw["axes"] = tuple(int(a) for a in rng.permutation(ndim)) if rng.random() < 0.8 else None
    elif name == "expand_dims":
        kw["axis"] = _axes(rng, ndim + 2, int(rng.integers(1, 3)))
    elif name == "reshape_F":
        n = math.prod(shp)
        kw["shape"] = (-1,) if rng.random() < 0.3 else (n, 1) if rng.random() < 0.5 else (1, -1)
    elif name == "unstack":
        kw["axis"] = int(rng.integers(-ndim, ndim))
    elif name == "concat_none":
        ops.append(array(rng, dtype(rng), shape(rng, int(rng.integers(1, 3)))))

    def fn(xp, x, *rest):
        kwargs = dict(kw)
        if name == "insert":
            return xp.insert(x, kwargs["obj"], rest[0], axis=kwargs["axis"])
        if name == "delete":
            return xp.delete(x, kwargs["obj"], axis=kwargs["axis"])
        if name == "append":
            return xp.append(x, rest[0], axis=kwargs["axis"])
        if name == "reshape_F":
            return xp.reshape(x, kwargs["shape"], order="F")
        if name == "concat_none":
            return xp.concatenate([x, rest[0]], axis=None)
        if name == "atleast_3d":
            return xp.atleast_3d(x)
        if name == "fliplr_ud":
            return xp.flipud(x) if x.ndim < 2 else xp.fliplr(x)
        return getattr(xp, name)(x, *rest, **kwargs)

    return Case(f"shape.{name}", fn, ops, tol, repr(kw))
