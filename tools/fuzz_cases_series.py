"""Case family of tools/fuzz_numpy.py: the numpy.polynomial series modules (power, Chebyshev,
Legendre, Hermite, HermiteE and Laguerre series): val/der/int/roots/mul/div/pow/fit and friends
with mixed dtypes, and one bad argument in some cases (host Python only)."""

import numpy as np
from fuzz_operands import Case, Val, array, dtype

_MODULES = {"polynomial": "poly", "chebyshev": "cheb", "legendre": "leg", "hermite": "herm",
            "hermite_e": "herme", "laguerre": "lag"}  # fmt: skip
_OPS = ["val", "der", "int", "roots", "mul", "div", "pow", "add", "sub", "mulx", "fit",
        "fromroots", "vander", "val2d", "grid2d", "trim", "companion", "line", "val3d",
        "vander2d"]  # fmt: skip
_COEF = ("float64", "float32", "int8", "int64", "complex128", "bool", "uint8", "complex64",
         "float16")  # fmt: skip


def series_tol(dt):
    return (1e-3, 1e-3) if dt.char in "efF" else (1e-7, 1e-7)


def _coef(rng, n=None, nd=1):
    """Coefficients of a random dtype; sometimes 2-d (or empty) on purpose."""
    n = int(rng.integers(1, 5)) if n is None else n
    shp = (n,) if nd == 1 else (n, int(rng.integers(1, 3)))
    return array(rng, dtype(rng, _COEF), shp)


def _bad(rng, p=0.25):
    return rng.random() < p


def _derint_kw(rng, op):
    kw = {}
    if rng.random() < 0.7:
        kw["m"] = int(rng.integers(0, 4)) if not _bad(rng, 0.15) else rng.choice([-1, 1.5])
        kw["m"] = kw["m"] if isinstance(kw["m"], float) else int(kw["m"])
    if rng.random() < 0.3:
        kw["scl"] = float(rng.choice([2.0, -0.5, 1.0]))
    if op == "int":
        if rng.random() < 0.3:
            k = [float(v) for v in rng.integers(-2, 3, int(rng.integers(0, 5)))]
            kw["k"] = k[0] if len(k) == 1 and rng.random() < 0.5 else k
        if rng.random() < 0.3:
            kw["lbnd"] = float(rng.integers(-1, 2)) if not _bad(rng, 0.2) else [1.0, 2.0]
    return kw


