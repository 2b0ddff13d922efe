"""See numpy.lib.scimath: square roots, logarithms, powers and inverse
trigonometric functions that return complex results where the real ones have none.

As in NumPy, the result dtype depends on the data: a real input with values outside the real
function's domain is converted to complex first (complex64 for float32 and integer types of up
to 16 bits, complex128 otherwise). Deciding that reads one boolean back from the device, so on
cuda each call waits for the work queued before it.
"""

import numpy

from gpupy import _core
from gpupy._indexing import _arr

__all__ = ["arccos", "arcsin", "arctanh", "log", "log2", "log10", "logn", "power", "sqrt"]

# NumPy's _tocomplex: these real types widen to complex64, every other one to complex128.
_TO_COMPLEX64 = frozenset(map(numpy.dtype, ("float32", "int8", "int16", "uint8", "uint16")))


def _is_real(x):
    return numpy.dtype(x.dtype).kind != "c"


def _to_complex(x):
    return x.astype(numpy.complex64 if x.dtype in _TO_COMPLEX64 else numpy.complex128)


def _complex_if(x, outside_domain):
    """x as complex when it is real and `outside_domain(x)` holds for any element."""
    x = _arr(x)
    if _is_real(x) and x.size and bool(_core.any(outside_domain(x))):
        return _to_complex(x)
    return x


def _negative(x):
    return x < 0


def _beyond_one(x):
    return _core.absolute(x) > 1


def sqrt(x):
    """See numpy.lib.scimath.sqrt: sqrt(-4) is 2j."""
    return _core.sqrt(_complex_if(x, _negative))


def log(x):
    """See numpy.lib.scimath.log: log(-1) is pi*1j."""
    return _core.log(_complex_if(x, _negative))


def log2(x):
    """See numpy.lib.scimath.log2."""
    return _core.log2(_complex_if(x, _negative))


def log10(x):
    """See numpy.lib.scimath.log10."""
    return _core.log10(_complex_if(x, _negative))


def logn(n, x):
    """See numpy.lib.scimath.logn: the base-n logarithm of x, log(x) / log(n)."""
    return _core.divide(log(x), log(n))


def power(x, p):
    """See numpy.lib.scimath.power: negative x gives complex results, and negative integer
    exponents are taken as floats (NumPy's integer power refuses them)."""
    p = _arr(p)
    if _is_real(p) and p.size and bool(_core.any(p < 0)):
        p = _core.multiply(p, 1.0)
    return _core.power(_complex_if(x, _negative), p)


def arccos(x):
    """See numpy.lib.scimath.arccos: |x| > 1 gives complex results."""
    return _core.arccos(_complex_if(x, _beyond_one))


def arcsin(x):
    """See numpy.lib.scimath.arcsin: |x| > 1 gives complex results."""
    return _core.arcsin(_complex_if(x, _beyond_one))


def arctanh(x):
    """See numpy.lib.scimath.arctanh: |x| > 1 gives complex results."""
    return _core.arctanh(_complex_if(x, _beyond_one))
