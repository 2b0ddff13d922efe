"""2-D Ising model by checkerboard Metropolis sweeps: magnetisation and energy against the
temperature. gpupy's random streams differ from NumPy's (docs/numpy_differences.md, "Random
numbers"), so the uniforms of every sweep are drawn with NumPy and passed in."""

import numpy as _numpy

L = 16
SWEEPS = 60
TEMPERATURES = (1.5, 2.27, 3.5)
_rng = _numpy.random.default_rng(8)
UNIFORMS = _rng.random((len(TEMPERATURES), SWEEPS, 2, L, L))


def energy(np, s):
    return -np.sum(s * (np.roll(s, 1, axis=0) + np.roll(s, 1, axis=1))) / s.size


def run(np):
    ii, jj = np.indices((L, L))
    colours = [(ii + jj) % 2 == 0, (ii + jj) % 2 == 1]
    mags, energies, finals = [], [], []
    for t_index, temperature in enumerate(TEMPERATURES):
        spins = np.ones((L, L), dtype=np.int8)
        u = np.asarray(UNIFORMS[t_index])
        m_trace = np.zeros(SWEEPS)
        for sweep in range(SWEEPS):
            for c, mask in enumerate(colours):
                neighbours = (
                    np.roll(spins, 1, 0)
                    + np.roll(spins, -1, 0)
                    + np.roll(spins, 1, 1)
                    + np.roll(spins, -1, 1)
                )
                dE = 2 * spins * neighbours  # int8 arithmetic stays int8, as in NumPy
                accept = (dE <= 0) | (u[sweep, c] < np.exp(-dE / temperature))
                flip = accept & mask
                spins[flip] *= -1
            m_trace[sweep] = abs(spins.mean())
        mags.append(m_trace[SWEEPS // 2 :].mean())
        energies.append(energy(np, spins.astype(np.float64)))
        finals.append(spins)
    return {
        "magnetisation": np.array(mags),
        "energy": np.array(energies),
        "spins": np.stack(finals),
        "dtype_kept": str(finals[0].dtype),
        "ordered_low_t": bool(mags[0] > 0.9),
    }
