"""The PIC kernels, one folder each: <name>_kernels.py (host), <name>_cuda.cu (CUDA port) and
<name>_test_args.py (arguments of the parity test)."""

from gpupy.cunumpy import KernelCatalog

# The arrays each host kernel writes: only these are copied back on the host-fallback path.
OUTPUTS = {"push": (0,), "deposit": (1,), "accelerate": (1,)}


def make_catalog(package=__name__, missing_cuda="raise", **options):
    """All kernels of `package`; every kernel is ported, so a missing CUDA version is an error."""
    return KernelCatalog.from_package(
        package, missing_cuda=missing_cuda, outputs=OUTPUTS.get, **options
    )


catalog = make_catalog()
