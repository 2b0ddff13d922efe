"""Kernel: a host kernel and its CUDA port behind one call site; the backend (or the arguments)
decides which runs, and a missing CUDA port raises or falls back to the host kernel visibly."""

import importlib
import os
import warnings

from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import array_backend, is_gpu
from gpupy.cunumpy.cuda_kernel import CudaKernel
from gpupy.cunumpy.cuda_kernel import compile_cuda_kernel as _compile_cuda
from gpupy.cunumpy.host_kernel import PyccelKernel, python_parameters
from gpupy.cunumpy.implementations import HostImplementations, get_device_kernel_implementation

DISPATCH = ("backend", "arrays")
MISSING_CUDA = ("raise", "fallback")
FORTRAN_NAME_LIMIT = 63  # Pyccel's Fortran wrappers are named bind_c_<module>


class CompiledHostKernel:
    """A host function compiled on first call (`compiler(module)` returns an object with the same
    function names; module may be given by name); when compiling fails, the fallback (else the
    Python version) runs, with a one-time warning."""

    def __init__(self, module, name, compiler, fallback=None):
        if isinstance(module, str):
            module = importlib.import_module(module)
        self.module = module
        self.name = self.__name__ = name
        self.python = getattr(module, name)
        self.fallback = fallback
        self._compiler = compiler
        self.compiled = None
        self.error = None

    def build(self):
        """The function to call: compiled, or the fallback after a failed compilation."""
        if self.compiled is None and self.error is None:
            try:
                self.compiled = getattr(self._compiler(self.module), self.name)
            except Exception as exc:  # noqa: BLE001 - any compiler failure falls back
                self.error = exc
                warnings.warn(
                    f"host kernel '{self.name}' could not be compiled ({exc}); running its "
                    "uncompiled Python version",
                    RuntimeWarning,
                    stacklevel=3,
                )
        if self.compiled is not None:
            return self.compiled
        return self.fallback or self.python

    def __call__(self, *args, **kwargs):
        return self.build()(*args, **kwargs)

    def __repr__(self):
        state = "compiled" if self.compiled else "failed" if self.error else "not built"
        return f"CompiledHostKernel({self.name!r}, {state})"


