"""1-D wave equation on a periodic string, leapfrog in time, with an energy diagnostic."""


def run(np):
    n, length, c = 128, 2.0 * np.pi, 1.0
    dx = length / n
    dt = 0.5 * dx / c
    x = np.arange(n) * dx
    u_prev = np.exp(-10.0 * (x - np.pi) ** 2)  # Gaussian pulse at rest
    u = u_prev.copy()
    courant2 = (c * dt / dx) ** 2

    # first step from a Taylor expansion (zero initial velocity)
    u = u_prev + 0.5 * courant2 * (np.roll(u_prev, 1) - 2 * u_prev + np.roll(u_prev, -1))
    energies = np.empty(100)
    for i in range(100):
        u_next = 2 * u - u_prev + courant2 * (np.roll(u, 1) - 2 * u + np.roll(u, -1))
        velocity = (u_next - u_prev) / (2 * dt)
        grad = (np.roll(u, -1) - u) / dx
        energies[i] = 0.5 * np.sum(velocity**2 + c**2 * grad**2) * dx
        u_prev, u = u, u_next

    peaks = np.flatnonzero((u > np.roll(u, 1)) & (u > np.roll(u, -1)) & (u > 0.1))
    drift = np.ptp(energies) / energies.mean()
    return {
        "u": u,
        "energies": energies,
        "peaks": peaks,
        "peak_positions": x[peaks],
        "relative_drift": drift,
        "max_abs": np.abs(u).max(),
        "symmetric": bool(np.allclose(u, np.roll(u[::-1], 1), atol=1e-8)),
    }
