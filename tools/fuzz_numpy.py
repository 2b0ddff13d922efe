#!/usr/bin/env python3
"""Differential fuzzer: random combinations of gpupy calls compared with NumPy on one device.

    python tools/fuzz_numpy.py --device cpu --seconds 120 --seed 1
    python tools/fuzz_numpy.py --device emu --seed 1 --case 4711      # replays one case, verbosely
    python tools/fuzz_numpy.py --families fft,poly --seconds 60      # only these case families

Each case draws a function, operands (every dtype, 0-d/empty/broadcast shapes, strided, reversed,
transposed and broadcast views, Python and NumPy scalars) and keywords (out=, where=, dtype=, axis,
keepdims, casting=). Case k of seed s is drawn from its own generator, so `--case k` replays it.
The results must agree in dtype, shape and value (floats exactly, except where the operation is
transcendental or its rounding depends on the order of a sum), mutated operands must agree, both
sides raise exceptions of the same family or neither does, and non-floating-point warnings match.
Differences gpupy makes on purpose (docs/numpy_differences.md) are not drawn or are skipped.
"""

import argparse
import contextlib
import faulthandler
import os
import sys
import time
import traceback
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "python"))
import gpupy  # noqa: E402
from fuzz_cases import FAMILIES  # noqa: E402
from gpupy.testing._compare import _to_numpy  # noqa: E402


def _family(exc):
    if isinstance(exc, np.exceptions.AxisError):
        return (ValueError, IndexError)
    for base in (TypeError, ValueError, IndexError, OverflowError, ZeroDivisionError, KeyError):
        if isinstance(exc, base):
            return base
    return type(exc)


def _run(case, xp, device):
    """Runs the case under xp; returns (result, operands after the call, error, warnings)."""
    args = [op.build(xp, device) for op in case.operands]
    # new arrays (zeros, eye, ...) land on the device, as the test suite's --device does
    place = gpupy.Device(device) if xp is gpupy else contextlib.nullcontext()
    with place, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result, error = case.fn(xp, *args), None
        except Exception as exc:  # noqa: BLE001 - the comparison decides what is allowed
            result, error = None, exc
    # RuntimeWarnings (floating-point errors, empty slices) are NumPy's host-side diagnostics.
    kinds = sorted({w.category.__name__ for w in caught if w.category is not RuntimeWarning})
    # NaN, infinity or an out-of-range float cast to an integer has no defined value
    if any("invalid value encountered in cast" in str(w.message) for w in caught):
        kinds.append("invalid cast")
    return result, args, error, kinds


def _same_type(e, a):
    """Python scalars must come back as the same Python type (item(), tolist(), len)."""
    if isinstance(e, (bool, int, float, complex)) and not isinstance(e, np.generic):
        return type(e) is type(a)
    return True


def _compare(e, a, tol, where, signless=False):
    if isinstance(e, (list, tuple)):
        if not isinstance(a, (list, tuple)) or len(e) != len(a):
            return f"{where}: numpy {type(e).__name__} of {len(e)}, gpupy {a!r:.200}"
        for i, (ei, ai) in enumerate(zip(e, a, strict=True)):
            msg = _compare(ei, ai, tol, f"{where}[{i}]", signless)
            if msg:
                return msg
        return None
    if e is None or a is None:
        return None if e is a else f"{where}: numpy {e!r:.80}, gpupy {a!r:.80}"
    if not _same_type(e, a):
        return f"{where}: numpy {type(e).__name__}, gpupy {type(a).__name__}"
    a = _to_numpy(a)
    ea, aa = np.asarray(e), np.asarray(a)
    if ea.shape != aa.shape:
        return f"{where}: shape numpy {ea.shape}, gpupy {aa.shape}"
    if ea.dtype != aa.dtype:
        return f"{where}: dtype numpy {ea.dtype}, gpupy {aa.dtype}"
    if ea.dtype.kind in "fc":
        return _compare_float(ea, aa, tol, where, signless)
    if not np.array_equal(ea, aa):
        return f"{where}: values differ\n  numpy {ea!r:.600}\n  gpupy {aa!r:.600}"
    return None


def _compare_float(e, a, tol, where, signless=False):
    if e.dtype.kind == "c":  # inf and NaN parts of complex products follow no common rule
        ef, af = np.isfinite(e), np.isfinite(a)
        if not np.array_equal(ef, af):
            return f"{where}: non-finite positions differ\n  numpy {e!r:.600}\n  gpupy {a!r:.600}"
        e, a = np.where(ef, e, 0), np.where(af, a, 0)
    en, an = np.isnan(e), np.isnan(a)
    if not np.array_equal(en, an):
        return f"{where}: NaN positions differ\n  numpy {e!r:.600}\n  gpupy {a!r:.600}"
    if tol is None:
        ok = np.array_equal(e, a, equal_nan=True)
        if ok and e.dtype.kind == "f" and not signless:  # signed zeros count where defined
            ok = np.array_equal(np.signbit(e), np.signbit(a))
    else:
        rtol, atol = tol(e.dtype) if callable(tol) else (tol, 0.0)
        with np.errstate(all="ignore"):
            ok = np.allclose(a, e, rtol=rtol, atol=atol, equal_nan=True)
            inf = np.isinf(e) | np.isinf(a)
            ok = ok and np.array_equal(e[inf], a[inf], equal_nan=True)
    if ok:
        return None
    return f"{where}: values differ (tol {tol})\n  numpy {e!r:.600}\n  gpupy {a!r:.600}"


