"""NumPy 2 promotion (NEP 50): gpupy.result_type and the dtypes that add/multiply/divide
actually produce, compared with NumPy over all dtype pairs and Python scalar kinds."""

import gpupy
import numpy as np
import pytest
from gpupy import testing
from hypothesis import given, settings
from hypothesis import strategies as st

DTYPES = [np.dtype(d) for d in testing.ALL_DTYPES + ("float16",)]
PY_SCALARS = [True, False, 0, 1, -1, 127, 255, -129, 2**31, 2**63 - 1, 2.5, -0.0, 1e300, 1 + 2j]
_SMALL = {np.dtype(d) for d in ("bool", "int8", "uint8")}


def _numpy_result(fn, *args):
    try:
        return fn(*args), None
    except Exception as exc:  # noqa: BLE001 - compared below
        return None, exc


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES))
def test_result_type_pairs(d1, d2):
    assert gpupy.result_type(d1, d2) == np.result_type(d1, d2)
    assert gpupy.promote_types(d1, d2) == np.promote_types(d1, d2)


@pytest.mark.parametrize("d1", DTYPES, ids=str)
@pytest.mark.parametrize("d2", DTYPES, ids=str)
def test_result_type_all_pairs_exhaustive(d1, d2):
    assert gpupy.result_type(d1, d2) == np.result_type(d1, d2)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(DTYPES), st.sampled_from(PY_SCALARS), st.booleans())
def test_result_type_weak_scalars(dtype, scalar, scalar_first):
    a = gpupy.zeros(2, dtype=dtype)
    args = (scalar, a) if scalar_first else (a, scalar)
    expected, err = _numpy_result(
        np.result_type, *(x if x is not a else np.zeros(2, dtype) for x in args)
    )
    if err is not None:
        with pytest.raises(type(err) if not isinstance(err, TypeError) else TypeError):
            gpupy.result_type(*args)
        return
    assert gpupy.result_type(*args) == expected


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(DTYPES),
    st.one_of(st.sampled_from(DTYPES), st.sampled_from(PY_SCALARS)),
    st.sampled_from(["add", "multiply", "divide"]),
)
def test_operation_result_dtype(d1, other, name):
    x_np = np.array([1, 0], dtype=d1)
    o_np = np.array([1, 1], dtype=other) if isinstance(other, np.dtype) else other
    with np.errstate(all="ignore"):
        expected, err = _numpy_result(getattr(np, name), x_np, o_np)
    x = gpupy.asarray(x_np)
    o = gpupy.asarray(o_np) if isinstance(other, np.dtype) else other
    if err is not None:
        family = TypeError if isinstance(err, TypeError) else type(err)
        with pytest.raises(family):
            getattr(gpupy, name)(x, o)
        return
    actual = getattr(gpupy, name)(x, o)
    assert actual.dtype == expected.dtype


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PY_SCALARS), st.sampled_from(PY_SCALARS))
def test_result_type_only_scalars(s1, s2):
    assert gpupy.result_type(s1, s2) == np.result_type(s1, s2)


# numpy.float64 and numpy.complex128 subclass Python's float and complex, yet are strong too.
@pytest.mark.parametrize(
    "scalar",
    [np.int8(1), np.uint64(3), np.float16(1), np.float32(1), np.complex64(1), np.float64(1)]
    + [np.complex128(1j)],
)
@pytest.mark.parametrize("dtype", ["int16", "float32", "uint8", "complex64", "float16"])
def test_numpy_scalars_are_strong(scalar, dtype):
    a_np = np.ones(2, dtype=dtype)
    assert gpupy.result_type(gpupy.asarray(a_np), scalar) == np.result_type(a_np, scalar)
    assert (gpupy.asarray(a_np) + scalar).dtype == (a_np + scalar).dtype


# NumPy scalars' values are read from their memory: the extremes of each type must arrive intact.
EDGE_SCALARS = [
    np.bool_(True),
    np.int8(-128),
    np.uint8(255),
    np.int16(-32768),
    np.uint32(2**32 - 1),
    np.int64(-(2**63)),
    np.uint64(2**64 - 1),
    np.float16(65504.0),
    np.float16(-6e-8),
    np.float32(3.4028235e38),
    np.float32(1e-45),
    np.float64(-1.7976931348623157e308),
    np.float64(5e-324),
    np.complex64(3.5 - 1.25j),
    np.complex128(1e300 + 2e-300j),
]


