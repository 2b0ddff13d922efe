"""The layout of element-wise results (ufuncs, operators, comparisons, where): NumPy's order='K'
keeps the inputs' memory order, and order='C'/'F'/'A' names one. Values, strides and contiguity
flags must be NumPy's on every device."""

import gpupy
import numpy
import pytest
from layout_helpers import HOST, SAME_SHAPE, VIEW_NAMES, same, view_of


@pytest.mark.parametrize("view", VIEW_NAMES)
@pytest.mark.parametrize("fn", ["negative", "exp", "isnan", "floor", "absolute"])
def test_unary_keeps_the_layout(fn, view):
    got, expected = view_of(view, gpupy), view_of(view, numpy)
    same(getattr(gpupy, fn)(got), getattr(numpy, fn)(expected))


@pytest.mark.filterwarnings("ignore:invalid value encountered in sqrt")
@pytest.mark.parametrize("view", VIEW_NAMES)
def test_unary_that_casts_its_input_keeps_the_layout(view):
    ints = (HOST * 2).astype(numpy.int16)
    same(gpupy.sqrt(view_of(view, gpupy, ints)), numpy.sqrt(view_of(view, numpy, ints)))
    same(gpupy.square(view_of(view, gpupy, ints)), numpy.square(view_of(view, numpy, ints)))


@pytest.mark.parametrize("view", VIEW_NAMES)
def test_operators_keep_the_layout(view):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(-got, -x)
    same(got + 1, x + 1)
    same(2.5 * got, 2.5 * x)
    same(got**2, x**2)  # the square shortcut
    same(got**3, x**3)
    same(got > 0, x > 0)
    same(got == got, x == x)
    same(got + numpy.float32(1), x + numpy.float32(1))


@pytest.mark.parametrize("right", SAME_SHAPE)
@pytest.mark.parametrize("left", SAME_SHAPE)
def test_binary_of_two_layouts(left, right):
    a, b = view_of(left, gpupy), view_of(right, gpupy)
    x, y = view_of(left, numpy), view_of(right, numpy)
    same(gpupy.add(a, b), numpy.add(x, y))
    same(gpupy.less(a, b), numpy.less(x, y))


@pytest.mark.parametrize("view", ["C", "F", "permuted", "negative_T", "size1_axis"])
@pytest.mark.parametrize(
    "other",
    [
        lambda xp, s: xp.asarray(numpy.arange(s[-1], dtype=numpy.float32)),  # a row
        lambda xp, s: xp.asarray(numpy.arange(s[0] * 1.0).reshape(s[0], *[1] * (len(s) - 1))),
        lambda xp, s: xp.asarray(numpy.float64(2.0)),  # a 0-d array
        lambda xp, s: xp.ones(s[1:], order="F"),
    ],
    ids=["row", "column", "zero_d", "trailing_F"],
)
def test_binary_with_broadcasting(view, other):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(gpupy.multiply(got, other(gpupy, got.shape)), numpy.multiply(x, other(numpy, x.shape)))
    same(gpupy.subtract(other(gpupy, got.shape), got), numpy.subtract(other(numpy, x.shape), x))


def test_two_dimensional_transposes():
    m = numpy.arange(12.0).reshape(3, 4)
    g = gpupy.asarray(m)
    for got, expected in [
        (gpupy.exp(g.T), numpy.exp(m.T)),
        (g.T + 1, m.T + 1),
        (g.T + g.T, m.T + m.T),
        (g.T * g[0][:, None], m.T * m[0][:, None]),
        (g.T + g[::-1].T, m.T + m[::-1].T),
        (g.T - gpupy.asarray(numpy.ascontiguousarray(m.T)), m.T - numpy.ascontiguousarray(m.T)),
    ]:
        assert got.flags.f_contiguous == expected.flags.f_contiguous
        same(got, expected)


@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (0, 4, 2), (1, 1), (5, 1, 1)])
def test_zero_d_and_empty_shapes(shape):
    h = numpy.arange(float(numpy.prod(shape))).reshape(shape)
    for g, x in [(gpupy.asarray(h), h), (gpupy.asarray(h).T, h.T)]:
        same(gpupy.exp(g), numpy.exp(x), strides=x.size > 0)
        same(g + g, x + x, strides=x.size > 0)
        same(g > 0, x > 0, strides=x.size > 0)


