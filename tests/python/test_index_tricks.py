"""ravel_multi_index and unravel_index against NumPy, on the device under test."""

import gpupy
import numpy
import pytest


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(7, 6), (2, 3, 4), (5,), (1, 4, 1)])
def test_unravel_index(shape, order):
    size = int(numpy.prod(shape))
    idx = numpy.arange(size)[::-1].reshape(-1)
    got = gpupy.unravel_index(gpupy.asarray(idx), shape, order=order)
    expected = numpy.unravel_index(idx, shape, order=order)
    assert len(got) == len(expected)
    for g, e in zip(got, expected, strict=True):
        assert g.dtype == numpy.int64
        numpy.testing.assert_array_equal(g.get(), e)


def test_unravel_index_2d_indices_and_errors():
    idx = numpy.array([[1, 5], [8, 0]])
    got = gpupy.unravel_index(gpupy.asarray(idx), (3, 3))
    for g, e in zip(got, numpy.unravel_index(idx, (3, 3)), strict=True):
        numpy.testing.assert_array_equal(g.get(), e)
    with pytest.raises(ValueError, match=r"\[unravel_index\] index 9 is out of bounds"):
        gpupy.unravel_index(gpupy.asarray([1, 9]), (3, 3))
    with pytest.raises(ValueError, match=r"\[unravel_index\]"):
        gpupy.unravel_index(gpupy.asarray([-1]), (3, 3))
    with pytest.raises(TypeError, match=r"\[unravel_index\]"):
        gpupy.unravel_index(gpupy.asarray([1.0]), (3, 3))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_ravel_multi_index(mode, order):
    coords = numpy.array([[3, 6, 6, 0], [4, 5, 1, 2]])
    if mode != "raise":
        coords = numpy.array([[3, 9, -2, 0], [4, 5, 1, -7]])
    got = gpupy.ravel_multi_index(gpupy.asarray(coords), (7, 6), mode=mode, order=order)
    expected = numpy.ravel_multi_index(coords, (7, 6), mode=mode, order=order)
    numpy.testing.assert_array_equal(got.get(), expected)


def test_ravel_multi_index_mixed_modes_broadcast_and_roundtrip():
    c0, c1 = numpy.array([[3], [9]]), numpy.array([4, 5, 8])
    got = gpupy.ravel_multi_index(
        (gpupy.asarray(c0), gpupy.asarray(c1)), (7, 6), mode=("clip", "wrap")
    )
    expected = numpy.ravel_multi_index((c0, c1), (7, 6), mode=("clip", "wrap"))
    numpy.testing.assert_array_equal(got.get(), expected)
    flat = gpupy.arange(24)
    back = gpupy.ravel_multi_index(gpupy.unravel_index(flat, (2, 3, 4)), (2, 3, 4))
    numpy.testing.assert_array_equal(back.get(), numpy.arange(24))


def test_ravel_multi_index_errors():
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\] invalid entry"):
        gpupy.ravel_multi_index(gpupy.asarray([[7], [0]]), (7, 6))
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\]"):
        gpupy.ravel_multi_index(gpupy.asarray([[1], [0]]), (7, 6), mode="bogus")
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\]"):
        gpupy.ravel_multi_index(gpupy.asarray([[1]]), (7, 6))
    with pytest.raises(TypeError, match=r"\[ravel_multi_index\]"):
        gpupy.ravel_multi_index(gpupy.asarray([[1.0], [0.0]]), (7, 6))


def test_dispatch_from_numpy():
    got = numpy.unravel_index(gpupy.asarray([5, 7]), (3, 4))
    assert all(isinstance(g, gpupy.ndarray) for g in got)
