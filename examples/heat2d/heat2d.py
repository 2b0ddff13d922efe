"""The portable-script habits of the kernel-layer guide on a 2D heat equation: choose the backend
once (CUNUMPY_BACKEND), build the data on the host, keep the time loop free of transfers (array code
only, no kernels), read one scalar per diagnostic, and time with device synchronization.

    CUNUMPY_BACKEND=gpupy GPUPY_DEVICE=emu python heat2d.py --n 128 --steps 400 --every 100

Periodic unit square, u_t = u_xx + u_yy, explicit Euler with dt = 0.2 dx^2 and the 5-point
Laplacian written with roll, so the same code runs on NumPy and on gpupy.
"""

import argparse
import json

import numpy
from gpupy import cunumpy as xp


def laplacian(u, dx):
    """The periodic 5-point Laplacian of u on the array's own backend."""
    m = xp.get_array_module(u)
    rolled = m.roll(u, 1, 0) + m.roll(u, -1, 0) + m.roll(u, 1, 1) + m.roll(u, -1, 1)
    return (rolled - 4.0 * u) / (dx * dx)


def hot_spot(n):
    """A Gaussian hot spot in the middle of the square, built on the host."""
    x = (numpy.arange(n) + 0.5) / n
    r2 = (x[:, None] - 0.5) ** 2 + (x[None, :] - 0.5) ** 2
    return numpy.exp(-r2 / 0.01)


def run(n=512, steps=2000, every=500, initial=None):
    """u after `steps` steps, and (step, total heat, maximum) every `every` steps."""
    dx = 1.0 / n
    dt = 0.2 * dx * dx
    u = xp.to_cunumpy(hot_spot(n) if initial is None else initial)  # the one upload
    diagnostics = []
    for step in range(1, steps + 1):
        u = u + dt * laplacian(u, dx)
        if step % every == 0:
            # one read per diagnostic: both numbers come back in one small array
            total, peak = xp.to_numpy(xp.stack([xp.sum(u) * dx * dx, xp.max(u)]))
            diagnostics.append((step, float(total), float(peak)))
    return u, diagnostics


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=512)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--every", type=int, default=500)
    args = parser.parse_args(argv)
    with xp.timed_region("heat2d") as t:
        _, diagnostics = run(args.n, args.steps, args.every)
    result = {"backend": xp.get_backend(), "seconds": t.elapsed, "diagnostics": diagnostics}
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
