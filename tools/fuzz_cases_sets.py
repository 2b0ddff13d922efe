"""Case families of tools/fuzz_numpy.py: set operations, unique and searching/sorting with their
keywords (host Python only)."""

from fuzz_operands import REAL, Case, array, dtype, shape


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
