"""Times common NumPy calls with NumPy and with gpupy on one device, in the same process, and
prints a markdown table of NumPy ms, gpupy ms and NumPy time / gpupy time (> 1: gpupy faster).
A survey for finding slow paths, not a target check: `python -m gpupy.bench` holds the targets.

    PYTHONPATH=python python benchmarks/survey.py [--device cpu|emu|cuda] [--groups arith,sort]
        [--sizes 1M,1k] [--runs 2] [--budget 0.1] [--before results.md]

Sizes: `1M` (2**20 elements, a 1000x1000 matrix for per-axis work) and `1k` (1000 elements, a
25x40 matrix), where per-call overhead dominates. Groups whose sizes are fixed by the operation
(linalg, the host conversions) run once, under `1M`. `--runs 2` times every case twice and keeps
the better figure; the spread between runs is printed as a noise estimate. `--before` reads an
earlier table of this script and adds its gpupy time and ratio as "before" columns.

NumPy runs on one thread, gpupy's cpu device on all cores; BLAS and LAPACK calls (matmul, dot,
linalg) on OpenBLAS's threads on both sides. On a shared machine, OPENBLAS_NUM_THREADS=1 keeps
those from stalling on busy cores.
"""

import argparse
import os
import re
import time

import gpupy as gp
import numpy as np

SIZES = {"1M": 1 << 20, "1k": 1000}


def best_ms(fn, budget):
    """Best per-call time in ms over 3 rounds of as many calls as fit in `budget` seconds."""
    fn()
    gp.synchronize()
    t0 = time.perf_counter()
    fn()
    gp.synchronize()
    repeats = max(1, min(20000, int(budget / max(time.perf_counter() - t0, 1e-7))))
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(repeats):
            fn()
        gp.synchronize()
        best = min(best, (time.perf_counter() - t0) / repeats)
    return best * 1e3


class Data:
    """The NumPy inputs of one size and their gpupy copies on the device (`g.name`)."""

    def __init__(self, n, device):
        rng = np.random.default_rng(0)
        rows, cols = (1000, 1000) if n > 1000 else (25, 40)
        self.n, self.device = n, device
        self.a, self.b = rng.random(n), rng.random(n)
        self.f, self.f2 = self.a.astype(np.float32), self.b.astype(np.float32)
        self.i, self.j = rng.integers(-(10**6), 10**6, n), rng.integers(-(10**6), 10**6, n)
        self.idx = rng.integers(0, n, n)
        self.small = rng.integers(0, 100, n)
        self.mask, self.mask2 = self.a > 0.5, self.b > 0.5
        self.m = rng.random((rows, cols))
        self.mask_m = self.m > 0.5
        self.row, self.col = rng.random(cols), rng.random((rows, 1))
        self.sa, self.si = np.sort(self.a), np.sort(self.i)
        self.nan = np.where(rng.random(n) < 0.1, np.nan, self.a)
        self.pos = self.a + 0.5
        self.g = Data.__new__(Data)
        for k, v in vars(self).items():
            if isinstance(v, np.ndarray):
                setattr(self.g, k, gp.asarray(v, device=device))


def _both(name, fn, d, *args):
    """A case timing fn(np, *numpy inputs) against fn(gp, *gpupy inputs) by attribute name."""
    np_args = [getattr(d, k) for k in args]
    gp_args = [getattr(d.g, k) for k in args]
    return (name, lambda: fn(np, *np_args), lambda: fn(gp, *gp_args))


