"""k-means clustering (Lloyd's algorithm) on three 2-D blobs."""

from _data import blobs


def run(np):
    X, truth = blobs(np, [[0.0, 0.0], [3.0, 3.0], [0.0, 4.0]], 40, spread=0.8)
    k = 3
    centroids = X[[0, 45, 90]].copy()  # one starting point from each region
    iterations = 0
    for _ in range(20):
        iterations += 1
        # squared distances via broadcasting: (n, 1, d) - (1, k, d)
        d2 = ((X[:, np.newaxis, :] - centroids[np.newaxis, :, :]) ** 2).sum(axis=-1)
        labels = d2.argmin(axis=1)
        new = np.zeros_like(centroids)
        for j in range(k):
            members = X[labels == j]
            if len(members):
                new[j] = members.mean(axis=0)
        shift = np.linalg.norm(new - centroids, axis=1).max()
        centroids = new
        if float(shift) < 1e-10:
            break
    counts = np.bincount(labels, minlength=k)
    np.testing.assert_array_equal(np.unique(labels), np.arange(labels.max() + 1))
    inertia = d2[np.arange(len(X)), labels].sum()
    # the cluster that most of each true blob fell into
    votes = np.zeros((k, k), dtype=np.int64)
    np.add.at(votes, (truth, labels), 1)
    purity = votes.max(axis=1).sum() / len(X)
    return {
        "centroids": centroids,
        "labels": labels,
        "counts": counts,
        "inertia": inertia,
        "purity": purity,
        "iterations": iterations,
        "summary": f"inertia={inertia:.6f} purity={purity:.3f}",
    }
