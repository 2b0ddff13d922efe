"""Case families of tools/fuzz_numpy.py: linalg beyond products (qr, svd values, norm orders and
axes, matrix_power, batched solve/inv/det, tensordot/kron/cross axes, einsum subscripts), fft with
n=/axis=/norm=, polynomials, the nan-functions over axes, scans with dtype= and comparisons of
mixed Python and NumPy scalars (host Python only)."""

import operator

import numpy as np
from fuzz_operands import NUMERIC, REAL, Case, Val, _axis, array, dtype, scalar, shape, sum_tol

_INEXACT = ("float32", "float64", "complex64", "complex128")
_LINALG_IN = _INEXACT + ("int32", "int64", "float16", "bool", "uint8")


def linalg_tol(dt):
    return (2e-3, 2e-3) if dt.char in "efF" else (1e-8, 1e-8)


def _square(rng, batch=True):
    k = int(rng.integers(0, 4))
    return ((int(rng.integers(0, 3)),) if batch and rng.random() < 0.3 else ()) + (k, k)


_EINSUM = ["ij,jk->ik", "ij->ji", "ii->i", "ii", "ij->", "i,i->", "i,j->ij", "ij,ij->ij",
           "ijk->kji", "bij,bjk->bik", "...ij,...jk->...ik", "ij,j", "i...->...",
           "ij,kj->ik"]  # fmt: skip


def _einsum_operands(rng, subs, dt):
    """Operands whose shapes fit the subscripts (one size per letter)."""
    ins = subs.split("->")[0].split(",")
    size = {c: int(rng.integers(0, 4)) for c in "ijkb"}
    ops = []
    for term in ins:
        dims = [size[c] for c in term.replace("...", "")]
        if "..." in term:
            dims = [int(rng.integers(1, 3))] + dims
        ops.append(array(rng, dt if rng.random() < 0.7 else dtype(rng, _LINALG_IN), tuple(dims)))
    if subs.startswith("ii"):  # a square operand
        n = int(rng.integers(0, 4))
        ops[0] = array(rng, dt, (n, n))
    return ops