def check(case, device):
    """Returns None if gpupy agrees with NumPy on the case, else a description of the mismatch."""
    with np.errstate(all="warn", under="ignore"):
        e_res, e_args, e_err, e_warn = _run(case, np, device)
    g_res, g_args, g_err, g_warn = _run(case, gpupy, device)
    if e_err is not None or g_err is not None:
        if e_err is None:
            return "error", f"gpupy raised {type(g_err).__name__}: {g_err}", g_err
        if g_err is None:
            return "error", f"numpy raised {type(e_err).__name__}: {e_err}; gpupy did not", None
        if not isinstance(g_err, _family(e_err)):
            msg = f"numpy {type(e_err).__name__}: {e_err}; gpupy {type(g_err).__name__}: {g_err}"
            return "error", msg, g_err
        return None
    if "invalid cast" in e_warn:
        return None
    msg = _compare(e_res, g_res, case.tol, "result", case.signless)
    for i, (ea, ga) in enumerate(zip(e_args, g_args, strict=True)):
        if msg is None and isinstance(ea, np.ndarray):
            tol = None if ea.dtype.kind not in "fc" else case.tol
            msg = _compare(ea, ga, tol, f"arg{i}", case.signless)
    if msg:
        return "value", msg, None
    if e_warn != g_warn:
        return "warning", f"warnings numpy {e_warn}, gpupy {g_warn}", None
    return None


def draw_case(seed, k, families=None):
    rng = np.random.default_rng([seed, k])
    names = sorted(families or FAMILIES)
    weights = np.array([FAMILIES[n][0] for n in names], dtype=float)
    name = names[rng.choice(len(names), p=weights / weights.sum())]
    return FAMILIES[name][1](rng)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cpu")
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    p.add_argument("--case", type=int, default=None, help="replay one case and print it")
    p.add_argument("--max-report", type=int, default=40)
    p.add_argument("--start", type=int, default=0, help="first case number")
    p.add_argument("--progress", help="file that holds the case being run (to find crashes)")
    p.add_argument(
        "--families", help="comma-separated families to draw from (replay with the same list)"
    )
    args = p.parse_args(argv)
    families = args.families.split(",") if args.families else None
    unknown = set(families or ()) - set(FAMILIES)
    if unknown:
        p.error(f"unknown families {sorted(unknown)}; known: {sorted(FAMILIES)}")
    faulthandler.enable()
    if args.case is not None:
        case = draw_case(args.seed, args.case, families)
        print(case.describe())
        print(check(case, args.device) or "agrees")
        return 0
    return run(
        args.device, args.seed, args.seconds, args.cases, args.max_report, args.start,
        args.progress, families=families,
    )  # fmt: skip


def run(
    device, seed, seconds, cases=None, max_report=40, first=0, progress=None, out=sys.stdout,
    families=None,
):  # fmt: skip
    """Runs cases until the time or count is spent; returns the number of mismatches."""
    start, k, found = time.monotonic(), first, Counter()
    seen = set()
    fd = os.open(progress, os.O_WRONLY | os.O_CREAT | os.O_TRUNC) if progress else None
    while time.monotonic() - start < seconds and (cases is None or k < first + cases):
        case = draw_case(seed, k, families)
        if fd is not None:
            os.pwrite(fd, f"{k:<12d}\n".encode(), 0)
        faulthandler.dump_traceback_later(60, exit=True)
        try:
            outcome = check(case, device)
        except Exception:  # noqa: BLE001 - a comparison that breaks is itself a finding
            outcome = ("crash", traceback.format_exc(limit=3), None)
        faulthandler.cancel_dump_traceback_later()
        if outcome:
            kind, msg, _ = outcome
            key = (case.name, kind, msg.split("\n")[0][:40])
            found[case.name, kind] += 1
            if key not in seen and len(seen) < max_report:
                seen.add(key)
                print(f"--- case {k} (seed {seed}) {kind}: {case.describe()}\n  {msg}", file=out)
        k += 1
    elapsed = time.monotonic() - start
    print(
        f"{device}: {k - first} cases in {elapsed:.0f} s, {sum(found.values())} mismatches",
        file=out,
    )
    for (name, kind), n in sorted(found.items()):
        print(f"  {name:28s} {kind:8s} {n}", file=out)
    return sum(found.values())


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
