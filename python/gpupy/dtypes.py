"""gpupy.dtypes: NumPy's dtype classes (numpy.dtypes) of the dtypes gpupy arrays hold, the same
objects, so ``isinstance(x.dtype, gpupy.dtypes.Float32DType)`` works as with NumPy. The
longdouble, string, bytes, void, datetime and object classes are left out (see
docs/numpy_differences.md, "Dtypes")."""

import numpy.dtypes

from gpupy._dtypes import _SUPPORTED


def _holds_supported_dtype(cls):
    try:
        return cls() in _SUPPORTED
    except TypeError:  # parametric classes (bytes, str, void, datetime) need np.dtype(...)
        return False


__all__ = [n for n in numpy.dtypes.__all__ if _holds_supported_dtype(getattr(numpy.dtypes, n))]
globals().update({n: getattr(numpy.dtypes, n) for n in __all__})
