"""Case families of tools/fuzz_numpy.py: the arguments of numpy.fft (n, s, axes, norm, out;
zero, negative and non-integer sizes, repeated and out-of-range axes) and einsum's subscripts
(implicit and explicit output, ellipses, repeated letters, the sublist form, and the parse
errors), one bad argument in some cases (host Python only)."""

import numpy as np
from fuzz_operands import Case, Val, array, dtype, shape, sum_tol

_FFT1 = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
_FFTN = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn"]
_FFT_DTYPES = ("float64", "float32", "complex128", "complex64", "int64", "bool", "float16",
               "uint8")  # fmt: skip


def fft_tol(dt):
    return (2e-3, 2e-3) if dt.char in "efF" else (1e-8, 1e-8)


def _size(rng):
    r = rng.random()
    if r < 0.8:
        return int(rng.integers(1, 9))
    return [0, -1, 2.5, None][int(rng.integers(0, 4))]


def gen_fft_args(rng):
    name = str(rng.choice(_FFT1 + _FFTN + ["fftfreq", "rfftfreq"]))
    dt = dtype(rng, _FFT_DTYPES)
    shp = shape(rng, int(rng.integers(0 if rng.random() < 0.05 else 1, 4)))
    ops, kw = [array(rng, dt, shp)], {}
    nd = len(shp)
    if name in _FFT1:
        if rng.random() < 0.7:
            kw["n"] = _size(rng)
        if rng.random() < 0.5:
            kw["axis"] = int(rng.integers(-nd - 1, nd + 1)) if nd else int(rng.integers(-1, 1))
        # NumPy compares out='s shape with n=2.5 before it refuses the size (documented)
        if rng.random() < 0.15 and name in ("fft", "ifft") and type(kw.get("n")) is not float:
            kw["out"] = None  # a complex128 out= of the result's shape, or a wrong one
    elif name in _FFTN:
        if rng.random() < 0.6 and nd:
            k = int(rng.integers(0, nd + 1))
            axes = [int(a) for a in rng.choice(range(-nd, nd), k, replace=bool(rng.random() < 0.2))]
            if rng.random() < 0.05:
                axes.append(nd)  # out of range
            kw["axes"] = tuple(axes)
        if rng.random() < 0.5:
            k = len(kw.get("axes", shp[-2:] if name.endswith("2") else shp))
            k += 1 if rng.random() < 0.1 else 0
            kw["s"] = tuple(_size(rng) if rng.random() < 0.2 else int(rng.integers(1, 6))
                            for _ in range(k))  # fmt: skip
    else:
        # NumPy's rfftfreq(-1) is empty, gpupy refuses it (documented)
        kw["n"] = int(rng.integers(0, 7)) if rng.random() < 0.9 else 2.0
        kw["d"] = float(rng.choice([1.0, 0.5, 2.0, -1.0, 0.0]))
    if name not in ("fftfreq", "rfftfreq") and rng.random() < 0.5:
        kw["norm"] = str(rng.choice(["backward", "ortho", "forward", None, "bad"]))
        kw["norm"] = None if kw["norm"] == "None" else kw["norm"]
    # NumPy 2.4 reads past the end of an empty axis with n= (a known NumPy issue)
    if 0 in shp and ("n" in kw or "s" in kw) and name not in ("fftfreq", "rfftfreq"):
        kw.pop("n", None), kw.pop("s", None)

    def fn(xp, x):
        kwargs = dict(kw)
        if name in ("fftfreq", "rfftfreq"):
            return getattr(xp.fft, name)(**kwargs)
        if "out" in kwargs:
            n = kwargs.get("n") if isinstance(kwargs.get("n"), int) else None
            ax = kwargs.get("axis", -1)
            oshape = list(x.shape)
            if oshape and -len(oshape) <= ax < len(oshape) and n and n > 0:
                oshape[ax] = n
            kwargs["out"] = xp.zeros(tuple(oshape), dtype="complex128")
        return getattr(xp.fft, name)(x, **kwargs)

    tol = fft_tol
    if "out" in kw and dt in ("float32", "complex64", "float16"):

        def tol(dt):  # a single-precision transform written into a complex128 out=
            return (2e-3, 2e-3)

    return Case(f"fftarg.{name}", fn, ops, tol, repr(kw))


