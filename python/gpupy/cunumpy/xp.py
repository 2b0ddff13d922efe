"""`gpupy.cunumpy.xp`: the backend state on its own, for library code that imports it rather
than the whole namespace:

    from gpupy.cunumpy.xp import array_backend
    if array_backend.backend != "numpy": ...
    from gpupy.cunumpy import xp as backend_state
    backend_state.xp.zeros(3)  # the active array module, looked up at each access

`xp` (the active module: numpy, gpupy or cupy) and the flags `numpy_backend`, `gpupy_backend`,
`cupy_backend` are resolved at each access, so they follow set_backend/use_backend; every other
name is the package's own function (`xp.xp.to_numpy is xp.to_numpy`)."""

import sys
from typing import TYPE_CHECKING

from gpupy.cunumpy._backend import BACKENDS as BACKENDS  # re-exported
from gpupy.cunumpy._backend import array_backend

# The package's facade functions, forwarded (the same objects, never copies).
_FACADE = frozenset(
    "MIN_CUPY_VERSION ArrayBackend as_device_array assert_same_backend backend_info "
    "cupy_available default_float_dtype get_array_backend get_array_module get_backend is_cpu "
    "is_gpu require_version same_backend set_backend synchronize to_cunumpy to_cupy to_gpupy "
    "to_numpy use_backend".split()
)
_FLAGS = ("numpy_backend", "gpupy_backend", "cupy_backend")
__all__ = sorted({"BACKENDS", "array_backend", *_FACADE})

if TYPE_CHECKING:  # type checkers and editors complete `xp.<name>` as NumPy's
    import numpy as xp  # noqa: F401
else:

    def __getattr__(name):
        """The active module and the backend flags, read from array_backend at each access; the
        package's facade functions."""
        if name == "xp":
            return array_backend.module
        if name in _FLAGS:
            return array_backend.name == name.partition("_")[0]
        if name in _FACADE:
            return getattr(sys.modules["gpupy.cunumpy"], name)
        raise AttributeError(f"module 'gpupy.cunumpy.xp' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__, *_FLAGS, "xp"})
