"""gpupy.polynomial.polynomial (power series, low degree first) against
numpy.polynomial.polynomial: polyval with and without tensor, the 2-d and 3-d values and grids."""

import gpupy
import numpy as np
import numpy.polynomial.polynomial as npp
import pytest
from gpupy import testing


def _series(xp):
    return xp.polynomial.polynomial


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128", "bool"])
@testing.numpy_gpupy_allclose(rtol=1e-6)
def test_polyval_coefficient_dtypes(dtype, xp):
    c = xp.asarray(np.array([1, -2, 0, 3]).astype(dtype))
    x = xp.asarray(np.linspace(-2, 2, 7).astype("float32"))
    return _series(xp).polyval(x, c), _series(xp).polyval(1.5, c), _series(xp).polyval(x, c[:1])


@pytest.mark.parametrize("tensor", [True, False])
@testing.numpy_gpupy_allclose()
def test_polyval_multidimensional_coefficients(tensor, xp):
    c = xp.asarray(np.arange(12.0).reshape(3, 4) - 5)
    x = xp.asarray([[0.5, -1.0, 2.0, 3.0]])
    return _series(xp).polyval(x, c, tensor=tensor)


@testing.numpy_gpupy_allclose()
def test_values_and_grids(xp):
    rng = np.random.default_rng(3)
    c2, c3 = xp.asarray(rng.normal(size=(3, 2))), xp.asarray(rng.normal(size=(2, 3, 2)))
    x, y, z = (xp.asarray(rng.normal(size=(2, 3))) for _ in range(3))
    s = _series(xp)
    return (
        s.polyval2d(x, y, c2),
        s.polyval3d(x, y, z, c3),
        s.polygrid2d(x[0], y[:, 0], c2),
        s.polygrid3d(x[0], y[0], z[:, 0], c3),
    )


@pytest.mark.parametrize("name, args", [("polyval2d", 2), ("polyval3d", 3)])
@testing.numpy_gpupy_raises()
def test_incompatible_points(name, args, xp):
    points = [xp.zeros(3)] * (args - 1) + [xp.zeros(4)]
    getattr(_series(xp), name)(*points, xp.ones((2,) * args))


def test_numpy_dispatch_reaches_gpupy():
    x = gpupy.asarray([1.0, 2.0])
    out = npp.polyval2d(x, x, np.arange(4.0).reshape(2, 2))
    assert isinstance(out, gpupy.ndarray) and out.device == x.device
    np.testing.assert_allclose(out.get(), npp.polyval2d([1.0, 2.0], [1.0, 2.0], [[0, 1], [2, 3]]))
