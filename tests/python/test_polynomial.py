"""poly, roots, polyadd, polysub, polymul, polydiv, polyder, polyint, polyval and polyfit against
NumPy on the selected device."""

import gpupy
import numpy
import pytest
from gpupy import testing

rs = numpy.random.RandomState(5)


def _coeffs(n, dtype):
    if dtype == "bool":
        return rs.rand(n) > 0.3
    if numpy.dtype(dtype).kind in "iu":
        return rs.randint(1, 9, n).astype(dtype)
    c = rs.randn(n)
    if numpy.dtype(dtype).kind == "c":
        c = c + 1j * rs.randn(n)
    return c.astype(dtype)


def _tol(dtype):
    return 2e-5 if dtype in ("float32", "complex64") else 1e-11


@pytest.mark.parametrize("dtype", ["int16", "uint8", "float32", "float64", "complex128"])
def test_add_sub_mul_der_int_val(dtype):
    a, b = _coeffs(4, dtype), _coeffs(2, dtype)
    x = rs.randn(3, 2).astype("float32" if dtype == "float32" else "float64")

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, q = xp.asarray(a), xp.asarray(b)
        return (
            xp.polyadd(p, q),
            xp.polyadd(q, p),
            xp.polysub(q, p),
            xp.polymul(p, q),
            xp.polyder(p),
            xp.polyder(p, 2),
            xp.polyder(p, 0),
            xp.polyint(p),
            xp.polyint(p, 2, k=[1.0, -2.0]),
            xp.polyint(p, 3, k=0.5),
            xp.polyval(p, xp.asarray(x)),
            xp.polyval(p, 2),
            xp.polyval(q, xp.asarray(numpy.arange(5))),
        )

    body()


def test_lists_scalars_zero_padding():
    @testing.numpy_gpupy_allclose()
    def body(xp):
        return (
            xp.polyadd([1, 2], [9, 5, 4]),
            xp.polysub(3.0, [1, 2]),
            xp.polymul([0, 0, 1, 2], [0, 3]),
            xp.polymul([0, 0], [1, 2]),
            xp.polyval([], xp.asarray([1.0, 2.0])),
            xp.polyval([3, 0, 1], xp.asarray(numpy.array([numpy.inf, -1.0]))),
            xp.polyder([5], 2),
            xp.polyint([1, 1], 0),
        )

    body()


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_polydiv(dtype):
    v = _coeffs(3, dtype)
    q = _coeffs(3, dtype)
    u = numpy.convolve(v, q)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype), atol=1e-6)
    def body(xp):
        return (
            *xp.polydiv(xp.asarray(u), xp.asarray(v)),  # exact: the remainder trims to [0]
            *xp.polydiv(xp.asarray(u + 1), xp.asarray(v)),
            *xp.polydiv(xp.asarray(v[:2]), xp.asarray(u)),
            *xp.polydiv([3.0, 5.0, 2.0], [2.0, 1.0]),
        )

    body()


@pytest.mark.parametrize("dtype", ["int32", "float32", "float64", "complex128"])
def test_poly_and_roots(dtype):
    z = _coeffs(4, dtype)
    m = rs.randn(3, 3)

    @testing.numpy_gpupy_allclose(rtol=1e-4 if dtype == "float32" else 1e-9, atol=1e-6)
    def body(xp):
        r = xp.roots(xp.asarray([1.0, -6.0, 11.0, -6.0]))
        return (
            xp.poly(xp.asarray(z)),
            xp.poly(xp.asarray(m)),
            xp.poly([1 + 2j, 1 - 2j, 3]),  # conjugate pairs: real coefficients
            xp.sort(r),
            xp.roots([0, 0, 2, -4, 0, 0]),  # leading zeros dropped, trailing ones are roots at 0
            xp.roots([0, 0]),
            xp.roots([5]),
            xp.roots(xp.asarray(numpy.array([1, 0, 1], dtype="float32"))).shape,
        )

    body()
    assert gpupy.poly([]) == 1.0


def test_roots_is_on_the_input_device():
    p = gpupy.asarray([1.0, 0.0, -4.0])
    r = gpupy.roots(p)
    assert r.device == p.device
    numpy.testing.assert_allclose(numpy.sort(r.get()), [-2.0, 2.0])


def test_polyfit():
    x = numpy.linspace(-1, 2, 25)
    y = numpy.polyval([0.5, -1.0, 2.0, 0.25], x) + 0.01 * rs.randn(25)
    y2 = numpy.stack([y, 2 * y - 1], axis=1)
    w = rs.rand(25) + 0.5

    @testing.numpy_gpupy_allclose(rtol=1e-9, atol=1e-12, type_check=False)
    def body(xp):
        a, b, b2, ww = xp.asarray(x), xp.asarray(y), xp.asarray(y2), xp.asarray(w)
        c, res, rank, sv, rc = xp.polyfit(a, b, 3, full=True)
        return (
            xp.polyfit(a, b, 3),
            xp.polyfit(a, b2, 2),
            xp.polyfit(a, b, 2, w=ww),
            *xp.polyfit(a, b, 3, cov=True),
            *xp.polyfit(a, b2, 1, cov=True),
            *xp.polyfit(a, b, 2, w=ww, cov="unscaled"),
            c,
            res,
            int(rank),
            sv,
            float(rc),
            xp.polyfit([0, 1, 2], [1, 3, 5], 1),
        )

    body()


