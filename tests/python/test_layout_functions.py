"""Layouts of functions NumPy composes from others (piecewise, gradient, diff with prepend=,
nanmedian, the medians' and quantiles' keepdims=): values, strides and contiguity flags must be
NumPy's on every device."""

import gpupy
import numpy
import pytest
from layout_helpers import HOST, VIEW_NAMES, same, view_of

_KEEPING = ["C", "F", "permuted", "negative_T", "relaid", "strided_F", "size1_axis"]


@pytest.mark.parametrize("view", _KEEPING)
def test_piecewise_fills_a_zeros_like(view):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(gpupy.piecewise(got, [got > 0], [1.5, -2.0]), numpy.piecewise(x, [x > 0], [1.5, -2.0]))
    funcs = [lambda v: v * 2, lambda v: -v, 7.0]
    same(
        gpupy.piecewise(got, [got > 3, got < -3], funcs),
        numpy.piecewise(x, [x > 3, x < -3], funcs),
    )


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("view", ["C", "F", "permuted", "negative_T", "relaid"])
def test_gradient_fills_an_empty_like(view, edge_order):
    base = numpy.linspace(0.0, 2.0, 3 * 4 * 5).reshape(3, 4, 5) ** 3  # 3 points on every axis
    got, x = view_of(view, gpupy, base), view_of(view, numpy, base)
    gradients = zip(
        gpupy.gradient(got, edge_order=edge_order),
        numpy.gradient(x, edge_order=edge_order),
        strict=True,
    )
    for g, e in gradients:
        same(g, e)
    spacing = [0.0, 1.0, 3.0, 3.5, 5.0][: x.shape[1]]
    same(
        gpupy.gradient(got.astype("float32"), gpupy.asarray(spacing), axis=1),
        numpy.gradient(x.astype("float32"), spacing, axis=1),
    )


_EDGES = {
    "prepend_scalar": lambda xp, a: xp.diff(a, axis=0, prepend=0.5),
    "append_scalar": lambda xp, a: xp.diff(a, axis=2, append=-1),
    "prepend_slice": lambda xp, a: xp.diff(a, axis=1, prepend=a[:, :1]),
    "both_c": lambda xp, a: xp.diff(a, 2, axis=-1, prepend=xp.ascontiguousarray(a), append=a),
}


@pytest.mark.parametrize("view", VIEW_NAMES)
@pytest.mark.parametrize("name", list(_EDGES))
def test_diff_with_edges_concatenates_as_numpy(name, view):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(_EDGES[name](gpupy, got), _EDGES[name](numpy, x))


_AXES = [0, 1, -1, (0,), (0, 2), (2, 0, 1), None]


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", _AXES)
@pytest.mark.parametrize("view", ["C", "F", "permuted", "negative_T", "relaid", "strided"])
def test_nanmedian_keeps_the_layout_of_short_rows(view, axis, keepdims):
    base = HOST.copy()
    base[0, 1, 2] = numpy.nan
    got, x = view_of(view, gpupy, base), view_of(view, numpy, base)
    same(gpupy.nanmedian(got, axis, keepdims=keepdims), numpy.nanmedian(x, axis, keepdims=keepdims))


def test_nanmedian_of_rows_of_600_or_more_is_c_ordered():
    # NumPy applies its 1-d nanmedian along the axis there (apply_along_axis: C order)
    host = numpy.linspace(-1.0, 1.0, 3 * 600 * 2).reshape(3, 600, 2)
    host[1, 5, 1] = numpy.nan
    for n in (599, 600):
        x = numpy.asfortranarray(host[:, :n])
        got = gpupy.asarray(x)
        assert got.flags.f_contiguous
        same(gpupy.nanmedian(got, axis=1), numpy.nanmedian(x, axis=1))


_KEEPDIMS = {
    "median": lambda xp, a, axis: xp.median(a, axis, keepdims=True),
    "quantile": lambda xp, a, axis: xp.quantile(a, 0.3, axis, keepdims=True),
    "quantiles": lambda xp, a, axis: xp.quantile(a, [0.2, 0.7], axis, keepdims=True),
    "percentile_nearest": lambda xp, a, axis: xp.percentile(
        a, 40, axis, method="nearest", keepdims=True
    ),
    "nanquantile": lambda xp, a, axis: xp.nanquantile(a, [0.5], axis, keepdims=True),
    "nanquantiles": lambda xp, a, axis: xp.nanquantile(a, [0.5, 0.1], axis, keepdims=True),
    "nanquantiles_kept": lambda xp, a, axis: xp.nanquantile(a, [0.5, 0.1, 0.9], axis),
    "nanpercentile": lambda xp, a, axis: xp.nanpercentile(a, 25, axis, keepdims=True),
    "weighted_quantile": lambda xp, a, axis: xp.quantile(
        a, 0.4, axis, method="inverted_cdf", keepdims=True, weights=xp.ones_like(a)
    ),
}


