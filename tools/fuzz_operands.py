"""Operands, cases and tolerances of tools/fuzz_numpy.py (host Python only)."""

import math

import numpy as np

DTYPES = (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)  # fmt: skip
NUMERIC = DTYPES[1:]
REAL = DTYPES[:12]


# --- operands -----------------------------------------------------------------------------------


class Arr:
    """An array operand: a base array on the host and the view of it the call receives."""

    def __init__(self, base, layout, view):
        self.base, self.layout, self.view = base, layout, view

    def build(self, xp, device):
        if xp is np:
            return self.view(np, self.base.copy())
        import gpupy

        return self.view(gpupy, gpupy.asarray(self.base, device=device))

    @property
    def np(self):
        return self.view(np, self.base)

    def __repr__(self):
        v = self.np
        return f"{v.dtype}{list(v.shape)}<{self.layout}>{self.base.tolist()!r:.300}"


class Val:
    """A non-array operand passed unchanged to both sides (Python or NumPy scalar, list, ...)."""

    def __init__(self, value):
        self.value = value

    def build(self, xp, device):
        if xp is np or not isinstance(self.value, np.ndarray):
            return self.value
        import gpupy  # index arrays live where the data does: emu refuses host ones (no copies)

        return gpupy.asarray(self.value, device=device)

    def __repr__(self):
        v = self.value
        return f"np.{type(v).__name__}({v!r})" if isinstance(v, np.generic) else repr(v)


def values(rng, dtype, n):
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo = max(info.min, -9)
        v = rng.integers(lo, 10, n, endpoint=True)
        special = np.array([info.min, info.max, 0, 1], dtype=object)
        pick = rng.random(n) < 0.08
        out = v.astype(object)
        out[pick] = rng.choice(special, pick.sum())
        return np.array(out.tolist(), dtype=dt) if n else np.zeros(0, dt)
    if dt.kind == "f":
        v = np.where(rng.random(n) < 0.5, rng.integers(-6, 7, n), rng.normal(0, 4, n))
        special = [np.nan, np.inf, -np.inf, -0.0, 0.5, 2.5, -1.5, 1e-40, 7e4, 1e10]
        pick = rng.random(n) < 0.08
        v[pick] = rng.choice(special, pick.sum())
        with np.errstate(all="ignore"):
            return v.astype(dt)
    real = values(rng, "float64" if dt.itemsize == 16 else "float32", n)
    imag = values(rng, "float64" if dt.itemsize == 16 else "float32", n)
    imag[rng.random(n) < 0.3] = 0
    out = np.empty(n, dt)
    out.real, out.imag = real, imag
    return out


def shape(rng, ndim=None, small=False):
    if ndim is None:
        ndim = int(rng.choice([0, 1, 1, 2, 2, 3, 4], p=[0.1, 0.25, 0.15, 0.2, 0.15, 0.1, 0.05]))
    dims = [0, 1, 1, 2, 3, 4, 5] if not small else [1, 2, 3]
    return tuple(int(rng.choice(dims)) for _ in range(ndim))


def _slicer(steps):
    return lambda xp, x: x[tuple(steps)]


def array(rng, dtype, shp, writable=False):
    """An Arr of the given logical shape, laid out contiguously or as a strided view."""
    layouts = ["c", "c", "step", "neg", "T", "bcast"] if not writable else ["c", "step", "neg", "T"]
    layout = rng.choice(layouts) if len(shp) else "c"
    n = math.prod(shp)
    if layout == "step":
        base_shape = tuple(2 * d + 1 for d in shp)
        sl = [slice(1, None, 2) for _ in shp]
        base = values(rng, dtype, math.prod(base_shape)).reshape(base_shape)
        return Arr(base, "step", _slicer(sl))
    if layout == "neg":
        flips = [slice(None, None, -1) if rng.random() < 0.6 else slice(None) for _ in shp]
        return Arr(values(rng, dtype, n).reshape(shp), "neg", _slicer(flips))
    if layout == "T":
        base = values(rng, dtype, n).reshape(shp[::-1])
        return Arr(base, "T", lambda xp, x: x.T)
    if layout == "bcast" and any(d != 1 for d in shp):
        small = tuple(d if rng.random() < 0.5 else 1 for d in shp)
        base = values(rng, dtype, math.prod(small)).reshape(small)
        return Arr(base, "bcast", lambda xp, x: xp.broadcast_to(x, shp))
    return Arr(values(rng, dtype, n).reshape(shp), "c", lambda xp, x: x)


def scalar(rng, dtype=None):
    """A Python scalar or a NumPy scalar."""
    if rng.random() < 0.5:
        kind = rng.choice(["bool", "int", "float", "complex", "bigint", "negint"])
        return {
            "bool": bool(rng.random() < 0.5),
            "int": int(rng.integers(-5, 9)),
            "float": float(rng.choice([0.5, -2.25, 3.0, np.nan, np.inf, -0.0, 1e-3])),
            "complex": complex(rng.integers(-3, 4), rng.integers(-3, 4)),
            "bigint": int(rng.choice([300, 70000, 2**33, 2**63 - 1, 2**64 - 1, 2**70])),
            "negint": int(rng.choice([-129, -40000, -(2**40)])),
        }[str(kind)]
    dt = dtype or rng.choice(NUMERIC)
    return np.dtype(dt).type(values(rng, dt, 1)[0])


