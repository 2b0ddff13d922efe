"""gpupy.exceptions: NumPy's exception and warning classes (the same objects as
numpy.exceptions), which gpupy raises where NumPy does: AxisError for an axis out of range,
ComplexWarning when a cast drops imaginary parts, RankWarning from poorly conditioned fits."""

from numpy.exceptions import (  # noqa: F401 - RankWarning is there but not in its __all__
    AxisError,
    ComplexWarning,
    DTypePromotionError,
    ModuleDeprecationWarning,
    RankWarning,
    TooHardError,
    VisibleDeprecationWarning,
)

__all__ = [
    "AxisError",
    "ComplexWarning",
    "DTypePromotionError",
    "ModuleDeprecationWarning",
    "RankWarning",
    "TooHardError",
    "VisibleDeprecationWarning",
]
