"""`xp.optimize`: newton, many independent scalar equations solved at once on the array's own
backend (every step a device operation, a few waits per iteration to test convergence); fsolve,
root and minimize run SciPy on the host with callbacks that compute on the device."""

import collections
import operator
import warnings

import numpy

from gpupy.cunumpy._backend import _is_cupy, _is_gpupy, _loaded_cupy, array_backend
from gpupy.cunumpy._scipy_host import fsolve, minimize, root

__all__ = ["NewtonResult", "fsolve", "minimize", "newton", "root"]

NewtonResult = collections.namedtuple("NewtonResult", ("root", "converged", "zero_der"))
NewtonResult.__doc__ = "newton's full_output: the roots, where they converged, where f' was 0."

_OP = "optimize.newton"


def _module_of(x0):
    if _is_gpupy(x0):
        import gpupy

        return gpupy
    if _is_cupy(x0):
        return _loaded_cupy()
    return array_backend.module  # scalars, lists and NumPy arrays: the active backend


def _check_options(tol, maxiter, rtol):
    try:
        tol, rtol = float(tol), float(rtol)
    except (TypeError, ValueError):
        raise TypeError(f"[{_OP}] tol and rtol must be numbers, got {tol!r} and {rtol!r}") from None
    if not tol > 0:
        raise ValueError(f"[{_OP}] tol too small ({tol:g} <= 0)")
    if not rtol >= 0:
        raise ValueError(f"[{_OP}] rtol must be non-negative, got {rtol:g}")
    try:
        maxiter = operator.index(maxiter)
    except TypeError:
        raise TypeError(f"[{_OP}] maxiter must be an integer, got {maxiter!r}") from None
    if maxiter < 1:
        raise ValueError(f"[{_OP}] maxiter must be greater than 0, got {maxiter}")
    return tol, maxiter, rtol


def _values(m, out, p, what):
    """A callback's result as an array of p's backend and shape; a NumPy array for device p is
    refused (the callbacks must compute where the points are)."""
    if m is not numpy and isinstance(out, numpy.ndarray) and out.ndim:
        raise TypeError(
            f"[{_OP}] {what} returned a numpy.ndarray for points on the {m.__name__} backend; "
            "compute it with the points' array module (e.g. xp.get_array_module(x))"
        )
    out = m.asarray(out)
    if out.shape != p.shape:
        out = m.broadcast_to(out, p.shape)
    return out


def newton(
    func,
    x0,
    fprime=None,
    args=(),
    tol=1.48e-8,
    maxiter=50,
    fprime2=None,
    rtol=0.0,
    full_output=False,
):
    """See scipy.optimize.newton with an array x0: func(x, *args) returns f_i(x_i) for every
    entry; Newton's method with fprime (Halley's with fprime2 too), the secant method without.
    It runs on x0's backend (gpupy arrays on their device, CuPy arrays; scalars, lists and NumPy
    arrays on the active backend) with fixed shapes: points that converged keep taking tiny
    steps until all have, as in SciPy. A point converges when |step| < tol + rtol*|x| (SciPy's
    array path ignores rtol; the default 0 gives its steps). Returns the roots (0-d for a scalar
    x0), or NewtonResult(root, converged, zero_der) with full_output. RuntimeWarning when some
    points fail or meet a zero derivative, RuntimeError when all fail to converge."""
    tol, maxiter, rtol = _check_options(tol, maxiter, rtol)
    m = _module_of(x0)
    p = m.asarray(x0)
    p = p.astype(numpy.result_type(p.dtype, numpy.float64))  # a copy, never the caller's array
    failures = m.ones_like(p, dtype=bool)
    if fprime is not None:
        steps = _newton_steps(m, (func, fprime, fprime2), p, args, failures, maxiter, tol, rtol)
        (p, failures, nz_der), p1 = steps, None
    else:
        p, p1, failures, nz_der = _secant_steps(m, func, p, args, failures, maxiter, tol, rtol)
    zero_der = ~nz_der & failures
    _report(m, p, p1, failures, zero_der, maxiter)
    if full_output:
        return NewtonResult(p, ~failures, zero_der)
    return p


def _newton_steps(m, funcs, p, args, failures, maxiter, tol, rtol):
    func, fprime, fprime2 = funcs
    nz_der = m.ones_like(failures)
    for _ in range(maxiter):
        fval = _values(m, func(p, *args), p, "func")
        if not bool(m.any(fval != 0)):
            return p, fval != 0, nz_der
        fder = _values(m, fprime(p, *args), p, "fprime")
        nz_der = fder != 0
        if not bool(m.any(nz_der)):
            break
        safe = m.where(nz_der, fder, 1)
        dp = fval / safe
        if fprime2 is not None:
            dp = dp / (1.0 - 0.5 * dp * _values(m, fprime2(p, *args), p, "fprime2") / safe)
        p = m.where(nz_der, p - dp, p)
        failures = m.where(nz_der, m.abs(dp) >= tol + rtol * m.abs(p), failures)
        if not bool(m.any(failures & nz_der)):
            break
    return p, failures, nz_der


def _secant_steps(m, func, p, args, failures, maxiter, tol, rtol):
    dx = numpy.finfo(numpy.float64).eps ** 0.33
    p1 = p * (1 + dx) + m.where(p >= 0, dx, -dx)
    q0 = _values(m, func(p, *args), p, "func")
    q1 = _values(m, func(p1, *args), p, "func")
    active = m.ones_like(failures)
    nz_der = active
    for _ in range(maxiter):
        nz_der = q1 != q0
        if not bool(m.any(nz_der)):
            p = (p1 + p) / 2.0
            break
        dp = q1 * (p1 - p) / m.where(nz_der, q1 - q0, 1)
        new = m.where(nz_der, p1 - dp, p)
        p = m.where(~nz_der & active, (p1 + p) / 2.0, new)  # a flat step: halve once
        active = active & nz_der
        failures = m.where(nz_der, m.abs(dp) >= tol + rtol * m.abs(p), failures)
        if not bool(m.any(failures & nz_der)):
            break
        p1, p = p, p1  # as SciPy: without convergence the previous iterate is returned
        q0, q1 = q1, _values(m, func(p1, *args), p, "func")
    return p, p1, failures, nz_der


def _report(m, p, p1, failures, zero_der, maxiter):
    """SciPy's warnings and error for points that did not converge."""
    if bool(m.any(zero_der)):
        if p1 is None:
            which = "all" if bool(m.all(zero_der)) else "some"
            warnings.warn(f"[{_OP}] {which} derivatives were zero", RuntimeWarning, stacklevel=3)
            return
        moved = zero_der & (p1 != p)
        if bool(m.any(moved)):
            rms = float(m.sqrt(m.sum(m.where(moved, p1 - p, 0) ** 2)))
            warnings.warn(f"[{_OP}] RMS of {rms:g} reached", RuntimeWarning, stacklevel=3)
    elif bool(m.any(failures)):
        which = "all" if bool(m.all(failures)) else "some"
        msg = f"[{_OP}] {which} failed to converge after {maxiter:d} iterations"
        if which == "all":
            raise RuntimeError(msg)
        warnings.warn(msg, RuntimeWarning, stacklevel=3)
