"""Operands and case families drawn by tools/fuzz_numpy.py (host Python only)."""

import math
import operator

import numpy as np

DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
NUMERIC = DTYPES[1:]
REAL = DTYPES[:12]


# --- operands -----------------------------------------------------------------------------------


class Arr:
    """An array operand: a base array on the host and the view of it the call receives."""

    def __init__(self, base, layout, view):
        self.base, self.layout, self.view = base, layout, view

    def build(self, xp, device):
        if xp is np:
            return self.view(np, self.base.copy())
        import gpupy

        return self.view(gpupy, gpupy.asarray(self.base, device=device))

    @property
    def np(self):
        return self.view(np, self.base)

    def __repr__(self):
        v = self.np
        return f"{v.dtype}{list(v.shape)}<{self.layout}>{self.base.tolist()!r:.300}"


class Val:
    """A non-array operand passed unchanged to both sides (Python or NumPy scalar, list, ...)."""

    def __init__(self, value):
        self.value = value

    def build(self, xp, device):
        if xp is np or not isinstance(self.value, np.ndarray):
            return self.value
        import gpupy  # index arrays live where the data does: emu refuses host ones (no copies)

        return gpupy.asarray(self.value, device=device)

    def __repr__(self):
        v = self.value
        return f"np.{type(v).__name__}({v!r})" if isinstance(v, np.generic) else repr(v)


def values(rng, dtype, n):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = max(info.min, -9)
        v = rng.integers(lo, 10, n, endpoint=True)
        special = np.array([info.min, info.max, 0, 1], dtype=object)
        pick = rng.random(n) < 0.08
        out = v.astype(object)
        out[pick] = rng.choice(special, pick.sum())
        return np.array(out.tolist(), dtype=dt) if n else np.zeros(0, dt)
    if dt.kind == "f":
        v = np.where(rng.random(n) < 0.5, rng.integers(-6, 7, n), rng.normal(0, 4, n))
        special = [np.nan, np.inf, -np.inf, -0.0, 0.5, 2.5, -1.5, 1e-40, 7e4, 1e10]
        pick = rng.random(n) < 0.08
        v[pick] = rng.choice(special, pick.sum())
        with np.errstate(all="ignore"):
            return v.astype(dt)
    real = values(rng, "float64" if dt.itemsize == 16 else "float32", n)
    imag = values(rng, "float64" if dt.itemsize == 16 else "float32", n)
    imag[rng.random(n) < 0.3] = 0
    out = np.empty(n, dt)
    out.real, out.imag = real, imag
    return out


def shape(rng, ndim=None, small=False):
    if ndim is None:
        ndim = int(rng.choice([0, 1, 1, 2, 2, 3, 4], p=[0.1, 0.25, 0.15, 0.2, 0.15, 0.1, 0.05]))
    dims = [0, 1, 1, 2, 3, 4, 5] if not small else [1, 2, 3]
    return tuple(int(rng.choice(dims)) for _ in range(ndim))


def _slicer(steps):
    return lambda xp, x: x[tuple(steps)]


def array(rng, dtype, shp, writable=False):
    """An Arr of the given logical shape, laid out contiguously or as a strided view."""
    layouts = ["c", "c", "step", "neg", "T", "bcast"] if not writable else ["c", "step", "neg", "T"]
    layout = rng.choice(layouts) if len(shp) else "c"
    n = math.prod(shp)
    if layout == "step":
        base_shape = tuple(2 * d + 1 for d in shp)
        sl = [slice(1, None, 2) for _ in shp]
        base = values(rng, dtype, math.prod(base_shape)).reshape(base_shape)
        return Arr(base, "step", _slicer(sl))
    if layout == "neg":
        flips = [slice(None, None, -1) if rng.random() < 0.6 else slice(None) for _ in shp]
        return Arr(values(rng, dtype, n).reshape(shp), "neg", _slicer(flips))
    if layout == "T":
        base = values(rng, dtype, n).reshape(shp[::-1])
        return Arr(base, "T", lambda xp, x: x.T)
    if layout == "bcast" and any(d != 1 for d in shp):
        small = tuple(d if rng.random() < 0.5 else 1 for d in shp)
        base = values(rng, dtype, math.prod(small)).reshape(small)
        return Arr(base, "bcast", lambda xp, x: xp.broadcast_to(x, shp))
    return Arr(values(rng, dtype, n).reshape(shp), "c", lambda xp, x: x)


