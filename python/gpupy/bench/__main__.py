"""``python -m gpupy.bench [--device=cpu|emu|cuda] [--quick]``: a short demo of gpupy, then a table
of gpupy and NumPy (and CuPy, where installed) times on the same machine, with ratios."""

import argparse
import functools
import os
import sys

import numpy as np

import gpupy
from gpupy.bench import device_targets, kernels
from gpupy.bench._timer import measure


def demo(device):
    print(f"gpupy {gpupy.__version__} on device {device}")
    a = np.random.rand(3, 3).astype(np.float32)
    b = np.random.rand(3, 3).astype(np.float32)
    ga = gpupy.array(a, device=device)
    gb = gpupy.array(b, device=device)
    gc = ga.add(gb)
    gd = ga.dot(gb)
    ok = np.allclose(gpupy.asnumpy(gc), a + b) and np.allclose(gpupy.asnumpy(gd), a @ b, rtol=1e-5)
    print(f"seed example (add, dot, asnumpy) matches NumPy: {ok}")
    print()


def cases(quick):
    n_big = (1 << 22) if quick else (1 << 24)
    n_mat = 512 if quick else 1024
    rng = np.random.default_rng(0)
    x = rng.random(n_big, dtype=np.float32)
    y = rng.random(n_big, dtype=np.float32)
    m1 = rng.random((n_mat, n_mat), dtype=np.float32)
    m2 = rng.random((n_mat, n_mat), dtype=np.float32)
    s1 = rng.random(100, dtype=np.float32)
    s2 = rng.random(100, dtype=np.float32)
    return [
        ("a + b, 100 float32 (host time per op)", "add_small", (s1, s2), lambda xp, a, b: a + b),
        ("a * 2.0, 100 float32", "mul_small", (s1,), lambda xp, a: a * 2.0),
        ("sum, 100 float32", "sum_small", (s1,), lambda xp, a: xp.sum(a)),
        ("a[3], 100 float32", "getitem_small", (s1,), lambda xp, a: a[3]),
        ("a.shape", "shape", (s1,), lambda xp, a: a.shape),
        *per_call_cases(rng),
        (f"add, {n_big:,} float32", "add", (x, y), lambda xp, a, b: xp.add(a, b)),
        (f"sum, {n_big:,} float32", "sum", (x,), lambda xp, a: xp.sum(a)),
        (f"exp, {n_big:,} float32", "exp", (x,), lambda xp, a: xp.exp(a)),
        (f"floor, {n_big:,} float32", "floor", (x,), lambda xp, a: xp.floor(a)),
        (f"matmul {n_mat}x{n_mat} float32", "matmul", (m1, m2), lambda xp, a, b: a @ b),
    ]


def per_call_cases(rng):
    """Indexing, creation and small joins on 1000 float64: per-call cost, where NumPy is fast."""
    a = rng.random(1000)
    b = rng.random(1000)
    idx = rng.integers(0, 1000, 100)
    mask = rng.random(1000) < 0.5
    m = rng.random((10, 10))
    parts = (rng.random(10), rng.random(10), rng.random(10))
    x = rng.random(1024)
    return [
        ("a[idx], 1000 float64, 100 indices", "take_index", (a, idx), lambda xp, a, i: a[i]),
        ("take(a, idx)", "take", (a, idx), lambda xp, a, i: xp.take(a, i)),
        ("a[idx] = 1.0", "put_index", (a, idx), lambda xp, a, i: a.__setitem__(i, 1.0)),
        ("a[mask], 1000 float64", "mask_index", (a, mask), lambda xp, a, k: a[k]),
        ("m[3, 4], 10x10 float64", "element", (m,), lambda xp, m: m[3, 4]),
        ("a[1:5]", "slice", (a,), lambda xp, a: a[1:5]),
        ("a[..., None]", "newaxis", (a,), lambda xp, a: a[..., None]),
        ("zeros(1000)", "zeros", (), lambda xp: xp.zeros(1000)),
        ("empty(1000)", "empty", (), lambda xp: xp.empty(1000)),
        ("arange(1000)", "arange", (), lambda xp: xp.arange(1000)),
        ("a.astype(float32)", "astype", (a,), lambda xp, a: a.astype(xp.float32)),
        ("a.copy()", "copy", (a,), lambda xp, a: a.copy()),
        ("a.reshape(25, 40)", "reshape", (a,), lambda xp, a: a.reshape(25, 40)),
        ("a < b", "less", (a, b), lambda xp, a, b: a < b),
        ("where(a < 0.5, a, b)", "where", (mask, a, b), lambda xp, c, a, b: xp.where(c, a, b)),
        ("concatenate of 3 x 10", "concatenate", parts, lambda xp, *p: xp.concatenate(p)),
        ("m.sum(axis=0), 10x10", "sum_axis0", (m,), lambda xp, m: m.sum(axis=0)),
        ("m.T @ m, 10x10", "matmul_small", (m,), lambda xp, m: m.T @ m),
        ("fft.fft, 1024 float64", "fft_small", (x,), lambda xp, x: xp.fft.fft(x)),
        ("fft.rfft, 1024 float64", "rfft_small", (x,), lambda xp, x: xp.fft.rfft(x)),
    ]


