"""CudaKernelVariants (one CudaKernel per key, made on demand) and compiling many kernels ahead of
their first launch, one after the other or on a thread pool."""

import concurrent.futures
import os

import numpy

from gpupy import _core


class CudaKernelVariants:
    """CudaKernels made on demand by factory(*key) (one per key, e.g. per dtype or template
    argument), each created once and kept; compile_all compiles them ahead of the first launch."""

    def __init__(self, factory):
        if not callable(factory):
            raise TypeError(f"the factory must be callable, got {type(factory).__name__}")
        self._factory = factory
        self._variants = {}

    def get(self, *key):
        """The kernel for key, made by the factory on first use."""
        kernel = self._variants.get(key)
        if kernel is None:
            from gpupy.cunumpy.cuda_kernel import CudaKernel  # imports this module

            kernel = self._factory(*key)
            if not isinstance(kernel, CudaKernel):
                raise TypeError(
                    f"the factory must return a CudaKernel, got {type(kernel).__name__} "
                    f"for key {key!r}"
                )
            self._variants[key] = kernel
        return kernel

    def keys(self):
        """The keys made so far, in creation order."""
        return list(self._variants)

    def __iter__(self):
        return iter(list(self._variants))

    def __len__(self):
        return len(self._variants)

    def __contains__(self, key):
        return (key if isinstance(key, tuple) else (key,)) in self._variants

    def __repr__(self):
        return f"<CudaKernelVariants: {len(self)} kernels>"

    def compile_all(self, keys=(), *, jobs=1):
        """Makes the variants of keys (a key is a tuple, or one value for one-element keys), then
        compiles every variant for the default device, jobs at a time; returns their keys."""
        for key in keys:
            self.get(*(key if isinstance(key, tuple) else (key,)))
        return compile_kernels(list(self._variants.items()), jobs=jobs)


def compile_cuda_kernel(kernel, device=None):
    """Compiles a CudaKernel for device (default: the default device) without launching it."""
    device = str(device or _core.default_device())
    if device == "cpu":
        raise RuntimeError(
            f"cannot compile CUDA kernel '{kernel.name}': the default device is cpu "
            "(use cuda or emu)"
        )
    kernel.compile(device)


def compile_kernels(named_kernels, *, jobs=1):
    """Compiles [(name, CudaKernel)] for the default device and returns the names. jobs=1 (or
    one kernel): one after the other, stopping at the first error; jobs>1: a pool of jobs
    threads compiles them all, then the first error in list order is raised; None: CPU count."""
    if jobs is None:
        jobs = os.cpu_count() or 1
    if not isinstance(jobs, (int, numpy.integer)) or jobs < 1:
        raise ValueError("jobs must be positive or None")
    device = str(_core.default_device())  # the default device is per thread: read it here
    names = [name for name, _ in named_kernels]
    if jobs == 1 or len(named_kernels) <= 1:
        for _, kernel in named_kernels:
            compile_cuda_kernel(kernel, device)
        return names

    def compile_one(kernel):
        try:
            compile_cuda_kernel(kernel, device)
        except Exception as exc:  # noqa: BLE001 - re-raised below, in list order
            return exc
        return None

    with concurrent.futures.ThreadPoolExecutor(min(jobs, len(named_kernels))) as pool:
        errors = list(pool.map(compile_one, [k for _, k in named_kernels]))
    first = next((e for e in errors if e is not None), None)
    if first is not None:
        raise first
    return names
