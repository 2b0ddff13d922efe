"""SciPy solvers run on the host with callbacks on the device: xp.optimize.fsolve/root/minimize and
xp.integrate.quad/odeint. SciPy sees NumPy arrays; with a device `x0` the user's callbacks get
device arrays, their results come down, and the solution goes back up, every copy counted."""

import copy
import functools
import importlib
import inspect

import numpy

from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import _is_cupy, _is_gpupy, is_gpu, to_numpy


def scipy_module(name, op):
    """scipy.<name>, or ImportError naming the operation that needs it."""
    try:
        return importlib.import_module(f"scipy.{name}")
    except ImportError as exc:
        raise ImportError(
            f"[{op}] needs SciPy, which is not installed (pip install scipy)"
        ) from exc


def _to_host(value):
    """Device arrays in `value` (or a tuple/list of them) copied to the host."""
    if isinstance(value, (tuple, list)):
        return type(value)(_to_host(v) for v in value)
    if _is_gpupy(value) or _is_cupy(value):
        return to_numpy(value)  # counted as to_host when the array is in device memory
    return value


class _Bridge:
    """The side of `x0`: callbacks get arrays there, and results go back there. NumPy input
    (or a scalar, a list) needs no bridge; gpupy arrays on any device and CuPy arrays do."""

    def __init__(self, x0, op):
        self.op = op
        self.gpupy_device = x0.device if _is_gpupy(x0) else None
        self.cupy = _is_cupy(x0)
        self.active = self.gpupy_device is not None or self.cupy

    def up(self, value):
        """NumPy arrays in `value` (tuples, lists, dicts, OptimizeResult) moved to x0's side."""
        if isinstance(value, dict):
            out = copy.copy(value)  # OptimizeResult, infodict: the same type
            for k, v in value.items():
                out[k] = self.up(v)
            return out
        if isinstance(value, (tuple, list)):
            return type(value)(self.up(v) for v in value)
        if not isinstance(value, numpy.ndarray):
            return value
        if self.cupy:
            import cupy

            out = cupy.asarray(value)
        else:
            import gpupy

            out = gpupy.asarray(value, device=self.gpupy_device)
        if profiling._active and is_gpu(out):
            desc = f"{self.op}: array of shape {value.shape} to the device"
            profiling.record("to_device", desc, value.nbytes)
        return out

    def callback(self, fun, n_arrays=1):
        """`fun` with its first n_arrays positional arguments and its keyword arguments on x0's
        side and its result on the host; unchanged when there is no bridge or fun is not
        callable (jac=True, "2-point", None)."""
        if not self.active or not callable(fun):
            return fun

        @functools.wraps(fun)  # SciPy reads the callback's signature (intermediate_result)
        def call(*args, **kwargs):
            head = [self.up(a) for a in args[:n_arrays]]
            kwargs = {k: self.up(v) for k, v in kwargs.items()}
            return _to_host(fun(*head, *args[n_arrays:], **kwargs))

        return call

    def result(self, value):
        return self.up(value) if self.active else value

    def constraints(self, constraints):
        """minimize's constraints with their functions bridged: dicts {"fun", "jac"} and
        constraint objects (fun, jac, hess); their bounds and matrices stay host data."""
        if not self.active:
            return constraints
        if isinstance(constraints, (tuple, list)):
            return type(constraints)(self.constraints(c) for c in constraints)
        if isinstance(constraints, dict):
            out = dict(constraints)
            for key in ("fun", "jac"):
                if key in out:
                    out[key] = self.callback(out[key])
            return out
        out = copy.copy(constraints)
        for name, n in (("fun", 1), ("jac", 1), ("hess", 2)):
            if callable(getattr(out, name, None)):
                setattr(out, name, self.callback(getattr(out, name), n))
        return out


def _solve(package, name, fun, x0, positional, keywords, callbacks, fun_arrays=1):
    """scipy.<package>.<name>(fun, x0, *positional, **keywords) on the host, arguments bound by
    SciPy's own signature: fun (its first fun_arrays arguments) and the callbacks named in
    {parameter: number of leading array arguments} bridged to x0's side, the result brought
    back."""
    op = f"{package}.{name}"
    solver = getattr(scipy_module(package, op), name)
    try:
        bound = inspect.signature(solver).bind(fun, x0, *positional, **keywords)
    except TypeError as exc:
        raise TypeError(f"[{op}] {exc}") from None
    a = bound.arguments
    b = _Bridge(x0, op)
    for key, n_arrays in callbacks.items():
        if key in a:
            a[key] = b.callback(a[key], n_arrays)
    if "constraints" in a:
        a["constraints"] = b.constraints(a["constraints"])
    if "t" in a:  # odeint's times may be on either side
        a["t"] = _to_host(a["t"])
    a[next(iter(a))] = b.callback(fun, fun_arrays)
    a["x0" if "x0" in a else "y0"] = _to_host(x0)
    return b.result(solver(*bound.args, **bound.kwargs))


def fsolve(func, x0, *positional, **keywords):
    """See scipy.optimize.fsolve (MINPACK, on the host). With a device `x0`, `func` and `fprime`
    get x on the device, and the root (and full_output's arrays) come back there: two copies per
    evaluation, for set-up work rather than a time loop."""
    return _solve("optimize", "fsolve", func, x0, positional, keywords, {"fprime": 1})


def root(fun, x0, *positional, **keywords):
    """See scipy.optimize.root, run on the host; with a device `x0`, `fun`, `jac` and
    `callback(x, f)` get device arrays and the result's arrays (x, fun, ...) come back to the
    device."""
    return _solve("optimize", "root", fun, x0, positional, keywords, {"jac": 1, "callback": 2})


# minimize's callbacks and how many leading array arguments each takes (trust-constr calls
# callback(xk, state); the others callback(intermediate_result) by keyword or callback(xk))
_MINIMIZE_CALLBACKS = {"jac": 1, "hess": 1, "hessp": 2, "callback": 2}


def minimize(fun, x0, *positional, **keywords):
    """See scipy.optimize.minimize, run on the host; with a device `x0` every callback (fun, jac,
    hess, hessp, callback, the constraints' functions) gets device arrays, and the result's
    arrays come back to the device. Bounds and constraint matrices are host data."""
    return _solve("optimize", "minimize", fun, x0, positional, keywords, _MINIMIZE_CALLBACKS)


def quad(func, a, b, args=(), **kwargs):
    """See scipy.integrate.quad (QUADPACK, on the host): `func` gets a Python float and may
    return a 0-d device array (copied down, one wait per evaluation). The result is SciPy's
    tuple of host floats. For many integrals at once, evaluate on a grid on the device."""
    integrate = scipy_module("integrate", "integrate.quad")

    def host_func(x, *rest):
        return _to_host(func(x, *rest))

    return integrate.quad(host_func, _to_host(a), _to_host(b), args=args, **kwargs)


def odeint(func, y0, t, *positional, **keywords):
    """See scipy.integrate.odeint (LSODA, on the host). With a device `y0`, `func(y, t)` and
    `Dfun` get y on the device, and the solution (len(t), len(y0)) comes back there; `t` may be
    on either side."""
    # func(y, t), or func(t, y) with tfirst: y goes up, the float t stays as it is
    return _solve("integrate", "odeint", func, y0, (t, *positional), keywords, {"Dfun": 2}, 2)
