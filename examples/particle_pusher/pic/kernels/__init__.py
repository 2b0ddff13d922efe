"""The PIC kernels, one folder each: <name>_kernels.py (host), <name>_cuda.cu (CUDA port) and
<name>_test_args.py (arguments of the parity test)."""

from gpupy.cunumpy import KernelCatalog

# The arrays each host kernel writes: only these are copied back on the host-fallback path.
OUTPUTS = {"push": (0,), "deposit": (1,), "accelerate": (1,)}


def compile_with_numba(module):
    """A compile_host: the module's kernel compiled by Numba (same name, same parameters)."""
    import types

    import numba

    name = module.__name__.rsplit(".", 1)[-1].removesuffix("_kernels")
    return types.SimpleNamespace(**{name: numba.njit(cache=False)(getattr(module, name))})


def compile_with_pyccel(module):
    """A compile_host: the module compiled by Pyccel (C), into a temporary folder."""
    import os
    import tempfile

    from pyccel import epyccel

    folder = tempfile.mkdtemp(prefix="pic_pyccel_")
    cwd = os.getcwd()
    os.chdir(folder)  # Pyccel leaves lock files in the working directory
    try:
        return epyccel(module, language="c", folder=folder)
    finally:
        os.chdir(cwd)


def make_catalog(package=__name__, missing_cuda="raise", **options):
    """All kernels of `package`; every kernel is ported, so a missing CUDA version is an error."""
    return KernelCatalog.from_package(
        package, missing_cuda=missing_cuda, outputs=OUTPUTS.get, **options
    )


catalog = make_catalog()
