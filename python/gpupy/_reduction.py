"""Reductions (sum, mean, min, argmax, ...): the C++ functions, with NumPy's ``initial=`` and
``where=`` added here.

See the NumPy functions of the same names; ``out=`` must be a gpupy array, and ``var``/``std``
accept both ``ddof=`` and the Array API's ``correction=``. ``where=`` masks elements out: they are
replaced by the reduction's identity (or ``initial``) before the device reduction runs.
"""

import builtins
import math
import warnings

import numpy

import gpupy  # its functions are looked up at call time, after the package has loaded
from gpupy import _core
from gpupy._core import argmax, argmin, ndarray  # noqa: F401

_NO_VALUE = numpy._NoValue  # NumPy's own "not given", which numpy.sum(x, initial=...) forwards


def _asarray(a):
    return a if isinstance(a, ndarray) else gpupy.asarray(a)


def _mask(op, a, where):
    """where= as a boolean gpupy array on a's device that broadcasts to a's shape."""
    w = where if isinstance(where, ndarray) else gpupy.asarray(where, device=a.device)
    if w.dtype != numpy.bool_:
        raise TypeError(f"[{op}] where= must be a boolean array, got {w.dtype}")
    try:
        fits = numpy.broadcast_shapes(a.shape, w.shape) == a.shape
    except ValueError:
        fits = False
    if not fits:
        raise ValueError(f"[{op}] where= of shape {w.shape} does not broadcast to {a.shape}")
    return w


def _fill(a, w, value):
    """a with the elements where w is False replaced by value (cast to a's dtype)."""
    return gpupy.where(w, a, gpupy.full((), value, dtype=a.dtype, device=a.device))


def _finish(result, out):
    if out is None:
        return result
    out[...] = result
    return out


def _identity_reduction(name, combine, identity):
    """sum/prod: initial= joins the result through `combine`; where= fills with the identity."""
    core = getattr(_core, name)

    def reduction(
        a, axis=None, dtype=None, out=None, keepdims=False, initial=_NO_VALUE, where=True
    ):
        if initial is _NO_VALUE and where is True:
            return core(a, axis, dtype, out, keepdims)
        a = _asarray(a)
        if where is not True:
            a = _fill(a, _mask(name, a, where), identity)
        if dtype is None and out is not None:  # NumPy computes in the promotion with out's
            dtype = numpy.promote_types(a.dtype, out.dtype)
        result = core(a, axis, dtype, None, keepdims)
        if initial is not _NO_VALUE:
            result = combine(result, initial).astype(result.dtype, copy=False)
        return _finish(result, out)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = f"See numpy.{name}."
    return reduction


def _extremum(name, combine):
    """max/min: NumPy's rules for initial= (the value an empty reduction gives) and where=."""
    core = getattr(_core, name)

    def reduction(a, axis=None, out=None, keepdims=False, initial=_NO_VALUE, where=True):
        if initial is _NO_VALUE and where is True:
            return core(a, axis, out, keepdims)
        a = _asarray(a)
        if initial is _NO_VALUE:
            raise ValueError(
                f"[{name}] reduction operation '{combine.__name__}' does not have an identity, "
                "so to use a where mask one has to specify 'initial'"
            )
        if where is not True:
            a = _fill(a, _mask(name, a, where), initial)
        if a.size == 0:  # the reduced shape, from a reduction that accepts empty input
            shape = _core.sum(a, axis, None, None, keepdims).shape
            return _finish(gpupy.full(shape, initial, dtype=a.dtype, device=a.device), out)
        result = core(a, axis, None, keepdims)
        return _finish(combine(result, initial).astype(a.dtype, copy=False), out)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = f"See numpy.{name}."
    return reduction


def _logical(name, identity):
    core = getattr(_core, name)

    def reduction(a, axis=None, out=None, keepdims=False, *, where=True):
        if where is True:
            return core(a, axis, out, keepdims)
        a = _asarray(a)
        w = _mask(name, a, where)
        return core(gpupy.where(w, a, identity), axis, out, keepdims)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = f"See numpy.{name}."
    return reduction


sum = _identity_reduction("sum", _core.add, 0)  # noqa: A001 - NumPy's names
prod = _identity_reduction("prod", _core.multiply, 1)
max = _extremum("max", _core.maximum)  # noqa: A001
min = _extremum("min", _core.minimum)  # noqa: A001
all = _logical("all", True)  # noqa: A001
any = _logical("any", False)  # noqa: A001


def _masked_count_and_sum(op, a, axis, dtype, keepdims, where):
    w = _mask(op, a, where)
    count = _core.sum(gpupy.broadcast_to(w, a.shape), axis, None, None, keepdims)
    if dtype is None and a.dtype.kind in "biu":
        dtype = numpy.float64
    return count, _core.sum(_fill(a, w, 0), axis, dtype, None, keepdims)


def _warn_if_too_few(a, axis, ddof, message):
    """NumPy's RuntimeWarning when each result reduces no more than ddof items (mean: none).
    The count follows from the shape alone: no device work. Called once the reduction has
    accepted axis."""
    shape = a.shape
    axes = range(len(shape)) if axis is None else axis if isinstance(axis, tuple) else (axis,)
    if math.prod(shape[ax] for ax in axes) <= ddof:
        warnings.warn(message, RuntimeWarning, stacklevel=3)