def scalar(rng, dtype=None):
    """A Python scalar or a NumPy scalar."""
    if rng.random() < 0.5:
        kind = rng.choice(["bool", "int", "float", "complex", "bigint", "negint"])
        return {
            "bool": bool(rng.random() < 0.5),
            "int": int(rng.integers(-5, 9)),
            "float": float(rng.choice([0.5, -2.25, 3.0, np.nan, np.inf, -0.0, 1e-3])),
            "complex": complex(rng.integers(-3, 4), rng.integers(-3, 4)),
            "bigint": int(rng.choice([300, 70000, 2**33, 2**63 - 1, 2**64 - 1, 2**70])),
            "negint": int(rng.choice([-129, -40000, -(2**40)])),
        }[str(kind)]
    dt = dtype or rng.choice(NUMERIC)
    return np.dtype(dt).type(values(rng, dt, 1)[0])


def operand(rng, dtype, shp, scalar_p=0.2):
    return Val(scalar(rng)) if rng.random() < scalar_p else array(rng, dtype, shp)


def bshapes(rng, nops):
    """Shapes that broadcast together (sometimes, on purpose, shapes that do not)."""
    full = shape(rng)
    out = []
    for _ in range(nops):
        s = list(full[int(rng.integers(0, len(full) + 1)) :] if rng.random() < 0.3 else full)
        s = [1 if rng.random() < 0.25 else d for d in s]
        out.append(tuple(s))
    if rng.random() < 0.03 and full:
        out[0] = tuple(d + 1 for d in out[0])
    return out, full


def dtype(rng, kinds=DTYPES):
    return str(rng.choice(kinds))


# --- cases --------------------------------------------------------------------------------------


class Case:
    def __init__(self, name, fn, operands, tol=None, text=""):
        self.name, self.fn, self.operands, self.tol, self.text = name, fn, operands, tol, text
        # The sign of a zero result of max/min-like functions of +0 and -0 is unspecified.
        signless = ("max", "min", "clip", "sort", "median", "set.", "unique")
        self.signless = any(m in name for m in signless)

    def describe(self):
        ops = ", ".join(f"a{i}={op!r}" for i, op in enumerate(self.operands))
        return f"{self.name} {self.text} | {ops}"


def ulp_tol(dt):
    """Transcendental functions: a few ulps (NumPy's SIMD loops and glibc may differ)."""
    return {"f": (4e-3, 1e-6), "e": (4e-3, 1e-6)}.get(dt.char, None) or (
        (2e-6, 1e-30) if dt in (np.float32, np.complex64) else (1e-13, 1e-300)
    )


def sum_tol(dt):
    """Order-dependent sums: rounding differs with the summation order."""
    if dt == np.float16:
        return (2e-2, 2e-2)
    return (1e-4, 1e-4) if dt in (np.float32, np.complex64) else (1e-9, 1e-9)


BINARY_EXACT = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "maximum",
    "minimum", "fmax", "fmin", "copysign", "nextafter", "bitwise_and", "bitwise_or", "bitwise_xor",
    "left_shift", "right_shift", "logical_and", "logical_or", "logical_xor", "equal", "not_equal",
    "less", "less_equal", "greater", "greater_equal", "gcd", "lcm", "heaviside", "divmod",
]  # fmt: skip
BINARY_ULP = ["power", "float_power", "arctan2", "hypot", "logaddexp", "logaddexp2", "ldexp"]
UNARY_EXACT = [
    "negative", "positive", "absolute", "sign", "square", "floor", "ceil", "trunc", "rint", "fix",
    "isnan", "isinf", "isfinite", "signbit", "invert", "logical_not", "conjugate", "real", "imag",
    "spacing", "modf", "frexp", "reciprocal", "sqrt", "isreal", "iscomplex", "isneginf",
    "isposinf", "nan_to_num", "iscomplexobj", "isrealobj",
]  # fmt: skip
UNARY_ULP = [
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan", "arcsin",
    "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "cbrt",
    "deg2rad", "rad2deg", "angle", "sinc", "i0",
]  # fmt: skip
_COMPLEX_ULP = {"multiply", "divide", "reciprocal", "sqrt", "square", "absolute"}


def _ufunc_kwargs(rng, shp, n_out):
    kw, ops = {}, []
    if rng.random() < 0.25:
        kw["dtype"] = dtype(rng)
    if rng.random() < 0.2:
        kw["casting"] = str(rng.choice(["no", "equiv", "safe", "same_kind", "unsafe"]))
    if rng.random() < 0.3:
        out_dt = dtype(rng)
        for _ in range(n_out):
            ops.append(array(rng, out_dt, shp, writable=True))
        kw["out"] = None
        if rng.random() < 0.3:
            where_shape = shp[int(rng.integers(0, len(shp) + 1)) :] if shp else ()
            ops.append(array(rng, "bool", where_shape))
            kw["where"] = None
    return kw, ops


