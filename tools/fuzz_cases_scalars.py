"""Case families of tools/fuzz_numpy.py: NEP 50 promotion of Python scalars (at and beyond the
array dtype's range) in binary ufuncs, operators on either side, in-place operators and the
functions that take scalars; bitwise and shift operations at the integer types' edges (host
Python only)."""

import operator

import numpy as np
from fuzz_operands import DTYPES, Case, Val, array, bshapes, dtype, shape, ulp_tol

_UFUNCS = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power",
           "maximum", "minimum", "fmax", "equal", "not_equal", "less", "greater_equal",
           "bitwise_and", "bitwise_xor", "left_shift", "right_shift", "arctan2", "hypot",
           "copysign", "fmod", "logaddexp", "heaviside", "nextafter", "gcd", "logical_and",
           "float_power", "divmod"]  # fmt: skip
_ULP = {"power", "float_power", "arctan2", "hypot", "logaddexp", "true_divide"}
_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
        "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
        "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
        "<": operator.lt, "<=": operator.le, "==": operator.eq, "!=": operator.ne,
        "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
        "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow,
        "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift,
        ">>=": operator.irshift}  # fmt: skip
_FUNCS = ["where", "clip", "full_like", "isclose", "maximum_dtype", "add_dtype", "multiply_out",
          "searchsorted", "fill", "setitem", "result_type", "array_equal"]  # fmt: skip


def edge_int(rng, dt):
    """A Python int at, just inside or just beyond the range of integer dtype dt (or of int64,
    uint64 and beyond for other dtypes)."""
    dt = np.dtype(dt)
    info = np.iinfo(dt) if dt.kind in "iu" else np.iinfo(np.int64)
    lo, hi = int(info.min), int(info.max)
    return int(
        rng.choice(
            [lo, hi, lo - 1, hi + 1, hi - 1, 2**63, 2**64 - 1, 2**64, -(2**63) - 1, 0, -1, 1, 7]
        )
    )


def py_scalar(rng, dt):
    """A Python bool, int (often at the edges of dt's range), float or complex."""
    kind = str(rng.choice(["bool", "int", "edge", "edge", "float", "bigfloat", "complex"]))
    if kind == "bool":
        return bool(rng.random() < 0.5)
    if kind == "int":
        return int(rng.integers(-5, 9))
    if kind == "edge":
        return edge_int(rng, dt)
    if kind == "float":
        return float(rng.choice([0.5, -2.25, 3.0, np.nan, np.inf, -np.inf, -0.0, 1e-3, 2.5]))
    if kind == "bigfloat":  # beyond float16 and float32
        return float(rng.choice([7e4, -1e5, 3.5e38, 1e300, 65504.0, 65520.0, 1e-46]))
    return complex(float(rng.integers(-3, 4)), float(rng.choice([0.0, 1.0, -2.5, np.inf])))


def _beyond(value, lo=-(2**63), hi=2**64):
    return type(value) is int and not lo <= value < hi


def _value_operand(rng, dt, shp):
    """The array side: an array (0-d too) or a NumPy scalar of dt."""
    if rng.random() < 0.15:
        return Val(array(rng, dt, ()).np[()])
    return array(rng, dt, shp)


