"""Recipes for particle codes with gpupy.cunumpy: removing dead particles, compacting a buffer,
sorting by cell, a deposit without atomics and per-particle random velocities.

Every function takes the arrays of the active backend (NumPy, or gpupy arrays on cpu, emu or
cuda) and returns arrays of that backend; nothing is copied between host and device.
tests/python/test_particle_recipes.py runs them on both backends.

Not here yet: pack_for_ranks / exchange (sending particles to other MPI ranks), which wait for
gpupy.cunumpy's MPI helpers."""

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


def thermal_velocities(seed, particle_ids, step, v_th):
    """Two Maxwellian velocity components per particle from (seed, particle id, step): no
    generator state, so the numbers do not depend on the order of the particles, on how they are
    split among ranks, or on the backend; cunumpy_philox_normal2(seed, id, step, ...) draws the
    same numbers in a CUDA kernel (up to the last bits of the math functions)."""
    z0, z1 = xp.rng.philox_normal2(seed, particle_ids, step)
    return v_th * z0, v_th * z1
