"""gpupy.linalg: the Array API linear algebra extension, plus NumPy's norm, eig, eigvals, lstsq
and cond.

Decompositions, solvers and norms run NumPy's LAPACK-backed numpy.linalg on zero-copy host views
of cpu and emu arrays (see _host_library); on cuda they raise NotImplementedError until cuSOLVER
support lands. matmul, outer, tensordot, vecdot, matrix_transpose, diagonal and trace are gpupy
operations and run on every device. Results and dtypes follow NumPy (float32 stays float32).
"""

import numpy

from gpupy import _core
from gpupy._creation import asarray
from gpupy._host_library import run
from gpupy._linalg import matmul, vecdot  # noqa: F401 - re-exported
from gpupy._linalg import outer as _outer
from gpupy._linalg import tensordot as _tensordot
from gpupy._manipulation import matrix_transpose  # noqa: F401 - re-exported
from gpupy._reduction import sum as _sum

# The same class, so `except numpy.linalg.LinAlgError` also catches gpupy's errors.
LinAlgError = numpy.linalg.LinAlgError

_np = numpy.linalg


def cholesky(x, /, *, upper=False):
    """See numpy.linalg.cholesky."""
    return run("linalg.cholesky", _np.cholesky, x, upper=upper)


def cross(x1, x2, /, *, axis=-1):
    """See numpy.linalg.cross (3-element vectors only)."""
    return run("linalg.cross", _np.cross, x1, x2, axis=axis)


def det(x, /):
    """See numpy.linalg.det."""
    return run("linalg.det", _np.det, x)


def diagonal(x, /, *, offset=0):
    """See numpy.linalg.diagonal: a view of the diagonal of the last two axes."""
    return _core._diagonal(asarray(x), offset)


def eigh(x, /):
    """See numpy.linalg.eigh: the named tuple (eigenvalues, eigenvectors)."""
    return run("linalg.eigh", _np.eigh, x)


def eigvalsh(x, /):
    """See numpy.linalg.eigvalsh."""
    return run("linalg.eigvalsh", _np.eigvalsh, x)


def eig(x, /):
    """See numpy.linalg.eig: the named tuple (eigenvalues, eigenvectors)."""
    return run("linalg.eig", _np.eig, x)


def eigvals(x, /):
    """See numpy.linalg.eigvals."""
    return run("linalg.eigvals", _np.eigvals, x)


def inv(x, /):
    """See numpy.linalg.inv."""
    return run("linalg.inv", _np.inv, x)


def lstsq(a, b, rcond=None):
    """See numpy.linalg.lstsq: (solution, residuals, rank, singular values)."""
    return run("linalg.lstsq", _np.lstsq, a, b, rcond=rcond)


def cond(x, p=None):
    """See numpy.linalg.cond."""
    return run("linalg.cond", _np.cond, x, p=p)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """See numpy.linalg.matrix_norm."""
    return run("linalg.matrix_norm", _np.matrix_norm, x, keepdims=keepdims, ord=ord)


def matrix_power(x, n, /):
    """See numpy.linalg.matrix_power."""
    return run("linalg.matrix_power", _np.matrix_power, x, n=n)


def matrix_rank(x, /, *, rtol=None):
    """See numpy.linalg.matrix_rank."""
    return run("linalg.matrix_rank", _np.matrix_rank, x, rtol=rtol)


def norm(x, ord=None, axis=None, keepdims=False):
    """See numpy.linalg.norm."""
    return run("linalg.norm", _np.norm, x, ord=ord, axis=axis, keepdims=keepdims)


def outer(x1, x2, /):
    """See numpy.linalg.outer: both inputs must be one-dimensional."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(
            f"[linalg.outer] both inputs must be 1-dimensional, got {x1.ndim} and {x2.ndim} "
            "dimensions"
        )
    return _outer(x1, x2)


def pinv(x, /, *, rtol=None):
    """See numpy.linalg.pinv."""
    return run("linalg.pinv", _np.pinv, x, rtol=rtol)


def qr(x, /, *, mode="reduced"):
    """See numpy.linalg.qr: the named tuple (Q, R) (only R for mode='r')."""
    return run("linalg.qr", _np.qr, x, mode=mode)


def slogdet(x, /):
    """See numpy.linalg.slogdet: the named tuple (sign, logabsdet)."""
    return run("linalg.slogdet", _np.slogdet, x)


def solve(x1, x2, /):
    """See numpy.linalg.solve."""
    return run("linalg.solve", _np.solve, x1, x2)


def svd(x, /, *, full_matrices=True):
    """See numpy.linalg.svd: the named tuple (U, S, Vh)."""
    return run("linalg.svd", _np.svd, x, full_matrices=full_matrices)


def svdvals(x, /):
    """See numpy.linalg.svdvals."""
    return run("linalg.svdvals", _np.svdvals, x)


def tensordot(x1, x2, /, *, axes=2):
    """See numpy.linalg.tensordot."""
    return _tensordot(x1, x2, axes=axes)


def trace(x, /, *, offset=0, dtype=None):
    """See numpy.linalg.trace: sums the diagonal of the last two axes."""
    return _sum(diagonal(x, offset=offset), axis=-1, dtype=dtype)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """See numpy.linalg.vector_norm."""
    return run("linalg.vector_norm", _np.vector_norm, x, axis=axis, keepdims=keepdims, ord=ord)


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
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "trace",
    "vecdot",
    "vector_norm",
]