@pytest.mark.parametrize("axis", [0, -1, (0, 2), None])
@pytest.mark.parametrize("view", ["C", "F", "permuted"])
@pytest.mark.parametrize("name", list(_KEEPDIMS))
def test_median_and_quantile_keepdims_are_zero_stride_axes(name, view, axis):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(_KEEPDIMS[name](gpupy, got, axis), _KEEPDIMS[name](numpy, x, axis))


# Contractions of (2, 3, 4) views (i, j, k): NumPy's unoptimised einsum lays out its result by
# its iterator over the output and summed labels (one-operand forms without a sum are NumPy views
# and gpupy copies, so they are left out).
_EINSUMS = {
    "sum_one_axis": ("ijk->ij", lambda a: [a]),
    "permute_and_sum": ("ijk->kj", lambda a: [a]),
    "product": ("ijk,ijk->ijk", lambda a: [a, a]),
    "batched_matmul": ("ijk,ilk->ijl", lambda a: [a, a]),
    "matmul": ("jk,lk->jl", lambda a: [a[0], a[-1]]),
    "outer": ("ij,k->ijk", lambda a: [a[0], a[-1, 0]]),
    "dots": ("ijk,ijk->ji", lambda a: [a, a]),
    "implicit": ("jk,ik", lambda a: [a[0], a[-1]]),
    "chain": ("ij,jk,kl->il", lambda a: [a[0], a[-1].T, a[0]]),
}


@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@pytest.mark.parametrize("view", VIEW_NAMES)
@pytest.mark.parametrize("name", list(_EINSUMS))
def test_einsum_lays_out_its_result_as_numpy(name, view, order):
    spec, operands = _EINSUMS[name]
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(
        gpupy.einsum(spec, *operands(got), order=order),
        numpy.einsum(spec, *operands(x), order=order),
    )


def test_einsum_refuses_a_bad_order():
    a = gpupy.ones((2, 2))
    with pytest.raises(ValueError, match=r"\[einsum\] order must be one of"):
        gpupy.einsum("ij->i", a, order="Q")


def _ix(xp, values):
    return xp.asarray(numpy.asarray(values))


# Advanced indices into (2, 3, 4)-like views: NumPy puts the index dims outermost (in C order)
# and the kept axes inside them in the view's stride order; with no kept axis, the index arrays'
# memory order. take and compress are C-ordered.
_GATHERS = {
    "rows": lambda xp, a: a[_ix(xp, [-1, 0, -1])],
    "middle": lambda xp, a: a[:, _ix(xp, [-1, 0])],
    "last": lambda xp, a: a[..., _ix(xp, [-1, 0])],
    "two_d_index_F": lambda xp, a: a[:, xp.asfortranarray(_ix(xp, [[0, -1, -1], [-1, 0, 0]]))],
    "all_axes_F": lambda xp, a: a[
        xp.asfortranarray(_ix(xp, [[0, -1], [-1, 0]])),
        xp.asfortranarray(_ix(xp, [[0, 0], [-1, 0]])),
        xp.asfortranarray(_ix(xp, [[-1, 0], [0, -1]])),
    ],
    "all_axes_mixed": lambda xp, a: a[
        xp.asfortranarray(_ix(xp, [[0, -1], [-1, 0]])), _ix(xp, [[0, 0], [-1, 0]]), 0
    ],
    "separated": lambda xp, a: a[_ix(xp, [-1, 0]), :, _ix(xp, [0, -1])],
    "new_axis": lambda xp, a: a[:, None, _ix(xp, [-1, 0])],
    "integer_and_index": lambda xp, a: a[-1, :, _ix(xp, [0, -1])],
    "mask": lambda xp, a: a[a > 0],
    "row_mask": lambda xp, a: a[
        :, _ix(xp, [True] + [False, True] * (a.shape[1] // 2))[: a.shape[1]]
    ],
    "zero_d_index": lambda xp, a: a[_ix(xp, -1)],
    "length_one_index": lambda xp, a: a[_ix(xp, [-1])],
    "take_along_axis": lambda xp, a: xp.take_along_axis(a, xp.argsort(a, axis=1), axis=1),
    "take": lambda xp, a: xp.take(a, _ix(xp, [-1, 0]), axis=1),
    "take_flat": lambda xp, a: xp.take(a, _ix(xp, [[3, 0], [1, -1]])),
    "compress": lambda xp, a: xp.compress(_ix(xp, [True, False]), a, axis=0),
}


@pytest.mark.parametrize("view", VIEW_NAMES)
@pytest.mark.parametrize("name", list(_GATHERS))
def test_advanced_indexing_lays_out_its_result_as_numpy(name, view):
    got, x = view_of(view, gpupy), view_of(view, numpy)
    same(_GATHERS[name](gpupy, got), _GATHERS[name](numpy, x))
