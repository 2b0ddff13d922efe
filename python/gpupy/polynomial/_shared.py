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
    k = _pu._integration_constants(op, cnt, k, lbnd, scl)
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


def companion_roots(op, c, companion, first, rotate=True):
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
    raw_mul,
    val,
    vander,
    companion,
    line=None,
    pow_trims=True,
    maxpower=16,
    first_root=lambda c0, c1: -c0 / c1,
    rotate=True,
):
    """The functions of `prefix` (cheb, leg, ...) that every basis has in the same form, named
    and documented as NumPy's numpy.polynomial.<module>.<prefix><name>. raw_mul is the basis's
    untrimmed product."""
    fns = types.SimpleNamespace()
    fns.line = line or make_line(f"{prefix}line")
    fns.fromroots = lambda roots: _pu._fromroots(f"{prefix}fromroots", fns.line, raw_mul, roots)
    fns.add = lambda c1, c2: _pu._add(f"{prefix}add", c1, c2)
    fns.sub = lambda c1, c2: _pu._add(f"{prefix}sub", c1, c2, sign=-1)
    fns.pow = lambda c, pow, maxpower=maxpower: _pu._pow(  # noqa: A006 - NumPy's names
        f"{prefix}pow", raw_mul, c, pow, maxpower, trim=pow_trims
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
    fns.roots = lambda c: companion_roots(f"{prefix}roots", c, companion, first_root, rotate)
    for name, fn in vars(fns).items():
        fn.__name__ = fn.__qualname__ = prefix + name
        fn.__module__ = f"gpupy.polynomial.{module}"
        fn.__doc__ = f"See numpy.polynomial.{module}.{prefix}{name}."
    fns.trim = _pu.trimcoef
    return fns


# The recurrences below (products, conversions) add and multiply by x without trimming, where
# NumPy trims every intermediate series: the values are the same, and only the result is read
# back to trim it, instead of every step.
add = _pu._raw_add


def sub(c1, c2):
    return _pu._raw_add(c1, c2, -1)


def power_mulx(c):
    """c times x for a power series (untrimmed)."""
    return _xp.concatenate([c[:1] * 0, c])


def checked_mulx(op, mulx, c):
    """A basis's public mulx: NumPy's series checks, and a zero series stays itself."""
    [c] = _pu._series(op, [c])
    if c.shape[0] == 1 and bool(c[0] == 0):
        return c
    return mulx(c)


def from_power_series(op, mulx, pol):
    """NumPy's poly2<basis>: Horner's rule in the basis (multiply by x, add the next
    coefficient); mulx is the basis's untrimmed one."""
    [pol] = _pu._series(op, [pol])
    res = _xp.zeros((1,), device=pol.device)  # NumPy starts from the integer 0: float64
    for i in range(pol.shape[0] - 1, -1, -1):
        res = add(mulx(res), pol[i : i + 1])
    return _pu.trimseq(res)


def to_power_series(op, c, step, last):
    """NumPy's <basis>2poly: Clenshaw's recurrence run on power series, from the top term down:
    (c0, c1) = step(i, c0, c1, c[i - 2]) for i = n - 1 ... 2, then last(c0, c1), on 1-D
    series (with add, sub and power_mulx)."""
    [c] = _pu._series(op, [c])
    n = c.shape[0]
    if n == 1:
        return c
    c0, c1 = c[-2:-1], c[-1:]
    for i in range(n - 1, 1, -1):
        c0, c1 = step(i, c0, c1, c[i - 2 : i - 1])
    return _pu.trimseq(last(c0, c1))


def clenshaw_val(op, x, c, tensor, step, last, prepare=None):
    """A series' values by Clenshaw's recurrence, as NumPy's <basis>val: (c0, c1) =
    step(nd, c0, c1, c[nd - 2], x, px) for nd = n - 1 ... 2, then last(c0, c1, x, px), where
    px = prepare(x) (computed once, e.g. 2 x)."""
    x, c = _pu._values_input(op, x, c)
    c = _pu._tensor(x, c, tensor)
    px = x if prepare is None else prepare(x)
    n = c.shape[0]
    if n == 1:
        c0, c1 = c[0], 0
    else:
        c0, c1 = c[-2], c[-1]
        for nd in range(n - 1, 1, -1):
            c0, c1 = step(nd, c0, c1, c[nd - 2], x, px)
    return last(c0, c1, x, px)


def checked_mul(op, mul, c1, c2):
    """A basis's public mul: NumPy's series checks, the untrimmed product mul, one trim."""
    c1, c2 = _pu._series(op, [c1, c2])
    return _pu.trimseq(mul(c1, c2))


def clenshaw_product(c1, c2, step, last):
    """The untrimmed product of two series by Clenshaw's recurrence on series (NumPy's legmul,
    hermmul, ...): the shorter factor's terms scale the longer one, (a, b) = step(nd, a, b,
    c[nd - 2] * xs) for nd = n - 1 ... 2, then last(a, b) (with add, sub and the basis's
    untrimmed mulx)."""
    c, xs = (c2, c1) if c1.shape[0] > c2.shape[0] else (c1, c2)
    n = c.shape[0]
    if n == 1:  # NumPy's 0 here is a float64 series, which sets the result's dtype
        a, b = c[0] * xs, _xp.zeros((1,), device=c.device)
    else:
        a, b = c[-2] * xs, c[-1] * xs
        for nd in range(n - 1, 1, -1):
            a, b = step(nd, a, b, c[nd - 2] * xs)
    return last(a, b)


def recurrence_vander(op, x, deg, first, step):
    """The pseudo-Vandermonde matrix of a three-term recurrence: columns 1, first(x), then
    step(i, v[i - 1], v[i - 2], x) for i = 2 ... deg, along a new last axis."""
    x, deg = _pu._vander_input(op, x, deg)
    v = [x * 0 + 1]
    if deg > 0:
        v.append(first(x))
        for i in range(2, deg + 1):
            v.append(step(i, v[-1], v[-2], x))
    return _xp.stack(v, axis=-1)


def companion(op, c, line_value, band, column):
    """A basis's (scaled) companion matrix: [[line_value(c0, c1)]] for a line; otherwise the
    constant band matrix band(n) (a host NumPy array, uploaded) minus column(c, n) in the last
    column."""
    [c] = _pu._series(op, [c])
    n = c.shape[0] - 1
    if n < 1:
        raise ValueError(f"[{op}] Series must have maximum degree of at least 1.")
    if n == 1:
        return line_value(c[0], c[1]).reshape(1, 1)
    mat = _xp.asarray(band(n).astype(c.dtype), device=c.device)
    mat[:, -1] = mat[:, -1] - column(c, n)
    return mat


def tridiagonal(off, diagonal=None):
    """The host matrix with `off` above and below the diagonal (and `diagonal` on it)."""
    mat = numpy.diag(off, 1) + numpy.diag(off, -1)
    return mat if diagonal is None else mat + numpy.diag(diagonal)


def gauss_nodes(op, deg, companion_f):
    """(deg, the eigenvalues of the companion matrix of the basis polynomial of degree deg):
    the symmetric eigenproblem is solved with NumPy's LAPACK on the host, the nodes come back
    on the default device for the Newton step."""
    ideg = _pu._as_int(op, deg, "deg")
    if ideg <= 0:
        raise ValueError(f"[{op}] deg must be a positive integer")
    c = _xp.asarray([0.0] * ideg + [1.0])
    try:
        x = numpy.linalg.eigvalsh(companion_f(c).get())
    except numpy.linalg.LinAlgError as exc:
        raise numpy.linalg.LinAlgError(f"[{op}] {exc}") from exc
    return ideg, c, _xp.asarray(x, device=c.device)


def symmetrized(x, w):
    """Nodes and weights made exactly symmetric about 0, as NumPy's Gauss rules do."""
    return (x - x[::-1]) / 2, (w + w[::-1]) / 2


def der_by_index(c, factor=1):
    """The derivative step of bases whose derivative is term-wise: der[j - 1] = factor j c[j]
    (power series, Hermite, HermiteE)."""
    return c[1:] * (factor * _pu._index_range(c.shape[0] - 1, c))


def int_by_index(c, factor=1):
    """The matching integration step: out[j + 1] = c[j] / (factor (j + 1)), out[0] = 0."""
    out = empty_like_rows(c, c.shape[0] + 1)
    out[0] = c[0] * 0
    out[1:] = c / (factor * _pu._index_range(c.shape[0], c))
    return out


def normed_hermite(x, n, norm, a):
    """The normalised Hermite function of degree n at x (a = 2: physicists', a = 1:
    probabilists'; norm is its constant term), by the stable recurrence NumPy's Gauss rules
    use."""
    if n == 0:
        return _xp.full(x.shape, norm, device=x.device)
    c0, c1 = 0.0, norm
    for nd in range(n, 1, -1):
        c0, c1 = -c1 * numpy.sqrt((nd - 1.0) / nd), c0 + c1 * x * numpy.sqrt(a / nd)
    return c0 + c1 * x * numpy.sqrt(a)
