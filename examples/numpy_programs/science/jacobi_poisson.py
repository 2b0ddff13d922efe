"""Poisson equation -lap(phi) = f on the unit square: Jacobi, then red-black SOR by masks."""


def _residual(np, phi, f, h):
    r = np.zeros_like(phi)
    r[1:-1, 1:-1] = (
        f[1:-1, 1:-1]
        + (phi[:-2, 1:-1] + phi[2:, 1:-1] + phi[1:-1, :-2] + phi[1:-1, 2:] - 4 * phi[1:-1, 1:-1])
        / h**2
    )
    return np.linalg.norm(r) * h


def run(np):
    n = 33
    h = 1.0 / (n - 1)
    xs = np.linspace(0, 1, n)
    x, y = xs[:, np.newaxis], xs[np.newaxis, :]
    exact = np.sin(np.pi * x) * np.sin(np.pi * y)
    f = 2 * np.pi**2 * exact

    phi = np.zeros((n, n))
    jacobi_res = []
    for it in range(300):
        new = phi.copy()
        new[1:-1, 1:-1] = 0.25 * (
            phi[:-2, 1:-1] + phi[2:, 1:-1] + phi[1:-1, :-2] + phi[1:-1, 2:] + h**2 * f[1:-1, 1:-1]
        )
        phi = new
        if it % 100 == 99:
            jacobi_res.append(_residual(np, phi, f, h))

    # red-black Gauss-Seidel with over-relaxation, colours from a checkerboard mask
    ii, jj = np.indices((n, n))
    interior = np.zeros((n, n), dtype=bool)
    interior[1:-1, 1:-1] = True
    red = ((ii + jj) % 2 == 0) & interior
    black = ((ii + jj) % 2 == 1) & interior
    omega = 2 / (1 + np.sin(np.pi * h))
    psi = np.zeros((n, n))
    sweeps = 0
    while _residual(np, psi, f, h) > 1e-6 and sweeps < 500:
        for mask in (red, black):
            nb = np.zeros_like(psi)
            nb[1:-1, 1:-1] = psi[:-2, 1:-1] + psi[2:, 1:-1] + psi[1:-1, :-2] + psi[1:-1, 2:]
            gs = 0.25 * (nb + h**2 * f)
            psi[mask] = (1 - omega) * psi[mask] + omega * gs[mask]
        sweeps += 1

    return {
        "jacobi_residuals": np.array(jacobi_res),
        "jacobi_error": np.abs(phi - exact).max(),
        "sor_sweeps": sweeps,
        "sor_error": float(np.abs(psi - exact).max()),
        "psi": psi,
        "red_count": int(red.sum()),
    }
