"""gpupy.polynomial._shared: what every series module has in the same form (line, fromroots,
add, sub, pow, 2-d/3-d values, grids and Vandermonde matrices, fit, roots, trim, conversion from
power series), made once per basis from its own mulx, mul, val, vander and companion; and the
common frame of der and int (checks, repeats, scl, axis, integration constants).
"""

import types

import numpy

import gpupy as _xp
from gpupy import _core
from gpupy._host_library import device_arrays
from gpupy.polynomial import polyutils as _pu


def _host_sample(v):
    """A NumPy scalar of v's dtype (v itself when it is not a gpupy array), for NumPy's dtype
    discovery of a small list."""
    return numpy.zeros((), v.dtype)[()] if isinstance(v, _core.ndarray) else v


def _standard_pair(off, scl):
    return off, scl


def make_line(op, pair=_standard_pair):
    """The basis's `line(off, scl)`: the coefficients pair(off, scl) of off + scl x ([off] when
    scl is 0), with the dtype NumPy's numpy.array of them gives."""

    def line(off, scl):
        off_a, scl_a = device_arrays(op, off, scl)
        if bool(scl_a != 0):
            dtype = numpy.array(pair(_host_sample(off), _host_sample(scl))).dtype
            return _xp.stack(list(pair(off_a, scl_a))).astype(dtype)
        return off_a.reshape(1).astype(numpy.array([_host_sample(off)]).dtype)

    return line


def derivative(op, c, m, scl, axis, step):
    """NumPy's der frame: m times `c = step(c * scl)` along axis (step maps n + 1 coefficients
    to the n of the derivative); m >= len(c) gives a zero."""
    c, cnt, axis = _pu._calculus_input(op, c, m, axis, "derivation")
    if cnt >= c.shape[0]:
        c = c[:1] * 0
    else:
        for _ in range(cnt):
            c *= scl
            c = step(c)
    return _xp.moveaxis(c, 0, axis)


def integral(op, c, m, k, lbnd, scl, axis, step, val):
    """NumPy's int frame: m times `c = step(c * scl)` (n coefficients to the n + 1 of an
    antiderivative), then the constant k[i] fixed as the value at lbnd."""
    c, cnt, axis = _pu._calculus_input(op, c, m, axis, "integration")
    k = _pu._integration_constants(op, c, cnt, k, lbnd, scl)
    for i in range(cnt):
        c *= scl
        if c.shape[0] == 1 and bool(_xp.all(c[0] == 0)):
            c[0] = c[0] + k[i]
            continue
        c = step(c)
        c[0] = c[0] + (k[i] - val(lbnd, c))
    return _xp.moveaxis(c, 0, axis)


def empty_like_rows(c, n):
    """An uninitialised array of n rows shaped like c's rows."""
    return _xp.empty((n,) + c.shape[1:], dtype=c.dtype, device=c.device)


def reverse_cumsum(a, step=1):
    """out[j] = a[j] + a[j + step] + a[j + 2 step] + ... along axis 0 (step 1 or 2)."""
    if step == 1:
        return _xp.cumsum(a[::-1], axis=0)[::-1]
    out = _xp.empty(a.shape, dtype=a.dtype, device=a.device)
    out[0::2] = reverse_cumsum(a[0::2])
    out[1::2] = reverse_cumsum(a[1::2])
    return out


def roots(op, c, companion, first, rotate=True):
    """Sorted roots: none for a constant, first(c0, c1) for a line, else the eigenvalues of the
    companion matrix (computed on the host, see polyutils._eig_roots)."""
    [c] = _pu._series(op, [c])
    if c.shape[0] < 2:
        return _xp.empty((0,), dtype=c.dtype, device=c.device)
    if c.shape[0] == 2:
        return first(c[0], c[1]).reshape(1)
    return _pu._eig_roots(op, companion(c), rotate=rotate)


def series_functions(
    prefix,
    module,
    *,
    mul,
    val,
    vander,
    companion,
    line=None,
    pow_mul=None,
    maxpower=16,
    first_root=lambda c0, c1: -c0 / c1,
    rotate=True,
):
    """The functions of `prefix` (cheb, leg, ...) that every basis has in the same form, named
    and documented as NumPy's numpy.polynomial.<module>.<prefix><name>."""
    fns = types.SimpleNamespace()
    fns.line = line or make_line(f"{prefix}line")
    fns.fromroots = lambda roots_: _pu._fromroots(f"{prefix}fromroots", fns.line, mul, roots_)
    fns.add = lambda c1, c2: _pu._add(f"{prefix}add", c1, c2)
    fns.sub = lambda c1, c2: _pu._add(f"{prefix}sub", c1, c2, sign=-1)
    fns.pow = lambda c, pow, maxpower=maxpower: _pu._pow(  # noqa: A006 - NumPy's names
        f"{prefix}pow", pow_mul or mul, c, pow, maxpower
    )
    fns.val2d = lambda x, y, c: _pu._valnd(f"{prefix}val2d", val, c, x, y)
    fns.val3d = lambda x, y, z, c: _pu._valnd(f"{prefix}val3d", val, c, x, y, z)
    fns.grid2d = lambda x, y, c: _pu._gridnd(f"{prefix}grid2d", val, c, x, y)
    fns.grid3d = lambda x, y, z, c: _pu._gridnd(f"{prefix}grid3d", val, c, x, y, z)
    fns.vander2d = lambda x, y, deg: _pu._vander_nd(f"{prefix}vander2d", (vander,) * 2, (x, y), deg)
    fns.vander3d = lambda x, y, z, deg: _pu._vander_nd(
        f"{prefix}vander3d", (vander,) * 3, (x, y, z), deg
    )
    fns.fit = lambda x, y, deg, rcond=None, full=False, w=None: _pu._fit(
        f"{prefix}fit", vander, x, y, deg, rcond, full, w
    )
    fns.roots = lambda c: roots(f"{prefix}roots", c, companion, first_root, rotate)
    for name, fn in vars(fns).items():
        fn.__name__ = fn.__qualname__ = prefix + name
        fn.__module__ = f"gpupy.polynomial.{module}"
        fn.__doc__ = f"See numpy.polynomial.{module}.{prefix}{name}."
    fns.trim = _pu.trimcoef
    return fns


def from_power_series(op, mulx, add, pol):
    """NumPy's poly2<basis>: Horner's rule in the basis (multiply by x, add the next
    coefficient)."""
    [pol] = _pu._series(op, [pol])
    res = _xp.zeros((1,), device=pol.device)  # NumPy starts from the integer 0: float64
    for i in range(pol.shape[0] - 1, -1, -1):
        res = add(mulx(res), pol[i])
    return res


def to_power_series(op, c, step, last):
    """NumPy's <basis>2poly: Clenshaw's recurrence run on power series, from the top term down:
    (c0, c1) = step(i, c0, c1, c[i - 2]) for i = n - 1 ... 2, then last(c0, c1)."""
    [c] = _pu._series(op, [c])
    n = c.shape[0]
    if n == 1:
        return c
    c0, c1 = c[-2], c[-1]
    for i in range(n - 1, 1, -1):
        c0, c1 = step(i, c0, c1, c[i - 2])
    return last(c0, c1)
