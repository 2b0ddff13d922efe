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
