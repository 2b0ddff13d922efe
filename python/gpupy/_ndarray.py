"""Python-level methods of gpupy.ndarray: printing, scalar conversion, iteration and the NumPy
interop protocols. They are attached to the nanobind class, which binds the C++ core directly."""

import operator
import types

import numpy

from gpupy import _core, _dlpack, _interop
from gpupy._utilities import _with_device, array_str

ndarray = _core.ndarray


def _is_cpu(a):
    return a.device.type == "cpu"


# ---- Printing ------------------------------------------------------------------------------------


def _repr(self):
    return _with_device(self, repr(self.get()))  # repr, not array_repr: honours override_repr


def _str(self):
    return array_str(self)


def _format(self, spec):
    # As NumPy: a 0-d array formats its value (f"{x.sum():.3f}"); others take only an empty spec.
    if self.ndim == 0:
        return format(self.item(), spec)
    if not spec:
        return str(self)
    raise TypeError("unsupported format string passed to gpupy.ndarray.__format__")


# ---- Scalar conversion ---------------------------------------------------------------------------


def _bool(self):
    if self.size == 0:
        raise ValueError(
            "The truth value of an empty array is ambiguous. "
            "Use `array.size > 0` to check that an array is not empty."
        )
    if self.size > 1:
        raise ValueError(
            "The truth value of an array with more than one element is ambiguous. "
            "Use a.any() or a.all()"
        )
    return bool(self.item())


def _index(self):
    if self.ndim != 0 or self.dtype.kind not in "iu":
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return operator.index(self.item())


_core_item = ndarray.item


def _item(self, *args):
    """See numpy.ndarray.item: a flat index, or one index per axis, picks the element."""
    if len(args) == 1 and isinstance(args[0], tuple):
        args = args[0]
    if not args:
        return _core_item(self)
    if len(args) == 1:
        i = operator.index(args[0])
        if not -self.size <= i < self.size:
            raise IndexError(f"[item] index {i} is out of bounds for size {self.size}")
        return _core_item(self.reshape(-1)[i])
    if len(args) != self.ndim:
        raise ValueError("[item] incorrect number of indices for array")
    return _core_item(self[tuple(operator.index(i) for i in args)])


def _round_builtin(self, ndigits=None):
    # round(x.mean(), 3): NumPy's full reductions are scalars, which round() accepts.
    if self.ndim != 0:
        raise TypeError("[round] round() takes 0-d arrays; use gpupy.round(x, decimals) for arrays")
    return round(self.item(), ndigits)


# The operators return NotImplemented for None (as the arithmetic ones do), so Python raises its
# TypeError naming both types.
def _divmod(self, other):
    from gpupy._elementwise import divmod as gpupy_divmod

    return NotImplemented if other is None else gpupy_divmod(self, other)


def _rdivmod(self, other):
    from gpupy._elementwise import divmod as gpupy_divmod

    return NotImplemented if other is None else gpupy_divmod(other, self)


# ---- Sequence behaviour --------------------------------------------------------------------------


def _tolist(self):
    return self.get().tolist()


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    n = self.shape[0]
    if n == 0:
        return iter(())
    try:
        first = self._getitem(0)
    except NotImplementedError:
        # Without views, rows are copied from a host copy onto the array's device.
        host = self.get()
        return iter([_core._asarray(row, None, self.device) for row in host])
    return _iter_views(self, first, n)


def _iter_views(self, first, n):
    yield first
    for i in range(1, n):
        yield self._getitem(i)


def _contains(self, value):
    # As NumPy: any element equal to value. Without it, `in` would iterate rows and ask bool()
    # of each row's comparison, which raises for 2-D arrays. A value no operator takes (None, a
    # string) compares unequal: Python's == falls back to identity and gives False.
    equal = self == value
    return bool(equal.any()) if isinstance(equal, type(self)) else bool(equal)


def _delitem(self, key):
    raise ValueError("[delitem] cannot delete array elements")


def _imatmul(self, other):
    # NumPy's a @= b: matmul into a itself, so the result must keep a's shape and dtype.
    from gpupy._linalg import matmul

    return NotImplemented if other is None else matmul(self, other, out=self)


