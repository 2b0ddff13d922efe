"""xp.optimize and xp.integrate against SciPy on NumPy arrays and closed forms: newton batched on
the array's backend; fsolve, root, minimize, quad and odeint on the host with callbacks that get
arrays of x0's backend (gpupy arrays on the test's device), results back there, copies counted."""

import warnings

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from kernel_packages import on_gpupy
from numpy.testing import assert_allclose, assert_array_equal

gpupy_backend = on_gpupy  # the gpupy backend on the test's device

pytest.importorskip("scipy")
import scipy.integrate  # noqa: E402
import scipy.optimize  # noqa: E402


def _host(a):
    return gpupy.asnumpy(a)


# newton, batched


_S = numpy.array([2.0, 3.0, 4.0, 5.0, 0.5])


def _cases():
    """(func, fprime, fprime2, x0, args) for numpy; the same callables work on gpupy arrays."""
    return {
        "newton": (lambda x, s: x**2 - s, lambda x, s: 2 * x, None, numpy.ones(5)),
        "halley": (lambda x, s: x**3 - s, lambda x, s: 3 * x**2, lambda x, s: 6 * x, numpy.ones(5)),
        "secant": (lambda x, s: x**3 - s, None, None, numpy.full(5, 1.5)),
        "secant_negative_start": (lambda x, s: x**3 + s, None, None, -numpy.ones(5)),
    }


@pytest.mark.parametrize("case", list(_cases()))
def test_newton_matches_scipy_on_the_arrays_backend(gpupy_backend, case, device_name):
    func, fprime, fprime2, x0 = _cases()[case]
    want = scipy.optimize.newton(func, x0, fprime=fprime, args=(_S,), fprime2=fprime2)
    d0 = xp.asarray(x0)
    got = xp.optimize.newton(func, d0, fprime=fprime, args=(xp.asarray(_S),), fprime2=fprime2)
    assert isinstance(got, gpupy.ndarray) and str(got.device) == device_name
    assert got.dtype == numpy.float64 and got.shape == want.shape
    assert_allclose(_host(got), want, rtol=1e-13)
    assert_array_equal(_host(d0), x0)  # x0 is never written


def test_newton_full_output_and_the_numpy_backend():
    func, fprime = (lambda x: x**2 - _S), (lambda x: 2 * x)
    res = xp.optimize.newton(func, numpy.ones(5), fprime=fprime, full_output=True)
    want = scipy.optimize.newton(func, numpy.ones(5), fprime=fprime, full_output=True)
    assert isinstance(res.root, numpy.ndarray) and type(res).__name__ == "NewtonResult"
    assert_allclose(res.root, want.root, rtol=1e-14)
    assert_array_equal(res.converged, want.converged)
    assert_array_equal(res.zero_der, want.zero_der)
    r0 = xp.optimize.newton(lambda x: x**2 - 2.0, 1.0, fprime=lambda x: 2 * x)
    assert r0.shape == () and abs(float(r0) - 2**0.5) < 1e-14  # a scalar gives a 0-d array
    assert xp.optimize.newton(lambda x: x - 3, [0, 1], fprime=lambda x: 1).dtype == numpy.float64


def test_newton_warnings_and_errors_follow_scipy(gpupy_backend):
    x0 = numpy.array([0.0, 2.0, 3.0])  # f' = 2x is zero at the first point
    f, fp = (lambda x: x**2 - 1.0), (lambda x: 2 * x)
    with pytest.warns(RuntimeWarning, match="some derivatives were zero"):
        want = scipy.optimize.newton(f, x0, fprime=fp, full_output=True)
    with pytest.warns(RuntimeWarning, match=r"\[optimize.newton\] some derivatives were zero"):
        got = xp.optimize.newton(f, xp.asarray(x0), fprime=fp, full_output=True)
    assert_allclose(_host(got.root), want.root, rtol=1e-14)
    assert_array_equal(_host(got.zero_der), want.zero_der)
    assert_array_equal(_host(got.converged), want.converged)
    hard = numpy.array([2.0, 1e6])  # the first is a root, the second takes many steps
    g, gp = (lambda x: x**2 - 4.0), (lambda x: 2 * x)
    with pytest.warns(RuntimeWarning, match="some failed to converge after 3 iterations"):
        want = scipy.optimize.newton(g, hard, fprime=gp, maxiter=3)
    with pytest.warns(RuntimeWarning, match=r"\[optimize.newton\] some failed to converge after 3"):
        got = xp.optimize.newton(g, xp.asarray(hard), fprime=gp, maxiter=3)
    assert_allclose(_host(got), want, rtol=1e-14)
    with pytest.raises(RuntimeError, match=r"\[optimize.newton\] all failed to converge after 2"):
        xp.optimize.newton(g, xp.asarray([1e6, 2e6]), fprime=gp, maxiter=2)
    x0 = numpy.array([0.2, 3.3])  # a staircase: the secant method meets flat steps

    def steps(x):
        return xp.get_array_module(x).floor(x) + 0.5

    with pytest.warns(RuntimeWarning, match=r"RMS of 1.52422e-05 reached"):
        want = scipy.optimize.newton(steps, x0, full_output=True)
    with pytest.warns(RuntimeWarning, match=r"\[optimize.newton\] RMS of 1.52422e-05 reached"):
        got = xp.optimize.newton(steps, xp.asarray(x0), full_output=True)
    assert_allclose(_host(got.root), want.root, rtol=1e-14)
    assert_array_equal(_host(got.zero_der), want.zero_der)


