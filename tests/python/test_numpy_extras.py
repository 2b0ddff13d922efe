"""NumPy functions built from other gpupy operations (divmod, modf, matvec, vecmat, the radians /
degrees aliases) against NumPy, on the device under test. The table ufuncs (fmod, gcd, ...) are
covered row by row in test_elementwise.py."""

import gpupy
import numpy as np
import pytest

SPECIAL = np.array([-2.5, -0.0, 0.0, 0.5, np.inf, -np.inf, np.nan, -3.0, 7.25, 1e30])


def _random(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    values = rng.integers(-5, 6, shape) + (0.5 * rng.random(shape) if dtype != "int64" else 0)
    if np.dtype(dtype).kind == "c":
        values = values + 1j * rng.integers(-3, 4, shape)
    return np.asarray(values).astype(dtype)


def _same(got, expected):
    np.testing.assert_array_equal(gpupy.asnumpy(got), expected, strict=True)
    # assert_array_equal treats -0.0 == 0.0: the signs of zeros are part of modf's contract.
    np.testing.assert_array_equal(np.signbit(gpupy.asnumpy(got)), np.signbit(expected))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_modf_special_values(dtype):
    x = SPECIAL.astype(dtype)
    fraction, integral = gpupy.modf(gpupy.asarray(x))
    expected_fraction, expected_integral = np.modf(x)
    _same(fraction, expected_fraction)
    _same(integral, expected_integral)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32"])
def test_modf_of_integers_is_float64(dtype):
    x = np.array([3, 0, 250], dtype=dtype)
    fraction, integral = gpupy.modf(gpupy.asarray(x))
    expected_fraction, expected_integral = np.modf(x)
    _same(fraction, expected_fraction)
    _same(integral, expected_integral)


def test_modf_writes_out():
    x = np.array([1.75, -2.5])
    out = (gpupy.empty(2), gpupy.empty(2))
    result = gpupy.modf(gpupy.asarray(x), out=out)
    assert result[0] is out[0] and result[1] is out[1]
    np.testing.assert_array_equal(gpupy.asnumpy(out[0]), [0.75, -0.5])
    np.testing.assert_array_equal(gpupy.asnumpy(out[1]), [1.0, -2.0])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"where": [True, False, True, False]},
        {"dtype": "float32"},
        {"dtype": "float16", "casting": "unsafe"},
        {"casting": "same_kind", "where": [False, True, True, True]},
    ],
)
@pytest.mark.parametrize("x_dtype", ["float64", "int16"])
def test_modf_takes_the_ufunc_keywords(kwargs, x_dtype):
    x = np.array([1.75, -2.5, np.inf, -0.0]).astype(x_dtype) if x_dtype[0] == "f" else None
    if x is None:
        x = np.array([3, -7, 0, 250], dtype=x_dtype)
    np_kwargs = {k: np.array(v) if k == "where" else v for k, v in kwargs.items()}
    np_out = (np.full(4, 9.0), np.full(4, 8.0, dtype="float32"))
    try:
        expected = np.modf(x, out=np_out, **np_kwargs)
    except TypeError:
        with pytest.raises(TypeError, match=r"^\[modf\]"):
            gpupy.modf(
                gpupy.asarray(x),
                out=(gpupy.full(4, 9.0), gpupy.full(4, 8.0, "float32")),
                **{k: gpupy.asarray(v) if k == "where" else v for k, v in kwargs.items()},
            )
        return
    out = (gpupy.full(4, 9.0), gpupy.full(4, 8.0, dtype="float32"))
    gp_kwargs = {k: gpupy.asarray(v) if k == "where" else v for k, v in kwargs.items()}
    got = gpupy.modf(gpupy.asarray(x), out=out, **gp_kwargs)
    assert got[0] is out[0] and got[1] is out[1]
    _same(got[0], expected[0])
    _same(got[1], expected[1])


