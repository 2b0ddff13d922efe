"""RGB image (3-D array) work: masks, labelling of connected regions, flips, rotations, padding."""

from _data import noise


def label_regions(np, mask):
    """4-connected component labels by repeated min-propagation over a padded grid."""
    h, w = mask.shape
    big = h * w + 1
    lab = np.where(mask, np.arange(1, h * w + 1).reshape(h, w), big)
    while True:
        p = np.pad(lab, 1, constant_values=big)
        nb = np.minimum.reduce(
            [p[1:-1, 1:-1], p[:-2, 1:-1], p[2:, 1:-1], p[1:-1, :-2], p[1:-1, 2:]]
        )
        nb[~mask] = big
        if np.array_equal(nb, lab):
            break
        lab = nb
    lab[~mask] = 0
    _, dense = np.unique(lab, return_inverse=True)
    return dense.reshape(h, w)  # 0 = background, 1..n = regions


def run(np):
    h, w = 24, 32
    rgb = np.zeros((h, w, 3), dtype=np.uint8)
    rgb[2:8, 3:10] = [200, 30, 30]  # red block
    rgb[12:20, 15:22, 1] = 180  # green block
    rgb[4:6, 20:30, :] = 255  # white bar
    rgb[18:23, 2:5] = (50, 60, 220)  # blue block
    jitter = (noise(np, (h, w, 3), seed=11) * 10).astype(np.int16)
    noisy = np.clip(rgb.astype(np.int16) + jitter, 0, 255).astype(np.uint8)
    grey = noisy @ np.array([0.299, 0.587, 0.114])
    mask = grey > 40
    labels = label_regions(np, mask)
    n_regions = int(labels.max())
    areas = np.bincount(labels.ravel())[1:]
    rows, cols = np.nonzero(labels)
    lab_flat = labels[rows, cols] - 1
    centroid_r = np.bincount(lab_flat, weights=rows) / areas
    centroid_c = np.bincount(lab_flat, weights=cols) / areas
    mean_colour = np.stack(
        [np.bincount(lab_flat, weights=noisy[rows, cols, ch]) / areas for ch in range(3)], axis=1
    )
    rot = np.rot90(noisy, k=1, axes=(0, 1))
    flipped = noisy[::-1, :, ::-1]  # upside down and BGR
    padded = np.pad(noisy, ((2, 2), (3, 3), (0, 0)), mode="reflect")
    tile_sums = np.add.reduceat(
        np.add.reduceat(grey, np.arange(0, h, 8), axis=0), np.arange(0, w, 8), axis=1
    )
    tiles = noisy.reshape(h // 8, 8, w // 8, 8, 3).swapaxes(1, 2).mean(axis=(2, 3))
    bright = np.argwhere(grey > 200)
    return {
        "n_regions": n_regions,
        "areas": areas,
        "centroids": np.column_stack([centroid_r, centroid_c]),
        "mean_colour": mean_colour,
        "rot_sum": rot.sum(axis=(0, 1), dtype=np.int64),
        "rot": rot,
        "flipped_first_row": flipped[0],
        "padded": padded,
        "tiles": tiles,
        "tile_sums": tile_sums,
        "bright": bright,
        "any_red": np.any((noisy[..., 0] > 150) & (noisy[..., 1] < 80)),
        "flip_equal": np.array_equal(np.flip(noisy, axis=(0, 2)), flipped),
        "transposed": np.transpose(noisy, (1, 0, 2)).shape,
    }
