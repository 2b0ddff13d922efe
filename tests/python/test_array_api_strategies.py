"""Array API conformance properties: inputs drawn by Hypothesis's Array API strategies built on
gpupy itself (make_strategies_namespace(gpupy)), results compared with array_api_strict (the
standard's reference implementation) on a copy of the same data. Floating inputs include NaN,
±inf and ±0, so the special cases are compared as well."""

import array_api_strict as strict
import gpupy
import numpy
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.array_api import make_strategies_namespace

# The reference warns about the overflows and invalid operations the drawn special values cause.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
API_VERSION = "2024.12"
strict.set_array_api_strict_flags(api_version=API_VERSION)
xps = make_strategies_namespace(gpupy, api_version=API_VERSION)
# Derandomized: the same examples every run, so CI is reproducible; raise max_examples locally to
# explore further.
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True)
SHAPES = xps.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)
NONEMPTY = xps.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)

# The standard's dtype categories, as Hypothesis strategies of gpupy dtypes.
KINDS = {
    "numeric": xps.numeric_dtypes(),
    "real numeric": xps.real_dtypes(),
    "floating": xps.floating_dtypes() | xps.complex_dtypes(),
    "real floating": xps.floating_dtypes(),
    "integer": xps.integer_dtypes() | xps.unsigned_integer_dtypes(),
    "integer or boolean": xps.integer_dtypes()
    | xps.unsigned_integer_dtypes()
    | xps.boolean_dtypes(),
    "boolean": xps.boolean_dtypes(),
    "any": xps.scalar_dtypes(),
}


def name(dtype):
    return numpy.dtype(dtype).name


def is_complex(dtype):
    # Complex products, quotients and magnitudes round differently with and without FMA.
    return numpy.dtype(name(dtype)).kind == "c"


def to_strict(x):
    return strict.asarray(gpupy.asnumpy(x).copy())


def tolerance(dtype, loose):
    if numpy.dtype(dtype).kind not in "fc":
        return 0.0
    single = numpy.dtype(dtype) in (numpy.float32, numpy.complex64)
    if loose:  # transcendental functions: a few ULPs between libm implementations
        return 3e-5 if single else 1e-13
    return 0.0


def assert_matches(op, got, expected, loose=False):
    """Same dtype and shape as array_api_strict, same values (NaN where it has NaN, same infinities,
    within a few ULPs for transcendental functions)."""
    expected_np = numpy.asarray(expected)
    assert name(got.dtype) == str(expected.dtype).split(".")[-1], f"{op}: dtype"
    got_np = gpupy.asnumpy(got)
    assert got_np.shape == expected_np.shape, f"{op}: shape"
    rtol = tolerance(got_np.dtype, loose)
    if rtol == 0.0:
        numpy.testing.assert_array_equal(got_np, expected_np, err_msg=op, strict=True)
    else:
        numpy.testing.assert_allclose(got_np, expected_np, rtol=rtol, atol=rtol, err_msg=op)


# (function, dtype category, transcendental?) as the standard specifies them.
UNARY = [
    ("abs", "numeric", False),
    ("acos", "floating", True),
    ("acosh", "floating", True),
    ("asin", "floating", True),
    ("asinh", "floating", True),
    ("atan", "floating", True),
    ("atanh", "floating", True),
    ("bitwise_invert", "integer or boolean", False),
    ("ceil", "real numeric", False),
    ("conj", "numeric", False),
    ("cos", "floating", True),
    ("cosh", "floating", True),
    ("exp", "floating", True),
    ("expm1", "floating", True),
    ("floor", "real numeric", False),
    ("imag", "floating", False),
    ("isfinite", "numeric", False),
    ("isinf", "numeric", False),
    ("isnan", "numeric", False),
    ("log", "floating", True),
    ("log1p", "floating", True),
    ("log2", "floating", True),
    ("log10", "floating", True),
    ("logical_not", "boolean", False),
    ("negative", "numeric", False),
    ("positive", "numeric", False),
    ("real", "numeric", False),
    ("reciprocal", "floating", True),
    ("round", "numeric", False),
    ("sign", "numeric", False),
    ("signbit", "real floating", False),
    ("sin", "floating", True),
    ("sinh", "floating", True),
    ("sqrt", "floating", True),
    ("square", "numeric", False),
    ("tan", "floating", True),
    ("tanh", "floating", True),
    ("trunc", "real numeric", False),
]

