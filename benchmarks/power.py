"""power on one device against NumPy: one exponent for every element, an exponent array, the **
operator with the exponents NumPy special-cases (2, 0.5) and one it does not (3), and float_power.

    PYTHONPATH=python python benchmarks/power.py [--device=cpu] [--n=1048576 ...]

Calls with ``out=`` write into preallocated outputs on both sides (the loops, not page faults);
the ** rows allocate, as user code does. GPUPY_FAST_MATH=0 turns the cpu device's replay of the
C library's pow off (src/backend/cpu/libm_replay_pow.cpp), for a before/after in one build.
"""

import argparse

import gpupy
import numpy as np
from gpupy.bench._timer import measure


def cases(xp, a, b, out):
    return [
        ("power(a, 2.5, out)", lambda: xp.power(a, 2.5, out=out)),
        ("power(a, b, out)", lambda: xp.power(a, b, out=out)),
        ("a ** 2.5", lambda: a**2.5),
        ("a ** 3", lambda: a**3),
        ("a ** 2", lambda: a**2),
        ("a ** 0.5", lambda: a**0.5),
        ("float_power(a, b)", lambda: xp.float_power(a, b)),
    ]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--n", type=int, nargs="+", default=[1 << 20, 1 << 24])
    args = parser.parse_args()
    device = gpupy.Device(args.device)
    rng = np.random.default_rng(0)
    print(f"{'n':>9} {'dtype':8} {'case':20} {'gpupy ms':>9} {'numpy ms':>9} {'gpupy/numpy':>11}")
    for n in args.n:
        for dtype in (np.float64, np.float32):
            a = (rng.random(n) * 2.9 + 0.1).astype(dtype)  # inside pow's fast path
            b = (rng.random(n) * 6 - 3).astype(dtype)
            ga, gb = gpupy.asarray(a, device=device), gpupy.asarray(b, device=device)
            gout = gpupy.asarray(np.empty_like(a), device=device)
            for (name, fn_np), (_, fn_gp) in zip(
                cases(np, a, b, np.empty_like(a)), cases(gpupy, ga, gb, gout), strict=True
            ):
                t_np = measure(fn_np)
                t_gp = measure(fn_gp, sync=lambda: gpupy.synchronize(device))
                print(
                    f"{n:9} {np.dtype(dtype).name:8} {name:20} {t_gp * 1e3:9.2f} {t_np * 1e3:9.2f}"
                    f" {t_gp / t_np:11.2f}"
                )


if __name__ == "__main__":
    main()
