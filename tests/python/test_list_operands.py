"""Python lists and tuples as operands: created on the device of the other gpupy operands (they
were cpu arrays, so `x + [1, 2, 3]` failed for x on emu or cuda with "operands are on different
devices"), or on the default device when there is none; values against NumPy."""

import gpupy
import numpy
import pytest

X = [0.5, -1.0, 2.0]
LIST = [3.0, 1.0, -2.0]

CALLS = {
    "x + list": lambda xp, x: x + LIST,
    "list * x": lambda xp, x: LIST * x,
    "x == tuple": lambda xp, x: x == tuple(LIST),
    "add(x, list)": lambda xp, x: xp.add(x, LIST),
    "maximum(list, x)": lambda xp, x: xp.maximum(LIST, x),
    "add(x, nested list)": lambda xp, x: xp.add(x, [LIST, X]),
    "where(x > 0, x, list)": lambda xp, x: xp.where(x > 0, x, LIST),
    "clip(x, list, list)": lambda xp, x: xp.clip(x, [0.0, 0.0, 0.0], [1.0, 1.0, 1.0]),
    "x @ list": lambda xp, x: x @ LIST,
    "list @ x": lambda xp, x: LIST @ x,
    "dot(x, list)": lambda xp, x: xp.dot(x, LIST),
    "x.dot(list)": lambda xp, x: x.dot(LIST),
    "outer(list, x)": lambda xp, x: xp.outer(LIST, x),
    "vecdot(x, list)": lambda xp, x: xp.vecdot(x, LIST),
    "concatenate([x, list])": lambda xp, x: xp.concatenate([x, LIST]),
    "stack([list, x])": lambda xp, x: xp.stack([LIST, x]),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_lists_join_the_other_operands_device(call, device_name):
    x = gpupy.asarray(X, device=device_name)
    with gpupy.Device("cpu"):  # the default device is not where x lives (on emu and cuda)
        result = call(gpupy, x)
    expected = call(numpy, numpy.asarray(X))
    assert result.device == x.device
    assert result.dtype == expected.dtype
    numpy.testing.assert_array_equal(result.get(), expected)


@pytest.mark.parametrize("fn", ["sin", "negative"])
def test_lists_alone_go_to_the_default_device(fn, device_name):
    with gpupy.Device(device_name):
        result = getattr(gpupy, fn)(LIST)
    assert result.device == gpupy.Device(device_name)
    numpy.testing.assert_array_equal(result.get(), getattr(numpy, fn)(LIST))


def test_numpy_arrays_are_still_not_copied_to_a_device_behind_the_users_back(device_name):
    if device_name == "cpu":
        pytest.skip("needs a device other than the host's")
    x = gpupy.asarray(X, device=device_name)
    with pytest.raises(ValueError, match=r"\[add\] operands are on different devices"):
        x + numpy.asarray(LIST)


MASK = [True, False, True]


def _mutated(fn):
    """A call that writes into a copy of x (put, place, putmask) and returns the copy."""

    def call(xp, x):
        y = x.copy()
        fn(xp, y)
        return y

    return call


# Array-likes given as keyword or secondary arguments (masks, weights, edges, indices, values):
# lists there follow the same rule as list operands.
KEYWORD_CALLS = {
    "add(x, x, out=, where=list)": lambda xp, x: xp.add(x, x, out=xp.ones_like(x), where=MASK),
    "add(x, x, where=list) unmasked": lambda xp, x: xp.add(x, x, out=None, where=MASK)[::2],
    "exp(x, out=, where=tuple)": lambda xp, x: xp.exp(x, out=xp.ones_like(x), where=tuple(MASK)),
    "power(x, 2, out=, where=list)": lambda xp, x: xp.power(x, 2, out=xp.ones_like(x), where=MASK),
    "floor_divide(x, 2.0, dtype=, where=)": lambda xp, x: xp.floor_divide(
        x, 2.0, out=xp.ones_like(x), where=MASK, dtype="float64"
    ),
    "sum(x, where=list)": lambda xp, x: xp.sum(x, where=MASK),
    "max(x, where=list, initial=)": lambda xp, x: xp.max(x, where=MASK, initial=-5.0),
    "mean(x, where=list)": lambda xp, x: xp.mean(x, where=MASK),
    "nansum(x, where=list)": lambda xp, x: xp.nansum(x, where=MASK),
    "x.sum(where=list)": lambda xp, x: x.sum(where=MASK),
    "average(x, weights=list)": lambda xp, x: xp.average(x, weights=[1.0, 2.0, 3.0]),
    "histogram(x, bins=list, weights=list)": lambda xp, x: xp.histogram(
        x, bins=[-2.0, 0.0, 3.0], weights=[1.0, 2.0, 3.0]
    ),
    "histogram2d(x, x, weights=list)": lambda xp, x: xp.histogram2d(x, x, 2, weights=LIST)[0],
    "histogramdd(xs, weights=list)": lambda xp, x: xp.histogramdd(
        xp.stack([x, x], axis=1), 2, weights=LIST
    )[0],
    "bincount(i, weights=list)": lambda xp, x: xp.bincount((x > 0).astype("int64"), weights=LIST),
    "diff(x, prepend=list, append=list)": lambda xp, x: xp.diff(x, prepend=[1.0], append=LIST),
    "ediff1d(x, to_end=list)": lambda xp, x: xp.ediff1d(x, to_end=[1.0], to_begin=LIST),
    "searchsorted(x, list)": lambda xp, x: xp.searchsorted(xp.sort(x), LIST),
    "take(x, list)": lambda xp, x: xp.take(x, [2, 0]),
    "delete(x, list)": lambda xp, x: xp.delete(x, [0, 2]),
    "insert(x, list, list)": lambda xp, x: xp.insert(x, [0, 2], [9.0, 8.0]),
    "put(x, list, list)": _mutated(lambda xp, y: xp.put(y, [0, 2], [5.0, 6.0])),
    "place(x, list, list)": _mutated(lambda xp, y: xp.place(y, MASK, [5.0, 6.0])),
    "putmask(x, list, list)": _mutated(lambda xp, y: xp.putmask(y, MASK, LIST)),
    "piecewise(x, [list], funcs)": lambda xp, x: xp.piecewise(x, [MASK], [1.0, 2.0]),
    "select([list], [x])": lambda xp, x: xp.select([MASK], [x]),
    "isclose(x, list)": lambda xp, x: xp.isclose(x, [0.5, 0.0, 2.0]),
    "array_equal(x, list)": lambda xp, x: x[xp.array_equal(x, X)],
    "tensordot(x, list, 1)": lambda xp, x: xp.tensordot(x, LIST, 1),
    "einsum('i,i', x, list)": lambda xp, x: xp.einsum("i,i->", x, LIST),
    "add.outer(x, list)": lambda xp, x: xp.add.outer(x, LIST),
    "gradient(x, list)": lambda xp, x: xp.gradient(x, [0.0, 1.0, 3.0]),
    "broadcast_arrays(x, list)": lambda xp, x: xp.broadcast_arrays(x, LIST)[1],
    "meshgrid(x, list)": lambda xp, x: xp.meshgrid(x, LIST)[1],
}


@pytest.mark.parametrize("call", KEYWORD_CALLS.values(), ids=KEYWORD_CALLS.keys())
def test_list_keywords_join_the_arrays_device(call, device_name):
    x = gpupy.asarray(X, device=device_name)
    with gpupy.Device("cpu"):
        result = call(gpupy, x)
    expected = call(numpy, numpy.asarray(X))
    results, expecteds = (result, expected) if isinstance(result, tuple) else ([result], [expected])
    for got, want in zip(results, expecteds, strict=True):
        assert got.device == x.device
        assert got.dtype == want.dtype
        numpy.testing.assert_allclose(got.get(), want, rtol=1e-15)
