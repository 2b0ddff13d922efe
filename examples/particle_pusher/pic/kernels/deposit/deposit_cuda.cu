// Charge deposit, CUDA port of deposit_kernels.py (same parameters): one thread per particle.
// Particles of one cell collide on rho[cell], hence the atomic add.
__global__ void deposit(const double* x, double* rho, long long n, double dx, long long n_cells,
                        double weight) {
  long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (p >= n) return;
  long long cell = (long long)(x[p] / dx);
  if (cell > n_cells - 1) cell = n_cells - 1;
  atomicAdd(&rho[cell], weight / dx);
}
