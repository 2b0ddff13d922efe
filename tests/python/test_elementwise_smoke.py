"""First elementwise checks against NumPy on the selected device."""

import numpy as np
import pytest
from gpupy import testing


@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_add_same_dtype(dtype, xp):
    a = xp.asarray(np.arange(12).reshape(3, 4).astype(dtype))
    b = xp.asarray(np.arange(12, 24).reshape(3, 4).astype(dtype))
    return xp.add(a, b)


@testing.for_dtypes(testing.ALL_DTYPES, name="dtype1")
@testing.for_dtypes(testing.ALL_DTYPES, name="dtype2")
@testing.numpy_gpupy_allclose()
def test_multiply_promotes(dtype1, dtype2, xp):
    a = xp.asarray(np.array([0, 1, 2, 3]).astype(dtype1))
    b = xp.asarray(np.array([[1], [0], [1]]).astype(dtype2))
    return a * b


@pytest.mark.parametrize("value", [True, 3, -2, 2.5, 1 + 2j, 300, 2**40])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_weak_python_scalars(dtype, value, xp):
    a = xp.asarray(np.array([1, 2, 3]).astype(dtype))
    return a + value
