"""Numerical integration by hand: trapezoid, Simpson, Romberg, cumulative and 2-D integrals."""


def simpson(np, y, dx):
    # composite Simpson on an even number of intervals, with the weights written out
    w = np.ones(y.shape[-1])
    w[1:-1:2] = 4
    w[2:-1:2] = 2
    return dx / 3 * (y * w).sum(axis=-1)


def romberg(np, f, a, b, levels):
    R = np.zeros((levels, levels))
    h = b - a
    R[0, 0] = 0.5 * h * (f(a) + f(b))
    for i in range(1, levels):
        h /= 2
        mids = a + h * np.arange(1, 2**i, 2)
        R[i, 0] = 0.5 * R[i - 1, 0] + h * f(mids).sum()
        for j in range(1, i + 1):
            R[i, j] = R[i, j - 1] + (R[i, j - 1] - R[i - 1, j - 1]) / (4**j - 1)
    return R


def run(np):
    n = np.array([8, 16, 32, 64, 128])
    exact = 2.0  # integral of sin over [0, pi]
    trap_err, simp_err = [], []
    for k in n:
        x = np.linspace(0, np.pi, int(k) + 1)
        trap_err.append(abs(np.trapezoid(np.sin(x), x) - exact))
        simp_err.append(abs(simpson(np, np.sin(x), x[1] - x[0]) - exact))
    trap_err, simp_err = np.array(trap_err), np.array(simp_err)
    trap_order = np.log2(trap_err[:-1] / trap_err[1:])
    simp_order = np.log2(simp_err[:-1] / simp_err[1:])

    R = romberg(np, lambda t: np.exp(-(t**2)), 0.0, 1.0, 6)

    # cumulative trapezoid: position from a sampled velocity
    t = np.linspace(0, 10, 201)
    v = 3 * np.exp(-0.3 * t) * np.cos(t)
    dt = np.diff(t)
    position = np.concatenate(([0.0], np.cumsum(0.5 * (v[1:] + v[:-1]) * dt)))

    # integrals of several functions at once along an axis
    xs = np.linspace(0, 1, 101)
    powers = xs[np.newaxis, :] ** np.arange(1, 6)[:, np.newaxis]
    moments = np.trapezoid(powers, xs, axis=1)

    # 2-D: integral of exp(-(x^2+y^2)) over a square via nested Simpson
    g = np.linspace(-2, 2, 81)
    Z = np.exp(-(g[:, None] ** 2 + g[None, :] ** 2))
    double = simpson(np, simpson(np, Z, g[1] - g[0]), g[1] - g[0])
    return {
        "trap_err": trap_err,
        "simp_err": simp_err,
        "trap_order": trap_order,
        "simp_order": simp_order,
        "romberg": R,
        "romberg_best": R[-1, -1],
        "position": position,
        "moments": moments,
        "double": float(double),
        "gradient": np.gradient(position, t)[:20],
    }