def _call_ufunc(name, nin, n_out, kw):
    def fn(xp, *args):
        ins, rest = args[:nin], list(args[nin:])
        kwargs = dict(kw)
        if "out" in kwargs:
            kwargs["out"] = tuple(rest[:n_out]) if n_out > 1 else rest[0]
            rest = rest[n_out:]
        if "where" in kwargs:
            kwargs["where"] = rest[0]
        return getattr(xp, name)(*ins, **kwargs)

    return fn


_COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
_NOUT = {"divmod": 2, "modf": 2, "frexp": 2}
_NOT_UFUNC = {"fix", "real", "imag", "isreal", "iscomplex", "isneginf", "isposinf", "nan_to_num",
              "iscomplexobj", "isrealobj", "angle", "sinc", "i0"}  # fmt: skip


def gen_ufunc(rng):
    binary = rng.random() < 0.55
    names = (BINARY_EXACT + BINARY_ULP) if binary else (UNARY_EXACT + UNARY_ULP)
    name = str(rng.choice(names))
    nin, n_out = (2 if binary else 1), _NOUT.get(name, 1)
    shapes, full = bshapes(rng, nin)
    # NumPy's integer reciprocal of 0 is whatever the C conversion of inf gives: not drawn
    kinds = DTYPES[9:] if name == "reciprocal" else DTYPES
    ops = [operand(rng, dtype(rng, kinds), s, 0.25 if binary else 0.05) for s in shapes]
    if all(isinstance(o, Val) for o in ops):
        ops[0] = array(rng, dtype(rng), shapes[0])
    kw = {}
    if name not in _NOT_UFUNC:
        kw, extra = _ufunc_kwargs(rng, full, n_out)
        ops += extra
    if name == "ldexp" and isinstance(ops[0], Val):  # NumPy's ldexp(Python int) is float16
        ops[0] = array(rng, dtype(rng, REAL), shapes[0])
    if "where" in kw and name in _COMPARISONS:  # NumPy 2.4 crashes on where= with an int beyond
        ops = [Val(1) if isinstance(o, Val) and type(o.value) is int else o for o in ops]
    ulp = name in BINARY_ULP or name in UNARY_ULP or name in _COMPLEX_ULP
    return Case(
        f"ufunc.{name}", _call_ufunc(name, nin, n_out, kw), ops, ulp_tol if ulp else None, repr(kw)
    )


INPLACE = ["+=", "-=", "*=", "/=", "//=", "%=", "**=", "&=", "|=", "^=", "<<=", ">>="]
_IOPS = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow, "&=": operator.iand,
    "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift, ">>=": operator.irshift,
}  # fmt: skip
BINOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
    "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
    "<": operator.lt, "==": operator.eq, ">=": operator.ge, "@": operator.matmul,
}  # fmt: skip


def gen_operator(rng):
    inplace = rng.random() < 0.5
    sym = str(rng.choice(INPLACE if inplace else list(BINOPS)))
    f = _IOPS[sym] if inplace else BINOPS[sym]
    shapes, full = bshapes(rng, 2)
    a = array(rng, dtype(rng), full if inplace else shapes[0], writable=inplace)
    b = operand(rng, dtype(rng), shapes[1], 0.4)
    if not inplace and rng.random() < 0.3:
        a, b = (Val(scalar(rng)), a)

    def fn(xp, x, y):
        r = f(x, y)
        return None if inplace else r

    # complex products and quotients round differently with and without FMA
    tol = ulp_tol if any(c in sym for c in "*@/") else None
    return Case(f"op{sym}", fn, [a, b], tol)


REDUCTIONS = [
    "sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax", "any", "all", "ptp",
    "cumsum", "cumprod", "nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanargmin",
    "nanargmax", "median", "count_nonzero", "average", "nanstd", "nanvar", "nancumsum",
    "amax", "amin",
]  # fmt: skip
_AXIS_ONE = {"argmin", "argmax", "cumsum", "cumprod", "nanargmin", "nanargmax", "nancumsum"}
_HAS_DTYPE = {"sum", "prod", "mean", "std", "var", "cumsum", "cumprod", "nansum", "nanprod",
              "nanmean", "nanstd", "nanvar", "nancumsum"}  # fmt: skip
_HAS_WHERE = {"sum", "prod", "mean", "std", "var", "min", "max", "any", "all", "nansum",
              "nanprod", "nanmean", "nanmin", "nanmax", "amax", "amin"}  # fmt: skip
_NO_KEEPDIMS = {"cumsum", "cumprod", "nancumsum"}
_ORDERED = {"median", "sum", "mean", "std", "var", "nansum", "nanmean", "nanstd", "nanvar",
            "average", "cumsum", "nancumsum", "prod", "nanprod", "cumprod"}  # fmt: skip


def _axis(rng, ndim, single=False):
    r = rng.random()
    if r < 0.25 or ndim == 0:
        return None if r < 0.2 or ndim == 0 and rng.random() < 0.7 else 0
    ax = int(rng.integers(-ndim, ndim))
    if single or r < 0.7:
        return ax
    k = int(rng.integers(1, ndim + 1))
    return tuple(int(a) for a in rng.choice(range(-ndim, 0), k, replace=False))


