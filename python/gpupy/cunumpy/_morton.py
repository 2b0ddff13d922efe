"""Morton (Z-order) keys on any backend, equal to the kernel header `cunumpy/morton.cuh`: 2D keys
interleave two 32-bit cell coordinates (axis 0 in bit 0), 3D keys three 21-bit coordinates.

Bit layout: with `levels` bits per axis a key has ndim * levels bits; bit ndim * b + a holds bit b
of axis a. Shifting a key right by ndim * (levels - level) gives its tree node at `level`."""

import operator

import numpy

from gpupy.cunumpy._checks import array_module

__all__ = [
    "MAX_MORTON_LEVELS",
    "morton_decode",
    "morton_encode",
    "morton_encode_2d",
    "morton_encode_3d",
    "morton_keys",
    "morton_scales",
]

#: Most bits per axis that fit a uint64 key, by number of dimensions.
MAX_MORTON_LEVELS = {2: 32, 3: 21}

# (shift, mask) steps that spread the low bits of a word to every ndim-th bit (morton.cuh's)
_SPREAD = {
    2: (
        (16, 0x0000FFFF0000FFFF),
        (8, 0x00FF00FF00FF00FF),
        (4, 0x0F0F0F0F0F0F0F0F),
        (2, 0x3333333333333333),
        (1, 0x5555555555555555),
    ),
    3: (
        (32, 0x001F00000000FFFF),
        (16, 0x001F0000FF0000FF),
        (8, 0x100F00F00F00F00F),
        (4, 0x10C30C30C30C30C3),
        (2, 0x1249249249249249),
    ),
}
_LOW_BITS = {2: 0xFFFFFFFF, 3: 0x1FFFFF}
_U = numpy.uint64


def _check_ndim(op, ndim):
    if ndim not in MAX_MORTON_LEVELS:
        raise ValueError(f"[{op}] Morton keys have 2 or 3 dimensions, got {ndim}")


def _check_levels(op, ndim, levels):
    _check_ndim(op, ndim)
    try:
        levels = operator.index(levels)
    except TypeError:
        raise TypeError(f"[{op}] levels must be an integer, got {type(levels).__name__}") from None
    top = MAX_MORTON_LEVELS[ndim]
    if not 1 <= levels <= top:
        raise ValueError(f"[{op}] levels must be between 1 and {top} in {ndim}D, got {levels}")
    return levels


def _spread(value, ndim):
    value = value & _U(_LOW_BITS[ndim])
    for shift, mask in _SPREAD[ndim]:
        value = (value | (value << _U(shift))) & _U(mask)
    return value


def _compact(value, ndim):
    """The inverse of _spread: the steps backwards, each mask the one before it in _SPREAD."""
    steps = _SPREAD[ndim]
    value = value & _U(steps[-1][1])
    masks = [mask for _, mask in steps[:-1]][::-1] + [_LOW_BITS[ndim]]
    for (shift, _), mask in zip(steps[::-1], masks, strict=True):
        value = (value ^ (value >> _U(shift))) & _U(mask)
    return value


def _as_uint64(xpm, op, value):
    a = xpm.asarray(value)
    if numpy.dtype(a.dtype).kind not in "biu":
        raise TypeError(f"[{op}] cell coordinates must be integers, got dtype {a.dtype}")
    return a.astype(xpm.uint64)


def morton_encode(*cells):
    """uint64 keys of integer cell coordinates, one array per axis (2 or 3, broadcast together).
    Coordinates keep their low 32 (2D) or 21 (3D) bits. The result is on the cells' backend
    (NumPy for Python ints)."""
    ndim = len(cells)
    _check_ndim("morton_encode", ndim)
    xpm = array_module("morton_encode", *cells)
    cells = xpm.broadcast_arrays(*(_as_uint64(xpm, "morton_encode", c) for c in cells))
    key = _spread(cells[0], ndim)
    for axis in range(1, ndim):
        key = key | (_spread(cells[axis], ndim) << _U(axis))
    return key


def morton_decode(keys, ndim):
    """The cell coordinates of Morton keys (the inverse of morton_encode): a tuple of ndim uint64
    arrays shaped like keys."""
    _check_ndim("morton_decode", ndim)
    xpm = array_module("morton_decode", keys)
    keys = _as_uint64(xpm, "morton_decode", keys)
    return tuple(_compact(keys >> _U(axis), ndim) for axis in range(ndim))


def morton_encode_2d(x, y):
    """uint64 Z-order keys of 2D integer coordinates (bits of x at even positions)."""
    return morton_encode(x, y)


def morton_encode_3d(x, y, z):
    """uint64 Z-order keys of 3D integer coordinates (21 bits each)."""
    return morton_encode(x, y, z)


def morton_scales(lower, upper, levels):
    """Cells per unit length of every axis, 2**levels / (upper - lower): a float64 NumPy array, the
    numbers a kernel needs to compute the keys of morton_keys."""
    return _scales("morton_scales", lower, upper, levels)


def _scales(op, lower, upper, levels):
    lower = numpy.asarray(lower, dtype=numpy.float64)
    upper = numpy.asarray(upper, dtype=numpy.float64)
    if lower.ndim != 1 or lower.shape != upper.shape:
        raise ValueError(
            f"[{op}] lower and upper must be sequences of equal length, got shapes "
            f"{lower.shape} and {upper.shape}"
        )
    levels = _check_levels(op, lower.shape[0], levels)
    if not (numpy.isfinite(lower).all() and numpy.isfinite(upper).all()):
        raise ValueError(f"[{op}] lower and upper must be finite")
    if (upper == lower).any():
        raise ValueError(f"[{op}] upper and lower must differ on every axis")
    return float(2**levels) / (upper - lower)


def morton_keys(positions, lower, upper, levels):
    """uint64 Morton keys of points (shape (n, 2) or (n, 3)) in the box [lower, upper] with
    `levels` bits per axis. The cell along an axis is floor((x - lower) * scale) with the
    morton_scales, clipped to [0, 2**levels - 1]: points on or outside the box get the cell at
    the nearest face, a point on a cell boundary the upper cell. NaN positions are not checked
    (that would read the device); their cell is unspecified. The keys are on positions' backend."""
    xpm = array_module("morton_keys", positions)
    positions = xpm.asarray(positions)
    if positions.ndim != 2:
        raise ValueError(
            f"[morton_keys] positions must have shape (n, ndim), got {tuple(positions.shape)}"
        )
    if numpy.dtype(positions.dtype).kind not in "biuf":
        raise TypeError(f"[morton_keys] positions must be real numbers, got {positions.dtype}")
    ndim = positions.shape[1]
    _check_ndim("morton_keys", ndim)
    scales = _scales("morton_keys", lower, upper, levels)
    if scales.shape[0] != ndim:
        raise ValueError(
            f"[morton_keys] positions have {ndim} axes, lower and upper {scales.shape[0]}"
        )
    lower = numpy.asarray(lower, dtype=numpy.float64)
    top = float(2**levels - 1)
    cells = []
    for axis in range(ndim):
        column = positions[:, axis].astype(xpm.float64)  # float32 points: cells as in float64
        scaled = (column - float(lower[axis])) * float(scales[axis])
        cells.append(xpm.clip(xpm.floor(scaled), 0.0, top).astype(xpm.uint64))
    return morton_encode(*cells)
