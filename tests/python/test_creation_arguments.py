"""array, asarray and arange take NumPy's arguments: the first argument by its keyword name,
numpy._CopyMode values for copy=, ndmax=, and arange's start/stop/step by keyword, against NumPy
on the device under test (found by NumPy's test_multiarray.py)."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

_COPY_VALUES = [np._CopyMode.ALWAYS, np._CopyMode.IF_NEEDED, np._CopyMode.NEVER, np.True_, None]


@pytest.mark.parametrize("copy", _COPY_VALUES)
@pytest.mark.parametrize("order", ["C", "F"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_copy_takes_numpys_copy_modes(copy, order, xp):
    # gpupy asked bool() of _CopyMode.IF_NEEDED, which raises; NEVER with a layout change must
    # raise (a copy is needed)
    a = xp.arange(6).reshape(2, 3)
    return xp.array(a, copy=copy, order=order), xp.asarray(a.T, copy=copy, order=order)


@pytest.mark.parametrize("copy", [None, False, np._CopyMode.IF_NEEDED, np._CopyMode.NEVER])
def test_no_copy_with_the_arrays_own_dtype_returns_the_array(copy):
    # as NumPy: asking for the dtype the array has is no reason for a new array object
    host = np.arange(10, dtype=np.int8)
    assert np.array(host, copy=copy, dtype=np.int8) is host
    a = gpupy.asarray(host)
    assert gpupy.array(a, copy=copy, dtype=np.int8) is a
    assert gpupy.asarray(a, dtype="int8", copy=copy) is a


@testing.numpy_gpupy_raises()
def test_copy_refuses_strings(xp):
    xp.array([1, 2, 3], copy="always")


@testing.numpy_gpupy_allclose()
def test_first_argument_by_numpys_keyword(xp):
    return xp.array(object=[1, 2]), xp.asarray(a=3)


@pytest.mark.parametrize(
    "data, kwargs",
    [([[1, 2], [3, 4]], {"ndmax": 2}), ([[1, 2]], {"ndmax": 3}), ([[[1], [2]]], {"ndmax": 2}),
     ([1, 2], {"ndmax": 0}), ([1, 2], {"ndmax": -1}), ([1, 2], {"ndmax": 65}),
     ([[1]], {"ndmax": 1, "ndmin": 2}), ([[1, 2]], {"ndmax": 3, "ndmin": 3}), (5, {"ndmax": 0})],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_ndmax_limits_nested_sequences(data, kwargs, xp):
    return xp.array(data, **kwargs)


@testing.numpy_gpupy_allclose()
def test_ndmax_does_not_limit_an_array(xp):
    return xp.array(xp.ones((2, 3)), ndmax=1)


@pytest.mark.parametrize(
    "args, kwargs",
    [((), {"stop": 3}), ((0,), {"stop": 3}), ((), {"start": 3, "stop": 9}),
     ((), {"stop": 9, "step": 2}), ((2, 9), {"step": 3}), ((), {"start": 4}), ((), {"step": 3}),
     ((), {"dtype": "int64"}), ((), {}),
     ((0, 10, 0), {}), ((0.0, 0.0, 0.0), {}), ((0, 5, 0), {"dtype": "int8"}),
     ((0, 1, float("nan")), {}), ((float("nan"), 1), {}), ((0, float("inf"), float("inf")), {}),
     ((0, float("inf")), {}),
     ((2,), {"dtype": "bool"}), ((6, 8), {"dtype": "bool"}), ((False,), {"dtype": "bool"}),
     ((True,), {"dtype": "bool"}), ((3,), {"dtype": "bool"}), ((0, 6, 2), {"dtype": "bool"})],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_arange_arguments(args, kwargs, xp):
    # a zero step raises ZeroDivisionError, NaN ValueError, a bool arange longer than 2
    # TypeError, as in NumPy (gpupy returned an empty array for a NaN step, a bool ramp of any
    # length and ValueError for a zero step)
    return xp.arange(*args, **kwargs)
