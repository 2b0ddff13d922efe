"""Shape manipulation and basic indexing: see the NumPy functions of the same names.

Results are views of their input wherever NumPy's are (writes through them reach the base).
"""

import math

import numpy

from gpupy import _core
from gpupy._core import ndarray
from gpupy._creation import _reversed_shape


def _arr(a):
    # NumPy's functions take array-likes; lists and NumPy arrays land on the default device.
    return a if isinstance(a, ndarray) else _core._asarray(a)


def _list_device(values):
    """The device of the first gpupy array among values (None without one)."""
    return next((v.device for v in values if isinstance(v, ndarray)), None)


_LIST_LIKE = (list, tuple, bool, int, float, complex)


def _array_operands(values):
    """values as gpupy arrays: lists, tuples and Python scalars on the device of the gpupy arrays
    among them, as element-wise operands are; NumPy arrays stay host arrays (refused beside device
    arrays, never copied behind the user's back)."""
    device = _list_device(values)
    return [
        _core._asarray(v, device=device)
        if device is not None and isinstance(v, _LIST_LIKE)
        else _arr(v)
        for v in values
    ]


def _in_read_order(a, order, op):
    """`a` with its axes in the order NumPy's order= reads it (ravel, flatten, reshape): 'C' as
    it is, 'F' reversed, 'A' reversed for an F- and not C-contiguous array, 'K' in memory order
    (axes by decreasing stride magnitude; negative strides are not flipped, as in NumPy)."""
    if order == "C" or order is None:
        return a
    axes = _core._layout_axes(a, order, op)
    if axes is not None and order in ("K", "k"):
        axes = _flat_k_axes(a)
    return a if axes is None else _core.permute_dims(a, axes)


def _flat_k_axes(a):
    """The axes, outermost first, NumPy's iterator reads `a` in for a flat copy in order 'K'
    (ravel, flatten): a stable insertion sort by decreasing stride magnitude in which a zero
    stride (a broadcast or length-1 axis) decides nothing, so such an axis keeps its place
    (numpy.broadcast_to(x, (4, 2)).ravel('K') reads row by row, as C order)."""
    stride = [0 if n == 1 else abs(s) for n, s in zip(a.shape, a.strides, strict=True)]
    perm = list(range(a.ndim))[::-1]  # innermost first, as the iterator sorts
    for i0 in range(1, len(perm)):
        s0, pos = stride[perm[i0]], i0
        for i1 in range(i0 - 1, -1, -1):
            s1 = stride[perm[i1]]
            if s0 and s1:
                if s1 <= s0:
                    break
                pos = i1
        perm.insert(pos, perm.pop(i0))
    return tuple(perm[::-1])


def reshape(a, /, shape=None, *, newshape=None, order="C", copy=None):
    """See numpy.reshape; ``copy=False`` raises ValueError when a copy is needed."""
    if shape is None:
        shape = newshape
    a = _arr(a)
    if shape is None:  # NumPy reads reshape(a, None) as "keep the shape"
        shape = a.shape
    letter = _core._check_order(order, "reshape", "C", "CFAK")
    if letter == "K":
        raise ValueError("[reshape] order 'K' is not permitted for reshaping")
    read = _in_read_order(a, order, "reshape")
    # Fortran order is C order of the reversed axes (reversing a 1-d array's axes leaves it as
    # it is, but its new shape is still filled first axis fastest)
    if letter == "F" or read is not a:
        out = _core._transpose(_core.reshape(read, _reversed_shape(shape)), None)
    else:
        out = _core.reshape(a, shape)
    if copy and out._same_buffer(a):
        return out.copy()
    if copy is False and not out._same_buffer(a):
        raise ValueError("[reshape] unable to avoid copying data while reshaping")
    return out


def permute_dims(a, /, axes=None):
    """See numpy.permute_dims (axes=None reverses the axes, as transpose)."""
    return _core._transpose(_arr(a), axes)


def transpose(a, axes=None):
    """See numpy.transpose."""
    return _core._transpose(_arr(a), axes)


def matrix_transpose(x, /):
    """See numpy.matrix_transpose."""
    return _core.matrix_transpose(_arr(x))


def expand_dims(a, axis):
    """See numpy.expand_dims (an int or a tuple of ints)."""
    return _core.expand_dims(_arr(a), axis)


def squeeze(a, axis=None):
    """See numpy.squeeze."""
    return _core.squeeze(_arr(a), axis)