BINARY = [
    ("add", "numeric", False),
    ("atan2", "real floating", True),
    ("bitwise_and", "integer or boolean", False),
    ("bitwise_or", "integer or boolean", False),
    ("bitwise_xor", "integer or boolean", False),
    ("copysign", "real floating", False),
    ("divide", "floating", True),
    ("equal", "any", False),
    ("floor_divide", "real numeric", False),
    ("greater", "real numeric", False),
    ("greater_equal", "real numeric", False),
    ("hypot", "real floating", True),
    ("less", "real numeric", False),
    ("less_equal", "real numeric", False),
    ("logaddexp", "real floating", True),
    ("logical_and", "boolean", False),
    ("logical_or", "boolean", False),
    ("logical_xor", "boolean", False),
    ("maximum", "real numeric", False),
    ("minimum", "real numeric", False),
    ("multiply", "numeric", False),
    ("nextafter", "real floating", False),
    ("not_equal", "any", False),
    ("pow", "numeric", True),
    ("remainder", "real numeric", False),
    ("subtract", "numeric", False),
]


def finite(dtype, bound):
    """Finite elements of magnitude <= bound for a floating dtype (None for other dtypes)."""
    dt = numpy.dtype(name(dtype))
    if dt.kind == "c":
        # No subnormal parts: the reference's vectorised complex division loses them (it gives
        # nan for 0 / 1e-45 in complex64) where gpupy's scaled division is exact.
        return st.complex_numbers(
            max_magnitude=bound,
            allow_nan=False,
            allow_infinity=False,
            allow_subnormal=False,
            width=dt.itemsize * 8,
        )
    if dt.kind == "f":
        return {
            "allow_nan": False,
            "allow_infinity": False,
            "min_value": -bound,
            "max_value": bound,
        }
    return None


def elements(dtype, transcendental):
    # Complex special values follow C99 Annex G in both implementations, but the signs of results
    # at infinities and the rounding of products near overflow (cancelling a*a - b*b) differ
    # between libm versions and FMA use: finite, moderate complex inputs keep the comparison about
    # gpupy, not about the host's libm. Real floating inputs include NaN, ±inf and ±0.
    if numpy.dtype(name(dtype)).kind == "c":
        return finite(dtype, 50 if transcendental else 1e6)
    return None


@pytest.mark.parametrize(("op", "kind", "transcendental"), UNARY, ids=[u[0] for u in UNARY])
def test_unary_matches_reference(op, kind, transcendental):
    @SETTINGS
    @given(data=st.data())
    def check(data):
        dtype = data.draw(KINDS[kind], label="dtype")
        if op == "imag":  # imag is defined for complex input only
            dtype = data.draw(xps.complex_dtypes(), label="dtype")
        x = data.draw(xps.arrays(dtype, SHAPES, elements=elements(dtype, transcendental)))
        expected = getattr(strict, op)(to_strict(x))
        loose = transcendental or is_complex(dtype)
        assert_matches(op, getattr(gpupy, op)(x), expected, loose=loose)

    check()


def _binary_operands(data, op, kind, transcendental):
    dtype = data.draw(KINDS[kind], label="dtype")
    shapes = data.draw(xps.mutually_broadcastable_shapes(2, max_dims=3, max_side=3), label="shapes")
    x1 = data.draw(
        xps.arrays(dtype, shapes.input_shapes[0], elements=elements(dtype, transcendental))
    )
    x2 = data.draw(
        xps.arrays(dtype, shapes.input_shapes[1], elements=elements(dtype, transcendental))
    )
    is_integer = numpy.dtype(dtype).kind in "iu"
    if is_integer and op in ("floor_divide", "remainder"):
        # Integer division by zero is unspecified by the standard.
        assume(bool(numpy.all(gpupy.asnumpy(x2) != 0)))
    if is_integer and op == "pow":
        # Negative integer exponents are unspecified by the standard.
        assume(bool(numpy.all(gpupy.asnumpy(x2) >= 0)))
    return x1, x2


@pytest.mark.parametrize(("op", "kind", "transcendental"), BINARY, ids=[b[0] for b in BINARY])
def test_binary_broadcasting_matches_reference(op, kind, transcendental):
    @SETTINGS
    @given(data=st.data())
    def check(data):
        x1, x2 = _binary_operands(data, op, kind, transcendental)
        expected = getattr(strict, op)(to_strict(x1), to_strict(x2))
        loose = transcendental or is_complex(x1.dtype)
        assert_matches(op, getattr(gpupy, op)(x1, x2), expected, loose=loose)

    check()


