"""Interpolating tabulated data: linear (np.interp), barycentric Lagrange, natural cubic spline."""


def natural_spline(np, x, y, xq):
    n = x.size
    h = np.diff(x)
    A = np.zeros((n, n))
    rhs = np.zeros(n)
    A[0, 0] = A[-1, -1] = 1.0
    i = np.arange(1, n - 1)
    A[i, i - 1] = h[:-1]
    A[i, i] = 2 * (h[:-1] + h[1:])
    A[i, i + 1] = h[1:]
    rhs[1:-1] = 6 * ((y[2:] - y[1:-1]) / h[1:] - (y[1:-1] - y[:-2]) / h[:-1])
    M = np.linalg.solve(A, rhs)  # second derivatives at the knots
    k = np.clip(np.searchsorted(x, xq) - 1, 0, n - 2)
    hk = h[k]
    a, b = (x[k + 1] - xq) / hk, (xq - x[k]) / hk
    return a * y[k] + b * y[k + 1] + ((a**3 - a) * M[k] + (b**3 - b) * M[k + 1]) * hk**2 / 6


def barycentric(np, x, y, xq):
    diff = x[:, np.newaxis] - x[np.newaxis, :]
    np.fill_diagonal(diff, 1.0)
    w = 1.0 / np.prod(diff, axis=1)
    d = xq[:, None] - x[None, :]
    exact = np.isclose(d, 0.0)
    d[exact] = 1.0
    terms = w / d
    out = (terms @ y) / terms.sum(axis=1)
    hit = exact.any(axis=1)
    out[hit] = y[exact.argmax(axis=1)[hit]]
    return out


def run(np):
    # Chebyshev nodes for Runge's function avoid the equispaced blow-up
    n = 15
    cheb = np.cos((2 * np.arange(n) + 1) * np.pi / (2 * n))[::-1]
    equi = np.linspace(-1, 1, n)
    runge = lambda t: 1 / (1 + 25 * t**2)  # noqa: E731
    xq = np.linspace(-1, 1, 201)
    truth = runge(xq)

    lin = np.interp(xq, equi, runge(equi))
    bary_cheb = barycentric(np, cheb, runge(cheb), xq)
    bary_equi = barycentric(np, equi, runge(equi), xq)
    spline = natural_spline(np, equi, runge(equi), xq)
    errors = np.array([np.abs(e - truth).max() for e in (lin, bary_cheb, bary_equi, spline)])

    # periodic interpolation of an angle table and extrapolation clamps
    angles = np.array([0.0, 90.0, 180.0, 270.0])
    vals = np.array([1.0, 0.0, -1.0, 0.0])
    periodic = np.interp([45.0, 315.0, 405.0, -45.0], angles, vals, period=360)
    clamped = np.interp([-5.0, 5.0], equi, runge(equi), left=-1.0, right=np.nan)
    return {
        "linear": lin,
        "bary_cheb": bary_cheb,
        "spline": spline,
        "errors": errors,
        "best": int(np.argmin(errors)),
        "periodic": periodic,
        "clamped": clamped,
        "poly_fit": np.polyval(np.polyfit(cheb, runge(cheb), 8), 0.3),
    }
