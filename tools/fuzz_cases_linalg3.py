"""Case family of tools/fuzz_numpy.py: numpy.linalg's argument checking and decompositions
(solve/inv/det/slogdet/lstsq/pinv/eigh/eigvalsh/svd/qr/cholesky/norm/matrix_rank/cond) over
shapes (batches, 1-d, empty, non-square), dtypes (bool, integers, float16, complex), singular
and indefinite input and their keywords; decompositions are compared through what LAPACK fixes
(values, reconstructions), not the signs it picks (host Python only)."""

import numpy as np
from fuzz_operands import Case, array, dtype

_DTYPES = ("float64", "float32", "complex128", "complex64", "int64", "int8", "bool", "float16",
           "uint8")  # fmt: skip
_NAMES = ["solve", "inv", "det", "slogdet", "lstsq", "pinv", "eigh", "eigvalsh", "svd", "qr",
          "cholesky", "norm", "matrix_rank", "cond", "svdvals"]  # fmt: skip


def linalg_tol(dt):
    return (2e-3, 2e-3) if dt.char in "efF" else (1e-7, 1e-7)


def _matrix_shape(rng, square=True):
    r = rng.random()
    n = int(rng.integers(0, 4))
    m = n if square and r < 0.85 else int(rng.integers(0, 4))
    shp = (m, n)
    if rng.random() < 0.25:
        shp = (int(rng.integers(0, 3)),) + shp  # a batch
    if rng.random() < 0.05:
        shp = shp[-1:]  # 1-d: refused by the matrix functions
    return shp


def _kind(rng):
    """How the fn shapes the random matrix: well conditioned, singular, or as drawn."""
    return str(rng.choice(["well", "well", "well", "singular", "raw"]))


def _keywords(rng, name, ndim):
    kw = {}
    if name in ("eigh", "eigvalsh") and rng.random() < 0.4:
        kw["UPLO"] = str(rng.choice(["L", "U", "l", "X"]))
    elif name == "qr" and rng.random() < 0.7:
        kw["mode"] = str(rng.choice(["reduced", "complete", "r", "raw", "economic", "bad"]))
    elif name == "svd":
        kw["full_matrices"] = bool(rng.random() < 0.5)
        kw["compute_uv"] = bool(rng.random() < 0.7)
        kw["hermitian"] = bool(rng.random() < 0.2)
    elif name == "cholesky" and rng.random() < 0.4:
        kw["upper"] = bool(rng.random() < 0.5)
    elif name in ("pinv", "matrix_rank") and rng.random() < 0.4:
        kw["hermitian"] = True
    elif name == "cond" and rng.random() < 0.7:
        kw["p"] = rng.choice([None, 1, -1, 2, -2, np.inf, -np.inf, "fro", "nuc", 3])
        kw["p"] = kw["p"] if isinstance(kw["p"], (str, type(None))) else float(kw["p"])
    elif name == "norm":
        r = rng.random()
        if r < 0.4:
            kw["axis"] = int(rng.integers(-ndim - 1, ndim + 1)) if ndim else None
            kw["ord"] = rng.choice([None, 0, 1, -1, 2, 3, np.inf, -np.inf, 0.5, "fro", "nuc"])
        elif r < 0.8:
            axes = rng.choice(range(-ndim, ndim), 2) if ndim else (0, 1)
            kw["axis"] = tuple(int(a) for a in axes)
            kw["ord"] = rng.choice([None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf, 3])
        else:
            kw["ord"] = rng.choice([None, "fro", 2, 1])
            if rng.random() < 0.2:
                kw["axis"] = (0, 1, 2)
        kw["ord"] = kw["ord"] if isinstance(kw["ord"], (str, type(None))) else float(kw["ord"])
        if rng.random() < 0.3:
            kw["keepdims"] = True
    return kw


def _moderate(xp, a):
    """a with its non-finite and huge values replaced by 1: LAPACK's iterations may not end on
    NaN, and its rounding of 1e10 beside 1 is the library's."""
    if a.dtype.kind in "fc":
        return xp.where(xp.isfinite(a) & (xp.abs(a) < 1e6), a, 1)
    if a.dtype.kind in "iu":
        return xp.where((a < 10**6) & (a > -(10**6)), a, 1)
    return a


def gen_linalg3(rng):
    name = str(rng.choice(_NAMES))
    dt = dtype(rng, _DTYPES)
    square = name not in ("lstsq", "pinv", "svd", "qr", "norm", "matrix_rank", "svdvals")
    shp = _matrix_shape(rng, square)
    ops = [array(rng, dt, shp)]
    kind = _kind(rng)
    if name in ("solve", "lstsq"):
        k = shp[-1] if name == "solve" else shp[-2] if len(shp) > 1 else 0
        r = rng.random()
        rhs = (k,) if r < 0.45 else shp[:-1] + (int(rng.integers(1, 3)),) if r < 0.9 else (k + 1,)
        if name == "lstsq" and len(rhs) > 2:
            rhs = rhs[-2:]
        ops.append(array(rng, dtype(rng, _DTYPES), rhs))
    kw = _keywords(rng, name, len(shp))

    def matrix(xp, a):
        a = _moderate(xp, a)
        if a.ndim < 2 or a.shape[-1] != a.shape[-2] or kind == "raw":
            return a
        n = a.shape[-1]
        if kind == "singular" and n:
            a = a.copy()
            a[..., -1, :] = a[..., 0, :]  # a repeated row: an exact zero pivot
            return a
        if name in ("eigh", "eigvalsh", "cholesky", "svd") and a.dtype.kind in "fc":
            a = a + xp.conj(xp.swapaxes(a, -1, -2))  # Hermitian (positive definite below)
        return a + 4 * n * xp.eye(n, dtype=a.dtype) if n and a.dtype != bool else a

    def fn(xp, a, *rest):
        la = xp.linalg
        a = matrix(xp, a)
        rest = [_moderate(xp, b) for b in rest]
        if name == "solve":
            return la.solve(a, rest[0])
        if name == "lstsq":
            x, res, rank, sv = la.lstsq(a, rest[0], rcond=None)
            return x, res, rank, sv
        if name == "slogdet":
            return tuple(la.slogdet(a))
        if name == "eigh":
            w, v = la.eigh(a, **kw)
            vh = xp.conj(xp.swapaxes(v, -1, -2))
            return w, xp.abs(v @ (w[..., None] * vh)) if v.size else v  # the chosen triangle
        if name == "svd":
            r = la.svd(a, **kw)
            if not kw["compute_uv"]:
                return r
            u, s, vh = r
            k = s.shape[-1]
            recon = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
            return u.shape, u.dtype, xp.abs(s), vh.shape, recon
        if name == "qr":
            r = la.qr(a, **kw)
            if kw.get("mode") in ("r", "economic"):
                return xp.abs(r)
            if kw.get("mode") == "raw":
                return tuple((x.shape, x.dtype) for x in r)
            q, rr = r
            return q.shape, xp.abs(rr), q @ rr
        return getattr(la, name)(a, **kw)

    return Case(f"linalg3.{name}", fn, ops, linalg_tol, f"{kind} {kw!r}")
