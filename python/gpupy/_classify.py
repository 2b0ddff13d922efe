"""Classification and small special functions: isneginf, isposinf, isreal, iscomplex, isrealobj,
iscomplexobj, real_if_close, angle, fix, sinc, i0, packbits and unpackbits (see the NumPy
functions of the same names).

All are compositions of gpupy's elementwise ops, so they run on the input's device.
"""

import math

import numpy

from gpupy import _core
from gpupy._indexing import _arr, _axis, _int

__all__ = [
    "angle",
    "fix",
    "i0",
    "iscomplex",
    "iscomplexobj",
    "isneginf",
    "isposinf",
    "isreal",
    "isrealobj",
    "packbits",
    "real_if_close",
    "sinc",
    "unpackbits",
]


def _is_complex(a):
    return a.dtype.kind == "c"


def _infinite_with_sign(x, out, negative, op):
    x = _arr(x)
    if _is_complex(x):
        raise TypeError(
            f"[{op}] This operation is not supported for {x.dtype} values because it would be "
            "ambiguous."
        )
    sign = _core.signbit(x) if negative else _core.logical_not(_core.signbit(x))
    return _core.logical_and(_core.isinf(x), sign, out=out)


def isposinf(x, out=None):
    """See numpy.isposinf (complex input raises TypeError)."""
    return _infinite_with_sign(x, out, False, "isposinf")


def isneginf(x, out=None):
    """See numpy.isneginf (complex input raises TypeError)."""
    return _infinite_with_sign(x, out, True, "isneginf")


def isreal(x):
    """See numpy.isreal: True where the imaginary part is zero (everywhere for real input)."""
    x = _arr(x)
    if _is_complex(x):
        return _core.equal(_core.imag(x), 0)
    return _core.full(x.shape, True, "bool", x.device)


def iscomplex(x):
    """See numpy.iscomplex: True where the imaginary part is nonzero (nowhere for real input);
    a 0-d input gives a 0-d array."""
    x = _arr(x)
    if _is_complex(x):
        return _core.not_equal(_core.imag(x), 0)
    return _core.zeros(x.shape, "bool", x.device)


def iscomplexobj(x):
    """See numpy.iscomplexobj: whether x has a complex dtype (a Python bool)."""
    dtype = getattr(x, "dtype", None)
    # NumPy reads dtype.type, so a duck dtype (pandas' extension dtypes) answers for itself
    kind = getattr(dtype, "type", None)
    if not isinstance(kind, type):
        kind = numpy.dtype(_core._asarray(x).dtype if dtype is None else dtype).type
    return issubclass(kind, numpy.complexfloating)


def isrealobj(x):
    """See numpy.isrealobj: not iscomplexobj(x)."""
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """See numpy.real_if_close: the real part when every imaginary part is below tol (in
    machine epsilons when tol > 1). Which one is returned is decided by one boolean read back."""
    a = _arr(a)
    if not _is_complex(a):
        return a
    if tol > 1:
        tol = numpy.finfo(numpy.dtype(a.dtype)).eps * tol
    if bool(_core.all(_core.less(_core.absolute(_core.imag(a)), tol))):
        return _core.real(a)
    return a


def angle(z, deg=False):
    """See numpy.angle: arctan2(imag, real), in degrees when deg=True (float16 for int8 and
    uint8, float64 for bool, as in NumPy)."""
    z = _arr(z)
    if _is_complex(z):
        a = _core.arctan2(_core.imag(z), _core.real(z))
    else:
        a = _core.arctan2(0, z.astype("int64") if z.dtype.kind == "b" else z)
    return _core.multiply(a, 180 / math.pi) if deg else a


def fix(x, out=None):
    """See numpy.fix: round towards zero (trunc); integers and booleans keep their dtype."""
    x = _arr(x)
    if _is_complex(x):
        raise TypeError("[fix] ufunc 'trunc' not supported for complex input")
    return _core.trunc(x, out=out)


def sinc(x):
    """See numpy.sinc: sin(pi x) / (pi x), 1 at 0; integers and booleans give float64."""
    x = _core.multiply(math.pi, _arr(x))
    eps = numpy.finfo(numpy.dtype(x.dtype)).eps if x.dtype.kind == "f" else 1e-20
    y = _core._where(_core.not_equal(x, 0), x, eps)
    return _core.divide(_core.sin(y), y)


# i0 in float64: the power series in (x/2)^2 (positive terms, stable) up to |x| = 20, the
# asymptotic series e^x / sqrt(2 pi x) * sum a_k / x^k beyond (error below 1.1e-15 relative).
_I0_SWITCH = 20.0
# 35 terms: at |x| = 20 the rest of the series is below 1e-17 of the sum
_I0_SMALL = [1.0 / math.factorial(k) ** 2 for k in range(35)]
_I0_LARGE = [math.prod((2 * j - 1) ** 2 / (8 * j) for j in range(1, k + 1)) for k in range(29)]