def gen_reduction(rng):
    name = str(rng.choice(REDUCTIONS))
    dt = dtype(rng)
    shp = shape(rng)
    a = array(rng, dt, shp)
    kw = {"axis": _axis(rng, len(shp), name in _AXIS_ONE)}
    if rng.random() < 0.3 and name not in _NO_KEEPDIMS:
        kw["keepdims"] = True
    if name in _HAS_DTYPE and rng.random() < 0.2:
        # NumPy's var/std with an integer or complex dtype= return that dtype (not covered)
        kw["dtype"] = dtype(
            rng, NUMERIC if "std" not in name and "var" not in name else ("float32", "float64")
        )
    if name in ("std", "var", "nanstd", "nanvar") and rng.random() < 0.3:
        kw["ddof"] = int(rng.integers(0, 3))
    ops = [a]
    if name in _HAS_WHERE and rng.random() < 0.2:
        ops.append(array(rng, "bool", shp[int(rng.integers(0, len(shp) + 1)) :]))
        if name in ("min", "max", "amax", "amin", "nanmin", "nanmax") or rng.random() < 0.5:
            kw["initial"] = 3
    method = rng.random() < 0.3 and name in (
        "sum",
        "prod",
        "mean",
        "std",
        "var",
        "min",
        "max",
        "argmin",
        "argmax",
        "any",
        "all",
        "cumsum",
        "cumprod",
    )

    def fn(xp, x, *rest):
        kwargs = dict(kw)
        if rest:
            kwargs["where"] = rest[0]
        if method:
            return getattr(x, name)(**kwargs)
        return getattr(xp, name)(x, **kwargs)

    tol = sum_tol if name in _ORDERED or dt == "float16" else None
    return Case(f"reduce.{name}", fn, ops, tol, repr(kw) + (" method" if method else ""))


UFUNC_METHOD_NAMES = ["add", "multiply", "maximum", "minimum", "subtract", "logical_and",
                      "logical_or", "bitwise_xor", "bitwise_or", "fmax", "equal", "divide",
                      "floor_divide", "power", "hypot"]  # fmt: skip


def gen_ufunc_method(rng):
    uname = str(rng.choice(UFUNC_METHOD_NAMES))
    meth = str(rng.choice(["reduce", "accumulate", "outer", "at", "reduceat"]))
    if uname == "power" and meth in ("reduce", "reduceat"):
        uname = "subtract"  # NumPy 2.4's float power.reduce is not its left-to-right power
    dt = dtype(rng)
    shp = shape(rng)
    a = array(rng, dt, shp, writable=meth == "at")
    ops, kw = [a], {}
    if meth in ("reduce", "accumulate", "reduceat"):
        kw["axis"] = _axis(rng, len(shp), meth != "reduce") if len(shp) else 0
        if meth == "reduce" and rng.random() < 0.3:
            kw["keepdims"] = True
        if meth == "reduce" and rng.random() < 0.2:
            kw["initial"] = int(rng.integers(0, 3))
        if rng.random() < 0.2:
            kw["dtype"] = dtype(rng, NUMERIC)
    if meth == "outer":
        ops.append(operand(rng, dtype(rng), shape(rng, int(rng.integers(0, 3))), 0.2))
    if meth == "reduceat":
        n = shp[kw["axis"]] if shp and kw["axis"] is not None else 0
        ops.append(Val([int(i) for i in rng.integers(0, max(n, 1), int(rng.integers(1, 4)))]))
    if meth == "at":
        n = shp[0] if shp else 0
        idx = [int(i) for i in rng.integers(-n, max(n, 1), int(rng.integers(0, 5)))] if n else []
        ops.append(Val(idx))
        if uname not in ("logical_and", "logical_or", "equal"):
            value = operand(rng, dtype(rng), (), 0.7)
            if isinstance(value, Val) and type(value.value) is int and abs(value.value) > 2**62:
                value = Val(2)  # NumPy 2.4's power.at(uint32_array, [0], 2**70) never returns
            ops.append(value)

    def fn(xp, x, *rest):
        u = getattr(xp, uname)
        return getattr(u, meth)(x, *rest, **kw)

    ordered = uname in ("add", "multiply", "subtract", "divide", "power", "hypot")
    tol = sum_tol if ordered or dt == "float16" else None
    return Case(f"{meth}.{uname}", fn, ops, tol, repr(kw))


