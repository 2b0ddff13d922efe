"""gpupy.cunumpy: one array namespace for NumPy and GPU backends (`from gpupy import cunumpy as
xp`), and the kernel layer that moves hand-written kernels to CUDA one at a time.

`xp.<name>` resolves to the active backend's function (numpy, gpupy or cupy; CUNUMPY_BACKEND
picks it at import). The backend's public names are copied into this namespace and swapped on
every switch, so an attribute access costs what `numpy.<name>` costs."""

import sys as _sys

import numpy as _numpy

from gpupy.cunumpy import cuda
from gpupy.cunumpy._backend import (
    MIN_CUPY_VERSION,
    ArrayBackend,
    array_backend,
    as_device_array,
    assert_same_backend,
    cupy_available,
    get_array_backend,
    get_array_module,
    get_backend,
    is_cpu,
    is_gpu,
    same_backend,
    set_backend,
    synchronize,
    to_cunumpy,
    to_cupy,
    to_gpupy,
    to_numpy,
    use_backend,
)
from gpupy.cunumpy._backend import init_from_environment as _init_from_environment
from gpupy.cunumpy._scipy_facade import scipy
from gpupy.cunumpy.arguments import (
    CudaArguments,
    CudaStruct,
    CudaStructArguments,
    CudaStructValue,
    write_cuda_header,
)
from gpupy.cunumpy.budget import TransferBudget
from gpupy.cunumpy.catalog import KernelCatalog
from gpupy.cunumpy.cuda_kernel import (
    CudaKernel,
    CudaKernelVariants,
    cuda_kernel_names,
    parse_cuda_signature,
)
from gpupy.cunumpy.host_copies import to_host_async
from gpupy.cunumpy.host_kernel import (
    PyccelKernel,
    evaluate_on_host,
    host_call,
    outputs_from_annotations,
    setup_on_host,
)
from gpupy.cunumpy.implementations import (
    DEVICE_IMPLEMENTATIONS,
    HOST_IMPLEMENTATIONS,
    HostImplementations,
    get_device_kernel_implementation,
    get_host_kernel_implementation,
    set_device_kernel_implementation,
    set_host_kernel_implementation,
    use_device_kernel_implementation,
    use_host_kernel_implementation,
)
from gpupy.cunumpy.implementations import init_from_environment as _init_implementations
from gpupy.cunumpy.kernel import CompiledHostKernel, Kernel
from gpupy.cunumpy.kernel_arrays import as_kernel_array, kernel_output
from gpupy.cunumpy.kernels import MetalKernel, metal_available
from gpupy.cunumpy.memory import DeviceMirror
from gpupy.cunumpy.profiling import (
    Timing,
    TransferCounter,
    TransferEvent,
    assert_no_transfers,
    count_transfers,
    nvtx_range,
    timed_region,
)

__version__ = "0.1.0"
# Submodules imported on first access (xp.rng, ...): kernel_testing must not load with the package.
_LAZY_SUBMODULES = ("algorithms", "integrate", "kernel_testing", "mpi", "optimize", "rng", "xp")

# cunumpy's own names; the backend's names are copied in next to them (see _install).
__all__ = [
    "ArrayBackend",
    "MIN_CUPY_VERSION",
    "CudaArguments",
    "CudaKernel",
    "CudaKernelVariants",
    "CudaStruct",
    "CudaStructArguments",
    "CudaStructValue",
    "MetalKernel",
    "CompiledHostKernel",
    "DEVICE_IMPLEMENTATIONS",
    "DeviceMirror",
    "HOST_IMPLEMENTATIONS",
    "HostImplementations",
    "Kernel",
    "KernelCatalog",
    "PyccelKernel",
    "Timing",
    "TransferBudget",
    "TransferCounter",
    "TransferEvent",
    "assert_no_transfers",
    "assert_same_backend",
    "count_transfers",
    "cuda",
    "nvtx_range",
    "outputs_from_annotations",
    "timed_region",
    "array_backend",
    "as_device_array",
    "as_kernel_array",
    "backend_info",
    "cuda_kernel_names",
    "cupy_available",
    "default_float_dtype",
    "evaluate_on_host",
    "get_array_backend",
    "get_array_module",
    "get_backend",
    "get_device_kernel_implementation",
    "get_host_kernel_implementation",
    "host_call",
    "is_cpu",
    "is_gpu",
    "metal_available",
    "kernel_output",
    "kernel_testing",
    "parse_cuda_signature",
    "require_version",
    "same_backend",
    "scipy",
    "set_backend",
    "set_device_kernel_implementation",
    "set_host_kernel_implementation",
    "setup_on_host",
    "synchronize",
    "to_cunumpy",
    "to_cupy",
    "to_gpupy",
    "to_host_async",
    "to_numpy",
    "use_backend",
    "write_cuda_header",
    "use_device_kernel_implementation",
    "use_host_kernel_implementation",
]


