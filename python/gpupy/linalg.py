"""gpupy.linalg: the Array API linear algebra extension, plus NumPy's norm, eig, eigvals, lstsq,
cond, multi_dot, tensorinv and tensorsolve.

Decompositions, solvers and norms run NumPy's LAPACK-backed numpy.linalg on zero-copy host views
of cpu and emu arrays (see _host_library), and cuSOLVER plus gpupy operations on cuda arrays (see
_cuda_linalg; eig and eigvals are not available on cuda). matmul, outer, tensordot, vecdot,
matrix_transpose, diagonal, trace and multi_dot are gpupy operations and run on every device
(tensorinv and tensorsolve reshape for inv and solve). Results and
dtypes follow NumPy (float32 stays float32).
"""

import math as _math

import numpy as _numpy

from gpupy import _core, _cuda_linalg
from gpupy._creation import asarray as _asarray
from gpupy._host_library import on_cuda as _on_cuda
from gpupy._host_library import run as _run
from gpupy._linalg import matmul, vecdot  # noqa: F401 - re-exported
from gpupy._linalg import outer as _outer
from gpupy._linalg import tensordot as _tensordot
from gpupy._manipulation import matrix_transpose  # noqa: F401 - re-exported
from gpupy._reduction import sum as _sum

# The same class, so `except numpy.linalg.LinAlgError` also catches gpupy's errors.
LinAlgError = _numpy.linalg.LinAlgError

_np = _numpy.linalg


def _call(name, *arrays, **kwargs):
    """numpy.linalg.<name> on cpu and emu arrays, _cuda_linalg.<name> on cuda arrays."""
    op = f"linalg.{name}"
    cuda_arrays = _on_cuda(op, *arrays)
    if cuda_arrays is None:
        return _run(op, getattr(_np, name), *arrays, **kwargs)
    cuda_fn = getattr(_cuda_linalg, name, None)
    if cuda_fn is None:
        raise NotImplementedError(
            f"[{op}] is not available on cuda (gpupy has no cuSOLVER path for it); move the data "
            "explicitly (x.to_device('cpu')) to compute it there"
        )
    return cuda_fn(*cuda_arrays, **kwargs)


def cholesky(x, /, *, upper=False):
    """See numpy.linalg.cholesky."""
    return _call("cholesky", x, upper=upper)


def cross(x1, x2, /, *, axis=-1):
    """See numpy.linalg.cross (3-element vectors only)."""
    return _call("cross", x1, x2, axis=axis)


def det(x, /):
    """See numpy.linalg.det."""
    return _call("det", x)


def diagonal(x, /, *, offset=0):
    """See numpy.linalg.diagonal: a view of the diagonal of the last two axes."""
    return _core._diagonal(_asarray(x), offset)


def _stacked_square(op, x):
    """NumPy's check of the matrix functions, before the dtype's (LinAlgError)."""
    x = _asarray(x)
    if x.ndim < 2:
        raise LinAlgError(
            f"[{op}] {x.ndim}-dimensional array given. Array must be at least two-dimensional"
        )
    if x.shape[-1] != x.shape[-2]:
        raise LinAlgError(f"[{op}] Last 2 dimensions of the array must be square")
    return x


def _triangle(op, x, uplo):
    """The Hermitian matrix that NumPy's UPLO ('l' and 'u' too) reads from x: 'L' (the default,
    which gpupy's eigh reads too) as it is, 'U' rebuilt from the upper triangle."""
    import gpupy

    uplo = uplo.upper() if isinstance(uplo, str) else uplo
    if uplo not in ("L", "U"):
        raise ValueError(f"[{op}] UPLO argument must be 'L' or 'U'")
    x = _stacked_square(op, x)
    if uplo == "L":
        return x
    upper = gpupy.triu(x)
    return upper + gpupy.conj(matrix_transpose(gpupy.triu(x, 1)))


def eigh(a, UPLO="L"):  # noqa: N803 - NumPy's name
    """See numpy.linalg.eigh: the named tuple (eigenvalues, eigenvectors)."""
    return _call("eigh", _triangle("linalg.eigh", a, UPLO))


def eigvalsh(a, UPLO="L"):  # noqa: N803 - NumPy's name
    """See numpy.linalg.eigvalsh."""
    return _call("eigvalsh", _triangle("linalg.eigvalsh", a, UPLO))


def eig(x, /):
    """See numpy.linalg.eig: the named tuple (eigenvalues, eigenvectors)."""
    return _call("eig", x)


