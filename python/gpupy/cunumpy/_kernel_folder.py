"""The folder convention of Kernel.from_folder: <pkg>/<name>/<name>_kernels.py (host),
<name>_cuda.cu (CUDA, once ported) and <name>_test_args.py (parity-test arguments)."""

import importlib
import os
import warnings

from gpupy.cunumpy.cuda_kernel import CudaKernel
from gpupy.cunumpy.host_kernel import outputs_from_annotations, python_parameters
from gpupy.cunumpy.implementations import HostImplementations


def kernel_from_folder(
    cls,
    package,
    *,
    host_suffix="_kernels",
    cuda_suffix="_cuda.cu",
    test_args_suffix="_test_args",
    check_name_length=True,
    missing_cuda="raise",
    host_options=None,
    outputs=None,
    include_dirs=None,
    dispatch="backend",
    compile_host=None,
    host_fallback=None,
    extra_implementations=None,
    **cuda_options,
):
    from gpupy.cunumpy.kernel import FORTRAN_NAME_LIMIT, import_package, source_root

    _, folder = import_package(package)
    name = package.rsplit(".", 1)[-1]
    host_file = os.path.join(folder, f"{name}{host_suffix}.py")
    if not os.path.isfile(host_file):
        raise FileNotFoundError(f"kernel folder {folder} has no host kernel {name}{host_suffix}.py")
    if check_name_length and len(f"bind_c_{name}{host_suffix}") > FORTRAN_NAME_LIMIT:
        warnings.warn(
            f"kernel module name '{name}{host_suffix}' is too long for Pyccel's Fortran wrapper "
            f"(bind_c_{name}{host_suffix} exceeds {FORTRAN_NAME_LIMIT} characters)",
            UserWarning,
            stacklevel=3,
        )
    test_args = None
    if os.path.isfile(os.path.join(folder, f"{name}{test_args_suffix}.py")):
        test_args = f"{package}.{name}{test_args_suffix}"
    module = importlib.import_module(f"{package}.{name}{host_suffix}")
    python = getattr(module, name, None)
    if python is None:
        raise AttributeError(
            f"[Kernel.from_folder] host kernel module {module.__name__} has no function '{name}' "
            f"(a kernel folder's {name}{host_suffix}.py defines the kernel under its folder's name)"
        )
    host_options = dict(host_options or {})
    if "outputs" not in host_options and outputs is not None:
        host_options["outputs"] = _outputs(outputs, python)
    loaders = _loaders(package, folder, name, module, compile_host, host_fallback)
    loaders.update(extra_implementations or {})
    host = HostImplementations(name, loaders)
    host_options.setdefault("parameters", python_parameters(python))
    cuda_path = os.path.join(folder, f"{name}{cuda_suffix}")
    cuda = None
    if os.path.isfile(cuda_path):
        dirs = include_dirs if include_dirs is not None else (source_root(folder, package),)
        cuda = CudaKernel.from_file(cuda_path, name, include_dirs=tuple(dirs), **cuda_options)
    return cls(
        host,
        cuda,
        name=name,
        missing_cuda=missing_cuda,
        cuda_path=cuda_path,
        host_options=host_options,
        dispatch=dispatch,
        test_args=test_args,
    )


def _outputs(outputs, func):
    if isinstance(outputs, str):
        if outputs != "annotations":
            raise ValueError(f"outputs must be indices, names or 'annotations', got {outputs!r}")
        return outputs_from_annotations(func)
    return outputs


def _loaders(package, folder, name, module, compile_host, host_fallback):
    """Zero-argument loaders of the host versions the folder provides."""
    python = getattr(module, name)
    loaders = {"python": lambda: python}
    if compile_host is None:
        loaders["pyccel"] = lambda: python  # run uncompiled until a compiler is configured
    else:
        loaders["pyccel"] = lambda: getattr(compile_host(module), name)
    for variant in ("numba", "numpy"):
        if os.path.isfile(os.path.join(folder, f"{name}_{variant}.py")):
            mod = f"{package}.{name}_{variant}"
            loaders[variant] = lambda mod=mod: getattr(importlib.import_module(mod), name)
    if host_fallback is not None and "numpy" not in loaders:
        fb = host_fallback.get(name) if hasattr(host_fallback, "get") else host_fallback(name)
        if fb is not None:
            loaders["numpy"] = lambda: fb
    return loaders