class Kernel:
    """A host kernel and, once ported, its CUDA kernel: same name, same parameters."""

    def __init__(
        self,
        host_kernel,
        cuda_kernel=None,
        *,
        name=None,
        missing_cuda="raise",
        cuda_path=None,
        host_options=None,
        dispatch="backend",
        test_args=None,
    ):
        if dispatch not in DISPATCH:
            raise ValueError(f"dispatch must be one of {DISPATCH}, got {dispatch!r}")
        if missing_cuda not in MISSING_CUDA:
            raise ValueError(f"missing_cuda must be one of {MISSING_CUDA}, got {missing_cuda!r}")
        if cuda_kernel is not None and not isinstance(cuda_kernel, CudaKernel):
            raise TypeError(
                f"cuda_kernel must be a CudaKernel or None, got {type(cuda_kernel).__name__}"
            )
        if isinstance(host_kernel, PyccelKernel):
            if host_options:
                raise ValueError(
                    "host_options are for wrapping a plain callable; configure the "
                    "PyccelKernel itself"
                )
        else:
            host_kernel = PyccelKernel(host_kernel, **(host_options or {}))
        if host_kernel.parameters is None:
            host_kernel.parameters = python_parameters(host_kernel.kernel)
        self._host = host_kernel
        self._cuda = cuda_kernel
        self._name = name or host_kernel.name
        self._missing = missing_cuda
        self._cuda_path = cuda_path
        self._dispatch = dispatch
        self._test_args_module = test_args
        self._warned = False

    name = property(lambda s: s._name)
    host_kernel = property(lambda s: s._host)
    cuda_kernel = property(lambda s: s._cuda)
    has_cuda = property(lambda s: s._cuda is not None)
    missing_cuda = property(lambda s: s._missing)
    cuda_path = property(lambda s: s._cuda_path)
    dispatch = property(lambda s: s._dispatch)
    test_args_module = property(lambda s: s._test_args_module)

    @property
    def test_args(self):
        """The test-arguments module (imported on first use), or None."""
        m = self._test_args_module
        return None if m is None else importlib.import_module(m)

    def __repr__(self):
        return f"Kernel({self._name!r}, cuda={'yes' if self.has_cuda else 'no'})"

    def __call__(self, *args, n_threads=None, grid=None, block=None, shared_mem=0, stream=None):
        if self._dispatch == "backend":
            on_device = array_backend.name != "numpy"
        else:
            on_device = any(_device_argument(a) for a in args)
            if not on_device and self._host.use_cupy is not True:
                return self._host.kernel(*args)  # host data on the host: no conversion scan
        if not on_device:
            return self._host(*args)
        device = self._device_kernel()
        if device is self._host:
            if profiling._active:
                desc = f"Kernel '{self._name}' has no CUDA kernel: host kernel called on the "
                profiling.record("fallback", desc + f"{array_backend.name} backend")
            return self._host(*args)
        if n_threads is None and grid is None and device.n_threads_from is None:
            raise ValueError(
                f"{self._name}: n_threads is required to launch the CUDA kernel (or pass grid, "
                "or set cuda_kernel.n_threads_from)"
            )
        return device(
            *args, n_threads=n_threads, grid=grid, block=block, shared_mem=shared_mem, stream=stream
        )

    def _device_kernel(self):
        if self._cuda is not None:
            return self._cuda
        where = self._cuda_path or f"{self._name}_cuda.cu"
        if get_device_kernel_implementation() == "cuda":
            raise LookupError(f"kernel '{self._name}' has no 'cuda' implementation ({where})")
        if self._missing == "raise":
            raise NotImplementedError(
                f"No CUDA version of kernel '{self._name}' (expected {where})."
            )
        if not self._warned:
            self._warned = True
            warnings.warn(
                f"No CUDA version of kernel '{self._name}': calling the host kernel, which copies "
                "its arrays to the host and back at every call.",
                RuntimeWarning,
                stacklevel=3,
            )
        return self._host

    def get_kernel(self):
        """What a call on the active backend runs; raises now what a call would raise."""
        return self._host if array_backend.name == "numpy" else self._device_kernel()

    def selected(self, device=False):
        """The implementation a host call runs ("pyccel", ..., or "host" for a plain kernel), or
        with device=True the one a device call runs ("cuda", or "host" when falling back)."""
        if not device:
            host = self._host.kernel
            return host.selected() if isinstance(host, HostImplementations) else "host"
        return "cuda" if self._device_kernel() is self._cuda else "host"

    @property
    def implementations(self):
        host = self._host.kernel
        names = host.names if isinstance(host, HostImplementations) else ("host",)
        return names + (("cuda",) if self.has_cuda else ())

    def compile(self):
        """Compiles the CUDA kernel for the default device; False when there is none."""
        if self._cuda is None:
            return False
        _compile_cuda(self._cuda)
        return True

    def host_parameters(self):
        """Positional parameter names of the host kernel, or None when not readable."""
        return python_parameters(self._host.kernel) or self._host.parameter_names()

    def check_signature(self):
        """ValueError when the host kernel's parameters (names, order) differ from the CUDA
        kernel's, from those of its numba/numpy versions or from a CompiledHostKernel's fallback;
        sides without names (a host kernel whose parameters cannot be read, a
        CudaKernel(check_signature=False)) are skipped."""
        host = self.host_parameters()
        if host is None:
            return
        others = []
        if self._cuda is not None and self._cuda.signature is not None:
            others.append(("the CUDA kernel", [p.name for p in self._cuda.signature]))
        impls = self._host.kernel
        if isinstance(impls, CompiledHostKernel) and impls.fallback is not None:
            names = python_parameters(impls.fallback)
            if names is not None:
                others.append(("its fallback", names))
        if isinstance(impls, HostImplementations):
            for variant in ("numba", "numpy"):
                if variant in impls.names and impls.available(variant):
                    names = python_parameters(impls.get(variant))
                    if names is not None:
                        others.append((f"the {variant} version", names))
        for what, names in others:
            if list(host) != list(names):
                raise ValueError(
                    f"kernel '{self._name}': the host kernel takes ({', '.join(host)}), "
                    f"{what} ({', '.join(names)})"
                )

    @classmethod
    def from_folder(cls, package, **options):
        """The Kernel of folder `package` (dotted name): <name>_kernels.py, <name>_cuda.cu."""
        from gpupy.cunumpy._kernel_folder import kernel_from_folder

        return kernel_from_folder(cls, package, **options)


def _device_argument(a):
    t = type(a)
    if hasattr(t, "__cuda_args__") or hasattr(t, "__cuda_array_interface__"):
        return True
    return t.__name__ == "ndarray" and t.__module__.startswith("gpupy") and is_gpu(a)


def source_root(package_dir, package):
    """The folder holding the top-level package of `package` (the default include dir)."""
    depth = package.count(".") + 1
    root = package_dir
    for _ in range(depth):
        root = os.path.dirname(root)
    return root


def import_package(package):
    module = importlib.import_module(package)
    if not hasattr(module, "__path__"):
        raise ModuleNotFoundError(f"'{package}' is not a package (kernel folder)")
    return module, os.path.abspath(list(module.__path__)[0])
