"""examples/particle_pusher/particle_recipes.py (spec section 4): every recipe on the NumPy
backend and on the gpupy backend (the --device device), against NumPy computations written here
and a scalar Philox; the gpupy run stays on the device. exchange runs here on the serial
communicator; tests/python/mpi_two_ranks.py runs it on two MPI ranks."""

import math
import pathlib
import sys

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from test_cunumpy_rng import draws_scalar

sys.path.insert(
    0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "particle_pusher")
)

import particle_recipes as recipes  # noqa: E402

N, N_CELLS, LENGTH = 10_000, 64, 2 * math.pi
DX = LENGTH / N_CELLS


@pytest.fixture(params=["numpy", "gpupy"])
def backend(request):
    with xp.use_backend(request.param):
        yield request.param


def host_data():
    """Particles built on the host, as the spec's example does (seed 0); some lie outside."""
    rng = numpy.random.default_rng(0)
    x = rng.uniform(0.0, LENGTH, N)
    x[:5] = [-0.1, LENGTH, LENGTH + 1.0, 0.0, DX]  # clipped to the edge cells; DX opens cell 1
    markers = numpy.stack([x, rng.normal(size=N), rng.normal(size=N)], axis=1)
    alive = rng.random(N) < 0.8
    weights = numpy.full(N, LENGTH / N) * rng.uniform(0.5, 1.5, N)
    return markers, alive, weights


def reference_cells(x):
    return numpy.clip(numpy.floor(x / DX), 0, N_CELLS - 1).astype(numpy.int64)


def test_remove_dead_and_compact_in_place(backend):
    markers, alive, _ = host_data()
    got = recipes.remove_dead(xp.to_cunumpy(markers), xp.to_cunumpy(alive))
    assert xp.get_array_backend(got) == backend
    numpy.testing.assert_array_equal(xp.to_numpy(got), markers[alive])
    buffer = xp.to_cunumpy(markers.copy())
    n = recipes.compact_in_place(buffer, xp.to_cunumpy(alive))
    assert n == int(alive.sum())
    numpy.testing.assert_array_equal(xp.to_numpy(buffer)[:n], markers[alive])


def test_sort_by_cell(backend):
    markers, _, _ = host_data()
    x = markers[:, 0]
    order, cells, offsets = recipes.sort_by_cell(xp.to_cunumpy(x), 0.0, DX, N_CELLS)
    want_cells = reference_cells(x)
    want_order = numpy.argsort(want_cells, kind="stable")
    numpy.testing.assert_array_equal(xp.to_numpy(order), want_order)
    numpy.testing.assert_array_equal(xp.to_numpy(cells), want_cells[want_order])
    counts = numpy.bincount(want_cells, minlength=N_CELLS)
    numpy.testing.assert_array_equal(
        xp.to_numpy(offsets), numpy.concatenate([[0], numpy.cumsum(counts)])
    )
    assert xp.to_numpy(cells)[:3].tolist() == [0, 0, 0] and xp.to_numpy(cells)[-1] == N_CELLS - 1
    # the markers of one cell, found through the offsets, are the ones whose cell it is
    c = 17
    sorted_x = x[xp.to_numpy(order)]
    inside = sorted_x[xp.to_numpy(offsets)[c] : xp.to_numpy(offsets)[c + 1]]
    assert inside.size and numpy.all(reference_cells(inside) == c)


def test_deposit_nearest_cell(backend):
    markers, alive, weights = host_data()
    cells = numpy.where(alive, reference_cells(markers[:, 0]), -1)  # dead particles drop out
    rho = recipes.deposit_nearest_cell(xp.to_cunumpy(cells), xp.to_cunumpy(weights), N_CELLS)
    want = numpy.zeros(N_CELLS)
    for c, w in zip(cells, weights, strict=True):
        if c >= 0:
            want[c] += w
    numpy.testing.assert_allclose(xp.to_numpy(rho), want, rtol=1e-12)
    assert xp.to_numpy(rho).sum() == pytest.approx(weights[alive].sum(), rel=1e-12)


def reference_pack(markers, destination, n_ranks):
    order = numpy.argsort(destination, kind="stable")
    return markers[order], numpy.bincount(destination, minlength=n_ranks)


@pytest.mark.parametrize("n", [N, 1, 0])
def test_pack_for_ranks(backend, n):
    markers, _, _ = host_data()
    markers = markers[:n]
    destination = numpy.random.default_rng(2).integers(0, 5, n)  # rank 5 of 6 gets nothing
    ids = numpy.arange(n, dtype=numpy.int64) * 3
    for rows in (markers, ids):
        packed, counts = recipes.pack_for_ranks(xp.to_cunumpy(rows), xp.to_cunumpy(destination), 6)
        assert xp.get_array_backend(packed) == backend == xp.get_array_backend(counts)
        want_rows, want_counts = reference_pack(rows, destination, 6)
        numpy.testing.assert_array_equal(xp.to_numpy(packed), want_rows)
        numpy.testing.assert_array_equal(xp.to_numpy(counts), want_counts)
        assert xp.to_numpy(counts).dtype == numpy.int64 and packed.flags.c_contiguous
    if n == N:  # the rows for rank r start at sum(counts[:r]) and all go to r
        want_rows, want_counts = reference_pack(markers, destination, 6)
        start = int(want_counts[:3].sum())
        stop = start + int(want_counts[3])
        numpy.testing.assert_array_equal(want_rows[start:stop], markers[destination == 3])