def test_polyfit_rank_warning_and_errors():
    with pytest.warns(numpy.exceptions.RankWarning):
        gpupy.polyfit(gpupy.asarray([1.0, 1.0, 1.0]), gpupy.asarray([1.0, 2.0, 3.0]), 2)
    x = gpupy.asarray([0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match=r"\[polyfit\] expected deg >= 0"):
        gpupy.polyfit(x, x, -1)
    with pytest.raises(TypeError, match=r"\[polyfit\] expected 1D vector for x"):
        gpupy.polyfit(gpupy.ones((3, 1)), x, 1)
    with pytest.raises(TypeError, match=r"\[polyfit\] expected non-empty vector"):
        gpupy.polyfit(gpupy.ones(0), gpupy.ones(0), 1)
    with pytest.raises(TypeError, match=r"\[polyfit\] expected x and y to have same length"):
        gpupy.polyfit(x, gpupy.ones(4), 1)
    with pytest.raises(TypeError, match=r"\[polyfit\] expected w and y to have the same"):
        gpupy.polyfit(x, x, 1, w=gpupy.ones(2))
    with pytest.raises(ValueError, match=r"\[polyfit\] the number of data points must exceed"):
        gpupy.polyfit(x, x, 2, cov=True)


def test_errors():
    with pytest.raises(ValueError, match=r"\[polyder\] Order of derivative must be positive"):
        gpupy.polyder([1, 2], -1)
    with pytest.raises(ValueError, match=r"\[polyint\] Order of integral must be positive"):
        gpupy.polyint([1, 2], -1)
    with pytest.raises(ValueError, match=r"\[polyint\] k must be a scalar"):
        gpupy.polyint([1, 2], 3, k=[1.0, 2.0])
    with pytest.raises(ValueError, match=r"\[poly\] input must be 1d or non-empty square"):
        gpupy.poly(gpupy.ones((2, 3)))
    with pytest.raises(ValueError, match=r"\[roots\] Input must be a rank-1 array"):
        gpupy.roots(gpupy.ones((2, 2)))
    with pytest.raises(ValueError, match=r"\[polyadd\]"):
        gpupy.polyadd(gpupy.ones((2, 2)), gpupy.ones((3, 2)))  # only 1-D inputs are padded


def test_numpy_dispatch_reaches_gpupy():
    p = gpupy.asarray([1.0, -3.0, 2.0])
    for out in (
        numpy.poly(p),
        numpy.roots(p),
        numpy.polyadd(p, p),
        numpy.polysub(p, p),
        numpy.polymul(p, p),
        numpy.polyder(p),
        numpy.polyint(p),
        numpy.polyval(p, p),
        numpy.polyfit(p, p, 1),
        *numpy.polydiv(p, p),
    ):
        assert isinstance(out, gpupy.ndarray)


def test_poly_infinite_and_signed_zero_roots():
    """Each factor (x - z) is a two-term convolution without a 0 * z product: an infinite root
    gives NumPy's alternating infinities, and zero coefficients come out as +0."""
    for zeros in ([1.0, numpy.inf, 2.0], [0.0, -0.0, 1.0], [1j, 2.0]):

        @testing.numpy_gpupy_allclose(rtol=1e-15)
        def body(xp, zeros=zeros):
            return xp.poly(xp.asarray(zeros))

        body()
        signs = numpy.signbit(numpy.real(gpupy.poly(zeros).get()))
        numpy.testing.assert_array_equal(signs, numpy.signbit(numpy.real(numpy.poly(zeros))))


def test_roots_and_poly_of_nonfinite_coefficients():
    """NumPy's LinAlgError from the eigenvalue step, named after the call."""
    with pytest.raises(numpy.linalg.LinAlgError, match=r"^\[roots\] .*infs or NaNs"):
        gpupy.roots([1.0, numpy.nan, 2.0])
    with pytest.raises(numpy.linalg.LinAlgError, match=r"^\[poly\] .*infs or NaNs"):
        gpupy.poly([[1.0, numpy.inf], [0.0, 1.0]])
    with pytest.raises(numpy.linalg.LinAlgError):
        numpy.roots([1.0, numpy.nan, 2.0])


def test_polydiv_scales_in_the_divisors_precision():
    """NumPy forms 1 / v[0] in v's dtype (float32 here) before dividing float64 coefficients."""
    u = numpy.array([1.3, 2.7, 3.1, 4.9, 0.3])
    v = numpy.array([3.3, 1.7], numpy.float32)

    @testing.numpy_gpupy_allclose(rtol=1e-15)
    def body(xp):
        return xp.polydiv(xp.asarray(u), xp.asarray(v))

    body()


def test_polyfit_full_rank_is_numpys_int32():
    rank = gpupy.polyfit([1.0, 2.0, 3.0], [1.0, 2.0, 3.5], 1, full=True)[2]
    ref = numpy.polyfit([1.0, 2.0, 3.0], [1.0, 2.0, 3.5], 1, full=True)[2]
    assert type(rank) is type(ref) and rank == ref == 2


def test_polydiv_of_empty_coefficients():
    """NumPy fails indexing the empty operand's leading coefficient (IndexError)."""
    for u, v in (([], [1.0, 2.0]), ([1.0, 2.0], [])):
        with pytest.raises(IndexError, match=r"^\[polydiv\] .*must not be empty"):
            gpupy.polydiv(u, v)
        with pytest.raises(IndexError):
            numpy.polydiv(u, v)
