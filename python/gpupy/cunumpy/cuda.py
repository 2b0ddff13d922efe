"""`xp.cuda`: the kernel layer's CUDA names (CudaKernel, debug mode, launch limits, device,
memory, stream and event helpers that also run without a GPU); any other
name is looked up in the active backend's own `cuda` module (gpupy.cuda or cupy.cuda), so
`xp.cuda.Stream` keeps working."""

from gpupy.cunumpy._includes import include_hash, resolve_includes
from gpupy.cunumpy.cuda_devices import (
    DEFAULT_SHARED_MEMORY_PER_BLOCK,
    HostEvent,
    HostStream,
    bind_local_device,
    create_event,
    create_stream,
    device_count,
    free_memory,
    is_hip,
    max_shared_memory_per_block,
    memory_info,
    pin_memory,
    record_event,
    set_device,
    set_device_for_rank,
    stream,
    wait_event,
)
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
    "DEFAULT_SHARED_MEMORY_PER_BLOCK",
    "EMU_LAUNCH_LIMITS",
    "CudaKernel",
    "CudaKernelVariants",
    "HostEvent",
    "HostStream",
    "bind_local_device",
    "create_event",
    "create_stream",
    "ctype_of",
    "cuda_debug",
    "cuda_include_dir",
    "cuda_kernel_names",
    "device_count",
    "device_launch_limits",
    "free_memory",
    "get_cuda_debug",
    "include_hash",
    "is_hip",
    "max_shared_memory_per_block",
    "memory_info",
    "parse_cuda_signature",
    "pin_memory",
    "record_event",
    "resolve_includes",
    "set_cuda_debug",
    "set_device",
    "set_device_for_rank",
    "stream",
    "wait_event",
]


def __getattr__(name):
    from gpupy.cunumpy._backend import array_backend

    backend_cuda = getattr(array_backend.module, "cuda", None)
    if backend_cuda is None or name.startswith("__"):
        raise AttributeError(f"module 'gpupy.cunumpy.cuda' has no attribute {name!r}")
    return getattr(backend_cuda, name)