@pytest.mark.parametrize("scalar", EDGE_SCALARS, ids=lambda s: f"{type(s).__name__}({s})")
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64", "float32", "complex128"])
def test_numpy_scalar_operands_keep_value_and_dtype(scalar, dtype):
    a_np = np.array([0, 1], dtype=dtype)
    for op in (np.add, np.multiply, np.maximum):
        expected = op(a_np, scalar)
        got = op(gpupy.asarray(a_np), scalar)
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got.get(), expected)
    assert gpupy.full(2, scalar).dtype == np.full(2, scalar).dtype
    np.testing.assert_array_equal(gpupy.full(2, scalar).get(), np.full(2, scalar))


def test_python_types_as_dtypes():
    for t in (bool, int, float, complex):
        assert gpupy.result_type(t, np.float32) == np.result_type(t, np.float32)
    assert gpupy.result_type("int8", "uint8") == np.int16


def test_result_type_errors():
    with pytest.raises(ValueError):
        gpupy.result_type()
    with pytest.raises(TypeError):
        gpupy.result_type(np.longdouble)
    with pytest.raises(TypeError):
        gpupy.promote_types(np.float32, None)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind", "unsafe"])
def test_can_cast_all_pairs(casting):
    for d1 in DTYPES:
        for d2 in DTYPES:
            assert gpupy.can_cast(d1, d2, casting) == np.can_cast(d1, d2, casting), (d1, d2)


def test_can_cast_errors():
    with pytest.raises(TypeError):
        gpupy.can_cast(1, np.int8)
    with pytest.raises(ValueError):
        gpupy.can_cast(np.int8, np.int16, "sometimes")
    assert gpupy.can_cast(gpupy.zeros(2, dtype="int8"), np.int16)


def test_small_dtypes_compute_in_float16():
    # NumPy sends these to float16 in the math functions, and to float64 in true division.
    for d in _SMALL:
        one = np.ones(1, dtype=d)
        assert gpupy.sqrt(gpupy.asarray(one)).dtype == np.sqrt(one).dtype == np.float16
        assert gpupy.divide(gpupy.asarray(one), 1).dtype == np.divide(one, 1).dtype


ALIASES = "byte short intc int_ intp long longlong ubyte ushort uintc uint uintp ulong ulonglong "
ALIASES += "half single double csingle cdouble"


@pytest.mark.parametrize("name", ALIASES.split())
def test_numpy_type_aliases_create_arrays_of_that_dtype(name):
    a = gpupy.zeros(3, dtype=getattr(gpupy, name))
    assert a.dtype == np.dtype(getattr(np, name))
    assert getattr(gpupy, name) is getattr(np, name)


@pytest.mark.parametrize(
    "dtype, kind, expected",
    [
        ("float32", "floating", True),
        ("complex64", "floating", False),
        ("complex64", "inexact", True),
        ("uint8", "signedinteger", False),
        ("uint8", "integer", True),
        ("int16", "signedinteger", True),
        ("bool", "number", False),
        ("bool", "generic", True),
        ("complex128", "complexfloating", True),
        ("int64", "unsignedinteger", False),
    ],
)
def test_abstract_scalar_types_classify_gpupy_dtypes(dtype, kind, expected):
    a = gpupy.zeros(2, dtype=dtype)
    assert np.issubdtype(a.dtype, getattr(gpupy, kind)) is expected
    assert np.issubdtype(a.dtype, getattr(np, kind)) is expected


def test_true_and_false_scalars():
    assert gpupy.True_ is np.True_ and gpupy.False_ is np.False_
    assert gpupy.asarray(gpupy.True_).dtype == np.bool_


_TRIPLES = [
    ("int16", "uint16", "float32"), ("int8", "uint16", "float16"), ("uint8", "int8", "float16"),
    ("int8", "uint64", "float16"), ("int64", "uint64", "float32"), ("bool", "uint16", "int8"),
    ("float16", "int32", "complex64"), ("uint32", "int8", "float32", "int16"),
]  # fmt: skip


@pytest.mark.parametrize("dtypes", _TRIPLES, ids=repr)
def test_result_type_of_several_dtypes_is_not_pairwise(dtypes):
    # NumPy starts from the highest kind: int16, uint16, float32 give float32 (gpupy once
    # promoted left to right, through int32, to float64)
    assert gpupy.result_type(*dtypes) == np.result_type(*dtypes)


@pytest.mark.parametrize("dtypes", _TRIPLES[:4], ids=repr)
@testing.numpy_gpupy_allclose()
def test_clip_and_concatenate_promote_several_dtypes(dtypes, xp):
    a, lo, hi = (xp.asarray(np.array([1, 5, 3]).astype(d)) for d in dtypes[:3])
    return xp.clip(a, lo, hi), xp.concatenate([a, lo, hi])


