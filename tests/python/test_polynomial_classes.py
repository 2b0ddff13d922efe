"""The series classes of every basis (Polynomial, Chebyshev, Legendre, Hermite, HermiteE,
Laguerre) against NumPy's, through their shared base: evaluation with domain and window,
arithmetic, calculus, roots, fits, constructors (identity, basis, fromroots, cast) and
conversion between kinds, on the selected device."""

import operator

import gpupy
import numpy as np
import pytest
from gpupy import testing

CLASSES = [
    c
    for c in ["Polynomial", "Chebyshev", "Legendre", "Hermite", "HermiteE", "Laguerre"]
    if hasattr(gpupy.polynomial, c)
]
rng = np.random.default_rng(23)
A = rng.normal(size=5)
B = rng.normal(size=3)


@pytest.mark.parametrize("kind", CLASSES)
@testing.numpy_gpupy_allclose(rtol=1e-9, atol=1e-10)
def test_evaluation_and_arithmetic(kind, xp):
    K = getattr(xp.polynomial, kind)
    p, q = K(xp.asarray(A), domain=[0, 2], window=[-1, 1]), K(xp.asarray(B), [0, 2], [-1, 1])
    x = xp.asarray(np.linspace(0, 2, 7).reshape(7, 1))
    d = K([2.0, 1.0], domain=[0, 2], window=[-1, 1])
    out = [p(x), p(1.5), p([0.5, 1.0]), p(x.astype("float32"))]
    for r in (p + q, q - p, p * q, p + 2, 3 - p, 2 * p, p / 2, p**3, -p, p // d, p % d, 1 // d):
        assert isinstance(r, K) and r.domain.tolist() == [0, 2] and r.window.tolist() == [-1, 1]
        out.append(r.coef)
    out += [c.coef for c in divmod(p, d)] + [p.trim(0.5).coef, p.truncate(2).coef, p.copy().coef]
    out += [*p.linspace(5), *p.linspace(3, domain=[-1, 1])]
    assert p == p.copy() and p != q and len(p) == 5 and p.degree() == 4
    return out


@pytest.mark.parametrize("kind", CLASSES)
@testing.numpy_gpupy_allclose(rtol=1e-8, atol=1e-9)
def test_calculus_and_roots(kind, xp):
    K = getattr(xp.polynomial, kind)
    p = K(xp.asarray(A), domain=[1, 4], window=[-1, 1])
    r = K.fromroots(xp.asarray([1.5, 2.0, 3.5]), domain=[1, 4])
    return [
        p.deriv().coef,
        p.deriv(3).coef,
        p.integ().coef,
        p.integ(2, k=[1.0, -2.0], lbnd=1.5).coef,
        r.coef,
        r.roots(),
        K.fromroots([0.5, -0.5]).coef,
        K.fromroots(xp.asarray([1.0, 3.0]), domain=None).domain,
    ]


@pytest.mark.parametrize("kind", CLASSES)
@testing.numpy_gpupy_allclose(rtol=1e-8, atol=1e-10)
def test_fit_and_constructors(kind, xp):
    K = getattr(xp.polynomial, kind)
    x = xp.asarray(np.linspace(-2, 5, 30))
    y = 1.0 - 2.0 * x + 0.5 * x**3
    f = K.fit(x, y, 3)
    g, (resid, rank, sv, rcond) = K.fit(x, y, [0, 1, 3], full=True, domain=[-2, 5])
    h = K.fit(x, y, 2, domain=[], window=[0, 1], w=x * 0 + 1)
    assert int(rank) == 3
    return [
        f.coef,
        f.domain,
        f(x),
        g.coef,
        sv,
        h.coef,
        h.window,
        K.identity().coef,
        K.identity(domain=[0, 3], window=[-1, 2]).coef,
        K.basis(3).coef,
        K.basis(2, domain=[0, 1]).coef,
        K.cast(xp.polynomial.Polynomial([1.0, 2.0, 3.0])).coef,
    ]


@pytest.mark.parametrize("source", CLASSES)
@pytest.mark.parametrize("target", CLASSES)
@testing.numpy_gpupy_allclose(rtol=1e-8, atol=1e-10)
def test_convert_between_kinds(source, target, xp):
    S, T = getattr(xp.polynomial, source), getattr(xp.polynomial, target)
    p = S(xp.asarray(A), domain=[0, 3])
    c = p.convert(kind=T)
    x = xp.asarray(np.linspace(0, 3, 5))
    assert type(c) is T
    return [c.coef, c.domain, c(x), p(x), p.convert(domain=[0, 1], kind=T, window=[-2, 2]).coef]


@pytest.mark.parametrize("kind", CLASSES)
def test_printing_and_errors(kind):
    K, N = getattr(gpupy.polynomial, kind), getattr(np.polynomial, kind)
    for c, kw in (([1, 2, 3], {}), ([1.5, 0, -2.25], {"domain": [0, 4]})):
        g, n = K(c, **kw, symbol="t"), N(c, **kw, symbol="t")
        assert str(g) == str(n) and format(g, "ascii") == format(n, "ascii")
        suffix = "" if g.coef.device == gpupy.Device("cpu") else f", device='{g.coef.device}'"
        assert repr(g) == repr(n)[:-1] + suffix + ")"
    other = next(c for c in CLASSES if c != kind) if len(CLASSES) > 1 else None
    cases = [
        (ValueError, "Domain has wrong number", lambda: K([1], domain=[1, 2, 3])),
        (TypeError, "Symbol must be a non-empty string", lambda: K([1], symbol=1)),
        (ValueError, "size must be a positive integer", lambda: K([1, 2]).truncate(1.5)),
        (ValueError, "deg must be non-negative integer", lambda: K.basis(1.5)),
        (TypeError, "unsupported types for true division", lambda: K([1]) / K([1])),
        (ValueError, "Unsupported format string 'latex'", lambda: format(K([1]), "latex")),
    ]
    if other:
        O = getattr(gpupy.polynomial, other)  # noqa: E741
        cases.append((TypeError, "Polynomial types differ", lambda: K([1]) + O([1])))
    for exc, message, call in cases:
        with pytest.raises(exc, match=rf"^\[{kind}(\.\w+)?\] {message}"):
            call()


def test_operands_on_another_device():
    here = gpupy._core.default_device().type
    other = "cpu" if here != "cpu" else "emu"
    try:
        elsewhere = gpupy.asarray([1.0, 2.0], device=other)
    except (NotImplementedError, ValueError, RuntimeError):
        pytest.skip(f"no {other} device")
    for kind in CLASSES:
        K = getattr(gpupy.polynomial, kind)
        p, q = K([1.0, 2.0]), K(elsewhere)
        for a, b, op in (
            (p, q, "add"),
            (p, elsewhere, "mul"),
            (elsewhere, p, "sub"),
            (p, q, "floordiv"),
        ):
            with pytest.raises(ValueError, match=rf"^\[{kind}\] the operands are on different"):
                getattr(operator, op)(a, b)
        assert p + [1, 2] == K([2.0, 4.0]) and q(2.0).device == elsewhere.device


@pytest.mark.parametrize("kind", CLASSES)
def test_copies_and_printstyle(kind):
    import copy
    import pickle

    K = getattr(gpupy.polynomial, kind)
    p = K([1.0, 2.0, 3.0], domain=[0, 2], symbol="t")
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p), copy.copy(p), p.copy()):
        assert q == p and q.symbol == "t" and q.coef.device == p.coef.device
    try:
        gpupy.polynomial.set_default_printstyle("ascii")
        assert str(p) == str(getattr(np.polynomial, kind)([1.0, 2.0, 3.0], [0, 2], symbol="t"))
        assert "·" not in str(p)
    finally:
        gpupy.polynomial.set_default_printstyle("unicode")
    with pytest.raises(ValueError, match=r"^\[set_default_printstyle\] Unsupported format"):
        gpupy.polynomial.set_default_printstyle("latex")
