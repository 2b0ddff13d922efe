"""Case families of tools/fuzz_numpy.py: joining, linalg, casting and the rest (host Python
only)."""

import math

import numpy as np
from fuzz_operands import (
    NUMERIC,
    REAL,
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
)

_JOINS = ("concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "append", "block")


def gen_joining(rng):
    name = str(
        rng.choice(
            [
                *_JOINS,
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
                "insert",
                "delete",
                "swapaxes",
                "atleast_2d",
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
    if name in _JOINS:
        k = int(rng.integers(1, 4))
        ax = _axis(rng, ndim + (name == "stack"), True) if ndim else None
        for _ in range(k - 1):
            s = list(shp)
            if s and ax is not None and name != "stack" and rng.random() < 0.6:
                s[ax] = int(rng.integers(0, 3))
            ops.append(operand(rng, dtype(rng) if rng.random() < 0.4 else dt, tuple(s), 0.05))
            if isinstance(ops[-1], Val) and type(ops[-1].value) is int:
                ops[-1] = Val(ops[-1].value % 2**63)  # beyond int64 NumPy joins an object array
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

    return Case(f"linalg.{name}", fn, ops, ulp_linalg, repr(kw))


def ulp_linalg(dt):
    # NumPy's float16 einsum sums in float16, gpupy's matmul in float32
    return (1e-2, 1e-2) if dt.char == "e" else (1e-3, 1e-3) if dt.char in "fF" else (1e-9, 1e-9)


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
    tol = ulp_tol if name == "promote_scalar" else None  # complex products round with FMA or not
    return Case(f"cast.{name}", fn, [a], tol, f"dst={dst} casting={casting} s={s!r}")


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
            out = xp.zeros(x.shape[:-1], dtype=odt if np.can_cast(x.dtype, odt) else x.dtype)
            return xp.max(x, axis=-1, out=out)  # unsafe out=: NumPy's quirk (documented)
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
            # NumPy interpolates signed integers in their own dtype, which wraps (documented)
            x = x.astype("float64") if x.dtype.kind in "iu" else x
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
