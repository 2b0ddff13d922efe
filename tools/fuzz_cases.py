"""Case families drawn by tools/fuzz_numpy.py: ufuncs and their methods, operators, reductions,
sorting and indexing; the others are in the fuzz_cases_*.py files (host Python only)."""

import operator

import numpy as np
from fuzz_cases_args import gen_creation_args, gen_einsum_args, gen_fft_args
from fuzz_cases_dtypes import gen_dtype_mix
from fuzz_cases_index import gen_mixed_index, gen_select_more
from fuzz_cases_linalg3 import gen_linalg3
from fuzz_cases_methods import gen_methods
from fuzz_cases_more import gen_casting, gen_joining, gen_linalg, gen_misc
from fuzz_cases_numeric import gen_fft, gen_linalg2, gen_nan_scan, gen_poly, gen_scalar_cmp
from fuzz_cases_random import gen_random
from fuzz_cases_scalars import gen_bits, gen_nep50
from fuzz_cases_select import gen_selection
from fuzz_cases_series import gen_series
from fuzz_cases_sets import gen_search, gen_set, gen_sets2, nan_free_inverse
from fuzz_cases_shape import gen_shape
from fuzz_cases_signal import gen_along, gen_convolve, gen_pad
from fuzz_cases_stats import gen_stats
from fuzz_cases_views import gen_ndmethods, gen_norms, gen_overlap, gen_sort2
from fuzz_operands import (
    DTYPES,
    NUMERIC,
    REAL,
    Case,
    Val,
    _axis,
    _index_repr,
    _to_dev,
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
    tol = ulp_tol if ulp else None
    if ulp and "out" in kw:  # a float32 loop's rounding stays in a float64 out=
        tol = _loop_tol([o.np.dtype if hasattr(o, "np") else None for o in ops[:nin]])
    return Case(f"ufunc.{name}", _call_ufunc(name, nin, n_out, kw), ops, tol, repr(kw))


def _loop_tol(dtypes):
    """ulp_tol of the float the inputs compute in (uint16 in float32), where it is coarser than
    the out= dtype's."""
    bits = [np.sqrt(np.zeros(1, d)).real.dtype.itemsize for d in dtypes if d is not None]
    loop = np.dtype({2: "float16", 4: "float32"}.get(max(bits, default=8), "float64"))

    def tol(dt):
        return max(ulp_tol(dt), ulp_tol(loop))

    return tol


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


def gen_reduction(rng):
    name = str(rng.choice(REDUCTIONS))
    dt = dtype(rng)
    shp = shape(rng)
    a = array(rng, dt, shp)
    kw = {"axis": _axis(rng, len(shp), name in _AXIS_ONE)}
    if rng.random() < 0.3 and name not in _NO_KEEPDIMS:
        kw["keepdims"] = True
    if name in _HAS_DTYPE and rng.random() < 0.2:
        # NumPy's std with an integer dtype= and an axis fails its own sqrt(out=) (documented)
        spread = ("float32", "float64", "complex64", "complex128")
        kw["dtype"] = dtype(rng, NUMERIC if "std" not in name and "var" not in name else spread)
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
        if isinstance(ops[-1], Val) and type(ops[-1].value) is int and abs(ops[-1].value) > 2**63:
            ops[-1] = Val(2)  # outer makes an object array of it: power.outer never returns
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
        if meth == "at" and xp is np:
            warn_undefined_at_cast(u, x, *rest)
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
        if name == "unique_inverse":
            values, inverse = xp.unique_inverse(x)
            return values, nan_free_inverse(xp, x, inverse)
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
    "mixed_index": (8, gen_mixed_index),
    "select_more": (5, gen_select_more),
    "shape": (6, gen_shape),
    "linalg2": (4, gen_linalg2),
    "fft": (3, gen_fft),
    "poly": (2, gen_poly),
    "nan_scan": (5, gen_nan_scan),
    "scalar_cmp": (4, gen_scalar_cmp),
    "sets2": (4, gen_sets2),
    "search": (4, gen_search),
    "stats": (5, gen_stats),
    "dtype_mix": (6, gen_dtype_mix),
    "random": (3, gen_random),
    "series": (4, gen_series),
    "convolve": (3, gen_convolve),
    "pad": (3, gen_pad),
    "along": (3, gen_along),
    "linalg3": (4, gen_linalg3),
    "fft_args": (3, gen_fft_args),
    "einsum_args": (3, gen_einsum_args),
    "creation_args": (3, gen_creation_args),
    "methods": (5, gen_methods),
    "nep50": (6, gen_nep50),
    "bits": (4, gen_bits),
    "overlap": (4, gen_overlap),
    "ndmethods": (5, gen_ndmethods),
    "norms": (3, gen_norms),
    "sort2": (4, gen_sort2),
}