@pytest.mark.parametrize("op", ["bitwise_left_shift", "bitwise_right_shift"])
@SETTINGS
@given(data=st.data())
def test_shifts_match_reference(op, data):
    dtype = data.draw(KINDS["integer"], label="dtype")
    bits = numpy.dtype(name(dtype)).itemsize * 8
    x1 = data.draw(xps.arrays(dtype, NONEMPTY))
    # Shifts by a negative count or by the width or more are unspecified by the standard.
    x2 = data.draw(xps.arrays(dtype, x1.shape, elements={"min_value": 0, "max_value": bits - 1}))
    expected = getattr(strict, op)(to_strict(x1), to_strict(x2))
    assert_matches(op, getattr(gpupy, op)(x1, x2), expected)


@SETTINGS
@given(d1=xps.scalar_dtypes(), d2=xps.scalar_dtypes())
def test_promotion_matches_reference(d1, d2):
    try:
        expected = strict.result_type(getattr(strict, name(d1)), getattr(strict, name(d2)))
    except TypeError:
        # Mixed-kind promotion is implementation-defined: gpupy follows NumPy there.
        expected = numpy.result_type(name(d1), name(d2))
        assert name(gpupy.result_type(d1, d2)) == expected.name
        return
    expected_name = str(expected).split(".")[-1]
    assert name(gpupy.result_type(d1, d2)) == expected_name
    # The operators promote the same way as result_type.
    one = gpupy.ones((2,), dtype=d1)
    other = gpupy.ones((2,), dtype=d2)
    assert name((one + other).dtype) == expected_name


@SETTINGS
@given(data=st.data())
def test_python_scalars_keep_array_dtype(data):
    dtype = data.draw(xps.numeric_dtypes(), label="dtype")
    x = data.draw(xps.arrays(dtype, SHAPES))
    scalar = {"b": True, "i": 1, "u": 1, "f": 1.5, "c": 1 + 1j}[numpy.dtype(name(dtype)).kind]
    if numpy.dtype(name(dtype)).kind in "iu":
        scalar = 1
    assert_matches("add scalar", x + scalar, to_strict(x) + scalar)


# Statistical functions and their dtype categories; each is drawn with an axis and keepdims.
STATISTICS = [
    ("sum", "numeric"),
    ("prod", "numeric"),
    ("max", "real numeric"),
    ("min", "real numeric"),
    ("mean", "floating"),
    ("std", "real floating"),
    ("var", "real floating"),
    ("all", "any"),
    ("any", "any"),
]


def _axis(data, ndim):
    axes = st.none() | st.integers(-ndim, ndim - 1) if ndim else st.none()
    if ndim >= 2:
        axes = axes | st.lists(
            st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True
        ).map(tuple)
    return data.draw(axes, label="axis")


@pytest.mark.parametrize(("op", "kind"), STATISTICS, ids=[s[0] for s in STATISTICS])
def test_statistics_match_reference(op, kind):
    @SETTINGS
    @given(data=st.data())
    def check(data):
        dtype = data.draw(KINDS[kind], label="dtype")
        x = data.draw(xps.arrays(dtype, NONEMPTY, elements=finite(dtype, 100)))
        axis = _axis(data, x.ndim)
        keepdims = data.draw(st.booleans(), label="keepdims")
        expected = getattr(strict, op)(to_strict(x), axis=axis, keepdims=keepdims)
        got = getattr(gpupy, op)(x, axis=axis, keepdims=keepdims)
        # Summation order differs (pairwise vs blocked), so floating sums agree to rounding.
        assert_matches(op, got, expected, loose=op in ("sum", "prod", "mean", "std", "var"))

    check()


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@SETTINGS
@given(data=st.data())
def test_argmax_argmin_match_reference(op, data):
    dtype = data.draw(xps.real_dtypes(), label="dtype")
    x = data.draw(
        xps.arrays(
            dtype,
            NONEMPTY,
            elements={"allow_nan": False} if numpy.dtype(name(dtype)).kind == "f" else None,
        )
    )
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1), label="axis")
    keepdims = data.draw(st.booleans(), label="keepdims")
    expected = getattr(strict, op)(to_strict(x), axis=axis, keepdims=keepdims)
    assert_matches(op, getattr(gpupy, op)(x, axis=axis, keepdims=keepdims), expected)