def _retyped_out(op, out, a, dtype):
    """True when out= is a gpupy array of another dtype than mean/var/std's plain result."""
    if not isinstance(out, ndarray):
        return False
    try:
        plain = numpy.dtype(numpy.float64 if dtype is None and a.dtype.kind in "biu" else dtype)
    except TypeError:
        return False  # the reduction names the bad dtype=
    plain = a.dtype if dtype is None and a.dtype.kind not in "biu" else plain
    if op != "mean" and plain.kind == "c":
        plain = numpy.dtype(plain.char.lower())
    return out.dtype != plain


def _sum_into_out(op, a, axis, dtype, out, keepdims, plain, ddof=0):
    """mean/var/std into an out= of another dtype than their plain result, in NumPy's order: the
    sum (of the squared deviations for var/std) is written into out, computed in dtype=, else in
    float64 for integers, else in the promotion of the data's dtype and out's, and divided
    there; so a narrower out= rounds, or overflows, at the sum and a wider one keeps its bits.
    `plain` is the result without out= (it has checked the arguments)."""
    if out.shape != plain.shape:
        raise ValueError(f"[{op}] out has shape {out.shape}, the result has {plain.shape}")
    if op == "std" and out.dtype.kind in "biu":  # NumPy's sqrt(out, out=out) of integers
        raise TypeError(
            f"[std] Cannot cast ufunc 'sqrt' output from float64 to {out.dtype} with casting "
            "rule 'same_kind'"
        )
    wide = numpy.float64 if dtype is None and a.dtype.kind in "biu" else dtype
    if op == "mean" and wide is None and a.dtype == numpy.float16:
        wide = numpy.float32
    kept = _core.sum(a, axis, wide, None, True)
    count = math.prod(n for n, k in zip(a.shape, kept.shape, strict=True) if k == 1)
    if op != "mean":
        deviation = _core.subtract(a, gpupy.true_divide(kept, count).astype(kept.dtype))
        real = deviation.real if deviation.dtype.kind == "c" else deviation
        a = _core.multiply(real, real)
        if deviation.dtype.kind == "c":
            a = _core.add(a, _core.multiply(deviation.imag, deviation.imag))
        count = builtins.max(count - ddof, 0)
    _core.sum(a, axis, wide, out, keepdims)
    gpupy.true_divide(out, count, out=out, casting="unsafe")
    if op == "std":
        gpupy.sqrt(out, out=out)
    return out


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """See numpy.mean; RuntimeWarning 'Mean of empty slice' when the reduced axes are empty."""
    if where is True:
        a = _asarray(a)  # once: the warning reads its shape
        if _retyped_out("mean", out, a, dtype):
            plain = _core.mean(a, axis, dtype, None, keepdims)
            result = _sum_into_out("mean", a, axis, dtype, out, keepdims, plain)
        else:
            result = _core.mean(a, axis, dtype, out, keepdims)
        _warn_if_too_few(a, axis, 0, "Mean of empty slice")
        return result
    a = _asarray(a)
    # As NumPy: float16 is summed and divided in float32, then rounded once.
    result_dtype = dtype
    if dtype is None and a.dtype == numpy.float16:
        dtype, result_dtype = numpy.float32, numpy.float16
    count, total = _masked_count_and_sum("mean", a, axis, dtype, keepdims, where)
    result = _core.divide(total, count).astype(result_dtype or total.dtype, copy=False)
    return _finish(result, out)


def _masked_var(op, a, axis, dtype, ddof, keepdims, where, correction, centre=None):
    """var over the elements `where` selects, about `centre` (NumPy's mean=: the mean with
    keepdims=True, computed here when not given)."""
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"[{op}] ddof and correction can't be provided simultaneously.")
        ddof = correction
    a = _asarray(a)
    w = _mask(op, a, where)
    if centre is None:
        centre = mean(a, axis, dtype, None, True, where=w)
    deviation = _core.absolute(_core.subtract(a, centre))
    count, total = _masked_count_and_sum(op, _core.multiply(deviation, deviation), axis, dtype,
                                         keepdims, w)  # fmt: skip
    denominator = _core.maximum(_core.subtract(count, ddof), 0)
    return _core.divide(total, denominator).astype(total.dtype, copy=False)


def _spread(name, finish):
    """var or std: the C++ reduction, or the masked formulation for where= or a given mean;
    ``finish`` maps the variance to the result (sqrt for std)."""
    core = getattr(_core, name)

    def reduction(
        a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None,
    ):  # fmt: skip
        if where is True and mean is None:
            a = _asarray(a)  # once: the warning reads its shape
            dof = ddof if correction is None else correction
            if _retyped_out(name, out, a, dtype):
                plain = core(a, axis, dtype, None, ddof, keepdims, correction=correction)
                result = _sum_into_out(name, a, axis, dtype, out, keepdims, plain, dof)
            else:
                result = core(a, axis, dtype, out, ddof, keepdims, correction=correction)
            _warn_if_too_few(a, axis, dof, "Degrees of freedom <= 0 for slice")
            return result
        result = _masked_var(name, a, axis, dtype, ddof, keepdims, where, correction, mean)
        return _finish(finish(result), out)

    reduction.__name__ = reduction.__qualname__ = name
    reduction.__doc__ = (
        f"See numpy.{name}; ``mean`` is a precomputed mean with keepdims=True, as NumPy takes it."
    )
    return reduction


var = _spread("var", lambda v: v)
std = _spread("std", lambda v: _core.sqrt(v).astype(v.dtype, copy=False))


amin = min
amax = max

for _name in ("sum", "prod", "max", "min", "all", "any", "mean", "var", "std"):
    setattr(ndarray, _name, globals()[_name])

__all__ = [
    "all",
    "amax",
    "amin",
    "any",
    "argmax",
    "argmin",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]
