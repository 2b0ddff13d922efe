"""Corner cases where gpupy once differed from NumPy 2.4, each checked against NumPy itself."""

import gpupy
import numpy as np
import pytest
from gpupy import testing

# Reductions that, as NumPy's ufunc reductions do, read an integer axis 0 or -1 of a 0-d array as
# "no axis"; mean/var/std/median/quantile and friends refuse it. The q argument where needed.
ZERO_D_REDUCTIONS = {
    "sum": (), "prod": (), "min": (), "max": (), "amin": (), "amax": (), "any": (), "all": (),
    "argmin": (), "argmax": (), "cumsum": (), "cumprod": (), "mean": (), "std": (), "var": (),
    "ptp": (), "count_nonzero": (), "average": (), "median": (), "quantile": (0.25,),
    "percentile": (75,), "nansum": (), "nanprod": (), "nanmin": (), "nanmax": (),
    "nanargmin": (), "nanargmax": (), "nanmean": (), "nanstd": (), "nanvar": (),
    "nancumsum": (), "nancumprod": (), "nanmedian": (), "nanquantile": (0.5,),
    "nanpercentile": (50,),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(ZERO_D_REDUCTIONS))
@pytest.mark.parametrize("axis", [0, -1, (0,), 1, -2, ()])
def test_reduction_axis_of_zero_d_input(name, axis):
    args = ZERO_D_REDUCTIONS[name]
    x = np.asarray(2.5)
    try:
        expected = getattr(np, name)(x, *args, axis=axis)
    except Exception as exc:  # noqa: BLE001 - gpupy must raise the same exception type
        with pytest.raises(type(exc)):
            getattr(gpupy, name)(gpupy.asarray(x), *args, axis=axis)
        return
    testing.assert_same(expected, getattr(gpupy, name)(gpupy.asarray(x), *args, axis=axis))


@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all", "argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, -1, np.int64(-1)])
@testing.numpy_gpupy_allclose()
def test_zero_d_axis_methods_keepdims_and_integers(name, axis, xp):
    x = xp.asarray(np.int32(-7))
    return getattr(x, name)(axis=axis), getattr(xp, name)(x, axis=axis, keepdims=True)


@pytest.mark.parametrize("name", ["sum", "max", "prod"])
@testing.numpy_gpupy_allclose()
def test_zero_d_axis_with_initial_where_and_out(name, xp):
    x = xp.asarray(4.0)
    out = xp.zeros(())
    getattr(xp, name)(x, axis=0, out=out)
    return getattr(xp, name)(x, axis=-1, initial=5.0, where=xp.asarray(False)), out


@pytest.mark.parametrize("name", ["add", "subtract", "maximum", "logical_xor", "power", "divide"])
@pytest.mark.parametrize("axis", [0, -1, None, (), (0,), 1])
@pytest.mark.parametrize("value", [3, 2.5])
@testing.numpy_gpupy_allclose()
def test_ufunc_reduce_of_zero_d_input(name, axis, value, xp):
    u = getattr(xp, name)
    x = xp.asarray(value)
    return u.reduce(x, axis=axis), u.reduce(x, axis=axis, keepdims=True, initial=2)


@pytest.mark.parametrize("name", ["subtract", "logical_and", "logical_or", "maximum"])
@testing.numpy_gpupy_allclose()
def test_ufunc_reduce_no_axes_and_logical_initial(name, xp):
    u = getattr(xp, name)
    a = xp.asarray([[1, 0, 3], [0, 0, 2]])
    return u.reduce(a, axis=()), u.reduce(a, axis=(), initial=1), u.reduce(a, axis=1, initial=0)


def test_zero_d_errors_are_axis_errors():
    x = gpupy.asarray(1.0)
    for fn in (gpupy.sum, gpupy.mean, gpupy.nanmedian, gpupy.median, gpupy.subtract.reduce):
        with pytest.raises(np.exceptions.AxisError, match="out of bounds"):
            fn(x, axis=(0,))
    with pytest.raises(TypeError, match=r"\[subtract\]"):
        gpupy.subtract.reduce(gpupy.asarray(True), axis=0)
