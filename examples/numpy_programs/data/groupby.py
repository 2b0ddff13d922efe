"""Group-by aggregation on column arrays: sums, means, min/max, counts and medians per key."""

from _data import noise


def run(np):
    n = 300
    store = (np.abs(noise(np, (n,), seed=12)) * 7).astype(np.int64)  # keys 0..6
    month = np.arange(n) % 12 + 1
    sales = np.round(100 + 50 * noise(np, (n,), seed=13), 2)
    qty = (np.abs(noise(np, (n,), seed=14)) * 20).astype(np.int32) + 1

    keys, inv, counts = np.unique(store, return_inverse=True, return_counts=True)
    totals = np.bincount(inv, weights=sales)
    means = totals / counts
    qty_tot = np.zeros(len(keys), dtype=np.int64)
    np.add.at(qty_tot, inv, qty)
    # min and max per group via ufunc.reduceat on the sorted order
    order = np.argsort(inv, kind="stable")
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    mins = np.minimum.reduceat(sales[order], starts)
    maxs = np.maximum.reduceat(sales[order], starts)
    medians = np.array([np.median(sales[inv == g]) for g in range(len(keys))])
    # two keys at once: (store, quarter) pivot table
    quarter = (month - 1) // 3
    pivot = np.zeros((len(keys), 4))
    np.add.at(pivot, (inv, quarter), sales)
    share = pivot / pivot.sum(axis=1, keepdims=True)
    # weighted mean price per store and the best store
    price = sales / qty
    wmean = np.bincount(inv, weights=price * qty) / np.bincount(inv, weights=qty)
    best = keys[np.argmax(totals)]
    # dict keys must be hashable: gpupy's elements are 0-d device arrays, so go through tolist()
    # (docs/numpy_differences.md, "Single elements and full reductions are 0-d arrays")
    by_store = dict(zip(keys.tolist(), np.round(totals, 2).tolist(), strict=True))
    all_stores = np.zeros(keys.max() + 1)
    all_stores[keys] = totals
    big_orders = sales.mean(where=qty > 10)
    largest_missing = np.max(sales[store > 100], initial=0.0)
    # rank stores by total (descending)
    ranking = keys[np.argsort(-totals)]
    per_month = np.histogram(month, bins=np.arange(0.5, 13.5), weights=sales)[0]
    return {
        "keys": keys,
        "counts": counts,
        "totals": totals,
        "means": means,
        "qty_tot": qty_tot,
        "mins": mins,
        "maxs": maxs,
        "medians": medians,
        "pivot": pivot,
        "share": share,
        "wmean": wmean,
        "best": int(best),
        "ranking": ranking,
        "per_month": per_month,
        "report": "\n".join(
            f"{k}: {t:10.2f} ({c})" for k, t, c in zip(keys, totals, counts, strict=True)
        ),
        "by_store": by_store,
        "all_stores": all_stores,
        "big_orders": big_orders,
        "largest_missing": largest_missing,
    }
