"""None where a function takes an array: gpupy raises TypeError naming the operation, on every
device, where NumPy raises TypeError too, reads None as an object array (which gpupy does not
support), or fails later on that 0-d object array. Optional arguments keep taking None."""

import gpupy
import numpy
import pytest

OBJECT = "object"  # NumPy accepts None as (an element of) an object array and returns a value


def _a(xp):
    return xp.asarray([[1.0, 2.0], [3.0, 4.0]])


def _v(xp):
    return xp.asarray([1.0, 2.0, 3.0])


# (op named in gpupy's message, call, what NumPy does with it: OBJECT or its exception class)
CASES = [
    ("asarray", lambda xp: xp.asarray(None), OBJECT),
    ("asarray", lambda xp: xp.ravel(None), OBJECT),  # the functions that convert through asarray
    ("sum", lambda xp: xp.sum(None), OBJECT),
    ("max", lambda xp: xp.max(None), OBJECT),
    ("argmax", lambda xp: xp.argmax(None), OBJECT),
    ("cumsum", lambda xp: xp.cumsum(None), OBJECT),
    ("count_nonzero", lambda xp: xp.count_nonzero(None), OBJECT),
    ("sort", lambda xp: xp.sort(None), numpy.exceptions.AxisError),
    ("argsort", lambda xp: xp.argsort(None), OBJECT),
    ("diff", lambda xp: xp.diff(None), ValueError),
    ("cumulative_sum", lambda xp: xp.cumulative_sum(None), OBJECT),
    ("round", lambda xp: xp.round(None), TypeError),
    ("searchsorted", lambda xp: xp.searchsorted(_v(xp), None), TypeError),
    ("matmul", lambda xp: xp.matmul(_a(xp), None), ValueError),
    ("matmul", lambda xp: xp.matmul(None, _a(xp)), ValueError),
    ("dot", lambda xp: xp.dot(_a(xp), None), TypeError),
    ("inner", lambda xp: xp.inner(None, _a(xp)), TypeError),
    ("outer", lambda xp: xp.outer(_v(xp), None), TypeError),
    ("vdot", lambda xp: xp.vdot(_v(xp), None), ValueError),
    ("vecdot", lambda xp: xp.vecdot(_v(xp), None), ValueError),
    ("full", lambda xp: xp.full((2,), None), OBJECT),
    ("where", lambda xp: xp.where(_a(xp) > 2, _a(xp), None), OBJECT),
    ("concatenate", lambda xp: xp.concatenate([_a(xp), None]), ValueError),
    ("concatenate", lambda xp: xp.concatenate(None), TypeError),
    ("stack", lambda xp: xp.stack([_a(xp), None]), ValueError),
    ("vstack", lambda xp: xp.vstack(None), TypeError),
    ("hstack", lambda xp: xp.hstack([_v(xp), None]), OBJECT),
    ("lexsort", lambda xp: xp.lexsort(None), TypeError),
    ("lexsort", lambda xp: xp.lexsort([_v(xp), None]), ValueError),
    ("choose", lambda xp: xp.choose(xp.asarray([0, 1]), None), TypeError),
    ("select", lambda xp: xp.select(None, [_v(xp)]), TypeError),
    ("percentile", lambda xp: xp.percentile(_v(xp), None), TypeError),
    ("quantile", lambda xp: xp.quantile(_v(xp), [0.5, None]), TypeError),
    ("convolve", lambda xp: xp.convolve(_v(xp), None), TypeError),
    ("kron", lambda xp: xp.kron(None, _a(xp)), TypeError),
    ("polyval", lambda xp: xp.polyval(None, _v(xp)), TypeError),
    ("union1d", lambda xp: xp.union1d(_v(xp), None), TypeError),
    ("average", lambda xp: xp.average(None), TypeError),
    ("trapezoid", lambda xp: xp.trapezoid(None), IndexError),
    ("linalg.solve", lambda xp: xp.linalg.solve(_a(xp), None), TypeError),
    ("linalg.inv", lambda xp: xp.linalg.inv(None), numpy.linalg.LinAlgError),
    ("linalg.multi_dot", lambda xp: xp.linalg.multi_dot(None), TypeError),
    ("fft.fft", lambda xp: xp.fft.fft(None), IndexError),
    ("fft.fft2", lambda xp: xp.fft.fft2(None), IndexError),
]


@pytest.mark.parametrize(
    "op, call, numpy_does", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_none_operand_is_a_type_error_naming_the_operation(op, call, numpy_does):
    if numpy_does is OBJECT:
        call(numpy)  # NumPy's object-array reading of None, which gpupy has no dtype for
    else:
        with pytest.raises(numpy_does):
            call(numpy)
    with pytest.raises(TypeError, match=rf"^\[{op}\] .*None"):
        call(gpupy)


def test_ndarray_methods_of_the_bound_reductions_still_work():
    a = _a(gpupy)
    assert float(a.sum()) == 10.0
    assert int(a.argmax()) == 3
    numpy.testing.assert_array_equal(a.cumsum().get(), numpy.cumsum(_a(numpy)))


def test_round_takes_array_likes():
    numpy.testing.assert_array_equal(
        gpupy.round([1.25, 2.5, -0.5], 1).get(), numpy.round([1.25, 2.5, -0.5], 1)
    )


@pytest.mark.parametrize("axes", [None, (1, 0, 2)])
def test_permute_dims_with_no_axes_reverses_them(axes):
    x = numpy.arange(24.0).reshape(2, 3, 4)
    got = gpupy.permute_dims(gpupy.asarray(x), axes)
    numpy.testing.assert_array_equal(got.get(), numpy.permute_dims(x, axes))


def test_where_of_a_condition_alone_is_still_nonzero():
    c = numpy.asarray([[True, False], [False, True]])
    for got, want in zip(gpupy.where(gpupy.asarray(c)), numpy.where(c), strict=True):
        numpy.testing.assert_array_equal(got.get(), want)
    with pytest.raises(ValueError, match=r"\[where\] either both or neither"):
        gpupy.where(gpupy.asarray(c), gpupy.asarray(c))


def test_optional_arguments_still_take_none():
    y, x = numpy.asarray([1.0, 4.0, 9.0]), numpy.asarray([0.0, 1.0, 3.0])
    gy, gx = gpupy.asarray(y), gpupy.asarray(x)
    assert float(gpupy.average(gy, weights=None)) == numpy.average(y, weights=None)
    assert float(gpupy.trapezoid(gy, None)) == numpy.trapezoid(y, None)
    numpy.testing.assert_allclose(gpupy.cov(gy, None).get(), numpy.cov(y, None))
    numpy.testing.assert_allclose(
        gpupy.polyfit(gx, gy, 2, w=None).get(), numpy.polyfit(x, y, 2, w=None), atol=1e-12
    )
    numpy.testing.assert_array_equal(gpupy.clip(gy, None, 4.0).get(), numpy.clip(y, None, 4.0))
    numpy.testing.assert_array_equal(gpupy.diff(gy, prepend=None).get(), numpy.diff(y))