def test_newton_rtol_and_bad_arguments(gpupy_backend):
    f, fp = (lambda x: x**2 - 9.0), (lambda x: 2 * x)
    loose = xp.optimize.newton(f, xp.asarray([1.0, 10.0]), fprime=fp, tol=1e-300, rtol=1e-3)
    assert numpy.all(numpy.abs(_host(loose) - 3.0) < 3e-3)  # rtol alone stops the iteration
    with pytest.raises(ValueError, match=r"\[optimize.newton\] tol too small \(0 <= 0\)"):
        xp.optimize.newton(f, xp.ones(2), fprime=fp, tol=0)
    with pytest.raises(ValueError, match=r"maxiter must be greater than 0, got 0"):
        xp.optimize.newton(f, xp.ones(2), fprime=fp, maxiter=0)
    with pytest.raises(TypeError, match=r"maxiter must be an integer, got 2.5"):
        xp.optimize.newton(f, xp.ones(2), fprime=fp, maxiter=2.5)
    with pytest.raises(TypeError, match=r"tol and rtol must be numbers, got 'a' and 0.0"):
        xp.optimize.newton(f, xp.ones(2), fprime=fp, tol="a")
    with pytest.raises(ValueError, match=r"rtol must be non-negative"):
        xp.optimize.newton(f, xp.ones(2), rtol=-1.0)
    with pytest.raises(TypeError, match=r"func returned a numpy.ndarray for points on the gpupy"):
        xp.optimize.newton(lambda x: numpy.zeros(2) + 1, xp.ones(2), fprime=fp)


# fsolve, root, minimize: SciPy on the host, callbacks on the device


class _Seen:
    """Wraps a callback and records the types of the arrays it was given."""

    def __init__(self, fun):
        self.fun, self.types = fun, set()

    def __call__(self, x, *args, **kwargs):
        self.types.add(type(x))
        return self.fun(x, *args, **kwargs)


def test_fsolve_and_root_with_device_callbacks(gpupy_backend, device_name):
    def residual(x, a):
        return x**3 + x - a  # independent equations: any backend's arithmetic

    def jacobian(x, a):
        m = xp.get_array_module(x)
        return m.diag(3 * x**2 + 1)

    a = numpy.array([2.0, 10.0, 30.0])
    want = scipy.optimize.fsolve(residual, numpy.ones(3), args=(a,), fprime=jacobian)
    seen = _Seen(residual)
    with xp.count_transfers() as c:
        got = xp.optimize.fsolve(seen, xp.ones(3), args=(xp.asarray(a),), fprime=jacobian)
    assert seen.types == {gpupy.ndarray} and str(got.device) == device_name
    assert_allclose(_host(got), want, rtol=1e-12)
    assert_allclose(_host(got) ** 3 + _host(got), a, rtol=1e-10)
    if gpupy_backend:  # per evaluation one copy up (x) and one down (the residual); plus x0, root
        assert c.to_host >= 3 and c.to_device == c.to_host
    res = xp.optimize.root(residual, xp.ones(3), args=(xp.asarray(a),), jac=jacobian)
    ref = scipy.optimize.root(residual, numpy.ones(3), args=(a,), jac=jacobian)
    assert res.success and type(res) is type(ref)
    assert isinstance(res.x, gpupy.ndarray) and isinstance(res.fun, gpupy.ndarray)
    assert_allclose(_host(res.x), ref.x, rtol=1e-12)
    out = xp.optimize.fsolve(residual, xp.ones(3), args=(xp.asarray(a),), full_output=True)
    assert isinstance(out[0], gpupy.ndarray) and isinstance(out[1]["fvec"], gpupy.ndarray)
    assert out[2] == 1