_SUBSCRIPTS = [
    ("ij,jk->ik", 2), ("ij,jk", 2), ("ij->ji", 1), ("ii->i", 1), ("ii", 1), ("ij->", 1),
    ("i,i->", 2), ("i,j->ij", 2), ("i,j", 2), ("...ij,...jk->...ik", 2), ("...i->...", 1),
    ("i...->...", 1), ("ij...,j...->i...", 2), ("ba,ab->", 2), ("iij->ij", 1), ("Ab,bC->AC", 2),
    ("i,i,i->i", 3), ("ij,jk,kl->il", 3), (" ij , jk -> ik ", 2), ("ijk->", 1),
]  # fmt: skip
_BAD = [
    ("ij,jk->ii", 2), ("ij->k", 1), ("ij,jk->ik->i", 2), ("i1,j->ij", 2), ("ij,jk", 1),
    ("ij", 2), ("....ij->ij", 1), ("ij->i.j", 1), ("ij-k", 1), ("ij,jk->ik", 3), ("i,->i", 2),
    ("ijk->ijk", 1), ("ij,ij->ij", 2),
]  # fmt: skip


def _operand_shapes(rng, subs, nops):
    """Shapes that fit the subscripts (one size per letter), or a random shape for letters the
    subscripts misuse; an ellipsis stands for 0-2 broadcast axes."""
    terms = subs.replace(" ", "").split("->")[0].split(",")
    size = {c: int(rng.integers(0 if rng.random() < 0.1 else 1, 4)) for c in "ijklbaAC"}
    ell = tuple(int(rng.integers(1, 3)) for _ in range(int(rng.integers(0, 3))))
    shapes = []
    for i in range(nops):
        term = terms[i] if i < len(terms) else "ij"
        dims = [size.get(c, 2) for c in term.replace("...", "") if c.isalpha()]
        if "..." in term:
            dims = list(ell[int(rng.integers(0, len(ell) + 1)) :]) + dims
        if rng.random() < 0.05:
            dims = dims + [2]  # one axis too many
        shapes.append(tuple(dims))
    return shapes


def gen_einsum_args(rng):
    bad = rng.random() < 0.25
    subs, nops = (_BAD if bad else _SUBSCRIPTS)[
        int(rng.integers(0, len(_BAD if bad else _SUBSCRIPTS)))
    ]
    if subs.startswith("ii") or subs.startswith("iij"):
        n = int(rng.integers(0, 4))
        shapes = [(n, n) if subs.startswith("ii") else (n, n, 2)]
    else:
        shapes = _operand_shapes(rng, subs, nops)
    dts = ("float64", "float32", "int64", "complex128", "bool", "int8", "float16")
    ops = [array(rng, dtype(rng, dts), s) for s in shapes]
    kw = {}
    if rng.random() < 0.2:
        kw["optimize"] = bool(rng.random() < 0.5) if rng.random() < 0.8 else "greedy"
    if kw.get("optimize") and len({o.np.dtype for o in ops}) > 1:
        # NumPy's optimised pairs keep their own dtype: two bools are OR-ed (a NumPy quirk)
        ops = [array(rng, "float64", o.np.shape) if o.np.dtype == bool else o for o in ops]
    view_only = "->" in subs and sorted(subs.split("->")[1]) == sorted(subs.split("->")[0])
    if rng.random() < 0.1 and not (view_only or subs.startswith("ii") or kw.get("optimize")):
        # NumPy ignores dtype= where its einsum is a view (documented)
        kw["dtype"] = dtype(rng, ("float64", "complex128", "int32"))
    sublist = not bad and rng.random() < 0.15 and "..." not in subs and " " not in subs

    def fn(xp, *args):
        # NaN and inf products regroup with the contraction order (0 * inf, inf - inf), and
        # 1e10's cancel with its rounding
        args = [
            xp.where(xp.isfinite(a) & (xp.abs(a) < 1e6), a, 1)
            if a.dtype.kind in "fc"
            else xp.where((a < 10**6) & (a > -(10**6)), a, 1)  # NumPy's optimised pairs wrap
            if a.dtype.kind in "iu"
            else a
            for a in args
        ]
        if sublist:
            terms = subs.split("->")
            ins = terms[0].split(",")
            flat = []
            for a, t in zip(args, ins, strict=False):
                flat += [a, [ord(c) % 52 for c in t]]
            if len(terms) > 1:
                flat.append([ord(c) % 52 for c in terms[1]])
            return xp.einsum(*flat, **kw)
        return xp.einsum(subs, *args, **kw)

    # NumPy's einsum sums float16 products in float16, gpupy's matmul in float32 (closer), and
    # its optimised path rounds a pair to the pair's dtype (gpupy sums all in the common one)
    tol = sum_tol
    if kw.get("optimize") and len(ops) > 2:

        def tol(dt):
            return sum_tol(np.dtype("float32") if dt.itemsize >= 4 else dt)

    return Case("einsum." + ("bad" if bad else "ok"), fn, ops, tol, f"{subs!r} {kw!r}")