def test_pack_for_ranks_rejects_bad_input(backend):
    markers = xp.to_cunumpy(numpy.ones((4, 2)))
    dest = xp.to_cunumpy(numpy.array([0, 1, 2, 1]))
    floats, column = xp.to_cunumpy(numpy.zeros(4)), xp.to_cunumpy(numpy.zeros((4, 1), int))
    cases = [
        (ValueError, r"destination ranks must be in \[0, 2\)", (markers, dest, 2)),
        (ValueError, r"destination ranks must be in \[0, 3\)", (markers, dest - 1, 3)),
        (ValueError, "n_ranks must be at least 1", (markers, dest, 0)),
        (TypeError, "n_ranks must be an integer", (markers, dest, 2.0)),
        (TypeError, "destination must be a 1-D integer array", (markers, floats, 3)),
        (TypeError, "destination must be a 1-D integer array", (markers, column, 3)),
        (ValueError, r"markers has shape \(4, 2\), expected 3 rows", (markers, dest[:3], 3)),
    ]
    if backend == "gpupy":
        cases.append(
            (
                TypeError,
                "markers and destination must be arrays of one backend",
                (markers, numpy.array([0, 1, 2, 1]), 3),
            )
        )
    for error, message, args in cases:
        with pytest.raises(error, match=r"\[pack_for_ranks\] " + message):
            recipes.pack_for_ranks(*args)


@pytest.fixture(params=[True, False], ids=["cuda_aware", "staged"])
def cuda_aware(request):
    before = xp.mpi.get_mpi_cuda_aware()
    xp.mpi.set_mpi_cuda_aware(request.param)
    yield request.param
    xp.mpi.set_mpi_cuda_aware(before)


def test_exchange_on_one_rank(backend, cuda_aware):
    comm = xp.mpi.get_mpi(False).COMM_WORLD
    markers, _, _ = host_data()
    for rows in (markers, markers[:, 0].copy(), markers[:0]):
        m, stay = xp.to_cunumpy(rows), xp.to_cunumpy(numpy.zeros(len(rows), numpy.int64))
        with xp.count_transfers() as counter:
            got = recipes.exchange(comm, m, stay)
        assert xp.get_array_backend(got) == backend and got.shape == rows.shape
        numpy.testing.assert_array_equal(xp.to_numpy(got), rows)
        if xp.is_gpu(m):  # the counts read back; staged: the rows down and back up
            assert (counter.to_host, counter.to_device) == ((1, 0) if cuda_aware else (2, 1))
        else:
            assert counter.total == 0
    if backend == "gpupy":  # the arrays' backend counts, not the active one
        with xp.use_backend("numpy"):
            got = recipes.exchange(comm, m, stay)
        assert isinstance(got, gpupy.ndarray) and got.device == m.device
    with pytest.raises(ValueError, match=r"\[pack_for_ranks\] destination ranks must be in"):
        recipes.exchange(comm, xp.to_cunumpy(markers), xp.to_cunumpy(numpy.ones(N, numpy.int64)))


def test_thermal_velocities(backend):
    ids = numpy.arange(N, dtype=numpy.uint64) + numpy.uint64(2**40)
    v0, v1 = recipes.thermal_velocities(2024, xp.to_cunumpy(ids), 3, 0.5)
    v0, v1 = xp.to_numpy(v0), xp.to_numpy(v1)
    for i in (0, 1, 4321, N - 1):
        _, _, z0, z1 = draws_scalar(2024, int(ids[i]), 3)
        assert v0[i] == pytest.approx(0.5 * z0, rel=1e-13, abs=1e-15)
        assert v1[i] == pytest.approx(0.5 * z1, rel=1e-13, abs=1e-15)
    both = numpy.concatenate([v0, v1])
    assert abs(both.mean()) < 0.02 and abs(both.std() - 0.5) < 0.02
    # the order of the particles does not matter: a permutation draws the same numbers
    perm = numpy.random.default_rng(1).permutation(N)
    p0, _ = recipes.thermal_velocities(2024, xp.to_cunumpy(ids[perm]), 3, 0.5)
    numpy.testing.assert_array_equal(xp.to_numpy(p0), v0[perm])


def test_backends_agree_and_a_device_step_stays_on_the_device(device_name):
    markers, alive, weights = host_data()
    results = {}
    for name in ("numpy", "gpupy"):
        with xp.use_backend(name):
            m, a, w = (xp.to_cunumpy(v) for v in (markers.copy(), alive, weights))
            ids = xp.arange(N, dtype=xp.uint64)
            with xp.count_transfers() as counter:
                order, cells, offsets = recipes.sort_by_cell(m[:, 0], 0.0, DX, N_CELLS)
                rho = recipes.deposit_nearest_cell(cells, w[order], N_CELLS)
                v0, _ = recipes.thermal_velocities(7, ids, 0, 1.0)
                n = recipes.compact_in_place(m, a)
            results[name] = [xp.to_numpy(v) for v in (order, offsets, rho, v0, m[:n])]
            if name == "gpupy":
                assert isinstance(rho, gpupy.ndarray) and str(rho.device) == device_name
                # no copies; on a device, recorded reads: one each for cell_offsets' and
                # segment_sum's checks and for compact_in_place's count (gpupy's gathers add
                # unrecorded reads of their bounds checks)
                assert counter.total == 0
                assert counter.syncs == (3 if xp.is_gpu(rho) else 0)
    for h, d in zip(results["numpy"], results["gpupy"], strict=True):
        numpy.testing.assert_allclose(d, h, rtol=1e-12, atol=1e-15)
