"""solve_circulant on the arrays' own backend (FFTs there; nothing leaves the device but the
one answer of the singularity test): xp.scipy.linalg.solve_circulant on the gpupy and CuPy
backends, whose SciPy counterparts lack it."""

import numpy

_OP = "scipy.linalg.solve_circulant"


def _axis_len(name, a, axis):
    if not -a.ndim <= axis < a.ndim:
        raise ValueError(f"[{_OP}] {name}axis={axis} is out of bounds for {name} of {a.ndim}-D")
    return a.shape[axis]


def _inexact(m, a):
    a = m.asarray(a)
    if a.ndim == 0:
        a = m.reshape(a, (1,))
    return a


def solve_circulant(c, b, singular="raise", tol=None, caxis=-1, baxis=0, outaxis=0):
    """See scipy.linalg.solve_circulant: solves C x = b for the circulant matrix C whose first
    column is c, with FFTs on the backend of c (batches along the other axes broadcast). A (near)
    singular C raises LinAlgError, or with singular="lstsq" gives the least-squares solution."""
    from gpupy.cunumpy._backend import get_array_module

    if singular not in ("raise", "lstsq"):
        raise ValueError(f"[{_OP}] singular must be 'raise' or 'lstsq', got {singular!r}")
    m = get_array_module(c, b)
    c, b = _inexact(m, c), _inexact(m, b)
    n = _axis_len("c", c, caxis)
    if _axis_len("b", b, baxis) != n:
        raise ValueError(
            f"[{_OP}] shapes of c {tuple(c.shape)} and b {tuple(b.shape)} are incompatible"
        )
    if b.size == 0:
        dt = numpy.result_type(c.dtype, b.dtype, numpy.complex64)  # what the FFTs would give
        if c.dtype.kind != "c" and b.dtype.kind != "c":
            dt = numpy.finfo(dt).dtype
        return m.empty(b.shape, dtype=dt)
    fc = m.fft.fft(m.moveaxis(c, caxis, -1), axis=-1)
    abs_fc = m.abs(fc)
    if tol is None:  # numpy.linalg.matrix_rank's tolerance, as in SciPy
        tol = m.max(abs_fc, axis=-1, keepdims=True) * n * numpy.finfo(numpy.float64).eps
    near_zero = abs_fc <= tol
    singular_c = bool(m.any(near_zero))
    if singular_c:
        if singular == "raise":
            raise numpy.linalg.LinAlgError(f"[{_OP}] near singular circulant matrix")
        fc = m.where(near_zero, 1, fc)
    q = m.fft.fft(m.moveaxis(b, baxis, -1), axis=-1) / fc
    if singular_c:
        q = m.where(near_zero, 0, q)
    x = m.fft.ifft(q, axis=-1)
    if c.dtype.kind != "c" and b.dtype.kind != "c":
        x = m.real(x)
    return x if outaxis == -1 else m.moveaxis(x, -1, outaxis)
