"""Case family of tools/fuzz_numpy.py: argument checking of gpupy.random's Generator methods.

The streams differ by design (docs/numpy_differences.md), so a case compares what the call
returns (shape, dtype, Python type) and which error it raises, never the values drawn; shuffle,
permuted and permutation compare their sorted results, which the draw cannot change (host Python
only)."""

import numpy as np
from fuzz_operands import Case, Val, array, dtype

# method: the argument sets drawn for it (each a list of (name, choices))
_PARAMS = {
    "random": [("dtype", ["float32", "float64", "float16", "int64", None])],
    "standard_normal": [("dtype", ["float32", "float64", "int32", None])],
    "standard_exponential": [("dtype", ["float32", "float64", None])],
    "integers": [
        ("low", [5, -3, 0, 2**63 - 1, -(2**63), 2.5]),
        ("high", [None, 10, 1, 2**64, 0]),
        ("dtype", ["int64", "int8", "uint8", "bool", "float64", "uint64", None]),
        ("endpoint", [False, True, None]),
    ],  # fmt: skip
    "normal": [("loc", [0.0, -1, [1.0, 2.0]]), ("scale", [1.0, 0.0, -1.0, [1.0, 2.0, 3.0]])],
    "uniform": [("low", [0.0, 2.0, [0.0, 1.0]]), ("high", [1.0, 0.0, np.inf, [1.0, 2.0]])],
    "exponential": [("scale", [1.0, 0.0, -2.0, [1.0, 2.0]])],
    "poisson": [("lam", [1.0, 0.0, -1.0, 1e20, [1.0, 3.0]])],
    "binomial": [("n", [5, 0, -1, [3, 4]]), ("p", [0.5, 0.0, 1.0, 1.5, -0.1, np.nan])],
    "beta": [("a", [1.0, 0.0, -1.0]), ("b", [2.0, 0.5, 0.0])],
    "gamma": [("shape", [1.0, 0.0, -1.0, [1.0, 2.0]]), ("scale", [1.0, -1.0])],
    "geometric": [("p", [0.5, 1.0, 0.0, 1.5])],
    "choice": [
        ("a", [5, 0, -1, [1.0, 2.0, 3.0], []]),
        ("replace", [True, False, None]),
        ("p", [None, [0.5, 0.5, 0.0], [0.2, 0.2], [0.6, 0.6, -0.2]]),
        ("shuffle", [True, False, None]),
    ],  # fmt: skip
    "permutation": [("x", [4, 0, -2, [3, 1, 2]])],
    "multinomial": [("n", [5, 0, -1]), ("pvals", [[0.5, 0.5], [0.2, 0.9], [1.0], []])],
    "laplace": [("loc", [0.0]), ("scale", [1.0, 0.0, -1.0])],
    "triangular": [("left", [0.0, 1.0]), ("mode", [0.5, 2.0]), ("right", [1.0, 0.5])],
}
_SIZES = [None, 0, 3, (2, 3), (0,), (), -1, (2, -1), 2.5, (2,), [2, 2], np.int64(2)]


def _call_kwargs(rng, method):
    """Valid arguments (the first of each list) but for at most one, drawn from the whole list:
    which of several bad arguments a function reports first is not part of its contract."""
    params = list(_PARAMS[method]) + ([] if method == "permutation" else [("size", _SIZES)])
    wild = int(rng.integers(0, len(params) + 1))  # == len(params): every argument valid
    kw = {}
    for i, (key, choices) in enumerate(params):
        if rng.random() < 0.3 and i != wild:
            continue  # left to its default
        v = choices[int(rng.integers(0, len(choices)))] if i == wild else choices[0]
        if v is not None or key in ("high", "p", "dtype", "size"):
            kw[key] = v
    return kw


def _summary(r):
    """What a draw may be compared on: its shape and dtype. A single draw is a Python scalar in
    gpupy (random.py) and a NumPy scalar or Python float in NumPy: only its kind counts."""
    if isinstance(r, (bool, int, float, np.generic)):
        kind = np.asarray(r).dtype.kind
        return ("scalar", {"u": "i"}.get(kind, kind))
    return ("array", tuple(r.shape), str(r.dtype))


def gen_random(rng):
    """A Generator method with drawn arguments (valid or not) and, for shuffle/permuted, an array
    to permute in place."""
    method = str(rng.choice([*_PARAMS, "shuffle", "permuted"]))
    ops = []
    if method in ("shuffle", "permuted"):
        shp = tuple(int(d) for d in rng.integers(0, 4, int(rng.integers(0, 3))))
        ops = [array(rng, dtype(rng), shp, writable=True)]
        kw = {"axis": int(rng.integers(-2, 3))} if rng.random() < 0.6 else {}
    else:
        kw = _call_kwargs(rng, method)
    if method == "permutation" and "x" in kw and isinstance(kw["x"], list):
        ops, kw = [Val(np.array(kw.pop("x")))], kw

    def fn(xp, *args):
        g = xp.random.default_rng(5)
        kwargs = dict(kw)
        if method in ("shuffle", "permuted"):
            x = args[0].copy()  # shuffled differently: compared sorted, not as the operand
            r = getattr(g, method)(x, **kwargs)
            # the multiset along the axis is kept: the sorted values agree
            return None if r is None else _summary(r), xp.sort(x.ravel()) if x.ndim else x
        if method == "permutation":
            r = g.permutation(args[0] if args else kwargs.pop("x"))
            return _summary(r), xp.sort(r)
        return _summary(getattr(g, method)(**kwargs))

    return Case(f"random.{method}", fn, ops, None, repr(kw))