def gen_linalg2(rng):
    name = str(
        rng.choice(
            ["qr_r", "svd_values", "norm", "matrix_power", "solve_batch", "inv", "det", "slogdet",
             "tensordot", "kron", "cross", "outer", "einsum", "matrix_rank", "pinv", "lstsq"]
        )
    )  # fmt: skip
    dt = dtype(rng, _LINALG_IN)
    kw, tol = {}, linalg_tol
    if name in ("qr_r", "svd_values", "matrix_rank", "pinv"):
        ops = [array(rng, dtype(rng, _INEXACT), (int(rng.integers(1, 4)), int(rng.integers(1, 4))))]
    elif name == "norm":
        nd = int(rng.integers(1, 3))
        ops = [array(rng, dt, shape(rng, nd + int(rng.random() < 0.3)))]
        ndim = len(ops[0].np.shape)
        if nd == 1 or rng.random() < 0.3:
            kw["ord"] = rng.choice([None, 0, 1, 2, 3, -1, -2, np.inf, -np.inf, 0.5])
            kw["axis"] = int(rng.integers(-ndim, ndim)) if ndim > 1 else None
        else:
            kw["ord"] = rng.choice([None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
            kw["axis"] = tuple(int(a) for a in rng.choice(range(ndim), 2, replace=False))
        kw["ord"] = kw["ord"] if isinstance(kw["ord"], (str, type(None))) else float(kw["ord"])
        kw["keepdims"] = bool(rng.random() < 0.3)
    elif name == "matrix_power":
        ops = [array(rng, dt, _square(rng))]
        kw["n"] = int(rng.integers(-2, 5))
    elif name in ("solve_batch", "inv", "det", "slogdet"):
        sa = _square(rng)
        ops = [array(rng, dtype(rng, _INEXACT + ("int64",)), sa)]
        if name == "solve_batch":
            rhs = sa[:-1] + (int(rng.integers(1, 3)),) if rng.random() < 0.5 else sa[-1:]
            ops.append(array(rng, dtype(rng, _INEXACT), rhs))
    elif name == "tensordot":
        a_shape, b_shape = shape(rng, 3, small=True), shape(rng, 2, small=True)
        k = int(rng.integers(0, 3))
        b_shape = a_shape[3 - k :] + b_shape if rng.random() < 0.9 else b_shape
        kw["axes"] = k
        ops = [array(rng, dt, a_shape), array(rng, dtype(rng, _LINALG_IN), b_shape)]
    elif name in ("kron", "outer"):
        ops = [array(rng, dt, shape(rng, int(rng.integers(0, 3)), small=True)) for _ in range(2)]
    elif name == "cross":
        sa = (int(rng.integers(1, 3)), int(rng.choice([2, 3])))
        sb = (sa[1],) if rng.random() < 0.5 else (1, 3)
        ops = [array(rng, dtype(rng, NUMERIC[:10] + _INEXACT), sa), array(rng, dt, sb)]
        if rng.random() < 0.3:
            ops = [array(rng, dt, sa[::-1]), array(rng, dt, (3, 1))]
            kw["axis"] = 0
    elif name == "einsum":
        kw["subscripts"] = str(rng.choice(_EINSUM))
        ops = _einsum_operands(rng, kw["subscripts"], dt)
    else:  # lstsq
        m, n = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        ops = [array(rng, "float64", (m, n)), array(rng, "float64", (m,))]

    # LAPACK's iterations never end on some non-finite input (NumPy's lstsq hangs), and BLAS and
    # NumPy's einsum skip or regroup products (0 * NaN, inf - inf): finite input, but for kron,
    # outer, cross and vector norms
    finite = name not in ("kron", "outer", "cross", "norm") or (
        name == "norm" and kw.get("ord") in (2.0, -2.0, "nuc")
    )

    def fn(xp, *args):
        kwargs = dict(kw)
        la = xp.linalg
        if finite:
            args = [xp.where(xp.isfinite(x), x, 1) if x.dtype.kind in "fc" else x for x in args]
        well = args[0]
        if name in ("solve_batch", "inv", "det", "slogdet", "matrix_power") and well.ndim >= 2:
            n = well.shape[-1]  # well conditioned: a dominant diagonal
            well = well + 4 * n * xp.eye(n, dtype=well.dtype) if n else well
        if name == "qr_r":
            r = la.qr(args[0], mode="r")
            return xp.abs(r)  # the signs of R's rows are LAPACK's choice
        if name == "svd_values":
            return la.svd(args[0], compute_uv=False)
        if name == "norm":
            return la.norm(args[0], **kwargs)
        if name == "matrix_power":
            return la.matrix_power(well if kwargs["n"] < 0 else args[0], kwargs["n"])
        if name == "solve_batch":
            return la.solve(well, args[1])
        if name in ("inv", "det", "slogdet"):
            return getattr(la, name)(well)
        if name == "einsum":
            return xp.einsum(kwargs["subscripts"], *args)
        if name == "matrix_rank":
            return la.matrix_rank(args[0])
        if name == "pinv":
            return la.pinv(args[0])
        if name == "lstsq":
            x, res, rank, sv = la.lstsq(args[0], args[1], rcond=None)
            return x, rank, sv
        return getattr(xp, name)(*args, **kwargs)

    return Case(f"linalg2.{name}", fn, ops, tol, repr(kw))


_FFTS = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfftn", "irfftn",
         "fftn", "fftshift", "ifftshift", "fftfreq", "rfftfreq"]  # fmt: skip


def gen_fft(rng):
    name = str(rng.choice(_FFTS))
    dt = dtype(rng, ("float32", "float64", "complex64", "complex128", "int16", "bool", "float16"))
    shp = shape(rng, int(rng.integers(1, 4)))
    ops, kw = [array(rng, dt, shp)], {}
    if name in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        kw["axis"] = int(rng.integers(-len(shp), len(shp)))
        if rng.random() < 0.5 and shp[kw["axis"]]:  # NumPy 2.4 reads past an empty axis's end
            kw["n"] = int(rng.integers(1, 9))
    elif name in ("fft2", "ifft2", "rfftn", "irfftn", "fftn"):
        if len(shp) >= 2 and rng.random() < 0.5:
            k = int(rng.integers(1, min(len(shp), 2) + 1))
            kw["axes"] = tuple(int(a) for a in rng.choice(range(-len(shp), 0), k, replace=False))
            if rng.random() < 0.5:
                if all(shp[a] for a in kw["axes"]):
                    kw["s"] = tuple(int(n) for n in rng.integers(1, 6, k))
    elif name in ("fftshift", "ifftshift"):
        kw["axes"] = _axis(rng, len(shp))
    else:
        kw = {"n": int(rng.integers(1, 9)), "d": float(rng.choice([1.0, 0.5, 2.0]))}
    if name not in ("fftshift", "ifftshift", "fftfreq", "rfftfreq") and rng.random() < 0.5:
        kw["norm"] = str(rng.choice(["backward", "ortho", "forward"]))

    def fn(xp, x):
        if name in ("fftfreq", "rfftfreq"):
            return getattr(xp.fft, name)(**kw)
        return getattr(xp.fft, name)(x, **kw)

    return Case(f"fft.{name}", fn, ops, linalg_tol, repr(kw))


def gen_poly(rng):
    name = str(
        rng.choice(["polyval", "polyfit", "roots", "polyder", "polyint", "polyadd", "polymul",
                    "polysub", "polydiv", "poly"])
    )  # fmt: skip
    # small integers: polydiv's remainder trimming (|r[0]| <= 1e-8) amplifies rounding noise
    dt = dtype(rng, ("float64", "float32", "int8", "complex128", "int16"))
    c = array(rng, dt, (int(rng.integers(1, 5)),))
    ops, kw = [c], {}
    if name == "polyval":
        ops.append(array(rng, dtype(rng, REAL[1:]), shape(rng, int(rng.integers(0, 3)))))
    elif name == "polyfit":
        n = int(rng.integers(2, 8))
        ops = [Val(np.linspace(-1, 1, n)), array(rng, "float64", (n,))]
        kw["deg"] = int(rng.integers(0, min(n, 4)))
    elif name in ("polyadd", "polymul", "polysub", "polydiv"):
        ops.append(
            array(rng, dtype(rng, ("float64", "int16", "complex128")), (int(rng.integers(1, 4)),))
        )
    elif name in ("polyder", "polyint"):
        kw["m"] = int(rng.integers(0, 3))
    elif name == "roots":
        ops = [array(rng, "float64", (int(rng.integers(1, 5)),))]

    def fn(xp, *args):
        # inf and NaN coefficients propagate through convolutions in no common order, and
        # polydiv's trimming (|r[0]| <= 1e-8) cannot absorb the rounding of 1e10's
        args = [
            xp.where(xp.isfinite(x) & (xp.abs(x) < 1e6), x, 1) if x.dtype.kind in "fc" else x
            for x in args
        ]
        if name == "polyfit":
            return xp.polyfit(args[0], args[1], kw["deg"])
        if name == "roots":  # the order of the roots is the eigenvalue solver's
            r = xp.roots(args[0])
            return xp.sort_complex(r.astype("complex128")) if r.size else r
        if name == "polydiv":
            if not bool((args[1] != 0).any()):
                return None
            q, r = xp.polydiv(*args)  # the remainder's rounding is relative to the dividend
            return q, r / max(1.0, float(xp.abs(args[0].astype("complex128")).max()))
        return getattr(xp, name)(*args, **kw)

    return Case(f"poly.{name}", fn, ops, linalg_tol, repr(kw))


_NANS = ["nansum", "nanprod", "nanmean", "nanmin", "nanmax", "nanargmin", "nanargmax",
         "nancumsum", "nancumprod", "nanmedian", "nanpercentile", "nanquantile", "nanstd",
         "nanvar"]  # fmt: skip
_SCANS = ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod"]


def gen_nan_scan(rng):
    scan = rng.random() < 0.4
    name = str(rng.choice(_SCANS if scan else _NANS))
    # float16 scans keep a float16 running value in NumPy, a float32 one in gpupy (documented)
    dt = dtype(rng, REAL if not scan else tuple(d for d in NUMERIC if d != "float16") + ("bool",))
    shp = shape(rng, int(rng.integers(1, 4)))
    a = array(rng, dt, shp)
    one = scan or name in ("nanargmin", "nanargmax")
    kw = {"axis": _axis(rng, len(shp), one)}
    if name.startswith("cumulative") and (kw["axis"] is None and len(shp) > 1):
        kw["axis"] = 0
    if scan and rng.random() < 0.5:
        # complex data to an integer dtype: NumPy's out-of-range casts depend on the length
        kinds = _INEXACT if dt.startswith("complex") else NUMERIC
        kw["dtype"] = dtype(rng, tuple(d for d in kinds if d != "float16"))
    if name.startswith("cumulative") and rng.random() < 0.4:
        kw["include_initial"] = True
    if name in ("nanpercentile", "nanquantile") and dt.startswith("int"):
        a = array(rng, "float64", shp)  # NumPy's interpolation wraps in signed ints (documented)
    if name in ("nanpercentile", "nanquantile"):
        q = float(rng.choice([0, 25, 50, 90, 100]))
        kw["q"] = q if name == "nanpercentile" else q / 100
        kw["method"] = str(rng.choice(["linear", "lower", "higher", "nearest", "midpoint"]))
    if not scan and name not in ("nanargmin", "nanargmax") and rng.random() < 0.3:
        kw["keepdims"] = True
    if name in ("nanstd", "nanvar") and rng.random() < 0.4:
        kw["ddof"] = int(rng.integers(0, 2))

    def fn(xp, x):
        kwargs = dict(kw)
        if "q" in kwargs:
            return getattr(xp, name)(x, kwargs.pop("q"), **kwargs)
        return getattr(xp, name)(x, **kwargs)

    ordered = name not in ("nanmin", "nanmax", "nanargmin", "nanargmax")
    return Case(f"nan.{name}", fn, [a], sum_tol if ordered else None, repr(kw))


_CMP = ["==", "!=", "<", "<=", ">", ">="]
_OPERATORS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
              ">": operator.gt, ">=": operator.ge}  # fmt: skip


def gen_scalar_cmp(rng):
    """Comparisons of arrays with Python and NumPy scalars of every kind, both orders."""
    sym = str(rng.choice(_CMP))
    a = array(rng, dtype(rng), shape(rng, int(rng.integers(0, 3))))
    r = rng.random()
    s = (
        int(rng.choice([-1, 0, 255, 256, -129, 2**31, 2**63 - 1, 2**63, 2**64 - 1, -(2**63)]))
        if r < 0.35
        else float(rng.choice([0.5, -0.0, np.inf, np.nan, 1e20, 255.5, -1.0]))
        if r < 0.55
        else scalar(rng)
    )
    flip = bool(rng.random() < 0.4)
    ops = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
           ">": np.greater, ">=": np.greater_equal}  # fmt: skip

    operator_form = bool(rng.random() < 0.5)

    def fn(xp, x):
        f = _OPERATORS[sym] if operator_form else getattr(xp, ops[sym].__name__)
        return f(s, x) if flip else f(x, s)

    text = f"s={s!r} flip={flip} operator={operator_form}"
    return Case(f"cmp{sym}", fn, [a], None, text)
