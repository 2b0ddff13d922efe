"""gpupy.linalg on cuda arrays: NumPy's functions built from cuSOLVER primitives and gpupy ops.

The primitives (``_core._cuda_cholesky``, ``_cuda_lu_factor``, ``_cuda_solve``, ``_cuda_eigh``,
``_cuda_qr``, ``_cuda_svd``) factorize every matrix of a stack and report LAPACK's ``info``; the
functions here raise numpy.linalg.LinAlgError from it with NumPy's messages, and build det,
slogdet, inv, pinv, norms, cond, matrix_rank, matrix_power and lstsq from them as numpy.linalg
defines them.
"""

import math
import operator

import numpy

import gpupy as xp
from gpupy import _core

LinAlgError = numpy.linalg.LinAlgError

# NumPy's named result tuples, so that results compare and unpack alike on every device.
_PROBE = numpy.eye(1)
EighResult = type(numpy.linalg.eigh(_PROBE))
QRResult = type(numpy.linalg.qr(_PROBE))
SlogdetResult = type(numpy.linalg.slogdet(_PROBE))
SVDResult = type(numpy.linalg.svd(_PROBE))
_QR_MODES = {"reduced": 0, "complete": 1, "r": 2}


def _stacked(op, x, square=True):
    if x.ndim < 2:
        raise LinAlgError(
            f"[{op}] {x.ndim}-dimensional array given. Array must be at least two-dimensional"
        )
    if square and x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"[{op}] Last 2 dimensions of the array must be square")


def _lapack_types(op, *arrays):
    """NumPy's LAPACK-backed functions refuse float16 (cuSOLVER has no half precision either)."""
    for a in arrays:
        if a.dtype == numpy.float16:
            raise TypeError(f"[{op}] array type float16 is unsupported in linalg")


def _check(op, info, message):
    if info.size == 0:
        return
    info = xp.asnumpy(info)  # one value per matrix: a single copy to the host, then host checks
    if info.max() > 0:
        raise LinAlgError(f"[{op}] {message}")
    if info.min() < 0:
        raise RuntimeError(f"[{op}] cuSOLVER rejected an argument (info {int(info.min())})")


def _inverse_where(s, large):
    """1 / s where `large`, 0 elsewhere (no division by the small singular values)."""
    return xp.where(large, 1 / xp.where(large, s, 1), 0)


def _float_dtype(*dtypes):
    """NumPy's linalg result dtype: the promoted type if inexact, else float64."""
    dt = numpy.result_type(*dtypes)
    return dt if dt.kind in "fc" else numpy.dtype("float64")


def _as(x, dtype):
    return x if x.dtype == dtype else x.astype(dtype)


def _h(x):
    """The conjugate transpose of each matrix."""
    return xp.conj(xp.matrix_transpose(x))


def cholesky(x, upper=False):
    _stacked("linalg.cholesky", x)
    _lapack_types("linalg.cholesky", x)
    factor, info = _core._cuda_cholesky(x, bool(upper))
    _check("linalg.cholesky", info, "Matrix is not positive definite")
    return xp.triu(factor) if upper else xp.tril(factor)


def _lu_diagonal(op, x):
    """The diagonal of the LU factors and whether the pivots form an odd permutation."""
    _stacked(op, x)
    _lapack_types(op, x)
    lu, pivots, _ = _core._cuda_lu_factor(x)
    n = x.shape[-1]
    moved = pivots != xp.arange(1, n + 1, dtype="int64", device=x.device)
    odd = xp.sum(moved, axis=-1) % 2 == 1
    return _core._diagonal(lu, 0), odd


def det(x):
    d, odd = _lu_diagonal("linalg.det", x)
    p = xp.prod(d, axis=-1)
    return xp.where(odd, -p, p)


def slogdet(x):
    d, odd = _lu_diagonal("linalg.slogdet", x)
    magnitude = xp.abs(d)
    logabsdet = xp.sum(xp.log(magnitude), axis=-1)
    if d.dtype.kind == "c":
        zero = magnitude == 0
        unit = xp.where(zero, 0, d / xp.where(zero, 1, magnitude))
    else:
        unit = xp.sign(d)
    sign = xp.prod(unit, axis=-1)
    return SlogdetResult(xp.where(odd, -sign, sign), logabsdet)


def _solve(op, a, b):
    """(X, info) for a stack of (n, n) matrices and a stack of (n, k) right-hand sides."""
    dtype = _float_dtype(a.dtype, b.dtype)
    stack = xp.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = _as(xp.broadcast_to(a, stack + a.shape[-2:]), dtype)
    b = _as(xp.broadcast_to(b, stack + b.shape[-2:]), dtype)
    return _core._cuda_solve(a, b)


def solve(a, b):
    op = "linalg.solve"
    _stacked(op, a)
    _lapack_types(op, a, b)
    if b.ndim == 0:
        raise ValueError(f"[{op}] b must have at least one dimension")
    vector = b.ndim == 1
    rhs = b[:, None] if vector else b
    if rhs.shape[-2] != a.shape[-1]:
        raise ValueError(
            f"[{op}] a is {a.shape[-2]}x{a.shape[-1]} but b has {rhs.shape[-2]} rows "
            f"(shapes {a.shape} and {b.shape})"
        )
    x, info = _solve(op, a, rhs)
    _check(op, info, "Singular matrix")
    return x[..., 0] if vector else x


