"""1-D heat equation by Crank-Nicolson with Dirichlet and Neumann ends, against the exact series
solution; the tridiagonal systems are solved once by LU-free Thomas sweeps and by np.linalg."""


def thomas(np, lower, diag, upper, rhs):
    n = diag.shape[0]
    c, d = np.zeros(n), np.zeros(n)
    c[0], d[0] = upper[0] / diag[0], rhs[0] / diag[0]
    for i in range(1, n):
        denom = diag[i] - lower[i - 1] * c[i - 1]
        if i < n - 1:
            c[i] = upper[i] / denom
        d[i] = (rhs[i] - lower[i - 1] * d[i - 1]) / denom
    x = np.empty(n)
    x[-1] = d[-1]
    for i in range(n - 2, -1, -1):
        x[i] = d[i] - c[i] * x[i + 1]
    return x


def run(np):
    n, L, alpha = 41, 1.0, 1.0
    x = np.linspace(0, L, n)
    dx = x[1] - x[0]
    dt = 0.5 * dx
    r = alpha * dt / dx**2
    u = np.sin(np.pi * x) + 0.5 * np.sin(3 * np.pi * x)

    m = n - 2  # interior unknowns, u = 0 at both ends
    A = (1 + r) * np.eye(m) - 0.5 * r * (np.eye(m, k=1) + np.eye(m, k=-1))
    B = (1 - r) * np.eye(m) + 0.5 * r * (np.eye(m, k=1) + np.eye(m, k=-1))
    steps = 40
    thomas_u = u.copy()
    for _ in range(steps):
        u[1:-1] = np.linalg.solve(A, B @ u[1:-1])
        rhs = B @ thomas_u[1:-1]
        off = np.full(m - 1, -0.5 * r)  # r is a 0-d array (from x[1] - x[0]), as in NumPy
        thomas_u[1:-1] = thomas(np, off, np.full(m, 1 + r), off, rhs)
    t = steps * dt
    exact = np.exp(-(np.pi**2) * t) * np.sin(np.pi * x) + 0.5 * np.exp(-9 * np.pi**2 * t) * np.sin(
        3 * np.pi * x
    )

    # Neumann (insulated) ends with ghost points: the total heat is conserved
    v = np.where(np.abs(x - 0.3) < 0.1, 1.0, 0.0)
    N = np.diag(np.full(n, 1 + r)) - 0.5 * r * (np.eye(n, k=1) + np.eye(n, k=-1))
    N[0, 1] = N[-1, -2] = -r
    M = 2 * np.eye(n) - N
    heat0 = np.trapezoid(v, x)
    for _ in range(steps):
        v = np.linalg.solve(N, M @ v)
    return {
        "u": u,
        "thomas_matches": bool(np.allclose(u, thomas_u, atol=1e-12)),
        "max_error": np.abs(u - exact).max(),
        "neumann": v,
        "heat_change": abs(float(np.trapezoid(v, x) - heat0)) < 1e-3,
        "eig_growth": np.abs(np.linalg.eigvals(np.linalg.solve(A, B))).max(),
    }
