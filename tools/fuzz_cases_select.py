"""Case family of tools/fuzz_numpy.py: the selection functions (where, choose, take/put, compress,
clip, diff, repeat, bincount, ...) (host Python only)."""

import math

import numpy as np
from fuzz_operands import Case, Val, _axis, array, bshapes, dtype, operand, shape, sum_tol, ulp_tol


def gen_selection(rng):
    name = str(
        rng.choice(
            [
                "where1",
                "where3",
                "choose",
                "take",
                "put",
                "take_along_axis",
                "put_along_axis",
                "compress",
                "extract",
                "place",
                "putmask",
                "select",
                "diagonal",
                "clip",
                "diff",
                "repeat",
                "copyto",
                "round",
                "trace",
                "ediff1d",
                "bincount",
            ]
        )
    )
    dt = dtype(rng)
    shp = shape(rng)
    n = math.prod(shp)
    mutates = name in ("put", "put_along_axis", "place", "putmask", "copyto")
    a = array(rng, dt, shp, writable=mutates)
    ops, kw = [a], {}
    if name == "where3":
        shapes, _ = bshapes(rng, 3)
        ops = [array(rng, "bool", shapes[0])] + [
            operand(rng, dtype(rng), s, 0.3) for s in shapes[1:]
        ]
        if all(isinstance(o, Val) and type(o.value) is int for o in ops[1:]):
            ops[2] = Val(1)  # NumPy 2.4 wraps where(c, 2**64 - 1, 2**64 - 1) to int64 -1
    elif name in ("take", "put"):
        idx = rng.integers(-n - 1, n + 1, int(rng.integers(0, 5))) if n else np.zeros(0, int)
        ops.append(Val(idx))
        if rng.random() < 0.5:
            kw["mode"] = str(rng.choice(["raise", "wrap", "clip"]))
        if name == "take" and shp and rng.random() < 0.5:
            kw["axis"] = _axis(rng, len(shp), True)
        if name == "put":
            ops.append(operand(rng, dtype(rng), (int(rng.integers(1, 3)),), 0.5))
    elif name in ("take_along_axis", "put_along_axis"):
        axis = _axis(rng, len(shp), True) if shp else 0
        ishape = list(shp)
        if shp and axis is not None:
            ishape[axis] = int(rng.integers(0, 3))
        d = shp[axis] if shp and axis is not None else max(n, 1)
        ops.append(Val(rng.integers(-d, max(d, 1), ishape)))
        kw["axis"] = axis
        if name == "put_along_axis":
            ops.append(operand(rng, dtype(rng), (), 0.5))
    elif name == "choose":
        k = int(rng.integers(1, 4))
        ops = [Val(rng.integers(0, k + (rng.random() < 0.1), shp))]
        ops += [operand(rng, dt, s, 0.2) for s in bshapes(rng, k)[0]]
        if rng.random() < 0.3:
            kw["mode"] = str(rng.choice(["wrap", "clip"]))
    elif name in ("compress", "extract", "place", "putmask", "copyto"):
        ops.append(array(rng, "bool", shp if rng.random() < 0.9 else (n,)))
        if name == "compress" and shp and rng.random() < 0.5:
            kw["axis"] = _axis(rng, len(shp), True)
            ops[1] = Val([bool(b) for b in rng.random(int(rng.integers(0, 4))) < 0.5])
        if name in ("place", "putmask", "copyto"):
            ops.append(operand(rng, dtype(rng), (int(rng.integers(1, 3)),), 0.4))
            if name == "copyto" and rng.random() < 0.5:
                kw["casting"] = str(rng.choice(["no", "safe", "same_kind", "unsafe"]))
    elif name == "select":
        k = int(rng.integers(1, 3))
        ops = [array(rng, "bool", shp) for _ in range(k)] + [array(rng, dt, shp) for _ in range(k)]
        kw["k"] = k
    elif name == "clip":
        ops += [operand(rng, dtype(rng), s, 0.5) for s in bshapes(rng, 2)[0]]
        if rng.random() < 0.2:
            ops[2] = Val(None)
    elif name in ("diff",):
        kw["n"] = int(rng.integers(0, 3))
        if shp:
            kw["axis"] = _axis(rng, len(shp), True)
    elif name == "repeat":
        ops.append(Val(int(rng.integers(0, 3))))
        kw["axis"] = _axis(rng, len(shp), True) if shp else None
    elif name == "round":
        kw["decimals"] = int(rng.integers(-2, 3))
    elif name in ("diagonal", "trace"):
        kw["offset"] = int(rng.integers(-2, 3))
    elif name == "bincount":  # small counts: NumPy 2.4 corrupts its heap on bincount([2**63-1])
        ops = [
            Val(
                rng.integers(0, 12, int(rng.integers(0, 6))).astype(
                    str(rng.choice(["int8", "int64", "uint16", "bool"]))
                )
            )
        ]

    def fn(xp, *args):
        kwargs = dict(kw)
        if name == "where1":
            return xp.where(*args)
        if name == "where3":
            return xp.where(*args)
        if name == "select":
            k = kwargs.pop("k")
            return xp.select(list(args[:k]), list(args[k:]), default=0)
        if name == "copyto":
            xp.copyto(args[0], args[2], where=args[1], **kwargs)
            return None
        if name == "place":
            xp.place(*args)
            return None
        if name == "putmask":
            xp.putmask(*args)
            return None
        if name in ("put", "put_along_axis"):
            getattr(xp, name)(*args, **kwargs)
            return None
        if name in ("extract", "compress") and "axis" not in kwargs:
            return getattr(xp, name)(args[1], args[0])
        if name == "compress":
            return xp.compress(args[1], args[0], **kwargs)
        if name == "choose":
            return xp.choose(args[0], list(args[1:]), **kwargs)
        return getattr(xp, name)(*args, **kwargs)

    tol = sum_tol if name in ("trace",) else ulp_tol if name == "round" else None
    return Case(f"select.{name}", fn, ops, tol, repr(kw))