def _time_case(fn, data, device, use_cupy):
    """Seconds per call for NumPy, gpupy on `device` (and CuPy); a string says why gpupy can't."""
    times = {"numpy": measure(functools.partial(fn, np, *data))}
    gdata = [gpupy.asarray(d, device=device) for d in data]
    try:
        with device:  # creation rows allocate on the device measured
            times["gpupy"] = measure(
                functools.partial(fn, gpupy, *gdata),
                sync=functools.partial(gpupy.synchronize, device),
            )
    except NotImplementedError as exc:
        return str(exc)
    if use_cupy:
        import cupy

        cdata = [cupy.asarray(d) for d in data]
        times["cupy"] = measure(
            functools.partial(fn, cupy, *cdata), sync=cupy.cuda.Device().synchronize
        )
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m gpupy.bench")
    parser.add_argument("--device", default=None, help="cpu, emu or cuda (default: gpupy's)")
    parser.add_argument(
        "--quick", action="store_true", help="smaller sizes (and 10 pusher steps of 100k particles)"
    )
    parser.add_argument(
        "--targets",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also measure the device targets (bandwidth, matmul vs cuBLAS, transfers, first "
        "call); on by default on cuda",
    )
    args = parser.parse_args(argv)
    device = gpupy.Device(args.device) if args.device else gpupy.get_default_device()
    demo(device)
    try:
        import cupy  # noqa: F401 - compared on cuda only, when installed and usable

        use_cupy = device.type == "cuda" and cupy.is_available()
    except ImportError:
        use_cupy = False
    header = f"{'benchmark':42} {'numpy':>11} {'gpupy':>11} {'numpy/gpupy':>12}"
    if use_cupy:
        header += f" {'cupy':>11} {'cupy/gpupy':>11}"
    print(header)
    print("-" * len(header))
    for title, _key, data, fn in cases(args.quick):
        row = _time_case(fn, data, device, use_cupy)
        if isinstance(row, str):
            print(f"{title:42} {'':>11} {'n/a':>11}  ({row})")
            continue
        line = f"{title:42} {row['numpy'] * 1e6:9.1f}us {row['gpupy'] * 1e6:9.1f}us"
        line += f" {row['numpy'] / row['gpupy']:11.2f}x"
        if use_cupy:
            line += f" {row['cupy'] * 1e6:9.1f}us {row['cupy'] / row['gpupy']:10.2f}x"
        print(line)
    print()
    kernels.print_launch(device, use_cupy)
    kernels.print_pusher(device, args.quick)
    print()
    print("ratio > 1 means gpupy is faster. threads:", os.environ.get("GPUPY_NUM_THREADS", "all"))
    if args.targets or (args.targets is None and device.type == "cuda"):
        print()
        device_targets.run(device, args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