def eigvals(x, /):
    """See numpy.linalg.eigvals."""
    return _call("eigvals", x)


def inv(x, /):
    """See numpy.linalg.inv."""
    return _call("inv", x)


def lstsq(a, b, rcond=None):
    """See numpy.linalg.lstsq: (solution, residuals, rank, singular values)."""
    return _call("lstsq", a, b, rcond=rcond)


def cond(x, p=None):
    """See numpy.linalg.cond."""
    return _call("cond", x, p=p)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """See numpy.linalg.matrix_norm."""
    return _call("matrix_norm", x, keepdims=keepdims, ord=ord)


def matrix_power(a, n):
    """See numpy.linalg.matrix_power."""
    return _call("matrix_power", a, n=n)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):  # noqa: N803 - NumPy's name
    """See numpy.linalg.matrix_rank: the number of singular values above tol (absolute), else
    above rtol (default max(M, N) * eps) times the largest. hermitian=True takes them from eigh."""
    import gpupy

    if tol is not None and rtol is not None:
        raise ValueError("[linalg.matrix_rank] `tol` and `rtol` can't be both set.")
    A = _asarray(A)
    if A.ndim < 2:  # NumPy's Python int: is any element nonzero
        return int(bool(gpupy.any(A != 0)))
    if tol is None and not hermitian:
        return _call("matrix_rank", A, rtol=rtol)
    s = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * gpupy.finfo(s.dtype).eps
        else:
            rtol = gpupy.asarray(rtol, device=A.device)[..., None]
        tol = s.max(axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = gpupy.asarray(tol, device=A.device)[..., None]
    return gpupy.count_nonzero(s > tol, axis=-1)


def _chain_order(dims):
    """NumPy's matrix-chain order: split[i][j] is where the product of matrices i..j splits."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain_product(arrays, split, i, j):
    if i == j:
        return arrays[i]
    k = split[i][j]
    return matmul(_chain_product(arrays, split, i, k), _chain_product(arrays, split, k + 1, j))


def multi_dot(arrays, *, out=None):
    """See numpy.linalg.multi_dot: the products in the cheapest order (matrix-chain order)."""
    from gpupy import dot
    from gpupy._host_library import device_arrays
    from gpupy._utilities import check_operands

    check_operands("linalg.multi_dot", (arrays,))
    n = len(arrays)
    if n < 2:
        raise ValueError("[linalg.multi_dot] Expecting at least two arrays.")
    arrays = device_arrays("linalg.multi_dot", *arrays)
    if n == 2:
        result = dot(arrays[0], arrays[1])
    else:
        first, last = arrays[0].ndim, arrays[-1].ndim
        if first == 1:
            arrays[0] = arrays[0].reshape(1, -1)
        if last == 1:
            arrays[-1] = arrays[-1].reshape(-1, 1)
        for a in arrays:
            if a.ndim != 2:
                raise LinAlgError(
                    f"[linalg.multi_dot] {a.ndim}-dimensional array given. Array must be "
                    "two-dimensional"
                )
        dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
        result = _chain_product(arrays, _chain_order(dims), 0, n - 1)
        if first == 1 and last == 1:
            result = result[0, 0]
        elif first == 1 or last == 1:
            result = result.reshape(-1)
    if out is not None:
        out[...] = result
        return out
    return result


def tensorinv(a, ind=2):
    """See numpy.linalg.tensorinv."""
    a = _asarray(a)  # one array: NumPy data goes to the default device
    if ind <= 0:
        raise ValueError("[linalg.tensorinv] Invalid ind argument.")
    inv_shape = a.shape[ind:] + a.shape[:ind]
    rows = _math.prod(a.shape[ind:])
    return inv(a.reshape(rows, -1)).reshape(inv_shape)


def tensorsolve(a, b, axes=None):
    """See numpy.linalg.tensorsolve."""
    from gpupy._host_library import device_arrays

    a, b = device_arrays("linalg.tensorsolve", a, b)
    if axes is not None:
        order = list(range(a.ndim))
        for k in axes:
            order.remove(k)
            order.insert(a.ndim, k)
        a = _core.permute_dims(a, tuple(order))
    x_shape = a.shape[-(a.ndim - b.ndim) :] if a.ndim > b.ndim else ()
    n = _math.prod(x_shape)
    if a.size != n * n:
        raise LinAlgError(
            "[linalg.tensorsolve] Input arrays must satisfy the requirement "
            "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])"
        )
    return solve(a.reshape(n, n), b.reshape(-1)).reshape(x_shape)


def norm(x, ord=None, axis=None, keepdims=False):
    """See numpy.linalg.norm."""
    return _call("norm", x, ord=ord, axis=axis, keepdims=keepdims)


def outer(x1, x2, /):
    """See numpy.linalg.outer: both inputs must be one-dimensional."""
    x1, x2 = _asarray(x1), _asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"[linalg.outer] both inputs must be 1-dimensional, got {x1.ndim} and {x2.ndim} "
            "dimensions"
        )
    return _outer(x1, x2)


def pinv(a, rcond=None, hermitian=False, *, rtol=_numpy._NoValue):
    """See numpy.linalg.pinv, with NumPy's cutoffs: 1e-15 times the largest singular value by
    default, `rcond` (NumPy's older name) or `rtol` relative cutoffs, and ``rtol=None`` the
    Array API's max(M, N) * eps. hermitian=True gives the same pseudo-inverse (NumPy uses it only
    to pick eigh over svd); as NumPy's, it then reads only the lower triangle."""
    if rcond is not None:
        if rtol is not _numpy._NoValue:
            raise ValueError("[linalg.pinv] `rtol` and `rcond` can't be both set.")
        rtol = rcond
    elif rtol is _numpy._NoValue:
        rtol = 1e-15
    a = _asarray(a)
    if hermitian and not (a.size == 0 and _math.prod(a.shape[-2:]) == 0):  # NumPy's empty case
        import gpupy

        a = _stacked_square("linalg.pinv", a)
        lower = gpupy.tril(a, -1)  # the Hermitian matrix eigh reads (a real diagonal)
        a = lower + gpupy.conj(matrix_transpose(lower)) + _diag_real(a)
    return _call("pinv", a, rtol=rtol)


def _diag_real(a):
    """The real parts of a's diagonals as diagonal matrices of a's dtype."""
    import gpupy

    n = a.shape[-1]
    d = gpupy.real(diagonal(a)) if a.dtype.kind == "c" else diagonal(a)
    return gpupy.eye(n, dtype=a.dtype, device=a.device) * d[..., None, :]


def qr(a, mode="reduced"):
    """See numpy.linalg.qr: the named tuple (Q, R) (only R for mode='r')."""
    return _call("qr", a, mode=mode)


def slogdet(x, /):
    """See numpy.linalg.slogdet: the named tuple (sign, logabsdet)."""
    return _call("slogdet", x)


def solve(x1, x2, /):
    """See numpy.linalg.solve."""
    return _call("solve", x1, x2)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """See numpy.linalg.svd: the named tuple (U, S, Vh), or S alone when compute_uv is False.
    hermitian=True derives them from eigh, as NumPy does (the same signs and order)."""
    if hermitian:
        return _svd_hermitian(_asarray(a), compute_uv)
    if not compute_uv:
        return svdvals(a)
    return _call("svd", a, full_matrices=full_matrices)


def _svd_hermitian(a, compute_uv):
    import gpupy

    if not compute_uv:
        return gpupy.flip(gpupy.sort(gpupy.abs(eigvalsh(a)), axis=-1), axis=-1)
    w, u = eigh(a)
    s = gpupy.abs(w)
    order = gpupy.flip(gpupy.argsort(s, axis=-1), axis=-1)
    s = gpupy.take_along_axis(s, order, axis=-1)
    u = gpupy.take_along_axis(u, order[..., None, :], axis=-1)
    # copysign, not sign: a zero eigenvalue keeps its vector in vh (vh stays unitary)
    sign = gpupy.take_along_axis(gpupy.copysign(1.0, w), order, axis=-1)
    vh = gpupy.conj(matrix_transpose(u * sign[..., None, :]))
    return _cuda_linalg.SVDResult(u, s, vh)


def svdvals(x, /):
    """See numpy.linalg.svdvals."""
    return _call("svdvals", x)


def tensordot(x1, x2, /, *, axes=2):
    """See numpy.linalg.tensordot."""
    return _tensordot(x1, x2, axes=axes)


def trace(x, /, *, offset=0, dtype=None):
    """See numpy.linalg.trace: sums the diagonal of the last two axes."""
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """See numpy.linalg.vector_norm."""
    return _call("vector_norm", x, axis=axis, keepdims=keepdims, ord=ord)


__all__ = [
    "LinAlgError",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "trace",
    "vecdot",
    "vector_norm",
]
