"""Case families of tools/fuzz_numpy.py: set operations, unique and searching/sorting with their
keywords (host Python only)."""

import math

from fuzz_operands import REAL, Case, array, dtype, operand, shape


def gen_set(rng):
    name = str(rng.choice(["union1d", "intersect1d", "setdiff1d", "setxor1d", "isin"]))
    a = array(rng, dtype(rng, REAL), shape(rng, int(rng.integers(0, 3))))
    b = array(rng, dtype(rng, REAL), shape(rng, int(rng.integers(0, 3))))
    kw = {}
    if name != "union1d" and rng.random() < 0.3:
        kw["assume_unique"] = False
    if name == "isin" and rng.random() < 0.3:
        kw["invert"] = True
    if name == "intersect1d" and rng.random() < 0.3:
        kw["return_indices"] = True
    return Case(
        f"set.{name}", lambda xp, x, y: getattr(xp, name)(x, y, **kw), [a, b], None, repr(kw)
    )


_SET_DTYPES = REAL + ("complex64", "complex128")
_NARROW = ("bool", "int8", "uint8", "int16", "uint16")


def _set_operand(rng, dt, ndim=None):
    """Mostly small integers (many duplicates), NaNs and signed zeros for floats."""
    return array(rng, dt, shape(rng, int(rng.integers(0, 3)) if ndim is None else ndim))


def nan_free_inverse(xp, x, inverse):
    """unique's inverse with the NaN positions set to -1: without return_index NumPy's unstable
    sort numbers several NaNs (each its own value when equal_nan=False) in no set order."""
    if x.dtype.kind not in "fc":
        return inverse
    return xp.where(xp.isnan(x).reshape(inverse.shape), -1, inverse)


def gen_sets2(rng):
    """unique with every return_* and axis/equal_nan; the set functions with kind=,
    assume_unique= on data that is unique and mixed dtypes; isin with broadcast-free shapes."""
    name = str(rng.choice(["unique", "unique_all", "intersect1d", "union1d", "setdiff1d",
                           "setxor1d", "isin", "unique_axis"]))  # fmt: skip
    dt = dtype(rng, _SET_DTYPES if name.startswith("unique") else REAL)
    ops, kw = [_set_operand(rng, dt)], {}
    if name in ("unique", "unique_axis"):
        for k in ("return_index", "return_inverse", "return_counts"):
            if rng.random() < 0.5:
                kw[k] = True
        if rng.random() < 0.4:
            kw["equal_nan"] = bool(rng.random() < 0.5)
        if name == "unique_axis":
            # NumPy 2.4 sorts float16 rows holding NaN first (documented)
            dt = "float32" if dt == "float16" else dt
            ops = [array(rng, dt, shape(rng, int(rng.integers(1, 4))))]
            kw["axis"] = int(rng.integers(-len(ops[0].np.shape), len(ops[0].np.shape)))
    elif name != "unique_all":
        ops.append(_set_operand(rng, dtype(rng, REAL) if rng.random() < 0.4 else dt))
        if name != "union1d" and rng.random() < 0.4:
            kw["assume_unique"] = True
        if name == "isin":
            if rng.random() < 0.4:
                kw["kind"] = str(rng.choice(["sort", "table"]))
            if kw.get("kind") == "table":  # a table over a wide range is gigabytes, in NumPy too
                ops = [_set_operand(rng, dtype(rng, _NARROW)) for _ in ops]
            if rng.random() < 0.3:
                kw["invert"] = True
        if name == "intersect1d" and rng.random() < 0.5:
            kw["return_indices"] = True

    def fn(xp, x, *rest):
        if name == "unique_all":
            return tuple(xp.unique_all(x))
        if name == "unique_axis":
            return xp.unique(x, **kw)
        unstable = kw.get("equal_nan") is False and not kw.get("return_index")
        if name == "unique" and kw.get("return_inverse") and unstable:
            r = list(xp.unique(x, **kw))
            r[1] = nan_free_inverse(xp, x, r[1])
            return tuple(r)
        if kw.get("assume_unique"):  # the inputs must really be unique then
            x, rest = xp.unique(x), tuple(xp.unique(r) for r in rest)
        return getattr(xp, name.replace("_all", ""))(x, *rest, **kw)

    return Case(f"set2.{name}", fn, ops, None, repr(kw))


