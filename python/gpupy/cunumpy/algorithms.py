"""Host versions of the kernel-header algorithms: Morton (Z-order) keys equal to
`cunumpy/morton.cuh` (2D: two 32-bit coordinates, x in bit 0; 3D: three 21-bit coordinates)."""

import numpy

__all__ = ["morton_encode_2d", "morton_encode_3d"]

_U = numpy.uint64


def _spread2(x):
    v = numpy.asarray(x).astype(_U) & _U(0xFFFFFFFF)
    for shift, mask in (
        (16, 0x0000FFFF0000FFFF),
        (8, 0x00FF00FF00FF00FF),
        (4, 0x0F0F0F0F0F0F0F0F),
        (2, 0x3333333333333333),
        (1, 0x5555555555555555),
    ):
        v = (v | (v << _U(shift))) & _U(mask)
    return v


def _spread3(x):
    v = numpy.asarray(x).astype(_U) & _U(0x1FFFFF)
    for shift, mask in (
        (32, 0x001F00000000FFFF),
        (16, 0x001F0000FF0000FF),
        (8, 0x100F00F00F00F00F),
        (4, 0x10C30C30C30C30C3),
        (2, 0x1249249249249249),
    ):
        v = (v | (v << _U(shift))) & _U(mask)
    return v


def morton_encode_2d(x, y):
    """uint64 Z-order keys of 2D integer coordinates (bits of x at even positions)."""
    return _spread2(x) | (_spread2(y) << _U(1))


def morton_encode_3d(x, y, z):
    """uint64 Z-order keys of 3D integer coordinates (21 bits each)."""
    return _spread3(x) | (_spread3(y) << _U(1)) | (_spread3(z) << _U(2))
