"""xp.kernels.fuse: an element-wise function compiled into one kernel by cupy.fuse when it is
called with CuPy arrays, and called as it is otherwise (NumPy arrays, and gpupy arrays on every
device: gpupy has no fusion yet, each operation runs as its own kernel)."""

import functools
import sys

import numpy

__all__ = ["fuse"]


def _is_cupy_array(a):
    cupy = sys.modules.get("cupy")  # never imported here: a CuPy array means it is loaded
    return cupy is not None and isinstance(a, cupy.ndarray)


def _cupy_fuse(function, kernel_name):
    import cupy

    return cupy.fuse(kernel_name=kernel_name)(function)


def _on_cupy():
    """The CuPy backend while cupy.fuse traces the function, so xp.<name> is CuPy's ufunc."""
    from gpupy.cunumpy._backend import use_backend

    return use_backend("cupy", strict=True)


def _typed_scalars(args, kwargs):
    """Python scalars as the dtype they promote to next to the array arguments: cupy.fuse types a
    lone Python float on its own, eager NumPy 2 and CuPy promote it with the arrays."""
    dtypes = [a.dtype for a in (*args, *kwargs.values()) if hasattr(a, "dtype")]

    def typed(a):
        if isinstance(a, (int, float, complex)) and not isinstance(a, bool):
            return numpy.result_type(*dtypes, a).type(a)
        return a

    return tuple(typed(a) for a in args), {k: typed(v) for k, v in kwargs.items()}


def fuse(function=None, *, kernel_name=None):
    """@fuse or @fuse(kernel_name="name"): with any CuPy array among the arguments the call goes
    to cupy.fuse(function) (built on first such call, kernel_name defaulting to the function's
    name; Python scalars typed as they promote with the arrays); otherwise function(*args) runs
    as written. The function must be element-wise for cupy.fuse to trace it."""
    if function is None:
        return lambda f: fuse(f, kernel_name=kernel_name)
    if not callable(function):
        raise TypeError(f"[fuse] expected a function, got {type(function).__name__}")
    name = function.__name__ if kernel_name is None else kernel_name
    fused = None

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        nonlocal fused
        if not any(_is_cupy_array(a) for a in (*args, *kwargs.values())):
            return function(*args, **kwargs)
        args, kwargs = _typed_scalars(args, kwargs)
        with _on_cupy():
            if fused is None:
                fused = _cupy_fuse(function, name)
            return fused(*args, **kwargs)

    return wrapper
