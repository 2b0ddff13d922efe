"""Element-wise ops on F-ordered and transposed inputs, whose results NumPy lays out as the inputs
are (order='K'), against NumPy in the same process (1000x1000 float64, minimum of repeats).

    PYTHONPATH=python GPUPY_NUM_THREADS=1 python benchmarks/order_k.py [repeats]
"""

import sys
import time

import gpupy
import numpy as np

REPEATS = int(sys.argv[1]) if len(sys.argv) > 1 else 21


def best(f, *args):
    """Seconds of the fastest of REPEATS calls f(*args), after one warm-up call."""
    f(*args)
    times = []
    for _ in range(REPEATS):
        t = time.perf_counter()
        f(*args)
        times.append(time.perf_counter() - t)
    return min(times)


def cases(xp):
    m = xp.asarray(np.random.default_rng(0).uniform(-3, 3, (1000, 1000)))
    f = xp.asfortranarray(m)
    p = xp.asarray(np.random.default_rng(1).uniform(-3, 3, (100, 100, 100))).transpose(2, 0, 1)
    yield "exp(M.T)", xp.exp, (m.T,)
    yield "M.T + 1", xp.add, (m.T, 1.0)
    yield "F + F", xp.add, (f, f)
    yield "F * M.T", xp.multiply, (f, m.T)
    yield "exp(P), P a 3-d transpose", xp.exp, (p,)
    yield "M + 1 (C, unchanged)", xp.add, (m, 1.0)
    yield "M * 2 (C, unchanged)", xp.multiply, (m, 2.0)
    yield "M.T * 2", xp.multiply, (m.T, 2.0)


def main():
    print("| case | NumPy ms | gpupy ms | NumPy / gpupy | result F-contiguous |")
    print("| --- | ---: | ---: | ---: | --- |")
    for (label, fn, args), (_, gfn, gargs) in zip(cases(np), cases(gpupy)):
        tn, tg = best(fn, *args), best(gfn, *gargs)
        layout = gfn(*gargs).flags.f_contiguous
        print(f"| {label} | {tn * 1e3:.3f} | {tg * 1e3:.3f} | {tn / tg:.2f} | {layout} |", flush=True)


if __name__ == "__main__":
    main()