def gen_nep50(rng):
    dt = dtype(rng)
    shp = shape(rng, int(rng.integers(0, 3)))
    s = py_scalar(rng, dt)
    r = rng.random()
    kw, tol = {}, None
    if r < 0.4:
        name = str(rng.choice(_UFUNCS))
        ops = [_value_operand(rng, dt, shp), Val(s)]
        if rng.random() < 0.4:
            ops.reverse()
        # NumPy converts an int beyond int64 for a dtype= loop through a C long (OverflowError),
        # gpupy checks the cast first (TypeError): left open
        # and a comparison with dtype= and an int beyond the data's range is NumPy's exact
        # answer, gpupy's OverflowError (left open)
        compares = name in ("equal", "not_equal", "less", "greater_equal") and type(s) is int
        if rng.random() < 0.2 and not _beyond(s, hi=2**63) and not compares:
            kw["dtype"] = dtype(rng)
        tol = ulp_tol if name in _ULP else None
        label = f"nep50.ufunc.{name}"

        def fn(xp, *args):
            return getattr(xp, name)(*args, **kw)

    elif r < 0.75:
        sym = str(rng.choice(list(_OPS)))
        inplace = sym.endswith("=") and sym not in ("<=", "==", "!=")
        ops = [array(rng, dt, shp, writable=inplace) if inplace else _value_operand(rng, dt, shp)]
        ops.append(Val(s))
        if sym.startswith("**") and dt == "bool" and type(s) is int:
            s = 2.5  # bool ** int is int8 in NumPy, int64 in gpupy (documented)
            ops[1] = Val(s)
        reflected = not inplace and rng.random() < 0.5
        if reflected:
            ops.reverse()
        tol = ulp_tol if sym.rstrip("=") in ("/", "**", "*") else None
        label = f"nep50.op{sym}"

        def fn(xp, x, y):
            r = _OPS[sym](x, y)
            return None if inplace else r

    else:
        name = str(rng.choice(_FUNCS))
        ops, fn = _scalar_function(rng, name, dt, shp, s)
        label = f"nep50.{name}"
    return Case(label, fn, ops, tol, repr(kw))


def _scalar_function(rng, name, dt, shp, s):
    """The functions that take a Python scalar beside an array, and where it lands."""
    if _beyond(s, hi=2**63) and name in ("maximum_dtype", "add_dtype"):
        s = 7  # (see gen_nep50's dtype=)
    if _beyond(s) and name in ("array_equal", "searchsorted"):
        s = 7  # NumPy makes an object array of an int beyond uint64 here
    if _beyond(s, hi=2**63) and name == "searchsorted" and dt in ("int64", "uint64"):
        s = 7  # NumPy compares 2**63 with int64 data in float64, where 2**63 - 1 rounds up
    out_dt = dtype(rng)
    if name == "add_dtype" and dt[0] in "fc":
        out_dt = "float64"  # an out-of-range float to integer cast has no defined value
    writable = name in ("fill", "setitem")
    ops = [array(rng, dt, shp, writable=writable), Val(s)]
    if name == "where":
        ops.insert(0, array(rng, "bool", shp))
        if rng.random() < 0.5:
            ops[1], ops[2] = ops[2], ops[1]
    if name == "clip":
        ops.append(Val(py_scalar(rng, dt) if rng.random() < 0.5 else None))
        lo, hi = ops[1].value, ops[2].value
        if hi is not None and not isinstance(lo, complex) and not isinstance(hi, complex):
            if lo > hi:  # NumPy's float loops give min where its docs (and gpupy) give max
                ops[1], ops[2] = ops[2], ops[1]
        # a Python int outside an integer array's range beside integer bounds only: NumPy
        # clips exactly where it can (clip(int64, -2**63 - 1, False)), gpupy raises
        # OverflowError (left open)
        inexact = any(isinstance(o.value, (float, complex)) for o in ops[1:])
        if dt[0] in "biu" and not inexact:
            info = np.iinfo(dt) if dt != "bool" else np.iinfo(np.uint8)
            for i in (1, 2):
                v = ops[i].value
                if type(v) is int and not info.min <= v <= info.max:
                    ops[i] = Val(1)
        if ops[-1].value is None and ops[1].value is None:
            ops[1] = Val(0)
    if name == "searchsorted":
        ops[0] = array(rng, dt, shape(rng, 1))

    def fn(xp, *args):
        if name == "where":
            return xp.where(*args)
        if name == "clip":
            return xp.clip(*args)
        x, v = args[0], args[1]
        if name == "full_like":
            return xp.full_like(x, v)
        if name == "isclose":
            return xp.isclose(x, v)
        if name == "maximum_dtype":
            return xp.maximum(x, v, dtype=out_dt)
        if name == "add_dtype":
            return xp.add(v, x, dtype=out_dt, casting="unsafe")
        if name == "multiply_out":
            out = xp.zeros(np.broadcast_shapes(x.shape, ()), dtype=out_dt)
            return xp.multiply(x, v, out=out), out
        if name == "searchsorted":
            return xp.searchsorted(xp.sort(x), v)
        if name == "fill":
            x.fill(v)
            return None
        if name == "setitem":
            x[...] = v
            return None
        if name == "result_type":
            return str(xp.result_type(x, v))
        return xp.array_equal(x, v)

    return ops, fn


