"""gpupy.poly1d against numpy.poly1d on the selected device."""

import gpupy
import numpy
import pytest
from gpupy import testing

# Random coefficients of a dtype, and the comparison tolerance for it.
from test_polynomial import _coeffs, _tol

rs = numpy.random.RandomState(11)


@pytest.mark.parametrize("dtype", ["bool", "int32", "uint8", "float32", "float64", "complex128"])
def test_construction_and_attributes(dtype):
    a = numpy.concatenate([numpy.zeros(2, dtype), _coeffs(4, dtype)])
    order = len(a) - 1 - int(numpy.flatnonzero(a)[0])  # leading zeros are trimmed

    @testing.numpy_gpupy_allclose()
    def body(xp):
        p = xp.poly1d(xp.asarray(a))
        assert p.order == p.o == len(p) == order
        assert p.variable == "x"
        assert p.c is p.coef is p.coefficients is p.coeffs
        return p.coeffs, xp.poly1d(xp.poly1d(a)).coeffs

    body()


def test_construction_forms():
    @testing.numpy_gpupy_allclose()
    def body(xp):
        return (
            xp.poly1d(3).coeffs,
            xp.poly1d([0, 0]).coeffs,
            xp.poly1d(xp.asarray([], dtype="float32")).coeffs,
            xp.poly1d([1.0, -2.0, 3.0], r=True).coeffs,
            xp.poly1d(numpy.array([2, 5])).coeffs,
        )

    body()
    p = gpupy.poly1d([1, 2], variable="z")
    assert p.variable == "z" and gpupy.poly1d(p).variable == "z"
    assert isinstance(p.coeffs, gpupy.ndarray)
    assert p.coeffs.device == gpupy.asarray(0).device


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_evaluation(dtype):
    a = _coeffs(4, dtype)
    x = rs.randn(3, 2).astype("float32" if dtype == "float32" else "float64")

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p = xp.poly1d(xp.asarray(a))
        q = xp.poly1d([2, -1])
        return p(xp.asarray(x)), p(2), p(xp.asarray(1.5)), p(q).coeffs, q(p).coeffs, p([1, 2])

    body()


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_arithmetic(dtype):
    a, b = _coeffs(4, dtype), _coeffs(2, dtype)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, q = xp.poly1d(xp.asarray(a)), xp.poly1d(xp.asarray(b))
        # A divisor exact in binary, so float32 remainders are exact zeros for both libraries.
        d = xp.poly1d(xp.asarray([2, -1], dtype=a.dtype))
        quot, rem = p / d
        rquot, rrem = [1.0, 2.0, 3.0, 4.0, 5.0] / d
        return tuple(
            r.coeffs
            for r in (
                p + q,
                q + p,
                p + 2,
                3 + p,
                p + [1, 1],
                p - q,
                q - p,
                1 - p,
                p * q,
                p * 2,
                2 * p,
                p * [1, 0],
                [1, 0] * p,
                -p,
                +p,
                p**0,
                p**3,
                p / 2,
                quot,
                rem,
                rquot,
                rrem,
            )
        )

    body()


@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128"])
def test_calculus_and_roots(dtype):
    a = _coeffs(5, dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-9)
    def body(xp):
        p = xp.poly1d(xp.asarray(a))
        return (
            p.deriv().coeffs,
            p.deriv(2).coeffs,
            p.deriv(0).coeffs,
            p.integ().coeffs,
            p.integ(2, k=[1.0, 2.0]).coeffs,
            p.integ(m=1, k=3).coeffs,
            xp.sort(p.roots),
            xp.sort(p.r),
        )

    body()


