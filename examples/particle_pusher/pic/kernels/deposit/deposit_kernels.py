"""Charge deposit, host version (Pyccel-style annotations; runs as plain Python too)."""


def deposit(x: "float[:]", rho: "float[:]", n: int, dx: float, n_cells: int, weight: float):
    """Nearest-grid-point deposit: each particle adds weight/dx to its cell's density."""
    for p in range(n):
        cell = min(int(x[p] / dx), n_cells - 1)
        rho[cell] += weight / dx
