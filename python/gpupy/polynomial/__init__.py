"""gpupy.polynomial: NumPy's numpy.polynomial package, so far the Polynomial class (power series
with domain and window) on gpupy arrays."""

from gpupy.polynomial._polynomial_class import Polynomial

__all__ = ["Polynomial"]