_SHIFTS = ["left_shift", "right_shift", "bitwise_left_shift", "bitwise_right_shift"]
_BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "bitwise_invert",
            "bitwise_not", "bitwise_count"]  # fmt: skip
_INTS = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


def _edge_values(rng, dt, shp):
    """An integer array of dt holding the type's edges, bit patterns and small values."""
    a = array(rng, dt, shp)
    base = a.base
    if base.dtype.kind in "iu" and base.size:
        info = np.iinfo(base.dtype)
        picks = [int(info.min), int(info.max), 0, 1, -1 if info.min else 2, 0x55,
                 int(info.max) // 2 + 1]  # fmt: skip
        pick = rng.random(base.shape) < 0.5
        chosen = [picks[i] for i in rng.integers(0, len(picks), int(pick.sum()))]
        base[pick] = np.array(chosen, dtype=object).astype(base.dtype)
    return a


def _shift_counts(rng, dt, shp):
    """Shift counts of dt: from 0 to past the widest type, and negative ones."""
    a = array(rng, dt, shp)
    if a.base.dtype.kind in "iu" and a.base.size:
        bits = 8 * a.base.dtype.itemsize
        lo = -3 if a.base.dtype.kind == "i" else 0
        a.base[...] = rng.integers(lo, min(bits, 64) + 3, a.base.shape)
    return a


def gen_bits(rng):
    shift = rng.random() < 0.55
    name = str(rng.choice(_SHIFTS if shift else _BITWISE))
    unary = name in ("invert", "bitwise_invert", "bitwise_not", "bitwise_count")
    shapes, full = bshapes(rng, 2)
    dt = dtype(rng, _INTS if rng.random() < 0.95 else DTYPES)
    ops = [_edge_values(rng, dt, shapes[0])]
    if not unary:
        if rng.random() < 0.3:
            count = int(rng.choice([0, 1, 7, 8, 31, 32, 63, 64, 65, 100, -1, 2**64]))
            ops.append(Val(count if shift else edge_int(rng, dt)))
        elif shift:
            ops.append(_shift_counts(rng, dtype(rng, _INTS), shapes[1]))
        else:
            ops.append(_edge_values(rng, dtype(rng, _INTS), shapes[1]))
        if rng.random() < 0.15:
            ops.reverse()
    kw = {}
    if rng.random() < 0.2:
        kw["out"] = dtype(rng, _INTS)
    if rng.random() < 0.15 and not any(isinstance(o, Val) and _beyond(o.value, hi=2**63)
                                       for o in ops):  # fmt: skip
        kw["dtype"] = dtype(rng, _INTS)  # (see gen_nep50's dtype=)

    def fn(xp, *args):
        kwargs = dict(kw)
        if "out" in kwargs:
            shp_out = np.broadcast_shapes(*(np.shape(a) for a in args))
            kwargs["out"] = xp.zeros(shp_out, dtype=kwargs["out"])
            return getattr(xp, name)(*args, **kwargs), kwargs["out"]
        return getattr(xp, name)(*args, **kwargs)

    return Case(f"bits.{name}", fn, ops, None, repr(kw) + f" full={full}")
