"""Welch power spectral density and autocorrelation of a recorded vibration signal, done by hand."""

import numpy as _numpy

_rng = _numpy.random.default_rng(11)
RECORD = _numpy.sin(2 * _numpy.pi * 40.0 * _numpy.arange(2048) / 1000.0) + _rng.standard_normal(
    2048
)

TOLERANCE = (1e-9, 1e-12)


def welch(np, x, fs, nperseg):
    step = nperseg // 2
    starts = np.arange(0, x.size - nperseg + 1, step)
    segments = x[starts[:, np.newaxis] + np.arange(nperseg)]  # (nseg, nperseg) by fancy indexing
    segments = segments - segments.mean(axis=1, keepdims=True)
    win = np.hanning(nperseg)
    scale = 1.0 / (fs * (win**2).sum())
    spec = np.abs(np.fft.rfft(segments * win, axis=1)) ** 2 * scale
    spec[:, 1:-1] *= 2
    return np.fft.rfftfreq(nperseg, 1 / fs), spec.mean(axis=0), segments.shape[0]


def run(np):
    fs = 1000.0
    x = np.asarray(RECORD)
    f, pxx, nseg = welch(np, x, fs, 256)
    peak = f[np.argmax(pxx)]
    band = (f > 30) & (f < 50)
    band_power = np.trapezoid(pxx[band], f[band])
    total_power = np.trapezoid(pxx, f)

    # periodogram of the whole record and Parseval check
    X = np.fft.fft(x)
    parseval = np.sum(np.abs(X) ** 2) / x.size - np.sum(x**2)

    # autocorrelation through the FFT (zero-padded) and directly
    xc = x - x.mean()
    nfft = 2 * x.size
    acf = np.fft.irfft(np.abs(np.fft.rfft(xc, nfft)) ** 2, nfft)[: x.size]
    acf /= acf[0]
    direct = np.correlate(xc[:200], xc[:200], mode="full")[199:]
    direct = direct / direct[0]
    lag = int(np.argmax(acf[10:60])) + 10
    return {
        "freqs": f,
        "pxx": pxx,
        "segments": nseg,
        "peak_hz": float(peak),
        "band_fraction": band_power / total_power,
        "parseval": abs(float(parseval)) < 1e-6 * float(np.sum(x**2)),
        "acf": acf[:50],
        "direct": direct[:30],
        "lag": lag,
        "spectrogram_shape": np.fft.rfft(x.reshape(16, 128), axis=-1).shape,
        "db": 10 * np.log10(pxx[:20], out=np.full(20, -np.inf), where=pxx[:20] > 0),
    }
