"""xp.algorithms (spec section 5): Morton keys, sort_by_key, segment sums, cell offsets, segment
boundaries and compaction, on the NumPy backend and on gpupy arrays of the --device device,
against references written out here (bit loops, Python sums, NumPy's own sort and indexing)."""

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import algorithms as alg


@pytest.fixture(params=["numpy", "gpupy"])
def on(request):
    """A function that puts host data on the backend under test (gpupy: the --device device)."""
    if request.param == "numpy":
        return numpy.array
    return gpupy.array  # a copy on every device (on cpu, asarray may share the NumPy memory)


def host(a):
    return xp.to_numpy(a)


def interleave(cells, ndim):
    """The Morton key of one point, bit by bit: bit b of axis a goes to bit ndim * b + a."""
    key = 0
    for b in range(64 // ndim + 1):
        for a, c in enumerate(cells):
            key |= ((int(c) >> b) & 1) << (ndim * b + a)
    return key & (2**64 - 1)


# ---- Morton keys ----


def test_morton_known_keys_and_limits():
    assert alg.MAX_MORTON_LEVELS == {2: 32, 3: 21}
    assert int(alg.morton_encode(0b11, 0b01)) == 0b0111
    assert int(alg.morton_encode(1, 1, 1)) == 7 and int(alg.morton_encode(2, 0, 0)) == 8
    assert int(alg.morton_encode(2**32 - 1, 0)) == 0x5555555555555555
    assert int(alg.morton_encode(0, 2**32 - 1)) == 0xAAAAAAAAAAAAAAAA
    assert int(alg.morton_encode(2**21 - 1, 0, 0)) == 0x1249249249249249
    assert int(alg.morton_encode(2**21 - 1, 2**21 - 1, 2**21 - 1)) == 2**63 - 1
    assert int(alg.morton_encode_2d(5, 3)) == int(alg.morton_encode(5, 3))


@pytest.mark.parametrize("ndim", [2, 3])
def test_morton_encode_and_decode_match_a_bit_loop(on, ndim):
    bits = alg.MAX_MORTON_LEVELS[ndim]
    rng = numpy.random.default_rng(ndim)
    cells = rng.integers(0, 2**bits, (ndim, 300), dtype=numpy.uint64)
    keys = alg.morton_encode(*(on(c) for c in cells))
    assert type(keys) is type(on(cells[0])) and keys.dtype == numpy.uint64
    want = [interleave(p, ndim) for p in cells.T]
    assert host(keys).tolist() == want
    back = alg.morton_decode(keys, ndim)
    assert len(back) == ndim
    for axis in range(ndim):
        numpy.testing.assert_array_equal(host(back[axis]), cells[axis])
    # broadcasting: one row of x against a column of y
    grid = alg.morton_encode(on(numpy.arange(4)), on(numpy.arange(3)[:, None]), *[0] * (ndim - 2))
    assert host(grid).shape == (3, 4) and int(host(grid)[2, 1]) == interleave(
        (1, 2, 0)[:ndim], ndim
    )


@pytest.mark.parametrize("ndim, levels", [(2, 5), (2, 32), (3, 1), (3, 21)])
def test_morton_keys_match_cells_computed_here(on, ndim, levels):
    rng = numpy.random.default_rng(levels)
    lower, upper = numpy.array([-1.0, 0.5, 2.0][:ndim]), numpy.array([3.0, 1.5, -2.0][:ndim])
    pos = rng.uniform(-3.0, 4.0, (400, ndim))  # some points outside the box
    pos[:3] = lower  # on the lower corner
    pos[3:6] = upper  # on the upper corner: the last cell
    keys = alg.morton_keys(on(pos), lower, upper, levels)
    scale = 2.0**levels / (upper - lower)
    numpy.testing.assert_array_equal(alg.morton_scales(lower, upper, levels), scale)
    cells = numpy.clip(numpy.floor((pos - lower) * scale), 0, 2**levels - 1).astype(numpy.uint64)
    want = [interleave(c, ndim) for c in cells]
    assert host(keys).tolist() == want
    assert int(host(keys)[3]) == interleave([2**levels - 1] * ndim, ndim)
    # upper < lower on the third axis reverses it: cell 0 at lower
    if ndim == 3:
        assert host(alg.morton_decode(keys, 3)[2])[0] == 0


def test_morton_keys_of_a_cell_boundary_point_go_to_the_upper_cell(on):
    keys = alg.morton_keys(on(numpy.array([[0.25, 0.5]])), [0.0, 0.0], [1.0, 1.0], 2)
    assert host(keys).tolist() == [interleave((1, 2), 2)]


def test_morton_errors_name_the_function():
    pos = numpy.zeros((4, 2))
    with pytest.raises(ValueError, match=r"\[morton_keys\] levels must be between 1 and 32 in 2D"):
        alg.morton_keys(pos, [0, 0], [1, 1], 33)
    with pytest.raises(ValueError, match=r"\[morton_scales\] levels must be between 1 and 21"):
        alg.morton_scales([0, 0, 0], [1, 1, 1], 22)
    with pytest.raises(ValueError, match=r"levels must be between 1 and 32 in 2D, got 0"):
        alg.morton_keys(pos, [0, 0], [1, 1], 0)
    with pytest.raises(TypeError, match=r"\[morton_scales\] levels must be an integer"):
        alg.morton_scales([0, 0], [1, 1], 2.0)
    with pytest.raises(ValueError, match=r"\[morton_keys\] Morton keys have 2 or 3 dimensions"):
        alg.morton_keys(numpy.zeros((4, 4)), [0] * 4, [1] * 4, 3)
    with pytest.raises(ValueError, match=r"\[morton_keys\] positions must have shape \(n, ndim\)"):
        alg.morton_keys(numpy.zeros(4), [0, 0], [1, 1], 3)
    with pytest.raises(ValueError, match=r"positions have 2 axes, lower and upper 3"):
        alg.morton_keys(pos, [0, 0, 0], [1, 1, 1], 3)
    with pytest.raises(ValueError, match=r"\[morton_scales\] lower and upper must be sequences"):
        alg.morton_scales([0, 0], [1, 1, 1], 3)
    with pytest.raises(ValueError, match=r"must differ on every axis"):
        alg.morton_scales([0, 1], [1, 1], 3)
    with pytest.raises(TypeError, match=r"\[morton_encode\] cell coordinates must be integers"):
        alg.morton_encode(numpy.zeros(3), numpy.zeros(3))
    with pytest.raises(ValueError, match=r"\[morton_encode\] Morton keys have 2 or 3 dimensions"):
        alg.morton_encode(1)
    with pytest.raises(ValueError, match=r"\[morton_decode\] Morton keys have 2 or 3 dimensions"):
        alg.morton_decode(numpy.zeros(3, numpy.uint64), 4)


# ---- sort_by_key ----


@pytest.mark.parametrize("n, high", [(50, 7), (5000, 40), (6000, 2**40)])
def test_sort_by_key_is_numpys_stable_argsort(on, n, high):
    # 5000 and 6000 keys take the LSD radix sort on NumPy (above 4096 integer keys)
    rng = numpy.random.default_rng(n)
    keys = rng.integers(-high, high, n)
    x, v = rng.normal(size=n), rng.normal(size=(n, 3))
    k, order, xs, vs = alg.sort_by_key(on(keys), on(x), on(v))
    want = numpy.argsort(keys, kind="stable")
    assert host(order).dtype == numpy.int64
    numpy.testing.assert_array_equal(host(order), want)
    numpy.testing.assert_array_equal(host(k), keys[want])
    numpy.testing.assert_array_equal(host(xs), x[want])
    numpy.testing.assert_array_equal(host(vs), v[want])


@pytest.mark.parametrize("dtype", ["uint8", "int32", "uint64", "float64"])
def test_sort_by_key_dtypes_and_component_major_arrays(on, dtype):
    rng = numpy.random.default_rng(1)
    n = 5000
    if dtype == "uint64":
        keys = rng.integers(0, 2**64, n, dtype=numpy.uint64, endpoint=False)
        keys[::7] = keys[0]  # repeats, to see stability
    elif dtype == "float64":
        keys = rng.integers(0, 30, n).astype(dtype) / 4
    else:
        keys = rng.integers(0, 100, n).astype(dtype)
    markers = rng.normal(size=(3, n))  # (ncomp, n): sorted along the last axis
    k, order, m = alg.sort_by_key(on(keys), on(markers), axis=-1)
    want = numpy.argsort(keys, kind="stable")
    numpy.testing.assert_array_equal(host(order), want)
    numpy.testing.assert_array_equal(host(k), keys[want])
    numpy.testing.assert_array_equal(host(m), markers[:, want])


def test_sort_by_key_hand_checked_and_errors(on):
    k, order, x = alg.sort_by_key(
        on(numpy.array([2, 0, 1, 0])), on(numpy.array([10.0, 11, 12, 13]))
    )
    assert host(k).tolist() == [0, 0, 1, 2] and host(order).tolist() == [1, 3, 2, 0]
    assert host(x).tolist() == [11.0, 13.0, 12.0, 10.0]
    with pytest.raises(ValueError, match=r"\[sort_by_key\] keys must be 1-D, got shape \(2, 2\)"):
        alg.sort_by_key(on(numpy.zeros((2, 2))))
    with pytest.raises(ValueError, match=r"\[sort_by_key\] array 0 has shape \(3,\), expected 4"):
        alg.sort_by_key(on(numpy.arange(4)), on(numpy.arange(3)))
    with pytest.raises(
        ValueError, match=r"\[sort_by_key\] array 0 has 1 dimension\(s\), so no axis 1"
    ):
        alg.sort_by_key(on(numpy.arange(4)), on(numpy.arange(4)), axis=1)


def test_arguments_from_two_backends_are_refused():
    with pytest.raises(TypeError, match=r"\[sort_by_key\] arrays from different backends"):
        alg.sort_by_key(numpy.arange(3), gpupy.arange(3))
    with pytest.raises(TypeError, match=r"\[segment_sum\] arrays from different backends"):
        alg.segment_sum(gpupy.ones(3), numpy.zeros(3, numpy.int64), 2)
    with pytest.raises(TypeError, match=r"\[morton_encode\] arrays from different backends"):
        alg.morton_encode(gpupy.arange(3), numpy.arange(3))
    with pytest.raises(TypeError, match=r"\[compact_by_mask\] arrays from different backends"):
        alg.compact_by_mask(gpupy.asarray([True, False]), numpy.zeros(2))


# ---- segment sums ----


def python_segment_sum(values, keys, n):
    """Row sums per key in Python floats (complex), dropping negative keys."""
    values = numpy.asarray(values)
    out = numpy.zeros((n, *values.shape[1:]), complex)
    for row, k in zip(values, keys, strict=True):
        if k >= 0:
            out[k] += row
    return out


@pytest.mark.parametrize("trailing", [(), (3,), (2, 2)])
def test_segment_sum_of_integer_valued_floats_is_exact(on, trailing):
    # sums of small integers are exact in any order, so every device must match bit for bit
    rng = numpy.random.default_rng(len(trailing))
    keys = rng.integers(-3, 9, 2000)
    values = rng.integers(-50, 50, (2000, *trailing)).astype(numpy.float64)
    got = alg.segment_sum(on(values), on(keys), 9)
    assert type(got) is type(on(values)) and host(got).shape == (9, *trailing)
    numpy.testing.assert_array_equal(host(got), python_segment_sum(values, keys, 9).real)


@pytest.mark.parametrize("trailing", [(), (3,)])
def test_segment_sum_adds_in_index_order_on_the_host(on, device_name, trailing):
    # NumPy's add.at adds one row after the other; NumPy and gpupy's cpu device give its bits
    rng = numpy.random.default_rng(11)
    keys = rng.integers(-1, 5, 3000)
    values = rng.normal(size=(3000, *trailing))
    want = numpy.zeros((5, *trailing))
    numpy.add.at(want, keys[keys >= 0], values[keys >= 0])
    got = host(alg.segment_sum(on(values), on(keys), 5))
    if on is numpy.array or device_name == "cpu":
        numpy.testing.assert_array_equal(got, want)
    else:  # atomics: the order of the additions is not specified
        numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize(
    "dtype, rtol", [("float64", 1e-12), ("float32", 2e-5), ("complex128", 1e-12), ("float16", 5e-3)]
)
def test_segment_sum_keeps_float_dtypes(on, dtype, rtol):
    rng = numpy.random.default_rng(3)
    keys = rng.integers(-1, 6, 300)
    values = rng.uniform(0.5, 1.5, (300, 2))
    if dtype == "complex128":
        values = values + 1j * rng.uniform(0.5, 1.5, (300, 2))
    values = values.astype(dtype)
    got = alg.segment_sum(on(values), on(keys), 6)
    assert host(got).dtype == numpy.dtype(dtype)
    numpy.testing.assert_allclose(host(got), python_segment_sum(values, keys, 6), rtol=rtol)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "bool"])
