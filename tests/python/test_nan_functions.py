"""The nan* reductions and quantile methods against NumPy, on the device under test."""

import warnings

import gpupy
import numpy
import pytest
from gpupy import testing

rs = numpy.random.RandomState(11)


def _with_nans(shape=(5, 6), dtype="float64"):
    a = rs.randn(*shape).astype(dtype)
    a[1, 2] = a[0, 0] = numpy.nan
    a[3, :] = numpy.nan
    return a


def _messages(fn, *args, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = fn(*args, **kwargs)
    return result, sorted({str(w.message) for w in caught})


REDUCTIONS = ["nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "nanmedian"]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_nan_reductions_match_numpy(name, axis, keepdims):
    a = _with_nans()
    got, got_msgs = _messages(getattr(gpupy, name), gpupy.asarray(a), axis=axis, keepdims=keepdims)
    expected, msgs = _messages(getattr(numpy, name), a, axis=axis, keepdims=keepdims)
    assert got.shape == numpy.shape(expected) and got.dtype == numpy.asarray(expected).dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)
    assert got_msgs == msgs


@pytest.mark.parametrize("name", ["nansum", "nanmean", "nanvar", "nanstd", "nanmin", "nanmax"])
def test_nan_reductions_float32_and_ints(name):
    a = _with_nans(dtype="float32")
    got = _messages(getattr(gpupy, name), gpupy.asarray(a), axis=1)[0]
    expected = _messages(getattr(numpy, name), a, axis=1)[0]
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-5, equal_nan=True)
    i = rs.randint(-5, 5, (4, 3))
    got = getattr(gpupy, name)(gpupy.asarray(i), axis=0)
    expected = getattr(numpy, name)(i, axis=0)
    assert got.dtype == expected.dtype
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12)


@pytest.mark.parametrize("ddof", [0, 1, 5])
def test_nanvar_ddof(ddof):
    a = _with_nans()
    got, got_msgs = _messages(gpupy.nanvar, gpupy.asarray(a), axis=1, ddof=ddof)
    expected, msgs = _messages(numpy.nanvar, a, axis=1, ddof=ddof)
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)
    assert got_msgs == msgs


def test_nan_reductions_dtype_and_complex():
    a = _with_nans()
    got = gpupy.nansum(gpupy.asarray(a), axis=0, dtype="float32")
    assert got.dtype == numpy.float32
    numpy.testing.assert_allclose(got.get(), numpy.nansum(a, axis=0, dtype="float32"), rtol=1e-5)
    c = a + 1j * rs.randn(*a.shape)
    for name in ("nansum", "nanmean", "nanvar"):
        got = _messages(getattr(gpupy, name), gpupy.asarray(c), axis=1)[0]
        expected = _messages(getattr(numpy, name), c, axis=1)[0]
        assert got.dtype == expected.dtype
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_nan_cumulative(name, axis):
    a = _with_nans()
    got = getattr(gpupy, name)(gpupy.asarray(a), axis=axis)
    numpy.testing.assert_allclose(got.get(), getattr(numpy, name)(a, axis=axis), rtol=1e-12)


@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
def test_nanargminmax(name):
    a = _with_nans()
    a[4, 1] = numpy.inf
    a[4, 2] = -numpy.inf
    clean = numpy.delete(a, 3, axis=0)
    for axis in (None, 1):
        got = getattr(gpupy, name)(gpupy.asarray(clean), axis=axis)
        numpy.testing.assert_array_equal(got.get(), getattr(numpy, name)(clean, axis=axis))
    got = getattr(gpupy, name)(gpupy.asarray(a), axis=0)
    numpy.testing.assert_array_equal(got.get(), getattr(numpy, name)(a, axis=0))
    # NaN before an infinite extreme: the infinity's position, not the NaN's.
    b = numpy.array([numpy.nan, numpy.inf, -numpy.inf, numpy.nan])
    got = getattr(gpupy, name)(gpupy.asarray(b))
    assert int(got) == getattr(numpy, name)(b)
    with pytest.raises(ValueError, match=rf"\[{name}\] All-NaN slice"):
        getattr(gpupy, name)(gpupy.asarray(a), axis=1)


METHODS = [
    "linear",
    "lower",
    "higher",
    "nearest",
    "midpoint",
    "inverted_cdf",
    "averaged_inverted_cdf",
    "closest_observation",
    "interpolated_inverted_cdf",
    "hazen",
    "weibull",
    "median_unbiased",
    "normal_unbiased",
]