def _horner(coefficients, t):
    """sum(c[k] * t**k) in float64 by Horner's rule, two passes per coefficient, written in
    place: a fresh output per pass would cost more than the pass itself."""
    s = _core.multiply(t, coefficients[-1])
    for c in reversed(coefficients[1:-1]):
        _core.add(s, c, out=s)
        _core.multiply(s, t, out=s)
    return _core.add(s, coefficients[0], out=s)


def _i0_small(ax):
    return _horner(_I0_SMALL, _core.multiply(_core.square(ax), 0.25))


def _i0_big(ax):
    series = _horner(_I0_LARGE, _core.reciprocal(ax))
    scale = _core.sqrt(_core.multiply(ax, 2 * math.pi))
    return _core.divide(_core.multiply(_core.exp(ax), series, out=series), scale, out=series)


def i0(x):
    """See numpy.i0: the modified Bessel function of the first kind, order 0, evaluated in
    float64 from a power series (|x| <= 20) and the asymptotic expansion (|x| > 20). float16 and
    float32 input keep their dtype, other real input gives float64; complex input raises
    TypeError."""
    x = _arr(x)
    if _is_complex(x):
        raise TypeError("[i0] i0 not supported for complex values")
    dtype = x.dtype if x.dtype in (numpy.float16, numpy.float32) else numpy.dtype("float64")
    ax = _core.absolute(x.astype("float64", copy=False))
    # Both branches run on every element: choosing per element would need reads of the branch
    # sizes (host synchronisations) and, on emu, costs more than the passes it saves.
    result = _core._where(_core.less_equal(ax, _I0_SWITCH), _i0_small(ax), _i0_big(ax))
    return result if dtype == "float64" else result.astype(dtype)


def _bit_weights(bitorder, device, op):
    if bitorder not in ("big", "little"):
        raise ValueError(f"[{op}] 'order' must be either 'little' or 'big'")
    shifts = range(7, -1, -1) if bitorder == "big" else range(8)
    return _core._asarray(numpy.array(list(shifts), dtype=numpy.uint8), device=device)


def _last_axis(a, axis, op):
    """`a` with the packing axis moved last (flattened for axis=None), and that axis."""
    if axis is None:
        return a.reshape(-1), None
    if a.ndim == 0:
        a = a.reshape(1)  # NumPy packs a 0-d array along an axis as a 1-d one
    axis = _axis(axis, a.ndim, op)
    return _core.moveaxis(a, axis, -1), axis


def packbits(a, /, axis=None, bitorder="big"):
    """See numpy.packbits: each group of 8 truth values along the axis (zero-padded at the end)
    becomes one uint8."""
    a = _arr(a)
    if a.dtype.kind not in "biu":
        raise TypeError(
            f"[packbits] Expected an input array of integer or boolean data type, got {a.dtype}"
        )
    shifts = _bit_weights(bitorder, a.device, "packbits")
    a, axis = _last_axis(a, axis, "packbits")
    n = a.shape[-1]
    groups = -(-n // 8)
    bits = _core.zeros(a.shape[:-1] + (groups * 8,), "uint8", a.device)
    bits[..., :n] = _core.not_equal(a, 0)
    bits = bits.reshape(a.shape[:-1] + (groups, 8))
    packed = _core.sum(_core.left_shift(bits, shifts), axis=-1, dtype="uint8")
    return packed if axis is None else _core.moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """See numpy.unpackbits: each uint8 along the axis becomes 8 values 0/1 (uint8); count
    keeps that many (zero-padding beyond the data), a negative count drops that many."""
    a = _arr(a)
    if a.dtype != numpy.uint8:
        raise TypeError(
            f"[unpackbits] Expected an input array of unsigned byte data type, got {a.dtype}"
        )
    shifts = _bit_weights(bitorder, a.device, "unpackbits")
    a, axis = _last_axis(a, axis, "unpackbits")
    n = a.shape[-1] * 8
    bits = _core.bitwise_and(_core.right_shift(a.reshape(a.shape + (1,)), shifts), 1)
    bits = bits.reshape(a.shape[:-1] + (n,)).astype("uint8", copy=False)
    if count is not None:
        count = _int(count, "unpackbits", "count")
        if count < -n:
            raise ValueError("[unpackbits] -count larger than number of elements")
        keep = n + count if count < 0 else count
        out = _core.zeros(a.shape[:-1] + (keep,), "uint8", a.device)
        out[..., : min(keep, n)] = bits[..., : min(keep, n)]
        bits = out
    return bits if axis is None else _core.moveaxis(bits, -1, axis)
