"""Views of one (2, 3, 4) array in many layouts, made alike from NumPy and gpupy arrays, and the
check that a gpupy result has NumPy's values, strides and contiguity flags (the layout tests)."""

import gpupy
import numpy

HOST = numpy.arange(2 * 3 * 4, dtype=numpy.float64).reshape(2, 3, 4) - 7.5


def fortran(xp, a):
    return xp.asfortranarray(a)


# Views of a (2, 3, 4) array, each made the same way from a NumPy or a gpupy array.
VIEWS = {
    "C": lambda xp, a: a,
    "F": fortran,
    "permuted": lambda xp, a: a.transpose(1, 2, 0),
    "permuted_F": lambda xp, a: fortran(xp, a).transpose(2, 0, 1),
    "negative": lambda xp, a: a[:, ::-1, :],
    "negative_F": lambda xp, a: fortran(xp, a)[:, ::-1, :],
    "relaid": lambda xp, a: fortran(xp, a.transpose(1, 2, 0)).transpose(2, 0, 1),
    "negative_T": lambda xp, a: a[::-1, :, ::-1].T,
    "strided": lambda xp, a: a[:, :, ::2],
    "strided_F": lambda xp, a: fortran(xp, a)[::2, 1:, ::-3],
    "broadcast": lambda xp, a: xp.broadcast_to(a[:, :1, :], (2, 3, 4)),
    "broadcast_T": lambda xp, a: xp.broadcast_to(a[:, :1, :], (2, 3, 4)).T,
    "size1_axis": lambda xp, a: a[:, 1:2, :].transpose(2, 1, 0),
}
VIEW_NAMES = list(VIEWS)
# The views of shape (2, 3, 4), which combine with each other.
SAME_SHAPE = ["C", "F", "negative", "negative_F", "relaid", "broadcast"]


def view_of(name, xp, base=HOST):
    return VIEWS[name](xp, base if xp is numpy else gpupy.asarray(base))


def same(got, expected, strides=True):
    assert isinstance(got, gpupy.ndarray), type(got)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    if strides and expected.size > 0:  # NumPy 2.4 gives size-0 arrays zero strides
        assert got.strides == expected.strides, (got.strides, expected.strides)
    assert got.flags.c_contiguous == expected.flags.c_contiguous
    assert got.flags.f_contiguous == expected.flags.f_contiguous
    if expected.dtype.kind in "fc":  # transcendental functions: within NumPy's ULP budget
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-14, atol=0)
    else:
        numpy.testing.assert_array_equal(got.get(), expected)
