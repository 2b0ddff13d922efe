"""The PIC time step: deposit (kernel), field solve (array code), accelerate and push (kernels).
The same code runs on NumPy with the host kernels and on the GPU with the CUDA kernels."""

import numpy
from gpupy import cunumpy as xp

LENGTH = 2 * numpy.pi


class Simulation:
    """Electrons (q/m = -1) on a periodic 1-D domain of length 2 pi, mean density 1."""

    def __init__(self, n=100_000, n_cells=64, *, catalog=None, seed=0):
        if catalog is None:
            from pic.kernels import catalog
        self.kernels = catalog
        self.n, self.n_cells = n, n_cells
        self.dx = LENGTH / n_cells
        self.weight = LENGTH / n
        # Built on the host with one RNG so that every backend starts from the same particles.
        rng = numpy.random.default_rng(seed)
        x = rng.uniform(0.0, LENGTH, n)
        v = rng.normal(0.0, 1.0, n) + 0.1 * numpy.sin(x)
        self.x, self.v = xp.to_cunumpy(x), xp.to_cunumpy(v)
        self.rho = xp.to_cunumpy(numpy.zeros(n_cells))
        self.e = xp.to_cunumpy(numpy.zeros(n_cells))
        self.k = xp.to_cunumpy(2 * numpy.pi * numpy.fft.rfftfreq(n_cells, self.dx))

    def step(self, dt):
        k, n = self.kernels, self.n
        self.rho[...] = 0
        k["deposit"](self.x, self.rho, n, self.dx, self.n_cells, self.weight, n_threads=n)
        self.solve_field()
        k["accelerate"](self.x, self.v, self.e, n, self.dx, self.n_cells, -dt, n_threads=n)
        k["push"](self.x, self.v, n, dt, LENGTH, n_threads=n)

    def solve_field(self):
        """E = -d(phi)/dx with phi'' = -rho, in Fourier space: E_k = -i rho_k / k."""
        rho_k = xp.fft.rfft(self.rho - xp.mean(self.rho))
        e_k = xp.zeros_like(rho_k)
        e_k[1:] = -1j * rho_k[1:] / self.k[1:]
        self.e[...] = xp.fft.irfft(e_k, n=self.n_cells)

    def field_energy(self):
        """0.5 sum(E^2) dx: one scalar copied to the host."""
        return 0.5 * float(xp.to_numpy(xp.sum(self.e * self.e))) * self.dx
