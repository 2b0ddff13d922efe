"""KernelCatalog: every Kernel of a package, found by folder convention, with the porting
progress ("CUDA kernels: 2 of 3 (missing: sort)") and the checks a test suite runs on them."""

import collections.abc
import os

from gpupy.cunumpy.cuda_kernel import compile_kernels
from gpupy.cunumpy.kernel import Kernel, import_package


class KernelCatalog(collections.abc.Mapping):
    """A read-only name -> Kernel mapping in registration order."""

    def __init__(self, kernels=None):
        self._kernels = {}
        for k in kernels or ():
            self.register(k)

    def register(self, kernel, name=None):
        if not isinstance(kernel, Kernel):
            raise TypeError(f"expected a Kernel, got {type(kernel).__name__}")
        name = name or kernel.name
        if name in self._kernels:
            raise KeyError(f"a kernel named '{name}' is already registered")
        self._kernels[name] = kernel
        return kernel

    def __getitem__(self, name):
        return self._kernels[name]

    def __iter__(self):
        return iter(self._kernels)

    def __len__(self):
        return len(self._kernels)

    @classmethod
    def from_package(cls, package, *, host_options=None, outputs=None, **options):
        """One Kernel per subfolder <name> (sorted) that holds <name><host_suffix>.py;
        host_options and outputs may be callables of the kernel name."""
        _, folder = import_package(package)
        suffix = options.get("host_suffix", "_kernels")
        catalog = cls()
        for name in sorted(os.listdir(folder)):
            if not os.path.isfile(os.path.join(folder, name, f"{name}{suffix}.py")):
                continue
            kw = dict(options)
            kw["host_options"] = host_options(name) if callable(host_options) else host_options
            kw["outputs"] = outputs(name) if callable(outputs) else outputs
            catalog.register(Kernel.from_folder(f"{package}.{name}", **kw))
        return catalog

    @property
    def with_cuda(self):
        return [n for n, k in self._kernels.items() if k.has_cuda]

    @property
    def without_cuda(self):
        return [n for n, k in self._kernels.items() if not k.has_cuda]

    def summary(self, max_missing=10):
        text = f"CUDA kernels: {len(self.with_cuda)} of {len(self)}"
        missing = self.without_cuda
        if missing:
            shown = missing[:max_missing] + (["..."] if len(missing) > max_missing else [])
            text += f" (missing: {', '.join(shown)})"
        return text

    __str__ = summary

    def __repr__(self):
        return f"KernelCatalog({len(self)} kernels, {len(self.without_cuda)} without CUDA)"

    def parity_cases(self):
        """(name, kernel) for every kernel with a CUDA version."""
        return [(n, k) for n, k in self._kernels.items() if k.has_cuda]

    def check_signatures(self):
        errors = []
        for kernel in self._kernels.values():
            try:
                kernel.check_signature()
            except ValueError as exc:
                errors.append(f"  {exc}")
        if errors:
            raise ValueError(
                "host and CUDA kernels take different parameters:\n" + "\n".join(errors)
            )

    def compile_all(self, jobs=1):
        """Compiles every CUDA kernel for the default device (jobs at a time, None: one per CPU);
        their names."""
        return compile_kernels(
            [(n, self._kernels[n].cuda_kernel) for n in self.with_cuda], jobs=jobs
        )
