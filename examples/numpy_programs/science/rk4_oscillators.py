"""Classic RK4 on a batch of damped, driven pendulums and on the Lorenz system (state arrays)."""


def rk4_step(f, t, y, h):
    k1 = f(t, y)
    k2 = f(t + h / 2, y + h / 2 * k1)
    k3 = f(t + h / 2, y + h / 2 * k2)
    k4 = f(t + h, y + h * k3)
    return y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def run(np):
    # 16 pendulums with different damping, state rows (theta, omega)
    damping = np.linspace(0.0, 0.5, 16)
    state = np.zeros((16, 2))
    state[:, 0] = np.deg2rad(60.0)

    def pendulum(t, y):
        dydt = np.empty_like(y)
        dydt[:, 0] = y[:, 1]
        dydt[:, 1] = -damping * y[:, 1] - 9.81 * np.sin(y[:, 0]) + 0.3 * np.cos(0.7 * t)
        return dydt

    t, h = 0.0, 0.01
    trajectory = [state]
    for _ in range(400):
        state = rk4_step(pendulum, t, state, h)
        t += h
        trajectory.append(state)
    traj = np.stack(trajectory)  # (steps, 16, 2)
    amplitude = np.abs(traj[:, :, 0]).max(axis=0)
    crossings = (np.diff(np.sign(traj[:, :, 0]), axis=0) != 0).sum(axis=0)

    sigma, rho, beta = 10.0, 28.0, 8.0 / 3.0

    def lorenz(t, v):
        x, y, z = v
        return np.array([sigma * (y - x), x * (rho - z) - y, x * y - beta * z])

    v = np.array([1.0, 1.0, 1.0])
    points = np.empty((300, 3))
    for i in range(300):
        v = rk4_step(lorenz, 0.0, v, 0.005)
        points[i] = v
    return {
        "final_state": state,
        "amplitude": amplitude,
        "crossings": crossings,
        "lorenz_end": v,
        "lorenz_mean": points.mean(axis=0),
        "lorenz_radius": np.sqrt((points**2).sum(axis=1)).max(),
        "energy": 0.5 * traj[-1, :, 1] ** 2 + 9.81 * (1 - np.cos(traj[-1, :, 0])),
    }
