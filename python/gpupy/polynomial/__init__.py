"""gpupy.polynomial: NumPy's numpy.polynomial package, so far the Polynomial class (power series
with domain and window) and the evaluation functions of numpy.polynomial.polynomial, on gpupy
arrays."""

from gpupy.polynomial import polynomial  # noqa: F401
from gpupy.polynomial._polynomial_class import Polynomial

__all__ = ["Polynomial"]
