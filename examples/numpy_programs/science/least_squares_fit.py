"""Fitting a cubic to noisy data: normal equations, lstsq, QR and SVD; plus a weighted fit."""

import numpy as _numpy

_rng = _numpy.random.default_rng(7)
DATA_T = _numpy.linspace(-1.0, 2.0, 60)
DATA_Y = 0.5 - 1.2 * DATA_T + 0.8 * DATA_T**3 + 0.05 * _rng.standard_normal(60)
DATA_SIGMA = 0.05 + 0.02 * _rng.random(60)

TOLERANCE = (1e-8, 1e-10)


def run(np):
    t = np.asarray(DATA_T)
    y = np.asarray(DATA_Y)
    sigma = np.asarray(DATA_SIGMA)
    A = np.vander(t, 4, increasing=True)

    normal = np.linalg.solve(A.T @ A, A.T @ y)
    coef, residuals, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    Q, R = np.linalg.qr(A)
    qr_coef = np.linalg.solve(R, Q.T @ y)
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    svd_coef = Vt.T @ ((U.T @ y) / s)
    pinv_coef = np.linalg.pinv(A) @ y
    poly = np.polyfit(t, y, 3)[::-1]

    W = 1.0 / sigma
    wcoef = np.linalg.lstsq(A * W[:, None], y * W, rcond=None)[0]
    cov = np.linalg.inv((A * W[:, None] ** 2).T @ A)
    errors = np.sqrt(np.diag(cov))
    chi2 = np.sum(((y - A @ wcoef) / sigma) ** 2)

    fitted = np.polyval(poly[::-1], t)
    r2 = 1 - np.sum((y - fitted) ** 2) / np.sum((y - y.mean()) ** 2)
    return {
        "normal": normal,
        "lstsq": coef,
        "residuals": residuals,
        "rank": int(rank),
        "singular_values": sv,
        "qr": qr_coef,
        "svd": svd_coef,
        "pinv": pinv_coef,
        "polyfit": poly,
        "weighted": wcoef,
        "errors": errors,
        "chi2": float(chi2),
        "r2": r2,
        "cond": np.linalg.cond(A),
        "svals": np.linalg.svd(A, compute_uv=False),
        "rank_tol": int(np.linalg.matrix_rank(A, tol=1e-8)),
        "agree": bool(np.allclose(coef, qr_coef) and np.allclose(coef, svd_coef)),
    }
