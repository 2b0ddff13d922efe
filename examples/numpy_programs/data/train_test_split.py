"""Train/test splits with permutations, k-fold cross-validation of a ridge regression, bootstrap."""

from _data import noise


def ridge(np, X, y, lam):
    d = X.shape[1]
    return np.linalg.solve(X.T @ X + lam * np.eye(d), X.T @ y)


def run(np, rng_seed=0):
    n, d = 120, 5
    X = noise(np, (n, d), seed=19)
    beta = np.arange(1.0, d + 1) * np.array([1, -1, 1, -1, 1])
    y = X @ beta + 0.1 * noise(np, (n,), seed=20)
    # the split itself is random: the invariants (a partition of 0..n-1) are what must hold
    rng = np.random.default_rng(rng_seed)
    perm = rng.permutation(n)
    n_test = n // 5
    test_idx, train_idx = perm[:n_test], perm[n_test:]
    is_partition = np.array_equal(np.sort(np.concatenate([test_idx, train_idx])), np.arange(n))
    np.random.seed(rng_seed)
    shuffled = np.arange(n)
    np.random.shuffle(shuffled)
    legacy_ok = np.array_equal(np.sort(shuffled), np.arange(n)) and len(np.unique(shuffled)) == n
    # deterministic 5-fold cross-validation over the contiguous folds
    folds = np.array_split(np.arange(n), 5)
    lams = np.array([1e-3, 1e-1, 1.0, 10.0])
    cv = np.empty((len(lams), len(folds)))
    for i, lam in enumerate(lams):
        for j, fold in enumerate(folds):
            train = np.ones(n, dtype=bool)
            train[fold] = False
            b = ridge(np, X[train], y[train], lam)
            cv[i, j] = np.mean((X[fold] @ b - y[fold]) ** 2)
    best = lams[cv.mean(axis=1).argmin()]
    b_full = ridge(np, X, y, best)
    # bootstrap the coefficient spread with Generator.integers (statistics only)
    boots = np.empty((200, d))
    for r in range(len(boots)):
        idx = rng.integers(0, n, size=n)
        boots[r] = ridge(np, X[idx], y[idx], best)
    spread = boots.std(axis=0)
    lstsq = np.linalg.lstsq(np.c_[X, np.ones(n)], y, rcond=None)[0]
    return {
        "is_partition": is_partition,
        "legacy_ok": legacy_ok,
        "cv": cv,
        "best": best,
        "b_full": b_full,
        "boot_mean": boots.mean(axis=0),  # compared loosely: random resamples
        "boot_spread": spread,
        "lstsq": lstsq,
        "fold_sizes": [len(f) for f in folds],
    }
