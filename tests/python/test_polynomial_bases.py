"""The series modules of the other bases (gpupy.polynomial.chebyshev, ...) against NumPy's: the
same functions with the basis prefix, on float64, float32, complex and integer coefficients,
multi-dimensional coefficients, edge cases and errors; the basis-specific extras (conversion to
and from power series, Gauss quadrature, weights, Chebyshev points and interpolation)."""

import inspect
import math

import gpupy
import numpy as np
import pytest
from gpupy import testing
from hypothesis import given, settings
from hypothesis import strategies as st
from test_polynomial_module import _coef

BASES = [
    (name, prefix)
    for name, prefix in [
        ("chebyshev", "cheb"),
        ("legendre", "leg"),
        ("hermite", "herm"),
        ("hermite_e", "herme"),
        ("laguerre", "lag"),
    ]
    if hasattr(gpupy.polynomial, name)
]
BASIS_IDS = [b[1] for b in BASES]
WITH_POWER = [("polynomial", "poly"), *BASES]  # for the functions power series share
DTYPES = ["int64", "float32", "float64", "complex128"]


def _tol(dtype):
    return 5e-5 if dtype in ("float32", "complex64") else 1e-9


class _Basis:
    """fn("add") is chebadd / legadd / ... of numpy's or gpupy's module."""

    def __init__(self, xp, name, prefix):
        self.module = getattr(xp.polynomial, name)
        self.prefix = prefix

    def __call__(self, short):
        return getattr(self.module, self.prefix + short)