def test_modf_errors_name_modf():
    x = gpupy.asarray([1.5])
    with pytest.raises(TypeError, match=r"^\[modf\]"):  # NumPy: no complex loop
        gpupy.modf(gpupy.asarray([1 + 1j]))
    with pytest.raises(TypeError, match=r"^\[modf\]"):  # float64 into int32
        gpupy.modf(x, out=(gpupy.empty(1, dtype="int32"), None))
    with pytest.raises(TypeError, match=r"^\[modf\]"):
        gpupy.modf(gpupy.arange(3), casting="no")
    with pytest.raises(TypeError, match=r"^\[modf\]"):
        gpupy.modf(x, dtype="int64")
    with pytest.raises(ValueError, match=r"^\[modf\]"):
        gpupy.modf(gpupy.ones(3), out=(gpupy.empty(2), None))
    # A complex out is a same_kind cast of the float64 result, as in NumPy.
    fraction, integral = gpupy.modf(x, out=(gpupy.zeros(1, complex), gpupy.zeros(1, complex)))
    np.testing.assert_array_equal(gpupy.asnumpy(fraction), [0.5 + 0j], strict=True)
    np.testing.assert_array_equal(gpupy.asnumpy(integral), [1.0 + 0j], strict=True)


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint16", "float32", "float64"])
def test_divmod_matches_numpy(dtype):
    x = np.array([7, -7, 5, 0, 100, -100], dtype=np.int64)
    y = np.array([2, 2, -3, 4, 7, -9], dtype=np.int64)
    if np.dtype(dtype).kind == "u":
        x, y = np.abs(x), np.abs(y)
    x, y = x.astype(dtype), y.astype(dtype)
    quotient, remainder = gpupy.divmod(gpupy.asarray(x), gpupy.asarray(y))
    expected_quotient, expected_remainder = np.divmod(x, y)
    np.testing.assert_array_equal(gpupy.asnumpy(quotient), expected_quotient, strict=True)
    np.testing.assert_array_equal(gpupy.asnumpy(remainder), expected_remainder, strict=True)


def test_numpy_divmod_stays_on_gpupy():
    quotient, remainder = np.divmod(gpupy.arange(5), 2)
    assert isinstance(quotient, gpupy.ndarray) and isinstance(remainder, gpupy.ndarray)
    np.testing.assert_array_equal(gpupy.asnumpy(remainder), np.arange(5) % 2)


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64"])
@pytest.mark.parametrize(
    ("matrix_shape", "vector_shape"), [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 1, 4))]
)
def test_matvec_matches_numpy(dtype, matrix_shape, vector_shape):
    a = _random(matrix_shape, dtype, seed=1)
    v = _random(vector_shape, dtype, seed=2)
    got = gpupy.matvec(gpupy.asarray(a), gpupy.asarray(v))
    np.testing.assert_allclose(gpupy.asnumpy(got), np.matvec(a, v), rtol=1e-5)
    assert gpupy.asnumpy(got).dtype == np.matvec(a, v).dtype


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int64"])
def test_vecmat_conjugates_the_vector(dtype):
    v = _random((2, 3), dtype, seed=3)
    a = _random((3, 5), dtype, seed=4)
    got = gpupy.vecmat(gpupy.asarray(v), gpupy.asarray(a))
    np.testing.assert_allclose(gpupy.asnumpy(got), np.vecmat(v, a), rtol=1e-5)


def test_matvec_and_vecmat_refuse_missing_dimensions():
    with pytest.raises(ValueError, match=r"\[matvec\]"):
        gpupy.matvec(gpupy.ones(3), gpupy.ones(3))
    with pytest.raises(ValueError, match=r"\[vecmat\]"):
        gpupy.vecmat(gpupy.ones(3), gpupy.ones(3))


def test_radians_and_degrees_are_deg2rad_and_rad2deg():
    x = np.array([0.0, 90.0, -180.0, 1e-3], dtype=np.float32)
    np.testing.assert_array_equal(gpupy.asnumpy(gpupy.radians(gpupy.asarray(x))), np.radians(x))
    np.testing.assert_array_equal(gpupy.asnumpy(gpupy.degrees(gpupy.asarray(x))), np.degrees(x))


@pytest.mark.parametrize("which", ["quotient_over_x1", "quotient_over_x2", "remainder_over_x2"])
def test_divmod_out_may_overlap_the_inputs(which):
    x1, x2 = np.array([7, 8, -9, 20]), np.array([3, 7, 4, -6])
    expected = np.divmod(x1, x2)
    a, b = gpupy.asarray(x1), gpupy.asarray(x2)
    out = {
        "quotient_over_x1": (a, None),
        "quotient_over_x2": (b, None),
        "remainder_over_x2": (None, b),
    }[which]
    q, r = gpupy.divmod(a, b, out=out)
    np.testing.assert_array_equal(q.get(), expected[0])
    np.testing.assert_array_equal(r.get(), expected[1])


def test_modf_integral_out_may_be_the_input():
    x = np.array([1.5, -2.25, 7.0, -0.5])
    expected = np.modf(x)
    g = gpupy.asarray(x)
    fraction, integral = gpupy.modf(g, out=(None, g))
    assert integral is g
    np.testing.assert_array_equal(fraction.get(), expected[0])
    np.testing.assert_array_equal(g.get(), expected[1])
