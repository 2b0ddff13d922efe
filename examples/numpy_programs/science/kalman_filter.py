"""Tracking a particle with a constant-velocity Kalman filter, then a Rauch-Tung-Striebel
smoother, from noisy position measurements."""

import numpy as _numpy

_rng = _numpy.random.default_rng(21)
_T = _numpy.arange(60) * 0.1
TRUE_POS = _numpy.stack([_numpy.cos(_T), 0.5 * _numpy.sin(2 * _T)], axis=1)
MEASURED = TRUE_POS + 0.05 * _rng.standard_normal(TRUE_POS.shape)

TOLERANCE = (1e-9, 1e-12)


def run(np):
    z = np.asarray(MEASURED)
    dt, n = 0.1, len(z)
    F = np.eye(4)
    F[:2, 2:] = dt * np.eye(2)
    H = np.hstack([np.eye(2), np.zeros((2, 2))])
    q = 5.0  # process noise: the mean NIS comes out near its expected value 2
    G = np.vstack([0.5 * dt**2 * np.eye(2), dt * np.eye(2)])
    Q = q * G @ G.T
    R = 0.05**2 * np.eye(2)

    x = np.zeros(4)
    x[:2] = z[0]
    P = np.diag([R[0, 0], R[1, 1], 1.0, 1.0])
    xs, Ps, xp_, Pp_ = np.zeros((n, 4)), np.zeros((n, 4, 4)), np.zeros((n, 4)), np.zeros((n, 4, 4))
    nis = np.empty(n)
    for k in range(n):
        x = F @ x
        P = F @ P @ F.T + Q
        xp_[k], Pp_[k] = x, P
        innovation = z[k] - H @ x
        S = H @ P @ H.T + R
        K = np.linalg.solve(S, H @ P).T  # P H^T S^-1 without an explicit inverse
        x = x + K @ innovation
        P = (np.eye(4) - K @ H) @ P
        xs[k], Ps[k] = x, P
        nis[k] = innovation @ np.linalg.inv(S) @ innovation

    # RTS smoother, backwards
    smooth = xs.copy()
    for k in range(n - 2, -1, -1):
        C = Ps[k] @ F.T @ np.linalg.inv(Pp_[k + 1])
        smooth[k] += C @ (smooth[k + 1] - xp_[k + 1])

    truth = np.asarray(TRUE_POS)
    rmse = lambda est: np.sqrt(np.mean(np.sum((est[:, :2] - truth) ** 2, axis=1)))  # noqa: E731
    return {
        "filtered": xs,
        "smoothed": smooth,
        "rmse_measured": float(np.sqrt(np.mean(np.sum((z - truth) ** 2, axis=1)))),
        "rmse_filtered": rmse(xs),
        "rmse_smoothed": rmse(smooth),
        "mean_nis": nis.mean(),
        "final_cov_diag": np.diagonal(Ps[-1]).copy(),
        "speed": np.linalg.norm(smooth[:, 2:], axis=1),
    }