def _device_check(xp, results):
    if xp is gpupy:
        for r in results:
            if isinstance(r, (list, tuple)):
                _device_check(xp, r)
            elif not isinstance(r, (int, float, np.generic)):
                assert isinstance(r, gpupy.ndarray), r
                assert r.device.type == gpupy._core.default_device().type
    return results


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_arithmetic(name, prefix, dtype):
    a, b = _coef(5, dtype, 1), _coef(3, dtype, 2)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype), atol=1e-9)
    def body(xp):
        f, A, B = _Basis(xp, name, prefix), xp.asarray(a), xp.asarray(b)
        return _device_check(
            xp,
            [
                f("add")(A, B),
                f("add")(A, 2),
                f("sub")(A, B),
                f("sub")(B, A),
                f("sub")(A, A),
                f("mulx")(A),
                f("mulx")([0]),
                f("mul")(A, B),
                f("mul")(B, [0]),
                f("pow")(B, 0),
                f("pow")(B, 1),
                f("pow")(B, 3),
                *f("div")(A, B),
                *f("div")(B, A),
                *f("div")(A, xp.asarray(b[:1])),
                *f("div")(f("mul")(A, B), B),
                f("add")([1, 0, 0], [0, 0]),
            ],
        )

    body()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_calculus(name, prefix, dtype):
    a = _coef(6, dtype, 3)
    m2 = np.arange(12).reshape(4, 3).astype(dtype)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype), atol=1e-8)
    def body(xp):
        f, A, M = _Basis(xp, name, prefix), xp.asarray(a), xp.asarray(m2)
        der, integ = f("der"), f("int")
        return _device_check(
            xp,
            [
                der(A),
                der(A, 0),
                der(A, 2, scl=0.5),
                der(A, 5),
                der(A, 6),
                der(M),
                der(M, 2, scl=3, axis=1),
                der(M, axis=-2),
                der(xp.asarray(5.0)),
                integ(A),
                integ(A, 0),
                integ(A, 1, k=3),
                integ(A, 2, k=[1, -2], lbnd=0.5),
                integ(A, 3, k=[1], lbnd=-1, scl=2),
                integ([0]),
                integ([0, 0], 2, k=[1, 2]),
                integ(M, 2, k=[1, 2], lbnd=1, scl=0.5, axis=1),
                integ(M, axis=-2),
                der(integ(A, 3), 3),
            ],
        )

    body()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_values_and_vander(name, prefix, dtype):
    a = _coef(5, dtype, 4)
    m2 = np.arange(12).reshape(3, 4).astype(dtype)
    m3 = np.arange(12).reshape(3, 2, 2).astype(dtype)
    x = np.linspace(-1, 1.5, 6).reshape(2, 3)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype), atol=1e-9)
    def body(xp):
        f, A, X, M = _Basis(xp, name, prefix), xp.asarray(a), xp.asarray(x), xp.asarray(m2)
        val = f("val")
        X32 = X.astype("float32")
        return _device_check(
            xp,
            [
                val(X, A),
                val(0.5, A),
                val(X, A[:1]),
                val(X, A[:2]),
                val(X32, A),
                val(X, M),
                val(xp.asarray([1.0, 2, 3, 4]), M, tensor=False),
                f("val2d")(X, X, M),
                f("val3d")(X, X, X, xp.asarray(m3)),
                f("grid2d")(X[0], X[1], M),
                f("grid3d")(X[0], X[1, :2], X[0], xp.asarray(m3)),
                f("vander")(X, 4),
                f("vander")(X32, 0),
                f("vander")(X[0], 1),
                f("vander")(2.0, 3),
                f("vander2d")(X, X, [2, 1]),
                f("vander3d")(X[0], X[1], X[0], [1, 2, 1]),
            ],
        )

    body()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_roots(name, prefix, dtype):
    roots = np.array([-0.8, -0.1, 0.3, 0.9]).astype(dtype)
    if dtype == "complex128":
        roots = roots + 1j * np.array([0, 0.5, -0.5, 0.2])
    tol = 2e-3 if dtype == "float32" else 1e-7

    @testing.numpy_gpupy_allclose(rtol=tol, atol=tol)
    def body(xp):
        f, R = _Basis(xp, name, prefix), xp.asarray(roots)
        c = f("fromroots")(R)
        two = xp.asarray(np.array([1, 2]).astype(dtype))
        return _device_check(
            xp,
            [
                c,
                f("companion")(c),
                f("companion")(two),
                f("roots")(c),
                f("roots")(two),
                f("roots")(xp.asarray(np.array([5]).astype(dtype))),
                f("fromroots")([]),
                f("fromroots")(xp.zeros((0, 3))),  # no roots: NumPy reads only len()
                f("fromroots")(R[:1]),
                f("line")(1, 2),
                f("line")(1.5, 0),
                f("trim")(xp.asarray([1.0, 1e-9, 0.0]), 1e-8),
            ],
        )

    body()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("name, prefix", WITH_POWER, ids=[b[1] for b in WITH_POWER])
def test_fit(name, prefix, dtype):
    r = np.random.default_rng(5)
    x = np.linspace(-1, 1, 25)
    y = 1.0 - 2.0 * x + 0.5 * x**3 + 0.01 * r.normal(size=25)
    if dtype == "complex128":
        y = y + 1j * (0.5 * x**2)
    x, y = x.astype(dtype if dtype == "float32" else "float64"), y.astype(dtype)
    w = r.uniform(0.5, 1.5, 25)
    tol = 1e-3 if dtype == "float32" else 1e-8

    @testing.numpy_gpupy_allclose(rtol=tol, atol=tol)
    def body(xp):
        f, X, Y = _Basis(xp, name, prefix), xp.asarray(x), xp.asarray(y)
        fit = f("fit")
        c, (resid, rank, sv, rcond) = fit(X, Y, 3, full=True)
        assert int(rank) == 4
        return _device_check(
            xp,
            [
                fit(X, Y, 3),
                fit(X, Y, [0, 1, 3]),
                fit(X, Y, [3, 0]),
                fit(X, Y, 0),
                fit(X, xp.stack([Y, 2 * Y], axis=1), 2),
                fit(X, Y, 2, w=xp.asarray(w)),
                c,
                resid,
                sv,
                rcond,
            ],
        )

    body()


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128", "int64"])
@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_power_series_conversion(name, prefix, dtype):
    a = _coef(6, dtype, 6)

    @testing.numpy_gpupy_allclose(rtol=_tol(dtype), atol=1e-9)
    def body(xp):
        module, A = getattr(xp.polynomial, name), xp.asarray(a)
        to_poly, from_poly = getattr(module, f"{prefix}2poly"), getattr(module, f"poly2{prefix}")
        return _device_check(
            xp,
            [
                to_poly(A),
                to_poly(A[:1]),
                to_poly(A[:2]),
                from_poly(A),
                from_poly([0]),
                from_poly(to_poly(A)),
            ],
        )

    body()


