"""gpupy.polynomial: NumPy's numpy.polynomial package on gpupy arrays: the series modules
(polynomial, chebyshev, legendre, hermite, hermite_e, laguerre; their helpers in polyutils) and
their classes, which share one base (_polybase)."""

from numpy import polynomial as _numpy_polynomial

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

__all__ = [
    "Chebyshev",
    "Hermite",
    "HermiteE",
    "Laguerre",
    "Legendre",
    "Polynomial",
    "set_default_printstyle",
]


def set_default_printstyle(style):
    """See numpy.polynomial.set_default_printstyle ('unicode' or 'ascii'). gpupy's series print
    through NumPy's classes, so this sets NumPy's style too."""
    try:
        _numpy_polynomial.set_default_printstyle(style)
    except ValueError as exc:
        raise ValueError(f"[set_default_printstyle] {exc}") from None