def ravel(a, order="C"):
    """See numpy.ravel: a view when ``a`` is contiguous in that order, else a copy."""
    a = _arr(a)
    return _core.ravel(_in_read_order(a, order, "ravel"))


def broadcast_to(array, shape):
    """See numpy.broadcast_to: the result is a read-only view."""
    return _core._broadcast_to(_arr(array), shape)


def broadcast_arrays(*args):
    """See numpy.broadcast_arrays (returns a tuple of views)."""
    return tuple(_core._broadcast_arrays(_array_operands(args)))


def broadcast_shapes(*shapes):
    """See numpy.broadcast_shapes."""
    return _core._broadcast_shapes([(s,) if isinstance(s, int) else tuple(s) for s in shapes])


class broadcast:
    """See numpy.broadcast: arrays broadcast against each other (a broadcast object among them
    counts as its arrays). ``shape``, ``ndim``, ``size``, ``numiter`` and ``iters`` describe
    them; iterating yields tuples of their elements, read from one host copy of each."""

    def __init__(self, *arrays, **kwargs):
        if kwargs:
            raise ValueError("[broadcast] takes no keyword arguments")
        flat = []
        for a in arrays:
            flat.extend(a._arrays if isinstance(a, broadcast) else (_arr(a),))
        if len(flat) > 64:
            raise ValueError(
                f"[broadcast] Need at least 0 and at most 64 array objects (got {len(flat)})"
            )
        self._arrays = tuple(flat)
        self.shape = _core._broadcast_shapes([a.shape for a in flat])
        self.index = 0
        self._host = None

    @property
    def ndim(self):
        return len(self.shape)

    nd = ndim

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def numiter(self):
        return len(self._arrays)

    @property
    def iters(self):
        """One flat iterator per array (its ``base`` is the array)."""
        return tuple(a.flat for a in self._arrays)

    def reset(self):
        """Restarts the iteration."""
        self.index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.size:
            raise StopIteration
        if self._host is None:
            self._host = [numpy.broadcast_to(a.get(), self.shape) for a in self._arrays]
        where = numpy.unravel_index(self.index, self.shape)
        self.index += 1
        return tuple(h[where] for h in self._host)


def ascontiguousarray(a, dtype=None):
    """See numpy.ascontiguousarray (ndim >= 1; no copy when already C-contiguous)."""
    a = _arr(a)
    if dtype is not None:
        a = a.astype(dtype, copy=False)
    return _core.ascontiguousarray(a)


def swapaxes(a, axis1, axis2):
    """See numpy.swapaxes."""
    return _core.swapaxes(_arr(a), axis1, axis2)


def moveaxis(a, source, destination):
    """See numpy.moveaxis."""
    return _core.moveaxis(_arr(a), source, destination)


def flip(m, axis=None):
    """See numpy.flip: a view with negative strides."""
    return _core.flip(_arr(m), axis)


# ---- ndarray methods ---------------------------------------------------------------------------


def _method_reshape(self, *shape, order="C", copy=None):
    if len(shape) == 1 and not isinstance(shape[0], int):
        shape = self.shape if shape[0] is None else shape[0]  # NumPy's reshape(None): as it is
    if copy is None and order.__class__ is str and order == "C":  # the common call, 3x faster
        return _core.reshape(self, shape)
    return reshape(self, shape, order=order, copy=copy)


def _method_transpose(self, *axes):
    if not axes or (len(axes) == 1 and axes[0] is None):
        return _core._transpose(self, None)
    if len(axes) == 1 and not isinstance(axes[0], int):
        axes = axes[0]
    return _core.permute_dims(self, axes)


def _method_flatten(self, order="C"):
    out = _core.ravel(_in_read_order(self, order, "flatten"))
    return out.copy() if out._same_buffer(self) else out


ndarray.reshape = _method_reshape
ndarray.transpose = _method_transpose
ndarray.T = property(lambda self: _core._transpose(self, None))
ndarray.mT = property(lambda self: _core.matrix_transpose(self))
ndarray.flatten = _method_flatten
ndarray.ravel = ravel
ndarray.squeeze = squeeze
ndarray.swapaxes = swapaxes

__all__ = [
    "ascontiguousarray",
    "broadcast",
    "broadcast_arrays",
    "broadcast_shapes",
    "broadcast_to",
    "expand_dims",
    "flip",
    "matrix_transpose",
    "moveaxis",
    "permute_dims",
    "ravel",
    "reshape",
    "squeeze",
    "swapaxes",
    "transpose",
]
