"""Corner cases where gpupy once differed from NumPy 2.4, each checked against NumPy itself (the
ufunc ones are in test_ufunc_mismatches.py)."""

import math
import warnings

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
@testing.numpy_gpupy_allclose(accept_error=True)
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


def _with_warnings(body, xp):
    """body(xp)'s result (or exception type) and the warning categories it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = body(xp)
        except Exception as exc:  # noqa: BLE001 - compared with NumPy's
            result = type(exc)
    return result, sorted({w.category.__name__ for w in caught})


def _setitem(key, value, dtype="float64"):
    def body(xp):
        a = xp.zeros(3, dtype=dtype)
        a[key] = value
        return a

    return body


def _inplace(fn, dtype="float64"):
    def body(xp):
        a = xp.zeros(3, dtype=dtype)
        fn(xp, a)
        return a

    return body


C128, C64 = np.complex128(2.5 - 3j), np.complex64(-1.5 + 2j)
COMPLEX_INTO_REAL = {
    "setitem_c128": _setitem(0, C128),
    "setitem_c64_float32": _setitem(1, C64, "float32"),
    "setitem_c128_int": _setitem(slice(None), C128, "int16"),
    "setitem_c128_bool": _setitem(0, C128, "bool"),  # no warning: complex to bool is exact
    "setitem_c128_complex": _setitem(0, C128, "complex64"),
    "setitem_python_complex": _setitem(0, 1 + 2j),
    "setitem_list_python_complex": _setitem(slice(0, 2), [1 + 2j, 3]),
    "setitem_list_numpy_complex": _setitem(slice(0, 2), [C128, 3]),
    "setitem_numpy_array": _setitem(slice(None), np.array([1 + 1j, -2 + 2j, 3j])),
    "setitem_fancy": _setitem([0, 2], C64),
    "setitem_0d_array": lambda xp: _setitem(..., xp.asarray(C128))(xp),
    "setitem_gpupy_array": lambda xp: _setitem(..., xp.asarray([1 + 1j, 2, 3j]))(xp),
    "astype": lambda xp: xp.asarray([1.5 + 2j, -3 - 1j]).astype("float32"),
    "astype_int": lambda xp: xp.asarray([1.5 + 2j, -3 - 1j], dtype="complex64").astype("int32"),
    "astype_function": lambda xp: xp.astype(xp.asarray([1.5 + 2j]), "float64"),
    "asarray_dtype": lambda xp: xp.asarray(xp.asarray([1.5 + 2j]), dtype="float64"),
    "copyto_same_kind": _inplace(lambda xp, a: xp.copyto(a, xp.asarray([1j, 2, 3]))),
    "copyto_unsafe": _inplace(lambda xp, a: xp.copyto(a, xp.asarray([1j, 2, 3]), casting="unsafe")),
    "copyto_scalar": _inplace(lambda xp, a: xp.copyto(a, C128, casting="unsafe")),
    "put_scalar": _inplace(lambda xp, a: xp.put(a, [0, 2], C128)),
    "put_array": _inplace(lambda xp, a: xp.put(a, [1], xp.asarray([1 + 5j]))),
    "put_python_complex": _inplace(lambda xp, a: xp.put(a, [1], 1 + 5j)),
    "put_list_python_complex": _inplace(lambda xp, a: xp.put(a, [1], [1 + 5j])),
    "put_method": _inplace(lambda xp, a: a.put([1], C64), "int32"),
    "put_int_overflow": _inplace(lambda xp, a: xp.put(a, [1], 300), "int8"),
    "fill": _inplace(lambda xp, a: a.fill(C128)),
    "fill_python_complex": _inplace(lambda xp, a: a.fill(1 + 2j)),
    "full": lambda xp: xp.full(2, C128, dtype="float64"),
    "full_python_complex": lambda xp: xp.full(2, 1 - 2j, dtype="int64"),
    "put_along_axis": _inplace(lambda xp, a: xp.put_along_axis(a, xp.asarray([2]), C128, 0)),
}


@pytest.mark.parametrize("case", sorted(COMPLEX_INTO_REAL))
def test_complex_into_real_warns_as_numpy(case):
    body = COMPLEX_INTO_REAL[case]
    expected, expected_warnings = _with_warnings(body, np)
    actual, actual_warnings = _with_warnings(body, gpupy)
    assert actual_warnings == expected_warnings
    if isinstance(expected, type):
        builtin = next(c for c in expected.__mro__ if c.__module__ == "builtins")
        assert isinstance(actual, type) and issubclass(actual, builtin), (expected, actual)
    else:
        testing.assert_same(expected, actual)


def test_complex_warning_as_error_leaves_the_array_unchanged():
    a = gpupy.zeros(2)
    with warnings.catch_warnings():
        warnings.simplefilter("error", np.exceptions.ComplexWarning)
        with pytest.raises(np.exceptions.ComplexWarning):
            a[0] = C128
        with pytest.raises(np.exceptions.ComplexWarning):
            gpupy.asarray([1j]).astype("float64")
    assert a.tolist() == [0.0, 0.0]


@pytest.mark.parametrize(
    "args",
    [
        (3.0,), (3.5,), (np.float64(4.0),), (np.float32(2.5),), (np.array(3.0),), (3, 4.0),
        (3, 2.5), (3, 3, 1.0), (3, 3, 1.5), (3.0, 2.0, -1.0), (2.5, 3.5, 0.5), (2.5, 3.5, -0.5),
        (4, 3, 2.7), (4, 3, -2.7), (3, -1.5), (0.5,), (-0.5,), (-2.0,), (3, 2, True),
        (np.nan,), (3, 3, np.nan), (np.inf,), ("3",), (3j,), (None,), ([3],),
    ],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_tri_with_real_bounds(args, xp):
    return xp.tri(*args), xp.tri(*args, dtype=int)


def test_tri_errors_name_tri():
    with pytest.raises(ValueError, match=r"\[tri\]"):
        gpupy.tri(np.nan)
    with pytest.raises(TypeError, match=r"\[tri\] M must be a real number, not str"):
        gpupy.tri(3, "4")


POLY_SHAPES = [
    ((2, 3), (2, 3)), ((3, 2), (3, 1)), ((2,), (3, 3)), ((3, 3), (1,)), ((), (4,)),
    ((2, 3), (3, 3)), ((2, 3), (2, 2)), ((3,), (2, 3)), ((), (2, 3)), ((1, 2, 3), (2, 3)),
]  # fmt: skip


@pytest.mark.parametrize("name", ["polyadd", "polysub"])
@pytest.mark.parametrize("shapes", POLY_SHAPES)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_polyadd_polysub_shapes(name, shapes, xp):
    rng = np.random.default_rng(len(shapes[0]) * 10 + len(shapes[1]))
    a1, a2 = (xp.asarray(rng.standard_normal(s)) for s in shapes)
    return getattr(xp, name)(a1, a2)


@pytest.mark.parametrize("name", ["polyadd", "polysub"])
@testing.numpy_gpupy_allclose()
def test_polyadd_polysub_dtypes_and_poly1d(name, xp):
    f = getattr(xp, name)
    small = xp.asarray(np.array([3, -1], dtype=np.int8))
    p = f(xp.poly1d([1.0, 2.0]), xp.poly1d([4.0, 0.5, 1.0]))
    return f(small, xp.asarray([1, 2, 3], dtype="int16")), p.coeffs


@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("method", ["linear", "midpoint", "weibull", "lower", "nearest"])
@pytest.mark.parametrize("dtype", ["float16", "float32", "int16"])
def test_quantiles_of_a_list_take_its_float64(fn, method, dtype):
    # NumPy interpolates in the dtype of a and q together: a list of quantiles is float64, so
    # float32 data gives float64 results (the methods that pick a value keep a's dtype).
    a = np.linspace(0, 9, 10).astype(dtype)
    q = [10, 70] if "percentile" in fn else [0.1, 0.7]
    expected = getattr(np, fn)(a, q, method=method)
    actual = getattr(gpupy, fn)(gpupy.asarray(a), q, method=method)
    assert actual.dtype == expected.dtype
    np.testing.assert_allclose(actual.get(), expected, rtol=1e-3)


@pytest.mark.parametrize("out_dtype", [None, "float64"])
@testing.numpy_gpupy_allclose()
def test_round_of_bool_is_float16_rint(out_dtype, xp):
    # NumPy's round(bool) is rint's float16 (gpupy once returned a bool copy)
    b = xp.asarray([True, False, True])
    if out_dtype is None:
        return xp.round(b), b.round(), xp.around(b)
    out = xp.full(3, 7.0, dtype=out_dtype)
    xp.round(b, out=out)
    return out


@testing.numpy_gpupy_raises()
def test_round_of_bool_into_bool_out_raises(xp):
    xp.round(xp.asarray([True]), out=xp.zeros(1, dtype=bool))


@pytest.mark.parametrize("axis", [None, 5, -1])
@pytest.mark.parametrize("shape", [(), (2, 3)])
@testing.numpy_gpupy_allclose()
def test_diff_of_order_zero_returns_the_input(axis, shape, xp):
    # NumPy returns a before it looks at a's rank or the axis
    a = xp.arange(int(np.prod(shape))).reshape(shape)
    assert xp.diff(a, n=0, axis=axis) is a  # the array itself, not a new handle on its data
    x = [1, 3]
    assert xp.diff(x, n=0) is x  # a list too (NumPy 2.4)
    return xp.diff(a, n=0, axis=axis)


@testing.numpy_gpupy_raises()
def test_diff_axis_none_with_order_one_raises(xp):
    xp.diff(xp.arange(3), n=1, axis=None)


@pytest.mark.parametrize("name", ["split", "array_split"])
@pytest.mark.parametrize("sections", [1, [1]])
@testing.numpy_gpupy_raises()
def test_split_of_zero_d_is_index_error(name, sections, xp):
    getattr(xp, name)(xp.asarray(3.0), sections)


@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
@pytest.mark.parametrize("method", ["linear", "midpoint", "hazen", "lower", "nearest"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_quantile_of_bool(name, method, xp):
    # NumPy refuses booleans where it interpolates (a boolean subtract) and picks them otherwise
    q = 40 if "percentile" in name else 0.4
    b = xp.asarray([True, False, True, True])
    return getattr(xp, name)(b, q, method=method), xp.median(b), xp.nanmedian(b)


@pytest.mark.parametrize("name", ["quantile", "percentile"])
@pytest.mark.parametrize("axis", [None, 0, 1, 2])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_quantile_of_empty_bool_raises_numpys_error(name, axis, xp):
    # a bad axis or nothing to reduce is NumPy's first error; a length-5 axis is the bool one
    return getattr(xp, name)(
        xp.zeros((5, 0), dtype=bool), 50 if name == "percentile" else 0.5, axis=axis
    )


@pytest.mark.parametrize(
    "name",
    ["sum", "prod", "mean", "cumsum", "cumprod", "nansum", "nanprod", "nanmean", "nancumsum",
     "nancumprod", "cumulative_sum", "cumulative_prod", "trace"],
)  # fmt: skip
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool", "complex64"])
def test_reduction_of_complex_with_real_dtype_warns(name, dtype):
    # NumPy casts complex input to a real dtype= with a ComplexWarning (bool: no warning)
    c = np.array([1 + 2j, 3 - 1j, np.nan + 0j if "nan" in name else 4 + 0j, 2 + 5j])
    c = np.diag(c) if name == "trace" else c
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        try:
            want = getattr(np, name)(c, dtype=dtype)
        except TypeError:  # nanmean: "If a is inexact, then dtype must be inexact"
            with pytest.raises(TypeError):
                getattr(gpupy, name)(gpupy.asarray(c), dtype=dtype)
            return
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        have = getattr(gpupy, name)(gpupy.asarray(c), dtype=dtype)
    assert {w.category for w in got} == {w.category for w in expected}
    testing.assert_same(want, have)


@pytest.mark.parametrize(
    "call",
    [lambda xp, x, w: xp.sqrt(x, out=xp.zeros(3, dtype=complex), where=w),
     lambda xp, x, w: xp.add(x, 1, out=xp.zeros(3, dtype="complex64"), where=w),
     lambda xp, x, w: xp.add(x, 1, out=xp.zeros(3, dtype="complex64"), where=w, casting="unsafe"),
     lambda xp, x, w: xp.add(x * 1j, 1, out=xp.zeros(3, dtype="complex64"), where=w),
     lambda xp, x, w: xp.equal(x, 1, out=xp.zeros(3, dtype="complex64"), where=w),
     lambda xp, x, w: xp.sqrt(x, out=xp.zeros(3, dtype="float32"), where=w),
     lambda xp, x, w: xp.sqrt(x, out=xp.zeros(3, dtype=complex)),
     # the fresh outputs hold undefined values where w is False: only the given out is compared
     lambda xp, x, w: xp.modf(x, out=(xp.zeros(3, dtype=complex), None), where=w)[0],
     lambda xp, x, w: xp.frexp(x, out=(None, xp.zeros(3, dtype=complex)), where=w)[1]],
)  # fmt: skip
def test_masked_ufunc_into_complex_out_warns(call):
    # With where=, NumPy first reads a complex out into the real loop's dtype: a ComplexWarning
    x, w = np.array([1.5, 2.25, 4.0]), np.array([True, False, True])
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        want = call(np, x, w)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        have = call(gpupy, gpupy.asarray(x), gpupy.asarray(w))
    assert {w.category for w in got} == {w.category for w in expected}
    testing.assert_same(want, have)


SETITEM_TARGETS = [
    ((), ()),
    ((), ...),
    ((3,), 0),
    ((3,), np.int64(1)),
    ((2, 2), (0, 1)),
    ((2, 2), 0),
    ((2, 3), ...),
    ((3,), slice(0, 1)),
    ((3,), [0, 1]),
    ((0,), 0),
    ((3,), -4),
    ((2, 2), (0, 7)),
]  # fmt: skip (the last: IndexError)
SETITEM_VALUES = [np.array([1]), [1], [0], [], np.array([[1]]), np.array([1, 2]), [1, 2],
                  [[1, 2]], np.ones((1, 1, 3)), np.array(5), [[1, 2, 3]]]  # fmt: skip


@pytest.mark.parametrize("dtype", ["int64", "float64", "complex128", "bool"])
@pytest.mark.parametrize(("shape", "key"), SETITEM_TARGETS, ids=repr)
@pytest.mark.parametrize("value", SETITEM_VALUES, ids=repr)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_value_rank(dtype, shape, key, value, xp):
    # An array value's leading length-1 axes beyond the target's drop (x[...] = array([1]) on a
    # 0-d x), a list's do not for a basic index; one element (x[()], a[0]) takes the value as
    # NumPy's scalar conversion does: bool() of a list, int()/float()/complex() refuse it.
    x = xp.zeros(shape, dtype=dtype)
    x[key] = xp.asarray(value) if isinstance(value, np.ndarray) else value
    return x


def _precision(values):
    """The narrowest float dtype that holds every value exactly: the loop a result came from."""
    values = values.real if values.dtype.kind == "c" else values
    for name in ("float16", "float32", "float64"):
        if np.array_equal(values.astype(name).astype(values.dtype), values, equal_nan=True):
            return name
    return str(values.dtype)


@pytest.mark.parametrize(
    "name", ["arctan", "sqrt", "sin", "exp", "log", "cbrt", "arctan2", "hypot"]
)
@pytest.mark.parametrize(
    "in_dtype", ["bool", "int8", "uint8", "int16", "uint16", "int64", "float32"]
)
@pytest.mark.parametrize("out_dtype", ["float64", "float32", "complex128"])
def test_out_does_not_pick_the_loop(name, in_dtype, out_dtype):
    # NumPy picks the loop from the inputs alone (arctan(uint16, out=float64) computes in float32)
    # and casts its result into out; out's dtype only has to be a same_kind target.
    x = np.array([1, 2, 3, 7, 11, 5]).astype(in_dtype)
    args = (x, x[::-1]) if name in ("arctan2", "hypot") else (x,)
    expected = np.zeros(6, dtype=out_dtype)
    getattr(np, name)(*args, out=expected)
    out = gpupy.zeros(6, dtype=out_dtype)
    getattr(gpupy, name)(*(gpupy.asarray(a) for a in args), out=out)
    got = gpupy.asnumpy(out)
    assert _precision(got) == _precision(expected)
    np.testing.assert_allclose(
        got, expected, rtol=1e-3 if in_dtype in ("bool", "int8", "uint8") else 2e-7
    )


@pytest.mark.parametrize("dtype", ["uint8", "int8", "uint64", "int64", "bool", "float32"])
@pytest.mark.parametrize("value", [3, -1, 300, -129, 2**63, -(2**63), 2**64, 2.5, 1j, True])
@pytest.mark.parametrize("left", [True, False])
@testing.numpy_gpupy_raises()
def test_matmul_operator_with_a_python_scalar(dtype, value, left, xp):
    # NumPy converts the scalar to the array's dtype first (OverflowError when it does not fit,
    # a huge int is a float beside floats), then refuses the 0-d operand (ValueError)
    a = xp.zeros((2, 2), dtype=dtype)
    return a @ value if left else value @ a


@pytest.mark.parametrize("dtype", ["int8", "uint8", "uint64", "int64", "bool"])
@pytest.mark.parametrize(
    ("shape", "key"),
    [((3,), 0), ((3,), [0]), ((3,), [7]), ((3,), ([0], [1])), ((3,), slice(0, 2)),
     ((2, 0, 4), ([-1], [], [True, False, True, True])), ((5, 5), ([2, 254, 4], [-2, 2, -2])),
     ((1, 2), ([], 1))],
    ids=repr,
)  # fmt: skip
@pytest.mark.parametrize(
    "value", [300.5, -128.9, -1.0, -0.5, -2.25, 1e30, 1.8e19, 2.0**63, 2**64 - 1, 1j, math.nan]
)
@testing.numpy_gpupy_allclose(accept_error=True)
def test_setitem_python_scalar_converts_as_numpy(dtype, shape, key, value, xp):
    # int(value) must fit (a[0] = -2.25 into uint64 once wrapped silently), and NumPy converts
    # the scalar after the index's rank is checked but before its bounds and broadcasting
    a = xp.zeros(shape, dtype=dtype)
    a[key] = value
    return a
