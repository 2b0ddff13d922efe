"""Particle push, host version (Pyccel-style annotations; runs as plain Python too)."""

import math


def push(x: "float[:]", v: "float[:]", n: int, dt: float, length: float):
    """Moves each particle by dt v on the periodic domain [0, length)."""
    for p in range(n):
        xn = math.fmod(x[p] + dt * v[p], length)
        if xn < 0.0:
            xn += length
        x[p] = xn
