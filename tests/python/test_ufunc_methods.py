"""NumPy's ufunc methods on gpupy's binary ufuncs: reduce, accumulate, reduceat, outer, at."""

import math
import pickle
import warnings

import gpupy
import numpy as np
import pytest
from gpupy import testing

X = np.array([[3.0, -1.0, 4.0, 1.5], [-5.0, 9.0, 2.0, 6.0], [5.0, 3.0, -5.0, 8.0]])
UFUNCS = ["add", "multiply", "maximum", "minimum", "subtract", "hypot", "fmax", "logaddexp"]


@pytest.mark.parametrize("name", UFUNCS)
@pytest.mark.parametrize("axis", [0, 1, -1, None])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reduce(name, axis, xp):
    return getattr(xp, name).reduce(xp.asarray(X), axis=axis)


MASK = [[True, False, True, True], [False, True, True, False], [True, True, False, False]]
REDUCE_WHERE = {
    "add": {},
    "multiply": {},
    "maximum": {"initial": -10.0},
    "minimum": {"initial": 10.0},
    "maximum_no_initial": {},  # NumPy's ValueError: no identity to fill the masked elements
    "logical_and": {},
    "logical_or": {"initial": False},
}


@pytest.mark.parametrize("name", list(REDUCE_WHERE))
@pytest.mark.parametrize("axis", [0, 1, None])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reduce_with_a_where_list(name, axis, xp):
    # the list mask is created on the array's device (it was refused: no where= keyword)
    ufunc = getattr(xp, name.removesuffix("_no_initial"))
    return ufunc.reduce(xp.asarray(X), axis=axis, where=MASK, **REDUCE_WHERE[name])


@testing.numpy_gpupy_allclose()
def test_reduce_where_of_a_ufunc_without_a_device_reduction(xp):
    return xp.subtract.reduce(xp.asarray(X), where=MASK, initial=0.0)


@pytest.mark.parametrize("name", ["bitwise_or", "bitwise_xor", "gcd", "logical_and", "add"])
@testing.numpy_gpupy_allclose()
def test_reduce_integers_keepdims_and_lists(name, xp):
    a = xp.asarray(np.array([[12, 18, 6], [4, 10, 7]], dtype=np.int32))
    rows = [xp.asarray([1, 6, 3]), xp.asarray([4, 2, 9])]
    u = getattr(xp, name)
    return u.reduce(a, axis=1, keepdims=True), u.reduce(a, axis=(0, 1)), u.reduce(rows)


def test_reduce_not_reorderable_and_empty():
    a = gpupy.asarray(X)
    with pytest.raises(ValueError, match=r"\[subtract.reduce\].*not reorderable"):
        gpupy.subtract.reduce(a, axis=(0, 1))
    with pytest.raises(ValueError, match=r"\[subtract.reduce\].*no identity"):
        gpupy.subtract.reduce(gpupy.zeros((0, 3)), axis=0)


@pytest.mark.parametrize("name", ["hypot", "bitwise_or", "bitwise_and", "gcd", "logical_xor"])
@pytest.mark.parametrize("shape", [(2, 3, 4), (2, 0, 3), (0, 3, 1)])
@pytest.mark.parametrize("axis", [(0, 1), (0, 1, 2), None, 1, (2, 0)])
@pytest.mark.parametrize("initial", [None, 5])
@testing.numpy_gpupy_allclose()
def test_reduce_initial_and_identity_over_several_axes(name, shape, axis, initial, xp):
    # initial joins each result once, not once per reduced axis; an empty reduction gives the
    # initial value, else the ufunc's identity (hypot's 0, bitwise_and's -1), whichever axis is
    # empty (gpupy once raised "no identity").
    a = xp.asarray((np.arange(math.prod(shape)).reshape(shape) % 7 - 2).astype(np.int16))
    kwargs = {} if initial is None else {"initial": initial}
    return getattr(xp, name).reduce(a, axis=axis, keepdims=True, **kwargs)