def gen_sorting(rng):
    name = str(
        rng.choice(
            [
                "sort",
                "argsort",
                "searchsorted",
                "nonzero",
                "flatnonzero",
                "argwhere",
                "unique",
                "lexsort",
                "sort_complex",
                "msort_method",
                "unique_counts",
                "unique_inverse",
                "unique_values",
                "partition_sorted",
            ]
        )
    )
    dt = dtype(rng)
    shp = shape(rng)
    a = array(rng, dt, shp, writable=name == "msort_method")
    kw = {}
    ops = [a]
    if name in ("sort", "argsort"):
        kw["axis"] = _axis(rng, len(shp), True) if shp else None
        kw["stable"] = True
    if name == "searchsorted":
        a = array(rng, dt, shape(rng, 1))
        ops = [a, operand(rng, dtype(rng), shape(rng, int(rng.integers(0, 3))), 0.3)]
        kw["side"] = str(rng.choice(["left", "right"]))
    if name == "unique":
        for k in ("return_index", "return_inverse", "return_counts"):
            if rng.random() < 0.4:
                kw[k] = True
        if rng.random() < 0.2 and shp:
            kw["axis"] = _axis(rng, len(shp), True)
    if name == "lexsort":
        ops = [array(rng, dt, shape(rng, 2))]

    def fn(xp, x, *rest):
        if name == "searchsorted":
            return xp.searchsorted(xp.sort(x), rest[0], **kw)
        if name == "msort_method":
            x.sort(axis=-1)
            return None
        if name == "partition_sorted":
            return xp.sort(xp.partition(x, 0, axis=None))
        if name == "unique_values":  # NumPy 2.4 leaves its order unspecified
            return xp.sort(xp.unique_values(x))
        return getattr(xp, name)(x, *rest, **kw)

    return Case(f"sort.{name}", fn, ops, None, repr(kw))


def _index(rng, shp):
    """A random index expression for an array of shape shp (may be out of range on purpose)."""
    parts = []
    for d in shp:
        r = rng.random()
        if r < 0.3:
            parts.append(slice(None))
        elif r < 0.5:
            lo = int(rng.integers(-d - 1, d + 2)) if d else 0
            parts.append(slice(lo, None, int(rng.choice([1, 2, -1, 3]))))
        elif r < 0.7:
            parts.append(int(rng.integers(-d, d)) if d else 0)
        elif r < 0.85:
            k = int(rng.integers(0, 4))
            idx = rng.integers(-d, max(d, 1), k) if d else np.zeros(k, int)
            parts.append(idx.astype(str(rng.choice(["int64", "int32", "uint8", "intp"]))))
        else:
            parts.append(rng.random(d) < 0.5)
    r = rng.random()
    if r < 0.1:
        parts.insert(int(rng.integers(0, len(parts) + 1)), None)
    elif r < 0.2 and parts:
        parts[int(rng.integers(0, len(parts)))] = Ellipsis
    if rng.random() < 0.3 and parts:
        parts = parts[: int(rng.integers(0, len(parts)))]
    if rng.random() < 0.05:
        return rng.random(shp) < 0.5  # a whole-array mask
    return tuple(parts)


def _index_repr(ix):
    return (
        repr(tuple(p.tolist() if isinstance(p, np.ndarray) else p for p in ix))
        if isinstance(ix, tuple)
        else f"mask{ix.tolist()}"
    )


def _to_dev(xp, ix):
    """Index arrays as gpupy arrays on the device (NumPy ones too on cpu, half the time)."""
    if xp is np:
        return ix
    if not isinstance(ix, tuple):
        return xp.asarray(ix)
    cpu = xp.get_default_device() == xp.Device("cpu")
    return tuple(
        xp.asarray(p) if isinstance(p, np.ndarray) and (p.size % 2 or not cpu) else p for p in ix
    )


def gen_indexing(rng):
    dt = dtype(rng)
    shp = shape(rng)
    setting = rng.random() < 0.5
    a = array(rng, dt, shp, writable=setting)
    ix = _index(rng, shp)
    ops = [a]
    if setting:
        vshape = shape(rng, int(rng.integers(0, 2)), small=True)
        ops.append(operand(rng, dtype(rng), vshape, 0.5))

    def fn(xp, x, *rest):
        if setting:
            x[_to_dev(xp, ix)] = rest[0]
            return None
        return x[_to_dev(xp, ix)]

    return Case("index.set" if setting else "index.get", fn, ops, None, _index_repr(ix))


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


