"""gpupy.polynomial: NumPy's numpy.polynomial package on gpupy arrays: the series modules
(polynomial, chebyshev; their helpers in polyutils) and their classes."""

from gpupy.polynomial import chebyshev, polynomial, polyutils  # noqa: F401
from gpupy.polynomial.chebyshev import Chebyshev
from gpupy.polynomial.polynomial import Polynomial

__all__ = ["Chebyshev", "Polynomial"]
