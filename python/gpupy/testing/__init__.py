"""Testing helpers: run a test body with NumPy and with gpupy and compare the results; and
numpy.testing's assertions (assert_allclose, ...), which accept gpupy arrays."""

from gpupy.testing._compare import (  # noqa: F401
    ALL_DTYPES,
    COMPLEX_DTYPES,
    FLOAT_DTYPES,
    INT_DTYPES,
    UINT_DTYPES,
    assert_same,
    float16_in_float32,
    for_dtypes,
    numpy_gpupy_allclose,
    numpy_gpupy_raises,
)
from gpupy.testing._numpy_asserts import *  # noqa: E402, F401, F403
