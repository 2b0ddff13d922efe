"""Particle acceleration, host version (Pyccel-style annotations; runs as plain Python too)."""


def accelerate(
    x: "float[:]", v: "float[:]", e: "float[:]", n: int, dx: float, n_cells: int, qm_dt: float
):
    """Gathers the field of each particle's cell and kicks its velocity: v += q/m dt E."""
    for p in range(n):
        cell = min(int(x[p] / dx), n_cells - 1)
        v[p] += qm_dt * e[cell]