@pytest.mark.parametrize("order", ["K", "A", "C", "F", "k", None])
@pytest.mark.parametrize("view", VIEW_NAMES)
def test_explicit_order(view, order):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(gpupy.exp(got, order=order), numpy.exp(x, order=order))
    same(gpupy.add(got, 1, order=order), numpy.add(x, 1, order=order))
    same(gpupy.add(got, got, order=order), numpy.add(x, x, order=order))
    fortran, fortran_np = gpupy.ones(got.shape, order="F"), numpy.ones(x.shape, order="F")
    same(gpupy.add(got, fortran, order=order), numpy.add(x, fortran_np, order=order))
    same(gpupy.greater(got, 0, order=order), numpy.greater(x, 0, order=order))


@pytest.mark.parametrize("order", ["K", "C", "F"])
def test_order_with_keywords(order):
    got, x = view_of("permuted", gpupy), view_of("permuted", numpy)
    same(
        gpupy.add(got, 1, dtype="float32", order=order),
        numpy.add(x, 1, dtype="float32", order=order),
    )
    same(
        gpupy.clip(got, -1.0, 1.0),  # the three-input row: NumPy's layout too
        numpy.clip(x, -1.0, 1.0),
    )


def test_bad_order_names_the_ufunc():
    g = gpupy.ones((2, 2))
    with pytest.raises(ValueError, match=r"\[exp\] order must be one of 'C', 'F', 'A', or 'K'"):
        gpupy.exp(g, order="X")
    with pytest.raises(TypeError, match=r"\[add\] order must be str, not int"):
        gpupy.add(g, g, order=1)
    with pytest.raises(ValueError, match=r"\[add\] order must be one of"):
        gpupy.add(g, g, order="CF")
    for fn in (lambda: numpy.exp(g.get(), order="X"), lambda: numpy.add(1, 1, order=1)):
        with pytest.raises((ValueError, TypeError)):
            fn()


@pytest.mark.parametrize("out_layout", ["C", "F", "permuted"])
@pytest.mark.parametrize("view", ["C", "F", "permuted", "negative_T", "broadcast"])
def test_out_keeps_its_own_layout(view, out_layout):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    s = x.shape
    out, out_np = {
        "C": (gpupy.zeros(s), numpy.zeros(s)),
        "F": (gpupy.zeros(s, order="F"), numpy.zeros(s, order="F")),
        "permuted": tuple(xp.zeros((s[1], s[2], s[0])).transpose(2, 0, 1) for xp in (gpupy, numpy)),
    }[out_layout]
    strides = out.strides
    assert gpupy.exp(got, out=out) is out
    numpy.exp(x, out=out_np)
    assert out.strides == strides
    numpy.testing.assert_allclose(out.get(), out_np, rtol=1e-14, atol=0)
    # an out of another dtype: computed in float64, cast on the way in
    out32 = gpupy.zeros(got.shape, dtype="float32", order="F")
    gpupy.multiply(got, 3, out=out32)
    assert out32.flags.f_contiguous
    numpy.testing.assert_array_equal(out32.get(), (x * 3).astype(numpy.float32))


@pytest.mark.parametrize("view", ["F", "permuted", "negative_T", "strided_F"])
def test_in_place_operators(view):
    got, x = view_of(view, gpupy).copy(order="K"), view_of(view, numpy).copy(order="K")
    strides = got.strides
    got += 1
    got *= got.T.T
    got -= got[..., :1]  # an input that overlaps the output other than element for element
    x += 1
    x *= x.T.T
    x -= x[..., :1].copy()
    assert got.strides == strides
    numpy.testing.assert_array_equal(got.get(), x)


@pytest.mark.parametrize("view", ["F", "permuted", "negative_T", "broadcast_T"])
def test_comparisons_of_mixed_signs_and_out_of_range_scalars(view):
    ints = (HOST * 2).astype(numpy.int8)
    got, x = view_of(view, gpupy, ints), view_of(view, numpy, ints)
    unsigned = numpy.uint64(2**63 + 5)
    same(got < unsigned, x < unsigned)
    big = numpy.full(x.shape, unsigned)
    same(gpupy.less(got, gpupy.asarray(big)), numpy.less(x, big))
    same(got.astype("uint8") == -1, x.astype("uint8") == -1)
    same(got != 1000, x != 1000)


