"""gpupy.polynomial.polynomial: power series evaluation as in numpy.polynomial.polynomial.

Coefficients run from low to high degree (the opposite of gpupy.polyval's order). Evaluation is
Horner's scheme with gpupy operations on the device of the gpupy arrays among the arguments (the
default device otherwise); integer and boolean coefficients compute in float64, as NumPy's do.
"""

import numbers

from gpupy import _core
from gpupy._host_library import device_arrays

__all__ = ["polygrid2d", "polygrid3d", "polyval", "polyval2d", "polyval3d"]


def _coefficients(c, x):
    """c as a float or complex gpupy array of at least one dimension, on x's device when x is a
    gpupy array; x stays a Python number when it is one (a weak scalar, as in NumPy)."""
    if isinstance(x, numbers.Number) and not hasattr(x, "dtype"):
        (c,) = device_arrays("polyval", c)
    else:
        x, c = device_arrays("polyval", x, c)
    if c.ndim == 0:
        c = c.reshape((1,))
    if c.dtype.kind in "biu":
        c = c.astype("float64")
    return x, c


def polyval(x, c, tensor=True):
    """See numpy.polynomial.polynomial.polyval: c[0] + c[1] x + c[2] x**2 + ... . With
    `tensor`, each coefficient's trailing axes are evaluated at every x (result shape
    c.shape[1:] + x.shape); without it, they broadcast against x."""
    x, c = _coefficients(c, x)
    if isinstance(x, _core.ndarray) and tensor:
        c = c.reshape(c.shape + (1,) * x.ndim)
    result = c[-1] + x * 0
    for i in range(2, c.shape[0] + 1):
        result = c[-i] + result * x
    return result


def _points(op, coordinates, c):
    """The coordinate arrays of polyval2d/3d: one shape, on one device with c."""
    *points, c = device_arrays(op, *coordinates, c)
    if any(p.shape != points[0].shape for p in points[1:]):
        names = {2: "x, y", 3: "x, y, z"}[len(points)]
        raise ValueError(f"[{op}] {names} are incompatible")
    return points, c


def _value_nd(op, coordinates, c):
    points, c = _points(op, coordinates, c)
    c = polyval(points[0], c)
    for p in points[1:]:
        c = polyval(p, c, tensor=False)
    return c


def _grid_nd(coordinates, c):
    *points, c = device_arrays("polygrid", *coordinates, c)
    for p in points:
        c = polyval(p, c)
    return c


def polyval2d(x, y, c):
    """See numpy.polynomial.polynomial.polyval2d: sum of c[i, j] x**i y**j at the points
    (x, y), which must have one shape."""
    return _value_nd("polyval2d", (x, y), c)


def polyval3d(x, y, z, c):
    """See numpy.polynomial.polynomial.polyval3d."""
    return _value_nd("polyval3d", (x, y, z), c)


def polygrid2d(x, y, c):
    """See numpy.polynomial.polynomial.polygrid2d: the values on the Cartesian product of x
    and y (result shape c.shape[2:] + x.shape + y.shape)."""
    return _grid_nd((x, y), c)


def polygrid3d(x, y, z, c):
    """See numpy.polynomial.polynomial.polygrid3d."""
    return _grid_nd((x, y, z), c)
