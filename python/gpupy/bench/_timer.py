"""The one timer every gpupy benchmark uses: warm-up, device synchronisation, median of runs."""

import statistics
import time


def measure(fn, *, sync=None, repeat=None, min_time=0.2, warmup=2):
    """Median seconds per call of ``fn()``.

    ``sync`` (e.g. a device's synchronize) is called after each call so that asynchronous devices
    are timed to completion. The repeat count adapts so a measurement takes about ``min_time``.
    """
    for _ in range(warmup):
        fn()
    if sync:
        sync()
    if repeat is None:
        start = time.perf_counter()
        fn()
        if sync:
            sync()
        once = max(time.perf_counter() - start, 1e-7)
        repeat = int(min(max(min_time / once, 5), 10000))
    # Tiny ops are timed in batches so timer overhead does not dominate.
    batch = 1 if repeat < 200 else 50
    samples = []
    for _ in range(max(repeat // batch, 5)):
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        if sync:
            sync()
        samples.append((time.perf_counter() - start) / batch)
    return statistics.median(samples)
