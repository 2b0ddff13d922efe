"""gpupy's dtypes (NumPy's scalar types, so `x.dtype == gpupy.float32` works) and the NumPy 2
promotion functions, computed by the C++ core's rules (NEP 50: Python scalars are weak)."""

import numpy

from gpupy import _core

bool_ = numpy.bool_
int8 = numpy.int8
int16 = numpy.int16
int32 = numpy.int32
int64 = numpy.int64
uint8 = numpy.uint8
uint16 = numpy.uint16
uint32 = numpy.uint32
uint64 = numpy.uint64
float16 = numpy.float16
float32 = numpy.float32
float64 = numpy.float64
complex64 = numpy.complex64
complex128 = numpy.complex128
dtype = numpy.dtype

_SUPPORTED = frozenset(
    numpy.dtype(t)
    for t in (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64)
    + (float16, float32, float64, complex64, complex128)
)


def _supported_dtype(value, op):
    dt = value.dtype if isinstance(value, _core.ndarray) else numpy.dtype(value)
    if dt not in _SUPPORTED:
        raise TypeError(f"[{op}] dtype {dt} is not supported by gpupy")
    return dt


def result_type(*arrays_and_dtypes):
    """See numpy.result_type (NumPy 2 rules; Python scalars are weak)."""
    if len(arrays_and_dtypes) == 1 and type(arrays_and_dtypes[0]) is int:
        # NumPy reads a lone Python int by value: one beyond int64 is uint64 (two are int64)
        if 2**63 <= arrays_and_dtypes[0] < 2**64:
            return numpy.dtype(numpy.uint64)
    return _core._result_type(*arrays_and_dtypes)


def promote_types(type1, type2):
    """See numpy.promote_types."""
    return _core._promote_types(type1, type2)


def can_cast(from_, to, casting="safe"):
    """See numpy.can_cast. As in NumPy 2, Python scalars are refused (TypeError)."""
    if isinstance(from_, (int, float, complex)):
        raise TypeError(
            "can_cast() does not support Python ints, floats, and complex because the result "
            "used to depend on the value."
        )
    if isinstance(from_, (_core.ndarray, numpy.ndarray, numpy.generic)):
        from_ = from_.dtype
    return _core._can_cast(from_, to, casting)


class _FloatInfo:
    """numpy.finfo's values with the Array API's types: `bits` is a Python int and `eps`, `max`,
    `min` and `smallest_normal` are Python floats (NumPy gives float32 scalars for float32).
    Every other attribute is NumPy's, and it compares equal to the numpy.finfo it wraps."""

    __slots__ = ("_np", "bits", "eps", "max", "min", "smallest_normal", "dtype")

    def __init__(self, info):
        self._np = info
        self.bits = int(info.bits)
        self.eps = float(info.eps)
        self.max = float(info.max)
        self.min = float(info.min)
        self.smallest_normal = float(info.smallest_normal)
        self.dtype = info.dtype

    def __getattr__(self, name):
        return getattr(self._np, name)

    def __eq__(self, other):
        if isinstance(other, _FloatInfo):
            other = other._np
        return self._np == other if isinstance(other, numpy.finfo) else NotImplemented

    def __hash__(self):
        return hash(self._np)

    def __repr__(self):
        return repr(self._np)

    __str__ = __repr__


def finfo(type):  # noqa: A002 - NumPy's parameter name
    """See numpy.finfo (NumPy's values, with Python int/float attributes as the Array API asks)."""
    return _FloatInfo(numpy.finfo(_supported_dtype(type, "finfo")))


def iinfo(type):  # noqa: A002 - NumPy's parameter name
    """See numpy.iinfo (the NumPy object, for gpupy's integer dtypes)."""
    return numpy.iinfo(_supported_dtype(type, "iinfo"))


def isdtype(dtype, kind):
    """See numpy.isdtype."""
    return numpy.isdtype(_supported_dtype(dtype, "isdtype"), kind)


# NumPy's C-style aliases of the supported types (`gpupy.intp`, `gpupy.double`, ...) and its
# abstract scalar classes, for `issubdtype(x.dtype, gpupy.floating)`: NumPy's own objects, so
# they compare equal to NumPy's. longdouble and the string, datetime and object types are absent
# because gpupy arrays cannot hold them.
_ALIASES = (
    "byte short intc int_ intp long longlong ubyte ushort uintc uint uintp ulong ulonglong "
    "half single double csingle cdouble"
).split()
_ABSTRACT = (
    "generic number integer signedinteger unsignedinteger inexact floating complexfloating"
).split()
globals().update({name: getattr(numpy, name) for name in _ALIASES + _ABSTRACT})
True_ = numpy.True_
False_ = numpy.False_
# NumPy's tables of scalar types and type codes, as they are: gpupy's scalars are NumPy's, and
# code that tests `isinstance(x, ScalarType)` or `x.dtype.char in typecodes[...]` reads the same.
ScalarType = numpy.ScalarType
typecodes = numpy.typecodes

# The Array API spells the boolean dtype `bool`; defined last so this module keeps the builtin.
bool = numpy.bool_  # noqa: A001

__all__ = (
    _ALIASES
    + _ABSTRACT
    + [
        "False_",
        "ScalarType",
        "True_",
        "bool",
        "bool_",
        "can_cast",
        "complex128",
        "complex64",
        "dtype",
        "finfo",
        "float16",
        "float32",
        "float64",
        "iinfo",
        "int16",
        "int32",
        "int64",
        "int8",
        "isdtype",
        "promote_types",
        "result_type",
        "typecodes",
        "uint16",
        "uint32",
        "uint64",
        "uint8",
    ]
)
