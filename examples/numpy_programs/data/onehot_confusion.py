"""One-hot encoding, a confusion matrix, and per-class precision/recall/F1 for a 4-class problem."""

from _data import noise


def run(np):
    n, c = 250, 4
    y_true = (np.abs(noise(np, (n,), seed=15)) * c).astype(np.intp)
    flip = noise(np, (n,), seed=16) > 0.5
    y_pred = y_true.copy()
    y_pred[flip] = (y_pred[flip] + 1) % c  # a quarter of the predictions are wrong
    onehot = np.zeros((n, c), dtype=np.int8)
    onehot[np.arange(n), y_true] = 1
    onehot2 = (y_true[:, np.newaxis] == np.arange(c)).astype(np.int8)
    eye_hot = np.eye(c, dtype=np.int8)[y_true]
    back = onehot.argmax(axis=1)
    cm = np.zeros((c, c), dtype=np.int64)
    np.add.at(cm, (y_true, y_pred), 1)
    cm2 = np.bincount(y_true * c + y_pred, minlength=c * c).reshape(c, c)
    cm3 = onehot.T.astype(np.int64) @ np.eye(c, dtype=np.int64)[y_pred]
    tp = np.diag(cm)
    precision = tp / cm.sum(axis=0)
    recall = tp / cm.sum(axis=1)
    f1 = 2 * precision * recall / (precision + recall)
    normalised = cm / cm.sum(axis=1, keepdims=True)
    accuracy = np.trace(cm) / cm.sum()
    pair_hits = np.equal.outer(y_true[:20], y_pred[:20])
    all_seen = np.logical_and.reduce(cm.sum(axis=1) > 0)
    # cross-entropy of smoothed one-hot predictions
    probs = 0.05 + 0.8 * np.eye(c)[y_pred]
    probs /= probs.sum(axis=1)[:, None]
    xent = -(onehot * np.log(probs)).sum(axis=1).mean()
    return {
        "onehot_equal": np.array_equal(onehot, onehot2) and (onehot == eye_hot).all(),
        "back_equal": np.array_equal(back, y_true),
        "cm": cm,
        "cm_equal": np.array_equal(cm, cm2) and np.array_equal(cm, cm3),
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "macro_f1": f1.mean(),
        "normalised": normalised,
        "accuracy": accuracy,
        "pair_hits": pair_hits.sum(axis=0),
        "all_seen": all_seen,
        "xent": xent,
        "class_sizes": onehot.sum(axis=0),
        "dtype": str(onehot.dtype),
    }
