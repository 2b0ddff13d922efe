"""indices, ix_, diag_indices(_from), tril/triu_indices(_from) and mask_indices against NumPy."""

import gpupy
import numpy as np
import pytest
from gpupy import testing


@pytest.mark.parametrize("dims", [(2, 3), (4,), (), (2, 0, 3), (1, 2, 3, 2)])
@pytest.mark.parametrize("dtype", [int, "int8", "uint16", "float32"])
@testing.numpy_gpupy_allclose()
def test_indices(dims, dtype, xp):
    return xp.indices(dims, dtype=dtype), xp.indices(dims, dtype=dtype, sparse=True)


@testing.numpy_gpupy_allclose()
def test_ix(xp):
    a = xp.arange(20).reshape(4, 5)
    rows, cols = xp.ix_([3, 0], xp.asarray([True, False, True, False, True]))
    return (
        xp.ix_([1, 0], [2], xp.asarray([0, 1, 2], dtype="uint8")),
        a[rows, cols],
        xp.ix_([]),
        xp.ix_(xp.asarray([1.5])),  # NumPy lets non-integer sequences through
        xp.ix_(xp.zeros(3, dtype="bool")),
    )


@testing.numpy_gpupy_raises()
def test_ix_not_1d(xp):
    xp.ix_([[1, 2]])


@pytest.mark.parametrize("n, ndim", [(4, 2), (3, 3), (0, 2), (1, 1)])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_diag_indices(n, ndim, xp):
    idx = xp.diag_indices(n, ndim)
    a = xp.arange(max(n, 1) ** ndim).reshape((max(n, 1),) * ndim)
    return idx, xp.diag_indices_from(a), a[xp.diag_indices_from(a)]


@pytest.mark.parametrize("shape", [(2, 3), (3,), (), (2, 2, 3)])
@testing.numpy_gpupy_raises()
def test_diag_indices_from_errors(shape, xp):
    xp.diag_indices_from(xp.zeros(shape))


@pytest.mark.parametrize(
    "n, k, m",
    [(4, 0, None), (4, -1, None), (3, 1, 5), (5, 2, 3), (0, 0, None), (3, -5, 2)]
    + [(-1, 0, None), (3, 0, -2)],  # negative sizes give empty index arrays, as in NumPy
)
@testing.numpy_gpupy_allclose()
def test_tril_triu_indices(n, k, m, xp):
    return xp.tril_indices(n, k, m), xp.triu_indices(n, k, m)


@pytest.mark.parametrize("shape, k", [((4, 4), 0), ((3, 6), 1), ((6, 2), -2), ((0, 3), 0)])
@testing.numpy_gpupy_allclose()
def test_tril_triu_indices_from(shape, k, xp):
    a = xp.arange(int(np.prod(shape)), dtype="float32").reshape(shape)
    lo, up = xp.tril_indices_from(a, k), xp.triu_indices_from(a, k=k)
    return lo, up, a[lo], a[up]


@pytest.mark.parametrize("fn", ["tril_indices_from", "triu_indices_from"])
@pytest.mark.parametrize("shape", [(3,), (2, 2, 2)])
@testing.numpy_gpupy_raises()
def test_tril_triu_indices_from_errors(fn, shape, xp):
    getattr(xp, fn)(xp.zeros(shape))


@pytest.mark.parametrize("k", [0, 1, -1])
@testing.numpy_gpupy_allclose()
def test_mask_indices(k, xp):
    return xp.mask_indices(4, xp.triu, k), xp.mask_indices(3, xp.tril, k)


@pytest.mark.parametrize("call", ["indices", "mask_indices"])
def test_negative_sizes_are_refused(call):
    with pytest.raises(ValueError):
        np.indices((-1, 2)) if call == "indices" else np.mask_indices(-1, np.triu)
    with pytest.raises(ValueError, match=rf"^\[{call}\] negative dimensions"):
        gpupy.indices((-1, 2)) if call == "indices" else gpupy.mask_indices(-1, gpupy.triu)


def test_ix_lists_join_the_arrays_device(device_name):
    a = gpupy.asarray([2, 0], device=device_name)
    with gpupy.Device("cpu"):
        grids = gpupy.ix_(a, [1, 2], [True, False, True])
    assert all(g.device == a.device for g in grids)
    for g, e in zip(grids, np.ix_([2, 0], [1, 2], [True, False, True]), strict=True):
        np.testing.assert_array_equal(g.get(), e)


def test_devices_and_dispatch():
    a = gpupy.zeros((3, 3))
    rows, cols = np.triu_indices_from(a, 1)
    assert rows.device == a.device and isinstance(cols, gpupy.ndarray)
    np.testing.assert_array_equal(rows.get(), [0, 0, 1])
    d = np.diag_indices_from(a)
    assert len(d) == 2 and d[0].device == a.device
    np.testing.assert_array_equal(np.tril_indices_from(a)[1].get(), [0, 0, 1, 0, 1, 2])
    assert gpupy.indices((2,)).device == gpupy.get_default_device()
