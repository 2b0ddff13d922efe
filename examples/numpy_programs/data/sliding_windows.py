"""Sliding windows over a signal and a table: moving averages, rolling z-scores, min-max scaling."""

from _data import noise


def run(np):
    n = 200
    t = np.linspace(0.0, 4.0 * np.pi, n)
    x = np.sin(t) + 0.2 * noise(np, (n,), seed=17)
    w = 9
    sliding = np.lib.stride_tricks.sliding_window_view
    windows = sliding(x, w)
    ma = windows.mean(axis=-1)
    ma_cumsum = np.convolve(x, np.ones(w) / w, mode="valid")
    c = np.cumsum(np.insert(x, 0, 0.0))
    ma_diff = (c[w:] - c[:-w]) / w
    rolling_std = windows.std(axis=-1, ddof=1)
    z = (x[w - 1 :] - ma) / rolling_std
    spikes = np.flatnonzero(np.abs(z) > 1.5)
    rolling_max = windows.max(axis=1)
    running_max = np.maximum.accumulate(x)
    edges = np.linspace(x.min(), x.max(), 7)
    level = np.digitize(x, edges[1:-1])
    hist, _ = np.histogram(x, bins=6, range=(x.min(), x.max()))
    # table: standardise and min-max scale each column
    table = noise(np, (50, 4), seed=18) * np.array([1.0, 10.0, 100.0, 0.1]) + np.array(
        [0, 5, -3, 1]
    )
    standard = (table - table.mean(axis=0)) / table.std(axis=0)
    lo, hi = table.min(axis=0), table.max(axis=0)
    scaled = (table - lo) / (hi - lo)
    # 2-D windows: 3x3 local maxima of the table
    win2 = sliding(table, (3, 3))
    local_max = win2.max(axis=(-2, -1))
    # stride-based frames with a hop of 4
    frames = windows[::4]
    energy = np.einsum("ij,ij->i", frames, frames)
    return {
        "ma": ma,
        "ma_equal": np.allclose(ma, ma_cumsum) and np.allclose(ma, ma_diff),
        "rolling_std": rolling_std,
        "spikes": spikes,
        "rolling_max": rolling_max,
        "running_max": running_max,
        "level": level,
        "hist": hist,
        "standard_mean": standard.mean(axis=0),
        "standard": standard,
        "scaled": scaled,
        "scaled_range": (scaled.min(), scaled.max()),
        "local_max": local_max,
        "energy": energy,
        "frames_shape": frames.shape,
    }