WHERE = [
    np.array([False, True, True, False]),
    np.array([[True], [False], [True]]),
    np.array([[True, False, False, True], [False, True, False, False], [False, True, True, True]]),
    False,
]


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("add", {}),
        ("multiply", {"initial": 2.0}),
        ("maximum", {"initial": -7.0}),
        ("fmin", {"initial": 0.5}),
        ("logical_or", {}),
        ("logical_and", {"initial": True}),
        ("hypot", {"keepdims": True}),
        ("subtract", {"initial": 100.0}),
        ("divide", {"initial": 1.0}),
        ("maximum", {}),  # no identity and no initial: a ValueError
        ("subtract", {}),
    ],
    ids=str,
)
@pytest.mark.parametrize("where", WHERE, ids=lambda w: str(np.shape(w)))
@pytest.mark.parametrize("axis", [0, 1, None, ()])
@testing.numpy_gpupy_allclose(rtol=1e-12, accept_error=True)
def test_reduce_where(name, kwargs, where, axis, xp):
    # the elements where `where` is False are left out (gpupy's reduce took no where=)
    a = xp.asarray(X)
    return getattr(xp, name).reduce(a, axis=axis, where=xp.asarray(where), **kwargs), a


@testing.numpy_gpupy_allclose()
def test_reduce_takes_numpys_positional_arguments(xp):
    d = xp.ones((5, 2), dtype=np.int64)
    out = xp.zeros(2, dtype=np.int64)
    xp.add.reduce(d, 0, None, out, False, 3, xp.asarray([[True], [False], [True], [True], [False]]))
    return out, xp.add.reduce(d, 0, None, None, True, 0, True)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "subtract", "fmin"])
@pytest.mark.parametrize("axis", [0, 1])
@testing.numpy_gpupy_allclose()
def test_accumulate(name, axis, xp):
    return getattr(xp, name).accumulate(xp.asarray(X), axis=axis)


@testing.numpy_gpupy_allclose()
def test_accumulate_integer_dtype(xp):
    a = xp.asarray(np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=np.int16))
    return (
        xp.maximum.accumulate(a),
        xp.add.accumulate(a),
        xp.maximum.accumulate(a, dtype=np.float64),
    )


@pytest.mark.parametrize("name", ["add", "minimum", "maximum", "multiply", "subtract"])
@testing.numpy_gpupy_allclose()
def test_reduceat(name, xp):
    u = getattr(xp, name)
    v = xp.asarray(np.arange(1.0, 11.0))
    return (
        u.reduceat(v, [0, 3, 3, 7]),
        u.reduceat(v, [5, 2, 8]),
        u.reduceat(xp.asarray(X), [0, 2], axis=1),
    )


def test_reduceat_out_of_bounds():
    with pytest.raises(IndexError, match=r"\[add.reduceat\]"):
        gpupy.add.reduceat(gpupy.arange(4), [0, 4])


@testing.numpy_gpupy_allclose()
def test_outer(xp):
    a, b = xp.asarray([1.0, 2.0, 3.0]), xp.asarray(np.arange(8.0).reshape(2, 4))
    return (
        xp.multiply.outer(a, b),
        xp.subtract.outer(b, a),
        xp.greater.outer(a, a),
        xp.add.outer(a, 2),
    )


