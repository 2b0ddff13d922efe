// Morton (Z-order) keys for user CUDA kernels, equal to gpupy.cunumpy.algorithms.morton_*:
// 2D keys interleave two 32-bit coordinates (x in bit 0), 3D keys three 21-bit coordinates.
#ifndef CUNUMPY_MORTON_CUH
#define CUNUMPY_MORTON_CUH

/// Spreads the 32 bits of x to the even bits of a 64-bit word.
__device__ inline unsigned long long cunumpy_morton_spread2(unsigned int x) {
  unsigned long long v = x;
  v = (v | (v << 16)) & 0x0000FFFF0000FFFFull;
  v = (v | (v << 8)) & 0x00FF00FF00FF00FFull;
  v = (v | (v << 4)) & 0x0F0F0F0F0F0F0F0Full;
  v = (v | (v << 2)) & 0x3333333333333333ull;
  v = (v | (v << 1)) & 0x5555555555555555ull;
  return v;
}

/// Spreads the low 21 bits of x to every third bit of a 64-bit word.
__device__ inline unsigned long long cunumpy_morton_spread3(unsigned int x) {
  unsigned long long v = x & 0x1FFFFFu;
  v = (v | (v << 32)) & 0x001F00000000FFFFull;
  v = (v | (v << 16)) & 0x001F0000FF0000FFull;
  v = (v | (v << 8)) & 0x100F00F00F00F00Full;
  v = (v | (v << 4)) & 0x10C30C30C30C30C3ull;
  v = (v | (v << 2)) & 0x1249249249249249ull;
  return v;
}

__device__ inline unsigned long long cunumpy_morton_encode_2d(unsigned int x, unsigned int y) {
  return cunumpy_morton_spread2(x) | (cunumpy_morton_spread2(y) << 1);
}

__device__ inline unsigned long long cunumpy_morton_encode_3d(unsigned int x, unsigned int y,
                                                              unsigned int z) {
  return cunumpy_morton_spread3(x) | (cunumpy_morton_spread3(y) << 1) |
         (cunumpy_morton_spread3(z) << 2);
}

#endif  // CUNUMPY_MORTON_CUH
