"""gpupy.fft on cuda arrays: NumPy's transforms built from one cuFFT primitive.

``_core._cuda_fft`` runs an unnormalised transform along the last axis (complex forward/inverse,
real to half spectrum, half spectrum to real); this module moves the axis there, pads or
truncates to ``n`` and scales for ``norm`` with gpupy operations on the device, as numpy.fft does
(see numpy/fft/_pocketfft.py for the definitions followed here).
"""

import math

import numpy
from numpy.exceptions import AxisError

import gpupy as xp
from gpupy import _core

_SWAPPED = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _axis(op, x, axis):
    if not -x.ndim <= axis < x.ndim:
        raise AxisError(f"[fft.{op}] axis {axis} is out of bounds for array of dimension {x.ndim}")
    return axis % x.ndim


def _check_n(op, n):
    if n < 1:
        raise ValueError(f"[fft.{op}] Invalid number of FFT data points ({n}) specified.")


def _resize(y, n):
    """``y`` cut or zero-padded to ``n`` entries along its last axis."""
    m = y.shape[-1]
    if m == n:
        return y
    if m > n:
        return y[..., :n]
    out = xp.zeros(y.shape[:-1] + (n,), dtype=y.dtype, device=y.device)
    out[..., :m] = y
    return out


def _scale(out, n, norm, inverse):
    # Forward transforms scale by 1, 1/sqrt(n), 1/n for backward, ortho, forward; inverse ones
    # the other way round.
    if norm == "ortho":
        return out * (1.0 / math.sqrt(n))
    if (norm == "forward") != inverse:
        return out * (1.0 / n)
    return out


def transform(op, x, n, axis, norm, kind):
    """One of NumPy's one-axis transforms; kind: forward, inverse, real_forward, real_inverse."""
    norm = norm or "backward"
    if x.ndim == 0:
        raise ValueError(f"[fft.{op}] the input must have at least one dimension")
    axis = _axis(op, x, axis)
    if kind == "real_forward" and x.dtype.kind == "c":
        raise TypeError(f"[fft.{op}] the input must be real, got {x.dtype}")
    # As NumPy: float16 is transformed in single precision, and a complex-to-real transform of
    # float16 input gives float16.
    half = x.dtype == numpy.float16
    y = xp.moveaxis(x.astype("float32") if half else x, axis, -1)
    m = y.shape[-1]
    if kind == "real_inverse":
        n = 2 * (m - 1) if n is None else n
        _check_n(op, n)
        y = _half_spectrum(y, n)
    else:
        n = m if n is None else n
        _check_n(op, n)
        y = _resize(y, n)
    out = _core._cuda_fft(y, kind, n, f"fft.{op}")
    out = _scale(out, n, norm, kind in ("inverse", "real_inverse"))
    if half and kind == "real_inverse":
        out = out.astype("float16")
    return xp.moveaxis(out, -1, axis)


def _half_spectrum(y, n):
    """The n//2+1 values a complex-to-real transform reads, in a new complex array whose zero
    (and, for even n, Nyquist) frequency is made real: NumPy ignores their imaginary parts,
    while cuFFT's result for them is unspecified."""
    single = y.dtype in (numpy.float32, numpy.complex64)
    dtype = "complex64" if single else "complex128"
    y = _resize(y, n // 2 + 1).astype(dtype, copy=True)
    y[..., 0] = xp.real(y[..., 0])
    if n % 2 == 0:
        y[..., n // 2] = xp.real(y[..., n // 2])
    return y


def fft(x, n, axis, norm):
    return transform("fft", x, n, axis, norm, "forward")


def ifft(x, n, axis, norm):
    return transform("ifft", x, n, axis, norm, "inverse")


def rfft(x, n, axis, norm):
    return transform("rfft", x, n, axis, norm, "real_forward")


def irfft(x, n, axis, norm):
    return transform("irfft", x, n, axis, norm, "real_inverse")


def hfft(x, n, axis, norm):
    # The transform of a Hermitian-symmetric signal: irfft of the conjugate, scaled the other way.
    if x.ndim and n is None:
        n = 2 * (x.shape[_axis("hfft", x, axis)] - 1)
    return transform("hfft", xp.conj(x), n, axis, _SWAPPED[norm or "backward"], "real_inverse")


def ihfft(x, n, axis, norm):
    out = transform("ihfft", x, n, axis, _SWAPPED[norm or "backward"], "real_forward")
    return xp.conj(out)


def _nd_args(op, x, s, axes, invreal=False):
    """NumPy's (s, axes) defaults: every axis, or the last len(s); -1 in s keeps an axis' size."""
    shapeless = s is None
    if axes is None:
        axes = list(range(-len(s), 0)) if s is not None else list(range(-x.ndim, 0))
    else:
        axes = [int(a) for a in numpy.atleast_1d(axes)]
    for a in axes:
        _axis(op, x, a)
    s = [x.shape[a] for a in axes] if s is None else [int(v) for v in numpy.atleast_1d(s)]
    if len(s) != len(axes):
        raise ValueError(f"[fft.{op}] Shape and axes have different lengths.")
    if invreal and shapeless and axes:
        s[-1] = (x.shape[axes[-1]] - 1) * 2
    s = [x.shape[a] if v == -1 else v for v, a in zip(s, axes, strict=True)]
    return s, axes


def _each_axis(op, x, s, axes, norm, kind):
    s, axes = _nd_args(op, x, s, axes)
    for n, axis in reversed(list(zip(s, axes, strict=True))):
        x = transform(op, x, n, axis, norm, kind)
    return x


def fftn(x, s, axes, norm):
    return _each_axis("fftn", x, s, axes, norm, "forward")


def ifftn(x, s, axes, norm):
    return _each_axis("ifftn", x, s, axes, norm, "inverse")


def rfftn(x, s, axes, norm):
    # rfft along the last axis, then complex transforms along the others (last to first).
    s, axes = _nd_args("rfftn", x, s, axes)
    if not axes:
        raise ValueError("[fft.rfftn] at least one axis is needed")
    x = transform("rfftn", x, s[-1], axes[-1], norm, "real_forward")
    for n, axis in reversed(list(zip(s[:-1], axes[:-1], strict=True))):
        x = transform("rfftn", x, n, axis, norm, "forward")
    return x


def irfftn(x, s, axes, norm):
    # Inverse complex transforms along every axis but the last (first to last), then irfft.
    s, axes = _nd_args("irfftn", x, s, axes, invreal=True)
    if not axes:
        raise ValueError("[fft.irfftn] at least one axis is needed")
    for n, axis in zip(s[:-1], axes[:-1], strict=True):
        x = transform("irfftn", x, n, axis, norm, "inverse")
    return transform("irfftn", x, s[-1], axes[-1], norm, "real_inverse")


def shift(op, x, axes, inverse):
    """fftshift / ifftshift: a roll by half of each axis (rounded down, or up for the inverse)."""
    if axes is None:
        axes = tuple(range(x.ndim))
    axes_list = [int(a) for a in numpy.atleast_1d(axes)]
    shifts = [(-1 if inverse else 1) * (x.shape[_axis(op, x, a)] // 2) for a in axes_list]
    return xp.roll(x, shifts, axis=tuple(axes_list))


ONE_AXIS = {
    "fft": fft,
    "ifft": ifft,
    "rfft": rfft,
    "irfft": irfft,
    "hfft": hfft,
    "ihfft": ihfft,
}
N_AXES = {"fftn": fftn, "ifftn": ifftn, "rfftn": rfftn, "irfftn": irfftn}
