"""out= of the wrong shape is refused, never broadcast into: the functions below wrote their
result with `out[...] = result`, which filled a larger out by broadcasting where NumPy raises."""

import warnings

import pytest
from gpupy import testing

CALLS = {
    "concatenate": lambda xp, out: xp.concatenate([xp.ones(3), xp.ones(3)], out=out((2, 6))),
    "concatenate_axis_none": lambda xp, out: xp.concatenate(
        [xp.ones((1, 3)), xp.ones((1, 3))], axis=None, out=out((2, 6))
    ),
    "stack": lambda xp, out: xp.stack([xp.ones(3), xp.ones(3)], out=out((2, 2, 3))),
    "einsum": lambda xp, out: xp.einsum("i,i->i", xp.ones(3), xp.ones(3), out=out((2, 3))),
    "einsum_one_operand": lambda xp, out: xp.einsum("ij->ji", xp.ones((2, 3)), out=out((2, 3, 2))),
    "ptp": lambda xp, out: xp.ptp(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "median": lambda xp, out: xp.median(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "median_two_axes": lambda xp, out: xp.median(xp.ones((3, 4, 2)), axis=(0, 2), out=out((2, 4))),
    "nanmean": lambda xp, out: xp.nanmean(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "nanvar": lambda xp, out: xp.nanvar(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "nanstd": lambda xp, out: xp.nanstd(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "nanmax": lambda xp, out: xp.nanmax(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "nanmin": lambda xp, out: xp.nanmin(xp.ones((3, 4)), axis=0, out=out((2, 4))),
    "nanargmax": lambda xp, out: xp.nanargmax(xp.ones((3, 4)), axis=0, out=out((2, 4), "int64")),
    "round": lambda xp, out: xp.round(xp.ones(4), out=out((2, 4))),
    "around_method": lambda xp, out: xp.ones((2, 2)).round(out=out((2,))),
    "weighted_quantile": lambda xp, out: xp.quantile(
        xp.ones((3, 4)),
        0.5,
        axis=0,
        weights=xp.ones((3, 4)),
        method="inverted_cdf",
        out=out((2, 4)),
    ),
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
@testing.numpy_gpupy_raises()
def test_out_of_the_wrong_shape_raises(call, xp):
    return call(xp, lambda shape, dtype="float64": xp.zeros(shape, dtype))


@pytest.mark.parametrize("name", ["concatenate", "einsum", "nanmean", "median", "round"])
@testing.numpy_gpupy_allclose()
def test_out_of_the_right_shape_still_receives_the_result(name, xp):
    a = xp.arange(12.0).reshape(3, 4) / 3
    calls = {
        "concatenate": lambda out: xp.concatenate([a, a], out=out),
        "einsum": lambda out: xp.einsum("ij->ji", a, out=out),
        "nanmean": lambda out: xp.nanmean(a, axis=0, out=out),
        "median": lambda out: xp.median(a, axis=1, out=out),
        "round": lambda out: xp.round(a, 1, out=out),
    }
    shapes = {"concatenate": (6, 4), "einsum": (4, 3), "nanmean": (4,), "median": (3,)}
    out = xp.full(shapes.get(name, (3, 4)), -1.0)
    result = calls[name](out)
    assert result is out
    return out


# out= of a dtype the result does not cast to under NumPy's rule is refused: each function below
# wrote a float (or complex) result into any out=, so a NaN became INT64_MIN in an int64 out.
# NumPy: 'same_kind' for ptp, median, quantile, percentile, outer and the fft (their ufuncs),
# einsum's casting= (default 'safe'), an inexact out for nanmean/nanvar/nanstd of inexact data,
# and no check for the other nan-functions (nanmedian, nanquantile, nansum ...).
_DATA = [[1.5, 2.25, -3.75], [4.5, float("nan"), 6.0]]
DTYPE_CALLS = {
    "ptp": ((2,), lambda xp, a, out: xp.ptp(a, axis=1, out=out)),
    "median": ((2,), lambda xp, a, out: xp.median(a, axis=1, out=out)),
    "median_axis_none": ((), lambda xp, a, out: xp.median(a, out=out)),
    "quantile": ((2,), lambda xp, a, out: xp.quantile(a, 0.3, axis=1, out=out)),
    "quantile_method": (
        (2,),
        lambda xp, a, out: xp.quantile(a, 0.3, axis=1, method="lower", out=out),
    ),
    "percentile": ((2,), lambda xp, a, out: xp.percentile(a, 30, axis=1, out=out)),
    "weighted_quantile": (
        (2,),
        lambda xp, a, out: xp.quantile(
            a, 0.5, axis=1, weights=xp.ones((2, 3)), method="inverted_cdf", out=out
        ),
    ),
    "nanquantile": ((2,), lambda xp, a, out: xp.nanquantile(a, 0.3, axis=1, out=out)),
    "nanmedian": ((2,), lambda xp, a, out: xp.nanmedian(a, axis=1, out=out)),
    "nansum": ((2,), lambda xp, a, out: xp.nansum(a, axis=1, out=out)),
    "nanmean": ((2,), lambda xp, a, out: xp.nanmean(a, axis=1, out=out)),
    "nanvar": ((2,), lambda xp, a, out: xp.nanvar(a, axis=1, out=out)),
    "nanstd": ((2,), lambda xp, a, out: xp.nanstd(a, axis=1, out=out)),
    "outer": ((6, 6), lambda xp, a, out: xp.outer(a, a, out=out)),
    "fft": ((3,), lambda xp, a, out: xp.fft.fft(a[0], out=out)),
    "einsum": ((2,), lambda xp, a, out: xp.einsum("ij->i", a, out=out)),
    "einsum_same_kind": (
        (2,),
        lambda xp, a, out: xp.einsum("ij->i", a, out=out, casting="same_kind"),
    ),
    "einsum_unsafe": ((2,), lambda xp, a, out: xp.einsum("ij->i", a, out=out, casting="unsafe")),
}


@pytest.mark.parametrize("out_dtype", ["int64", "bool", "float32", "complex128"])
@pytest.mark.parametrize("call", DTYPE_CALLS.values(), ids=DTYPE_CALLS.keys())
@testing.numpy_gpupy_allclose(accept_error=True)
def test_out_of_a_dtype_the_result_does_not_cast_to(call, out_dtype, xp):
    shape, fn = call
    if fn is DTYPE_CALLS["quantile_method"][1] and out_dtype == "complex128":
        pytest.skip("NumPy's 'lower' method takes from a real array into out, refusing complex")
    out = xp.zeros(shape, out_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ComplexWarning, all-NaN slices
        assert fn(xp, xp.asarray(_DATA), out) is out
    return out