def test_segment_sum_of_integers_and_booleans_is_float64(on, dtype):
    keys = numpy.array([0, 2, 0, -1, 2, 2])
    values = numpy.array([1, 1, 0, 1, 1, 0]).astype(dtype)
    got = alg.segment_sum(on(values), on(keys), 4)
    assert host(got).dtype == numpy.float64
    assert host(got).tolist() == [1.0, 0.0, 2.0, 0.0]


def test_segment_sum_into_out_and_plan_reuse(on):
    keys = numpy.array([0, 1, 0, -1, 3])
    plan = alg.SegmentPlan(on(keys), 4)
    assert plan.n_segments == 4 and "5 keys, 4 segments" in repr(plan)
    out = on(numpy.full((4, 2), 99.0))
    values = numpy.arange(10.0).reshape(5, 2)
    assert plan.sum(on(values), out=out) is out
    numpy.testing.assert_array_equal(host(out), [[4, 6], [2, 3], [0, 0], [8, 9]])
    numpy.testing.assert_array_equal(
        host(plan.sum(on(values * 2))), [[8, 12], [4, 6], [0, 0], [16, 18]]
    )
    # the plan copied the keys: changing the caller's array afterwards does not reach it
    live = on(keys.copy())
    plan = alg.SegmentPlan(live, 4)
    live[...] = 0
    numpy.testing.assert_array_equal(host(plan.sum(on(numpy.ones(5)))), [2, 1, 0, 1])
    # no keys, no segments
    numpy.testing.assert_array_equal(host(alg.segment_sum(on(numpy.zeros(0)), on(keys[:0]), 3)), 0)
    assert host(alg.segment_sum(on(numpy.ones(2)), on(numpy.array([-1, -2])), 0)).shape == (0,)


