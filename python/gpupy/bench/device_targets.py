"""The device performance targets (``python -m gpupy.bench --targets``; on by default on cuda):

- ``add`` and a full ``sum`` of 2^28 float32 against the device's own copy bandwidth (a copy of
  the same array through gpupy and, where installed, CuPy), target >= 90 %;
- float32/float64 matmul at 1024², 4096², 8192² against cuBLAS called through CuPy or PyTorch
  (target >= 95 %), and against NumPy on the host at 1024² (target >= 10x);
- host->device and device->host copies of 1 GiB from ordinary NumPy memory against a pinned-memory
  copy made by CuPy or PyTorch (target >= 85 %);
- the first call of a built-in operation after ``import gpupy``, in a fresh process (<= 1 ms).

Every row prints the measured values and the ratio, so the GPU check's summary shows them all.
``quick`` shrinks the sizes so the same code runs in seconds on the cpu and emu devices.
"""

import functools
import subprocess
import sys
import textwrap

import numpy as np

import gpupy
from gpupy.bench._timer import measure

GIB = 1 << 30


def _references(device):
    """CuPy and PyTorch modules usable on `device` (cuda only), by name."""
    found = {}
    if device.type != "cuda":
        return found
    try:
        import cupy

        if cupy.is_available():
            found["cupy"] = cupy
    except ImportError:
        pass
    try:
        import torch

        if torch.cuda.is_available():
            torch.backends.cuda.matmul.allow_tf32 = False  # strict FP32, as gpupy's default
            found["torch"] = torch
    except ImportError:
        pass
    return found


def _sync(device, refs):
    def sync():
        gpupy.synchronize(device)
        if "cupy" in refs:
            refs["cupy"].cuda.Device().synchronize()
        if "torch" in refs:
            refs["torch"].cuda.synchronize()

    return sync


def _row(title, value, unit, ratio=None, target=None):
    line = f"  {title:52} {value:10.2f} {unit:7}"
    if ratio is not None:
        line += f" {ratio:8.2f}x"
        if target is not None:
            line += f"  (target >= {target:g}x: {'met' if ratio >= target else 'NOT met'})"
    print(line)


def bandwidth_targets(device, refs, quick):
    n = (1 << 22) if quick else (1 << 28)
    sync = _sync(device, refs)
    x = gpupy.asarray(np.random.default_rng(0).random(n, dtype=np.float32), device=device)
    y = gpupy.asarray(np.random.default_rng(1).random(n, dtype=np.float32), device=device)
    nbytes = n * 4
    copy_s = measure(x.copy, sync=sync)
    copy_bw = 2 * nbytes / copy_s  # a copy reads and writes every byte
    print(f"memory bandwidth, {n:,} float32 ({nbytes / GIB:.2f} GiB per array)")
    _row("gpupy copy (the reference)", copy_bw / 1e9, "GB/s")
    if "cupy" in refs:
        cx = refs["cupy"].asarray(gpupy.asnumpy(x))
        cupy_bw = 2 * nbytes / measure(cx.copy, sync=sync)
        _row("cupy copy", cupy_bw / 1e9, "GB/s", copy_bw / cupy_bw)
        copy_bw = max(copy_bw, cupy_bw)  # the fairer (higher) reference
    add_bw = 3 * nbytes / measure(functools.partial(gpupy.add, x, y), sync=sync)
    _row("add (2 reads, 1 write) / copy bandwidth", add_bw / 1e9, "GB/s", add_bw / copy_bw, 0.9)
    sum_bw = nbytes / measure(functools.partial(gpupy.sum, x), sync=sync)
    _row("full sum (1 read) / copy bandwidth", sum_bw / 1e9, "GB/s", sum_bw / copy_bw, 0.9)


