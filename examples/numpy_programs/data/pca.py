"""Principal component analysis by SVD and by the covariance eigendecomposition."""

from _data import noise


def run(np):
    n = 150
    z = noise(np, (n, 2), seed=3)
    mixing = np.array([[3.0, 0.5, 1.0, 0.0], [0.0, 1.0, -1.0, 0.5]])
    X = z @ mixing + 0.05 * noise(np, (n, 4), seed=4) + np.array([10.0, -5.0, 2.0, 0.0])
    Xc = X - X.mean(axis=0)
    U, S, Vt = np.linalg.svd(Xc, full_matrices=False)
    np.testing.assert_allclose(np.linalg.svd(Xc, compute_uv=False), S, rtol=1e-10)
    rank = np.linalg.matrix_rank(Xc, 1e-6 * S[0])
    explained = S**2 / (n - 1)
    ratio = explained / explained.sum()
    # fix the sign of each component so the largest loading is positive
    signs = np.sign(Vt[np.arange(len(Vt)), np.abs(Vt).argmax(axis=1)])
    Vt *= signs[:, np.newaxis]
    scores = Xc @ Vt[:2].T
    cov = np.cov(X, rowvar=False)
    evals, evecs = np.linalg.eigh(cov)
    evals = evals[::-1]
    recon = scores @ Vt[:2] + X.mean(axis=0)
    err = np.sqrt(((X - recon) ** 2).sum(axis=1)).max()
    n_keep = int(np.searchsorted(np.cumsum(ratio), 0.99) + 1)
    return {
        "singular_values": S,
        "ratio": ratio,
        "components": Vt,
        "scores": scores,
        "evals": evals,
        "evals_match": np.allclose(evals, explained),
        "recon_err": err,
        "n_keep": n_keep,
        "trace": np.trace(cov),
        "rank": rank,
        "whitened_cov": np.cov((U[:, :2] * np.sqrt(n - 1)).T),
    }