def test_segment_sum_errors(on):
    keys, values = on(numpy.array([0, 1, 1])), on(numpy.ones(3))
    with pytest.raises(ValueError, match=r"\[segment_sum\] keys must be smaller than n_segments=1"):
        alg.segment_sum(values, keys, 1)
    with pytest.raises(ValueError, match=r"\[segment_sum\] n_segments must not be negative"):
        alg.segment_sum(values, keys, -1)
    with pytest.raises(TypeError, match=r"\[segment_sum\] n_segments must be an integer"):
        alg.segment_sum(values, keys, 2.0)
    with pytest.raises(TypeError, match=r"\[segment_sum\] keys must have an integer dtype"):
        alg.segment_sum(values, on(numpy.zeros(3)), 2)
    with pytest.raises(ValueError, match=r"\[segment_sum\] keys must be 1-D"):
        alg.segment_sum(values, on(numpy.zeros((3, 1), int)), 2)
    with pytest.raises(ValueError, match=r"\[segment_sum\] values must have one row per key \(3\)"):
        alg.segment_sum(on(numpy.ones(4)), keys, 2)
    with pytest.raises(ValueError, match=r"out must have shape \(2,\) and dtype float64"):
        alg.segment_sum(values, keys, 2, out=on(numpy.zeros(3)))
    with pytest.raises(ValueError, match=r"out must have shape \(2,\) and dtype float64"):
        alg.segment_sum(values, keys, 2, out=on(numpy.zeros(2, numpy.float32)))
    with pytest.raises(ValueError, match=r"\[segment_sum\] out must be C-contiguous"):
        alg.segment_sum(on(numpy.ones((3, 2))), keys, 2, out=on(numpy.zeros((2, 4)))[:, ::2])
    big = on(numpy.ones((3, 2)))
    with pytest.raises(ValueError, match=r"\[segment_sum\] out must not share memory with values"):
        alg.segment_sum(big[:, 0], keys, 2, out=big[0])
    with pytest.raises(ValueError, match=r"\[SegmentPlan\] keys must be smaller than n_segments=0"):
        alg.SegmentPlan(keys, 0)


