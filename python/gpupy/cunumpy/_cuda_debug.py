"""CudaKernel debug mode (the global flag, its context manager, the compile options it adds) and
the launch limits every launch is validated against (emu: an H200's; cuda: queried per device)."""

import contextlib
import math
import os

import numpy

from gpupy import _core

_MAX_THREADS = 1024

# Debug mode: line info for profilers and debuggers, and bounds checks in array views.
DEBUG_OPTIONS = ("-lineinfo", "-DCUNUMPY_BOUNDS_CHECK")
_HOST_DROPPED_OPTIONS = ("-lineinfo",)  # NVRTC options the host compiler (emu) has no use for
_debug = os.environ.get("CUNUMPY_CUDA_DEBUG", "").strip().lower() in ("1", "true", "yes", "on")


def set_cuda_debug(enabled):
    """Turns debug mode on or off for every CudaKernel created with debug=None."""
    global _debug
    _debug = bool(enabled)


def get_cuda_debug():
    """The global debug flag (initially from CUNUMPY_CUDA_DEBUG in 1, true, yes, on)."""
    return _debug


@contextlib.contextmanager
def cuda_debug(enabled=True):
    """Debug mode on (or off) inside the with block; the previous setting afterwards."""
    previous = _debug
    set_cuda_debug(enabled)
    try:
        yield
    finally:
        set_cuda_debug(previous)


# The launch limits of the emu device: an NVIDIA H200's, so that a launch that would fail on the
# GPU fails the same way on emu.
EMU_LAUNCH_LIMITS = {
    "name": "gpupy emu (NVIDIA H200 limits)",
    "max_threads_dim": (1024, 1024, 64),
    "max_grid_size": (2**31 - 1, 65535, 65535),
    "max_threads_per_block": 1024,
    "shared_mem_per_block": 48 * 1024,
    "shared_mem_per_block_optin": 227 * 1024,
}
_EMU_KERNEL_ATTRIBUTES = (1024, 0)  # (max threads per block, static shared bytes)
_device_limits = {}  # device string -> launch limits, queried once per device


def device_launch_limits(device):
    """The limits a launch on device ("emu", "cuda:0") is validated against, as a dict."""
    device = str(device)
    limits = _device_limits.get(device)
    if limits is None:
        if device == "emu":
            limits = dict(EMU_LAUNCH_LIMITS)
        elif device.startswith("cuda"):
            limits = _core._cuda_launch_limits(int(device.partition(":")[2] or 0))
        else:
            raise ValueError(f"[CudaKernel] device {device} runs no CUDA kernels")
        _device_limits[device] = limits
    return limits


def _dims(value, what):
    """An int or 1-3 ints as a tuple; ValueError otherwise."""
    dims = (value,) if isinstance(value, (int, numpy.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} takes 1 to 3 dimensions, got {len(dims)}")
    return tuple(int(d) for d in dims)


def _block(value):
    dims = _dims(value, "block_size")
    if any(d <= 0 for d in dims):
        raise ValueError("block sizes must be positive")
    if math.prod(dims) > _MAX_THREADS:
        raise ValueError(f"a block has at most {_MAX_THREADS} threads, got {math.prod(dims)}")
    return dims


def _check_limits(expression, device, limits, kernel_threads, static_shared, g, b, shared_mem):
    context = f"CudaKernel {expression} on {device} ({limits['name']})"
    for axis, (n, most) in enumerate(zip(b, limits["max_threads_dim"], strict=False)):
        if n > most:
            raise ValueError(f"{context}: block[{axis}]={n} exceeds the {most} limit")
    for axis, (n, most) in enumerate(zip(g, limits["max_grid_size"], strict=False)):
        if n > most:
            raise ValueError(f"{context}: grid[{axis}]={n} exceeds the {most} limit")
    threads = math.prod(b)
    most = min(limits["max_threads_per_block"], kernel_threads)
    if threads > most:
        raise ValueError(
            f"{context}: block {b} has {threads} threads, exceeding the {most} device/kernel limit"
        )
    most = max(limits["shared_mem_per_block"], limits["shared_mem_per_block_optin"])
    if static_shared + shared_mem > most:
        raise ValueError(
            f"{context}: static shared memory {static_shared} + shared_mem={shared_mem} exceeds "
            f"the {most}-byte limit per block"
        )