@pytest.mark.parametrize("view_x", SAME_SHAPE)
@pytest.mark.parametrize("view_cond", ["C", "F", "relaid", "negative_F"])
def test_where_keeps_the_layout(view_cond, view_x):
    cond_g = view_of(view_cond, gpupy) > 0
    cond = view_of(view_cond, numpy) > 0
    xg, x = view_of(view_x, gpupy), view_of(view_x, numpy)
    same(gpupy.where(cond_g, xg, 0), numpy.where(cond, x, 0))
    same(gpupy.where(cond_g, 1.5, xg), numpy.where(cond, 1.5, x))
    same(gpupy.where(cond_g, 1, 2), numpy.where(cond, 1, 2))
    same(gpupy.where(cond_g, xg.astype("float32"), xg), numpy.where(cond, x.astype("f4"), x))


def test_where_with_a_scalar_condition_and_broadcast_values():
    got, x = view_of("F", gpupy), view_of("F", numpy)
    same(gpupy.where(True, got, 0), numpy.where(True, x, 0))
    row, row_np = gpupy.arange(4.0), numpy.arange(4.0)
    same(gpupy.where(got > 0, row, got), numpy.where(x > 0, row_np, x))


@pytest.mark.parametrize("view", ["F", "permuted", "negative_T", "broadcast", "size1_axis"])
def test_copies_and_likes_keep_numpys_layout(view):
    # NumPy's 'K' for copies and *_like sorts one array's strides (broadcast axes included),
    # which is not the ufuncs' rule for broadcast and length-1 axes.
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(got.astype("float32"), x.astype("float32"))
    same(got.copy(order="K"), x.copy(order="K"))
    same(gpupy.array(got, copy=True, order="K"), numpy.array(x, copy=True, order="K"))
    same(gpupy.zeros_like(got), numpy.zeros_like(x))
    same(gpupy.full_like(got, 4, dtype="int8"), numpy.full_like(x, 4, dtype="int8"))
    assert gpupy.empty_like(got).strides == numpy.empty_like(x).strides
    assert gpupy.ones_like(got).strides == numpy.ones_like(x).strides


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "complex128"])
@pytest.mark.parametrize("decimals", [0, 1, -1])
@pytest.mark.parametrize("view", ["F", "permuted", "negative", "relaid"])
def test_round_and_clip_layout(view, decimals, dtype):
    # NumPy's round keeps x's layout for decimals=0, integers and complex; scaled real results
    # are C-ordered unless x is F-ordered.
    data = (HOST * 1.37).astype(dtype)
    got, x = view_of(view, gpupy, data), view_of(view, numpy, data)
    same(gpupy.round(got, decimals), numpy.round(x, decimals))
    same(gpupy.clip(got, 1, 5), numpy.clip(x, 1, 5))


_REDUCTIONS = {
    "sum": lambda xp, a, k: a.sum(1, keepdims=k),
    "sum_two_axes": lambda xp, a, k: a.sum((0, 2), keepdims=k),
    "sum_int32": lambda xp, a, k: a.astype("int32").sum(1, keepdims=k),
    "sum_float32": lambda xp, a, k: a.sum(2, dtype="float32", keepdims=k),
    "prod": lambda xp, a, k: xp.prod(a, axis=0, keepdims=k),
    "max": lambda xp, a, k: a.max(1, keepdims=k),
    "any": lambda xp, a, k: (a > 3).any(2, keepdims=k),
    "mean": lambda xp, a, k: a.mean(1, keepdims=k),
    "mean_int": lambda xp, a, k: a.astype("int16").mean(1, keepdims=k),
    "mean_bool": lambda xp, a, k: (a > 0).mean(0, keepdims=k),
    "mean_float16": lambda xp, a, k: a.astype("float16").mean(2, keepdims=k),
    "var": lambda xp, a, k: a.var(1, keepdims=k),
    "std": lambda xp, a, k: a.std(0, ddof=1, keepdims=k),
    "argmax": lambda xp, a, k: a.argmax(1, keepdims=k),  # NumPy's are C-ordered
    "count_nonzero": lambda xp, a, k: xp.count_nonzero(a, axis=1, keepdims=k),
}


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("view", ["C", "F", "permuted", "negative_T", "relaid", "size1_axis"])
@pytest.mark.parametrize("name", list(_REDUCTIONS))
def test_reductions_keep_the_layout(name, view, keepdims):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    fn = _REDUCTIONS[name]
    expected = fn(numpy, x, keepdims)
    result = fn(gpupy, got, keepdims)
    if expected.dtype == numpy.float16:
        numpy.testing.assert_allclose(result.get(), expected, rtol=2e-3)
        assert result.strides == expected.strides
    else:
        same(result, expected)


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("shape", [(4, 1, 3), (1, 3), (3, 1), (1, 1, 5), (2, 1, 1, 3)])
def test_contiguous_inputs_with_length_one_axes(shape, order):
    # NumPy's shortcut for contiguous inputs of one shape sets the length-1 axes' strides
    h = numpy.arange(float(numpy.prod(shape))).reshape(shape)
    for g, x in [(gpupy.asarray(h), h), (gpupy.asarray(h).T, h.T)]:
        same(gpupy.exp(g, order=order), numpy.exp(x, order=order))
        same(gpupy.add(g, g, order=order), numpy.add(x, x, order=order))
        same(gpupy.add(g, 2, order=order), numpy.add(x, 2, order=order))
        same(gpupy.where(g > 1, g, 0), numpy.where(x > 1, x, 0))
        same(g.sum(0, keepdims=True), x.sum(0, keepdims=True))


