"""Descriptive statistics, histograms, correlation and a bootstrap with given resamples."""

import numpy as _numpy

_rng = _numpy.random.default_rng(3)
HEIGHTS = _rng.normal(170.0, 8.0, 300)
WEIGHTS = 0.9 * (HEIGHTS - 100.0) + _rng.normal(0.0, 6.0, 300)
AGES = _rng.integers(18, 80, 300)
RESAMPLES = _rng.integers(0, 300, (200, 300))


def run(np):
    h = np.asarray(HEIGHTS)
    w = np.asarray(WEIGHTS)
    ages = np.asarray(AGES)
    idx = np.asarray(RESAMPLES)

    counts, edges = np.histogram(h, bins=12, range=(140, 200))
    density, _ = np.histogram(h, bins="auto", density=True)
    centres = 0.5 * (edges[1:] + edges[:-1])
    mode_bin = centres[counts.argmax()]

    q = np.percentile(h, [5, 25, 50, 75, 95])
    iqr = q[3] - q[1]
    outliers = h[(h < q[1] - 1.5 * iqr) | (h > q[3] + 1.5 * iqr)]

    data = np.vstack([h, w, ages.astype(float)])
    cov = np.cov(data)
    corr = np.corrcoef(data)
    bmi = w / (h / 100) ** 2

    # bootstrap of the median and of the correlation
    boot_medians = np.median(h[idx], axis=1)
    hc = h[idx] - h[idx].mean(axis=1, keepdims=True)
    wc = w[idx] - w[idx].mean(axis=1, keepdims=True)
    boot_r = (hc * wc).sum(axis=1) / np.sqrt((hc**2).sum(axis=1) * (wc**2).sum(axis=1))
    ci = np.quantile(boot_r, [0.025, 0.975])

    decade = np.digitize(ages, [30, 40, 50, 60, 70])
    per_decade = np.bincount(decade, minlength=6)
    mean_bmi = np.bincount(decade, weights=bmi, minlength=6) / per_decade
    z = (h - h.mean()) / h.std(ddof=1)
    hist2d, _, _ = np.histogram2d(h, w, bins=(6, 5))
    return {
        "counts": counts,
        "edges": edges,
        "density": density,
        "mode_bin": mode_bin,
        "quantiles": q,
        "n_outliers": len(outliers),
        "cov": cov,
        "corr": corr,
        "boot_median_se": np.std(boot_medians, ddof=1),
        "boot_ci": ci,
        "per_decade": per_decade,
        "mean_bmi": mean_bmi,
        "z_extremes": np.array([z.min(), z.max()]),
        "skew": np.mean(z**3),
        "hist2d": hist2d,
        "nanmean": np.nanmean(np.where(h > 185, np.nan, h)),
        "var": np.var(w),
        "avg": np.average(h, weights=ages),
    }
