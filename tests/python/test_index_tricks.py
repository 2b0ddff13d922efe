"""ravel_multi_index, unravel_index and the index objects (mgrid, ogrid, r_, c_, s_, index_exp,
ndindex, ndenumerate) against NumPy, on the device under test."""

import gpupy
import numpy
import pytest
from gpupy.testing import numpy_gpupy_allclose, numpy_gpupy_raises


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
    for call in (
        lambda xp: xp.unravel_index([], (2, 3)),
        lambda xp: xp.ravel_multi_index(([], []), (2, 3)),
    ):
        with pytest.raises(TypeError):  # NumPy refuses an empty list (inferred as float)
            call(numpy)
        with pytest.raises(TypeError, match=r"^\[(un)?ravel_(index|multi_index)\]"):
            call(gpupy)
    empty = gpupy.unravel_index(gpupy.asarray([], dtype="int64"), (2, 3))
    assert [e.shape for e in empty] == [(0,), (0,)]
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


# ---- index objects --------------------------------------------------------------------------


@numpy_gpupy_allclose()
def test_mgrid_ogrid(xp):
    return (
        xp.mgrid[0:3, 1:5:2],
        xp.mgrid[0:1:4j, -1:1:3j],
        xp.mgrid[0:2, 0:1:3j],
        xp.mgrid[5:0:-2],
        xp.mgrid[0:1:5j],
        xp.mgrid[0:1:1j],
        xp.mgrid[2:2],
        xp.mgrid[0.5:2:0.5, 0:2],
        xp.ogrid[0:3, 1:5:2],
        xp.ogrid[0:1:3j, 0:4],
        xp.ogrid[-2:3],
    )


@pytest.mark.parametrize(
    "key", [(slice(0, -3),), (slice(4, 1, 0.5), slice(0, 2)), (slice(1, 2, -1),)]
)
@numpy_gpupy_allclose()
def test_grids_of_ranges_running_backwards(key, xp):
    # The open grid and a lone slice are empty; NumPy's dense grid refuses them (below).
    return xp.ogrid[key], xp.mgrid[key[0]]


@pytest.mark.parametrize(
    "key", [(slice(0, -3),), (slice(4, 1, 0.5), slice(0, 2)), (slice(1, 2, -1),)]
)
@numpy_gpupy_raises()
def test_mgrid_of_ranges_running_backwards(key, xp):
    return xp.mgrid[key]


@pytest.mark.parametrize("key", [(slice(0, -3),), (slice(4, 1, 0.5), slice(0, 2))])
def test_mgrid_backwards_error_names_mgrid(key):
    with pytest.raises(ValueError, match=r"^\[mgrid\] negative dimensions"):
        gpupy.mgrid[key]


def test_grids_are_on_the_default_device(device_name):
    assert gpupy.mgrid[0:3, 0:2].device == gpupy.Device(device_name)
    assert all(g.device == gpupy.Device(device_name) for g in gpupy.ogrid[0:3, 0:2])


@numpy_gpupy_allclose()
def test_r_(xp):
    a = xp.asarray([1, 2, 3])
    m = xp.asarray([[1, 2], [3, 4]], dtype="float32")
    return (
        xp.r_[a, 0, 0, a],
        xp.r_[-1:1:6j, [0] * 3, 5, 6],
        xp.r_[0:5, 1.5],
        xp.r_[m, m],
        xp.r_["-1", m, m],
        xp.r_["0,2", [1, 2, 3], [4, 5, 6]],
        xp.r_["0,2,0", [1, 2, 3], [4, 5, 6]],
        xp.r_["1,2,0", [1, 2, 3], [4, 5, 6]],
        xp.r_["0,3,1", a, a],
        xp.r_[xp.asarray([True]), 2],
        xp.r_[3],
    )


@numpy_gpupy_allclose()
def test_c_(xp):
    a = xp.asarray([1, 2, 3])
    m = xp.asarray([[1, 2], [3, 4], [5, 6]])
    return (
        xp.c_[a, a],
        xp.c_[a, m, 0:3],
        xp.c_[xp.asarray([[1, 2, 3]]), 0, 0, xp.asarray([[4, 5, 6]])],
        xp.c_[0:1:3j, a],
    )


def test_r_c_join_the_arrays_device(device_name):
    # Scalars, lists and ranges go to the array's device, not the default one.
    a = gpupy.asarray([1, 2], device=device_name)
    with gpupy.Device("cpu"):
        r = gpupy.r_[a, 0, 1:3, -1:1:3j, [5]]
        c = gpupy.c_[a, 0:2, [7, 8]]
    assert r.device == a.device and c.device == a.device
    numpy.testing.assert_array_equal(r.get(), numpy.r_[[1, 2], 0, 1:3, -1:1:3j, [5]])
    numpy.testing.assert_array_equal(c.get(), numpy.c_[[1, 2], 0:2, [7, 8]])


@pytest.mark.parametrize("key", ["late", "bad", "bad_tuple", "shapes", "empty"])
@numpy_gpupy_raises()
def test_r_errors(key, xp):
    a = xp.asarray([1, 2])
    if key == "late":
        return xp.r_[a, "0"]
    if key == "bad":
        return xp.r_["x", a]
    if key == "bad_tuple":
        return xp.r_["1,x", a]
    if key == "shapes":
        return xp.r_["1", xp.zeros((2, 2)), xp.zeros((3, 2))]
    return xp.r_[()]


def test_r_matrix_directives_are_refused():
    with pytest.raises(NotImplementedError, match=r"\[r_\] matrix"):
        gpupy.r_["r", [1, 2]]


def test_s_index_exp_ndindex_ndenumerate():
    assert gpupy.s_[1:2] == numpy.s_[1:2]
    assert gpupy.s_[1, ..., None] == numpy.s_[1, ..., None]
    assert gpupy.index_exp[1:2] == numpy.index_exp[1:2]
    assert gpupy.index_exp[::2, 3] == numpy.index_exp[::2, 3]
    assert gpupy.s_[5] == 5 and gpupy.index_exp[5] == (5,)
    for shape in ((2, 3), (0, 2), (), (3,)):
        assert list(gpupy.ndindex(*shape)) == list(numpy.ndindex(*shape))
        assert list(gpupy.ndindex(shape)) == list(numpy.ndindex(shape))
    with pytest.raises(ValueError, match=r"\[ndindex\]"):
        gpupy.ndindex(2, -1)
    host = numpy.arange(6, dtype="float32").reshape(2, 3)
    got = list(gpupy.ndenumerate(gpupy.asarray(host)))
    expected = list(numpy.ndenumerate(host))
    assert got == expected
    assert all(type(g[1]) is type(e[1]) for g, e in zip(got, expected, strict=True))
    assert list(gpupy.ndenumerate([[1, 2]])) == list(numpy.ndenumerate([[1, 2]]))


# ---- found by NumPy's own lib/tests/test_index_tricks.py (tools/numpy_suite.py) ---------------


@pytest.mark.parametrize("indices", [0, [0], [1]])
@numpy_gpupy_allclose(accept_error=True)
def test_unravel_index_of_a_0d_shape(xp, indices):
    return xp.unravel_index(indices, ())


@pytest.mark.parametrize("mode", ["clip", "wrap", "raise"])
@pytest.mark.parametrize("n", [0, 1])
@numpy_gpupy_allclose(accept_error=True)
def test_ravel_multi_index_with_an_empty_dimension(xp, mode, n):
    return xp.ravel_multi_index(xp.zeros((3, n), dtype="int64"), (2, 1, 0), mode=mode)