@testing.numpy_gpupy_allclose()
def test_at_repeated_indices_apply_in_order(xp):
    a = xp.zeros(6)
    xp.add.at(a, xp.asarray([0, 1, 1, 5, 1, 0]), xp.asarray([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    b = xp.full(4, 100.0)
    xp.subtract.at(b, [2, 2, 2, 0], [1.0, 2.0, 4.0, 8.0])
    m = xp.zeros(3, dtype=np.int64)
    xp.maximum.at(m, [0, 0, 2, 0], [5, 9, 1, 7])
    return a, b, m


@testing.numpy_gpupy_allclose()
def test_at_tuple_slice_and_noncontiguous_targets(xp):
    votes = xp.zeros((3, 3), dtype=np.int64)
    xp.add.at(votes, (xp.asarray([0, 0, 2, 0]), xp.asarray([1, 1, 2, 1])), 1)
    grid = xp.zeros((4, 5))
    xp.add.at(grid, (slice(1, 3), [0, 0, 4]), xp.asarray([1.0, 2.0, 3.0]))
    strided = xp.zeros((4, 6))[:, ::2]
    xp.multiply.at(strided, [1, 1], 0.0)
    xp.add.at(strided, (0, [2, 2]), 1.5)
    return votes, grid, strided


@testing.numpy_gpupy_allclose()
def test_at_casts_back_unsafely_after_each_update(xp):
    """NumPy's ufunc.at casts each result back to the target's dtype (truncating floats to
    integers), one occurrence of an index after the other."""
    a = xp.zeros(3, dtype=np.int64)
    xp.add.at(a, [0, 1, 1, 1], 1.5)
    b = xp.asarray([7, 9, 4], dtype=np.int32)
    xp.multiply.at(b, [2, 2, 0], xp.asarray([0.5, 2.5, 1.25]))
    return a, b


def test_at_missing_operand():
    a = gpupy.zeros(3, dtype=np.int64)
    with pytest.raises(ValueError, match=r"\[add.at\]"):  # NumPy's ValueError
        gpupy.add.at(a, [0])
    np.testing.assert_array_equal(a.get(), [0, 0, 0])


def test_ufunc_object_behaves_like_the_function():
    a = gpupy.asarray([1.0, 2.0])
    assert isinstance(gpupy.add, gpupy.ufunc) and gpupy.add.__name__ == "add"
    assert (gpupy.add.nin, gpupy.add.nout) == (2, 1)
    out = gpupy.empty(2)
    assert gpupy.add(a, a, out=out) is out
    np.testing.assert_array_equal(out.get(), [2.0, 4.0])
    assert gpupy.true_divide is gpupy.divide and gpupy.mod is gpupy.remainder
    assert pickle.loads(pickle.dumps(gpupy.maximum)) is gpupy.maximum


def test_numpy_ufunc_methods_dispatch_to_gpupy():
    a = gpupy.zeros(4)
    np.add.at(a, [1, 1, 3], 2.0)
    np.testing.assert_array_equal(a.get(), [0.0, 4.0, 0.0, 2.0])
    outer = np.multiply.outer(gpupy.asarray([1, 2]), gpupy.asarray([3, 4, 5]))
    assert isinstance(outer, gpupy.ndarray)
    np.testing.assert_array_equal(outer.get(), [[3, 4, 5], [6, 8, 10]])
    acc = np.maximum.accumulate(gpupy.asarray([1, 3, 2, 5]))
    np.testing.assert_array_equal(acc.get(), [1, 3, 3, 5])
    assert float(np.subtract.reduce(gpupy.asarray([10.0, 1.0, 2.0]))) == 7.0


@pytest.mark.parametrize(
    "dtype", ["int8", "uint16", "int64", "float32", "float64", "complex64", "bool"]
)
@testing.numpy_gpupy_allclose(rtol=1e-5)
def test_at_many_repeats(dtype, xp):
    """Heavily repeated indices (a histogram by add.at): integers wrap as NumPy's adds do."""
    idx = xp.asarray((np.arange(700) * 7919) % 7)
    counts = xp.zeros(7, dtype=dtype)
    xp.add.at(counts, idx, True if dtype == "bool" else 3)
    grid = xp.ones((3, 4), dtype=dtype)[:, ::2]  # a strided target
    values = xp.asarray((np.arange(700) % 5).astype(dtype))
    xp.add.at(grid, (idx % 3, idx % 2), values)
    if dtype == "bool":
        return counts, grid
    left = xp.full(7, 100, dtype=dtype)
    xp.subtract.at(left, idx, values)
    return counts, grid, left


@pytest.mark.parametrize("name", ["maximum", "fmin", "bitwise_or", "gcd", "logical_xor"])
@pytest.mark.parametrize("axis", [0, 1])
@testing.numpy_gpupy_allclose()
def test_tree_reduce_and_accumulate_long_axes(name, axis, xp):
    """Long, odd-length axes (1001) through the log2(n)-pass paths; NaN propagates as in NumPy."""
    data = (np.arange(7 * 1001).reshape(7, 1001) * 7919) % 1000
    if name in ("maximum", "fmin"):
        data = data.astype(float)
        data[3, 500] = data[5, 2] = np.nan
    a = xp.asarray(data)
    u = getattr(xp, name)
    return u.reduce(a, axis=axis), u.accumulate(a, axis=axis), u.reduce(a, axis=axis, keepdims=True)


@pytest.mark.parametrize("name", ["add", "multiply", "minimum", "bitwise_or", "logical_and"])
@pytest.mark.parametrize("axis", [0, 1])
@testing.numpy_gpupy_allclose(rtol=1e-10)
def test_reduceat_increasing_indices(name, axis, xp):
    """The segmented-scan path: many segments, one-element ones, a first index past 0."""
    data = (
        (np.arange(4 * 300).reshape(4, 300).T if axis == 0 else np.arange(4 * 300).reshape(4, 300))
        * 7919
    ) % 13
    data = data.astype(np.int8) if name != "multiply" else (data % 3 + 1).astype(np.float64)
    starts = [2, 3, 4, 10, 11, 57, 120, 121, 299]
    u = getattr(xp, name)
    a = xp.asarray(data)
    return u.reduceat(a, starts, axis=axis), u.reduceat(a, xp.asarray(starts[1:]), axis=axis)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "uint32"])
def test_add_at_large_in_numpy_order(dtype, device_name):
    """add.at and subtract.at with many repeats: on cpu the float sums are NumPy's bit for bit
    (one add after the other, in index order); devices add atomically, in any order."""
    r = np.random.RandomState(5)
    idx = r.randint(0, 50, 100_000)
    values = (r.rand(100_000) * 1000).astype(dtype)
    expected = np.arange(60, dtype=dtype)
    np.add.at(expected, idx, values)
    np.subtract.at(expected, idx[::3], values[::3])
    got = gpupy.arange(60, dtype=dtype)
    gpupy.add.at(got, gpupy.asarray(idx), gpupy.asarray(values))
    gpupy.subtract.at(got, gpupy.asarray(idx[::3]), gpupy.asarray(values[::3]))
    if device_name == "cpu" or np.dtype(dtype).kind != "f":
        np.testing.assert_array_equal(got.get(), expected)
    else:
        np.testing.assert_allclose(got.get(), expected, rtol=1e-5)


def test_add_at_errors_and_read_only_targets():
    a = gpupy.zeros(4)
    with pytest.raises(IndexError):
        gpupy.add.at(a, gpupy.asarray([0, 4]), 1.0)
    np.testing.assert_array_equal(a.get(), np.zeros(4))  # nothing written
    ro = gpupy.broadcast_to(gpupy.zeros(1), (4,))
    with pytest.raises(ValueError, match="read-only"):
        gpupy.add.at(ro, [1], 1.0)


@testing.numpy_gpupy_allclose()
def test_add_at_values_overlapping_the_target(xp):
    """Values that are a view of the target are read as they were before the call."""
    a = xp.arange(5.0)
    xp.add.at(a, xp.asarray([1, 2, 3, 4]), a[:4])
    b = xp.arange(6, dtype=np.int32)
    xp.subtract.at(b, xp.asarray([5, 4, 3]), b[:3])
    return a, b


@pytest.mark.parametrize("name", ["floor_divide", "subtract", "power", "bitwise_xor"])
@pytest.mark.parametrize("dtype", ["uint16", "int8"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_reduceat_and_accumulate_cast_the_input_to_dtype(name, dtype, xp):
    # NumPy casts the input to dtype= before the loop (gpupy once computed each step in the
    # input's dtype and wrapped only the results)
    x = xp.asarray(np.array([[2147483647, 7, 2, -5, 1], [10, -3, 5, -8, 2]], np.int32))
    u = getattr(xp, name)
    return u.reduceat(x, [0, 2, 1], axis=1, dtype=dtype), u.accumulate(x, axis=1, dtype=dtype)


@pytest.mark.parametrize("name", ["bitwise_xor", "fmax", "logical_xor", "hypot", "power"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16"])
@testing.numpy_gpupy_allclose()
def test_reduce_initial_keeps_the_loop_dtype(name, dtype, xp):
    # a Python initial is cast to the loop's dtype, not promoted with it (bool stays bool)
    if name in ("bitwise_xor", "power") and dtype == "float16":
        pytest.skip("no float loop")
    x = xp.asarray(np.array([[0, 1, 1], [1, 0, 1]]).astype(dtype))
    u = getattr(xp, name)
    return u.reduce(x, axis=-1, initial=1), u.reduce(x, axis=0, initial=1, keepdims=True)


@pytest.mark.parametrize("name", ["equal", "subtract", "hypot", "bitwise_or"])
@testing.numpy_gpupy_allclose()
def test_accumulate_of_an_empty_axis(name, xp):
    dtype = "bool" if name == "equal" else "int32" if name == "bitwise_or" else "float64"
    return getattr(xp, name).accumulate(xp.zeros((0, 2), dtype=dtype), axis=0)


@pytest.mark.parametrize("name", ["equal", "less", "not_equal", "greater_equal"])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float64"])
@pytest.mark.parametrize("method", ["reduce", "accumulate", "reduceat", "reduce_to_bool"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_comparisons_reduce_only_in_their_bool_loop(name, dtype, method, xp):
    # their output is bool: NumPy refuses other input dtypes (gpupy once reduced them anyway)
    x = xp.asarray(np.array([1, 0, 1, 1]).astype(dtype))
    u = getattr(xp, name)
    if method == "reduceat":
        return u.reduceat(x, [0, 2])
    if method == "reduce_to_bool":
        return u.reduce(x, dtype=bool), u.accumulate(x, dtype=bool)
    return getattr(u, method)(x)


@pytest.mark.parametrize("name", ["bitwise_or", "hypot", "floor_divide", "add"])
@pytest.mark.parametrize("dtype", ["float64", "complex128", "int16"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_at_with_no_index_still_needs_a_loop(name, dtype, xp):
    # nothing is updated, but a ufunc with no loop for the dtypes raises (gpupy once returned)
    a = xp.asarray(np.ones(3, dtype=dtype))
    getattr(xp, name).at(a, [], 1)
    return a


@pytest.mark.parametrize("name", ["maximum", "minimum"])
@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8"])
@testing.numpy_gpupy_allclose()
def test_maximum_minimum_reduce_take_dtype(name, dtype, xp):
    x = xp.asarray(np.array([[3, -1, 250], [7, 2, -9]], np.int16))
    u = getattr(xp, name)
    return u.reduce(x, axis=1, dtype=dtype), u.reduce(x, axis=None, dtype=dtype, initial=4)


@pytest.mark.parametrize("name", ["hypot", "gcd", "logical_xor", "bitwise_and", "logaddexp"])
@pytest.mark.parametrize("axis", [0, (), 1, None])
@testing.numpy_gpupy_allclose()
def test_reduce_starts_from_the_identity(name, axis, xp):
    # NumPy's initial defaults to the identity: hypot.reduce([-8.0]) is 8.0, gcd.reduce([-8]) 8
    # (gpupy once returned the lone element itself)
    dtype = "int64" if name in ("gcd", "bitwise_and") else "float64"
    x = xp.asarray(np.array([[-8], [3]]).astype(dtype))
    return getattr(xp, name).reduce(x if axis != 0 else x[0, 0], axis=axis)


_BINARY_UFUNCS = sorted(
    n
    for n in dir(np)
    if isinstance(getattr(np, n), np.ufunc)
    and getattr(np, n).signature is None
    and (getattr(np, n).nin, getattr(np, n).nout) == (2, 1)
    and isinstance(getattr(gpupy, n, None), gpupy.ufunc)
)


@pytest.mark.parametrize("name", _BINARY_UFUNCS)
def test_reduce_over_several_axes_only_where_numpy_reorders(name):
    """NumPy refuses several axes unless the ufunc has an identity or is max/min/fmax/fmin."""
    a = np.arange(1, 7).reshape(2, 3)
    try:
        getattr(np, name).reduce(a, axis=(0, 1))
        refused = False
    except ValueError as exc:
        refused = "not reorderable" in str(exc)
    except TypeError:
        refused = False  # no integer loop: the shape of the check is all that is compared
    if refused:
        with pytest.raises(ValueError, match="not reorderable"):
            getattr(gpupy, name).reduce(gpupy.asarray(a), axis=(0, 1))
    else:
        try:
            getattr(gpupy, name).reduce(gpupy.asarray(a), axis=(0, 1))
        except (TypeError, ValueError) as exc:
            assert "not reorderable" not in str(exc)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64", "int8", "bool"])
def test_bitwise_and_reduce_casts_its_identity_unsafely(dtype):
    """bitwise_and's identity -1 is all ones in the loop's dtype, unsigned too (NumPy's cast)."""
    a = np.array([13, 7, 15], dtype=dtype)
    got = gpupy.bitwise_and.reduce(gpupy.asarray(a))
    assert got.dtype == a.dtype and got.item() == np.bitwise_and.reduce(a)
    empty = np.empty((0, 3), dtype=dtype)
    got = gpupy.bitwise_and.reduce(gpupy.asarray(empty), axis=0)
    expected = np.bitwise_and.reduce(empty, axis=0)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize(
    ("name", "dtype", "index", "value"),
    [("maximum", "uint8", [], np.complex64(1 + 2j)), ("fmax", "float32", [], 1 + 2j),
     ("add", "float64", [], 1 + 2j), ("add", "float64", [0, 0], 1 + 2j),
     ("add", "bool", [], 1 + 2j), ("add", "complex128", [], 1.0), ("sqrt", "int64", [], None)],
)  # fmt: skip
def test_at_warns_for_a_complex_result_even_with_no_index(name, dtype, index, value):
    # NumPy casts the loop's result back to a's dtype, warning even when no element is selected
    def run(xp):
        a = xp.asarray(np.arange(3).astype(dtype))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ufunc = getattr(xp, name)
            ufunc.at(a, index) if value is None else ufunc.at(a, index, value)
        return a, {w.category for w in caught}

    (expected, expected_warnings), (got, got_warnings) = run(np), run(gpupy)
    assert got_warnings == expected_warnings
    testing.assert_same(expected, got)


@pytest.mark.parametrize(
    "name", ["logical_or", "logical_and", "equal", "divide", "hypot", "floor_divide", "subtract",
             "power", "bitwise_xor", "fmax"],
)  # fmt: skip
@pytest.mark.parametrize("dtype", ["float32", "int64", "bool", "complex64", "uint8", "float16"])
@pytest.mark.parametrize("method", ["reduce", "accumulate", "reduceat"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_methods_with_dtype_need_a_loop_of_that_dtype(name, dtype, method, xp):
    # NumPy reduces in a loop whose inputs and output are dtype=: divide has no integer one,
    # logical_or only a bool one (which gpupy's reduce refused), floor_divide no bool one
    x = xp.asarray(np.array([1, 2, 3], dtype="int16"))
    extra = (xp.asarray([0, 2]),) if method == "reduceat" else ()
    return getattr(getattr(xp, name), method)(x, *extra, dtype=dtype)


@pytest.mark.parametrize(
    "name, dtype, value",
    [("add", "int8", -129), ("maximum", "int8", -129), ("maximum", "uint8", 2**33),
     ("multiply", "uint64", -3), ("maximum", "int16", -(2**40)), ("add", "uint8", 2**64 - 1),
     ("maximum", "uint8", 2**63), ("hypot", "uint16", -40000), ("add", "bool", 2**40),
     ("add", "int8", 2**70), ("add", "float32", 2**70), ("floor_divide", "uint16", 2**33)],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_at_with_a_python_int_beyond_the_dtype(name, dtype, value, xp):
    # NumPy's ufunc.at reads such an int as int64 (uint64 above it) and casts the result back;
    # gpupy raised OverflowError (found by tools/fuzz_numpy.py)
    a = xp.asarray(np.array([2, 1, 7]).astype(dtype))
    getattr(xp, name).at(a, [0, 1, 1], value)
    return a


@pytest.mark.parametrize("name", ["bitwise_and", "subtract", "add", "maximum"])
@pytest.mark.parametrize("value", [5, 7, 2**63 + 3])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_at_reads_python_ints_as_int64_with_uint64_arrays(name, value, xp):
    # uint64 with int64 has no integer loop: bitwise ops raise TypeError, arithmetic runs in float64
    import warnings

    a = xp.asarray(np.array([18446744073709551594, 7, 4], dtype="uint64"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        getattr(xp, name).at(a, [0, 0, 2], value)
    return a


@pytest.mark.parametrize(
    "name, dtype, indices, value",
    [("hypot", "uint32", [], 1j), ("bitwise_xor", "float64", [], 1), ("bitwise_or", "float32",
      [5], 1), ("hypot", "uint8", [7], 1j)],
)  # fmt: skip
@testing.numpy_gpupy_allclose(accept_error=True)
def test_at_finds_the_loop_before_the_indices(name, dtype, indices, value, xp):
    # NumPy's TypeError (no loop) comes before the index's IndexError (0-d array, out of bounds)
    a = xp.asarray(np.array(3).astype(dtype))
    getattr(xp, name).at(a, indices, value)
    return a


@pytest.mark.parametrize("x", [[-2], [[7, -128, 4]], [3, -1, 2]])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_power_accumulate_of_negative_exponents(x, xp):
    # one row computes no power, so NumPy raises nothing for it; gpupy's dtype probe raised
    return xp.power.accumulate(xp.asarray(np.array(x, dtype="int32")), axis=0)


@pytest.mark.parametrize("shape", [(0,), (2, 0), (0, 3), (2, 3)])
@pytest.mark.parametrize("axis", [None, 0, (0, -1)])
@testing.numpy_gpupy_raises()
def test_reduce_finds_the_loop_before_checking_the_axes(shape, axis, xp):
    # boolean subtract has no loop: TypeError, even for an empty array or several axes
    return xp.subtract.reduce(xp.zeros(shape, dtype=bool), axis=axis)


@pytest.mark.parametrize("name", ["hypot", "subtract", "logaddexp"])
@testing.numpy_gpupy_raises()
def test_reduce_refuses_a_duplicate_axis(name, xp):
    return getattr(xp, name).reduce(xp.ones((2, 3)), axis=(1, -1))


SIGNATURES = [
    ("add", "ii->i", {"casting": "unsafe"}),
    ("add", ("i4", "i4", "i4"), {"casting": "unsafe"}),
    ("add", (None, None, "f4"), {}),
    ("add", (None, None, None), {}),
    ("add", ("f8", None, None), {}),
    ("add", "i", {"casting": "unsafe"}),  # TypeError: not a signature of three
    ("add", ("i4",), {}),
    ("add", (None,), {}),
    ("add", 123.0, {}),
    ("add", "id->d", {}),  # no such loop: TypeError
    ("maximum", "dd->d", {}),
    ("power", (None, None, "int64"), {"casting": "unsafe"}),
    ("power", (None, None, "int64"), {}),  # the unsafe cast of the inputs: TypeError
    ("ldexp", (None, None, "f8"), {}),
    ("sin", "f->f", {}),
    ("sin", (None, "f4"), {}),
    ("add", ("e", "d", None), {}),  # two input dtypes: no loop, TypeError
    ("add", "%^->#", {}),  # ValueError from here on
    ("add", b"ii-i", {}),
    ("add", "ii>i", {}),
    ("add", (None, "f8"), {}),
]


@pytest.mark.parametrize("name, sig, kwargs", SIGNATURES, ids=repr)
@pytest.mark.parametrize("keyword", ["signature", "sig"])
@testing.numpy_gpupy_allclose(rtol=1e-6, accept_error=True)
def test_signature_selects_the_loop(name, sig, kwargs, keyword, xp):
    # signature= (alias sig=) names the loop as dtype= does (gpupy took neither keyword)
    u = getattr(xp, name)
    args = [xp.asarray([0.25, 1.5, 2.75]), xp.asarray([2.0, 1.0, 3.0])][: u.nin]
    if name == "ldexp":
        args[1] = xp.asarray(np.array([2, 1, 3], dtype=np.int32))
    out = xp.zeros(3, dtype="float64")
    u(*args, out=out, **{keyword: sig}, **kwargs)
    return u(*args, **{keyword: sig}, **kwargs), out


def test_signature_and_sig_together_or_with_dtype():
    a = gpupy.ones(3)
    with pytest.raises(TypeError, match=r"\[add\] cannot specify both 'sig' and 'signature'"):
        gpupy.add(a, a, signature="dd->d", sig="dd->d")
    with pytest.raises(TypeError, match=r"\[add\]"):
        gpupy.add(a, a, signature="dd->d", dtype="f8")
    with pytest.raises(NotImplementedError, match=r"\[equal\] a signature of several dtypes"):
        gpupy.equal(a, a, signature="dd->?")
