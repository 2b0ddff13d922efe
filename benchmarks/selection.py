"""Times median, percentile, quantile methods and partition with NumPy and with gpupy on one
device, and prints NumPy time / gpupy time (> 1: gpupy faster): the selection paths.

    PYTHONPATH=python python benchmarks/selection.py [--device cpu|emu|cuda]
"""

import argparse
import warnings

import gpupy as gp
import numpy as np
from survey import best_ms


def cases(device):
    n = 1 << 20
    rng = np.random.default_rng(0)
    data = {
        "f64": rng.standard_normal(n),
        "f32": rng.standard_normal(n).astype("float32"),
        "i64": rng.integers(-(10**9), 10**9, n),
        "f64 1000x1000": rng.standard_normal((1000, 1000)),
    }
    with_nan = rng.standard_normal((1000, 1000))
    with_nan[rng.random(with_nan.shape) < 0.01] = np.nan
    data["f64 1000x1000 1% NaN"] = with_nan
    for name, host in data.items():
        dev = gp.asarray(host, device=device)
        axis = 1 if host.ndim == 2 else None
        yield (
            f"median {name}",
            lambda h=host, a=axis: np.median(h, axis=a),
            lambda d=dev, a=axis: gp.median(d, axis=a),
        )
        yield (
            f"percentile 90 {name}",
            lambda h=host, a=axis: np.percentile(h, 90, axis=a),
            lambda d=dev, a=axis: gp.percentile(d, 90, axis=a),
        )
        if "NaN" in name:
            yield (
                f"nanmedian {name}",
                lambda h=host, a=axis: np.nanmedian(h, axis=a),
                lambda d=dev, a=axis: gp.nanmedian(d, axis=a),
            )
    host, dev = data["f64"], gp.asarray(data["f64"], device=device)
    yield (
        "quantile hazen f64",
        lambda: np.quantile(host, [0.1, 0.9], method="hazen"),
        lambda: gp.quantile(dev, [0.1, 0.9], method="hazen"),
    )
    yield (
        "partition n/2 f64",
        lambda: np.partition(host, n // 2),
        lambda: gp.partition(dev, n // 2),
    )
    yield (
        "argpartition n/2 f64",
        lambda: np.argpartition(host, n // 2),
        lambda: gp.argpartition(dev, n // 2),
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    device = parser.parse_args().device
    print(f"1M elements on {device}; ms per call")
    print(f"{'op':34s} {'NumPy':>10s} {'gpupy':>10s} {'NumPy/gpupy':>12s}")
    warnings.simplefilter("ignore", RuntimeWarning)
    for name, fn_np, fn_gp in cases(device):
        tn, tg = best_ms(fn_np), best_ms(fn_gp)
        print(f"{name:34s} {tn:10.3f} {tg:10.3f} {tn / tg:12.2f}")


if __name__ == "__main__":
    main()