def _identity_like(x, dtype):
    eye = xp.eye(x.shape[-1], dtype=dtype, device=x.device)
    return xp.broadcast_to(eye, x.shape)


def inv(x):
    _stacked("linalg.inv", x)
    _lapack_types("linalg.inv", x)
    dtype = _float_dtype(x.dtype)
    result, info = _solve("linalg.inv", x, _identity_like(x, dtype))
    _check("linalg.inv", info, "Singular matrix")
    return result


def eigh(x):
    _stacked("linalg.eigh", x)
    _lapack_types("linalg.eigh", x)
    w, v, info = _core._cuda_eigh(x, True)
    _check("linalg.eigh", info, "Eigenvalues did not converge")
    return EighResult(w, v)


def eigvalsh(x):
    _stacked("linalg.eigvalsh", x)
    _lapack_types("linalg.eigvalsh", x)
    w, _, info = _core._cuda_eigh(x, False)
    _check("linalg.eigvalsh", info, "Eigenvalues did not converge")
    return w


def qr(x, mode="reduced"):
    if mode == "raw":
        raise NotImplementedError("[linalg.qr] mode='raw' is not available on cuda")
    if mode not in _QR_MODES:
        raise ValueError(f"[linalg.qr] Unrecognized mode '{mode}'")
    _stacked("linalg.qr", x, square=False)
    _lapack_types("linalg.qr", x)
    q, r, info = _core._cuda_qr(x, _QR_MODES[mode])
    _check("linalg.qr", info, "QR factorization failed")
    return r if mode == "r" else QRResult(q, r)


def svd(x, full_matrices=True):
    _stacked("linalg.svd", x, square=False)
    _lapack_types("linalg.svd", x)
    u, s, vh, info = _core._cuda_svd(x, True, bool(full_matrices))
    _check("linalg.svd", info, "SVD did not converge")
    return SVDResult(u, s, vh)


def svdvals(x):
    _stacked("linalg.svdvals", x, square=False)
    _lapack_types("linalg.svdvals", x)
    _, s, _, info = _core._cuda_svd(x, False, False)
    _check("linalg.svdvals", info, "SVD did not converge")
    return s


def _default_rtol(x, s):
    return max(x.shape[-2:]) * numpy.finfo(s.dtype).eps


def _cutoff(x, s, rtol):
    """rtol (a scalar or one per matrix) times the largest singular value of each matrix."""
    rtol = _default_rtol(x, s) if rtol is None else rtol
    return xp.asarray(rtol, device=x.device)[..., None] * xp.max(s, axis=-1, keepdims=True)


def pinv(x, rtol=None):
    _stacked("linalg.pinv", x, square=False)
    _lapack_types("linalg.pinv", x)
    m, n = x.shape[-2:]
    if x.size == 0:
        return xp.zeros(x.shape[:-2] + (n, m), dtype=_float_dtype(x.dtype), device=x.device)
    u, s, vh = svd(x, full_matrices=False)
    large = s > _cutoff(x, s, rtol)
    s_inv = _inverse_where(s, large)
    return xp.matmul(_h(vh) * s_inv[..., None, :], _h(u))


def matrix_rank(x, rtol=None):
    if x.ndim < 2:
        return xp.astype(xp.any(x != 0), "int64")
    _lapack_types("linalg.matrix_rank", x)
    s = svdvals(x)
    return xp.sum(s > _cutoff(x, s, rtol), axis=-1)


def matrix_power(x, n):
    _stacked("linalg.matrix_power", x)
    try:
        n = operator.index(n)
    except TypeError as exc:
        raise TypeError("[linalg.matrix_power] exponent must be an integer") from exc
    if n == 0:
        return xp.astype(_identity_like(x, x.dtype), x.dtype, copy=True)
    if n < 0:
        x, n = inv(x), -n
    result, square = None, x
    while n:  # binary powering: x**n as a product of the squares x, x**2, x**4, ...
        if n & 1:
            result = square if result is None else xp.matmul(result, square)
        n >>= 1
        if n:
            square = xp.matmul(square, square)
    return result


def _inexact(x):
    return x if x.dtype.kind in "fc" else x.astype("float64")