@pytest.mark.parametrize("op", ["cumulative_sum", "cumulative_prod"])
@SETTINGS
@given(data=st.data())
def test_cumulative_match_reference(op, data):
    dtype = data.draw(xps.integer_dtypes() | xps.floating_dtypes(), label="dtype")
    x = data.draw(xps.arrays(dtype, NONEMPTY, elements=finite(dtype, 10)))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    include_initial = data.draw(st.booleans(), label="include_initial")
    expected = getattr(strict, op)(to_strict(x), axis=axis, include_initial=include_initial)
    got = getattr(gpupy, op)(x, axis=axis, include_initial=include_initial)
    assert_matches(op, got, expected, loose=True)


# Manipulation, searching, sorting and set functions: (name, draw(data, x) -> (args, kwargs)).
def _axis_arg(data, x):
    return data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")


MANIPULATION = {
    "flip": lambda d, x: ((x,), {"axis": d.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))}),
    "roll": lambda d, x: (
        (x, d.draw(st.integers(-5, 5))),
        {"axis": d.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))},
    ),
    "expand_dims": lambda d, x: ((x,), {"axis": d.draw(st.integers(-x.ndim - 1, x.ndim))}),
    "permute_dims": lambda d, x: ((x, tuple(d.draw(st.permutations(range(x.ndim))))), {}),
    "moveaxis": lambda d, x: ((x, _axis_arg(d, x), _axis_arg(d, x)), {}),
    "reshape": lambda d, x: ((x, (-1,)), {}),
    "tile": lambda d, x: (
        (x, tuple(d.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)))),
        {},
    ),
    "repeat": lambda d, x: (
        (x, d.draw(st.integers(0, 3))),
        {"axis": d.draw(st.none() | st.integers(-x.ndim, x.ndim - 1))},
    ),
    "sort": lambda d, x: (
        (x,),
        {"axis": _axis_arg(d, x), "descending": d.draw(st.booleans()), "stable": True},
    ),
    "argsort": lambda d, x: (
        (x,),
        {"axis": _axis_arg(d, x), "descending": d.draw(st.booleans()), "stable": True},
    ),
    "nonzero": lambda d, x: ((x,), {}),
    "count_nonzero": lambda d, x: (
        (x,),
        {
            "axis": d.draw(st.none() | st.integers(-x.ndim, x.ndim - 1)),
            "keepdims": d.draw(st.booleans()),
        },
    ),
    "unique_values": lambda d, x: ((x,), {}),
    "unique_counts": lambda d, x: ((x,), {}),
    "unique_inverse": lambda d, x: ((x,), {}),
    "unique_all": lambda d, x: ((x,), {}),
    "diff": lambda d, x: ((x,), {"axis": _axis_arg(d, x), "n": d.draw(st.integers(0, 2))}),
    "tril": lambda d, x: ((x,), {"k": d.draw(st.integers(-3, 3))}),
    "triu": lambda d, x: ((x,), {"k": d.draw(st.integers(-3, 3))}),
    "matrix_transpose": lambda d, x: ((x,), {}),
    "unstack": lambda d, x: ((x,), {"axis": _axis_arg(d, x)}),
}
NEEDS_MATRIX = {"tril", "triu", "matrix_transpose"}
REAL_ONLY = {"sort", "argsort", "diff"}  # the standard excludes booleans there


def _as_tuple(result):
    return tuple(result) if isinstance(result, tuple) else (result,)


@pytest.mark.parametrize("op", sorted(MANIPULATION))
def test_manipulation_matches_reference(op):
    @SETTINGS
    @given(data=st.data())
    def check(data):
        min_dims = 2 if op in NEEDS_MATRIX else 1
        dtypes = xps.real_dtypes() if op in REAL_ONLY else xps.real_dtypes() | xps.boolean_dtypes()
        dtype = data.draw(dtypes, label="dtype")
        float_elements = {"allow_nan": False} if numpy.dtype(name(dtype)).kind == "f" else None
        shape = xps.array_shapes(min_dims=min_dims, max_dims=3, min_side=1, max_side=4)
        x = data.draw(xps.arrays(dtype, shape, elements=float_elements))
        args, kwargs = MANIPULATION[op](data, x)
        strict_args = tuple(to_strict(a) if isinstance(a, gpupy.ndarray) else a for a in args)
        expected = _as_tuple(getattr(strict, op)(*strict_args, **kwargs))
        got = _as_tuple(getattr(gpupy, op)(*args, **kwargs))
        for g, e in zip(got, expected, strict=True):
            assert_matches(op, g, e)

    check()


