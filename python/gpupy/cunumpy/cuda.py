"""`xp.cuda`: the kernel layer's CUDA names (CudaKernel, debug mode, launch limits); any other
name is looked up in the active backend's own `cuda` module (gpupy.cuda or cupy.cuda), so
`xp.cuda.Stream` keeps working."""

from gpupy.cunumpy._includes import include_hash, resolve_includes
from gpupy.cunumpy.cuda_kernel import (
    DEBUG_OPTIONS,
    EMU_LAUNCH_LIMITS,
    CudaKernel,
    CudaKernelVariants,
    ctype_of,
    cuda_debug,
    cuda_include_dir,
    cuda_kernel_names,
    device_launch_limits,
    get_cuda_debug,
    parse_cuda_signature,
    set_cuda_debug,
)

__all__ = [
    "DEBUG_OPTIONS",
    "EMU_LAUNCH_LIMITS",
    "CudaKernel",
    "CudaKernelVariants",
    "ctype_of",
    "cuda_debug",
    "cuda_include_dir",
    "cuda_kernel_names",
    "device_launch_limits",
    "get_cuda_debug",
    "include_hash",
    "parse_cuda_signature",
    "resolve_includes",
    "set_cuda_debug",
]


def __getattr__(name):
    from gpupy.cunumpy._backend import array_backend

    backend_cuda = getattr(array_backend.module, "cuda", None)
    if backend_cuda is None or name.startswith("__"):
        raise AttributeError(f"module 'gpupy.cunumpy.cuda' has no attribute {name!r}")
    return getattr(backend_cuda, name)
