"""Monte Carlo: random-walk diffusion coefficient, pi by rejection, sample statistics.

gpupy's random streams differ from NumPy's by design (docs/numpy_differences.md, "Random
numbers"), so this program returns statistics, compared with tolerances set by the sample sizes.
"""

# (rtol, atol) from the sampling error of each statistic, roughly 5 standard errors
TOLERANCES = {
    "diffusion": (0.08, 0.0),
    "msd_slope_ratio": (0.08, 0.0),
    "pi": (0.0, 0.03),
    "normal_moments": (0.0, 0.12),  # excess kurtosis: standard error sqrt(24 / n) = 0.025
    "legacy_uniform_mean": (0.0, 0.01),
    "poisson_mean": (0.03, 0.0),
    "exp_median": (0.05, 0.0),
    "choice_freq": (0.0, 0.03),
    "perm_is_perm": (0.0, 0.0),
    "shapes": (0.0, 0.0),
}


def run(np):
    rng = np.random.default_rng(12345)
    walkers, steps, dt = 2000, 200, 0.01
    D_true = 0.5
    kicks = rng.normal(0.0, np.sqrt(2 * D_true * dt), size=(steps, walkers, 2))
    paths = np.cumsum(kicks, axis=0)
    msd = np.mean(np.sum(paths**2, axis=-1), axis=1)
    t = dt * np.arange(1, steps + 1)
    slope = np.polyfit(t, msd, 1)[0]
    diffusion = slope / 4  # 2-D: msd = 4 D t

    pts = rng.random((20000, 2))
    inside = np.count_nonzero((pts**2).sum(axis=1) <= 1.0)
    pi_est = 4.0 * inside / len(pts)

    z = rng.standard_normal(40000)
    moments = np.array([z.mean(), z.var(), np.mean(z**3), np.mean(z**4) - 3.0])

    np.random.seed(42)
    legacy = np.random.rand(5000)
    counts = np.random.poisson(3.0, size=5000)
    waits = rng.exponential(scale=2.0, size=10000)
    picks = rng.choice(4, size=8000, p=[0.1, 0.2, 0.3, 0.4])
    perm = np.random.permutation(50)
    return {
        "diffusion": float(diffusion),
        "msd_slope_ratio": float(msd[-1] / msd[steps // 2 - 1]),
        "pi": pi_est,
        "normal_moments": moments,
        "legacy_uniform_mean": legacy.mean(),
        "poisson_mean": float(counts.mean()),
        "exp_median": np.median(waits),
        "choice_freq": np.bincount(picks, minlength=4) / len(picks),
        "perm_is_perm": bool(np.array_equal(np.sort(perm), np.arange(50))),
        "shapes": np.array(paths.shape),
    }
