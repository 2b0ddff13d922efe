"""gpupy's benchmarks: ``python -m gpupy.bench`` prints a demo and gpupy-vs-NumPy timings."""

from gpupy.bench._timer import measure  # noqa: F401