@pytest.mark.parametrize("value", [2**70, -(2**70), 2**64])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint64", "float32", "complex64"])
@testing.numpy_gpupy_allclose()
def test_result_type_of_a_python_int_beyond_every_dtype(dtype, value, xp):
    # result_type reads kinds only; the value check belongs to the operations
    return str(xp.result_type(xp.zeros(2, dtype=dtype), value))


HUGE_INTS = [2**64, 2**70, -(2**63) - 1, 2**64 - 1]


@pytest.mark.parametrize("value", HUGE_INTS)
@pytest.mark.parametrize("other", ["float64", "complex64", "float16", "int64"])
@testing.numpy_gpupy_allclose(accept_error=True)
def test_where_clip_copyto_read_a_huge_python_int_beside_inexact_operands(value, other, xp):
    # as a float where the other operand is inexact; NumPy's OverflowError beside integers
    x = xp.asarray(np.array([1.5, -2.0, 3.0]).astype(other))
    cond = xp.asarray(np.array([True, False, True]))
    target = xp.zeros(3, dtype=other)
    xp.copyto(target, value)
    return xp.where(cond, value, x), xp.clip(x, None, value), xp.clip(x, -value, None), target


@pytest.mark.parametrize("value", [2**63, 2**64 - 1, 2**63 - 1, 7, True, -1])
def test_result_type_reads_a_lone_python_int_by_value(value):
    assert gpupy.result_type(value) == np.result_type(value)
    assert gpupy.result_type(value, 1) == np.result_type(value, 1)


@pytest.mark.parametrize("choices", [[2**64 - 1], [2**63], [1, 2**64 - 1], [5]], ids=repr)
@testing.numpy_gpupy_allclose()
def test_choose_from_python_ints_takes_numpy_dtype(choices, xp):
    return xp.choose(xp.asarray(np.array([0, 0])), choices)


@pytest.mark.parametrize(
    "base,exponent",
    [(1e-46, "complex64"), (2**64 - 1, "uint8"), (-1e5, "float16"), (65520.0, "float16"),
     ("float16", 1e-8), ("float32", 3.4e39), ("int8", 2.5), (-(2**63) - 1, "int8")],
)  # fmt: skip
@testing.numpy_gpupy_allclose(rtol=1e-13)
def test_float_power_converts_python_scalars_straight_to_float64(base, exponent, xp):
    # NumPy's float_power loops are float64/complex128 only: 1e-46 beside complex64 is not 0
    data = np.array([3.0, 0.5, 9.0])

    def side(v):
        return (
            xp.asarray((data * (1j if v[0] == "c" else 1)).astype(v)) if isinstance(v, str) else v
        )

    return xp.float_power(side(base), side(exponent))


@pytest.mark.parametrize("name", ["equal", "not_equal", "less", "greater_equal"])
@pytest.mark.parametrize(
    "left,right",
    [(-1, np.uint64(10)), (np.int8(3), 300), (-(2**63) - 1, np.int64(3)), (np.uint8(0), -1)],
    ids=repr,
)
@testing.numpy_gpupy_allclose()
def test_numpy_integer_compares_exactly_with_an_out_of_range_python_int(name, left, right, xp):
    return getattr(xp, name)(left, right)


@pytest.mark.parametrize("dtype", ["float16", "float64", "int32"])
def test_python_complex_cast_to_a_real_dtype_warns(dtype):
    results = []
    for xp in (np, gpupy):
        with pytest.warns(np.exceptions.ComplexWarning):
            x = xp.asarray(np.array([1.0, 2.0]))
            results.append(xp.add(-3 - 2.5j, x, dtype=dtype, casting="unsafe"))
    testing.assert_same(results[0], results[1])


@pytest.mark.parametrize(
    "lo,hi", [(70000, 1 + 2j), (-70000, 2.5), (2.5, 40000), (None, -(2**40) + 0.5)], ids=repr
)
@testing.numpy_gpupy_allclose()
def test_clip_and_where_read_an_int_outside_the_data_beside_an_inexact_bound(lo, hi, xp):
    a = xp.asarray(np.array([6, -7, 9], dtype="int16"))
    ints = [v for v in (lo, hi) if type(v) is int]
    return xp.clip(a, lo, hi), xp.where(a > 0, ints[0] if ints else 3, 2.5)
