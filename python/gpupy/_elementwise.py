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
    invert,
    isfinite,
    isinf,
    isnan,
    lcm,
    ldexp,
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
from gpupy._core import ndarray as _ndarray
from gpupy._ufunc import ufunc  # noqa: F401 - gpupy.ufunc
from gpupy._ufunc import wrap as _wrap
from gpupy._utilities import check_casting

# The binary functions carry NumPy's ufunc methods (reduce, accumulate, reduceat, outer, at).
_BINARY = """add arctan2 bitwise_and bitwise_or bitwise_xor copysign divide equal float_power
    floor_divide fmax fmin fmod gcd greater greater_equal heaviside hypot lcm ldexp left_shift less
    less_equal logaddexp logaddexp2 logical_and logical_or logical_xor maximum minimum multiply
    nextafter not_equal power remainder right_shift subtract""".split()
globals().update({name: _wrap(globals()[name]) for name in _BINARY})
# The unary ones too, with ufunc.at; their reduce/accumulate/reduceat/outer raise as NumPy's do.
_UNARY = """absolute arccos arccosh arcsin arcsinh arctan arctanh bitwise_count cbrt ceil conjugate
    cos cosh deg2rad exp exp2 expm1 fabs floor invert isfinite isinf isnan log log1p log2 log10
    logical_not negative positive rad2deg reciprocal rint sign signbit sin sinh spacing sqrt square
    tan tanh trunc""".split()
globals().update({name: _wrap(globals()[name], nin=1) for name in _UNARY})

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


def _unaliased(x, outs):
    """x, or a copy of it when it shares memory with one of `outs` (gpupy arrays or None)."""
    from gpupy._core import ndarray

    if isinstance(x, ndarray) and any(o is not None and o._same_buffer(x) for o in outs):
        return x.copy()
    return x


def divmod(x1, x2, /, out=None, *, where=True, dtype=None, casting="same_kind"):  # noqa: A001
    """See numpy.divmod: (floor_divide(x1, x2), remainder(x1, x2)); ``out`` is a pair."""
    q_out, r_out = (None, None) if out is None else out
    if out is not None:
        # The quotient is written before the remainder reads the inputs: an input that shares
        # memory with an output is read from a copy.
        x1, x2 = (_unaliased(x, (q_out, r_out)) for x in (x1, x2))
    kw = {} if where is True else {"where": where}  # the keywords' defaults keep the fast call
    if dtype is not None:
        kw["dtype"] = dtype
    if casting != "same_kind":
        kw["casting"] = casting
    return floor_divide(x1, x2, out=q_out, **kw), remainder(x1, x2, out=r_out, **kw)


def _out_pair(name, out1, out2, out):
    """The two outputs of modf/frexp, given positionally or as ``out=(a, b)``."""
    if out is not None and (out1 is not None or out2 is not None):
        raise TypeError(f"[{name}] cannot specify 'out' as both a positional and keyword argument")
    if out is None:
        return out1, out2
    if not isinstance(out, tuple):
        raise TypeError(f"[{name}] 'out' must be a tuple of arrays")
    if len(out) != 2:
        raise ValueError(f"[{name}] the 'out' tuple must have exactly one entry per ufunc output")
    return out


def _float_input(name, x, dtype, casting):
    """x cast to the float loop modf/frexp compute in: NumPy's float16/32/64 loops, the smallest
    that holds x's integers (bool and 8 bits: float16, 16 bits: float32) or ``dtype``."""
    import numpy

    from gpupy import _core
    from gpupy._creation import asarray  # these modules import this one

    check_casting(name, casting)
    x = asarray(x)
    if dtype is not None:
        loop = numpy.dtype(dtype)
    elif x.dtype.kind == "f":
        loop = numpy.dtype(x.dtype)
    else:
        loop = numpy.dtype({1: "float16", 2: "float32"}.get(x.dtype.itemsize, "float64"))
    if loop.kind != "f" or x.dtype.kind == "c":
        raise TypeError(f"[{name}] ufunc '{name}' not supported for the input type {x.dtype}")
    if not _core._can_cast(x.dtype, loop, casting):
        raise TypeError(
            f"[{name}] Cannot cast ufunc '{name}' input from {x.dtype} to {loop} with casting "
            f"rule {casting!r}"
        )
    return x if x.dtype == loop else x.astype(loop)