def gen_joining(rng):
    name = str(
        rng.choice(
            [
                "concatenate",
                "stack",
                "hstack",
                "vstack",
                "dstack",
                "column_stack",
                "split",
                "array_split",
                "hsplit",
                "vsplit",
                "tile",
                "roll",
                "flip",
                "rot90",
                "moveaxis",
                "reshape",
                "ravel",
                "squeeze",
                "expand_dims",
                "append",
                "insert",
                "delete",
                "swapaxes",
                "atleast_2d",
                "block",
                "broadcast_arrays",
                "resize",
                "trim_zeros",
                "pad",
            ]
        )
    )
    dt = dtype(rng)
    shp = shape(rng)
    ndim = len(shp)
    kw = {}
    ops = [array(rng, dt, shp)]
    if name in (
        "concatenate",
        "stack",
        "hstack",
        "vstack",
        "dstack",
        "column_stack",
        "append",
        "block",
    ):
        k = int(rng.integers(1, 4))
        ax = _axis(rng, ndim + (name == "stack"), True) if ndim else None
        for _ in range(k - 1):
            s = list(shp)
            if s and ax is not None and name != "stack" and rng.random() < 0.6:
                s[ax] = int(rng.integers(0, 3))
            ops.append(operand(rng, dtype(rng) if rng.random() < 0.4 else dt, tuple(s), 0.05))
        if name in ("concatenate", "stack", "append"):
            kw["axis"] = ax
        if name in ("concatenate", "stack") and rng.random() < 0.3:
            kw["dtype"] = dtype(rng)
            kw["casting"] = str(rng.choice(["no", "safe", "same_kind", "unsafe"]))
    elif name in ("split", "array_split", "hsplit", "vsplit"):
        kw["s"] = (
            int(rng.integers(1, 4))
            if rng.random() < 0.6
            else [int(i) for i in rng.integers(-3, 5, int(rng.integers(0, 3)))]
        )
        if name in ("split", "array_split") and ndim:
            kw["axis"] = _axis(rng, ndim, True)
    elif name == "tile":
        kw["reps"] = tuple(int(r) for r in rng.integers(0, 3, int(rng.integers(0, 4))))
    elif name == "roll":
        kw["shift"] = int(rng.integers(-5, 6))
        kw["axis"] = _axis(rng, ndim) if ndim else None
    elif name in ("flip", "squeeze", "expand_dims"):
        kw["axis"] = _axis(rng, ndim + (name == "expand_dims"))
    elif name == "rot90":
        kw["k"] = int(rng.integers(-2, 5))
    elif name == "moveaxis" and ndim:
        kw["source"], kw["destination"] = _axis(rng, ndim, True), _axis(rng, ndim, True)
    elif name == "swapaxes" and ndim:
        kw["axis1"], kw["axis2"] = _axis(rng, ndim, True), _axis(rng, ndim, True)
    elif name in ("reshape", "resize"):
        n = math.prod(shp)
        kw["shape"] = (-1,) if rng.random() < 0.3 else (n, 1) if rng.random() < 0.5 else (2, -1)
        if name == "reshape" and rng.random() < 0.3:
            kw["order"] = str(rng.choice(["C", "F"]))
        if name == "resize":
            kw["new_shape"] = tuple(abs(s) + 1 for s in kw.pop("shape"))
    elif name in ("insert", "delete"):
        n = shp[0] if shp else 1
        kw["obj"] = (
            int(rng.integers(-n, n + 1))
            if rng.random() < 0.5
            else [int(i) for i in rng.integers(-n, max(n, 1), int(rng.integers(0, 3)))]
        )
        kw["axis"] = 0 if ndim and rng.random() < 0.6 else None
        if name == "insert":
            ops.append(Val(scalar(rng)))
    elif name == "pad":
        kw["pad_width"] = int(rng.integers(0, 3))
        kw["mode"] = str(rng.choice(["constant", "edge", "reflect", "wrap", "symmetric"]))
    elif name == "broadcast_arrays":
        ops.append(array(rng, dtype(rng), bshapes(rng, 1)[0][0]))
    elif name == "trim_zeros":
        ops = [array(rng, dt, shape(rng, 1))]

    def fn(xp, *args):
        kwargs = dict(kw)
        if name in ("concatenate", "stack", "hstack", "vstack", "dstack", "column_stack"):
            return getattr(xp, name)(list(args), **kwargs)
        if name == "block":
            return xp.block(list(args))
        if name in ("split", "array_split", "hsplit", "vsplit"):
            s = kwargs.pop("s")
            return getattr(xp, name)(args[0], s, **kwargs)
        if name == "insert":
            return xp.insert(args[0], kwargs.pop("obj"), args[1], **kwargs)
        if name == "moveaxis" and not kwargs:
            return xp.moveaxis(args[0], 0, 0)
        if name == "swapaxes" and not kwargs:
            return xp.swapaxes(args[0], 0, 0)
        if name == "append":
            return xp.append(args[0], args[1] if len(args) > 1 else 1, **kwargs)
        return getattr(xp, name)(*args, **kwargs)

    return Case(f"join.{name}", fn, ops, None, repr(kw))