class _Flags:
    """Memory layout flags of an array, as ndarray.flags reports them. As in NumPy, WRITEABLE
    (and ALIGNED, which gpupy arrays always are) can be set, through the attribute or by key."""

    __slots__ = ("_array",)
    _SHOWN = ("c_contiguous", "f_contiguous", "writeable", "owndata")
    _KEYS = {
        "C_CONTIGUOUS": "c_contiguous",
        "C": "c_contiguous",
        "F_CONTIGUOUS": "f_contiguous",
        "F": "f_contiguous",
        "WRITEABLE": "writeable",
        "W": "writeable",
        "OWNDATA": "owndata",
        "O": "owndata",
        "FNC": "fnc",
        "FORC": "forc",
        "ALIGNED": "aligned",
        "A": "aligned",
        "CONTIGUOUS": "c_contiguous",
        "FORTRAN": "f_contiguous",
        "WRITEBACKIFCOPY": "writebackifcopy",
        "X": "writebackifcopy",
        "BEHAVED": "behaved",
        "B": "behaved",
        "CARRAY": "carray",
        "CA": "carray",
        "FARRAY": "farray",
        "FA": "farray",
    }

    def __init__(self, a):
        self._array = a

    @property
    def c_contiguous(self):
        return self._array._c_contiguous

    @property
    def f_contiguous(self):
        return self._array._f_contiguous

    @property
    def owndata(self):
        return self._array._owndata

    @property
    def writeable(self):
        return not self._array._readonly

    @writeable.setter
    def writeable(self, value):
        self._array.setflags(write=bool(value))

    # NumPy's derived flags; numpy.isfortran reads fnc from any array it is given.
    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    # NumPy's other names and combinations of the flags above
    contiguous = c_contiguous
    fortran = f_contiguous

    @property
    def writebackifcopy(self):
        return False  # gpupy makes no write-back copies

    @property
    def behaved(self):
        return self.writeable  # and aligned, which gpupy arrays always are

    @property
    def carray(self):
        return self.behaved and self.c_contiguous

    @property
    def farray(self):
        return self.behaved and self.f_contiguous and not self.c_contiguous

    @property
    def aligned(self):
        return True  # gpupy copies or refuses unaligned memory

    @aligned.setter
    def aligned(self, value):
        self._array.setflags(align=bool(value))

    def __getitem__(self, key):
        try:
            return getattr(self, self._KEYS[key.upper()])
        except KeyError:
            raise KeyError(f"Unknown flag {key!r}") from None

    def __setitem__(self, key, value):
        name = self._KEYS.get(key.upper())
        if name not in ("writeable", "aligned"):
            raise KeyError("Unknown flag")
        setattr(self, name, value)

    def __repr__(self):
        return "\n".join(f"  {n.upper()} : {getattr(self, n)}" for n in self._SHOWN)

    def _values(self):
        return tuple(getattr(self, n) for n in self._SHOWN)

    def __eq__(self, other):
        # by value, as NumPy's flags objects compare
        return self._values() == other._values() if isinstance(other, _Flags) else NotImplemented

    __hash__ = None  # NumPy's flags objects are unhashable too


# ---- NumPy interop -------------------------------------------------------------------------------


class _InterfaceHolder:
    """Carries a cpu array's __array_interface__ and keeps the array alive as the NumPy base."""

    __slots__ = ("__array_interface__", "array")

    def __init__(self, a):
        self.array = a
        self.__array_interface__ = _array_interface(a)


def _check_host_memory(self, attr):
    """Attributes that hand out the memory's address exist on cpu arrays only (AttributeError, so
    that NumPy's and ctypes' probes move on)."""
    if not _is_cpu(self):
        raise AttributeError(
            f"{attr} is only available on cpu arrays; this array is on '{self.device}' (copy it "
            "to the host with .get() or gpupy.asnumpy())"
        )


def _data(self):
    """See numpy.ndarray.data: a memoryview of a cpu array's memory (NumPy's, sharing it)."""
    _check_host_memory(self, "data")
    return numpy.asarray(self).data


def _ctypes(self):
    """See numpy.ndarray.ctypes: a cpu array's address, shape and strides for ctypes (`data`,
    `data_as`, `shape_as`, ...; NumPy's object, which keeps the array alive)."""
    _check_host_memory(self, "ctypes")
    return numpy.asarray(self).ctypes