def gen_series(rng):
    mod = str(rng.choice(list(_MODULES)))
    op = str(rng.choice(_OPS))
    fname = _MODULES[mod] + op
    kw, ops, tol = {}, [], series_tol
    if op in ("val", "val2d", "val3d", "grid2d"):
        nx = {"val": 1, "val2d": 2, "val3d": 3, "grid2d": 2}[op]
        n = int(rng.integers(0, 4))
        xs = [array(rng, dtype(rng, _COEF[:5]), (n,)) for _ in range(nx)]
        if op == "grid2d":
            xs[1] = array(rng, dtype(rng, _COEF[:5]), (int(rng.integers(0, 4)),))
        if op in ("val2d", "val3d") and _bad(rng, 0.1):
            xs[0] = array(rng, "float64", (int(rng.integers(0, 4)) + 4,))  # shapes differ
        cnd = nx if op != "val" else int(rng.choice([1, 1, 2]))
        cshape = tuple(int(rng.integers(1, 4)) for _ in range(cnd))
        if _bad(rng, 0.1):
            cshape = (0,) + cshape[1:]
        ops = xs + [array(rng, dtype(rng, _COEF), cshape)]
        if op == "val" and rng.random() < 0.3:
            kw["tensor"] = bool(rng.random() < 0.5)
        if op == "val" and rng.random() < 0.2:
            ops[0] = Val(float(rng.choice([0.5, -2.0, 3.0])))
    elif op in ("der", "int"):
        ops = [_coef(rng, nd=int(rng.choice([1, 1, 2])))]
        kw = _derint_kw(rng, op)
        if rng.random() < 0.2:
            kw["axis"] = int(rng.integers(-2, 3)) if not _bad(rng, 0.3) else 1.0
        if fname == "hermeder" and isinstance(kw.get("m", 1), int):
            # NumPy's hermeder of m >= the length moves the axis to the front (documented)
            axis = kw.get("axis", 0)
            shp = ops[0].np.shape
            if isinstance(axis, int) and -len(shp) <= axis < len(shp):
                kw["m"] = min(kw.get("m", 1), shp[axis] - 1)
    elif op in ("mul", "div", "add", "sub"):
        ops = [_coef(rng, nd=2 if _bad(rng, 0.08) else 1), _coef(rng)]
        if op == "div" and _bad(rng, 0.2):
            ops[1] = array(rng, "float64", (int(rng.integers(1, 3)),))
            ops[1].base[...] = 0  # a zero divisor series
    elif op == "pow":
        ops = [_coef(rng, int(rng.integers(1, 4)))]
        kw["pow"] = int(rng.integers(0, 5)) if not _bad(rng, 0.2) else rng.choice([-1, 2.5, 20])
        kw["pow"] = float(kw["pow"]) if kw["pow"] == 2.5 else int(kw["pow"])
        if rng.random() < 0.3:
            kw["maxpower"] = int(rng.integers(1, 6))
    elif op == "fit":
        n = int(rng.integers(2, 8))
        xt = np.linspace(-1, 1, n) if mod != "laguerre" else np.linspace(0, 3, n)
        xdt = dtype(rng, ("float64", "float32", "int64"))
        ops = [Val(xt.astype(xdt) if xdt != "int64" else np.arange(n)),
               array(rng, dtype(rng, ("float64", "float32", "complex128")),
                     (n,) if rng.random() < 0.8 else (n, 2))]  # fmt: skip
        kw["deg"] = int(rng.integers(0, min(n, 4)))
        r = rng.random()
        if r < 0.1:
            kw["deg"] = -1
        elif r < 0.2:
            kw["deg"] = [0, int(rng.integers(1, min(n, 4)))]
        elif r < 0.25:
            ops[1] = array(rng, "float64", (n + 1,))  # x and y lengths differ
        if rng.random() < 0.2:
            kw["w"] = None
            ops.append(array(rng, "float64", (n,)))
    elif op in ("roots", "companion", "mulx", "trim"):
        ops = [_coef(rng, int(rng.integers(0 if _bad(rng, 0.1) else 1, 6)),
                     nd=2 if _bad(rng, 0.08) else 1)]  # fmt: skip
        if op == "trim" and rng.random() < 0.5:
            kw["tol"] = float(rng.choice([0.0, 0.5, 2.0, -1.0]))
    elif op == "fromroots":
        ops = [array(rng, dtype(rng, _COEF[:5]), (int(rng.integers(0, 4)),))]
    elif op in ("vander", "vander2d"):
        ops = [array(rng, dtype(rng, _COEF[:5]), (int(rng.integers(0, 4)),))]
        if op == "vander2d":
            ops.append(array(rng, "float64", ops[0].np.shape))
            kw["deg"] = [int(rng.integers(0, 3)), int(rng.integers(-1 if _bad(rng) else 0, 3))]
        else:
            kw["deg"] = int(rng.integers(0, 4)) if not _bad(rng, 0.15) else -1
    else:  # line
        ops = [Val(float(rng.integers(-2, 3))), Val(float(rng.integers(-2, 3)))]

    def fn(xp, *args):
        f = getattr(getattr(xp.polynomial, mod), fname)
        kwargs = dict(kw)
        # inf and NaN coefficients propagate through the series' recurrences in no common order,
        # and 1e10's cancel in them with the rounding of each library's order of operations
        args = [
            xp.where(xp.isfinite(a) & (xp.abs(a) < 1e6), a, 1)
            if hasattr(a, "dtype") and a.dtype.kind in "fc"
            else a
            for a in args
        ]
        if op in ("val", "val2d", "val3d", "grid2d"):
            return f(*args, **kwargs)
        if op == "fit":
            if "w" in kwargs:
                kwargs["w"] = xp.abs(args[2]) + 1
            return f(args[0], args[1], kwargs.pop("deg"), **kwargs)
        if op == "roots":  # the order of the roots (and of near ties) is the solver's
            r = f(args[0])
            return (xp.sort(r.real), xp.sort(r.imag)) if r.dtype.kind == "c" else xp.sort(r)
        if op == "div":
            q, r = f(*args)  # the remainder's rounding is relative to the dividend
            return q, r / max(1.0, float(xp.abs(args[0].astype("complex128")).max()))
        if op == "pow":
            return f(args[0], kwargs.pop("pow"), **kwargs)
        if op in ("vander", "vander2d"):
            return f(*args, kwargs["deg"])
        return f(*args, **kwargs)

    if op == "fromroots" and ops[0].np.dtype in (np.float32, np.complex64):

        def tol(dt):  # NumPy's lines (1 - root) round in float32 before the float64 products
            return (2e-5, 2e-5)

    return Case(f"series.{fname}", fn, ops, tol, repr(kw))