_ALONG_AXES = {
    "cumsum": lambda xp, a: xp.cumsum(a, 1),
    "cumsum_int16": lambda xp, a: xp.cumsum(a.astype("int16"), 2),
    "cumprod_float32": lambda xp, a: xp.cumprod(a, 0, dtype="float32"),
    "cumulative_sum_initial": lambda xp, a: xp.cumulative_sum(a, axis=1, include_initial=True),
    "add_accumulate": lambda xp, a: xp.add.accumulate(a, 2),
    "sort": lambda xp, a: xp.sort(a, 1),
    "sort_float16": lambda xp, a: xp.sort(a.astype("float16"), 0),
    "partition": lambda xp, a: xp.partition(a, 1, 1),
    "argsort": lambda xp, a: xp.argsort(a, 1),  # NumPy's indices are C-ordered
    "argpartition": lambda xp, a: xp.argpartition(a, 1, 2),
    "median": lambda xp, a: xp.median(a, 1),
    "quantile": lambda xp, a: xp.quantile(a, 0.3, axis=1),  # C-ordered in NumPy
    "quantiles": lambda xp, a: xp.quantile(a, [0.3, 0.8], axis=2),
    "percentile_lower": lambda xp, a: xp.percentile(a, 40, axis=0, method="lower"),
}


@pytest.mark.parametrize("view", ["C", "F", "permuted", "negative_T", "relaid"])
@pytest.mark.parametrize("name", list(_ALONG_AXES))
def test_sorts_scans_and_quantiles_keep_numpys_layout(name, view):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    fn = _ALONG_AXES[name]
    expected, result = fn(numpy, x), fn(gpupy, got)
    if expected.dtype == numpy.float16:
        numpy.testing.assert_array_equal(result.get(), expected)
        assert result.strides == expected.strides
    else:
        same(result, expected)


@pytest.mark.parametrize("view", ["F", "permuted", "negative_T", "relaid"])
def test_functions_built_on_element_wise_ops_keep_numpys_layout(view):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(gpupy.isin(got, gpupy.asarray([-7.5, 0.5])), numpy.isin(x, [-7.5, 0.5]))  # C-ordered
    same(
        gpupy.select([got > 0, got < -3], [got, -got], 1.5),
        numpy.select([x > 0, x < -3], [x, -x], 1.5),
    )
    same(gpupy.nan_to_num(got), numpy.nan_to_num(x))
    same(gpupy.diff(got, axis=1), numpy.diff(x, axis=1))
    same(gpupy.divmod(got, 3)[1], numpy.divmod(x, 3)[1])
    same(gpupy.modf(got)[0], numpy.modf(x)[0])


_JOINS = {
    "concatenate": lambda xp, a: xp.concatenate([a, a], 1),
    "concatenate_with_c": lambda xp, a: xp.concatenate([a, xp.ascontiguousarray(a)], 0),
    "concatenate_cast": lambda xp, a: xp.concatenate([a, a.astype("int32")], 2),
    "stack": lambda xp, a: xp.stack([a, a]),
    "stack_inner": lambda xp, a: xp.stack([a, a], axis=2),
    "vstack": lambda xp, a: xp.vstack([a, a]),
    "hstack": lambda xp, a: xp.hstack([a, a]),
}


@pytest.mark.parametrize("view", VIEW_NAMES)
@pytest.mark.parametrize("name", list(_JOINS))
def test_joins_keep_numpys_layout(name, view):
    # NumPy's concatenate sorts the axes by the inputs' strides (length-1 axes aside)
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(_JOINS[name](gpupy, got), _JOINS[name](numpy, x))
