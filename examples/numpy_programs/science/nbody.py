"""Gravitational N-body: pairwise distances by broadcasting, leapfrog steps, energy, neighbours."""

import numpy as _numpy

_rng = _numpy.random.default_rng(5)
POS = _rng.uniform(-1.0, 1.0, (24, 3))
VEL = 0.1 * _rng.standard_normal((24, 3))
MASS = _rng.uniform(0.5, 1.5, 24)

TOLERANCE = (1e-9, 1e-12)


def accelerations(np, pos, mass, soft):
    d = pos[np.newaxis, :, :] - pos[:, np.newaxis, :]  # d[i, j] = r_j - r_i
    r2 = np.einsum("ijk,ijk->ij", d, d)
    inv_r3 = np.zeros_like(r2)
    np.power(r2 + soft**2, -1.5, out=inv_r3, where=r2 > 0)  # no self-force on the diagonal
    return np.einsum("ij,ijk,j->ik", inv_r3, d, mass)


def energy(np, pos, vel, mass, soft):
    kinetic = 0.5 * np.sum(mass * np.sum(vel**2, axis=1))
    i, j = np.triu_indices(len(mass), k=1)
    r = np.sqrt(((pos[i] - pos[j]) ** 2).sum(axis=-1) + soft**2)
    return kinetic - np.sum(mass[i] * mass[j] / r)


def run(np):
    pos, vel, mass = np.array(POS), np.array(VEL), np.array(MASS)
    soft, dt = 0.1, 0.002
    vel -= (mass[:, None] * vel).sum(axis=0) / mass.sum()  # centre-of-mass frame
    e0 = energy(np, pos, vel, mass, soft)
    acc = accelerations(np, pos, mass, soft)
    for _ in range(100):
        vel += 0.5 * dt * acc
        pos += dt * vel
        acc = accelerations(np, pos, mass, soft)
        vel += 0.5 * dt * acc
    e1 = energy(np, pos, vel, mass, soft)

    dist = np.linalg.norm(pos[:, None, :] - pos[None, :, :], axis=-1)
    dist[np.diag_indices_from(dist)] = np.inf
    nearest = dist.argmin(axis=1)
    close_pairs = np.argwhere(np.triu(dist < 0.3, k=1))
    com = np.average(pos, axis=0, weights=mass)
    L = np.cross(pos, mass[:, None] * vel).sum(axis=0)
    radii = np.sqrt(np.sum((pos - com) ** 2, axis=1))
    order = np.argsort(radii)
    half_mass_radius = radii[order][np.searchsorted(np.cumsum(mass[order]), mass.sum() / 2)]
    return {
        "pos": pos,
        "vel": vel,
        "energy_drift": abs((e1 - e0) / e0),
        "nearest": nearest,
        "close_pairs": close_pairs,
        "com": com,
        "angular_momentum": L,
        "half_mass_radius": half_mass_radius,
        "min_dist": dist.min(),
    }
