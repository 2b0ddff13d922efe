"""Linear algebra: matmul and dot, and the BLAS library the cpu device uses for float matmul."""

import glob
import importlib.util
import operator
import os

from gpupy import _core
from gpupy._core import inner, vdot  # noqa: F401
from gpupy._manipulation import _array_operands
from gpupy._utilities import _into_out, check_casting

__all__ = ["dot", "inner", "matmul", "matvec", "outer", "tensordot", "vdot", "vecdot", "vecmat"]


def _gufunc_inputs(op, x1, x2, out, dtype, casting):
    """The operands cast to the loop dtype that NumPy's matmul/vecdot ufuncs pick: dtype=, else
    the operands' common dtype; the inputs and out= are checked under `casting` first."""
    import numpy

    check_casting(op, casting)
    x1, x2 = _array_operands((x1, x2))
    loop = numpy.dtype(dtype) if dtype is not None else numpy.result_type(x1.dtype, x2.dtype)
    for i, x in enumerate((x1, x2)):
        if not numpy.can_cast(x.dtype, loop, casting):
            raise TypeError(
                f"[{op}] Cannot cast ufunc '{op}' input {i} from {x.dtype!r} to {loop!r} with "
                f"casting rule '{casting}'"
            )
    if out is not None and not numpy.can_cast(loop, out.dtype, casting):
        raise TypeError(
            f"[{op}] Cannot cast ufunc '{op}' output from {loop!r} to {out.dtype!r} with casting "
            f"rule '{casting}'"
        )
    if loop.kind != "c" and "c" in (x1.dtype.kind, x2.dtype.kind):
        import warnings

        warnings.warn(
            "Casting complex values to real discards the imaginary part",
            numpy.exceptions.ComplexWarning,
            stacklevel=3,
        )
    return x1.astype(loop, copy=False), x2.astype(loop, copy=False)


def matmul(x1, x2, /, out=None, *, casting="same_kind", dtype=None):
    """See numpy.matmul; ``casting`` and ``dtype`` as the ufunc's."""
    if dtype is not None or casting != "same_kind" or out is not None:
        x1, x2 = _gufunc_inputs("matmul", x1, x2, out, dtype, casting)
    return _into_out("matmul", _core.matmul(x1, x2), out, casting)


def vecdot(x1, x2, /, out=None, *, axis=-1, casting="same_kind", dtype=None):
    """See numpy.vecdot: the conjugate of x1 times x2, summed over ``axis``."""
    if dtype is not None or casting != "same_kind" or out is not None:
        x1, x2 = _gufunc_inputs("vecdot", x1, x2, out, dtype, casting)
    return _into_out("vecdot", _core.vecdot(x1, x2, axis=axis), out, casting)


def dot(a, b, out=None):
    """See numpy.dot; as in NumPy, ``out`` must have the product's exact dtype."""
    result = _core.dot(a, b)
    if out is not None and getattr(out, "dtype", None) != result.dtype:
        raise ValueError(
            f"[dot] output array is not acceptable: its dtype must be the product's, {result.dtype}"
        )
    return _into_out("dot", result, out)


def outer(a, b, out=None):
    """See numpy.outer."""
    return _into_out("outer", _core.outer(a, b), out, "same_kind")


def _dot_method(self, b, out=None):
    return dot(self, b, out)


_dot_method.__doc__ = "See numpy.ndarray.dot."
_core.ndarray.dot = _dot_method


def matvec(x1, x2, /):
    """See numpy.matvec: matrix-vector products over broadcast stacks, ``x1[..., m, n]`` with
    ``x2[..., n]``, through matmul (so BLAS/cuBLAS for float dtypes)."""
    x1, x2 = _array_operands((x1, x2))
    if x1.ndim < 2 or x2.ndim < 1:
        raise ValueError("[matvec] needs a matrix (ndim >= 2) and a vector (ndim >= 1)")
    return matmul(x1, x2[..., None])[..., 0]


def vecmat(x1, x2, /):
    """See numpy.vecmat: vector-matrix products ``conj(x1[..., m]) @ x2[..., m, n]`` over
    broadcast stacks (the vector is conjugated, as in vecdot)."""
    x1, x2 = _array_operands((x1, x2))
    if x1.ndim < 1 or x2.ndim < 2:
        raise ValueError("[vecmat] needs a vector (ndim >= 1) and a matrix (ndim >= 2)")
    if x1.dtype.kind == "c":
        x1 = _core.conjugate(x1)
    return matmul(x1[..., None, :], x2)[..., 0, :]


def tensordot(a, b, axes=2):
    """See numpy.tensordot. ``axes`` is N (the last N axes of ``a`` with the first N of ``b``)
    or a pair of axis sequences."""
    a, b = _array_operands((a, b))
    try:
        n = operator.index(axes)
    except TypeError:
        axes_a, axes_b = axes
        axes_a = [axes_a] if isinstance(axes_a, int) else list(axes_a)
        axes_b = [axes_b] if isinstance(axes_b, int) else list(axes_b)
    else:
        if n < 0:
            raise ValueError("[tensordot] axes must be non-negative")
        axes_a, axes_b = list(range(a.ndim - n, a.ndim)), list(range(n))
    return _core._tensordot(a, b, axes_a, axes_b)


def _blas_candidates():
    """Paths of CBLAS libraries to try, best first: scipy-openblas32 (a gpupy dependency), then
    a system OpenBLAS / CBLAS / reference BLAS."""
    # The wheel's lib folder is found without importing the package: its import reads package
    # metadata, which would add ~20 ms to `import gpupy`.
    spec = importlib.util.find_spec("scipy_openblas32")
    for root in (spec.submodule_search_locations or []) if spec else []:
        lib_dir = os.path.join(root, "lib")
        for pattern in ("libscipy_openblas*.so*", "libscipy_openblas*.dylib", "*openblas*.dll"):
            yield from sorted(glob.glob(os.path.join(lib_dir, pattern)))
    import ctypes.util

    for name in ("openblas", "cblas", "blas"):
        path = ctypes.util.find_library(name)
        if path:
            yield path


def _load_blas():
    """Loads the first usable BLAS; without one, float matmul runs on gpupy's own kernel.

    ``GPUPY_BLAS`` overrides the search: a library path, or ``none`` for gpupy's own kernel.
    """
    choice = os.environ.get("GPUPY_BLAS")
    if choice and choice.lower() == "none":
        return
    if choice:
        try:
            _core._set_blas_library(choice)
            return
        except ValueError as exc:
            import warnings

            warnings.warn(f"GPUPY_BLAS ignored: {exc}", RuntimeWarning, stacklevel=2)
    for path in _blas_candidates():
        try:
            _core._set_blas_library(path)
            return
        except ValueError:
            continue


_load_blas()
