"""Times common NumPy calls on 1M-element arrays with NumPy and with gpupy on one device, and
prints NumPy time / gpupy time (> 1: gpupy faster). A survey for finding slow paths, not a
target check: `python -m gpupy.bench` holds the targets.

    PYTHONPATH=python python benchmarks/survey.py [--device cpu|emu|cuda]
"""

import argparse
import time

import gpupy as gp
import numpy as np


def best_ms(fn, budget=0.2):
    """Best per-call time in ms over 3 rounds of as many calls as fit in `budget` seconds."""
    fn()
    gp.synchronize()
    t0 = time.perf_counter()
    fn()
    gp.synchronize()
    repeats = max(1, min(200, int(budget / max(time.perf_counter() - t0, 1e-6))))
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(repeats):
            fn()
        gp.synchronize()
        best = min(best, (time.perf_counter() - t0) / repeats)
    return best * 1e3


def cases(device):
    n = 1 << 20
    rng = np.random.default_rng(0)
    a, b = rng.random(n), rng.random(n)
    i, small = rng.integers(0, n, n), rng.integers(0, 100, n)
    mask, m = a > 0.5, rng.random((1000, 1000))
    ga, gb, gi, gsmall, gmask, gm = (
        gp.asarray(x, device=device) for x in (a, b, i, small, mask, m)
    )
    sa = np.sort(a)
    gsa = gp.sort(ga)
    return [
        ("mean", lambda: a.mean(), lambda: ga.mean()),
        ("std", lambda: a.std(), lambda: ga.std()),
        ("sort", lambda: np.sort(a), lambda: gp.sort(ga)),
        ("argsort", lambda: np.argsort(a), lambda: gp.argsort(ga)),
        ("a[i]", lambda: a[i], lambda: ga[gi]),
        ("a[mask]", lambda: a[mask], lambda: ga[gmask]),
        ("where", lambda: np.where(mask, a, b), lambda: gp.where(gmask, ga, gb)),
        ("cumsum", lambda: np.cumsum(a), lambda: gp.cumsum(ga)),
        ("concatenate", lambda: np.concatenate([a, b]), lambda: gp.concatenate([ga, gb])),
        ("unique (100 values)", lambda: np.unique(small), lambda: gp.unique(gsmall)),
        ("bincount (100 bins)", lambda: np.bincount(small), lambda: gp.bincount(gsmall)),
        ("M.T.copy(), 1000^2", lambda: m.T.copy(), lambda: gm.T.copy()),
        ("M.sum(0)", lambda: m.sum(0), lambda: gm.sum(0)),
        ("M.sum(1)", lambda: m.sum(1), lambda: gm.sum(1)),
        ("M @ M", lambda: m @ m, lambda: gm @ gm),
        ("exp", lambda: np.exp(a), lambda: gp.exp(ga)),
        ("sin", lambda: np.sin(a), lambda: gp.sin(ga)),
        ("a ** 2", lambda: a**2, lambda: ga**2),
        ("power(a, 2.5)", lambda: np.power(a, 2.5), lambda: gp.power(ga, 2.5)),
        ("sqrt", lambda: np.sqrt(a), lambda: gp.sqrt(ga)),
        ("clip", lambda: np.clip(a, 0.2, 0.8), lambda: gp.clip(ga, 0.2, 0.8)),
        ("argmax", lambda: a.argmax(), lambda: ga.argmax()),
        ("isin (3 values)", lambda: np.isin(small, [1, 5, 7]), lambda: gp.isin(gsmall, [1, 5, 7])),
        ("searchsorted", lambda: np.searchsorted(sa, b), lambda: gp.searchsorted(gsa, gb)),
        ("percentile", lambda: np.percentile(a, 90), lambda: gp.percentile(ga, 90)),
        ("histogram (50 bins)", lambda: np.histogram(a, 50), lambda: gp.histogram(ga, 50)),
        ("fft", lambda: np.fft.fft(a), lambda: gp.fft.fft(ga)),
        ("linspace", lambda: np.linspace(0, 1, n), lambda: gp.linspace(0, 1, n, device=device)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=str(gp.get_default_device()))
    device = parser.parse_args().device
    print(f"1M elements (float64, int64 indices) on {device}; ms per call")
    print(f"{'op':22s} {'NumPy':>10s} {'gpupy':>10s} {'NumPy/gpupy':>12s}")
    for name, numpy_fn, gpupy_fn in cases(device):
        tn, tg = best_ms(numpy_fn), best_ms(gpupy_fn)
        print(f"{name:22s} {tn:10.3f} {tg:10.3f} {tn / tg:12.2f}")


if __name__ == "__main__":
    main()