def matmul_targets(device, refs, quick):
    sizes = (256, 512) if quick else (1024, 4096, 8192)
    sync = _sync(device, refs)
    rng = np.random.default_rng(0)
    print("matmul (GFLOP/s; ratio = gpupy / reference)")
    for dtype in (np.float32, np.float64):
        for n in sizes:
            a = rng.random((n, n)).astype(dtype)
            b = rng.random((n, n)).astype(dtype)
            ga, gb = gpupy.asarray(a, device=device), gpupy.asarray(b, device=device)
            flops = 2.0 * n**3
            ours = flops / measure(functools.partial(gpupy.matmul, ga, gb), sync=sync)
            title = f"{np.dtype(dtype).name} {n}x{n}"
            _row(f"gpupy {title}", ours / 1e9, "GFLOP/s")
            for name, mod in refs.items():
                ra = mod.asarray(a) if name == "cupy" else mod.from_numpy(a).cuda()
                rb = mod.asarray(b) if name == "cupy" else mod.from_numpy(b).cuda()
                theirs = flops / measure(functools.partial(mod.matmul, ra, rb), sync=sync)
                _row(f"  vs {name} (cuBLAS) {title}", theirs / 1e9, "GFLOP/s", ours / theirs, 0.95)
            if n == sizes[0]:
                host = flops / measure(functools.partial(np.matmul, a, b))
                target = 10 if device.type == "cuda" else None
                _row(f"  vs numpy on the host {title}", host / 1e9, "GFLOP/s", ours / host, target)


def _pinned_reference(refs, nbytes):
    """(host->device, device->host) seconds for a pinned-memory copy by CuPy or PyTorch."""
    if "torch" in refs:
        torch = refs["torch"]
        host = torch.empty(nbytes, dtype=torch.uint8).pin_memory()
        dev = host.cuda()
        h2d = measure(functools.partial(dev.copy_, host), sync=torch.cuda.synchronize)
        d2h = measure(functools.partial(host.copy_, dev), sync=torch.cuda.synchronize)
        return "torch", h2d, d2h
    if "cupy" in refs:
        cupy = refs["cupy"]
        pinned = cupy.cuda.alloc_pinned_memory(nbytes)
        host = np.frombuffer(pinned, np.uint8, nbytes)
        dev = cupy.empty(nbytes, np.uint8)
        sync = cupy.cuda.Device().synchronize
        h2d = measure(functools.partial(dev.set, host), sync=sync)
        d2h = measure(functools.partial(dev.get, out=host), sync=sync)
        return "cupy", h2d, d2h
    return None


def transfer_targets(device, refs, quick):
    nbytes = (1 << 24) if quick else GIB
    host = np.ones(nbytes // 4, dtype=np.float32)
    sync = functools.partial(gpupy.synchronize, device)
    h2d = measure(functools.partial(gpupy.asarray, host, device=device), sync=sync, min_time=0.5)
    on_device = gpupy.asarray(host, device=device)
    d2h = measure(functools.partial(gpupy.asnumpy, on_device), min_time=0.5)
    print(f"host <-> device copies of {nbytes / GIB:.3f} GiB from ordinary NumPy memory")
    reference = _pinned_reference(refs, nbytes)
    for label, seconds, index in (("host -> device", h2d, 1), ("device -> host", d2h, 2)):
        ratio = None if reference is None else reference[index] / seconds
        _row(f"gpupy {label}", nbytes / seconds / 1e9, "GB/s", ratio, 0.85 if ratio else None)
    if reference is not None:
        name, ref_h2d, ref_d2h = reference
        _row(f"  {name} pinned host -> device (the reference)", nbytes / ref_h2d / 1e9, "GB/s")
        _row(f"  {name} pinned device -> host (the reference)", nbytes / ref_d2h / 1e9, "GB/s")


_FIRST_CALL = textwrap.dedent(
    """
    import time, gpupy
    device = gpupy.Device({device!r})
    x = gpupy.ones(1000, dtype=gpupy.float32, device=device)
    gpupy.synchronize(device)
    start = time.perf_counter()
    y = gpupy.sin(x)
    gpupy.synchronize(device)
    print(time.perf_counter() - start)
    """
)


def first_call_target(device):
    """Seconds of the first gpupy.sin after import (device already initialised by ones), measured
    in a fresh interpreter so no earlier call warmed anything up."""
    code = _FIRST_CALL.format(device=str(device))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        print(f"  first call after import: failed ({out.stderr.strip().splitlines()[-1:]})")
        return
    seconds = float(out.stdout.strip().splitlines()[-1])
    verdict = "met" if seconds <= 1e-3 else "NOT met"
    print(
        f"  {'first gpupy.sin after import (fresh process)':52} {seconds * 1e3:10.3f} ms"
        f"       (target <= 1 ms: {verdict})"
    )


def run(device, quick):
    refs = _references(device)
    print(f"device targets on {device} (references: {', '.join(refs) or 'none installed'})")
    bandwidth_targets(device, refs, quick)
    matmul_targets(device, refs, quick)
    if device.type != "cpu":  # cpu arrays share host memory: there is nothing to transfer
        transfer_targets(device, refs, quick)
    print("latency")
    first_call_target(device)
    print()
