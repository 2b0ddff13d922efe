"""gpupy.polynomial.polynomial and gpupy.polynomial.polyutils against NumPy's modules: the
arithmetic, calculus, roots, Vandermonde matrices and fits of power series, on float64, float32,
complex and integer coefficients, multi-dimensional coefficients, edge cases and errors."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

DTYPES = ["int64", "float32", "float64", "complex128"]
rng = np.random.default_rng(11)


def _coef(n, dtype, seed=0):
    r = np.random.default_rng(seed)
    c = r.integers(-5, 6, n) if dtype == "int64" else r.normal(size=n)
    if dtype.startswith("complex"):
        c = c + 1j * r.normal(size=n)
    c = np.asarray(c).astype(dtype)
    c[-1] = c[-1] if c[-1] != 0 else 3  # a nonzero leading term
    return c


def _tol(dtype):
    return 2e-5 if dtype in ("float32", "complex64") else 1e-10


def _on_device(xp, *results):
    """gpupy's array results live on the test's device."""
    if xp is gpupy:
        for r in results:
            if isinstance(r, (list, tuple)):
                _on_device(xp, *r)
            elif not isinstance(r, (int, float, np.generic)):
                assert isinstance(r, gpupy.ndarray) and r.device == gpupy.Device(
                    gpupy._core.default_device().type
                ), r
    return results


def P(xp):
    return xp.polynomial.polynomial


@pytest.mark.parametrize("dtype", DTYPES)
def test_arithmetic(dtype):
    a, b = _coef(5, dtype, 1), _coef(3, dtype, 2)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, A, B = P(xp), xp.asarray(a), xp.asarray(b)
        return _on_device(
            xp,
            p.polyadd(A, B),
            p.polyadd(B, A),
            p.polyadd(A, 2),
            p.polysub(A, B),
            p.polysub(B, A),
            p.polysub(A, A),  # all zeros: trimmed to one
            p.polymulx(A),
            p.polymulx([0]),
            p.polymul(A, B),
            p.polymul(A, [0]),
            p.polypow(B, 0),
            p.polypow(B, 1),
            p.polypow(B, 3),
            p.polypow(xp.asarray([1, 2, 0]), 2),
            p.polyadd([1, 0, 0], [0, 0]),
        )

    body()


@pytest.mark.parametrize("dtype", DTYPES)
def test_division(dtype):
    a = _coef(6, dtype, 3)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype) * 10, atol=1e-12)
    def body(xp):
        p, A = P(xp), xp.asarray(a)
        d = xp.asarray(np.array([2.0, -1.0, 1.0]).astype(dtype))  # monic-ish: stable quotient
        return _on_device(
            xp,
            *p.polydiv(A, d),
            *p.polydiv(d, A),  # a lower degree numerator
            *p.polydiv(A, xp.asarray(np.array([4]).astype(dtype))),
            *p.polydiv(p.polymul(A, d), d),  # exact: zero remainder
            *p.polydiv([1, 2, 3, 0, 0], [1, 1, 0]),  # trailing zeros trimmed first
        )

    body()


@pytest.mark.parametrize("dtype", DTYPES)
def test_derivative(dtype):
    a = _coef(5, dtype, 4)
    m2 = np.arange(12).reshape(3, 4).astype(dtype)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, A, M = P(xp), xp.asarray(a), xp.asarray(m2)
        return _on_device(
            xp,
            p.polyder(A),
            p.polyder(A, 0),
            p.polyder(A, 2, scl=0.5),
            p.polyder(A, 4),
            p.polyder(A, 5),  # m >= len: zero
            p.polyder(A, 9),
            p.polyder(M),
            p.polyder(M, 2, scl=3, axis=1),
            p.polyder(M, axis=-1),
            p.polyder(xp.asarray(5.0)),  # degree 0
        )

    body()


@pytest.mark.parametrize("dtype", DTYPES)
def test_integral(dtype):
    a = _coef(4, dtype, 5)
    m2 = np.arange(6).reshape(2, 3).astype(dtype)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, A, M = P(xp), xp.asarray(a), xp.asarray(m2)
        return _on_device(
            xp,
            p.polyint(A),
            p.polyint(A, 0),
            p.polyint(A, 1, k=3),
            p.polyint(A, 2, k=[1, -2], lbnd=0.5),
            p.polyint(A, 3, k=[1], lbnd=-1, scl=2),
            p.polyint([0]),  # the zero series
            p.polyint([0, 0], 2, k=[1, 2]),
            p.polyint(M),
            p.polyint(M, 2, k=[1, 2], lbnd=1, scl=0.5, axis=1),
            p.polyint(M, axis=-2),
            p.polyder(p.polyint(A, 3), 3),  # round trip
        )

    body()


@pytest.mark.parametrize("dtype", DTYPES)
def test_values(dtype):
    a = _coef(4, dtype, 6)
    r = np.array([1.0, -2.0, 0.5]).astype(dtype)
    m2 = np.arange(12).reshape(3, 4).astype(dtype)
    x = np.linspace(-2, 2, 6).reshape(2, 3)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, A, X, M = P(xp), xp.asarray(a), xp.asarray(x), xp.asarray(m2)
        return _on_device(
            xp,
            p.polyval(X, A),
            p.polyval(1.5, A),
            p.polyval(X, M),
            p.polyval(xp.asarray([1.0, 2, 3, 4]), M, tensor=False),
            p.polyvalfromroots(X, xp.asarray(r)),
            p.polyvalfromroots(2.0, xp.asarray(r)),
            p.polyvalfromroots(X, M),
            p.polyvalfromroots(xp.asarray([1.0, 2, 3, 4]), M, tensor=False),
        )

    body()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
def test_roots_companion_fromroots(dtype):
    roots = np.array([-2.0, 0.5, 1.0, 3.0]).astype(dtype)
    if dtype == "complex128":
        roots = roots + 1j * np.array([0, 1, -1, 0.5])
    tol = 1e-4 if dtype == "float32" else 1e-9

    @testing.numpy_gpupy_allclose(rtol=tol, atol=tol)
    def body(xp):
        p, R = P(xp), xp.asarray(roots)
        c = p.polyfromroots(R)
        return _on_device(
            xp,
            c,
            p.polycompanion(c),
            p.polycompanion(xp.asarray(np.array([1, 2]).astype(dtype))),
            p.polyroots(c),
            p.polyroots(xp.asarray(np.array([1, 2]).astype(dtype))),
            p.polyroots(xp.asarray(np.array([5]).astype(dtype))),
            p.polyfromroots([]),
            p.polyfromroots(R[:1]),
            p.polyroots([0.0, 0.0, 1.0]),  # a double root at 0
        )

    body()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
def test_vander(dtype):
    x = np.linspace(-1, 2, 5).astype(dtype)
    y = np.linspace(0, 1, 5).astype(dtype)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype))
    def body(xp):
        p, X, Y = P(xp), xp.asarray(x), xp.asarray(y)
        return _on_device(
            xp,
            p.polyvander(X, 3),
            p.polyvander(X, 0),
            p.polyvander(X.reshape(5, 1), 2),
            p.polyvander(2, 3),
            p.polyvander([1, 2], 2),
            p.polyvander2d(X, Y, [2, 1]),
            p.polyvander3d(X, Y, X, [1, 2, 0]),
            p.polyvander2d(1.0, 2, [1, 1]),
        )

    body()


def test_vander_matches_values():
    # polyvander2d(x, y, deg) @ c.flat == polyval2d(x, y, c)
    x, y = (gpupy.asarray(rng.normal(size=7)) for _ in range(2))
    c = gpupy.asarray(rng.normal(size=(3, 2)))
    p = gpupy.polynomial.polynomial
    expected = p.polyval2d(x, y, c).get()
    testing.assert_same(expected, p.polyvander2d(x, y, [2, 1]) @ c.reshape(-1), rtol=1e-10)


def test_fit_rank_warning():
    x = gpupy.asarray([0.0, 1.0, 2.0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gpupy.polynomial.polynomial.polyfit(x, x, 5)
    assert any(issubclass(w.category, np.exceptions.RankWarning) for w in caught)


def test_constants_and_class():
    p = gpupy.polynomial.polynomial
    for name in ("polydomain", "polyzero", "polyone", "polyx"):
        testing.assert_same(getattr(np.polynomial.polynomial, name), getattr(p, name))
    assert p.Polynomial is gpupy.polynomial.Polynomial
    assert p.polytrim is gpupy.polynomial.polyutils.trimcoef
    assert set(np.polynomial.polynomial.__all__) <= set(p.__all__)


@testing.numpy_gpupy_allclose()
def test_line_and_trim(xp):
    p = P(xp)
    return _on_device(
        xp,
        p.polyline(1, 2),
        p.polyline(1, 0),
        p.polyline(1.5, -2),
        p.polyline(xp.asarray(2.0), 1),
        p.polytrim(xp.asarray([1.0, 1e-5, 0, 1e-4, 0]), 1e-4),
        p.polytrim([0, 0], 1),
        p.polytrim([3, 0, 5, 0, 0]),
        p.polytrim(xp.asarray([3e-4, 1e-3 * (1 - 1j), 5e-4, 2e-5 * (1 + 1j)]), 1e-3),
    )


@testing.numpy_gpupy_allclose()
def test_polyutils(xp):
    pu = xp.polynomial.polyutils
    x = xp.asarray([3.0, -1.0, 2.0])
    z = xp.exp(1j * xp.asarray([0.0, 1.0, 2.0, 3.0]))
    return _on_device(
        xp,
        pu.as_series([xp.asarray([1, 2, 0]), [1.5, 0]]),
        pu.as_series([xp.asarray([1, 2, 0]), [1.5, 0]], trim=False),
        pu.as_series(xp.asarray(np.arange(6.0).reshape(2, 3))),
        pu.as_series([xp.asarray([1, 2], dtype="float32"), xp.asarray([1j])]),
        pu.trimseq(xp.asarray([1.0, 0, 2, 0, 0])),
        pu.trimseq(xp.asarray([0.0, 0])),
        pu.trimcoef(xp.asarray([1.0, 0, 2, 0, 0])),
        pu.getdomain(x),
        pu.getdomain(z),
        pu.getdomain([1, 5, 2]),
        pu.mapdomain(x, [-1, 3], [0, 1]),
        pu.mapdomain(x.astype("float32"), [-1, 3], [0, 1]),
        pu.mapdomain(2.0, [-1, 3], [0, 1]),
        list(pu.mapparms([-1, 3], [0, 1])),
    )


def test_polyutils_format_float():
    values = [0.5, 1e20, -2.25e-7, float("nan"), 1e-20]
    want = [np.polynomial.polyutils.format_float(v, parens=True) for v in values]
    pu = gpupy.polynomial.polyutils
    assert [pu.format_float(v, parens=True) for v in values] == want
    assert pu.format_float(gpupy.asarray(1e20)) == "1.0e+20"


ERRORS = [
    ("polyadd", ([], [1]), "Coefficient array is empty"),
    ("polysub", ([[1, 2]], [1]), "Coefficient array is not 1-d"),
    ("polymul", ([True], [1]), "Coefficient arrays have no common type"),
    ("polydiv", ([1, 2], [0]), "division by zero"),
    ("polypow", ([1, 2], -1), "Power must be a non-negative integer"),
    ("polypow", ([1, 2], 1.5), "Power must be a non-negative integer"),
    ("polypow", ([1, 2], 5, 4), "Power is too large"),
    ("polyder", ([1, 2], -1), "order of derivation must be non-negative"),
    ("polyder", ([1, 2], 1.5), "order of derivation must be an integer"),
    ("polyder", ([1, 2], 1, 1, 1), "out of bounds"),
    ("polyder", ([1, 2], 1, 1, 0.5), "the axis must be an integer"),
    ("polyint", ([1, 2], -1), "order of integration must be non-negative"),
    ("polyint", ([1, 2], 1, [1, 2]), "Too many integration constants"),
    ("polyint", ([1, 2], 1, [], [1, 2]), "lbnd must be a scalar"),
    ("polyint", ([1, 2], 1, [], 0, [1, 2]), "scl must be a scalar"),
    ("polyvander", ([1, 2], -1), "deg must be non-negative"),
    ("polyvander", ([1, 2], 1.5), "deg must be an integer"),
    ("polyvander2d", ([1.0], [2.0], [1]), "Expected 2 dimensions of degrees"),
    ("polyvalfromroots", ([[1.0]], [1.0], False), "x.ndim must be < r.ndim"),
    ("polyval2d", ([1.0, 2.0], [1.0], [[1.0]]), "x, y are incompatible"),
    ("polycompanion", ([1],), "Series must have maximum degree of at least 1"),
    ("polyfit", ([0.0, 1], [0.0, 1], -1), "expected deg >= 0"),
    ("polyfit", ([0.0, 1], [0.0, 1], 1.5), "deg must be an int or non-empty 1-D array of int"),
    ("polyfit", ([0.0, 1], [0.0, 1], []), "deg must be an int or non-empty 1-D array of int"),
    ("polyfit", ([[0.0, 1]], [0.0, 1], 1), "expected 1D vector for x"),
    ("polyfit", ([], [], 1), "expected non-empty vector for x"),
    ("polyfit", ([0.0, 1], [[[0.0]]], 1), "expected 1D or 2D array for y"),
    ("polyfit", ([0.0, 1], [0.0, 1, 2], 1), "expected x and y to have same length"),
    ("polyfit", ([0.0, 1], [0.0, 1], 1, None, False, [[1.0]]), "expected 1D vector for w"),
    ("polyfit", ([0.0, 1], [0.0, 1], 1, None, False, [1.0]), "expected x and w to have same"),
]


@pytest.mark.parametrize("name, args, message", ERRORS, ids=[f"{e[0]}-{e[2]}" for e in ERRORS])
def test_errors(name, args, message):
    np_fn = getattr(np.polynomial.polynomial, name)
    with pytest.raises(Exception) as np_exc:
        np_fn(*args)
    gp_args = [
        gpupy.asarray(a) if isinstance(a, list) and a and name != "polyint" else a for a in args
    ]
    with pytest.raises(np_exc.type, match=rf"^\[{name}\] .*{message}"):
        getattr(gpupy.polynomial.polynomial, name)(*gp_args)


@pytest.mark.parametrize("name", ["trimcoef", "as_series"])
def test_polyutils_errors(name):
    pu = gpupy.polynomial.polyutils
    with pytest.raises(ValueError, match=rf"^\[{name}\] "):
        pu.trimcoef([1.0], -1) if name == "trimcoef" else pu.as_series([[]])


def test_numpy_constants_mix_with_any_device():
    c = gpupy.asarray([1.0, 2.0])
    p = gpupy.polynomial.polynomial
    out = p.polyadd(c, p.polyx)
    assert out.device == c.device
    testing.assert_same(np.array([1.0, 3.0]), out)


@pytest.mark.parametrize("dtype", ["float16", "complex64", "int8", "uint16", "bool"])
@testing.numpy_gpupy_allclose(rtol=2e-3)
def test_other_coefficient_dtypes(dtype, xp):
    p = P(xp)
    c = xp.asarray(np.array([1, 0, 1, 1]).astype(dtype))
    x = xp.asarray(np.array([0.5, -1.0]).astype("float16" if dtype == "float16" else "float64"))
    out = [p.polyval(x, c), p.polyder(c), p.polyint(c), p.polyvander(x, 2)]
    if dtype != "bool":  # boolean series have no common type (a ValueError in both)
        out += [p.polyadd(c, c), p.polymul(c, c), p.polymulx(c), *p.polydiv(c, c[:2])]
    return out


@testing.numpy_gpupy_allclose()
def test_array_constants_and_empty_points(xp):
    p = P(xp)
    c = xp.asarray([1.0, 2.0, 3.0])
    empty = xp.asarray(np.zeros((0,)))
    return [
        p.polyint(c, 2, k=xp.asarray([1.0, 2.0]), lbnd=xp.asarray(0.5), scl=xp.asarray(2.0)),
        p.polyder(c, scl=xp.asarray(3.0)),
        p.polyval(empty, c),
        p.polyvander(empty, 2),
        p.polyvalfromroots(empty, c),
        p.polyfromroots(empty),
    ]


def test_coefficients_gpupy_cannot_hold():
    from fractions import Fraction

    p = gpupy.polynomial.polynomial
    with pytest.raises(ValueError):  # NumPy's error too
        np.polynomial.polynomial.polyadd([1], ["a"])
    with pytest.raises(ValueError, match=r"^\[polyadd\] Coefficient arrays have no common type"):
        p.polyadd([1], ["a"])
    # NumPy computes with Python objects in object arrays; gpupy has none and says so
    with pytest.raises(TypeError, match=r"^\[polymul\] object coefficients are not supported"):
        p.polymul([Fraction(1, 2)], [1])