def test_comparison_and_items():
    p, q = gpupy.poly1d([1, 2, 3]), numpy.poly1d([1, 2, 3])
    assert p == gpupy.poly1d([0, 1, 2, 3]) and not p != gpupy.poly1d([1, 2, 3])
    assert p != gpupy.poly1d([1, 2, 4]) and p != gpupy.poly1d([2, 3])
    assert (p == [1, 2, 3]) is False and p.__eq__([1, 2, 3]) is NotImplemented
    with pytest.raises(TypeError):
        hash(p)
    for k in (-1, 0, 1, 2, 3, 7):
        assert int(p[k]) == q[k]
    assert p[5].dtype == q[5].dtype
    assert [int(v) for v in p] == list(q)
    for key, val in ((0, 9), (1, 8), (5, 4)):
        p[key], q[key] = val, val
    testing.assert_same(q.coeffs, p.coeffs)
    with pytest.raises(ValueError, match=r"^\[poly1d\] Does not support negative powers"):
        p[-1] = 1
    c = p.coeffs
    p.coeffs *= 2
    assert p.coeffs is c
    with pytest.raises(AttributeError, match=r"^\[poly1d\]"):
        p.coeffs = gpupy.asarray([1, 2])


def test_printing():
    for c in ([1, 2, 3], [1.5, 0, -2.25], [1j, 2 + 3j, 0], [0], [-1, 0, 0, 4]):
        p, q = gpupy.poly1d(c, variable="t"), numpy.poly1d(c, variable="t")
        assert str(p) == str(q)
        if p.coeffs.device == gpupy.Device("cpu"):
            assert repr(p) == repr(q)
        else:
            assert repr(p) == repr(q)[:-1] + f", device='{p.coeffs.device}')"


def test_array_interface():
    p = gpupy.poly1d([1.0, 2.0])
    if p.coeffs.device == gpupy.Device("cpu"):
        testing.assert_same(numpy.array([1.0, 2.0]), numpy.asarray(p))
    else:
        with pytest.raises(TypeError):
            numpy.asarray(p)


def test_errors():
    with pytest.raises(ValueError, match=r"^\[poly1d\] Polynomial must be 1d only"):
        gpupy.poly1d([[1, 2], [3, 4]])
    p = gpupy.poly1d([1, 2])
    for bad in (-1, 1.5, p, 2j):
        with pytest.raises(ValueError, match=r"^\[poly1d\] Power to non-negative integers"):
            p**bad
    with pytest.raises(ValueError, match=r"^\[polyder\]"):
        p.deriv(-1)
    with pytest.raises(ValueError, match=r"^\[polyint\]"):
        p.integ(-1)


def test_polynomial_functions_take_poly1d():
    a = _coeffs(4, "float64")

    @testing.numpy_gpupy_allclose(rtol=1e-12)
    def body(xp):
        p, q = xp.poly1d(xp.asarray(a)), xp.poly1d([1.0, -2.0])
        results = [xp.polyadd(p, q), xp.polyadd([1.0], q), xp.polysub(p, [1.0, 1.0])]
        results += [xp.polymul(q, p), *xp.polydiv(p, q), xp.polyder(p, 2), xp.polyint(q, 2, k=1)]
        results += [xp.polyval([2.0, 0.0, 1.0], q), xp.polyval(p, q)]
        assert all(isinstance(r, xp.poly1d) for r in results)
        values = [xp.polyval(p, xp.asarray([0.5, 2.0])), xp.polyval(p, 3), xp.sort(xp.roots(p))]
        assert not any(isinstance(v, xp.poly1d) for v in values)
        return [r.coeffs for r in results] + values + [xp.polyadd([1.0], [2.0])]

    body()


@pytest.mark.parametrize("dtype", ["int8", "uint32", "float32", "complex128"])
@testing.numpy_gpupy_allclose()
def test_asarray_of_a_poly1d_is_its_coefficients(dtype, xp):
    # on every device (its __array__, the way gpupy.asarray took, is refused on emu and cuda)
    p = xp.poly1d(xp.asarray(numpy.array([1, 2, 3], dtype=dtype)))
    return xp.asarray(p), xp.asarray(p, dtype="float64"), xp.array(p)
