"""gpupy.polynomial.Polynomial against numpy.polynomial.Polynomial on the selected device."""

import gpupy
import numpy
import pytest
from gpupy import testing
from test_polynomial import _coeffs, _tol

rs = numpy.random.RandomState(17)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "float32", "float64", "complex128"])
def test_construction_and_evaluation(dtype):
    a = _coeffs(4, dtype)
    x = rs.randn(2, 3).astype("float32" if dtype == "float32" else "float64")

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        P = xp.polynomial.Polynomial
        p = P(xp.asarray(a), domain=[0, 2], window=[-1, 3])
        assert p.degree() == len(p) - 1 == 3 and p.symbol == "x"
        return (
            p.coef,
            p.domain,
            p.window,
            p(xp.asarray(x)),
            p(2),
            p([1, 2]),
            P(a)(xp.asarray(x)),
            P(3).coef,
            P([1, 2, 0, 0]).coef,
            *p.linspace(5),
            *p.linspace(3, domain=[-1, 1]),
        )

    body()


@pytest.mark.parametrize("dtype", ["int64", "float32", "float64", "complex128"])
def test_arithmetic(dtype):
    a, b = _coeffs(4, dtype), _coeffs(2, dtype)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        P = xp.polynomial.Polynomial
        p, q = P(xp.asarray(a), domain=[0, 3]), P(xp.asarray(b), domain=[0, 3])
        d = P([2.0, 1.0], domain=[0, 3])  # exact in binary: remainders agree exactly
        results = [p + q, q + p, p + 2, 3 + p, p - q, 1 - p, p - p, p * q, 2 * p, p * [1, 0, 1]]
        results += [-p, +p, p**0, p**3, p / 2, p // d, p % d, *divmod(p, d), [1, 2, 3] // d]
        results += [*divmod(p, 2)]
        return [r.coef for r in results] + [r.domain for r in results[:2]]

    body()


@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128"])
def test_calculus_and_roots(dtype):
    a = _coeffs(5, dtype)

    @testing.numpy_gpupy_allclose(rtol=1e-9)
    def body(xp):
        p = xp.polynomial.Polynomial(xp.asarray(a), domain=[1, 4])
        return (
            p.deriv().coef,
            p.deriv(3).coef,
            p.deriv(7).coef,
            p.integ().coef,
            p.integ(2, k=[1.0, -2.0], lbnd=0.5).coef,
            p.integ(k=3).coef,
            p.roots(),
            xp.polynomial.Polynomial([2.0, -3.0, 1.0]).roots(),
            xp.polynomial.Polynomial([5.0]).roots(),
        )

    body()


def test_fit_and_shape():
    x = numpy.linspace(-2, 5, 30)
    y = 1.0 - 2.0 * x + 0.5 * x**3 + 0.01 * rs.randn(30)
    w = rs.rand(30) + 0.5

    @testing.numpy_gpupy_allclose(rtol=1e-8, atol=1e-12)
    def body(xp):
        P = xp.polynomial.Polynomial
        f = P.fit(xp.asarray(x), xp.asarray(y), 3)
        g = P.fit(xp.asarray(x), xp.asarray(y), 2, domain=[-2, 2], window=[0, 1], w=xp.asarray(w))
        h, (resid, rank, sv, rcond) = P.fit(xp.asarray(x), xp.asarray(y), 3, full=True)
        e = P.fit(x, y, 1, domain=[])
        p = P([1.0, 2.0, 1e-9, 0.0])
        return (
            f.coef,
            f.domain,
            f(xp.asarray(x)),
            g.coef,
            g.domain,
            g.window,
            h.coef,
            resid,
            sv,
            e.coef,
            e.domain,
            p.trim().coef,
            p.trim(1e-6).coef,
            p.truncate(2).coef,
            p.cutdeg(0).coef,
            p.copy().coef,
        )

    body()
    assert rank_of(numpy) == rank_of(gpupy) == 4


def test_convert_to_the_default_and_other_domains():
    # Polynomial.fit(x, y, deg).convert().coef: the coefficients in x itself
    x = numpy.linspace(-2, 5, 30)
    y = 1.0 - 2.0 * x + 0.5 * x**3 + 0.01 * rs.randn(30)

    @testing.numpy_gpupy_allclose(rtol=1e-8, atol=1e-10)
    def body(xp):
        P = xp.polynomial.Polynomial
        f = P.fit(xp.asarray(x), xp.asarray(y), 3)
        c = f.convert()
        return (
            c.coef,
            c.domain,
            c.window,
            c(xp.asarray(x)),
            f.convert(domain=[0, 1]).coef,
            f.convert(window=[0, 1]).coef,
            f.convert(domain=[0, 1], window=[-2, 2]).coef,
            P([5.0], domain=[0, 2]).convert().coef,
        )

    body()
    with pytest.raises(TypeError, match=r"^\[Polynomial.convert\] kind must be a gpupy"):
        gpupy.polynomial.Polynomial([1.0]).convert(kind=numpy.polynomial.Chebyshev)


def rank_of(xp):
    x = xp.asarray(numpy.linspace(0, 1, 10))
    return xp.polynomial.Polynomial.fit(x, x * x, 3, full=True)[1][1]


def test_equality_and_printing():
    P = gpupy.polynomial.Polynomial
    p = P([1, 2, 3], domain=[0, 1])
    assert p == P([1.0, 2.0, 3.0], domain=[0, 1]) and not p != p.copy()
    assert p != P([1, 2, 3]) and p != P([1, 2, 3, 0], domain=[0, 1]) and p != [1, 2, 3]
    with pytest.raises(TypeError):
        hash(p)
    for c, kw in (([1, 2, 3], {}), ([1.5, 0, -2.25], {"domain": [0, 4]}), ([1j, 2], {})):
        g, n = P(c, **kw, symbol="t"), numpy.polynomial.Polynomial(c, **kw, symbol="t")
        assert str(g) == str(n)
        if g.coef.device == gpupy.Device("cpu"):
            assert repr(g) == repr(n)
        else:
            assert repr(g) == repr(n)[:-1] + f", device='{g.coef.device}')"
    # NumPy arrays defer to the Polynomial's operators.
    testing.assert_same(numpy.array([2.0, 2.0, 3.0]), (numpy.array([1.0]) + P([1, 2, 3])).coef)


def test_errors():
    P = gpupy.polynomial.Polynomial
    p = P([1, 2])
    cases = [
        (ValueError, r"Coefficient array is not 1-d", lambda: P([[1, 2]])),
        (ValueError, r"Coefficient array is empty", lambda: P([])),
        (ValueError, r"Coefficient arrays have no common type", lambda: P([True])),
        (ValueError, r"Domain has wrong number of elements", lambda: P([1], domain=[1])),
        (ValueError, r"Symbol string must be", lambda: P([1], symbol="1x")),
        (TypeError, r"Domains differ", lambda: p + P([1], domain=[0, 1])),
        (TypeError, r"Windows differ", lambda: p * P([1], window=[0, 1])),
        (ValueError, r"symbols differ", lambda: p - P([1], symbol="y")),
        (TypeError, r"unsupported types for true division", lambda: p / p),
        (ZeroDivisionError, r"division by zero", lambda: p / 0),
        (ValueError, r"Power must be a non-negative integer", lambda: p**-1),
        (ValueError, r"Power must be a non-negative integer", lambda: p**1.5),
        (ValueError, r"Power is too large", lambda: p**101),
        (ZeroDivisionError, r"division by zero", lambda: p // P([0.0])),
        (ValueError, r"order of derivation must be non-negative", lambda: p.deriv(-1)),
        (ValueError, r"order of integration must be non-negative", lambda: p.integ(-1)),
        (ValueError, r"Too many integration constants", lambda: p.integ(1, k=[1, 2])),
        (ValueError, r"size must be a positive integer", lambda: p.truncate(0)),
        (TypeError, r"deg must be an int or non-empty", lambda: P.fit([0, 1], [0, 1], [[1]])),
        (TypeError, r"Polynomial types differ", lambda: p + gpupy.polynomial.Chebyshev([1])),
        (ValueError, r"deg must be non-negative integer", lambda: P.basis(-1)),
    ]
    for exc, msg, call in cases:
        # the class's own checks name the class; those of its basis functions name them
        with pytest.raises(exc, match=r"^\[(Polynomial(\.\w+)?|poly\w+)\] .*" + msg):
            call()
    # The same cases raise the same exception types in NumPy (fit's degree list aside).
    N = numpy.polynomial.Polynomial
    for call in (lambda: N([[1, 2]]), lambda: N([1]) + N([1], domain=[0, 1]), lambda: N([1]) ** -1):
        with pytest.raises((ValueError, TypeError)):
            call()