@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_quadrature_and_weight(name, prefix):
    @testing.numpy_gpupy_allclose(rtol=1e-10, atol=1e-13)
    def body(xp):
        f = _Basis(xp, name, prefix)
        x = xp.asarray([-0.5, 0.1, 0.7])
        return _device_check(xp, [*f("gauss")(1), *f("gauss")(6), f("weight")(x)])

    body()


@pytest.mark.skipif(not hasattr(gpupy.polynomial, "chebyshev"), reason="no chebyshev")
def test_chebyshev_points_and_interpolation():
    @testing.numpy_gpupy_allclose(rtol=1e-10, atol=1e-13)
    def body(xp):
        ch = xp.polynomial.chebyshev
        return _device_check(
            xp,
            [
                ch.chebpts1(1),
                ch.chebpts1(6),
                ch.chebpts2(2),
                ch.chebpts2(7),
                ch.chebinterpolate(xp.exp, 5),
                ch.chebinterpolate(lambda x, a: a * x**2, 3, args=(2.0,)),
                ch.chebinterpolate(lambda x: [1.0, 2.0, 3.0, 4.0], 3),  # func gives a list
                xp.polynomial.Chebyshev.interpolate(xp.sin, 6, domain=[0, 2]).coef,
            ],
        )

    body()


def _errors():
    cases = []
    for name, prefix in BASES:
        cases += [
            (name, prefix + "add", ([], [1]), "Coefficient array is empty"),
            (name, prefix + "mul", ([[1, 2]], [1]), "Coefficient array is not 1-d"),
            (name, prefix + "div", ([1, 2], [0]), "division by zero"),
            (name, prefix + "pow", ([1, 2], 17), "Power is too large"),
            (name, prefix + "pow", ([1, 2], -1), "Power must be a non-negative integer"),
            (name, prefix + "der", ([1, 2], -1), "order of derivation must be non-negative"),
            (name, prefix + "der", ([1, 2], 1, 1, 1), "out of bounds"),
            (name, prefix + "int", ([1, 2], 1, [1, 2]), "Too many integration constants"),
            (name, prefix + "int", ([1, 2], 1.5), "order of integration must be an integer"),
            (name, prefix + "vander", ([1.0], -1), "deg must be non-negative"),
            (name, prefix + "val2d", ([1.0, 2.0], [1.0], [[1.0]]), "x, y are incompatible"),
            (name, prefix + "companion", ([1],), "maximum degree of at least 1"),
            (name, prefix + "fit", ([0.0, 1], [0.0, 1], 1.5), "deg must be an int"),
            (name, prefix + "gauss", (0,), "deg must be a positive integer"),
            (name, prefix + "fromroots", (2.0,), "must be a sequence"),
            (name, prefix + "fromroots", (np.ones((2, 0)),), "Coefficient array is empty"),
        ]
    if any(p == "cheb" for _, p in BASES):
        cases += [
            ("chebyshev", "chebpts1", (0,), "npts must be >= 1"),
            ("chebyshev", "chebpts2", (1.5,), "npts must be integer"),
            ("chebyshev", "chebinterpolate", (np.sin, -1), "expected deg >= 0"),
            ("chebyshev", "chebinterpolate", (np.sin, 1.5), "deg must be an int"),
        ]
    return cases


