"""Cleaning a noisy two-tone signal: FFT low-pass, windowed-sinc FIR filter, moving average."""

import numpy as _numpy

_rng = _numpy.random.default_rng(2024)
NOISE = 0.4 * _rng.standard_normal(512)

TOLERANCE = (1e-9, 1e-11)


def run(np):
    fs = 256.0
    t = np.arange(512) / fs
    clean = np.sin(2 * np.pi * 5 * t) + 0.5 * np.sin(2 * np.pi * 12 * t)
    signal = clean + np.asarray(NOISE)

    spectrum = np.fft.rfft(signal)
    freqs = np.fft.rfftfreq(signal.size, d=1 / fs)
    spectrum[freqs > 20.0] = 0
    fft_filtered = np.fft.irfft(spectrum, n=signal.size)

    # windowed-sinc FIR, 20 Hz cut-off, Hamming window
    taps = 51
    m = np.arange(taps) - (taps - 1) / 2
    h = np.sinc(2 * 20.0 / fs * m) * np.hamming(taps)
    h /= h.sum()
    fir = np.convolve(signal, h, mode="same")

    box = np.ones(9) / 9
    moving = np.convolve(signal, box, mode="valid")

    power = np.abs(np.fft.fft(signal)) ** 2 / signal.size
    top = np.argsort(power[: signal.size // 2])[-2:][::-1]
    windows = np.stack([np.hanning(16), np.hamming(16), np.blackman(16), np.bartlett(16)])
    kaiser = np.kaiser(16, 8.6)

    def rms(x):
        return np.sqrt(np.mean(x**2))

    return {
        "fft_filtered": fft_filtered,
        "fir": fir,
        "moving": moving,
        "top_bins": top,
        "top_freqs": np.fft.fftfreq(signal.size, 1 / fs)[top],
        "rms_error_fft": float(rms(fft_filtered - clean)),
        "rms_error_fir": rms(fir[taps:-taps] - clean[taps:-taps]),
        "windows": windows,
        "kaiser": kaiser,
        "shifted": np.fft.fftshift(np.fft.fftfreq(8, 0.5)),
    }
