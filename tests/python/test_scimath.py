"""gpupy.lib.scimath (numpy.emath) against NumPy: the complex switch decided by the data, the
complex dtype it picks, and numpy.lib.scimath.f(gpupy_array) reaching gpupy."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

UNARY = ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"]
# Real results of bool, int8, uint8 and float16 are float16 (assert_same allows one float16 ulp);
# complex ones complex64 or, for float16, complex128 as NumPy's _tocomplex picks.
DTYPES = ("int16", "int64", "uint16", "uint32", "float32", "float64", "complex64")
DTYPES += ("bool", "int8", "uint8", "float16")


def _values(dtype, inside):
    """Values in the real domain of every UNARY function (inside), or some outside it."""
    if inside:
        v = [0.0, 0.25, 0.5, 1.0] if np.dtype(dtype).kind in "fc" else [0, 1, 1, 0]
    else:
        v = [-4.0, -0.5, 0.0, 0.5, 2.0, 9.0] if np.dtype(dtype).kind in "fc" else [0, 1, 2, 9]
        if np.dtype(dtype).kind == "i":
            v = [-4, -1, 0, 1, 2, 9]
    return np.array(v).astype(dtype)


@pytest.mark.parametrize("name", UNARY)
@pytest.mark.parametrize("inside", [True, False])
@testing.for_dtypes(DTYPES)
@testing.numpy_gpupy_allclose(rtol=2e-6)
def test_unary(name, inside, dtype, xp):
    scimath = xp.lib.scimath
    return getattr(scimath, name)(xp.asarray(_values(dtype, inside)))


@pytest.mark.parametrize("name", UNARY)
@testing.numpy_gpupy_allclose(rtol=2e-6)
def test_int8_outside_the_domain_gives_complex64(name, xp):
    return getattr(xp.emath, name)(xp.asarray(np.array([-4, 0, 3], dtype="int8")))


@pytest.mark.parametrize("name", UNARY)
@testing.numpy_gpupy_allclose()
def test_unary_scalars_lists_and_empty(name, xp):
    f = getattr(xp.emath, name)
    return f(xp.asarray(-2.0)), f(xp.asarray([[0.5, -3.0]])), f(xp.zeros((0, 2)))


@testing.numpy_gpupy_allclose()
def test_logn(xp):
    x = xp.asarray([-8.0, 8.0, 0.5])
    return xp.emath.logn(2, x), xp.emath.logn(xp.asarray([-2.0, 3.0, 10.0]), x)


@testing.for_dtypes(("int32", "float32", "float64", "complex128"))
@testing.numpy_gpupy_allclose(rtol=2e-6)
def test_power(dtype, xp):
    x = xp.asarray(np.array([-8, -1, 2, 3]).astype(dtype))
    # Negative integer exponents are taken as floats (numpy.power refuses them).
    return xp.emath.power(x, xp.asarray([-1, 2, -2, 3])), xp.emath.power(x, 2)


def test_power_of_negative_real_is_exact_for_integral_exponents():
    got = gpupy.emath.power(gpupy.asarray([-8.0]), -1).get()
    np.testing.assert_array_equal(got, np.emath.power(np.array([-8.0]), -1))


def test_numpy_dispatch_reaches_gpupy():
    a = gpupy.asarray([-4.0, 4.0])
    out = np.lib.scimath.sqrt(a)
    assert isinstance(out, gpupy.ndarray) and out.device == a.device
    np.testing.assert_array_equal(out.get(), [2j, 2])
    assert isinstance(np.emath.arcsin(a), gpupy.ndarray)
