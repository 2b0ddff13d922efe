"""Iterative linear solvers on a 1-D Poisson matrix: conjugate gradients, Gauss-Seidel sweeps,
power iteration for the largest eigenvalue, checked against the direct solution."""


def poisson_matrix(np, n):
    return 2.0 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1)


def conjugate_gradient(np, A, b, tol=1e-10, max_iter=200):
    x = np.zeros_like(b)
    r = b - A @ x
    p = r.copy()
    rs = r @ r
    residuals = [float(np.sqrt(rs))]
    for _ in range(max_iter):
        Ap = A @ p
        alpha = rs / (p @ Ap)
        x += alpha * p
        r -= alpha * Ap
        rs_new = r @ r
        residuals.append(float(np.sqrt(rs_new)))
        if np.sqrt(rs_new) < tol:
            break
        p = r + (rs_new / rs) * p
        rs = rs_new
    return x, np.array(residuals)


def run(np):
    n = 30
    A = poisson_matrix(np, n)
    xs = np.linspace(0, 1, n + 2)[1:-1]
    b = (xs * (1 - xs)) / (n + 1) ** 2
    direct = np.linalg.solve(A, b)

    x_cg, residuals = conjugate_gradient(np, A, b)
    np.testing.assert_allclose(x_cg, direct, rtol=1e-8, atol=1e-12)

    # Gauss-Seidel: row by row with slices (the textbook loop)
    x_gs = np.zeros(n)
    for _ in range(200):
        for i in range(n):
            x_gs[i] = (b[i] - A[i, :i] @ x_gs[:i] - A[i, i + 1 :] @ x_gs[i + 1 :]) / A[i, i]
    gs_error = np.abs(x_gs - direct).max()

    # power iteration, and the Rayleigh quotient against eigvalsh
    v = np.ones(n) / np.sqrt(n)
    v[::2] *= -1  # start with the highest mode present
    for _ in range(500):
        w = A @ v
        v = w / np.linalg.norm(w)
    lam = v @ A @ v
    exact = np.linalg.eigvalsh(A).max(initial=0.0)
    iterations, last = divmod(len(residuals) - 1, 10)
    return {
        "direct": direct,
        "cg": x_cg,
        "cg_iterations": len(residuals) - 1,
        "residual_drop": residuals[-1] / residuals[0],
        "gs_error": gs_error,
        "lambda_max": lam,
        "lambda_exact": exact,
        "lambda_rounded": float(round(lam, 6)),
        "split": (iterations, last),
        "report": f"CG converged in {len(residuals) - 1} steps, lambda_max = {lam:.6f}",
    }
