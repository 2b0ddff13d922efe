"""A two-layer neural network (tanh hidden layer, softmax output): forward, backward, SGD steps."""

from _data import blobs, noise


def softmax(np, z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def run(np):
    X, y = blobs(np, [[0.0, 1.0], [1.0, -1.0], [-1.0, -1.0]], 30, spread=0.6, seed=5)
    n, d = X.shape
    h, c = 16, 3
    W1 = 0.5 * noise(np, (d, h), seed=6)
    b1 = np.zeros(h)
    W2 = 0.5 * noise(np, (h, c), seed=7)
    b2 = np.zeros((1, c))
    Y = np.eye(c)[y]
    lr = 0.5
    history = []
    for _ in range(60):
        a1 = np.tanh(X @ W1 + b1)
        probs = softmax(np, a1 @ W2 + b2)
        loss = -np.log(probs[np.arange(n), y]).mean()
        history.append(loss)
        dz2 = (probs - Y) / n
        dW2 = a1.T @ dz2
        db2 = dz2.sum(axis=0, keepdims=True)
        da1 = dz2 @ W2.T
        dz1 = da1 * (1 - a1**2)
        dW1 = np.einsum("ni,nj->ij", X, dz1)
        db1 = dz1.sum(0)
        for param, grad in ((W1, dW1), (b1, db1), (W2, dW2), (b2, db2)):
            param -= lr * grad

    # a numerical check of one weight's gradient (central difference)
    def loss_at(W):
        p = softmax(np, np.tanh(X @ W + b1) @ W2 + b2)
        return -np.log(p[np.arange(n), y]).mean()

    a1 = np.tanh(X @ W1 + b1)
    probs = softmax(np, a1 @ W2 + b2)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=1e-12)
    dz1 = ((probs - Y) / n) @ W2.T * (1 - a1**2)
    analytic = (X.T @ dz1)[0, 3]
    Wp, Wm = W1.copy(), W1.copy()
    Wp[0, 3] += 1e-5
    Wm[0, 3] -= 1e-5
    numeric = (loss_at(Wp) - loss_at(Wm)) / 2e-5
    return {
        "history": np.stack(history),
        "W1": W1,
        "b2": b2,
        "accuracy": np.mean(probs.argmax(axis=1) == y),
        "grad_rel_err_small": bool(abs(analytic - numeric) <= 1e-6 * max(1.0, abs(float(numeric)))),
        "final_loss": f"{history[-1]:.8f}",
    }
