"""Finite elements for an axially loaded bar (fixed at x = 0, distributed load q): global
stiffness assembly by np.ix_ in-place adds and by np.add.at scatters, reduced solve, stresses,
and the nodal error against the exact solution (graded modulus E, one value per element)."""

TOLERANCE = (1e-10, 1e-15)
TOLERANCES = {"nodal_error": (0.0, 1e-12)}  # rounding-level, different on every device


def run(np):
    n_el, L = 16, 2.0
    E = np.linspace(200e9, 100e9, n_el)  # a graded material, one modulus per element
    A, q = 1e-4, 1000.0
    x = np.linspace(0.0, L, n_el + 1)
    h = np.diff(x)
    k_el = E * A / h  # element stiffnesses
    unit = np.array([[1.0, -1.0], [-1.0, 1.0]])

    # assembly the textbook way: one element at a time
    K = np.zeros((n_el + 1, n_el + 1))
    F = np.zeros(n_el + 1)
    for e in range(n_el):
        dofs = np.array([e, e + 1])
        K[np.ix_(dofs, dofs)] += k_el[e] * unit
        F[dofs] += q * h[e] / 2

    # vectorised assembly: all element matrices at once, scattered with add.at
    conn = np.stack([np.arange(n_el), np.arange(1, n_el + 1)], axis=1)
    ke_all = k_el[:, None, None] * unit  # (n_el, 2, 2)
    rows = np.repeat(conn, 2, axis=1).ravel()
    cols = np.tile(conn, (1, 2)).ravel()
    K_vec = np.zeros_like(K)
    np.add.at(K_vec, (rows, cols), ke_all.ravel())

    free = np.arange(1, n_el + 1)
    u = np.zeros(n_el + 1)
    u[free] = np.linalg.solve(K[np.ix_(free, free)], F[free])
    reaction = K[0] @ u - F[0]
    strain = np.diff(u) / h
    stress = E * strain

    # exact: u(x) = integral of q (L - s) / (E A); linear elements are exact at the nodes
    seg = q / (E * A) * (L * h - (x[1:] ** 2 - x[:-1] ** 2) / 2)
    exact = np.concatenate(([0.0], np.cumsum(seg)))
    return {
        "K": K,
        "assemblies_agree": bool(np.allclose(K, K_vec, rtol=1e-12)),
        "u": u,
        "stress": stress,
        "reaction": float(reaction),
        "equilibrium": abs(float(reaction) + q * L) < 1e-6 * q * L,
        "tip_displacement": u[-1],
        "nodal_error": np.abs(u - exact).max() / u.max(),
        "bandwidth": int(np.max(np.abs(np.subtract(*np.nonzero(K))))),
    }