_KINDS = [None, "quicksort", "mergesort", "heapsort", "stable"]
_SEARCH = ["searchsorted", "searchsorted_sorter", "sort", "argsort", "partition", "argpartition",
           "lexsort", "sort_method", "argsort_method"]  # fmt: skip


def gen_search(rng):
    """searchsorted with side/sorter and scalar or array needles, sort/argsort kinds (NaNs
    included), partition/argpartition with kth lists (checked at the kth positions) and lexsort
    with several keys."""
    name = str(rng.choice(_SEARCH))
    dt = dtype(rng, REAL)
    shp = shape(rng, int(rng.integers(1, 4)))
    ops, kw = [array(rng, dt, shp)], {}
    if name.startswith("searchsorted"):
        ops = [array(rng, dt, shape(rng, 1))]
        ops.append(operand(rng, dtype(rng, REAL), shape(rng, int(rng.integers(0, 3))), 0.4))
        if rng.random() < 0.7:
            kw["side"] = str(rng.choice(["left", "right", "LEFT", "l", "middle"]))
    elif name in ("sort", "argsort", "sort_method", "argsort_method"):
        kw["axis"] = int(rng.integers(-len(shp), len(shp))) if rng.random() < 0.8 else None
        if name.endswith("_method") and kw["axis"] is None:
            kw["axis"] = -1
        kw["kind"] = _KINDS[int(rng.integers(0, len(_KINDS)))]
        if name.startswith("argsort") and rng.random() < 0.5:
            kw["stable"] = True  # unstable kinds may order ties differently
    elif name in ("partition", "argpartition"):
        kw["axis"] = int(rng.integers(-len(shp), len(shp))) if rng.random() < 0.8 else None
        n = math.prod(shp) if kw["axis"] is None else shp[kw["axis"]]
        k = int(rng.integers(1, 4))
        kth = [int(i) for i in rng.integers(-n - (rng.random() < 0.1), max(n, 1), k)]
        kw["kth"] = kth[0] if len(kth) == 1 and rng.random() < 0.5 else kth
    elif name == "lexsort":
        k = int(rng.integers(1, 4))
        ops = [array(rng, dtype(rng, REAL), shp) for _ in range(k)]
        if rng.random() < 0.4:
            kw["axis"] = int(rng.integers(-len(shp), len(shp)))

    def fn(xp, x, *rest):
        kwargs = dict(kw)
        if name == "searchsorted":
            return xp.searchsorted(xp.sort(x), rest[0], **kwargs)
        if name == "searchsorted_sorter":
            return xp.searchsorted(x, rest[0], sorter=xp.argsort(x, stable=True), **kwargs)
        if name == "sort_method":
            y = x.copy()
            y.sort(**kwargs)
            return y
        if name.startswith("argsort") and kwargs.get("kind") in (None, "quicksort", "heapsort"):
            if not kwargs.get("stable"):  # ties in an unspecified order: compare the values
                r = x.argsort(**kwargs) if name == "argsort_method" else xp.argsort(x, **kwargs)
                return xp.take_along_axis(
                    x.ravel() if kwargs["axis"] is None else x,
                    r,
                    axis=-1 if kwargs["axis"] is None else kwargs["axis"],
                )
        if name == "argsort_method":
            return x.argsort(**kwargs)
        if name in ("partition", "argpartition"):
            kth = kwargs.pop("kth")
            r = getattr(xp, name)(x, kth, **kwargs)
            if name == "argpartition":
                flat = x.ravel() if kwargs["axis"] is None else x
                r = xp.take_along_axis(flat, r, axis=-1 if kwargs["axis"] is None else kw["axis"])
            axis = -1 if kwargs["axis"] is None else kwargs["axis"]
            ks = xp.asarray([kth] if isinstance(kth, int) else kth)
            # only the elements at the kth positions are defined (documented)
            return xp.take(r, ks, axis=axis), xp.sort(r, axis=axis)
        if name == "lexsort":
            return xp.lexsort(tuple([x, *rest]), **kwargs)
        return getattr(xp, name)(x, **kwargs)

    return Case(f"search.{name}", fn, ops, None, repr(kw))
