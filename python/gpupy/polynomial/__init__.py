"""gpupy.polynomial: NumPy's numpy.polynomial package on gpupy arrays: the series modules
(polynomial, chebyshev, legendre, hermite, hermite_e, laguerre; their helpers in polyutils) and
their classes, which share one base (_polybase)."""

from gpupy.polynomial import (  # noqa: F401
    chebyshev,
    hermite,
    hermite_e,
    laguerre,
    legendre,
    polynomial,
    polyutils,
)
from gpupy.polynomial.chebyshev import Chebyshev
from gpupy.polynomial.hermite import Hermite
from gpupy.polynomial.hermite_e import HermiteE
from gpupy.polynomial.laguerre import Laguerre
from gpupy.polynomial.legendre import Legendre
from gpupy.polynomial.polynomial import Polynomial

__all__ = ["Chebyshev", "Hermite", "HermiteE", "Laguerre", "Legendre", "Polynomial"]
