"""gpupy's math ufuncs against NumPy on one device, float32 and float64.

    PYTHONPATH=python python benchmarks/math_ufuncs.py [--device=cpu] [--n=4194304] [name ...]

Each ufunc writes into a preallocated output (``out=``) on both sides, so the table compares the
loops and not first-touch page faults. GPUPY_FAST_MATH=0 turns the cpu device's vector loops
(src/backend/cpu/fast_math.cpp) off, for a before/after comparison in one build.
"""

import argparse

import gpupy
import numpy as np
from gpupy.bench._timer import measure

UNARY = [
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
    "cbrt", "floor", "ceil", "trunc", "rint", "absolute", "square", "reciprocal", "sign",
    "isnan", "isfinite", "signbit", "spacing",
]  # fmt: skip
BINARY = [
    "add", "multiply", "divide", "power", "arctan2", "hypot", "logaddexp", "logaddexp2",
    "copysign", "nextafter", "fmod", "maximum",
]  # fmt: skip
# Inputs inside each function's domain, so that no loop times NaN handling.
DOMAIN = {
    "arcsin": (-1, 1), "arccos": (-1, 1), "arctanh": (-0.99, 0.99), "arccosh": (1, 10),
    "log": (0.01, 100), "log2": (0.01, 100), "log10": (0.01, 100), "log1p": (0, 100),
    "sqrt": (0, 100), "power": (0.1, 3), "exp": (-80, 80), "exp2": (-100, 100),
    "expm1": (-80, 80), "sinh": (-80, 80), "cosh": (-80, 80),
}  # fmt: skip


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--n", type=int, default=1 << 22)
    parser.add_argument("names", nargs="*")
    args = parser.parse_args()
    device = gpupy.Device(args.device)
    rng = np.random.default_rng(0)
    print(f"{'ufunc':12} {'dtype':8} {'gpupy ms':>9} {'numpy ms':>9} {'gpupy/numpy':>11}")
    for dtype in (np.float32, np.float64):
        for name in UNARY + BINARY:
            if args.names and name not in args.names:
                continue
            lo, hi = DOMAIN.get(name, (-10, 10))
            xs = [(rng.random(args.n) * (hi - lo) + lo).astype(dtype)]
            if name in BINARY:
                xs.append((rng.random(args.n) * (hi - lo) + lo).astype(dtype))
            np_fn, gp_fn = getattr(np, name), getattr(gpupy, name)
            np_out = np_fn(*xs)
            gxs = [gpupy.asarray(x, device=device) for x in xs]
            gp_out = gpupy.asarray(np.empty_like(np_out), device=device)
            t_np = measure(lambda: np_fn(*xs, out=np_out))  # noqa: B023 - called right here
            t_gp = measure(
                lambda: gp_fn(*gxs, out=gp_out),  # noqa: B023
                sync=lambda: gpupy.synchronize(device),
            )
            print(
                f"{name:12} {np.dtype(dtype).name:8} {t_gp * 1e3:9.2f} {t_np * 1e3:9.2f}"
                f" {t_gp / t_np:11.2f}"
            )


if __name__ == "__main__":
    main()