def backend_info():
    """A JSON-compatible description of the backend and the device; never raises."""
    import os

    import gpupy

    info = {
        "backend": get_backend(),
        "cupy_available": cupy_available(),
        "cuda_unavailable_reason": None,
        "versions": {
            "cunumpy": __version__,
            "numpy": _numpy.__version__,
            "gpupy": gpupy.__version__,
            "cupy": _installed_version("cupy"),
        },
        "default_device": None,
        "device": None,
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
    }
    try:
        info["default_device"] = str(gpupy._core.default_device())
        if gpupy.cuda.is_available():
            info["device"] = _cuda_device_info(gpupy)
        else:
            info["cuda_unavailable_reason"] = gpupy.cuda.unavailable_reason()
    except Exception as exc:  # noqa: BLE001 - inspection must never fail the caller
        info["cuda_inspection_error"] = f"{type(exc).__name__}: {exc}"
    return info


def _installed_version(dist):
    """The installed version of a distribution, or None; never imports it."""
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def _cuda_device_info(gpupy):
    """The current CUDA device, as backend_info reports it (JSON-compatible: lists, no tuples)."""
    index = int(str(gpupy._core.default_device()).partition(":")[2] or 0)
    props = gpupy.cuda.get_device_properties(index)
    return {
        "id": index,
        "name": props["name"],
        "compute_capability": list(props["compute_capability"]),
        "visible_devices": gpupy.cuda.device_count(),
        "driver_version": gpupy.cuda.driver_version(),
        "runtime_version": gpupy.cuda.runtime_version(),
    }


def require_version(minimum):
    """ImportError when cunumpy is older than `minimum` ("0.4.0"; numeric parts compared)."""
    from gpupy.cunumpy._backend import _version_tuple

    wanted = _version_tuple(minimum) if isinstance(minimum, str) else None
    if wanted is None:
        raise ValueError(
            f"[require_version] expected a version string such as '0.4.0', got {minimum!r}"
        )
    if _version_tuple(__version__) < wanted:
        raise ImportError(f"gpupy.cunumpy {minimum} or newer is required, this is {__version__}")


def default_float_dtype():
    """The active backend's float64."""
    return array_backend.module.float64


_module = _sys.modules[__name__]
# Every name defined so far is cunumpy's own, dunders included: NumPy lists __version__ in
# __all__, and copying it would make backend_info report NumPy's version as cunumpy's.
_OWN = frozenset(globals()) | frozenset(_LAZY_SUBMODULES)
_copied = set()


_exports = {}  # module name -> {name: value} copied for it, computed once per module


def _exported(module):
    """The backend's public names already in its namespace; lazily loaded submodules are left
    to __getattr__ so that the switch does not import them."""
    names = _exports.get(module.__name__)
    if names is None:
        public = getattr(module, "__all__", None) or [n for n in vars(module) if n[0] != "_"]
        d = vars(module)
        names = {n: d[n] for n in public if n in d and n not in _OWN}
        _exports[module.__name__] = names
    return names


def _install(module):
    """Copies the backend's public names into this namespace, never over cunumpy's own."""
    g = _module.__dict__
    for n in _copied:
        g.pop(n, None)
    names = _exported(module)
    g.update(names)
    _copied.clear()
    _copied.update(names)


def __getattr__(name):
    """Names the backend does not list in __all__ fall through to it; plus the backend flags."""
    if name == "numpy_backend":
        return array_backend.name == "numpy"
    if name == "gpupy_backend":
        return array_backend.name == "gpupy"
    if name == "cupy_backend":
        return array_backend.name == "cupy"
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    try:
        return getattr(array_backend.module, name)
    except AttributeError:
        raise AttributeError(f"module 'gpupy.cunumpy' has no attribute {name!r}") from None


array_backend.add_listener(_install)
_install(_numpy)
_init_from_environment()
_init_implementations()