def gen_set(rng):
    name = str(rng.choice(["union1d", "intersect1d", "setdiff1d", "setxor1d", "isin"]))
    a = array(rng, dtype(rng, REAL), shape(rng, int(rng.integers(0, 3))))
    b = array(rng, dtype(rng, REAL), shape(rng, int(rng.integers(0, 3))))
    kw = {}
    if name != "union1d" and rng.random() < 0.3:
        kw["assume_unique"] = False
    if name == "isin" and rng.random() < 0.3:
        kw["invert"] = True
    if name == "intersect1d" and rng.random() < 0.3:
        kw["return_indices"] = True
    return Case(
        f"set.{name}", lambda xp, x, y: getattr(xp, name)(x, y, **kw), [a, b], None, repr(kw)
    )


def gen_linalg(rng):
    name = str(
        rng.choice(
            [
                "dot",
                "matmul",
                "vdot",
                "inner",
                "outer",
                "tensordot",
                "norm",
                "det",
                "inv",
                "solve",
                "cross",
                "kron",
                "matrix_power",
                "vecdot",
                "einsum_ij",
                "trace2",
            ]
        )
    )
    dt = dtype(
        rng,
        (
            "float32",
            "float64",
            "complex64",
            "complex128",
            "int32",
            "int64",
            "int8",
            "bool",
            "float16",
            "uint8",
        ),
    )
    k, m, n = (int(rng.integers(0, 4)) for _ in range(3))
    sa, sb, kw = (m, k), (k, n), {}
    if name in ("vdot", "inner", "outer", "cross"):
        sa = sb = (3,) if name == "cross" else (k,)
        if name == "cross" and rng.random() < 0.5:
            sa, sb = (m, 3), (3,)
    if name in ("det", "inv", "matrix_power"):
        sa = (int(rng.integers(0, 3)), k, k) if rng.random() < 0.3 else (k, k)
    if name == "solve":
        sa, sb = (k, k), (k,)
    if name == "norm":
        sa = shape(rng, int(rng.integers(1, 3)))
        kw["ord"] = (
            rng.choice([None, 1, 2, np.inf, -np.inf, 0, 3])
            if len(sa) == 1
            else rng.choice([None, "fro", 1, np.inf, -1])
        )
        kw["ord"] = (
            kw["ord"] if isinstance(kw["ord"], str) or kw["ord"] is None else float(kw["ord"])
        )
    if name in ("matmul", "dot") and rng.random() < 0.3:
        sa = (int(rng.integers(1, 3)),) + sa if rng.random() < 0.5 else sa[1:]
    if name == "matrix_power":
        kw["n"] = int(rng.integers(0, 4))
    ops = [array(rng, dt, sa), array(rng, dtype(rng, NUMERIC) if rng.random() < 0.3 else dt, sb)]

    def fn(xp, x, y):
        if name == "einsum_ij":
            return xp.einsum("ij,jk->ik", x, y)
        if name == "trace2":
            return xp.trace(x @ y.T[: x.shape[1]].T) if x.ndim == 2 else xp.trace(x)
        if name in ("norm", "det", "inv", "matrix_power"):
            return getattr(xp.linalg, name)(x, **kw)
        if name == "solve":
            return xp.linalg.solve(x + 4 * xp.eye(x.shape[0], dtype=x.dtype), y)
        if name == "vecdot":
            return xp.vecdot(x, y)
        return getattr(xp, name)(x, y, **kw)

    return Case(f"linalg.{name}", fn, ops, ulp_linalg if name != "kron" else None, repr(kw))


def ulp_linalg(dt):
    return (1e-3, 1e-3) if dt.char in "efF" else (1e-9, 1e-9)


def gen_casting(rng):
    name = str(
        rng.choice(
            [
                "astype",
                "astype_casting",
                "result_type",
                "can_cast",
                "asarray_dtype",
                "array_copy",
                "item",
                "tolist",
                "full_like",
                "zeros_like",
                "view",
                "promote_scalar",
                "round_method",
                "len_bool",
            ]
        )
    )
    src = dtype(rng)
    dst = dtype(rng)
    a = array(rng, src, shape(rng))
    casting = str(rng.choice(["no", "equiv", "safe", "same_kind", "unsafe"]))
    s = scalar(rng)

    def fn(xp, x):
        if name == "astype":
            return x.astype(dst)
        if name == "astype_casting":
            return x.astype(dst, casting=casting)
        if name == "result_type":
            return str(xp.result_type(x, s))
        if name == "can_cast":
            return bool(xp.can_cast(x.dtype, dst, casting=casting))
        if name == "asarray_dtype":
            return xp.asarray(x, dtype=dst)
        if name == "array_copy":
            return xp.array(x, dtype=dst, copy=True, ndmin=2)
        if name == "item":
            return x.item() if x.size == 1 else x.item(0) if x.size else x.size
        if name == "tolist":
            return x.tolist()
        if name == "full_like":
            return xp.full_like(x, s, dtype=dst if rng_bit else None)
        if name == "zeros_like":
            return xp.zeros_like(x, dtype=dst)
        if name == "view":
            return x.view(dst)
        if name == "promote_scalar":
            return x * s if rng_bit else s - x
        if name == "round_method":
            return x.round(2)
        return bool(x) if x.size == 1 else len(x) if x.ndim else 0

    rng_bit = bool(rng.random() < 0.5)
    return Case(f"cast.{name}", fn, [a], None, f"dst={dst} casting={casting} s={s!r}")