@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods(method):
    a = rs.randn(7, 9)
    q = [0.0, 0.1, 0.25, 0.5, 0.77, 1.0]
    for axis in (None, 1):
        got = gpupy.quantile(gpupy.asarray(a), q, axis=axis, method=method)
        expected = numpy.quantile(a, q, axis=axis, method=method)
        assert got.shape == expected.shape
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12)
    got = gpupy.percentile(gpupy.asarray(a), 30, axis=0, method=method, keepdims=True)
    expected = numpy.percentile(a, 30, axis=0, method=method, keepdims=True)
    assert got.shape == expected.shape
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12)


@pytest.mark.parametrize("method", ["lower", "nearest", "inverted_cdf"])
def test_quantile_discrete_methods_keep_integer_dtype(method):
    a = rs.randint(0, 100, 11)
    got = gpupy.quantile(gpupy.asarray(a), [0.3, 0.9], method=method)
    expected = numpy.quantile(a, [0.3, 0.9], method=method)
    assert got.dtype == expected.dtype
    numpy.testing.assert_array_equal(got.get(), expected)


def test_quantile_method_nan_propagates_and_bad_method():
    a = _with_nans()
    got = gpupy.quantile(gpupy.asarray(a), 0.5, axis=1, method="hazen")
    expected = numpy.quantile(a, 0.5, axis=1, method="hazen")
    numpy.testing.assert_allclose(got.get(), expected, equal_nan=True)
    with pytest.raises(ValueError, match=r"\[quantile\]"):
        gpupy.quantile(gpupy.asarray(a), 0.5, method="bogus")


@pytest.mark.parametrize(
    ("name", "q"),
    [("percentile", 150), ("quantile", -0.1), ("nanpercentile", [10, 101]), ("nanquantile", 2.0)],
)
@pytest.mark.parametrize("method", ["linear", "nearest"])
def test_out_of_range_q_names_the_operation(name, q, method):
    with pytest.raises(ValueError, match=rf"^\[{name}\] .*must be in the range"):
        getattr(gpupy, name)(gpupy.asarray(_with_nans()), q, method=method)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("axis", [None, 1])
def test_nanpercentile_nanquantile(method, axis):
    a = _with_nans()
    got, got_msgs = _messages(
        gpupy.nanpercentile, gpupy.asarray(a), [5, 50, 99], axis=axis, method=method
    )
    expected, msgs = _messages(numpy.nanpercentile, a, [5, 50, 99], axis=axis, method=method)
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)
    assert got_msgs == msgs
    got = _messages(
        gpupy.nanquantile, gpupy.asarray(a), 0.4, axis=axis, method=method, keepdims=True
    )[0]
    expected = _messages(numpy.nanquantile, a, 0.4, axis=axis, method=method, keepdims=True)[0]
    assert got.shape == expected.shape
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)


def test_nan_functions_dispatch_and_errors():
    a = _with_nans()
    got = numpy.nanmean(gpupy.asarray(a), axis=0)
    assert isinstance(got, gpupy.ndarray)
    with pytest.raises(ValueError, match="range"):
        gpupy.nanpercentile(gpupy.asarray(a), 101)
    with pytest.raises(ValueError, match=r"\[nanmedian\] repeated axis"):
        gpupy.nanmedian(gpupy.asarray(a), axis=(0, 0))
    with pytest.raises(ValueError, match=r"\[nanquantile\] axis 2 is out of bounds"):
        gpupy.nanquantile(gpupy.asarray(a), 0.5, axis=2)