def test_segment_sum_refuses_non_numbers():
    with pytest.raises(TypeError, match=r"\[segment_sum\] values must be numbers, got dtype <U1"):
        alg.segment_sum(numpy.array(["a", "b"]), numpy.array([0, 1]), 2)


def test_a_plan_reads_the_device_once_and_its_sums_never(on):
    keys = on(numpy.array([0, 1, 0, 2]))
    device = xp.is_gpu(keys)
    with xp.count_transfers() as setup:
        plan = alg.SegmentPlan(keys, 3)
    with xp.count_transfers() as sums:
        for _ in range(3):
            plan.sum(on(numpy.ones(4)))
    assert (setup.syncs, setup.total) == (int(device), 0)
    assert (sums.syncs, sums.total) == (0, 0)


# ---- cell offsets and segment boundaries ----


def test_cell_offsets_count_the_cells_below(on):
    rng = numpy.random.default_rng(5)
    cells = numpy.sort(rng.integers(0, 12, 500))
    cells = cells[(cells != 3) & (cells != 11)]  # empty cells, also the last one
    got = alg.cell_offsets(on(cells), 12)
    want = [sum(1 for c in cells if c < k) for k in range(13)]
    assert host(got).dtype == numpy.int64 and host(got).tolist() == want
    assert host(alg.cell_offsets(on(numpy.array([0, 0, 2])), 3)).tolist() == [0, 2, 2, 3]
    assert host(alg.cell_offsets(on(numpy.zeros(0, int)), 2)).tolist() == [0, 0, 0]


