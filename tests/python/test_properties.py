"""Hypothesis properties against NumPy: broadcasting elementwise ops and reductions over random
shapes, dtypes and axes, on the device under test."""

import math

import gpupy
import numpy as np
from gpupy import testing
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

DTYPES = list(testing.ALL_DTYPES)
BINARY = [
    "add",
    "subtract",
    "multiply",
    "maximum",
    "minimum",
    "equal",
    "less",
    "greater_equal",
    "bitwise_and",
    "logical_xor",
    "floor_divide",
    "true_divide",
    "arctan2",
    "hypot",
]
UNARY = [
    "negative",
    "absolute",
    "sqrt",
    "exp",
    "sin",
    "floor",
    "isnan",
    "sign",
    "square",
    "logical_not",
    "invert",
]
REDUCTIONS = ["sum", "prod", "min", "max", "mean", "any", "all", "argmax", "argmin"]
SETTINGS = settings(max_examples=60, deadline=None)


def _values(dtype, shape, seed):
    """Deterministic data of `dtype`: small magnitudes so float32 sums stay well conditioned."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == "bool":
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if dtype.startswith(("int", "uint")):
        return rng.integers(0 if dtype.startswith("u") else -9, 10, n).astype(dtype).reshape(shape)
    values = rng.uniform(0.5, 2.0, n) * rng.choice([-1, 1], n)
    if dtype.startswith("complex"):
        values = values + 1j * rng.uniform(-1, 1, n)
    return values.astype(dtype).reshape(shape)


def _rtol(name, *inputs):
    """1e-5, or one float16 ulp where NumPy computes in float16 (math functions of bool, int8 and
    uint8: NumPy and gpupy compute them in float32 and round)."""
    with np.errstate(all="ignore"):
        try:
            result = getattr(np, name)(*inputs)
        except TypeError:
            return 1e-5
    return 1e-3 if np.asarray(result).dtype == np.float16 else 1e-5


def _gpupy_name(name):
    return "divide" if name == "true_divide" else name


@SETTINGS
@given(
    shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, max_side=4),
    dtypes=st.tuples(st.sampled_from(DTYPES), st.sampled_from(DTYPES)),
    name=st.sampled_from(BINARY),
    seed=st.integers(0, 2**16),
)
def test_binary_ops_broadcast_like_numpy(shapes, dtypes, name, seed):
    a = _values(dtypes[0], shapes.input_shapes[0], seed)
    b = _values(dtypes[1], shapes.input_shapes[1], seed + 1)

    @testing.numpy_gpupy_allclose(rtol=_rtol(name, a, b), accept_error=True)
    def check(xp):
        op = getattr(np, name) if xp is np else getattr(gpupy, _gpupy_name(name))
        return op(xp.asarray(a), xp.asarray(b))

    check()


@SETTINGS
@given(
    shape=hnp.array_shapes(min_dims=0, max_dims=4, max_side=5),
    dtype=st.sampled_from(DTYPES),
    name=st.sampled_from(UNARY),
    seed=st.integers(0, 2**16),
)
def test_unary_ops_like_numpy(shape, dtype, name, seed):
    a = _values(dtype, shape, seed)

    @testing.numpy_gpupy_allclose(rtol=_rtol(name, a), accept_error=True)
    def check(xp):
        return getattr(xp, name)(xp.asarray(a))

    check()


@st.composite
def _shape_and_axis(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=4, min_side=1, max_side=5))
    axes = draw(st.one_of(st.none(), st.lists(st.integers(0, len(shape) - 1), unique=True)))
    if axes is not None and draw(st.booleans()):
        axes = [ax - len(shape) for ax in axes]  # negative spelling
    return shape, None if axes is None else tuple(axes)


@SETTINGS
@given(
    case=_shape_and_axis(),
    dtype=st.sampled_from(DTYPES),
    name=st.sampled_from(REDUCTIONS),
    keepdims=st.booleans(),
    seed=st.integers(0, 2**16),
)
def test_reductions_like_numpy(case, dtype, name, keepdims, seed):
    shape, axes = case
    a = _values(dtype, shape, seed)
    if name in ("argmax", "argmin"):
        axes = None if not axes else axes[0]  # one axis (or flattened) only

    # NumPy adds float16 values in float16 along a non-inner axis, rounding at every step (up
    # to half an ulp of the partial sum per term); gpupy rounds once. A sum that cancels
    # (terms of magnitude up to 2) can then differ by n ulps of 2 in absolute terms.
    n_reduced = a.size if axes is None else math.prod(shape[ax] for ax in np.atleast_1d(axes))
    float16_atol = n_reduced * 2.0 * 2.0**-10

    @testing.numpy_gpupy_allclose(
        rtol=1e-5, atol={"float32": 1e-5, "complex64": 1e-5, "float16": float16_atol}
    )
    def check(xp):
        return getattr(xp, name)(xp.asarray(a), axis=axes, keepdims=keepdims)

    check()
