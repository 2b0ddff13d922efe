"""Normal modes of a chain of masses and springs: symmetric eigenproblem, then a forced response."""


def run(np):
    n = 12
    k = 1.0 + 0.1 * np.arange(n + 1)  # spring constants, fixed ends
    m = np.linspace(1.0, 2.0, n)
    K = np.diag(k[:-1] + k[1:]) - np.diag(k[1:-1], 1) - np.diag(k[1:-1], -1)

    # mass-normalised stiffness M^-1/2 K M^-1/2 stays symmetric
    minv_sqrt = 1.0 / np.sqrt(m)
    D = minv_sqrt[:, np.newaxis] * K * minv_sqrt[np.newaxis, :]
    w2, V = np.linalg.eigh(D)
    omega = np.sqrt(w2)
    modes = V * minv_sqrt[:, None]
    # fix the sign convention so every mode starts positive
    modes *= np.sign(modes[0])
    orth = modes.T @ np.diag(m) @ modes

    only_values = np.linalg.eigvalsh(D)
    general_w = np.sort(np.linalg.eigvals(np.linalg.solve(np.diag(m), K)).real)

    # steady-state response to a harmonic force on the first mass
    force = np.zeros(n)
    force[0] = 1.0
    drive = np.array([0.5, 1.0, 1.5])
    amplitudes = np.stack([np.linalg.solve(K - wd**2 * np.diag(m), force) for wd in drive])
    participation = np.einsum("i,ij->j", m, modes) ** 2 / np.einsum("i,ij,ij->j", m, modes, modes)
    return {
        "omega": omega,
        "modes": modes,
        "orthonormal": bool(np.allclose(orth, np.eye(n))),
        "eigvalsh": only_values,
        "general": general_w,
        "amplitudes": amplitudes,
        "participation": participation,
        "trace_check": float(np.trace(D) - w2.sum()),
        "det_sign": np.linalg.slogdet(K)[0],
        "logdet": np.linalg.slogdet(K)[1],
    }
