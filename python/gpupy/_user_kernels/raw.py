"""gpupy.RawKernel: CuPy's raw CUDA kernel, launched as kernel(grid, block, args). The signature
is parsed, so every argument is checked and converted to its declared C type (CuPy passes
Python ints as 64 bits and reads NumPy scalars' raw bytes, whatever the parameter says)."""

import numpy

from gpupy import _core
from gpupy._user_kernels import _common as c

_OWNER = "RawKernel"


class RawKernel:
    """A `__global__` function `name` in the CUDA C source `code`, compiled by NVRTC on cuda and
    by the host compiler on emu at the first launch (and cached per device)."""

    def __init__(
        self,
        code,
        name,
        options=(),
        backend="nvrtc",
        translate_cucomplex=False,
        *,
        enable_cooperative_groups=False,
        jitify=False,
    ):
        if not isinstance(code, str) or not isinstance(name, str):
            raise TypeError(f"[{_OWNER}] code and name must be strings")
        if backend not in ("nvrtc", "nvcc"):
            raise ValueError(f"[{_OWNER}] backend must be 'nvrtc' or 'nvcc', got {backend!r}")
        if backend == "nvcc":
            raise NotImplementedError(f"[{_OWNER}] gpupy compiles with NVRTC; use backend='nvrtc'")
        if translate_cucomplex:
            raise NotImplementedError(f"[{_OWNER}] translate_cucomplex=True is not supported")
        if jitify:
            raise NotImplementedError(f"[{_OWNER}] jitify=True is not supported")
        if enable_cooperative_groups:
            raise NotImplementedError(f"[{_OWNER}] cooperative launches are not supported")
        self.code, self.name, self.options = code, name, tuple(options)
        self.backend, self.translate_cucomplex, self.jitify = backend, False, False
        self.enable_cooperative_groups = False
        from gpupy.cunumpy.cuda_kernel import CudaKernel

        try:
            self._kernel = CudaKernel(code, name, options=self.options)
        except ValueError as exc:
            raise ValueError(f"[{_OWNER}] {exc}") from None

    def __repr__(self):
        return f"<gpupy.RawKernel {self.name}>"

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        """Launches grid blocks of block threads (each an int or 1-3 ints) with args, a tuple of
        gpupy arrays (passed as device pointers) and scalars."""
        if not isinstance(args, (tuple, list)):
            raise TypeError(f"[{_OWNER}] args must be a tuple, got {type(args).__name__}")
        c.check_foreign(args, _OWNER)
        c.common_device([a for a in args if c.is_array(a)], _OWNER)
        try:
            grid, block = _dims(grid, "grid"), _dims(block, "block")
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"[{_OWNER}] '{self.name}': {exc}") from None
        c.launch(self._kernel, _OWNER, args, grid, block, shared_mem, stream)

    def compile(self, log_stream=None):
        """Compiles the kernel for the current device (cuda or emu) now rather than at the first
        launch; log_stream is accepted for CuPy compatibility and unused."""
        device = str(_core.default_device())
        if device == "cpu":
            raise NotImplementedError(
                f"[{_OWNER}] the current device is cpu; kernels compile for cuda or emu "
                "(with gpupy.Device('emu'): ...)"
            )
        try:
            self._kernel.compile(device)
        except RuntimeError as exc:
            if type(exc) is not RuntimeError:
                raise
            raise RuntimeError(f"[{_OWNER}] {exc}") from exc

    @property
    def attributes(self):
        """{'max_threads_per_block', 'shared_size_bytes'} of the kernel compiled for the current
        device (compiling it if needed)."""
        self.compile()
        device = str(_core.default_device())
        if device == "emu":
            from gpupy.cunumpy.cuda_kernel import _EMU_KERNEL_ATTRIBUTES as attrs
        else:
            attrs = self._kernel.compile(device).attributes(self._kernel.expression)
        return {"max_threads_per_block": int(attrs[0]), "shared_size_bytes": int(attrs[1])}

    @property
    def max_threads_per_block(self):
        return self.attributes["max_threads_per_block"]

    @property
    def shared_size_bytes(self):
        return self.attributes["shared_size_bytes"]


def _dims(value, what):
    """grid or block as CuPy takes them: an int or a tuple of 1-3 ints."""
    dims = (value,) if isinstance(value, (int, numpy.integer)) else value
    if not isinstance(dims, (tuple, list)) or not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} must be an int or a tuple of 1 to 3 ints, got {value!r}")
    if not all(isinstance(d, (int, numpy.integer)) and not isinstance(d, bool) for d in dims):
        raise TypeError(f"{what} must hold ints, got {value!r}")
    return tuple(int(d) for d in dims)
