"""out= of the wrong shape is refused, never broadcast into: the functions below wrote their
result with `out[...] = result`, which filled a larger out by broadcasting where NumPy raises."""

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