def gen_creation_args(rng):
    """fromfunction, frombuffer and linspace/logspace/geomspace with endpoints, dtypes, num 0/1,
    retstep, axis and array endpoints."""
    name = str(rng.choice(["linspace", "logspace", "geomspace", "fromfunction", "frombuffer"]))
    ops, kw = [], {}
    odt = dtype(rng, ("float64", "float32", "int32", "int64", "complex128", "uint8", "float16",
                      "bool"))  # fmt: skip
    if name in ("linspace", "logspace", "geomspace"):
        r = rng.random()
        start = float(rng.choice([-3.0, 0.0, 1.0, 2.5, 10.0, -1.0]))
        stop = float(rng.choice([-2.0, 0.0, 1.0, 4.0, 100.0, 1e-3]))
        if r < 0.2:  # array endpoints broadcast with each other
            ops = [array(rng, "float64", (2,)), Val(stop)]
        elif r < 0.25 and name == "geomspace":
            ops = [Val(complex(start, 1.0)), Val(complex(stop, -2.0))]
            odt = "complex128"  # an integer dtype truncates the last bit of the rotation
        else:
            ops = [Val(start), Val(stop)]
        kw["num"] = int(rng.choice([0, 1, 2, 5, 7, -1])) if rng.random() < 0.95 else 2.5
        if rng.random() < 0.4:
            kw["endpoint"] = bool(rng.random() < 0.5)
        if rng.random() < 0.3:
            kw["dtype"] = odt
        if name == "linspace" and rng.random() < 0.3:
            kw["retstep"] = True
        if name == "logspace" and rng.random() < 0.3:
            kw["base"] = float(rng.choice([2.0, 10.0, 0.5]))
        if r < 0.2 and rng.random() < 0.5:
            kw["axis"] = int(rng.integers(-2, 2))
    elif name == "fromfunction":
        kw["shape"] = tuple(int(d) for d in rng.integers(0, 4, int(rng.integers(0, 4))))
        kw["dtype"] = dtype(rng, ("float64", "int64", "int8", "float32"))
        kw["f"] = str(rng.choice(["sum", "product", "first", "const"]))
    else:
        src = dtype(rng, ("int8", "int32", "float64", "uint16", "complex64"))
        n = int(rng.integers(0, 9))
        kw["data"] = np.arange(n, dtype=src).tobytes()
        kw["dtype"] = dtype(rng, ("int8", "int16", "float32", "float64", "uint8", "complex128"))
        if rng.random() < 0.4:
            kw["count"] = int(rng.integers(-1, 5))
        if rng.random() < 0.4:
            kw["offset"] = int(rng.integers(-1, 9))

    def fn(xp, *args):
        kwargs = dict(kw)
        if name == "fromfunction":
            f = {"sum": lambda *ix: sum(ix), "product": lambda *ix: xp.prod(xp.stack(ix), axis=0),
                 "first": lambda *ix: ix[0] if ix else xp.asarray(0.0),
                 "const": lambda *ix: 3}[kwargs.pop("f")]  # fmt: skip
            return xp.fromfunction(f, kwargs.pop("shape"), **kwargs)
        if name == "frombuffer":
            return xp.frombuffer(kwargs.pop("data"), **kwargs)
        return getattr(xp, name)(*args, **kwargs)

    return Case(f"create.{name}", fn, ops, fft_tol, repr(kw)[:200])