def _place(name, results, outs, where, casting):
    """The results, each written into its ``out`` (where ``where`` is True) when one is given."""
    import warnings

    import numpy

    from gpupy import _core
    from gpupy._placement import copyto

    placed = []
    for result, out in zip(results, outs, strict=True):
        if out is None:
            placed.append(result)
            continue
        if not isinstance(out, _core.ndarray):
            raise TypeError(f"[{name}] out must be a gpupy array")
        if not _core._can_cast(result.dtype, out.dtype, casting):
            raise TypeError(
                f"[{name}] Cannot cast ufunc '{name}' output from {result.dtype} to "
                f"{out.dtype} with casting rule {casting!r}"
            )
        try:
            fits = _core._broadcast_shapes([result.shape, out.shape]) == tuple(out.shape)
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(
                f"[{name}] non-broadcastable output operand with shape {tuple(out.shape)} "
                f"doesn't match the broadcast shape {tuple(result.shape)}"
            )
        if where is not True and out.dtype.kind == "c" and result.dtype.kind != "c":
            # NumPy's masked loop first reads out into the result's dtype
            warnings.warn(
                "Casting complex values to real discards the imaginary part",
                numpy.exceptions.ComplexWarning,
                stacklevel=4,
            )
        copyto(out, result, casting="unsafe", where=where)
        placed.append(out)
    return tuple(placed)


def modf(x, out1=None, out2=None, /, *, out=None, where=True, dtype=None, casting="same_kind"):
    """See numpy.modf: (fractional part, integral part), both with the sign of x; the
    fractional part of ±inf is ±0. Integers compute in float16 up to 8 bits, float32 up to 16
    and float64 above, as the other float functions of integers do. Where ``where`` is False
    the outputs keep their values (a fresh output holds the computed ones there)."""
    from gpupy._selection import where as select

    outs = _out_pair("modf", out1, out2, out)
    x = _float_input("modf", x, dtype, casting)
    # Both parts go to fresh arrays first, as an out may overlap x or differ in dtype.
    integral = trunc(x)
    fraction = select(isinf(x), 0, subtract(x, integral))  # NumPy's fraction of ±inf is ±0
    return _place("modf", (copysign(fraction, x), integral), outs, where, casting)


def frexp(x, out1=None, out2=None, /, *, out=None, where=True, dtype=None, casting="same_kind"):
    """See numpy.frexp: (mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1;
    the exponent is int32; ±0, ±inf and NaN give themselves and exponent 0. Integers compute in
    float16 up to 8 bits, float32 up to 16 and float64 above. As in NumPy, ``dtype`` names no
    loop (the outputs' dtypes differ)."""
    from gpupy import _core

    outs = _out_pair("frexp", out1, out2, out)
    if dtype is not None:
        raise TypeError(
            "[frexp] No loop matching the specified signature and casting was found for ufunc frexp"
        )
    x = _float_input("frexp", x, None, casting)
    results = (_core.frexp_mantissa(x), _core.frexp_exponent(x))
    return _place("frexp", results, outs, where, casting)


def isnat(x, /, out=None):
    """See numpy.isnat. gpupy arrays have no datetime64/timedelta64 dtypes, so they (and any other
    non-datetime input) raise NumPy's TypeError; a NumPy datetime array is tested on the host and
    the answer placed on the default device."""
    import numpy

    from gpupy._creation import asarray

    if isinstance(x, (numpy.ndarray, numpy.generic)) and x.dtype.kind in "mM":
        result = asarray(numpy.isnat(x))
        if out is None:
            return result
        out[...] = result
        return out
    raise TypeError("[isnat] is only defined for datetime64 and timedelta64 input")


def real(val):
    """See numpy.real: a complex array's real part as a view of its memory (writes reach the
    array); any other array itself."""
    from gpupy._creation import asarray

    return val.real if isinstance(val, _ndarray) else asarray(val).real


def imag(val):
    """See numpy.imag: a complex array's imaginary part as a view of its memory; read-only zeros
    for any other array."""
    from gpupy._creation import asarray

    return val.imag if isinstance(val, _ndarray) else asarray(val).imag


divmod = _wrap(divmod, nin=2, nout=2)  # noqa: A001
modf = _wrap(modf, nin=1, nout=2)
frexp = _wrap(frexp, nin=1, nout=2)
isnat = _wrap(isnat, nin=1)

__all__ = [name for name in dir() if not name.startswith("_")]