@pytest.mark.parametrize("module, fn, args, message", _errors(), ids=lambda v: str(v)[:24])
def test_errors(module, fn, args, message):
    with pytest.raises(Exception) as np_exc:
        getattr(getattr(np.polynomial, module), fn)(*args)
    with pytest.raises(np_exc.type, match=rf"^\[{fn}\] .*{message}"):
        getattr(getattr(gpupy.polynomial, module), fn)(*args)


def test_constants_and_names():
    for name, prefix in WITH_POWER:
        ours, theirs = getattr(gpupy.polynomial, name), getattr(np.polynomial, name)
        assert set(theirs.__all__) <= set(ours.__all__) <= set(dir(ours)), name
        # tab completion shows NumPy's names only; the functions take NumPy's arguments
        assert {n for n in dir(ours) if not n.startswith("_")} <= set(dir(theirs)), name
        for f in theirs.__all__:
            if callable(getattr(theirs, f)):
                sig = inspect.signature(getattr(theirs, f))
                assert inspect.signature(getattr(ours, f)) == sig, f
        for c in ("domain", "zero", "one", "x"):
            testing.assert_same(getattr(theirs, prefix + c), getattr(ours, prefix + c))
        assert getattr(ours, prefix + "add").__name__ == prefix + "add"
        assert math.isfinite(len(getattr(ours, prefix + "fit").__doc__))


@pytest.mark.parametrize("name, prefix", WITH_POWER, ids=[b[1] for b in WITH_POWER])
def test_derivative_beyond_the_degree_keeps_the_axis(name, prefix):
    # A derivative of order >= the length along `axis` is a zero series of length 1 there. NumPy
    # agrees, except hermeder, which returns it with `axis` moved to the front.
    c = gpupy.asarray(np.arange(6.0).reshape(2, 3))
    out = getattr(getattr(gpupy.polynomial, name), prefix + "der")(c, 3, axis=1)
    expected = np.polynomial.polynomial.polyder(np.arange(6.0).reshape(2, 3), 3, axis=1)
    testing.assert_same(expected, out)


def _other_device():
    here = gpupy._core.default_device().type
    other = "cpu" if here != "cpu" else "emu"
    try:
        gpupy.zeros(1, device=other)
    except (NotImplementedError, ValueError, RuntimeError):
        pytest.skip(f"no {other} device")
    return other


@pytest.mark.parametrize("name, prefix", WITH_POWER, ids=[b[1] for b in WITH_POWER])
def test_results_stay_on_the_arguments_device(name, prefix):
    # Lists and scalars among the arguments join the gpupy arrays' device, not the default one.
    other = _other_device()
    module = getattr(gpupy.polynomial, name)
    E = lambda v: gpupy.asarray(v, device=other)  # noqa: E731
    c, d, x = E([1.0, -2.0, 0.5, 3.0]), E([0.5, 1.0, 2.0]), E([0.1, 0.5, -0.3])
    M = E(np.arange(6.0).reshape(3, 2))
    calls = {
        "add": (c, [1, 2]),
        "sub": (list(c), d),  # a list of 0-d arrays of that device
        "mul": (c, d),
        "div": (c, d),
        "mulx": (c,),
        "pow": (d, 3),
        "der": (M, 2),
        "int": (M, 2, [1, 2], 0.5),
        "val": (x, c),
        "val2d": (x, x, M),
        "grid3d": (x, x, x, M.reshape(3, 2, 1)),
        "vander": (x, 3),
        "vander2d": (x, [1.0, 2.0, 3.0], [1, 2]),
        "fit": (x, [1.0, 2.0, 3.0], [0, 1]),
        "companion": (c,),
        "roots": (c,),
        "fromroots": (x,),
        "line": (c[0], 1),
        "trim": (c, 0.5),
    }
    results = [getattr(module, prefix + f)(*args) for f, args in calls.items()]
    if prefix != "poly":
        results += [getattr(module, f"{prefix}2poly")(c), getattr(module, f"poly2{prefix}")(c)]
    K = getattr(module, [n for n in module.__all__ if n[0].isupper()][0])
    p, q = K(c, domain=[0, 2]), K(d, domain=[0, 2])
    results += [p(x), p([0.5, 1.0]), p.deriv(), p.integ(1, [1], 0.5), p.roots(), p.linspace(3)]
    results += [r.coef for r in (*divmod(p, q), p**2, p + [1, 2], [1, 2] - p, 3 * p, p.trim(1))]
    results += [K.fit(x, [1.0, 2.0, 3.0], 1).coef, K.fromroots(x).coef]
    results += [p.convert(kind=gpupy.polynomial.Chebyshev).coef, divmod([1, 2, 3], q)[0].coef]
    flat = [r for item in results for r in (item if isinstance(item, (tuple, list)) else [item])]
    assert all(r.device.type == other for r in flat if isinstance(r, gpupy.ndarray)), flat


