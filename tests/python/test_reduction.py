"""Reductions (sum prod mean var std min max argmin argmax any all) against NumPy."""

import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

AXES = [None, 0, -1, (0, 2), (), (2, 0, 1)]
SUM_LIKE = ["sum", "prod", "mean", "min", "max", "any", "all"]
REAL_DTYPES = ("bool",) + testing.INT_DTYPES + testing.UINT_DTYPES + testing.FLOAT_DTYPES


def _data(dtype, shape=(3, 4, 5), seed=0):
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind in "iu":
        # small values keep prod inside the integer range and exact
        return rng.integers(0, 3, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("name", SUM_LIKE)
@pytest.mark.parametrize("axis", AXES)
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_reduce_axes(name, axis, dtype, xp):
    a = xp.asarray(_data(dtype))
    return testing.float16_in_float32(xp, getattr(xp, name), a, axis=axis)


@pytest.mark.parametrize("name", SUM_LIKE + ["var", "std"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_reduce_keepdims(name, axis, dtype, xp):
    a = xp.asarray(_data(dtype))
    return getattr(xp, name)(a, axis=axis, keepdims=True)


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)])
@pytest.mark.parametrize("ddof", [0, 1])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_var_std(name, axis, ddof, dtype, xp):
    a = xp.asarray(_data(dtype))
    return getattr(xp, name)(a, axis=axis, ddof=ddof)


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
@pytest.mark.parametrize("out_dtype", ["float32", "float64", "complex64", "complex128"])
@testing.for_dtypes(["complex64", "complex128", "float32", "int16"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_var_std_dtype_keeps_numpy_rules(name, axis, out_dtype, dtype, xp):
    """dtype= is the dtype of the mean and of the sum of squares, as in NumPy: complex data
    with a real dtype keeps the imaginary deviations (only the mean drops them), and a complex
    dtype gives a complex result."""
    a = xp.asarray(_data(dtype, seed=3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return getattr(xp, name)(a, axis=axis, dtype=out_dtype, ddof=1)


def test_var_of_complex_data_in_a_real_dtype_values():
    # hand-checked: the mean of the real parts is 2, so sum |x - 2|^2 = (1 + 4) + (1 + 1) + 0.25
    a = gpupy.asarray([1 + 2j, 3 - 1j, 2 + 0.5j])
    with pytest.warns(np.exceptions.ComplexWarning):
        got = gpupy.var(a, dtype="float64")
    assert got.dtype == np.float64 and float(got) == pytest.approx(7.25 / 3)
    # a complex dtype keeps the complex mean 2 + 0.5j: |deviations|^2 are 3.25, 3.25 and 0
    got = gpupy.std(a, dtype="complex64")
    assert got.dtype == np.complex64 and complex(got) == pytest.approx((6.5 / 3) ** 0.5)


@testing.numpy_gpupy_allclose()
def test_var_std_integer_dtype_truncates(xp):
    a = xp.asarray([[1.0, 2.0, 4.0], [3.0, 5.0, 9.5]])
    return xp.var(a, axis=1, dtype="int32"), xp.std(a, dtype="int16"), xp.var(a, dtype="int8")


@pytest.mark.parametrize("name", ["var", "std"])
def test_var_correction_is_ddof(name):
    x = _data("float64")
    testing.assert_same(
        getattr(np, name)(x, axis=1, ddof=1),
        getattr(gpupy, name)(gpupy.asarray(x), axis=1, correction=1),
    )
    with pytest.raises(ValueError):
        getattr(gpupy, name)(gpupy.asarray(x), ddof=1, correction=1)


@pytest.mark.parametrize("name", ["argmin", "argmax"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("keepdims", [False, True])
@testing.for_dtypes(testing.ALL_DTYPES)
@testing.numpy_gpupy_allclose()
def test_argminmax(name, axis, keepdims, dtype, xp):
    a = xp.asarray(_data(dtype))  # small ints: many ties, so first occurrence matters
    return getattr(xp, name)(a, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
@pytest.mark.parametrize(
    "out_dtype", ["int8", "uint32", "int64", "float32", "float64", "complex128"]
)
@testing.for_dtypes(REAL_DTYPES)
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_dtype_argument(name, out_dtype, dtype, xp):
    x = _data(dtype)
    if dtype.startswith("float"):
        x = abs(x) * 10  # negative floats cast to unsigned integers are undefined
    a = xp.asarray(x)
    return getattr(xp, name)(a, axis=1, dtype=out_dtype)


@pytest.mark.parametrize("view", ["transpose", "slice", "negative", "swap"])
@pytest.mark.parametrize("name", SUM_LIKE + ["var", "argmin", "argmax"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@testing.for_dtypes(["bool", "int32", "uint8", "float32", "float64", "complex64"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_noncontiguous(view, name, axis, dtype, xp):
    base = _data(dtype, (6, 40, 10))
    if view == "transpose":
        v = base.transpose(2, 0, 1)
    elif view == "slice":
        v = base[::2, 3:35:3, 1:]
    elif view == "negative":
        v = base[::-1, :, ::-2]
    else:
        v = base.swapaxes(0, 1)
    return getattr(xp, name)(xp.asarray(v), axis=axis)


@pytest.mark.parametrize("shape", [(64, 3000), (3000, 64), (5, 7, 300), (2, 300, 7)])
@pytest.mark.parametrize("axis", [0, 1, -1, (0, 1)])
@pytest.mark.parametrize("name", ["sum", "max", "argmax", "all", "mean"])
@testing.for_dtypes(["int16", "float32", "float64", "complex128"])
# float32 sums of a few thousand mixed-sign values: the order of summation (pairwise on cpu, trees
# on emu/cuda) moves results by a few float32 ULPs of the summands, hence the absolute tolerance.
@testing.numpy_gpupy_allclose(rtol=1e-5, atol={"float32": 1e-4})
def test_larger_shapes(shape, axis, name, dtype, xp):
    a = xp.asarray(_data(dtype, shape))
    if name == "argmax" and isinstance(axis, tuple):
        return getattr(xp, name)(a)
    return getattr(xp, name)(a, axis=axis)


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 0, 4)])
@pytest.mark.parametrize("axis", [None, 0, -1])
@pytest.mark.parametrize("name", ["sum", "prod", "any", "all", "min", "max", "argmin", "mean"])
@testing.for_dtypes(["bool", "int8", "uint64", "float32", "complex128"])
@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@testing.numpy_gpupy_allclose(accept_error=True)
def test_empty(shape, axis, name, dtype, xp):
    a = xp.asarray(np.zeros(shape, dtype))
    return getattr(xp, name)(a, axis=axis)


def test_empty_min_message():
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum"):
        gpupy.min(gpupy.asarray(np.zeros((0, 3))))


@pytest.mark.parametrize("name", ["min", "max", "argmin", "argmax", "sum", "mean"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@testing.for_dtypes(testing.FLOAT_DTYPES + testing.COMPLEX_DTYPES)
@testing.numpy_gpupy_allclose()
def test_nan(name, axis, dtype, xp):
    x = _data(dtype, (4, 300))
    x[1, 7] = np.nan
    x[2, 200] = np.nan
    x[2, 5] = np.nan
    x[3, 299] = np.nan
    if np.dtype(dtype).kind == "c":
        x[0, 100] = complex(1.0, np.nan)
    return testing.float16_in_float32(xp, getattr(xp, name), xp.asarray(x), axis=axis)


@pytest.mark.parametrize("name", ["min", "max", "argmin", "argmax"])
@testing.for_dtypes(testing.COMPLEX_DTYPES)
@testing.numpy_gpupy_allclose()
def test_complex_lexicographic(name, dtype, xp):
    x = np.array([1 + 5j, 2 - 1j, 2 + 3j, 1 - 7j, 2 + 3j], dtype)
    return getattr(xp, name)(xp.asarray(x))


@testing.for_dtypes(["int8", "int64", "uint64", "float64"])
@testing.numpy_gpupy_allclose()
def test_min_max_extremes(dtype, xp):
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else np.finfo(dtype)
    x = np.array([info.max, info.min, 0, info.max], dtype)
    a = xp.asarray(x)
    return xp.min(a), xp.max(a), xp.argmin(a), xp.argmax(a)


@pytest.mark.parametrize("name", ["sum", "min", "argmax", "mean", "any"])
@testing.numpy_gpupy_allclose()
def test_scalar_and_numpy_inputs(name, xp):
    return getattr(xp, name)(3.5), getattr(xp, name)(np.arange(6.0).reshape(2, 3))


@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all"])
@testing.numpy_gpupy_allclose(rtol=1e-6)
def test_methods(name, xp):
    a = xp.asarray(_data("float64"))
    return getattr(a, name)(), getattr(a, name)(axis=1, keepdims=True), getattr(a, name)(0)


@testing.numpy_gpupy_allclose()
def test_arg_methods(xp):
    a = xp.asarray(_data("int32"))
    return a.argmin(), a.argmax(axis=1), a.argmax(-1, keepdims=True)


@pytest.mark.parametrize("name", ["sum", "min", "argmin", "var", "all"])
@pytest.mark.parametrize("axis", [3, -4, (0, 3), (1, -2), (0, 0)])
@testing.numpy_gpupy_raises()
def test_bad_axis(name, axis, xp):
    a = xp.asarray(_data("float32"))  # argmin refuses tuples with TypeError
    return getattr(xp, name)(a, axis=axis)


@testing.numpy_gpupy_raises()
def test_argmin_empty_raises(xp):
    return xp.argmin(xp.asarray(np.zeros((3, 0))), axis=1)


def test_out_argument():
    x = _data("float64")
    out = gpupy.asarray(np.zeros(4))
    res = gpupy.sum(gpupy.asarray(x), axis=(0, 2), out=out)
    assert res is out
    testing.assert_same(x.sum(axis=(0, 2)), out)


def test_int_sum_wraps_like_numpy():
    x = np.full(1000, 2**62, dtype=np.int64)
    testing.assert_same(x.sum(), gpupy.sum(gpupy.asarray(x)))


@pytest.mark.parametrize("n", [1_000_003, 1 << 20])
def test_float32_sum_accuracy(n):
    x = np.random.default_rng(1).random(n, dtype=np.float32)
    ref = x.astype(np.float64).sum()
    got = float(gpupy.sum(gpupy.asarray(x)).get())
    assert abs(got - ref) / ref < 1e-6
    got_mean = float(gpupy.mean(gpupy.asarray(x)).get())
    assert abs(got_mean - ref / n) / (ref / n) < 1e-6


@pytest.mark.parametrize("axis", [np.int64(1), (np.int32(0), -1), 1.5, "0"])
@pytest.mark.parametrize("name", ["sum", "argmax"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_axis_types(axis, name, xp):
    return getattr(xp, name)(xp.asarray(_data("float64")), axis=axis)


# Lengths either side of the unrolled part of the block reduction (8 or 4 loads per thread of
# 256 before the combines), split into one or many parts; integer-valued data keep every sum
# exact whatever the order, and repeated extremes check that the first index wins.
@pytest.mark.parametrize("n", [33, 2047, 2048, 2049, 8 * 256 * 3 + 1, 300_007])
@pytest.mark.parametrize("dtype", ["int8", "int32", "float32", "float64", "complex128"])
def test_unrolled_block_reduction_lengths(n, dtype):
    x = ((np.arange(n) * 7919) % 201 - 100).astype(dtype)
    g = gpupy.asarray(x)
    testing.assert_same(np.sum(x), gpupy.sum(g))
    testing.assert_same(np.argmax(x), gpupy.argmax(g))
    if x.dtype.kind != "c":
        testing.assert_same(np.min(x), gpupy.min(g))
    # Rows without their first column do not collapse to one axis: the general index walk.
    k = n - n % 3
    testing.assert_same(np.sum(x[:k].reshape(3, -1)[:, 1:]), gpupy.sum(g[:k].reshape(3, -1)[:, 1:]))
    rows = x[: n - n % 4].reshape(4, -1)
    gr = g[: n - n % 4].reshape(4, -1)
    testing.assert_same(np.sum(rows, axis=1), gpupy.sum(gr, axis=1))
    testing.assert_same(np.argmin(rows, axis=0), gpupy.argmin(gr, axis=0))


# A slice with no selected element has mean (and var, std) nan; NumPy warns about it, the test
# wants the nan.
@pytest.mark.filterwarnings("ignore:Mean of empty slice:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:Degrees of freedom <= 0:RuntimeWarning")
@pytest.mark.parametrize("name", ["sum", "prod", "mean", "var", "std", "any", "all"])
@pytest.mark.parametrize("axis", [None, 1, (0, 2)])
@testing.for_dtypes(["bool", "int16", "uint8", "float32", "float64", "complex128"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_reduce_where(name, axis, dtype, xp):
    if name in ("var", "std", "mean") and dtype == "bool":
        pytest.skip("NumPy's var/std/mean of bool with where= fail on bool subtraction")
    a = xp.asarray(_data(dtype, seed=3))
    mask = xp.asarray(_data("float64", seed=4) > -0.3)
    row_mask = xp.asarray([True, False, True, True, False])  # broadcasts along the last axis
    fn = getattr(xp, name)
    return fn(a, axis=axis, where=mask), getattr(a, name)(axis=axis, keepdims=True, where=row_mask)


@pytest.mark.parametrize("name", ["sum", "prod", "min", "max"])
@testing.for_dtypes(["bool", "int8", "uint16", "int64", "float32", "float64"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_reduce_initial(name, dtype, xp):
    a = xp.asarray(_data(dtype, seed=5))
    fn = getattr(xp, name)
    init = True if dtype == "bool" else 2
    empty = a[:, :0]
    return (
        fn(a, axis=1, initial=init),
        getattr(a, name)(initial=init),
        fn(empty, axis=1, initial=init),
        fn(empty, initial=init, keepdims=True),
        fn(a, axis=(0, 2), initial=init, where=xp.asarray(_data("float64", seed=6) > 0)),
    )


def test_reduce_where_errors():
    a = gpupy.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(ValueError, match=r"\[max\].*specify 'initial'"):
        gpupy.max(a, where=a > 1)
    with pytest.raises(ValueError, match=r"\[sum\].*does not broadcast"):
        gpupy.sum(a, where=gpupy.asarray([[True], [False], [True]]))
    with pytest.raises(TypeError, match=r"\[mean\].*boolean"):
        a.mean(where=gpupy.asarray([1, 0, 1]))


def test_numpy_functions_forward_initial_and_where():
    a = gpupy.asarray(np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]]))
    got = np.sum(a, axis=1, initial=10.0, where=a > 0)
    assert isinstance(got, gpupy.ndarray)
    np.testing.assert_array_equal(got.get(), [14.0, 19.0])
    np.testing.assert_array_equal(np.max(a[:, :0], axis=1, initial=-1.0).get(), [-1.0, -1.0])
    assert float(np.mean(a, where=a > 0)) == 13.0 / 4


@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("axis", [None, 0, (1, 2)])
@testing.for_dtypes(["int16", "float32", "float64", "complex128"])
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_var_std_with_a_precomputed_mean(name, axis, dtype, xp):
    a = xp.asarray(_data(dtype, seed=6))
    centre = xp.mean(a, axis=axis, keepdims=True)
    fn = getattr(xp, name)
    return (
        fn(a, axis=axis, mean=centre),
        getattr(a, name)(axis=axis, ddof=1, keepdims=True, mean=centre),
        fn(a, axis=axis, mean=centre, where=xp.asarray(_data("float64", seed=7) > -0.5)),
    )


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8", "uint16"])
@pytest.mark.parametrize("n", [7, 2048, 2049, 10_000])
@pytest.mark.parametrize("case", ["random", "ties", "nan", "inf", "signed_zero"])
def test_argmax_argmin_contiguous_blocks(dtype, n, case):
    """Long contiguous rows (several blocks of the cpu's fast path): the first extreme wins,
    ties across blocks included, and the first NaN beats everything, as in NumPy."""
    r = np.random.RandomState(n)
    x = (r.rand(n) * 50).astype(dtype)
    if case == "ties":
        x[:] = x.max()
        x[r.randint(0, n, 3)] = 0
    elif case == "nan" and x.dtype.kind == "f":
        x[r.randint(n // 2, n, 3)] = np.nan
    elif case == "inf" and x.dtype.kind == "f":
        x[[n // 3, n - 1]] = np.inf
        x[[n // 4, n // 2]] = -np.inf
    elif case == "signed_zero" and x.dtype.kind == "f":
        x[:] = 0.0
        x[::3] = -0.0
    g = gpupy.asarray(x)
    assert int(g.argmax()) == int(x.argmax())
    assert int(g.argmin()) == int(x.argmin())
    if n % 7 == 0:
        m = x.reshape(7, -1)
        np.testing.assert_array_equal(gpupy.asarray(m).argmax(axis=1).get(), m.argmax(axis=1))
        np.testing.assert_array_equal(gpupy.asarray(m).argmin(axis=1).get(), m.argmin(axis=1))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "uint64", "uint32"])
def test_argmax_argmin_along_rows_at_vector_edges(dtype):
    """Rows of every length around the cpu's AVX2 lanes (4 or 8 per vector, two vectors per
    step, the tail after): NaNs first, in the middle and last in a row, ties across lanes,
    signed zeros, extremes of the integer range, all-equal rows, rows of one element."""
    r = np.random.default_rng(3)
    floating = np.dtype(dtype).kind == "f"
    if floating:
        pool = np.array([0.0, -0.0, 1.5, -1.5, np.inf, -np.inf], dtype)
    else:
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.min + 1, 0, 1, info.max - 1, info.max], dtype)
    for cols in [1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 47, 64, 65, 1000]:
        rows = []
        for _ in range(6):
            rows.append(r.choice(pool, cols))  # many ties
        rows.append(np.full(cols, pool[2]))
        if floating:
            for at in {0, cols // 2, cols - 1, min(cols - 1, 17)}:
                row = r.choice(pool, cols)
                row[at] = np.nan
                if at + 5 < cols:
                    row[at + 5] = np.nan
                rows.append(row)
        m = np.stack(rows)
        g = gpupy.asarray(m)
        for name in ("argmin", "argmax"):
            want = getattr(m, name)(axis=-1)
            np.testing.assert_array_equal(getattr(g, name)(axis=-1).get(), want, err_msg=f"{cols}")
            assert int(getattr(g, name)()) == int(getattr(m, name)())
            h = np.ascontiguousarray(m[:, ::-1])
            got = getattr(gpupy.asarray(h), name)(axis=-1).get()
            np.testing.assert_array_equal(got, getattr(h, name)(axis=-1), err_msg=f"{cols}")


@pytest.mark.parametrize("name", ["sum", "prod", "cumsum", "cumprod"])
@pytest.mark.parametrize("out_dtype", ["float32", "float64"])
@pytest.mark.parametrize("where", [True, False])
@testing.numpy_gpupy_allclose(rtol=1e-6)
def test_sum_and_scans_compute_in_outs_dtype(name, out_dtype, where, xp):
    # without dtype=, NumPy's add/multiply.reduce and accumulate take out's dtype: uint64 2**64 - 1
    # sums to 1.8e19 into a float32 out (gpupy once wrapped in uint64 first)
    a = xp.asarray(np.array([[2**64 - 1, 1, 3], [5, 2**63, 7]], np.uint64))
    if name.startswith("cum"):
        out = xp.zeros((2, 3), dtype=out_dtype)
        getattr(xp, name)(a, axis=1, out=out)
        return out
    out = xp.zeros(3, dtype=out_dtype)
    kwargs = {} if where else {"where": xp.asarray([True, False, True])}
    getattr(xp, name)(a, axis=0, out=out, **kwargs)
    return out


def _runtime_warnings(call):
    """The messages of the RuntimeWarnings `call` raises, without NumPy's floating-point
    'invalid value encountered' ones (gpupy does not raise those), and its result."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    messages = {str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)}
    return {m for m in messages if "encountered" not in m}, result


@pytest.mark.parametrize("shape", [(0,), (0, 3), (3, 0), (2, 3), (1, 4), (0, 0), ()])
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [("mean", {}), ("var", {}), ("var", {"ddof": 1}), ("std", {"correction": 1}),
     ("std", {"ddof": 4})],
)  # fmt: skip
def test_empty_and_short_slices_warn_as_numpy(shape, name, kwargs):
    """'Mean of empty slice' / 'Degrees of freedom <= 0 for slice' exactly where NumPy warns,
    and the same (NaN) results."""
    a = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape)
    for axis in [None, *range(a.ndim), *([(0, 1)] if a.ndim > 1 else [])]:
        expected_warnings, expected = _runtime_warnings(
            lambda axis=axis: getattr(np, name)(a, axis=axis, **kwargs)
        )
        got_warnings, got = _runtime_warnings(
            lambda axis=axis: getattr(gpupy, name)(gpupy.asarray(a), axis=axis, **kwargs)
        )
        assert got_warnings == expected_warnings, (axis, got_warnings, expected_warnings)
        np.testing.assert_allclose(got.get(), expected, equal_nan=True)


@pytest.mark.parametrize("name", ["sum", "prod", "cumsum", "cumprod", "nansum"])
@pytest.mark.parametrize("out_dtype", ["uint8", "int8", "int64", "float16", "float32"])
@testing.for_dtypes(["float32", "float64", "int8", "int64", "bool"])
@testing.numpy_gpupy_allclose(rtol=1e-3)
def test_sum_prod_into_out_of_another_dtype(name, out_dtype, dtype, xp):
    # NumPy runs the loop in the promotion of the input and out, then casts into out: float
    # data summed into an integer out is truncated once, not element by element
    x = xp.asarray((np.array([[-4.0, 2.5, 1.75], [0.9649, -0.5, 2.5]]) * 3).astype(dtype))
    shape = (3,) if "cum" not in name else x.shape
    return getattr(xp, name)(x, axis=0, out=xp.zeros(shape, dtype=out_dtype))


@pytest.mark.parametrize(
    "name", ["sum", "prod", "mean", "cumsum", "cumprod", "nansum", "nancumsum"]
)
@pytest.mark.parametrize("src", ["float64", "int32", "complex64"])
@testing.numpy_gpupy_allclose()
def test_float16_dtype_rounds_the_input_first(name, src, xp):
    # dtype=float16 casts 7e4 to inf before the float32 accumulation: inf - inf is NaN
    x = xp.asarray(np.array([[7e4, -7e4, 3.0, 1e-8], [5.0, 2.5, -7e4, 0.0]]).astype(src))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return [getattr(xp, name)(x, axis=axis, dtype="float16") for axis in (None, -1)]


# out= errors name the function (they read "output parameter has the wrong shape" and "out must
# be a gpupy.ndarray" with no name): reductions, scans, and the ufuncs on both their paths
def _along_axis_0(name):
    return lambda a, out: getattr(gpupy, name)(a, axis=0, out=out)


OUT_CALLS = {
    name: _along_axis_0(name)
    for name in ["sum", "prod", "mean", "min", "max", "any", "all", "argmin", "argmax", "var",
                 "std", "cumsum", "cumprod", "cumulative_sum", "cumulative_prod"]
}  # fmt: skip
OUT_CALLS["sum_method"] = lambda a, out: a.sum(axis=0, out=out)
OUT_CALLS["negative"] = lambda a, out: gpupy.negative(a, out=out)
OUT_CALLS["add"] = lambda a, out: gpupy.add(a, 1, out=out)
OUT_CALLS["add_where"] = lambda a, out: gpupy.add(a, 1, out=out, where=a > 0)
OUT_CALLS["clip"] = lambda a, out: gpupy.clip(a, 0, 1, out=out)
OUT_CALLS["round"] = lambda a, out: gpupy.round(a, out=out)


@pytest.mark.parametrize("call", OUT_CALLS.values(), ids=OUT_CALLS.keys())
def test_out_errors_name_the_function(call, request):
    name = request.node.callspec.id.removesuffix("_method").removesuffix("_where")
    a = gpupy.ones((3, 4))
    with pytest.raises(ValueError, match=rf"^\[{name}\] "):
        call(a, gpupy.zeros((5, 7)))
    if name not in ("clip", "negative", "add", "round"):  # a result NumPy broadcasts into out
        with pytest.raises(ValueError, match=rf"^\[{name}\] "):
            call(a, gpupy.zeros((2, 4)))
    with pytest.raises(TypeError, match=rf"^\[{name}\] out must be a gpupy.ndarray"):
        call(a, np.zeros((4,)))


@testing.numpy_gpupy_allclose()
def test_clip_broadcasts_into_a_larger_out(xp):
    # clip is a ufunc to NumPy: its result is broadcast into an out= of a larger shape
    out = xp.zeros((2, 3, 4))
    assert xp.clip(xp.arange(12.0).reshape(3, 4), 2, 8, out=out) is out
    return out


@pytest.mark.parametrize(
    "name", ["sum", "prod", "mean", "var", "std", "min", "max", "any", "all", "argmin", "argmax"]
)
@pytest.mark.parametrize("axis", [1.5, "0", (0, 1.0)], ids=repr)
def test_axis_type_errors_name_the_reduction(name, axis):
    with pytest.raises(TypeError):  # the reference: NumPy refuses the axis as well
        getattr(np, name)(np.ones((2, 2)), axis=axis)
    with pytest.raises(TypeError, match=rf"^\[{name}\] "):
        getattr(gpupy, name)(gpupy.ones((2, 2)), axis=axis)