@SETTINGS
@given(data=st.data())
def test_concat_and_stack_match_reference(data):
    dtype = data.draw(xps.scalar_dtypes(), label="dtype")
    x = data.draw(xps.arrays(dtype, NONEMPTY))
    y = data.draw(xps.arrays(dtype, st.just(x.shape)))
    axis = _axis_arg(data, x)
    assert_matches(
        "concat",
        gpupy.concat([x, y], axis=axis),
        strict.concat([to_strict(x), to_strict(y)], axis=axis),
    )
    axis = data.draw(st.integers(-x.ndim - 1, x.ndim), label="stack axis")
    assert_matches(
        "stack",
        gpupy.stack([x, y], axis=axis),
        strict.stack([to_strict(x), to_strict(y)], axis=axis),
    )


@SETTINGS
@given(data=st.data())
def test_where_clip_and_take_match_reference(data):
    dtype = data.draw(xps.real_dtypes(), label="dtype")
    float_elements = {"allow_nan": False} if numpy.dtype(name(dtype)).kind == "f" else None
    x = data.draw(xps.arrays(dtype, NONEMPTY, elements=float_elements))
    y = data.draw(xps.arrays(dtype, st.just(x.shape), elements=float_elements))
    condition = data.draw(xps.arrays(xps.boolean_dtypes(), st.just(x.shape)))
    sx, sy, sc = to_strict(x), to_strict(y), to_strict(condition)
    assert_matches("where", gpupy.where(condition, x, y), strict.where(sc, sx, sy))
    low, high = gpupy.minimum(x, y), gpupy.maximum(x, y)
    assert_matches(
        "clip", gpupy.clip(x, low, high), strict.clip(sx, to_strict(low), to_strict(high))
    )
    axis = _axis_arg(data, x)
    n = x.shape[axis]
    indices = data.draw(st.lists(st.integers(-n, n - 1), max_size=5), label="indices")
    index_array = gpupy.asarray(indices, dtype=gpupy.int64)
    expected = strict.take(sx, strict.asarray(indices, dtype=strict.int64), axis=axis)
    assert_matches("take", gpupy.take(x, index_array, axis=axis), expected)


@SETTINGS
@given(data=st.data())
def test_searchsorted_matches_reference(data):
    dtype = data.draw(xps.real_dtypes(), label="dtype")
    float_elements = {"allow_nan": False} if numpy.dtype(name(dtype)).kind == "f" else None
    x1 = gpupy.sort(
        data.draw(
            xps.arrays(dtype, xps.array_shapes(min_dims=1, max_dims=1), elements=float_elements)
        )
    )
    x2 = data.draw(xps.arrays(dtype, SHAPES, elements=float_elements))
    side = data.draw(st.sampled_from(["left", "right"]), label="side")
    expected = strict.searchsorted(to_strict(x1), to_strict(x2), side=side)
    assert_matches("searchsorted", gpupy.searchsorted(x1, x2, side=side), expected)


@SETTINGS
@given(data=st.data())
def test_linear_algebra_matches_reference(data):
    dtype = data.draw(xps.floating_dtypes() | xps.integer_dtypes(), label="dtype")
    small = {"min_value": -8, "max_value": 8}
    if numpy.dtype(name(dtype)).kind == "f":
        small = {"min_value": -8, "max_value": 8, "allow_nan": False, "allow_infinity": False}
    m, k, n = (data.draw(st.integers(1, 4)) for _ in range(3))
    a = data.draw(xps.arrays(dtype, st.just((m, k)), elements=small))
    b = data.draw(xps.arrays(dtype, st.just((k, n)), elements=small))
    sa, sb = to_strict(a), to_strict(b)
    assert_matches("matmul", gpupy.matmul(a, b), strict.matmul(sa, sb), loose=True)
    assert_matches(
        "tensordot", gpupy.tensordot(a, b, axes=1), strict.tensordot(sa, sb, axes=1), loose=True
    )
    c = data.draw(xps.arrays(dtype, st.just((m, k)), elements=small))
    assert_matches("vecdot", gpupy.vecdot(a, c), strict.vecdot(sa, to_strict(c)), loose=True)
