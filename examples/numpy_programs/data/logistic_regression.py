"""Binary logistic regression fitted by batch gradient descent, with an L2 penalty."""

from _data import noise


def sigmoid(np, z):
    return 1.0 / (1.0 + np.exp(-z))


def run(np):
    n, d = 200, 3
    X = noise(np, (n, d), seed=1) * 2.0
    w_true = np.array([1.5, -2.0, 0.5])
    y = (X @ w_true + 0.3 * noise(np, (n,), seed=2) > 0.25).astype(np.float64)
    # standardise the features, add a bias column
    mu, sd = X.mean(axis=0, keepdims=True), X.std(axis=0, keepdims=True)
    Xs = np.hstack([np.ones((n, 1)), (X - mu) / sd])
    w = np.zeros(d + 1)
    lr, lam = 0.5, 1e-3
    losses = []
    for step in range(150):
        p = sigmoid(np, Xs @ w)
        grad = Xs.T @ (p - y) / n
        grad[1:] += lam * w[1:]
        w -= lr * grad
        if step % 10 == 0:
            eps = 1e-12
            loss = -np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps))
            losses.append(float(loss))
    p = sigmoid(np, Xs @ w)
    pred = np.where(p >= 0.5, 1, 0)
    acc = (pred == y).mean()
    tp = int(np.sum((pred == 1) & (y == 1)))
    fp = int(np.count_nonzero((pred == 1) & (y == 0)))
    return {
        "w": w,
        "losses": np.array(losses),
        "accuracy": acc,
        "precision": tp / (tp + fp),
        "pred": pred,
        "monotone": bool(np.all(np.diff(np.array(losses)) <= 0)),
    }
