"""Case families of tools/fuzz_numpy.py: assignment and ufunc out= between overlapping views of
one array; the ndarray's own conversions (astype with order=, view, tobytes, fill, item, tolist,
the Python number protocols); linalg.vector_norm/matrix_norm/norm with ord/axis/keepdims; sorting
and partitioning with NaN, complex, kind= and axis=None (host Python only)."""

import math

import numpy as np
from fuzz_cases_scalars import py_scalar
from fuzz_operands import DTYPES, NUMERIC, Case, Val, _axis, array, dtype, shape, sum_tol

# (destination, source) views of one 1-d array of length n: the two overlap in most pairs
_OVERLAPS = [
    ("[1:]", "[:-1]"), ("[:-1]", "[1:]"), ("[::-1]", "[:]"), ("[::2]", "[1::2]"),
    ("[2:]", "[:-2]"), ("[:]", "[::-1]"), ("[1::2]", "[-2::-2]"), ("[:-2]", "[2:]"),
]  # fmt: skip


def _view(x, text):
    return eval(f"x{text}", {"x": x})  # noqa: S307 - the texts above, nothing else


def gen_overlap(rng):
    n = int(rng.choice([2, 3, 4, 5, 6, 9]))
    how = str(rng.choice(["setitem", "copyto", "negative", "add", "iadd", "cumsum", "matmul",
                          "fancy", "mask", "transpose"]))  # fmt: skip
    # a single-precision product cancels in ways the sum tolerance does not cover
    dt = dtype(rng, ("float64", "int64", "complex128") if how == "matmul" else DTYPES)
    extra = shape(rng, int(rng.integers(0, 2)), small=True)
    a = array(rng, dt, (n, *extra), writable=True)
    dst, src = _OVERLAPS[int(rng.integers(0, len(_OVERLAPS)))]
    k = int(rng.integers(0, n))
    idx = [int(i) for i in rng.integers(-n, n, n)]
    mask = [bool(b) for b in rng.random(n) < 0.5]

    def fn(xp, x):
        d, s = _view(x, dst), _view(x, src)
        if d.shape != s.shape:  # odd lengths: the pair takes the common prefix
            m = min(d.shape[0], s.shape[0])
            d, s = d[:m], s[:m]
        if how == "setitem":
            d[...] = s
        elif how == "copyto":
            xp.copyto(d, s)
        elif how == "negative":
            xp.negative(s, out=d)
        elif how == "add":
            xp.add(s, x[k], out=d)
        elif how == "iadd":
            d += s
        elif how == "cumsum":
            xp.cumsum(s, axis=0, out=d)
        elif how == "matmul" and x.ndim == 2 and x.shape[0] == x.shape[1]:
            xp.matmul(x, x.T, out=x)
        elif how == "fancy":
            x[xp.asarray(idx)] = x[::-1]
        elif how == "mask":
            x[xp.asarray(mask)] = x[::-1][xp.asarray(mask)]
        elif how == "transpose" and x.ndim == 2 and x.shape[0] == x.shape[1]:
            x[...] = x.T
        else:
            d[...] = s[::-1]
        return None

    tol = sum_tol if how in ("cumsum", "matmul") else None
    return Case(f"overlap.{how}", fn, [a], tol, f"x{dst} <- x{src} k={k} idx={idx} mask={mask}")


_METHODS = ["astype_order", "view", "tobytes", "fill", "item", "tolist", "int", "float",
            "complex", "bool", "index", "len", "flatten", "ravel", "squeeze", "swapaxes",
            "nbytes", "copy_order", "astype_copy"]  # fmt: skip
_ORDERS = ["C", "F", "A", "K", "c", "f", "X", None]


def _item_args(rng, shp):
    n = math.prod(shp)
    r = rng.random()
    if r < 0.3:
        return ()
    if r < 0.6:
        return (int(rng.integers(-n - 1, n + 1)) if n else 0,)
    if r < 0.9:
        return tuple(int(rng.integers(-d, d)) if d else 0 for d in shp)
    return (1.5,) if rng.random() < 0.5 else ((0,) * max(len(shp), 1),)