# exact zeros and values of moderate size (a tiny leading divisor would overflow both sides)
_finite = st.one_of(st.just(0.0), st.floats(0.125, 8), st.floats(-8, -0.125))


@pytest.mark.parametrize("name, prefix", WITH_POWER, ids=[b[1] for b in WITH_POWER])
@settings(max_examples=30, deadline=None)
@given(
    c1=st.lists(_finite, min_size=1, max_size=7),
    c2=st.lists(_finite, min_size=1, max_size=4),
    x=st.lists(st.floats(-1, 1, width=64), min_size=1, max_size=5),
    m=st.integers(0, 3),
)
def test_random_series_match_numpy(name, prefix, c1, c2, x, m):
    # Values are random, including exact zeros (trailing ones are trimmed) and all-zero series.
    theirs, ours = getattr(np.polynomial, name), getattr(gpupy.polynomial, name)

    def both(short, *args):
        expected = getattr(theirs, prefix + short)(*args)
        got = getattr(ours, prefix + short)(*(gpupy.asarray(a) for a in args[:2]), *args[2:])
        return expected, got

    for short, args in [
        ("add", (c1, c2)),
        ("sub", (c1, c2)),
        ("mul", (c1, c2)),
        ("mulx", (c1,)),
        ("der", (c1, m)),
        ("int", (c1, m, [1.0] * m, 0.5)),
        ("val", (x, c1)),
        ("vander", (x, m)),
    ]:
        expected, got = both(short, *args)
        scale = max(1.0, float(np.abs(expected).max(initial=0)))
        testing.assert_same(expected, got, rtol=1e-9, atol=1e-9 * scale)
    if any(c2):  # a zero divisor raises ZeroDivisionError in both (test_errors)
        for e, g in zip(*both("div", c1, c2), strict=True):
            scale = max(1.0, float(np.abs(e).max(initial=0)))
            testing.assert_same(e, g, rtol=1e-7, atol=1e-7 * scale)


@pytest.mark.parametrize("name, prefix", BASES, ids=BASIS_IDS)
def test_recurrences_read_back_a_fixed_number_of_values(name, prefix, monkeypatch):
    # Products, quotients, conversions and products of roots trim once at the end (each trim
    # reads one index back), not at every step as NumPy does: on cuda every read waits.
    from gpupy.polynomial import polyutils

    reads = []
    original = polyutils._last_true
    monkeypatch.setattr(polyutils, "_last_true", lambda m: reads.append(1) or original(m))
    module = getattr(gpupy.polynomial, name)
    c = gpupy.asarray(np.linspace(1.0, 2.0, 20))
    calls = [("mul", (c, c)), ("2poly", (c,)), ("poly2", (c,)), ("fromroots", (c,))]
    calls += [("div", (c, c[:5])), ("pow", (c[:4], 6))]
    for f, args in calls:
        reads.clear()
        getattr(module, f"poly2{prefix}" if f == "poly2" else prefix + f)(*args)
        assert len(reads) <= 4, (f, len(reads))  # the inputs, the quotient and remainder
