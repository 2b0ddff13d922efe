"""gpupy.fft: the Array API FFT extension, plus NumPy's fft2, ifft2, rfft2 and irfft2.

Transforms run NumPy's pocketfft-backed numpy.fft on zero-copy host views of cpu and emu arrays
(see _host_library) and cuFFT on cuda arrays (see _cuda_fft). Dtypes follow NumPy 2: single
precision stays single (float32 -> complex64), everything else is double. fftfreq and rfftfreq
are built from gpupy operations and run on every device.
"""

import numpy as _numpy

from gpupy import _cuda_fft
from gpupy._creation import arange as _arange
from gpupy._host_library import on_cuda as _on_cuda
from gpupy._host_library import run as _run
from gpupy._utilities import _into_out
from gpupy._utilities import check_operands as _check_operands

_np = _numpy.fft
_NORMS = ("backward", "ortho", "forward")


def _check_norm(op, norm):
    # numpy.fft accepts None as "backward"; anything else is refused before touching the data.
    if norm is not None and norm not in _NORMS:
        raise ValueError(f"[fft.{op}] norm must be one of {_NORMS}, got {norm!r}")


def _dispatch(name, fn, cuda_table, a, norm, out, **params):
    """One transform: cuFFT for cuda arrays (cuda_table[name], which takes ``params``, (n, axis)
    or (s, axes), positionally), NumPy's pocketfft (fn) on cpu and emu."""
    op = f"fft.{name}"
    cuda_x = _on_cuda(op, a)
    if cuda_x is not None:  # (NumPy checks norm after the axes and sizes, as cpu and emu)
        _check_norm(name, norm)
        result = cuda_table[name](cuda_x[0], *params.values(), norm)
    else:
        result = _run(op, fn, a, **params, norm=norm)
    return _into_out(op, result, out, "same_kind")


def _named(transform, name):
    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"See numpy.fft.{name}."
    return transform


# NumPy's signatures (n, axis, norm positional too, and out=), a superset of the Array API's.
def _one_axis(name, fn):
    def transform(a, n=None, axis=-1, norm="backward", out=None):
        return _dispatch(name, fn, _cuda_fft.ONE_AXIS, a, norm, out, n=n, axis=axis)

    return _named(transform, name)


def _n_axes(name, fn):
    def transform(a, s=None, axes=None, norm="backward", out=None):
        return _dispatch(name, fn, _cuda_fft.N_AXES, a, norm, out, s=s, axes=axes)

    return _named(transform, name)


fft = _one_axis("fft", _np.fft)
ifft = _one_axis("ifft", _np.ifft)
rfft = _one_axis("rfft", _np.rfft)
irfft = _one_axis("irfft", _np.irfft)
hfft = _one_axis("hfft", _np.hfft)
ihfft = _one_axis("ihfft", _np.ihfft)
fftn = _n_axes("fftn", _np.fftn)
ifftn = _n_axes("ifftn", _np.ifftn)
rfftn = _n_axes("rfftn", _np.rfftn)
irfftn = _n_axes("irfftn", _np.irfftn)


def _two_axes(name, transform_n):
    def transform(a, s=None, axes=(-2, -1), norm=None, out=None):
        _check_operands(f"fft.{name}", (a,))  # before ndim, which reads None as an object array
        ndim = _numpy.ndim(a)
        # NumPy runs the 1-D transforms last axis first, so with s= given a bad input for the
        # last one (complex data to rfft2, a non-integer size) is found before an axis out of
        # range; pocketfft's run keeps that order, cuFFT's takes the axes checked here.
        checked = (
            () if axes is None or (s is not None and _on_cuda(f"fft.{name}", a) is None) else axes
        )
        for ax in checked:
            if not -ndim <= ax < ndim:
                # NumPy's AxisError: both a ValueError and an IndexError.
                raise _numpy.exceptions.AxisError(
                    f"[fft.{name}] axis {ax} is out of bounds for array of dimension {ndim}"
                )
        try:
            result = transform_n(a, s=s, axes=axes, norm=norm)
        except (ValueError, TypeError) as exc:
            # The n-D transform's message (e.g. a zero-length axis), named after this call.
            message, inner = str(exc), f"[fft.{transform_n.__name__}] "
            if not message.startswith(inner):
                raise
            raise type(exc)(f"[fft.{name}] {message[len(inner) :]}") from exc
        return _into_out(f"fft.{name}", result, out, "same_kind")

    transform.__name__ = transform.__qualname__ = name
    transform.__doc__ = f"See numpy.fft.{name}: the n-D transform over two axes (-2, -1 default)."
    return transform


fft2 = _two_axes("fft2", fftn)
ifft2 = _two_axes("ifft2", ifftn)
rfft2 = _two_axes("rfft2", rfftn)
irfft2 = _two_axes("irfft2", irfftn)


def _check_freq_args(op, n, dtype):
    if not isinstance(n, (int, _numpy.integer)) or isinstance(n, bool) or n <= 0:
        # NumPy divides by n*d first: its error for n == 0 is a ZeroDivisionError
        error = ZeroDivisionError if n == 0 and not isinstance(n, bool) else ValueError
        raise error(f"[fft.{op}] n must be a positive integer, got {n!r}")
    if dtype is not None and _numpy.dtype(dtype).kind != "f":
        raise ValueError(f"[fft.{op}] dtype must be a real floating-point dtype, got {dtype}")


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """See numpy.fft.fftfreq: [0, 1, ..., -(n//2), ..., -1] / (d*n), float64 by default.

    `d` and `device` may be positional, as in NumPy (`fftfreq(n, 1 / fs)`)."""
    _check_freq_args("fftfreq", n, dtype)
    # (i + n//2) % n - n//2 maps i to i for the first (n+1)//2 entries and to i-n after them.
    k = (_arange(n, dtype="int64", device=device) + n // 2) % n - n // 2
    return _scaled(k, 1.0 / (n * d), dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """See numpy.fft.rfftfreq: [0, 1, ..., n//2] / (d*n), float64 by default."""
    _check_freq_args("rfftfreq", n, dtype)
    return _scaled(_arange(n // 2 + 1, dtype="int64", device=device), 1.0 / (n * d), dtype)


def _scaled(k, step, dtype):
    # NumPy multiplies the integers by 1/(n*d) in float64; a narrower dtype is a final cast.
    out = k.astype("float64") * step
    return out if dtype is None or _numpy.dtype(dtype) == out.dtype else out.astype(dtype)


def fftshift(x, axes=None):
    """See numpy.fft.fftshift."""
    cuda_x = _on_cuda("fft.fftshift", x)
    if cuda_x is not None:
        return _cuda_fft.shift("fftshift", cuda_x[0], axes, inverse=False)
    return _run("fft.fftshift", _np.fftshift, x, axes=axes)


def ifftshift(x, axes=None):
    """See numpy.fft.ifftshift."""
    cuda_x = _on_cuda("fft.ifftshift", x)
    if cuda_x is not None:
        return _cuda_fft.shift("ifftshift", cuda_x[0], axes, inverse=True)
    return _run("fft.ifftshift", _np.ifftshift, x, axes=axes)


__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
]
