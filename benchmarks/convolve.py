"""Times convolve and correlate with NumPy and with gpupy on one device, and prints
NumPy time / gpupy time (> 1: gpupy faster).

    PYTHONPATH=python python benchmarks/convolve.py [--device cpu|emu|cuda] [--budget 0.2]
"""

import argparse

import gpupy as gp
import numpy as np
from survey import best_ms


def cases(device):
    rng = np.random.default_rng(0)
    for n, m, dtype, mode in [
        (399, 399, "float64", "full"),
        (10**5, 7, "float64", "full"),
        (10**4, 10**3, "float64", "full"),
        (10**4, 10**3, "float32", "same"),
        (10**4, 10**3, "int64", "valid"),
    ]:
        a = (rng.standard_normal(n) * 100).astype(dtype)
        v = (rng.standard_normal(m) * 100).astype(dtype)
        da, dv = gp.asarray(a, device=device), gp.asarray(v, device=device)
        yield (
            f"convolve {n}x{m} {dtype} {mode}",
            lambda a=a, v=v, mode=mode: np.convolve(a, v, mode),
            lambda a=da, v=dv, mode=mode: gp.convolve(a, v, mode),
        )
    a, v = rng.standard_normal(10**4), rng.standard_normal(10**3)
    da, dv = gp.asarray(a, device=device), gp.asarray(v, device=device)
    yield (
        "correlate 10000x1000 float64 valid",
        lambda: np.correlate(a, v),
        lambda: gp.correlate(da, dv),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--budget", type=float, default=0.2)
    args = parser.parse_args()
    print(f"on {args.device}; ms per call")
    print(f"{'op':38s} {'NumPy':>10s} {'gpupy':>10s} {'NumPy/gpupy':>12s}")
    for name, fn_np, fn_gp in cases(args.device):
        tn, tg = best_ms(fn_np, args.budget), best_ms(fn_gp, args.budget)
        print(f"{name:38s} {tn:10.3f} {tg:10.3f} {tn / tg:12.2f}")


if __name__ == "__main__":
    main()
