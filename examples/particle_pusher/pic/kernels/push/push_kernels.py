"""Particle push, host version (Pyccel-style annotations; runs as plain Python too)."""


def push(x: "float[:]", v: "float[:]", n: int, dt: float, length: float):
    """Moves each particle by dt v on the periodic domain [0, length). The wrap subtracts or
    adds length (exact while |dt v| < length, hence equal to the CUDA kernel's fmod); Pyccel and
    Numba have no math.fmod."""
    for p in range(n):
        xn = x[p] + dt * v[p]
        while xn >= length:
            xn -= length
        while xn < 0.0:
            xn += length
        x[p] = xn