def test_cell_offsets_errors(on):
    with pytest.raises(ValueError, match=r"\[cell_offsets\] sorted_cells must be sorted"):
        alg.cell_offsets(on(numpy.array([1, 0])), 2)
    with pytest.raises(
        ValueError, match=r"\[cell_offsets\] cells must be in \[0, n_cells\) = \[0, 2\)"
    ):
        alg.cell_offsets(on(numpy.array([0, 2])), 2)
    with pytest.raises(ValueError, match=r"cells must be in \[0, n_cells\)"):
        alg.cell_offsets(on(numpy.array([-1, 0])), 2)
    with pytest.raises(
        TypeError, match=r"\[cell_offsets\] sorted_cells must have an integer dtype"
    ):
        alg.cell_offsets(on(numpy.array([0.0])), 2)


def test_segment_boundaries(on):
    uniq, starts, stops = alg.segment_boundaries(on(numpy.array([3, 3, 5, 9, 9, 9])))
    assert (host(uniq).tolist(), host(starts).tolist(), host(stops).tolist()) == (
        [3, 5, 9],
        [0, 2, 3],
        [2, 3, 6],
    )
    keys = numpy.sort(numpy.random.default_rng(6).integers(-(2**40), 2**40, 300) // 2**35)
    uniq, starts, stops = alg.segment_boundaries(on(keys))
    runs = []  # the runs of equal keys, found by a loop
    for i, k in enumerate(keys):
        if i == 0 or k != keys[i - 1]:
            runs.append([int(k), i, i + 1])
        else:
            runs[-1][2] = i + 1
    assert [
        list(r)
        for r in zip(host(uniq).tolist(), host(starts).tolist(), host(stops).tolist(), strict=True)
    ] == runs
    morton = numpy.array([0, 2**63, 2**63, 2**64 - 1], numpy.uint64)
    uniq, starts, _ = alg.segment_boundaries(on(morton))
    assert host(uniq).tolist() == [0, 2**63, 2**64 - 1] and host(starts).tolist() == [0, 1, 3]
    uniq, starts, stops = alg.segment_boundaries(on(numpy.zeros(0, numpy.int64)))
    assert host(uniq).shape == host(starts).shape == host(stops).shape == (0,)
    with pytest.raises(ValueError, match=r"\[segment_boundaries\] sorted_keys must be sorted"):
        alg.segment_boundaries(on(numpy.array([2, 1])))


# ---- compaction ----


def test_compact_by_mask_moves_the_kept_rows_to_the_front(on):
    rng = numpy.random.default_rng(7)
    n = 1000
    alive = rng.random(n) < 0.6
    x, v, ids = rng.normal(size=n), rng.normal(size=(n, 3)), numpy.arange(n)
    dx, dv, dids = on(x), on(v), on(ids)
    count = alg.compact_by_mask(on(alive), dx, dv, dids)
    assert count == int(alive.sum())
    numpy.testing.assert_array_equal(host(dx)[:count], x[alive])
    numpy.testing.assert_array_equal(host(dv)[:count], v[alive])
    numpy.testing.assert_array_equal(host(dids)[:count], ids[alive])
    markers = rng.normal(size=(4, n))  # component-major: compacted along the last axis
    dm = on(markers)
    assert alg.compact_by_mask(on(alive), dm, axis=-1) == count
    numpy.testing.assert_array_equal(host(dm)[:, :count], markers[:, alive])
    assert alg.compact_by_mask(on(numpy.zeros(3, bool)), on(numpy.ones(3))) == 0


def test_compact_by_mask_reads_the_device_once(on):
    mask = on(numpy.array([True, False, True]))
    with xp.count_transfers() as c:
        alg.compact_by_mask(mask, on(numpy.ones(3)), on(numpy.ones((3, 2))))
    assert (c.syncs, c.total) == (int(xp.is_gpu(mask)), 0)


def test_compact_by_mask_errors(on):
    with pytest.raises(
        TypeError, match=r"\[compact_by_mask\] mask must be a 1-D boolean array, got dtype int64"
    ):
        alg.compact_by_mask(on(numpy.array([1, 0])), on(numpy.ones(2)))
    with pytest.raises(
        TypeError, match=r"mask must be a 1-D boolean array, got dtype bool and shape \(1, 2\)"
    ):
        alg.compact_by_mask(on(numpy.ones((1, 2), bool)))
    with pytest.raises(
        ValueError, match=r"\[compact_by_mask\] array 1 has shape \(3,\), expected 2"
    ):
        alg.compact_by_mask(on(numpy.ones(2, bool)), on(numpy.ones(2)), on(numpy.ones(3)))
    frozen = numpy.ones(2)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match=r"\[compact_by_mask\] array 0 is read-only"):
        alg.compact_by_mask(numpy.ones(2, bool), frozen)
