"""ndarray methods NumPy code expects: view (dtype reinterpretation), base, flat, resize (in
place), fill, round and tobytes. See the numpy.ndarray methods of the same names."""

import builtins
import math
import sys
import warnings
import weakref

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._dtypes import _supported_dtype
from gpupy._indexing import _int

__all__ = ["flatiter"]


def _view(self, dtype=None, type=None):  # noqa: A002 - NumPy's keyword
    """See numpy.ndarray.view: the same memory seen with another dtype (a view). A dtype of a
    different size reinterprets the last axis, which must then be contiguous."""
    if isinstance(dtype, builtins.type) and issubclass(dtype, ndarray) and type is None:
        dtype, type = None, dtype
    if type is not None and type is not ndarray:
        raise TypeError(f"[view] gpupy arrays have no subclasses; type={type!r} is not supported")
    if dtype is None:
        return self._strided_view(self.shape, self.strides, 0, None, False, "view")
    try:
        new = numpy.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"[view] {exc}") from None
    new = _supported_dtype(new, "view")  # before its itemsize is used (0 for dtype([]))
    old = self.itemsize
    shape, strides = list(self.shape), list(self.strides)
    if new.itemsize != old:
        if self.ndim == 0:
            raise ValueError(
                "[view] changing the dtype of a 0d array is only supported if the itemsize is "
                "unchanged"
            )
        if shape[-1] != 1 and strides[-1] != old and self.size:
            raise ValueError(
                "[view] to change to a dtype of a different size, the last axis must be contiguous"
            )
        nbytes = shape[-1] * old
        if nbytes % new.itemsize:
            raise ValueError(
                "[view] when changing to a larger dtype, its size must be a divisor of the "
                "total size in bytes of the last axis of the array."
            )
        shape[-1], strides[-1] = nbytes // new.itemsize, new.itemsize
    return self._strided_view(tuple(shape), tuple(strides), 0, new, False, "view")


def _base(self):
    # gpupy keeps no chain of views: a view's base is an array over the whole memory it views.
    if self._owndata:
        return None
    lo, hi = self._buffer_range
    start = lo - self._data_ptr
    return self._strided_view((hi - lo,), (1,), start, "uint8", self._readonly, "base")


def _count_refs():
    """References to `self` inside a method called as ``a.method()`` when only the name `a`
    holds the array (measured once, as it depends on the Python version)."""
    ndarray._refcount_probe = lambda self: sys.getrefcount(self)
    probe = _core.zeros((1,), None, "cpu")
    try:
        return probe._refcount_probe()
    finally:
        del ndarray._refcount_probe


_BASE_REFS = _count_refs()


def _keep_alive(obj):
    return obj


def _resize(self, *new_shape, refcheck=True):
    """See numpy.ndarray.resize: changes the array in place (new items are zeros). As in NumPy,
    the array must own its memory, and with refcheck nothing else may refer to it."""
    from gpupy import zeros

    refcheck = _int(refcheck, "resize", "refcheck")
    if not new_shape or new_shape == (None,):
        return  # NumPy's a.resize() and a.resize(None) leave the array as it is
    if len(new_shape) == 1 and not isinstance(new_shape[0], (int, numpy.integer)):
        new_shape = new_shape[0]
    shape = tuple(_int(n, "resize", "new_shape") for n in new_shape)
    if any(n < 0 for n in shape):
        raise ValueError("[resize] negative dimensions not allowed")
    if math.prod(shape) == self.size and self._c_contiguous:
        # as NumPy: the same number of items needs no new memory, only a new shape (views too)
        self._become_view(self.reshape(shape))
        return
    if not self._owndata or not self._c_contiguous:
        raise ValueError("[resize] cannot resize this array: it does not own its data")
    if refcheck and (sys.getrefcount(self) > _BASE_REFS or self._buffer_refs > 1):
        raise ValueError(
            "[resize] cannot resize an array that references or is referenced by another "
            "array in this way. Use the np.resize function or refcheck=False"
        )
    out = zeros(shape, self.dtype, device=self.device)
    n = min(out.size, self.size)
    if n:
        out.reshape(-1)[:n] = self.reshape(-1)[:n]
    if not refcheck:
        # Whatever still points at the old memory (NumPy wrappers, buffers) keeps it alive.
        weakref.finalize(self, _keep_alive, self.reshape(-1))
    self._replace_with(out)


def _fill(self, value):
    """See numpy.ndarray.fill."""
    self[...] = value


def _round(self, decimals=0, out=None):
    """See numpy.ndarray.round (gpupy.round)."""
    from gpupy import round as round_

    return round_(self, decimals=decimals, out=out)


def _tobytes(self, order="C"):
    """See numpy.ndarray.tobytes: the bytes are copied to the host."""
    if order is not None and not isinstance(order, str):
        raise TypeError(f"[tobytes] order must be str, not {type(order).__name__}")
    order = "C" if order is None else order.upper()
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"[tobytes] order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order == "A":  # the host copy is C-ordered; 'A' asks for the layout of `self`
        order = "F" if self._f_contiguous and not self._c_contiguous else "C"
    return self.get().tobytes(order="C" if order == "K" else order)