def operand(rng, dtype, shp, scalar_p=0.2):
    return Val(scalar(rng)) if rng.random() < scalar_p else array(rng, dtype, shp)


def bshapes(rng, nops):
    """Shapes that broadcast together (sometimes, on purpose, shapes that do not)."""
    full = shape(rng)
    out = []
    for _ in range(nops):
        s = list(full[int(rng.integers(0, len(full) + 1)) :] if rng.random() < 0.3 else full)
        s = [1 if rng.random() < 0.25 else d for d in s]
        out.append(tuple(s))
    if rng.random() < 0.03 and full:
        out[0] = tuple(d + 1 for d in out[0])
    return out, full


def dtype(rng, kinds=DTYPES):
    return str(rng.choice(kinds))


# --- cases --------------------------------------------------------------------------------------


class Case:
    def __init__(self, name, fn, operands, tol=None, text=""):
        self.name, self.fn, self.operands, self.tol, self.text = name, fn, operands, tol, text
        # The sign of a zero result of max/min-like functions of +0 and -0 is unspecified.
        signless = ("max", "min", "clip", "sort", "median", "set.", "set2.", "unique", "search.",
                    "random.", "shape.pad")  # fmt: skip
        self.signless = any(m in name for m in signless)

    def describe(self):
        ops = ", ".join(f"a{i}={op!r}" for i, op in enumerate(self.operands))
        return f"{self.name} {self.text} | {ops}"


def ulp_tol(dt):
    """Transcendental functions: a few ulps (NumPy's SIMD loops and glibc may differ)."""
    return {"f": (4e-3, 1e-6), "e": (4e-3, 1e-6)}.get(dt.char, None) or (
        (2e-6, 1e-30) if dt in (np.float32, np.complex64) else (1e-13, 1e-300)
    )


def sum_tol(dt):
    """Order-dependent sums: rounding differs with the summation order."""
    if dt == np.float16:
        return (2e-2, 2e-2)
    return (1e-4, 1e-4) if dt in (np.float32, np.complex64) else (1e-9, 1e-9)


def _axis(rng, ndim, single=False):
    r = rng.random()
    if r < 0.25 or ndim == 0:
        return None if r < 0.2 or ndim == 0 and rng.random() < 0.7 else 0
    ax = int(rng.integers(-ndim, ndim))
    if single or r < 0.7:
        return ax
    k = int(rng.integers(1, ndim + 1))
    return tuple(int(a) for a in rng.choice(range(-ndim, 0), k, replace=False))


def _index_repr(ix):
    return (
        repr(tuple(p.tolist() if isinstance(p, np.ndarray) else p for p in ix))
        if isinstance(ix, tuple)
        else f"mask{ix.tolist()}"
    )


def _to_dev(xp, ix):
    """Index arrays as gpupy arrays on the device (NumPy ones too on cpu, half the time)."""
    if xp is np:
        return ix
    if not isinstance(ix, tuple):
        return xp.asarray(ix)
    cpu = xp.get_default_device() == xp.Device("cpu")
    return tuple(
        xp.asarray(p) if isinstance(p, np.ndarray) and (p.size % 2 or not cpu) else p for p in ix
    )


def warn_undefined_at_cast(ufunc, a, indices, *values):
    """Before NumPy runs ufunc.at on an integer array: a float or complex intermediate outside the
    integer dtype's range is cast back with no defined value (NumPy's own cast paths disagree),
    so the case is reported as an invalid cast and its values are not compared. The updates are
    replayed one occurrence at a time, each truncated back as the integer array would be."""
    import warnings

    if a.dtype.kind not in "iub" or not values:
        return
    try:  # the loop's result kind: true_divide of integers is float too
        kind = ufunc(np.zeros(1, a.dtype), np.asarray(values[0])).dtype.kind
    except Exception:  # noqa: BLE001 - NumPy's own call reports it
        return
    if kind not in "fc":
        return
    info = np.iinfo(a.dtype) if a.dtype.kind != "b" else np.iinfo(np.uint8)
    wide, undefined = a.astype(np.float64), False
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for i in np.atleast_1d(np.asarray(indices, dtype=np.int64)).tolist():
            try:
                step = np.real(ufunc(wide[i], values[0]))
            except Exception:  # noqa: BLE001 - NumPy's own call reports it
                return
            if not np.all(np.isfinite(step) & (step > info.min - 1) & (step < info.max + 1)):
                undefined = True
                break
            wide[i] = np.trunc(step)
    if undefined:
        warnings.warn("invalid value encountered in cast", RuntimeWarning, stacklevel=2)
