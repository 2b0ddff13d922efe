"""Shared by the gpupy.linalg tests: the float dtypes, tolerances for LAPACK on host views, and
seeded random and symmetric positive definite matrices."""

import numpy as np
from gpupy import testing

FLOATS = testing.FLOAT_DTYPES + testing.COMPLEX_DTYPES
# LAPACK on host views is NumPy's own; the tolerance covers the data's different round trips.
RTOL = {"float32": 1e-4, "complex64": 1e-4}
RTOL64 = 1e-10


def _rtol(dtype):
    return RTOL.get(dtype, RTOL64)


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    if np.dtype(dtype).kind in "iu":
        x = rng.integers(-4, 5, size=shape)
    return x.astype(dtype)


def _spd(shape, dtype, seed=0):
    """Hermitian positive definite matrices (batched)."""
    a = _data(shape, dtype, seed)
    a = a @ np.conj(np.swapaxes(a, -1, -2)) + shape[-1] * np.eye(shape[-1], dtype=dtype)
    return a.astype(dtype)