class flatiter:
    """What ndarray.flat returns (see numpy.flatiter): the array seen as 1-d in C order.

    Indexing and assignment run on the array's device (through its flat indices when it is not
    C-contiguous); iteration copies the array to the host once and yields NumPy scalars."""

    __slots__ = ("base", "_next")

    def __init__(self, base):
        self.base = base
        self._next = 0

    def __len__(self):
        return self.base.size

    def _positions(self, key):
        """The flat positions `key` selects: an int64 array on the array's device."""
        from gpupy import arange
        from gpupy._indexing import _index

        flat = arange(self.base.size, dtype="int64", device=self.base.device)
        return flat[key if isinstance(key, (int, numpy.integer, slice)) else _index(key, flat)]

    def _where(self, key):
        # The selected positions as coordinates into the base array (None: index its 1-d view).
        from gpupy import unravel_index

        a = self.base
        return None if a._c_contiguous else unravel_index(self._positions(key), a.shape)

    @staticmethod
    def _flat_key(key):
        # NumPy's flatiter takes a 1-tuple as its item, `...` as every position and another
        # flatiter as the array it iterates; None (a new axis) is no index of a flat iterator.
        if type(key) is bool:
            # NumPy 2.4 (deprecated there): True is the first position, False none
            warnings.warn(
                "[flat] a 0-dimensional boolean index of a flat iterator is deprecated; "
                "it means the first element (True) or none (False)",
                DeprecationWarning,
                stacklevel=3,
            )
            return 0 if key else slice(0, 0)
        if isinstance(key, tuple) and len(key) == 1:
            key = key[0]
        if key is None:
            raise IndexError(
                "[flat] only integers, slices (`:`), ellipsis (`...`) and integer or boolean "
                "arrays are valid indices"
            )
        if isinstance(key, (bool, numpy.bool_)):
            raise IndexError("[flat] boolean scalar indices of a flat iterator are not supported")
        if isinstance(key, flatiter):
            return key.base.reshape(-1)
        return slice(None) if key is Ellipsis else key

    def __getitem__(self, key):
        key = self._flat_key(key)
        coords = self._where(key)
        return self.base.reshape(-1)[key] if coords is None else self.base[coords]

    def __setitem__(self, key, value):
        key = self._flat_key(key)
        if isinstance(key, (int, numpy.integer)):
            try:
                self._set(key, value)
            except (TypeError, ValueError, OverflowError) as exc:  # NumPy's class for all three
                raise ValueError("[flat] Error setting single item of array.") from exc
            return
        # As NumPy's flatiter: the value becomes an array of the item type (a NumPy integer
        # scalar wraps), whose values repeat over the selection (no values: no change).
        from gpupy import asarray
        from gpupy._placement import _cycled, _set_flat

        a = self.base
        values = asarray(value, dtype=a.dtype, device=a.device)
        if values.ndim == 0:
            self._set(key, values)
            return
        values = values.reshape(-1)
        if values.size:
            positions = self._positions(key)
            _set_flat(a, positions, _cycled(values, positions.size, a, "flat"))

    def _set(self, key, value):
        coords = self._where(key)
        if coords is None:
            self.base.reshape(-1)[key] = value
        else:
            self.base[coords] = value

    @property
    def index(self):
        """The flat position of the next item iteration yields (see numpy.flatiter.index)."""
        return self._next

    def __iter__(self):
        # one copy to the host, then NumPy scalars
        for i, value in enumerate(self.base.get().flat):
            self._next = i + 1
            yield value

    def __array__(self, dtype=None, copy=None):
        # As NumPy's flatiter: the memory itself when contiguous, else a read-only copy (cpu
        # arrays only: on other devices ndarray.__array__ refuses the hidden copy).
        host = self.base.reshape(-1).__array__(dtype, copy)
        if not self.base._c_contiguous:
            host.flags.writeable = False
        return host

    def copy(self):
        """A 1-d copy of the array (see numpy.flatiter.copy)."""
        return self.base.ravel().copy() if self.base._c_contiguous else self.base.ravel()


def _assign_flat(self, value):
    self.flat[...] = value


_host_copy = ndarray.get  # the C++ copy to the host, in C order


def _get(self, stream=None, order="C", out=None, blocking=True):
    """A NumPy copy of the array from any device (CuPy's ``get``). ``order``: 'C', 'F', 'A' (F
    for an F- and not C-contiguous array, else C) or 'K' (the array's own layout). ``out``: a
    NumPy array of the same shape and dtype to copy into (returned). ``stream``: a gpupy stream
    to copy on. gpupy's copies have finished when get returns, so ``blocking=False`` (which only
    allows an early return) gives the same result."""
    if stream is not None:
        with stream:
            return _get(self, None, order, out, blocking)
    axes = None if order == "C" else _core._layout_axes(self, order, "get")
    host = _host_copy(self) if axes is None else _host_copy(self.transpose(axes))
    if axes is not None:
        host = host.transpose(numpy.argsort(axes))
    if out is None:
        return host
    if not isinstance(out, numpy.ndarray):
        raise TypeError(f"[get] out must be a numpy.ndarray, not {type(out).__name__}")
    if out.shape != host.shape or out.dtype != host.dtype:
        raise ValueError(
            f"[get] out has shape {out.shape} and dtype {out.dtype}; the array has shape "
            f"{host.shape} and dtype {host.dtype}"
        )
    out[...] = host
    return out


ndarray.get = _get
ndarray.view = _view
ndarray.flat = property(flatiter, _assign_flat, doc="A 1-d iterator over the array (see flatiter).")
ndarray.base = property(_base, doc="None for an array that owns its memory (see _base).")
ndarray.resize = _resize
ndarray.fill = _fill
ndarray.round = _round
ndarray.tobytes = _tobytes
