"""Array algorithms particle and grid codes need and NumPy lacks, on the arrays' backend (NumPy,
gpupy on any device, CuPy): Morton (Z-order) keys equal to the kernel header `cunumpy/morton.cuh`,
a stable sort of several arrays by one key, sums per key without atomics on the host, and
in-place compaction.

    keys = xp.algorithms.morton_keys(positions, lower, upper, levels)
    keys, order, positions, q = xp.algorithms.sort_by_key(keys, positions, q)
    rho = xp.algorithms.segment_sum(q, cell, n_cells)
    n = xp.algorithms.compact_by_mask(alive, positions, q)

Arguments must all belong to one backend (and, for gpupy, one device); results stay there.
Nothing is copied between host and device. These functions read a device value back only where a
result's size or a check of the arguments needs it (each function says where); count_transfers()
records each such read as a `sync` event. On gpupy, every gather (sort_by_key's and
compact_by_mask's reordering, segment_boundaries' keys) also reads back the flag of gpupy's index
bounds check, one read per array, which is not recorded (CuPy's gathers do not check)."""

from gpupy.cunumpy._morton import (
    MAX_MORTON_LEVELS,
    morton_decode,
    morton_encode,
    morton_encode_2d,
    morton_encode_3d,
    morton_keys,
    morton_scales,
)
from gpupy.cunumpy._segments import (
    SegmentPlan,
    cell_offsets,
    compact_by_mask,
    segment_boundaries,
    segment_sum,
    sort_by_key,
)

__all__ = [
    "MAX_MORTON_LEVELS",
    "SegmentPlan",
    "cell_offsets",
    "compact_by_mask",
    "morton_decode",
    "morton_encode",
    "morton_encode_2d",
    "morton_encode_3d",
    "morton_keys",
    "morton_scales",
    "segment_boundaries",
    "segment_sum",
    "sort_by_key",
]
