"""2-D heat equation, explicit finite differences (FTCS) on a plate with a hot spot."""


def run(np):
    nx, ny = 40, 30
    alpha, dx = 0.01, 1.0 / (40 - 1)
    dt = 0.2 * dx**2 / alpha  # inside the 0.25 stability limit
    x = np.linspace(0.0, 1.0, nx)
    y = np.linspace(0.0, 0.75, ny)
    X, Y = np.meshgrid(x, y, indexing="ij")

    u = np.zeros((nx, ny))
    hot = (X - 0.5) ** 2 + (Y - 0.4) ** 2 < 0.1**2
    u[hot] = 100.0
    u[0, :] = 20.0  # left wall held warm
    initial_heat = u[1:-1, 1:-1].sum()

    history = []
    for step in range(200):
        lap = u[2:, 1:-1] + u[:-2, 1:-1] + u[1:-1, 2:] + u[1:-1, :-2] - 4.0 * u[1:-1, 1:-1]
        u[1:-1, 1:-1] += (alpha * dt / dx**2) * lap
        if step % 50 == 0:
            history.append(float(u.max()))

    centre = u[nx // 2, :]
    profile_peak = int(np.argmax(centre))
    mean_by_row = u.mean(axis=1, keepdims=True)
    anomaly = u - mean_by_row
    i, j = np.unravel_index(np.argmax(u), u.shape)
    summary = f"max {u.max():.4f} at ({i}, {j}), mean {u.mean():.3e}"
    return {
        "u": u,
        "history": np.array(history),
        "initial_heat": initial_heat,
        "final_heat": u[1:-1, 1:-1].sum(),
        "profile_peak": profile_peak,
        "anomaly_std": anomaly.std(axis=0),
        "hot_cells": int(np.count_nonzero(u > 1.0)),
        "summary": summary,
    }
