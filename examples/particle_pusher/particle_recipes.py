"""Recipes for particle codes with gpupy.cunumpy: removing dead particles, compacting a buffer,
sorting by cell, a deposit without atomics, sending particles to other MPI ranks and
per-particle random velocities.

Every function takes the arrays of the active backend (NumPy, or gpupy arrays on cpu, emu or
cuda) and returns arrays of that backend; nothing is copied between host and device except the
small values each function names (and, in exchange, MPI's staging when MPI is not CUDA-aware).
tests/python/test_particle_recipes.py runs them on both backends, and on two MPI ranks."""

import math
import operator

import numpy
from gpupy import cunumpy as xp


def remove_dead(markers, alive):
    """The markers whose `alive` flag is set: a new, compact array (on a device, the number of
    survivors is read back to size it)."""
    return markers[alive]


def compact_in_place(markers, alive):
    """Moves the live markers to the front of a preallocated buffer, in their order, and returns
    their count n: markers[:n] are the live ones afterwards, the rows behind them are free for
    injection. Rows are markers[i] (use axis=-1 in compact_by_mask for (ncomp, n) markers)."""
    return xp.algorithms.compact_by_mask(alive, markers)


def sort_by_cell(positions, lower, cell_size, n_cells):
    """(order, cells of the sorted markers, offsets): after markers = markers[order], the markers
    of cell c are markers[offsets[c]:offsets[c + 1]]. Positions outside the grid go to the
    nearest edge cell. The sort is stable: markers keep their order within a cell, so results
    are reproducible."""
    cell = xp.clip(xp.floor((positions - lower) / cell_size), 0, n_cells - 1).astype(xp.int64)
    sorted_cells, order = xp.algorithms.sort_by_key(cell)
    return order, sorted_cells, xp.algorithms.cell_offsets(sorted_cells, n_cells)


def deposit_nearest_cell(cell, weights, n_cells):
    """The sum of the weights in every cell (nearest-grid-point deposit) by segment_sum: no
    atomics on the host, so the result there does not depend on thread timing."""
    return xp.algorithms.segment_sum(weights, cell, n_cells)


def pack_for_ranks(markers, destination, n_ranks):
    """(send buffer, counts): the rows of `markers` grouped by destination rank, in their order
    within each rank (a stable sort), and the int64 number of rows for each of the n_ranks
    ranks, so that rank r's rows start at sum(counts[:r]). destination[i] is the rank row i
    goes to (its own rank to stay). On a device, the range check reads back one flag."""
    op = "pack_for_ranks"
    try:
        n_ranks = operator.index(n_ranks)
    except TypeError:
        raise TypeError(
            f"[{op}] n_ranks must be an integer, got {type(n_ranks).__name__}"
        ) from None
    if n_ranks < 1:
        raise ValueError(f"[{op}] n_ranks must be at least 1, got {n_ranks}")
    if not xp.same_backend(markers, destination):
        raise TypeError(f"[{op}] markers and destination must be arrays of one backend (device)")
    if destination.ndim != 1 or numpy.dtype(destination.dtype).kind not in "iu":
        raise TypeError(
            f"[{op}] destination must be a 1-D integer array, got dtype {destination.dtype} and "
            f"shape {tuple(destination.shape)}"
        )
    if markers.ndim < 1 or markers.shape[0] != destination.shape[0]:
        raise ValueError(
            f"[{op}] markers has shape {tuple(markers.shape)}, expected "
            f"{destination.shape[0]} rows (one per destination)"
        )
    ranks, _, packed = xp.algorithms.sort_by_key(destination, markers)
    try:
        offsets = xp.algorithms.cell_offsets(ranks, n_ranks)
    except ValueError:
        raise ValueError(f"[{op}] destination ranks must be in [0, {n_ranks})") from None
    return xp.get_array_module(packed).ascontiguousarray(packed), offsets[1:] - offsets[:-1]


def _starts(counts):
    return numpy.concatenate(([0], numpy.cumsum(counts)[:-1])).astype(numpy.int64)


def exchange(comm, markers, destination):
    """Sends row i of `markers` to rank destination[i] of `comm` and returns the rows this rank
    receives, grouped by source rank (rank 0's first), in their order on the sender. Collective:
    every rank of `comm` calls it. The counts go through Alltoall, the rows through Alltoallv
    with xp.mpi.mpi_buffer, so device arrays work with any MPI: call
    xp.mpi.mpi_is_cuda_aware(comm) once at start-up. On a device, two small reads (the range
    check and the counts), plus the staging copies when MPI is not CUDA-aware."""
    n_ranks = comm.Get_size()
    packed, counts = pack_for_ranks(markers, destination, n_ranks)
    row = math.prod(markers.shape[1:])
    send_counts = numpy.asarray(xp.to_numpy(counts), dtype=numpy.int64)
    recv_counts = numpy.empty(n_ranks, dtype=numpy.int64)
    comm.Alltoall(send_counts, recv_counts)  # how many rows come from each rank
    shape = (int(recv_counts.sum()), *markers.shape[1:])
    received = xp.get_array_module(packed).empty_like(packed, shape=shape)  # on packed's device
    with (
        xp.mpi.mpi_buffer(packed) as send,
        xp.mpi.mpi_buffer(received, send=False, recv=True) as recv,
    ):
        comm.Alltoallv(
            [send, send_counts * row, _starts(send_counts) * row, None],
            [recv, recv_counts * row, _starts(recv_counts) * row, None],
        )
    return received


def thermal_velocities(seed, particle_ids, step, v_th):
    """Two Maxwellian velocity components per particle from (seed, particle id, step): no
    generator state, so the numbers do not depend on the order of the particles, on how they are
    split among ranks, or on the backend; cunumpy_philox_normal2(seed, id, step, ...) draws the
    same numbers in a CUDA kernel (up to the last bits of the math functions)."""
    z0, z1 = xp.rng.philox_normal2(seed, particle_ids, step)
    return v_th * z0, v_th * z1
