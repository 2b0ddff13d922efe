"""The window functions hamming, hanning, bartlett, blackman and kaiser: see the NumPy functions
of the same names. They take no array, so they are built on the default device with gpupy
operations (float64, as in NumPy).
"""

import math

from gpupy import _core

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser"]


def _window(m, body):
    """NumPy's window skeleton: float64, empty below 1 sample, [1.0] for one sample."""
    from gpupy import arange, ones

    m = float(m)
    if m < 1:
        return _core.empty((0,), "float64", None)
    if m == 1:
        return ones((1,), dtype="float64")
    return body(arange(1 - m, m, 2, dtype="float64"), m)


def hamming(M):  # noqa: N803 - NumPy's name
    """See numpy.hamming."""
    from gpupy import cos

    return _window(M, lambda n, m: 0.54 + 0.46 * cos(math.pi * n / (m - 1)))


def hanning(M):  # noqa: N803
    """See numpy.hanning."""
    from gpupy import cos

    return _window(M, lambda n, m: 0.5 + 0.5 * cos(math.pi * n / (m - 1)))


def bartlett(M):  # noqa: N803
    """See numpy.bartlett."""
    from gpupy import where

    return _window(M, lambda n, m: where(n <= 0, 1 + n / (m - 1), 1 - n / (m - 1)))


def blackman(M):  # noqa: N803
    """See numpy.blackman."""
    from gpupy import cos

    def body(n, m):
        return 0.42 + 0.5 * cos(math.pi * n / (m - 1)) + 0.08 * cos(2.0 * math.pi * n / (m - 1))

    return _window(M, body)


def kaiser(M, beta):  # noqa: N803
    """See numpy.kaiser (I0 evaluated with gpupy operations on the default device)."""
    from gpupy import asarray, i0, sqrt

    def body(_n, m):
        from gpupy import arange

        n = arange(0, m, dtype="float64")
        alpha = (m - 1) / 2.0
        b = asarray(float(beta))
        return i0(b * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(b)

    return _window(M, body)
