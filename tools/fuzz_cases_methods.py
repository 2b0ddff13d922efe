"""Case family of tools/fuzz_numpy.py: ndarray methods with out= (of the result's shape, a wrong
shape or another dtype) and keepdims=, axis and dtype= (host Python only)."""

import numpy as np
from fuzz_operands import DTYPES, NUMERIC, Case, _axis, array, dtype, shape, sum_tol

_REDUCE = ["sum", "prod", "mean", "std", "var", "min", "max", "argmin", "argmax", "any", "all"]
_OTHER = ["cumsum", "cumprod", "clip", "round", "trace", "take", "compress", "conj", "dot",
          "choose", "repeat_no_out", "diagonal_no_out"]  # fmt: skip
_HAS_DTYPE = {"sum", "prod", "mean", "std", "var", "cumsum", "cumprod", "trace"}


def _out_shape(rng, name, shp, axis, keepdims):
    """The result's shape, or on purpose a wrong one."""
    if name in _REDUCE:
        axes = range(len(shp)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        axes = {a % len(shp) for a in axes} if shp else set()
        out = (
            tuple(1 if i in axes else d for i, d in enumerate(shp))
            if keepdims
            else tuple(d for i, d in enumerate(shp) if i not in axes)
        )
    elif name in ("cumsum", "cumprod"):
        out = (int(__import__("math").prod(shp)),) if axis is None else shp
    elif name == "trace":
        out = shp[2:]
    else:
        out = shp
    if rng.random() < 0.1 and name in _REDUCE:  # (clip and round check casting= first: open)
        out = out + (2,)
    return out


def gen_methods(rng):
    name = str(rng.choice(_REDUCE + _OTHER))
    dt = dtype(rng, DTYPES)
    shp = shape(rng, int(rng.integers(1 if name in ("trace",) else 0, 4)))
    if name == "trace" and len(shp) < 2:
        shp = shp + (2,) * (2 - len(shp))
    ops, kw = [array(rng, dt, shp)], {}
    one_axis = name in (
        "argmin",
        "argmax",
        "cumsum",
        "cumprod",
        "take",
        "compress",
        "repeat_no_out",
    )
    if name not in ("round", "conj", "dot", "choose", "trace", "clip", "diagonal_no_out"):
        kw["axis"] = _axis(rng, len(shp), one_axis)
    if name in _REDUCE and rng.random() < 0.4:
        kw["keepdims"] = True
    if name in _HAS_DTYPE and rng.random() < 0.3:
        # NumPy's std/var with an integer dtype= fail their own sqrt(out=) (documented)
        floats = ("float32", "float64", "complex64", "complex128")
        kw["dtype"] = dtype(rng, floats if name in ("std", "var") else NUMERIC)
        if dt[0] in "fc" and kw["dtype"][0] in "iu":
            kw["dtype"] = "float64"  # float to integer casts of inf/NaN have no defined value
        if name in ("cumsum", "cumprod") and kw["dtype"] == "float16":
            kw["dtype"] = "float32"  # float16 scans accumulate in float32 (documented)
    if name in ("std", "var") and rng.random() < 0.3:
        kw["ddof"] = int(rng.integers(0, 3))
    if name == "clip":
        kw["min"], kw["max"] = int(rng.integers(-3, 1)), int(rng.integers(1, 5))
    if name == "round":
        kw["decimals"] = int(rng.integers(-1, 3))
    if name == "take":
        kw["indices"] = [int(i) for i in rng.integers(-2, 3, int(rng.integers(0, 4)))]
        kw["mode"] = str(rng.choice(["raise", "wrap", "clip"]))
        ax = kw["axis"]
        if (shp[ax] if shp and ax is not None else int(__import__("math").prod(shp))) == 0:
            kw["mode"] = "raise"  # NumPy 2.4's wrap/clip take from an empty axis never returns
    if name == "compress":
        n = shp[kw["axis"]] if shp and kw["axis"] is not None else int(__import__("math").prod(shp))
        kw["condition"] = [bool(b) for b in rng.random(n) < 0.5]
    if name == "choose":
        ops = [array(rng, "int64", shp)]
        ops[0].base[...] = ops[0].base % 2
        kw["choices"] = [int(rng.integers(-3, 4)), int(rng.integers(-3, 4))]
    if name == "dot":
        ops.append(array(rng, dtype(rng, DTYPES), shp[-1:] + (int(rng.integers(1, 3)),)))
    with_out = not name.endswith("_no_out") and rng.random() < 0.6
    odt = dtype(rng, DTYPES) if rng.random() < 0.5 else None
    oshape = None
    if name in ("cumsum", "cumprod") and not shp:
        with_out = False  # NumPy 2.4 crashes (segfault) on a 0-d cumsum with out=
    if with_out and name not in ("take", "compress", "dot", "choose"):
        oshape = _out_shape(rng, name, shp, kw.get("axis"), kw.get("keepdims", False))
        if name in ("cumsum", "cumprod"):
            oshape = None  # NumPy writes past a longer out= of a scan without a word

    def fn(xp, x, *rest):
        kwargs = dict(kw)
        meth = name.replace("_no_out", "")
        if meth == "repeat":
            return x.repeat(2, axis=kwargs["axis"])
        if meth == "diagonal":
            return x.diagonal() if x.ndim >= 2 else x.ravel()
        args = []
        for k in ("indices", "condition", "choices"):
            if k in kwargs:
                args.append(kwargs.pop(k))
        if meth == "dot":
            args.append(rest[0])
        if with_out:
            probe = getattr(x, meth)(*args, **kwargs)
            shape_ = oshape if oshape is not None else probe.shape
            out_dt = xp.dtype(odt or probe.dtype)
            if probe.dtype.kind in "fc" and out_dt.kind in "iub":
                out_dt = probe.dtype  # float to integer casts of inf/NaN have no defined value
            if out_dt.kind == "c" and probe.dtype.kind != "c":
                out_dt = probe.dtype  # NumPy reads a complex out into a real loop (warns)
            if meth in ("max", "min") and not xp.can_cast(probe.dtype, out_dt):
                out_dt = probe.dtype  # NumPy starts from the cast first element (documented)
            if meth == "mean" and probe.dtype.kind in "iu":
                out_dt = probe.dtype  # NumPy's mean with out= divides in out's dtype
            if meth == "dot" and x.ndim == 0:
                out_dt = probe.dtype  # NumPy's 0-d dot is multiply(out=), under same_kind
            kwargs["out"] = xp.zeros(shape_, dtype=out_dt)
            r = getattr(x, meth)(*args, **kwargs)
            return r, kwargs["out"]
        return getattr(x, meth)(*args, **kwargs)

    ordered = name in ("sum", "prod", "mean", "std", "var", "cumsum", "cumprod", "trace", "dot")
    tol = sum_tol if ordered or dt == "float16" else None
    if with_out and ordered:

        def tol(t):  # a narrower computation (float16 var) written into a wider out=
            return sum_tol(np.dtype("float16" if dt == "float16" else "float32"))

    return Case(
        f"method.{name}",
        fn,
        ops,
        tol,
        f"{kw!r} out={with_out} odt={odt} oshape={oshape}",
    )
