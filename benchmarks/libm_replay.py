"""The cpu device's replayed C library functions (tanh, expm1, log1p, arctan2) against NumPy, in
CPU time of one thread, float32 and float64.

    GPUPY_NUM_THREADS=1 PYTHONPATH=python python benchmarks/libm_replay.py [--n=1048576 ...]

CPU time (the best of --runs, ``time.process_time``) stays usable on a machine shared with other
jobs, where wall time does not. Each call writes into a preallocated output on both sides.
GPUPY_FAST_MATH=0 turns the replay loops off (every element through the C library), for a
before/after in one build; the results are bit-identical either way.
"""

import argparse
import time

import gpupy
import numpy as np

# Inputs where each function computes (no NaN or overflow handling timed).
CASES = {"tanh": (-3, 3), "expm1": (-3, 3), "log1p": (-0.9, 3), "arctan2": (-3, 3)}


def cpu_ms(fn, runs):
    fn()
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best * 1e3


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, nargs="+", default=[1 << 20, 1 << 24])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(f"{'n':>9} {'dtype':8} {'ufunc':8} {'gpupy ms':>9} {'numpy ms':>9} {'gpupy/numpy':>11}")
    for n in args.n:
        runs = max(3, args.runs * (1 << 20) // n)
        for dtype in (np.float32, np.float64):
            for name, (lo, hi) in CASES.items():
                xs = [(rng.random(n) * (hi - lo) + lo).astype(dtype)]
                if name == "arctan2":
                    xs.append((rng.random(n) * (hi - lo) + lo).astype(dtype))
                np_fn, gp_fn = getattr(np, name), getattr(gpupy, name)
                np_out = np.empty_like(xs[0])
                gxs = [gpupy.asarray(x, device="cpu") for x in xs]
                gp_out = gpupy.empty_like(gxs[0])
                t_np = cpu_ms(lambda: np_fn(*xs, out=np_out), runs)  # noqa: B023
                t_gp = cpu_ms(lambda: gp_fn(*gxs, out=gp_out), runs)  # noqa: B023
                print(
                    f"{n:9} {np.dtype(dtype).name:8} {name:8} {t_gp:9.2f} {t_np:9.2f}"
                    f" {t_gp / t_np:11.2f}"
                )


if __name__ == "__main__":
    main()
