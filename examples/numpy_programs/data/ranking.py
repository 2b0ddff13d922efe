"""Sorting and ranking with ties: average/min/dense ranks, lexsort, top-k, percentiles, Spearman."""

from _data import noise


def rank_average(np, a):
    order = np.argsort(a, kind="stable")
    s = a[order]
    new = np.r_[True, s[1:] != s[:-1]]
    dense = np.cumsum(new)
    starts = np.flatnonzero(np.r_[new, True])
    counts = np.diff(starts)
    # average rank of each tie group (1-based)
    avg = (starts[:-1] + 1 + starts[:-1] + counts) / 2.0
    ranks = np.empty(len(a))
    ranks[order] = avg[dense - 1]
    return ranks, dense[np.argsort(order)]


def run(np):
    scores = np.round(noise(np, (60,), seed=21) * 5).astype(np.int64)  # many ties
    other = np.round(scores + noise(np, (60,), seed=22) * 3)
    avg_rank, dense_rank = rank_average(np, scores)
    min_rank = np.searchsorted(np.sort(scores), scores, side="left") + 1
    max_rank = np.searchsorted(np.sort(scores), scores, side="right")
    r1 = rank_average(np, scores.astype(float))[0]
    r2 = rank_average(np, other)[0]
    spearman = np.corrcoef(r1, r2)[0, 1]
    # multi-key sort: by score descending, then by `other` ascending, then by index
    order = np.lexsort((np.arange(60), other, -scores))
    top5 = order[:5]
    kth = np.partition(other, 10)[10]
    top_k = np.sort(other)[-5:][::-1]
    pct = np.percentile(other, [10, 25, 50, 75, 90])
    q = np.quantile(other, 0.5, method="lower")
    vals, first_idx = np.unique(scores, return_index=True)
    descending = np.sort(scores)[::-1]
    is_sorted = bool(np.all(descending[:-1] >= descending[1:]))
    argmax_first = int(np.argmax(scores))  # the first maximum in ties
    return {
        "avg_rank": avg_rank,
        "dense_rank": dense_rank,
        "min_rank": min_rank,
        "max_rank": max_rank,
        "spearman": spearman,
        "order": order,
        "top5": top5,
        "kth": kth,
        "top_k": top_k,
        "pct": pct,
        "q": q,
        "vals": vals,
        "first_idx": first_idx,
        "is_sorted": is_sorted,
        "argmax_first": argmax_first,
        "sorted_rows": np.sort(np.stack([scores, other.astype(np.int64)]), axis=1),
    }
