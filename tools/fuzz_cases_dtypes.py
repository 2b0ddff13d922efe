"""Case family of tools/fuzz_numpy.py: dtype rules of the functions that mix arrays and scalars
(where, clip, nan_to_num, round/around on integers, astype with casting=, in-place operators,
ufunc outer/at/reduceat with dtype=) (host Python only)."""

import operator

import numpy as np
from fuzz_operands import (
    DTYPES,
    NUMERIC,
    Case,
    Val,
    _axis,
    array,
    bshapes,
    dtype,
    operand,
    scalar,
    shape,
    sum_tol,
    ulp_tol,
    warn_undefined_at_cast,
)

_MIXED = ["where", "clip", "nan_to_num", "round", "around", "astype", "inplace", "outer",
          "at", "reduceat"]  # fmt: skip
_CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
_IOPS = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "//=": operator.ifloordiv,
         "%=": operator.imod, "&=": operator.iand, "|=": operator.ior, "<<=": operator.ilshift,
         "/=": operator.itruediv, "**=": operator.ipow}  # fmt: skip
_METHOD_UFUNCS = ["add", "multiply", "maximum", "minimum", "subtract", "bitwise_and", "fmin",
                  "logical_xor", "true_divide", "copysign"]  # fmt: skip


def _small_scalar(rng):
    """A Python or NumPy scalar, never beyond int64 (NumPy's own huge-int paths are covered
    elsewhere)."""
    s = scalar(rng)
    return 7 if type(s) is int and not -(2**62) < s < 2**62 else s


def _where_clip(rng, name, dt, shp):
    shapes, _ = bshapes(rng, 3)
    if name == "where":
        ops = [array(rng, "bool", shapes[0])]
        ops += [operand(rng, dtype(rng), s, 0.5) for s in shapes[1:]]
        for i in (1, 2):
            if isinstance(ops[i], Val):
                ops[i] = Val(_small_scalar(rng))
        return ops, {}
    ops = [array(rng, dt, shp)]
    for _ in range(2):
        r = rng.random()
        ops.append(Val(None) if r < 0.2 else Val(_small_scalar(rng)) if r < 0.7 else
                   array(rng, dtype(rng), shp))  # fmt: skip
    if all(isinstance(o, Val) and o.value is None for o in ops[1:]):
        ops[2] = Val(3)
    return ops, {}


def gen_dtype_mix(rng):
    name = str(rng.choice(_MIXED))
    dt = dtype(rng)
    shp = shape(rng)
    kw, tol = {}, None
    if name in ("where", "clip"):
        ops, kw = _where_clip(rng, name, dt, shp)
    elif name == "nan_to_num":
        ops = [array(rng, dt, shp)]
        for k in ("nan", "posinf", "neginf"):
            if rng.random() < 0.4:
                kw[k] = _small_scalar(rng) if rng.random() < 0.7 else None
        if rng.random() < 0.3:
            kw["copy"] = False
            ops[0] = array(rng, dt, shp, writable=True)
    elif name in ("round", "around"):
        ops = [array(rng, dtype(rng, NUMERIC[:8] + ("bool", "float32", "float64")), shp)]
        kw["decimals"] = int(rng.integers(-4, 4))
        tol = None if np.dtype(ops[0].np.dtype).kind in "biu" else ulp_tol
    elif name == "astype":
        ops = [array(rng, dt, shp)]
        kw = {"dtype": dtype(rng), "casting": str(rng.choice(_CASTINGS))}
        if rng.random() < 0.3:
            kw["copy"] = False
    elif name == "inplace":
        sym = str(rng.choice(list(_IOPS)))
        shapes, full = bshapes(rng, 2)
        ops = [array(rng, dt, full, writable=True), operand(rng, dtype(rng), shapes[1], 0.5)]
        if isinstance(ops[1], Val):
            ops[1] = Val(_small_scalar(rng))
        kw["op"] = sym
        tol = ulp_tol if sym in ("/=", "**=", "*=") else None
    else:  # ufunc methods with dtype=
        uname = str(rng.choice(_METHOD_UFUNCS))
        kw["ufunc"] = uname
        ops = [array(rng, dt, shp, writable=name == "at")]
        if name == "outer":
            ops.append(operand(rng, dtype(rng), shape(rng, int(rng.integers(0, 3))), 0.3))
            if isinstance(ops[-1], Val):
                ops[-1] = Val(_small_scalar(rng))
        elif name == "reduceat":
            n = shp[0] if shp else 0
            ops.append(Val([int(i) for i in rng.integers(0, max(n, 1), int(rng.integers(1, 4)))]))
            kw["axis"] = 0 if shp else None
        else:
            if not shp:  # NumPy checks the loop before a 0-d array's index, gpupy after
                shp = (int(rng.integers(1, 4)),)
                ops = [array(rng, dt, shp, writable=True)]
            n = shp[0]
            idx = (
                [int(i) for i in rng.integers(-n, max(n, 1), int(rng.integers(0, 4)))] if n else []
            )
            ops += [Val(idx), operand(rng, dtype(rng), (), 0.6)]
            if isinstance(ops[-1], Val):
                ops[-1] = Val(_small_scalar(rng))
        if name != "at" and rng.random() < 0.5:
            kw["dtype"] = dtype(rng, DTYPES)
            if np.dtype(kw["dtype"]).kind in "biu" and ops[0].np.dtype.kind in "fc":
                kw["dtype"] = "float64"  # out-of-range float to integer casts have no value
        tol = sum_tol if uname in ("add", "multiply", "subtract", "true_divide") else None
        if name == "reduceat" and not shp:
            kw["axis"] = _axis(rng, 0)

    def fn(xp, *args):
        kwargs = dict(kw)
        if name == "where":
            return xp.where(*args)
        if name == "clip":
            return xp.clip(*args)
        if name == "nan_to_num":
            r = xp.nan_to_num(args[0], **kwargs)
            return None if kwargs.get("copy") is False else r
        if name in ("round", "around"):
            return getattr(xp, name)(args[0], **kwargs)
        if name == "astype":
            return args[0].astype(kwargs.pop("dtype"), **kwargs)
        if name == "inplace":
            _IOPS[kwargs["op"]](args[0], args[1])
            return None
        u = getattr(xp, kwargs.pop("ufunc"))
        if name == "at" and xp is np:
            warn_undefined_at_cast(u, *args)
        return getattr(u, name)(*args, **kwargs)

    label = f"mix.{name}.{kw['ufunc']}" if "ufunc" in kw else f"mix.{name}"  # max/min: signless
    return Case(label, fn, ops, tol, repr(kw))