def gen_ndmethods(rng):
    name = str(rng.choice(_METHODS))
    dt = dtype(rng)
    shp = shape(rng)
    if name in ("int", "float", "complex", "bool", "index") and rng.random() < 0.8:
        shp = tuple(1 for _ in shp)
    ops, kw = [array(rng, dt, shp, writable=name == "fill")], {}
    if name in ("astype_order", "copy_order", "flatten", "ravel", "tobytes"):
        kw["order"] = _ORDERS[int(rng.integers(0, len(_ORDERS)))]
    if name in ("astype_order", "astype_copy"):
        kw["dtype"] = dtype(rng)
        if dt[0] in "fc" and kw["dtype"][0] in "iub":
            kw["dtype"] = "float64"  # float to integer casts of inf/NaN have no defined value
        if name == "astype_copy":
            kw["copy"] = bool(rng.random() < 0.5)
    if name == "view":
        kw["dtype"] = dtype(rng, DTYPES)
        if kw["dtype"] == "bool" and dt != "bool":
            kw["dtype"] = "uint8"  # a bool holding byte 7 has no defined value (copies give 1)
    if name == "fill":
        ops.append(Val(py_scalar(rng, dt)))
        if isinstance(ops[1].value, float) and dt[0] in "iub":
            ops[1] = Val(float(rng.integers(-3, 9)))  # NaN/inf into integers: no defined value
        if isinstance(ops[1].value, complex) and dt[0] != "c":
            ops[1] = Val(2)  # NumPy's fill drops the imaginary part with a ComplexWarning
    if name == "item":
        kw["args"] = _item_args(rng, shp)
    if name == "squeeze" and shp and rng.random() < 0.6:
        kw["axis"] = _axis(rng, len(shp))
    if name == "swapaxes":
        nd = max(len(shp), 1)
        kw["axes"] = (int(rng.integers(-nd - 1, nd)), int(rng.integers(-nd, nd + 1)))

    def fn(xp, x, *rest):
        kwargs = dict(kw)
        if name == "astype_order":
            return x.astype(kwargs.pop("dtype"), order=kwargs["order"])
        if name == "astype_copy":
            r = x.astype(kwargs["dtype"], copy=kwargs["copy"])
            return r, r is x
        if name == "copy_order":
            r = x.copy(order=kwargs["order"])
            return r, bool(r.flags.c_contiguous), bool(r.flags.f_contiguous)
        if name == "view":
            return x.view(kwargs["dtype"])
        if name == "tobytes":
            return x.tobytes(order=kwargs["order"])
        if name == "fill":
            x.fill(rest[0])
            return None
        if name == "item":
            return x.item(*kwargs["args"])
        if name in ("int", "float", "complex", "bool"):
            return {"int": int, "float": float, "complex": complex, "bool": bool}[name](x)
        if name == "index":
            return [10, 20, 30][x]
        if name == "len":
            return len(x)
        if name in ("flatten", "ravel"):
            return getattr(x, name)(order=kwargs["order"])
        if name == "squeeze":
            return x.squeeze(**kwargs)
        if name == "swapaxes":
            return x.swapaxes(*kwargs["axes"])
        if name == "nbytes":
            return x.nbytes, x.itemsize, x.size, x.ndim
        return x.tolist()

    return Case(f"ndm.{name}", fn, ops, None, repr(kw))


_VORDS = [None, 0, 1, -1, 2, -2, 3, 0.5, np.inf, -np.inf, "fro", "nuc"]
_MORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf, 3, 0]


