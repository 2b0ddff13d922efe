// Particle push, CUDA port of push_kernels.py: the same parameters, one thread per particle.
__global__ void push(double* x, const double* v, long long n, double dt, double length) {
  long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (p >= n) return;
  double xn = fmod(x[p] + dt * v[p], length);
  if (xn < 0.0) xn += length;
  x[p] = xn;
}