def test_minimize_with_gradient_constraints_and_callback(gpupy_backend, device_name):
    target = numpy.array([1.0, -2.0, 0.5])

    def fun(x, t):
        return xp.get_array_module(x).sum((x - t) ** 2)

    def jac(x, t):
        return 2 * (x - t)

    calls = []
    t = xp.asarray(target)
    res = xp.optimize.minimize(
        fun, xp.zeros(3), args=(t,), jac=jac, method="BFGS", callback=calls.append
    )
    ref = scipy.optimize.minimize(fun, numpy.zeros(3), args=(target,), jac=jac, method="BFGS")
    assert res.success and str(res.x.device) == device_name
    assert_allclose(_host(res.x), ref.x, rtol=1e-10, atol=1e-12)
    assert calls and all(isinstance(c, gpupy.ndarray) for c in calls)
    # an inequality x0 + x1 >= 1 as a dict constraint (SLSQP) and as a NonlinearConstraint
    cons = {"type": "ineq", "fun": lambda x: x[0:1] + x[1:2] - 1.0}
    got = xp.optimize.minimize(fun, xp.zeros(3), args=(t,), constraints=[cons], method="SLSQP")
    want = scipy.optimize.minimize(
        fun, numpy.zeros(3), args=(target,), constraints=[cons], method="SLSQP"
    )
    assert_allclose(_host(got.x), want.x, rtol=1e-6, atol=1e-8)
    assert_allclose(_host(got.x)[:2].sum(), 1.0, rtol=1e-8)  # the constraint is active
    nlc = scipy.optimize.NonlinearConstraint(lambda x: x[0:1] + x[1:2], 1.0, numpy.inf)
    got = xp.optimize.minimize(fun, xp.zeros(3), args=(t,), constraints=nlc, method="SLSQP")
    assert_allclose(_host(got.x), want.x, rtol=1e-6, atol=1e-8)
    positional = xp.optimize.minimize(fun, xp.zeros(3), (t,), "Nelder-Mead")  # SciPy's order
    ref = scipy.optimize.minimize(fun, numpy.zeros(3), (target,), "Nelder-Mead")
    assert_allclose(_host(positional.x), ref.x, rtol=1e-12)
    assert positional.nit == ref.nit
    with pytest.raises(TypeError, match=r"\[optimize.minimize\] got an unexpected keyword"):
        xp.optimize.minimize(fun, xp.zeros(3), metod="BFGS")
    bounded = xp.optimize.minimize(fun, xp.zeros(3), args=(t,), bounds=[(0, 2)] * 3)
    assert_allclose(_host(bounded.x), numpy.clip(target, 0, 2), atol=1e-7)


# integrate


def test_quad_with_device_integrands(gpupy_backend):
    value, err = xp.integrate.quad(lambda x: xp.asarray(x) ** 2, 0.0, 3.0)
    assert abs(value - 9.0) < 1e-12 and err < 1e-10
    value, _ = xp.integrate.quad(
        lambda x, k: xp.exp(-k * xp.asarray(x) ** 2), -numpy.inf, numpy.inf, args=(2.0,)
    )
    assert abs(value - numpy.sqrt(numpy.pi / 2.0)) < 1e-10


def test_odeint_against_closed_forms(gpupy_backend, device_name):
    t = numpy.linspace(0.0, 2.0, 11)
    k = numpy.array([0.5, 1.0, 2.0])
    seen = _Seen(lambda y, tt, kk: -kk * y)
    y = xp.integrate.odeint(
        seen, xp.ones(3), xp.asarray(t), args=(xp.asarray(k),), rtol=1e-10, atol=1e-12
    )
    assert seen.types == {gpupy.ndarray} and str(y.device) == device_name and y.shape == (11, 3)
    assert_allclose(_host(y), numpy.exp(-numpy.outer(t, k)), rtol=1e-8)

    def oscillator(tt, y):  # tfirst: y'' = -y as a system
        return xp.stack([y[1], -y[0]])

    def jac(tt, y):
        return xp.asarray([[0.0, 1.0], [-1.0, 0.0]])

    y, info = xp.integrate.odeint(
        oscillator,
        xp.asarray([1.0, 0.0]),
        t,
        Dfun=jac,
        tfirst=True,
        full_output=True,
        rtol=1e-10,
        atol=1e-12,
    )
    assert_allclose(_host(y), numpy.stack([numpy.cos(t), -numpy.sin(t)], axis=1), atol=1e-8)
    assert info["message"] == "Integration successful." and isinstance(info["hu"], gpupy.ndarray)
    want = scipy.integrate.odeint(lambda yy, tt: -yy, numpy.ones(2), t)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = xp.integrate.odeint(lambda yy, tt: -yy, numpy.ones(2), t)  # NumPy in, NumPy out
    assert type(got) is numpy.ndarray
    assert_allclose(got, want, rtol=1e-14)
