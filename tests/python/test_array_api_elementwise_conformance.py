"""Element-wise regressions found by the Array API conformance suite's element-wise and
special-case modules (docs/array_api_conformance.md), checked against NumPy or the standard."""

import gpupy
import numpy as np
import pytest


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_log1p_complex_large_magnitude_does_not_overflow(dtype):
    # |z|^2 exceeds the float32 range for the first values: log|1+z| must still be finite.
    # (Tiny z is left out: NumPy's own complex log1p loses digits there.)
    values = [
        6.2969924e16 + 1.8446636e19j,
        -3e19 + 2e19j,
        1e38 + 1e38j,
        -1e30 - 1e30j,
        3 + 4j,
        -0.5 + 0.2j,
        0.3 - 0.4j,
    ]
    x = np.array(values, dtype=dtype)
    got = gpupy.asnumpy(gpupy.log1p(gpupy.asarray(x)))
    ref = np.log1p(x.astype(np.complex128))
    assert got.dtype == x.dtype
    assert np.all(np.isfinite(got))
    rtol = 1e-6 if dtype == "complex64" else 1e-13
    np.testing.assert_allclose(got.real, ref.real, rtol=rtol, atol=1e-20)
    np.testing.assert_allclose(got.imag, ref.imag, rtol=rtol, atol=1e-20)


def test_log1p_complex_non_finite_follows_the_standard():
    # 2024.12 log1p special cases: +-inf real or imaginary part gives +infinity real part.
    inf, nan = float("inf"), float("nan")
    x = np.array([complex(nan, inf), complex(inf, 1.0), complex(-inf, 1.0), complex(1.0, inf)])
    got = gpupy.asnumpy(gpupy.log1p(gpupy.asarray(x)))
    assert np.all(got.real == inf)
    assert np.isnan(got[0].imag)
    assert got[1].imag == 0.0
    np.testing.assert_allclose(got[2].imag, np.pi)
    np.testing.assert_allclose(got[3].imag, np.pi / 2)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_complex_with_one_infinite_part_is_the_unit_direction(dtype):
    inf = float("inf")
    values = [
        complex(inf, 0.0),
        complex(inf, -2.5),
        complex(-inf, 2.5),
        complex(2.5, inf),
        complex(-2.5, -inf),
        complex(0.0, -inf),
        complex(inf, inf),
        complex(-inf, inf),
        complex(3.0, -4.0),
        complex(0.0, 0.0),
    ]
    x = np.array(values, dtype=dtype)
    got = gpupy.asnumpy(gpupy.sign(gpupy.asarray(x)))
    ref = np.sign(x)  # NumPy >= 2: z / |z|, with infinities read as directions
    assert got.dtype == x.dtype
    np.testing.assert_allclose(got, ref, rtol=1e-6, atol=0)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_sign_complex_nan_part_gives_nan_as_the_standard_says(dtype):
    # 2024.12: "If a is NaN or b is NaN, the result is NaN + NaN j" (NumPy returns 1 for inf+nan j).
    inf, nan = float("inf"), float("nan")
    x = np.array(
        [complex(nan, 1.0), complex(1.0, nan), complex(inf, nan), complex(nan, -inf)], dtype=dtype
    )
    got = gpupy.asnumpy(gpupy.sign(gpupy.asarray(x)))
    assert np.all(np.isnan(got.real)) and np.all(np.isnan(got.imag))
