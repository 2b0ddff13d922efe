"""Case family of tools/fuzz_numpy.py: statistics with their keywords (histogram bins, range,
weights and density, histogram2d, bincount, digitize, the quantile methods, average, cov and
corrcoef, ptp) (host Python only)."""

import numpy as np
from fuzz_operands import REAL, Case, Val, _axis, array, dtype, shape, sum_tol

_STATS = ["histogram", "histogram_bin_edges", "histogram2d", "bincount", "digitize",
          "quantile", "percentile", "nanquantile", "average", "cov", "corrcoef", "ptp"]  # fmt: skip
_METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
            "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
            "normal_unbiased", "lower", "higher", "midpoint", "nearest"]  # fmt: skip
_ESTIMATORS = ["auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"]
_FLOATS = ("float16", "float32", "float64")


def _bins(rng):
    r = rng.random()
    if r < 0.4:
        return int(rng.integers(0, 6))  # 0 bins is an error
    if r < 0.7:
        edges = np.sort(rng.integers(-6, 7, int(rng.integers(1, 5))).astype(float))
        return [float(e) for e in (edges if rng.random() < 0.9 else edges[::-1])]
    return str(rng.choice(_ESTIMATORS))


def _range(rng):
    if rng.random() < 0.6:
        return None
    lo = float(rng.integers(-5, 3))
    return (lo, lo + float(rng.choice([0.0, 1.0, 4.5, -1.0])))


def _hist_kwargs(rng, weighted):
    kw = {"bins": _bins(rng), "range": _range(rng)}
    if weighted:
        kw["density"] = bool(rng.random() < 0.5)
    return kw


def _quantile_kwargs(rng, name):
    q = float(rng.choice([0.0, 0.25, 0.5, 0.99, 1.0, 1.5])) if "quantile" in name else 50.0
    if rng.random() < 0.3:
        q = np.float64(q)  # a NumPy scalar: strong, as an array
    if rng.random() < 0.4:
        q = [float(v) for v in rng.choice([0.0, 0.1, 0.5, 0.75, 1.0], int(rng.integers(1, 4)))]
    if "percentile" in name:
        q = np.multiply(q, 100).tolist() if isinstance(q, list) else q * 100
    kw = {"q": q}
    if rng.random() < 0.7:
        kw["method"] = str(rng.choice(_METHODS))
    return kw


def _quantile_tol(dt):
    return (1e-6, 1e-6)


def gen_stats(rng):
    name = str(rng.choice(_STATS))
    dt = dtype(rng, REAL)
    shp = shape(rng, int(rng.integers(1, 3)))
    a = array(rng, dt, shp)
    ops, kw, tol = [a], {}, sum_tol
    if name in ("histogram", "histogram_bin_edges", "histogram2d"):
        ops = [array(rng, dt, (int(rng.integers(0, 8)),))]
        if name == "histogram2d":
            ops.append(array(rng, dtype(rng, REAL), ops[0].np.shape))
        weighted = rng.random() < 0.3
        if weighted:
            ops.append(array(rng, dtype(rng, _FLOATS + ("int64",)), ops[0].np.shape))
        kw = _hist_kwargs(rng, weighted)
        if kw["bins"] in ("fd", "auto") and ops[0].np.dtype.kind in "iu":
            # their IQR is a quantile of integer data (NumPy's wraps, documented)
            ops[0] = array(rng, dtype(rng, _FLOATS), ops[0].np.shape)
        if isinstance(kw["bins"], str):  # a bounded range: estimators may ask for 10**9 bins
            with np.errstate(invalid="ignore"):  # whole numbers: no IQR of 1e-40 either
                ops[0].base = np.round(np.clip(ops[0].base, -50, 50))
        if isinstance(kw["bins"], str) and (weighted or name == "histogram2d"):
            kw["bins"] = 3  # automatic bins of weighted data are not implemented (documented)
    elif name == "bincount":
        n = int(rng.integers(0, 7))
        ops = [Val(rng.integers(-1 if rng.random() < 0.05 else 0, 9, n).astype(
            str(rng.choice(["int8", "int32", "int64", "uint8", "bool", "uint64"]))))]  # fmt: skip
        if rng.random() < 0.4:
            ops.append(array(rng, dtype(rng, ("float32", "float64", "int64", "bool")), (n,)))
            kw["weights"] = True
        if rng.random() < 0.4:
            kw["minlength"] = int(rng.integers(-1, 12))
    elif name == "digitize":
        ops.append(Val(np.sort(rng.integers(-5, 6, int(rng.integers(0, 5)))).astype(float)))
        if rng.random() < 0.3:
            ops[1] = Val(ops[1].value[::-1].copy())
        kw["right"] = bool(rng.random() < 0.5)
    elif name in ("quantile", "percentile", "nanquantile"):
        kw = _quantile_kwargs(rng, name)
        kw["axis"] = _axis(rng, len(shp), True)
        if rng.random() < 0.2:
            kw["keepdims"] = True
        if dt in ("float16", "bool") or dt.startswith(("int", "uint")):
            # integer neighbours subtract in the data's dtype in NumPy (documented); float16
            # quantiles are computed in float64 by NumPy too but rounded once more
            ops = [array(rng, str(rng.choice(("float32", "float64"))), shp)]
        if ops[0].np.dtype == np.float32 and type(kw["q"]) is not float:
            tol = _quantile_tol  # float32 data, float64 quantiles (documented)
        if 0 in shp and kw.get("method", "linear") != "linear":
            kw["method"] = "linear"  # NumPy 2.4's other methods index empty rows (IndexError)
        if rng.random() < 0.2 and kw.get("method") == "inverted_cdf" and kw["axis"] is not None:
            ops.append(array(rng, "float64", shp))  # weights need inverted_cdf
            kw["weights"] = True
    elif name == "average":
        kw["axis"] = _axis(rng, len(shp), rng.random() < 0.5)
        if rng.random() < 0.6:
            whole = rng.random() < 0.7 or not isinstance(kw["axis"], int)
            wshape = shp if whole else (shp[kw["axis"]],)
            ops.append(array(rng, dtype(rng, REAL), wshape))
            kw["weights"] = True
        if rng.random() < 0.4:
            kw["returned"] = True
        if rng.random() < 0.2:
            kw["keepdims"] = True
    elif name in ("cov", "corrcoef"):
        if rng.random() < 0.3:
            ops.append(array(rng, dtype(rng, REAL), shp))
        if rng.random() < 0.4:
            kw["rowvar"] = bool(rng.random() < 0.5)
        if name == "cov" and rng.random() < 0.3:
            kw["bias"] = True
        if name == "cov" and rng.random() < 0.3:
            kw["ddof"] = int(rng.integers(0, 3))
    elif name == "ptp":
        kw["axis"] = _axis(rng, len(shp))
        if rng.random() < 0.3:
            kw["keepdims"] = True
        tol = None

    def fn(xp, *args):
        kwargs = dict(kw)
        if kwargs.pop("weights", False):
            args, kwargs["weights"] = args[:-1], args[-1]
        if name == "histogram2d":
            return xp.histogram2d(*args, **kwargs)
        if name in ("quantile", "percentile", "nanquantile"):
            return getattr(xp, name)(args[0], kwargs.pop("q"), **kwargs)
        if name in ("cov", "corrcoef") and len(args) == 2:
            return getattr(xp, name)(args[0], args[1], **kwargs)
        return getattr(xp, name)(*args, **kwargs)

    return Case(f"stats.{name}", fn, ops, tol, repr(kw))
