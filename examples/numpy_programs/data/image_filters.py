"""Image filtering on a 2-D grey image: box blur by summed-area table, Sobel edges, thresholds."""

from _data import noise


def box_blur(np, img, r):
    p = np.pad(img, r + 1, mode="edge")
    s = p.cumsum(axis=0).cumsum(axis=1)
    k = 2 * r + 1
    h, w = img.shape
    out = s[k : k + h, k : k + w] - s[:h, k : k + w] - s[k : k + h, :w] + s[:h, :w]
    return out / k**2


def run(np):
    h, w = 40, 48
    yy, xx = np.mgrid[0:h, 0:w]
    img = ((xx - 20) ** 2 + (yy - 18) ** 2 < 100).astype(np.float32)  # a disc
    img[5:12, 30:44] = 0.6  # a rectangle
    img += 0.05 * noise(np, (h, w), seed=10).astype(np.float32)
    blurred = box_blur(np, img, 2)
    # Sobel by shifted slices of the edge-padded image
    p = np.pad(blurred, 1, mode="edge")
    gx = (p[:-2, 2:] + 2 * p[1:-1, 2:] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[1:-1, :-2] + p[2:, :-2])
    gy = (p[2:, :-2] + 2 * p[2:, 1:-1] + p[2:, 2:]) - (p[:-2, :-2] + 2 * p[:-2, 1:-1] + p[:-2, 2:])
    mag = np.hypot(gx, gy)
    angle = np.degrees(np.arctan2(gy, gx))
    edges = mag > 0.5 * mag.max()
    # Otsu-style threshold from a histogram
    hist, bin_edges = np.histogram(blurred, bins=32, range=(0.0, 1.0))
    centers = 0.5 * (bin_edges[1:] + bin_edges[:-1])
    w0 = np.cumsum(hist)
    w1 = w0[-1] - w0
    m0 = np.cumsum(hist * centers) / np.maximum(w0, 1)
    m1 = (np.sum(hist * centers) - np.cumsum(hist * centers)) / np.maximum(w1, 1)
    between = w0 * w1 * (m0 - m1) ** 2
    t = centers[np.argmax(between)]
    mask = blurred > t
    clipped = np.clip(img, 0.0, 1.0, out=np.empty_like(img))
    u8 = (clipped * 255).round().astype(np.uint8)
    return {
        "blurred": blurred,
        "mag": mag,
        "angle_on_edges": angle[edges],
        "n_edges": np.count_nonzero(edges),
        "threshold": t,
        "mask_area": mask.sum(),
        "u8": u8,
        "u8_hist": np.bincount(u8.ravel() // 32, minlength=8),
        "row_means": blurred.mean(axis=1),
    }