def gen_norms(rng):
    name = str(rng.choice(["vector_norm", "matrix_norm", "norm"]))
    dt = dtype(rng, NUMERIC if rng.random() < 0.9 else DTYPES)
    nd = int(rng.integers(0 if name != "matrix_norm" else 1, 4))
    shp = shape(rng, nd)
    ops, kw = [array(rng, dt, shp)], {}
    if rng.random() < 0.7:
        ords = _MORDS if name == "matrix_norm" else _VORDS
        kw["ord"] = ords[int(rng.integers(0, len(ords)))]
    if name == "vector_norm" and rng.random() < 0.6:
        kw["axis"] = _axis(rng, nd)
    if name == "norm" and rng.random() < 0.6 and nd:
        kw["axis"] = (
            int(rng.integers(-nd, nd))
            if rng.random() < 0.5 or nd < 2
            else tuple(int(a) for a in rng.choice(range(-nd, nd), 2, replace=False))
        )
    if rng.random() < 0.3:
        kw["keepdims"] = True
    if dt == "float16":  # NumPy's float16 norms square and sum in float16: not compared
        ops[0] = array(rng, "float32", shp)

    def fn(xp, x):
        return getattr(xp.linalg, name)(x, **kw)

    def tol(t):  # a sum of squares, an SVD, a power and its root
        return (max(sum_tol(t)[0], 1e-5 if t in (np.float32, np.complex64) else 1e-11), 1e-6)

    return Case(f"norms.{name}", fn, ops, tol, repr(kw))


_KINDS = [None, "quicksort", "mergesort", "heapsort", "stable", "Q", "bad"]


def _nan_complex(rng, dt, shp):
    """Floats and complex numbers with NaN in either part, signed zeros and repeats."""
    a = array(rng, dt, shp)
    b = a.base
    if b.dtype.kind in "fc" and b.size:
        pick = rng.random(b.shape) < 0.3
        b[pick] = rng.choice([np.nan, -0.0, 0.0, 1.0, np.inf], int(pick.sum()))
        if b.dtype.kind == "c":
            pick = rng.random(b.shape) < 0.2
            b.imag[pick] = rng.choice([np.nan, 0.0, -1.0], int(pick.sum()))
    return a


def gen_sort2(rng):
    name = str(rng.choice(["sort", "argsort", "partition", "argpartition", "sort_method",
                           "lexsort", "sort_complex"]))  # fmt: skip
    dt = dtype(rng, DTYPES)
    shp = shape(rng, int(rng.integers(0, 4)))
    ops, kw = [_nan_complex(rng, dt, shp)], {}
    nd = len(shp)
    if name != "sort_complex":
        kw["axis"] = None if rng.random() < 0.25 else (int(rng.integers(-nd - 1, nd)) if nd else 0)
    if name in ("sort", "argsort", "sort_method") and rng.random() < 0.5:
        kw["kind"] = _KINDS[int(rng.integers(0, len(_KINDS)))]
    if name in ("sort", "argsort") and rng.random() < 0.2:
        kw["stable"] = bool(rng.random() < 0.5)
    if name in ("partition", "argpartition"):
        ax = kw["axis"]
        n = math.prod(shp) if ax is None else (shp[ax] if -nd <= ax < nd else 1)
        k = int(rng.integers(-n - 1, n + 1)) if n else 0
        kw["kth"] = k if rng.random() < 0.7 else [k, 0]
    if name == "lexsort":
        ops = [_nan_complex(rng, dt, shape(rng, 2))]
        kw["axis"] = int(rng.integers(-2, 2))
    if name == "sort_method" and (nd == 0 or kw["axis"] is None):
        kw["axis"] = -1
    ops[0] = array(rng, dt, shp, writable=True) if name == "sort_method" else ops[0]

    def fn(xp, x):
        kwargs = dict(kw)
        if name == "sort_method":
            x.sort(**kwargs)
            return None
        if name in ("argsort", "argpartition"):
            idx = getattr(xp, name)(x, **kwargs)
            axis = kwargs["axis"]
            flat = x.reshape(-1) if axis is None else x
            picked = xp.take_along_axis(flat, idx, axis=-1 if axis is None else axis)
            return _partition_key(xp, picked, kwargs, axis) if "kth" in kwargs else picked
        r = getattr(xp, name)(x, **kwargs)
        return _partition_key(xp, r, kwargs, kwargs.get("axis")) if "kth" in kwargs else r

    return Case(f"sort2.{name}", fn, ops, None, repr(kw))


def _partition_key(xp, r, kwargs, axis):
    """What a partition fixes: the kth elements, and the sorted whole."""
    ax = -1 if axis is None else axis
    kth = kwargs["kth"]
    return xp.take(r, kth, axis=ax), xp.sort(r, axis=ax)
