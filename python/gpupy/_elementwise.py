"""Elementwise functions: the C++ op table, re-exported under NumPy's names."""

from gpupy._core import (  # noqa: F401
    absolute,
    add,
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
    bitwise_and,
    bitwise_count,
    bitwise_or,
    bitwise_xor,
    cbrt,
    ceil,
    conjugate,
    copysign,
    cos,
    cosh,
    deg2rad,
    divide,
    equal,
    exp,
    exp2,
    expm1,
    fabs,
    float_power,
    floor,
    floor_divide,
    fmax,
    fmin,
    fmod,
    gcd,
    greater,
    greater_equal,
    heaviside,
    hypot,
    imag,
    invert,
    isfinite,
    isinf,
    isnan,
    lcm,
    left_shift,
    less,
    less_equal,
    log,
    log1p,
    log2,
    log10,
    logaddexp,
    logaddexp2,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    maximum,
    minimum,
    multiply,
    negative,
    nextafter,
    not_equal,
    positive,
    power,
    rad2deg,
    real,
    reciprocal,
    remainder,
    right_shift,
    rint,
    round,
    sign,
    signbit,
    sin,
    sinh,
    spacing,
    sqrt,
    square,
    subtract,
    tan,
    tanh,
    trunc,
)

abs = absolute
conj = conjugate
true_divide = divide
mod = remainder
bitwise_not = invert
bitwise_invert = invert
bitwise_left_shift = left_shift
bitwise_right_shift = right_shift
acos, acosh, asin, asinh, atan, atan2, atanh = (
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan,
    arctan2,
    arctanh,
)
pow = power
around = round
radians = deg2rad
degrees = rad2deg


def divmod(x1, x2, /, out=None):  # noqa: A001 - NumPy's name
    """See numpy.divmod: (floor_divide(x1, x2), remainder(x1, x2)); ``out`` is a pair."""
    q_out, r_out = (None, None) if out is None else out
    return floor_divide(x1, x2, out=q_out), remainder(x1, x2, out=r_out)


def modf(x, /, out=None):
    """See numpy.modf: (fractional part, integral part), both with the sign of x; the
    fractional part of ±inf is ±0. Integers compute in float32 up to 16 bits and float64 above,
    as the other float functions of integers do."""
    from gpupy._creation import asarray  # these modules import this one
    from gpupy._joining import where

    x = asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype("float32" if x.dtype.itemsize <= 2 else "float64")
    frac_out, int_out = (None, None) if out is None else out
    integral = trunc(x, out=int_out)
    fraction = subtract(x, integral)
    fraction = where(isinf(x), 0, fraction)  # ±inf - ±inf is NaN; NumPy's fraction is ±0
    return copysign(fraction, x, out=frac_out), integral


__all__ = [name for name in dir() if not name.startswith("_")]
