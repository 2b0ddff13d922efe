// Particle acceleration, CUDA port of accelerate_kernels.py: one thread per particle (a gather).
__global__ void accelerate(const double* x, double* v, const double* e, long long n, double dx,
                           long long n_cells, double qm_dt) {
  long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (p >= n) return;
  long long cell = (long long)(x[p] / dx);
  if (cell > n_cells - 1) cell = n_cells - 1;
  v[p] += qm_dt * e[cell];
}