def _array_interface(self):
    _check_host_memory(self, "__array_interface__")
    return {
        "shape": self.shape,
        "typestr": self.dtype.str,
        "data": (self._data_ptr, self._readonly),
        "strides": self.strides,
        "version": 3,
    }


def _array(self, dtype=None, copy=None):
    if not _is_cpu(self):
        raise TypeError(
            f"Implicit conversion to a NumPy array is not allowed on device '{self.device}'; "
            "use .get() or gpupy.asnumpy()"
        )
    view = numpy.asarray(_InterfaceHolder(self))
    if dtype is not None and numpy.dtype(dtype) != view.dtype:
        if copy is False:
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        return view.astype(dtype)
    return view.copy() if copy else view


def _component_view(self, imaginary, op):
    """The real (or imaginary) half of each element of a complex array, as a view with twice
    the element stride; NumPy's .real and .imag are views too, so writes reach the array."""
    half = numpy.dtype(self.dtype.char.lower())  # complex64 -> float32, complex128 -> float64
    offset = half.itemsize if imaginary else 0
    return self._strided_view(self.shape, self.strides, offset, half, False, op)


def _real(self):
    return _component_view(self, False, "real") if self.dtype.kind == "c" else self


def _imag(self):
    if self.dtype.kind == "c":
        return _component_view(self, True, "imag")
    zeros = _core.imag(self)  # NumPy gives a read-only array of zeros
    return zeros._strided_view(zeros.shape, zeros.strides, 0, None, True, "imag")


def _set_real(self, value):
    _real(self)[...] = value


def _set_shape(self, shape):
    """ndarray.shape = ...: NumPy changes the shape in place, without a copy (a view of the same
    memory with the new shape); AttributeError when that takes a copy."""
    from gpupy import reshape

    try:
        view = reshape(self, shape, copy=False)
    except ValueError as exc:
        if "avoid copying" not in str(exc):
            raise
        raise AttributeError(
            "[shape] Incompatible shape for in-place modification. Use `.reshape()` to make a "
            "copy with the desired shape."
        ) from None
    self._become_view(view)


def _set_imag(self, value):
    if self.dtype.kind != "c":
        raise TypeError("[imag] array does not have imaginary part to set")
    _imag(self)[...] = value


def _conj(self, out=None):
    # NumPy's method returns a real array itself (the function makes bool int8)
    if out is not None:
        from gpupy import conjugate

        return conjugate(self, out=out)
    return _core.conjugate(self) if self.dtype.kind == "c" else self


def _copy_method(self, *_):
    return self.copy()


def _install():
    methods = {
        "__repr__": _repr,
        "__str__": _str,
        "__format__": _format,
        "__bool__": _bool,
        "__index__": _index,
        "__round__": _round_builtin,
        "__divmod__": _divmod,
        "__rdivmod__": _rdivmod,
        "item": _item,
        "tolist": _tolist,
        "__iter__": _iter,
        "__contains__": _contains,
        "__delitem__": _delitem,
        "__imatmul__": _imatmul,
        "__array__": _array,
        "__dlpack__": _dlpack.dlpack,
        "__dlpack_device__": _dlpack.dlpack_device,
        "__copy__": _copy_method,
        "__deepcopy__": _copy_method,
        "conj": _conj,
        "conjugate": _conj,
    }
    for name, fn in methods.items():
        setattr(ndarray, name, fn)
    ndarray.flags = property(_Flags, doc="Memory layout flags (see numpy.ndarray.flags).")
    ndarray.__array_interface__ = property(_array_interface)
    ndarray.data = property(_data, doc=_data.__doc__)
    ndarray.ctypes = property(_ctypes, doc=_ctypes.__doc__)
    ndarray.shape = property(ndarray.shape.fget, _set_shape, doc="The array's dimensions.")
    ndarray.real = property(_real, _set_real, doc="Real part, a view (see numpy.ndarray.real).")
    ndarray.imag = property(_imag, _set_imag, doc="Imaginary part (see numpy.ndarray.imag).")
    ndarray.__array_priority__ = 100.0
    ndarray.__hash__ = None
    ndarray.__class_getitem__ = classmethod(types.GenericAlias)  # ndarray[Any, dtype] in hints
    _interop.install()


_install()