def arith(d):
    return [
        _both("a + b f64", lambda x, a, b: a + b, d, "a", "b"),
        _both("a * b f32", lambda x, a, b: a * b, d, "f", "f2"),
        _both("a / b f64", lambda x, a, b: a / b, d, "a", "b"),
        _both("a + b i64", lambda x, a, b: a + b, d, "i", "j"),
        _both("a * 2.5 f64", lambda x, a: a * 2.5, d, "a"),
        _both("a + 1 f32", lambda x, a: a + 1, d, "f"),
        _both("a // 7 i64", lambda x, a: a // 7, d, "i"),
        _both("M + row (bcast)", lambda x, m, r: m + r, d, "m", "row"),
        _both("M * col (bcast)", lambda x, m, c: m * c, d, "m", "col"),
        _both("a < b f64", lambda x, a, b: a < b, d, "a", "b"),
        _both("a < 0.5 f64", lambda x, a: a < 0.5, d, "a"),
        _both("a == b i64", lambda x, a, b: a == b, d, "i", "j"),
        _both("M > row (bcast)", lambda x, m, r: m > r, d, "m", "row"),
        _both("a ** 2 f64", lambda x, a: a**2, d, "a"),
        _both("-a f64", lambda x, a: -a, d, "a"),
    ]


def astype(d):
    pairs = [
        ("a", "float32"),
        ("f", "float64"),
        ("i", "float64"),
        ("a", "int64"),
        ("i", "int32"),
        ("mask", "float64"),
        ("a", "bool"),
        ("f", "float16"),
    ]
    names = {"a": "f64", "f": "f32", "i": "i64", "mask": "bool"}
    return [_both(f"astype {names[k]}->{t}", lambda x, a, t=t: a.astype(t), d, k) for k, t in pairs]


def ufunc(d):
    c = []
    for k, tag in (("a", "f64"), ("f", "f32")):
        k2 = "b" if k == "a" else "f2"
        for name in ("sqrt", "abs", "log1p", "expm1", "tanh", "floor", "isnan", "exp", "sin"):
            c.append(_both(f"{name} {tag}", lambda x, a, n=name: getattr(x, n)(a), d, k))
        for name in ("arctan2", "hypot", "maximum"):
            c.append(_both(f"{name} {tag}", lambda x, a, b, n=name: getattr(x, n)(a, b), d, k, k2))
    c += [
        _both("abs i64", lambda x, a: x.abs(a), d, "i"),
        _both("maximum i64", lambda x, a, b: x.maximum(a, b), d, "i", "j"),
        _both("clip f64", lambda x, a: x.clip(a, 0.2, 0.8), d, "a"),
        _both("logical_and", lambda x, a, b: x.logical_and(a, b), d, "mask", "mask2"),
        _both("logical_or", lambda x, a, b: x.logical_or(a, b), d, "mask", "mask2"),
        _both("logical_not", lambda x, a: x.logical_not(a), d, "mask"),
        _both("mask & mask2", lambda x, a, b: a & b, d, "mask", "mask2"),
    ]
    return c


def reduce(d):
    c = []
    for name in ("sum", "mean", "std", "min", "max", "argmin", "prod"):
        c.append(_both(f"{name} f64", lambda x, a, n=name: getattr(a, n)(), d, "a"))
        for axis in (0, -1):
            c.append(
                _both(f"M.{name}({axis})", lambda x, m, n=name, ax=axis: getattr(m, n)(ax), d, "m")
            )
    for name in ("any", "all"):
        c.append(_both(f"{name} bool", lambda x, a, n=name: getattr(a, n)(), d, "mask"))
        for axis in (0, -1):
            c.append(
                _both(
                    f"(M>.5).{name}({axis})",
                    lambda x, m, n=name, ax=axis: getattr(m, n)(ax),
                    d,
                    "mask_m",
                )
            )
    c += [
        _both("sum f32", lambda x, a: a.sum(), d, "f"),
        _both("sum i64", lambda x, a: a.sum(), d, "i"),
        _both("max i64", lambda x, a: a.max(), d, "i"),
        _both("argmax f64", lambda x, a: a.argmax(), d, "a"),
        _both("nansum f64", lambda x, a: x.nansum(a), d, "nan"),
        _both("nanmean f64", lambda x, a: x.nanmean(a), d, "nan"),
        _both("mask.sum()", lambda x, a: a.sum(), d, "mask"),
        _both("mask.mean()", lambda x, a: a.mean(), d, "mask"),
        _both("count_nonzero bool", lambda x, a: x.count_nonzero(a), d, "mask"),
        _both("count_nonzero i64", lambda x, a: x.count_nonzero(a), d, "small"),
    ]
    return c


def scan(d):
    return [
        _both("cumsum f64", lambda x, a: x.cumsum(a), d, "a"),
        _both("cumsum i64", lambda x, a: x.cumsum(a), d, "i"),
        _both("cumprod f64", lambda x, a: x.cumprod(a), d, "pos"),
        _both("diff f64", lambda x, a: x.diff(a), d, "a"),
        _both("diff i64", lambda x, a: x.diff(a), d, "i"),
        _both("M.cumsum(0)", lambda x, m: m.cumsum(0), d, "m"),
        _both("M.cumsum(-1)", lambda x, m: m.cumsum(-1), d, "m"),
    ]


def sort(d):
    return [
        _both("sort f64", lambda x, a: x.sort(a), d, "a"),
        _both("sort f32", lambda x, a: x.sort(a), d, "f"),
        _both("sort i64", lambda x, a: x.sort(a), d, "i"),
        _both("argsort f64", lambda x, a: x.argsort(a), d, "a"),
        _both("argsort i64", lambda x, a: x.argsort(a), d, "i"),
        _both("M.sort(-1)", lambda x, m: x.sort(m, axis=-1), d, "m"),
        _both("unique f64", lambda x, a: x.unique(a), d, "a"),
        _both("unique i64 (100 values)", lambda x, a: x.unique(a), d, "small"),
        _both("searchsorted f64", lambda x, s, v: x.searchsorted(s, v), d, "sa", "b"),
        _both("searchsorted i64", lambda x, s, v: x.searchsorted(s, v), d, "si", "j"),
        _both("percentile f64", lambda x, a: x.percentile(a, 90), d, "a"),
    ]


def _set_mask(a, m):
    a[m] = 0.5


def _set_idx(a, i):
    a[i] = 0.5


def index(d):
    return [
        _both("take f64", lambda x, a, i: x.take(a, i), d, "a", "idx"),
        _both("a[i] f64", lambda x, a, i: a[i], d, "a", "idx"),
        _both("a[i] i64", lambda x, a, i: a[i], d, "i", "idx"),
        _both("a[mask] f64", lambda x, a, m: a[m], d, "a", "mask"),
        _both("a[mask] = 0.5", lambda x, a, m: _set_mask(a.copy(), m), d, "a", "mask"),
        _both("a[i] = 0.5", lambda x, a, i: _set_idx(a.copy(), i), d, "a", "idx"),
        _both("a.copy() (reference)", lambda x, a: a.copy(), d, "a"),
        _both("where(m, a, b)", lambda x, m, a, b: x.where(m, a, b), d, "mask", "a", "b"),
        _both("where(m, a, 0.0)", lambda x, m, a: x.where(m, a, 0.0), d, "mask", "a"),
        _both("nonzero bool", lambda x, m: x.nonzero(m), d, "mask"),
        _both("a[::2] (copy)", lambda x, a: a[::2].copy(), d, "a"),
    ]


def layout(d):
    return [
        _both("concatenate f64", lambda x, a, b: x.concatenate([a, b]), d, "a", "b"),
        _both("stack f64", lambda x, a, b: x.stack([a, b]), d, "a", "b"),
        _both("ascontiguousarray(M.T)", lambda x, m: x.ascontiguousarray(m.T), d, "m"),
        _both("M.T.ravel()", lambda x, m: m.T.ravel(), d, "m"),
        _both("M.T.reshape(-1)", lambda x, m: m.T.reshape(-1), d, "m"),
        _both("M[:, ::2].ravel()", lambda x, m: m[:, ::2].ravel(), d, "m"),
        _both("tile(a, 2)", lambda x, a: x.tile(a, 2), d, "a"),
        _both("tile(row, (3,1))", lambda x, r: x.tile(r, (3, 1)), d, "row"),
        _both("repeat(a, 2)", lambda x, a: x.repeat(a, 2), d, "a"),
        _both("roll(a, 7)", lambda x, a: x.roll(a, 7), d, "a"),
        _both("roll(M, 7, 0)", lambda x, m: x.roll(m, 7, 0), d, "m"),
        _both("flip(a) (view)", lambda x, a: x.flip(a), d, "a"),
        _both("flip(a).copy()", lambda x, a: x.flip(a).copy(), d, "a"),
        _both("M[::-1, ::-1].copy()", lambda x, m: m[::-1, ::-1].copy(), d, "m"),
        _both(
            "a.reshape(M.shape) (view)", lambda x, a, m: a[: m.size].reshape(m.shape), d, "a", "m"
        ),
    ]


def fft(d):
    n = 1 << 20 if d.n > 1000 else 1024
    d.sig = d.a[:n] if d.a.size >= n else np.resize(d.a, n)
    d.g.sig = gp.asarray(d.sig, device=d.device)
    return [
        _both("fft f64 2^k", lambda x, a: x.fft.fft(a), d, "sig"),
        _both("rfft f64 2^k", lambda x, a: x.fft.rfft(a), d, "sig"),
        _both("ifft(fft) f64 2^k", lambda x, a: x.fft.ifft(x.fft.fft(a)), d, "sig"),
    ]


def random(d):
    n, dev = d.n, d.device
    rn, rg = np.random.default_rng(1), gp.random.default_rng(1)
    return [
        ("random.normal", lambda: rn.normal(size=n), lambda: rg.normal(size=n, device=dev)),
        ("random.random", lambda: rn.random(n), lambda: rg.random(n, device=dev)),
        (
            "random.uniform",
            lambda: rn.uniform(-1, 1, n),
            lambda: rg.uniform(-1, 1, n, device=dev),
        ),
        (
            "random.integers",
            lambda: rn.integers(0, 1000, n),
            lambda: rg.integers(0, 1000, n, device=dev),
        ),
        (
            "random.random f32",
            lambda: rn.random(n, dtype=np.float32),
            lambda: rg.random(n, dtype=np.float32, device=dev),
        ),
    ]


def creation(d):
    n, dev, side = d.n, d.device, d.m.shape[0]
    return [
        ("zeros", lambda: np.zeros(n), lambda: gp.zeros(n, device=dev)),
        ("empty", lambda: np.empty(n), lambda: gp.empty(n, device=dev)),
        ("ones i64", lambda: np.ones(n, np.int64), lambda: gp.ones(n, np.int64, device=dev)),
        ("full", lambda: np.full(n, 2.5), lambda: gp.full(n, 2.5, device=dev)),
        (
            "arange f64",
            lambda: np.arange(n, dtype=float),
            lambda: gp.arange(n, dtype=float, device=dev),
        ),
        ("arange i64", lambda: np.arange(n), lambda: gp.arange(n, device=dev)),
        ("linspace", lambda: np.linspace(0, 1, n), lambda: gp.linspace(0, 1, n, device=dev)),
        (f"eye({side})", lambda: np.eye(side), lambda: gp.eye(side, device=dev)),
        ("zeros_like", lambda: np.zeros_like(d.a), lambda: gp.zeros_like(d.g.a)),
    ]


def linalg(d):
    rng = np.random.default_rng(2)
    a64, b64 = rng.random((64, 64)), rng.random((64, 64))
    mv, v = rng.random((1000, 1000)), rng.random(1000)
    s = rng.random((200, 200)) / 200 + np.eye(200)  # well conditioned, det of order 1
    rhs, u, w = rng.random(200), rng.random(1 << 20), rng.random(1 << 20)
    e1, e2 = rng.random((200, 300)), rng.random((300, 100))
    dev = d.device
    ga64, gb64, gmv, gv, gs, grhs, gu, gw, ge1, ge2 = (
        gp.asarray(x, device=dev) for x in (a64, b64, mv, v, s, rhs, u, w, e1, e2)
    )
    return [
        ("matmul 64^2", lambda: a64 @ b64, lambda: ga64 @ gb64),
        ("matmul 1000^2 @ vec", lambda: mv @ v, lambda: gmv @ gv),
        ("dot 1M vectors", lambda: np.dot(u, w), lambda: gp.dot(gu, gw)),
        (
            "einsum ij,jk->ik 200x300x100",
            lambda: np.einsum("ij,jk->ik", e1, e2),
            lambda: gp.einsum("ij,jk->ik", ge1, ge2),
        ),
        (
            "einsum ij,ij->i 1000^2",
            lambda: np.einsum("ij,ij->i", mv, mv),
            lambda: gp.einsum("ij,ij->i", gmv, gmv),
        ),
        ("solve 200^2", lambda: np.linalg.solve(s, rhs), lambda: gp.linalg.solve(gs, grhs)),
        ("inv 200^2", lambda: np.linalg.inv(s), lambda: gp.linalg.inv(gs)),
        ("det 200^2", lambda: np.linalg.det(s), lambda: gp.linalg.det(gs)),
    ]


def host(d):
    dev = d.device
    lst = np.random.default_rng(3).random(1000).tolist()
    a1k = np.random.default_rng(3).random(1000)
    g1k = gp.asarray(a1k, device=dev)
    i1k = np.arange(1000)
    gi1k = gp.asarray(i1k, device=dev)
    return [
        (
            "asarray(list of 1000 floats)",
            lambda: np.asarray(lst),
            lambda: gp.asarray(lst, device=dev),
        ),
        ("asarray(numpy 1000)", lambda: np.asarray(a1k), lambda: gp.asarray(a1k, device=dev)),
        ("tolist 1000 f64", lambda: a1k.tolist(), lambda: g1k.tolist()),
        ("tolist 1000 i64", lambda: i1k.tolist(), lambda: gi1k.tolist()),
        ("repr 1000 f64", lambda: repr(a1k), lambda: repr(g1k)),
        ("str 1000 i64", lambda: str(i1k), lambda: str(gi1k)),
        ("float(a[3])", lambda: float(a1k[3]), lambda: float(g1k[3])),
        ("a.sum().item() 1000", lambda: a1k.sum().item(), lambda: g1k.sum().item()),
    ]


# Groups whose sizes do not follow --sizes run once, under the first size.
GROUPS = {
    "arith": (arith, False),
    "astype": (astype, False),
    "ufunc": (ufunc, False),
    "reduce": (reduce, False),
    "scan": (scan, False),
    "sort": (sort, False),
    "index": (index, False),
    "layout": (layout, False),
    "fft": (fft, False),
    "random": (random, False),
    "creation": (creation, False),
    "linalg": (linalg, True),
    "host": (host, True),
}


def read_before(path):
    """{(size, op): (gpupy ms, ratio)} from an earlier table of this script."""
    before = {}
    for line in open(path):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 6 and re.fullmatch(r"[\d.]+", cells[3] or "x"):
            before[(cells[1], cells[0])] = (float(cells[3]), float(cells[4]))
    return before


def fmt(ms):
    return f"{ms:.4f}" if ms < 0.1 else f"{ms:.3f}" if ms < 10 else f"{ms:.1f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default=str(gp.get_default_device()))
    parser.add_argument(
        "--groups", default=",".join(GROUPS), help="comma-separated: " + ",".join(GROUPS)
    )
    parser.add_argument("--sizes", default="1M,1k", help="comma-separated: " + ",".join(SIZES))
    parser.add_argument(
        "--runs", type=int, default=2, help="time each case this often, keep the best"
    )
    parser.add_argument("--budget", type=float, default=0.1, help="seconds per timing round")
    parser.add_argument("--before", help="an earlier table of this script, for before columns")
    parser.add_argument(
        "--filter", default="", help="only cases whose name contains one of these (comma-separated)"
    )
    args = parser.parse_args()
    groups, sizes = args.groups.split(","), args.sizes.split(",")
    before = read_before(args.before) if args.before else {}
    head = "| op | size | NumPy ms | gpupy ms | NumPy/gpupy | group |"
    if before:
        head += " gpupy before | ratio before |"
    print(
        f"device {args.device}, NumPy {np.__version__}, best of {args.runs} runs; ms per call; "
        f"load average at start {os.getloadavg()[0]:.1f}"
    )
    print()
    print(head)
    print("|" + " --- |" * 2 + " ---: |" * 3 + " --- |" + (" ---: |" * 2 if before else ""))
    spreads = []
    for si, size in enumerate(sizes):
        d = Data(SIZES[size], args.device)
        for group in groups:
            make, fixed = GROUPS[group]
            if fixed and si > 0:
                continue
            for name, np_fn, gp_fn in make(d):
                if not any(f in name for f in args.filter.split(",")):
                    continue
                tn = [best_ms(np_fn, args.budget) for _ in range(args.runs)]
                tg = [best_ms(gp_fn, args.budget) for _ in range(args.runs)]
                spreads += [(max(t) / min(t) - 1, f"{name} {size}") for t in (tn, tg)]
                label = "-" if fixed else size
                tn, tg = min(tn), min(tg)
                row = f"| {name} | {label} | {fmt(tn)} | {fmt(tg)} | {tn / tg:.2f} | {group} |"
                if before:
                    old = before.get((label, name))
                    row += f" {fmt(old[0])} | {old[1]:.2f} |" if old else " | |"
                print(row, flush=True)
    print(f"\nLoad average at the end {os.getloadavg()[0]:.1f}.")
    if args.runs > 1 and spreads:
        spreads.sort()
        med, worst = spreads[len(spreads) // 2], spreads[-1]
        print(
            f"Noise: between runs the slower figure was {100 * med[0]:.0f} % above the faster "
            f"(median over cases), {100 * worst[0]:.0f} % at worst ({worst[1]})."
        )


if __name__ == "__main__":
    main()
