"""Radial distribution function g(r) of particles in a periodic box: minimum-image pairwise
distances by broadcasting, a histogram of the pair distances, and the coordination number."""

import numpy as _numpy

_rng = _numpy.random.default_rng(99)
BOX = 6.0
# a jittered cubic lattice: a liquid-like structure with a clear first shell
_g = _numpy.arange(6) + 0.5
POSITIONS = _numpy.stack(_numpy.meshgrid(_g, _g, _g, indexing="ij"), -1).reshape(-1, 3)
POSITIONS = (POSITIONS + 0.05 * _rng.standard_normal(POSITIONS.shape)) % BOX


def run(np):
    pos = np.asarray(POSITIONS)
    n = len(pos)
    delta = pos[:, np.newaxis, :] - pos[np.newaxis, :, :]
    delta -= BOX * np.round(delta / BOX)  # minimum image convention
    dist = np.sqrt((delta**2).sum(axis=-1))
    iu = np.triu_indices(n, k=1)
    pair_d = dist[iu]

    r_max, nbins = BOX / 2, 60
    counts, edges = np.histogram(pair_d, bins=nbins, range=(0.0, r_max))
    r = 0.5 * (edges[1:] + edges[:-1])
    shell = 4.0 / 3.0 * np.pi * (edges[1:] ** 3 - edges[:-1] ** 3)
    density = n / BOX**3
    g = 2.0 * counts / (n * density * shell)
    # shells: the first local maximum of g above 1, then the first minimum after it
    inner = g[1:-1]
    peaks = np.flatnonzero((inner > g[:-2]) & (inner >= g[2:]) & (inner > 1.0)) + 1
    troughs = np.flatnonzero((inner < g[:-2]) & (inner <= g[2:])) + 1
    first_peak = r[peaks[0]]
    first_min = r[troughs[troughs > peaks[0]][0]]
    coordination = 4 * np.pi * density * np.trapezoid((g * r**2)[r <= first_min], r[r <= first_min])
    neighbours = (dist < first_min).sum(axis=1) - 1  # minus self
    return {
        "g": g,
        "first_peak": float(first_peak),
        "first_min": float(first_min),
        "coordination": coordination,
        "neighbour_counts": np.bincount(neighbours, minlength=12)[:12],
        "closest_pair": pair_d.min(),
        "pairs": len(pair_d),
    }