@pytest.mark.parametrize("axis", [(0, 1), (0, 2), (2, 0), (1, 2), (0, 1, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_quantiles_over_several_axes(axis, keepdims):
    a = rs.randn(3, 4, 5)
    n = a.copy()
    n[0, 1, :] = numpy.nan
    n[:, :, 3] = numpy.nan
    ga, gn = gpupy.asarray(a), gpupy.asarray(n)
    cases = [
        (gpupy.median, numpy.median, (a,), (ga,), {}),
        (gpupy.quantile, numpy.quantile, (a, [0.2, 0.9]), (ga, [0.2, 0.9]), {}),
        (gpupy.percentile, numpy.percentile, (a, 40), (ga, 40), {"method": "weibull"}),
        (gpupy.median, numpy.median, (n,), (gn,), {}),
        (gpupy.nanmedian, numpy.nanmedian, (n,), (gn,), {}),
        (gpupy.nanpercentile, numpy.nanpercentile, (n, [10, 60]), (gn, [10, 60]), {}),
    ]
    for gfn, nfn, nargs, gargs, kw in cases:
        got = _messages(gfn, *gargs, axis=axis, keepdims=keepdims, **kw)[0]
        expected = _messages(nfn, *nargs, axis=axis, keepdims=keepdims, **kw)[0]
        assert got.shape == expected.shape, gfn
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)


WHERE = numpy.array([True, False, True, True, False, True])


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmean", "nanvar", "nanstd"])
def test_where(name, axis, dtype):
    a = _with_nans() if dtype != "int32" else numpy.arange(30, dtype=dtype).reshape(5, 6) % 7
    a = a.astype(dtype)
    expected, expected_warnings = _messages(getattr(numpy, name), a, axis=axis, where=WHERE)
    got, got_warnings = _messages(
        getattr(gpupy, name), gpupy.asarray(a), axis=axis, where=gpupy.asarray(WHERE)
    )
    assert got.dtype == expected.dtype and got.shape == numpy.shape(expected)
    numpy.testing.assert_allclose(got.get(), expected, rtol=1e-5, equal_nan=True)
    if dtype != "int32":  # NumPy's integer path is mean/var's, with their own warning texts
        assert got_warnings == expected_warnings


@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("name", ["nansum", "nanprod", "nanmin", "nanmax"])
def test_initial(name, axis):
    a = _with_nans()
    for kwargs in ({"initial": 0.5}, {"initial": -3.0, "where": WHERE}):
        expected = getattr(numpy, name)(a, axis=axis, **kwargs)
        gkwargs = {k: gpupy.asarray(v) if k == "where" else v for k, v in kwargs.items()}
        got = getattr(gpupy, name)(gpupy.asarray(a), axis=axis, **gkwargs)
        assert got.dtype == expected.dtype and got.shape == numpy.shape(expected)
        numpy.testing.assert_allclose(got.get(), expected, rtol=1e-12, equal_nan=True)


def test_nanmax_where_needs_initial():
    a = gpupy.asarray(_with_nans())
    with pytest.raises(ValueError, match=r"\[nanmax\].*'initial'"):
        gpupy.nanmax(a, where=gpupy.asarray(WHERE))


@pytest.mark.parametrize("name", ["nanmax", "nanmin", "nansum", "nanprod", "nanmean"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16"])
@pytest.mark.parametrize("where", [False, [True, False, True]])
@testing.numpy_gpupy_allclose()
def test_where_keeps_an_integer_or_bool_dtype(name, dtype, where, xp):
    # The elements where= leaves out take initial's (or 0's) place in a's dtype: nanmax of a bool
    # array with initial=3 is a bool (gpupy once gave int64).
    a = xp.asarray(numpy.array([[1, 0, 1], [0, 0, 1]]).astype(dtype))
    kwargs = {"initial": 3} if name in ("nanmax", "nanmin") else {}
    return getattr(xp, name)(a, where=xp.asarray(where), axis=1, **kwargs)


@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd", "nansum"])
@pytest.mark.parametrize("src", ["float32", "complex64"])
@pytest.mark.parametrize("dtype", ["int64", "float64", "bool"])
@testing.numpy_gpupy_allclose(rtol=1e-6, accept_error=True)
def test_nan_statistics_refuse_an_integer_dtype_for_inexact_data(name, src, dtype, xp):
    a = xp.asarray(numpy.array([[1, 2, 4], [3, 0, 5]]).astype(src))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.ComplexWarning)
        return getattr(xp, name)(a, axis=1, dtype=dtype)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int32", "bool"])
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0)])
@pytest.mark.parametrize(
    ("name", "args"),
    [("nanquantile", (0.5,)), ("nanquantile", ([0.2, 0.5],)), ("nanpercentile", (50,)),
     ("nanmedian", ())],
)  # fmt: skip
def test_nan_quantiles_of_empty_input_are_nanmeans(dtype, shape, name, args):
    """NumPy answers an empty input with nanmean's NaN (and its warning), whatever q is."""
    a = numpy.empty(shape, dtype=dtype)
    for axis in [None, *range(len(shape))]:
        for keepdims in (False, True):
            with warnings.catch_warnings(record=True) as numpy_warnings:
                warnings.simplefilter("always")
                expected = getattr(numpy, name)(a, *args, axis=axis, keepdims=keepdims)
            with warnings.catch_warnings(record=True) as gpupy_warnings:
                warnings.simplefilter("always")
                got = getattr(gpupy, name)(gpupy.asarray(a), *args, axis=axis, keepdims=keepdims)
            empty_slice = [
                any("Mean of empty slice" in str(w.message) for w in caught)
                for caught in (numpy_warnings, gpupy_warnings)
            ]
            assert empty_slice[0] == empty_slice[1], (axis, keepdims)
            expected = numpy.asarray(expected)
            assert got.dtype == expected.dtype and got.shape == expected.shape
            numpy.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@testing.numpy_gpupy_allclose(rtol=1e-6)