def vector_norm(x, axis=None, keepdims=False, ord=2):
    x = _inexact(x)
    a = xp.abs(x)
    if ord == math.inf:
        return xp.max(a, axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return xp.min(a, axis=axis, keepdims=keepdims)
    if ord == 0:
        return xp.sum(xp.astype(a != 0, a.dtype), axis=axis, keepdims=keepdims)
    if ord == 1:
        return xp.sum(a, axis=axis, keepdims=keepdims)
    if ord == 2:
        return xp.sqrt(xp.sum(a * a, axis=axis, keepdims=keepdims))
    return xp.sum(a**ord, axis=axis, keepdims=keepdims) ** (1.0 / ord)


def matrix_norm(x, keepdims=False, ord="fro"):
    _stacked("linalg.matrix_norm", x, square=False)
    x = _inexact(x)
    if ord == "fro":
        a = xp.abs(x)
        r = xp.sqrt(xp.sum(a * a, axis=(-2, -1)))
    elif ord == "nuc":
        r = xp.sum(svdvals(x), axis=-1)
    elif ord in (2, -2):
        s = svdvals(x)
        r = xp.max(s, axis=-1) if ord == 2 else xp.min(s, axis=-1)
    elif ord in (1, -1, math.inf, -math.inf):
        # 1: the largest column sum; inf: the largest row sum (min for the negative orders).
        sums = xp.sum(xp.abs(x), axis=-2 if abs(ord) == 1 else -1)
        r = xp.max(sums, axis=-1) if ord > 0 else xp.min(sums, axis=-1)
    else:
        raise ValueError(f"[linalg.matrix_norm] Invalid norm order {ord!r} for matrices.")
    return r[..., None, None] if keepdims else r


def norm(x, ord=None, axis=None, keepdims=False):
    if axis is None:
        if ord is None:
            return vector_norm(x, axis=None, keepdims=keepdims)
        if x.ndim not in (1, 2):
            raise ValueError("[linalg.norm] Improper number of dimensions to norm.")
        axis = tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, (int, numpy.integer)) else tuple(axis)
    axes = tuple(a % x.ndim if -x.ndim <= a < x.ndim else _bad_axis(a, x) for a in axes)
    if len(axes) == 1:
        return vector_norm(x, axis=axes[0], keepdims=keepdims, ord=2 if ord is None else ord)
    if len(axes) != 2:
        raise ValueError("[linalg.norm] Improper number of dimensions to norm.")
    if axes[0] == axes[1]:
        raise ValueError("[linalg.norm] Duplicate axes given.")
    moved = xp.moveaxis(x, axes, (-2, -1))
    r = matrix_norm(moved, ord="fro" if ord is None else ord)
    return xp.expand_dims(r, axis=tuple(sorted(axes))) if keepdims else r


def _bad_axis(a, x):
    raise numpy.exceptions.AxisError(
        f"[linalg.norm] axis {a} is out of bounds for array of dimension {x.ndim}"
    )


def cond(x, p=None):
    _stacked("linalg.cond", x, square=False)
    _lapack_types("linalg.cond", x)
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        raise LinAlgError("[linalg.cond] cond is not defined on empty arrays")
    if p is None or p == 2 or p == -2:
        s = svdvals(x)
        r = s[..., 0] / s[..., -1] if p != -2 else s[..., -1] / s[..., 0]
    else:
        _stacked("linalg.cond", x)
        x = _inexact(x)
        inverse, info = _solve("linalg.cond", x, _identity_like(x, x.dtype))
        r = matrix_norm(x, ord=p) * matrix_norm(inverse, ord=p)
        r = xp.where(info > 0, math.inf, r)
    # As NumPy: a NaN that comes from a singular matrix (not from NaN input) is infinite.
    from_singular = xp.isnan(r) & ~xp.any(xp.isnan(x), axis=(-2, -1))
    return xp.where(from_singular, math.inf, r)


def lstsq(a, b, rcond=None):
    op = "linalg.lstsq"
    _lapack_types(op, a, b)
    vector = b.ndim == 1
    rhs = b[:, None] if vector else b
    if a.ndim != 2 or rhs.ndim != 2:
        raise LinAlgError(
            f"[{op}] {max(a.ndim, b.ndim)}-dimensional array given. Array must be two-dimensional"
        )
    m, n = a.shape
    if rhs.shape[0] != m:
        raise LinAlgError(f"[{op}] Incompatible dimensions")
    dtype = _float_dtype(a.dtype, b.dtype)
    a, rhs = _as(a, dtype), _as(rhs, dtype)
    u, s, vh = svd(a, full_matrices=False)
    if rcond is None:
        rcond = numpy.finfo(s.dtype).eps * max(m, n)
    large = s > (rcond * xp.max(s) if s.size else 0)
    s_inv = _inverse_where(s, large)
    x = xp.matmul(_h(vh), s_inv[:, None] * xp.matmul(_h(u), rhs))
    rank = int(xp.sum(large))
    if rank == n and m > n:
        r = xp.abs(rhs - xp.matmul(a, x))
        residuals = xp.sum(r * r, axis=0)
    else:
        residuals = xp.zeros((0,), dtype=s.dtype, device=a.device)
    if vector:
        x = x[:, 0]
    return x, residuals, xp.asarray(rank, dtype="int32", device=a.device), s


def cross(x1, x2, axis=-1):
    if x1.ndim == 0 or x2.ndim == 0 or x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(
            "[linalg.cross] both input arrays must be (arrays of) 3-dimensional vectors"
        )
    a = xp.moveaxis(x1, axis, -1)
    b = xp.moveaxis(x2, axis, -1)
    a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
    b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
    c = xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return xp.moveaxis(c, -1, axis)
