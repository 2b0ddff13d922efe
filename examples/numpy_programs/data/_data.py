"""Deterministic pseudo-random inputs shared by the programs: the same numbers under NumPy and
gpupy, since their random streams differ by design."""


def noise(np, shape, seed=0):
    """Values in [-1, 1) from a fixed sine hash, so every library sees identical data."""
    n = 1
    for s in shape:
        n *= s
    k = np.arange(n, dtype=np.float64) + 1.0 + 1000.0 * seed
    x = np.sin(k * 12.9898 + 78.233) * 43758.5453
    return (2.0 * (x - np.floor(x)) - 1.0).reshape(shape)


def blobs(np, centers, n_per, spread=0.3, seed=0):
    """Points scattered around each row of `centers`, with their integer labels."""
    centers = np.asarray(centers, dtype=np.float64)
    k, d = centers.shape
    pts = noise(np, (k, n_per, d), seed) * spread + centers[:, np.newaxis, :]
    labels = np.repeat(np.arange(k), n_per)
    return pts.reshape(-1, d), labels