def test_nanvar_of_float16_in_a_wider_dtype(name, dtype, xp):
    # NumPy's deviations from the mean are stored in the data's dtype (float16) before squaring
    x = numpy.array([1.0, 3.916, -6.117, 0.1425, numpy.nan, 2.348, -4.238, 11.05], dtype="float16")
    return getattr(xp, name)(xp.asarray(x), dtype=dtype)


@pytest.mark.parametrize(
    "values",
    [[1.0, numpy.inf, numpy.inf, numpy.nan], [numpy.inf], [-numpy.inf, numpy.inf, numpy.nan],
     [2.0, numpy.nan, 3.5, -1.0], [numpy.inf, numpy.inf, 1.0, 2.0]],
)  # fmt: skip
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@testing.numpy_gpupy_allclose(rtol=0)
def test_nanmedian_is_the_mean_of_the_middle_values(values, dtype, xp):
    # as NumPy's median: two infinities give inf (linear interpolation gave NaN)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        a = xp.asarray(numpy.array(values, dtype=dtype))
        return xp.nanmedian(a), xp.nanmedian(xp.stack([a, a]), axis=1)


# ---- found by NumPy's own lib/tests/test_nanfunctions.py (tools/numpy_suite.py) ---------------


def _fixed_nans():
    a = numpy.random.RandomState(3).randn(5, 6)
    a[1, 2] = a[0, 0] = numpy.nan
    a[3, :] = numpy.nan
    return a


@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.numpy_gpupy_allclose(rtol=1e-12)
def test_nanvar_nanstd_correction_and_mean(xp, name, axis):
    a = xp.asarray(_fixed_nans())
    f = getattr(xp, name)
    mean = xp.nanmean(a, axis=axis, keepdims=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # the all-NaN row
        return f(a, axis=axis, correction=1), f(a, axis=axis, ddof=1, mean=mean)


@pytest.mark.parametrize("name", ["nanvar", "nanstd"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_nanvar_refuses_ddof_with_correction(xp, name):
    return getattr(xp, name)(xp.asarray(_fixed_nans()), ddof=1, correction=1)


@pytest.mark.parametrize("out_dtype", ["bool", "int64"])
@pytest.mark.parametrize("name", ["nanmean", "nanvar", "nanstd"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_nan_mean_var_std_refuse_integer_out(xp, name, out_dtype):
    out = xp.empty(5, dtype=out_dtype)
    return getattr(xp, name)(xp.asarray(_fixed_nans()), axis=1, out=out)


@pytest.mark.parametrize("name", ["nanmedian", "nanpercentile", "nanquantile"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_all_nan_warning_once_per_slice(name, axis):
    a = numpy.full((3, 4), numpy.nan)
    a[0, 0] = 1.0  # one slice along axis 0 and one along axis 1 hold a value
    args = () if name == "nanmedian" else (50,) if name == "nanpercentile" else (0.5,)
    counts = []
    for xp in (numpy, gpupy):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            getattr(xp, name)(xp.asarray(a), *args, axis=axis)
        counts.append(sum("All-NaN" in str(w.message) for w in caught))
    assert counts[0] == counts[1] and counts[0] == {None: 0, 0: 3, 1: 2}[axis]


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.numpy_gpupy_allclose()
def test_nanmedian_complex(xp, dtype, axis):
    r = numpy.random.RandomState(5)  # the same data for NumPy's run and gpupy's
    a = (r.randint(0, 4, (5, 7)) + 1j * r.randint(0, 3, (5, 7))).astype(dtype)
    a[a.real == 0] = complex(numpy.nan, 0)
    a[2, 3] = complex(1, numpy.nan)  # NaN in the imaginary part only
    a[1, :] = numpy.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return xp.nanmedian(xp.asarray(a), axis=axis)


@pytest.mark.parametrize("axis", [0, None, 1])
@pytest.mark.parametrize("name", ["nanargmin", "nanargmax"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_nanarg_of_an_empty_slice_is_argmins_error(name, axis, xp):
    # an empty slice has no NaN: "attempt to get argmin of an empty sequence", not "All-NaN"
    mat = xp.zeros((0, 3))
    if axis != 1:
        with pytest.raises(ValueError, match="empty sequence"):
            getattr(xp, name)(mat, axis=axis)
        return xp.zeros(0)
    return getattr(xp, name)(mat, axis=axis)