def gen_misc(rng):
    name = str(
        rng.choice(
            [
                "allclose",
                "isclose",
                "array_equal",
                "histogram",
                "interp",
                "convolve",
                "cumsum_out",
                "sum_out",
                "nonzero_count",
                "meshgrid",
                "linspace",
                "arange",
                "tri",
                "cov",
                "corrcoef",
                "percentile",
                "quantile",
                "digitize",
                "gradient",
                "unwrap",
                "polyval",
                "fliplr",
                "triu",
                "argpartition_sorted",
                "max_out",
            ]
        )
    )
    dt = dtype(rng, REAL)
    shp = shape(rng, int(rng.integers(1, 3)))
    ops = [array(rng, dt, shp), array(rng, dtype(rng, REAL), shp)]
    odt = dtype(rng, NUMERIC)
    q = float(rng.choice([0, 25, 50, 99.5, 100]))
    start, stop = float(rng.integers(-5, 5)), float(rng.integers(-5, 5))
    num = int(rng.integers(0, 6))

    def fn(xp, x, y):
        if name in ("allclose", "isclose", "array_equal", "convolve", "digitize", "polyval"):
            if name == "digitize":
                return xp.digitize(x, xp.sort(y.ravel()))
            return getattr(xp, name)(
                x.ravel() if name == "convolve" else x, y.ravel() if name == "convolve" else y
            )
        if name == "histogram":
            return xp.histogram(x, bins=num + 1)
        if name == "interp":
            return xp.interp(x, xp.sort(y.ravel()), y.ravel())
        if name == "cumsum_out":
            out = xp.zeros(x.shape, dtype=odt)
            xp.cumsum(x, axis=-1, out=out)
            return out
        if name == "sum_out":
            out = xp.zeros(x.shape[1:], dtype=odt)
            return xp.sum(x, axis=0, out=out)
        if name == "max_out":
            out = xp.zeros(x.shape[:-1], dtype=odt)
            return xp.max(x, axis=-1, out=out)
        if name == "nonzero_count":
            return xp.count_nonzero(x, axis=-1)
        if name == "meshgrid":
            return xp.meshgrid(x.ravel(), y.ravel(), indexing="ij")
        if name == "linspace":
            return xp.linspace(start, stop, num, dtype=odt if rng_bit else None)
        if name == "arange":
            return xp.arange(start, stop, 0.5 if rng_bit else 1, dtype=odt if rng_bit else None)
        if name == "tri":
            return xp.tri(num, num + 1, -1, dtype=odt)
        if name in ("cov", "corrcoef"):
            return getattr(xp, name)(x)
        if name in ("percentile", "quantile"):
            return getattr(xp, name)(x, q if name == "percentile" else q / 100, axis=-1)
        if name == "gradient":
            return xp.gradient(x.astype("float64") if x.dtype == bool else x)
        if name == "unwrap":
            return xp.unwrap(x)
        if name == "fliplr":
            return xp.fliplr(x)
        if name == "triu":
            return xp.triu(x, 1)
        return xp.sort(xp.take_along_axis(x, xp.argpartition(x, 0, axis=-1), axis=-1), axis=-1)

    rng_bit = bool(rng.random() < 0.5)
    loose = name in (
        "cov",
        "corrcoef",
        "interp",
        "gradient",
        "unwrap",
        "polyval",
        "percentile",
        "quantile",
        "convolve",
        "cumsum_out",
        "sum_out",
        "linspace",
    )
    return Case(
        f"misc.{name}",
        fn,
        ops,
        sum_tol if loose else None,
        f"odt={odt} q={q} start={start} stop={stop} num={num} bit={rng_bit}",
    )


FAMILIES = {
    "ufunc": (30, gen_ufunc),
    "operator": (10, gen_operator),
    "reduction": (14, gen_reduction),
    "ufunc_method": (8, gen_ufunc_method),
    "sorting": (6, gen_sorting),
    "indexing": (12, gen_indexing),
    "selection": (10, gen_selection),
    "joining": (8, gen_joining),
    "set": (3, gen_set),
    "linalg": (4, gen_linalg),
    "casting": (6, gen_casting),
    "misc": (5, gen_misc),
}
