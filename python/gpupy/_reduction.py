"""Reductions (sum, mean, min, argmax, ...): the C++ functions, re-exported under NumPy's names.

See the NumPy functions of the same names; ``out=`` must be a gpupy array, ``where=`` is not
supported, and ``var``/``std`` accept both ``ddof=`` and the Array API's ``correction=``.
"""

from gpupy._core import (  # noqa: F401
    all,
    any,
    argmax,
    argmin,
    max,
    mean,
    min,
    prod,
    std,
    sum,
    var,
)

amin = min
amax = max

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]
