"""The cpu device's vector math loops reached through strided, transposed, broadcast and float16
inputs, against NumPy in the same process (1M elements, minimum of repeats).

    PYTHONPATH=python GPUPY_NUM_THREADS=1 python benchmarks/strided_math.py [repeats]

GPUPY_FAST_MATH=0 turns the cpu vector loops off (the per-element library calls), for a before
and after in one build.
"""

import sys
import time

import gpupy
import numpy as np

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 15
N = 1 << 20
rng = np.random.default_rng(0)


def best(f, args, kw):
    """Seconds of the fastest of REPEATS calls f(*args, **kw), after one warm-up call."""
    f(*args, **kw)
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        f(*args, **kw)
        times.append(time.perf_counter() - t)
    return min(times)


def cases(dt):
    """(label, ufunc name, numpy inputs, keywords); inputs are views of 2M-element arrays."""
    v = rng.uniform(-3, 3, 2 * N).astype(dt)
    w = rng.uniform(0.5, 3, 2 * N).astype(dt)
    m = v[:N].reshape(1024, 1024)
    yield "exp, contiguous", "exp", (v[:N],), {}
    yield "tanh a[::2]", "tanh", (v[::2],), {}
    yield "exp a[::-1]", "exp", (v[:N][::-1],), {}
    yield "exp M.T (1024x1024)", "exp", (m.T,), {}
    yield "sin M[:, 0] (M 1Mx2)", "sin", (v.reshape(N, 2)[:, 0],), {}
    runs = (w[: N // 3 * 6]).reshape(-1, 6)[:, :3]
    yield "log M[:, :3] (runs of 3)", "log", (runs,), {}
    col = v[:1024]
    yield "exp broadcast col[:, None]", "exp", (np.broadcast_to(col[:, None], (1024, 1024)),), {}
    yield "exp broadcast col[None, :]", "exp", (np.broadcast_to(col[None, :], (1024, 1024)),), {}
    yield "power a[::2] ** 2.5", "power", (w[::2], dt(2.5)), {}
    yield "power M.T ** M", "power", (np.abs(m.T) + 0.5, np.abs(m) + 0.5), {}
    pairs = w.reshape(N // 2, 4)
    yield "power M[:, :2] ** M[:, 2:] (runs of 2)", "power", (pairs[:, :2], pairs[:, 2:]), {}
    if dt == np.float32:
        yield "arctan2 a[::2], b[::2]", "arctan2", (v[::2], w[::2]), {}


def casting_cases():
    x = rng.uniform(-3, 3, N).astype(np.float32)
    yield "exp int32 (float64 loop)", "exp", (rng.integers(-20, 20, N).astype(np.int32),), {}
    yield "exp int16 (float32 loop)", "exp", (rng.integers(-20, 20, N).astype(np.int16),), {}
    yield "exp float32, dtype=float64", "exp", (x,), {"dtype": "float64"}
    yield "exp float16", "exp", (x.astype(np.float16),), {}
    yield "tanh float16", "tanh", (x.astype(np.float16),), {}
    yield "sin float16[::2]", "sin", (rng.uniform(-3, 3, 2 * N).astype(np.float16)[::2],), {}
    h = rng.uniform(0.5, 3, N).astype(np.float16), rng.uniform(-2, 2, N).astype(np.float16)
    yield "power float16", "power", h, {}
    yield "arctan2 float16", "arctan2", h, {}


def main():
    print("| case | dtype | NumPy ms | gpupy ms | NumPy / gpupy |")
    print("| --- | --- | ---: | ---: | ---: |")
    groups = [(np.dtype(dt).name, cases(dt)) for dt in (np.float32, np.float64)]
    groups.append(("", casting_cases()))
    for dtype, group in groups:
        for label, name, args, kw in group:
            gargs = [gpupy.asarray(a) if isinstance(a, np.ndarray) else a for a in args]
            tn = best(getattr(np, name), args, kw)
            tg = best(getattr(gpupy, name), gargs, kw)
            print(
                f"| {label} | {dtype} | {tn * 1e3:.2f} | {tg * 1e3:.2f} | {tn / tg:.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
