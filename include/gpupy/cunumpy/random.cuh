// Philox4x32-10 counter-based random numbers (Salmon et al., SC'11) for user CUDA kernels,
// bit-identical with the host implementation gpupy.cunumpy.rng: a thread draws from (seed,
// counter) without any state, so results do not depend on the launch shape.
#ifndef CUNUMPY_RANDOM_CUH
#define CUNUMPY_RANDOM_CUH

struct cunumpy_philox4x32 {
  unsigned int v[4];
};

__device__ inline unsigned int cunumpy_mulhilo32(unsigned int a, unsigned int b, unsigned int* hi) {
  unsigned long long p = static_cast<unsigned long long>(a) * b;
  *hi = static_cast<unsigned int>(p >> 32);
  return static_cast<unsigned int>(p);
}

/// Philox4x32 with 10 rounds: 4 counter words and 2 key words -> 4 random words.
__device__ inline cunumpy_philox4x32 cunumpy_philox4x32_10(cunumpy_philox4x32 c, unsigned int k0,
                                                           unsigned int k1) {
  for (int round = 0; round < 10; ++round) {
    unsigned int hi0, hi1;
    unsigned int lo0 = cunumpy_mulhilo32(0xD2511F53u, c.v[0], &hi0);
    unsigned int lo1 = cunumpy_mulhilo32(0xCD9E8D57u, c.v[2], &hi1);
    cunumpy_philox4x32 n = {{hi1 ^ c.v[1] ^ k0, lo1, hi0 ^ c.v[3] ^ k1, lo0}};
    c = n;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// The 4 words for (seed, counter): key = seed's low/high words, counter = {lo, hi, 0, 0}.
__device__ inline cunumpy_philox4x32 cunumpy_philox_words(unsigned long long seed,
                                                          unsigned long long counter) {
  cunumpy_philox4x32 c = {
      {static_cast<unsigned int>(counter), static_cast<unsigned int>(counter >> 32), 0u, 0u}};
  return cunumpy_philox4x32_10(c, static_cast<unsigned int>(seed),
                               static_cast<unsigned int>(seed >> 32));
}

/// The 4 words for (seed, stream, counter): counter = {counter lo, hi, stream lo, hi}, so stream 0
/// gives cunumpy_philox_words(seed, counter).
__device__ inline cunumpy_philox4x32 cunumpy_philox_words2(unsigned long long seed,
                                                           unsigned long long stream,
                                                           unsigned long long counter) {
  cunumpy_philox4x32 c = {
      {static_cast<unsigned int>(counter), static_cast<unsigned int>(counter >> 32),
       static_cast<unsigned int>(stream), static_cast<unsigned int>(stream >> 32)}};
  return cunumpy_philox4x32_10(c, static_cast<unsigned int>(seed),
                               static_cast<unsigned int>(seed >> 32));
}

/// 53 random bits of two words as a double in [0, 1).
__device__ inline double cunumpy_philox_to_unit(unsigned int a, unsigned int b) {
  unsigned long long bits = ((static_cast<unsigned long long>(a) << 32) | b) >> 11;
  return static_cast<double>(bits) * (1.0 / 9007199254740992.0);
}

/// A uniform double in [0, 1) for (seed, counter), from words 0 and 1.
__device__ inline double cunumpy_philox_uniform(unsigned long long seed,
                                                unsigned long long counter) {
  cunumpy_philox4x32 w = cunumpy_philox_words(seed, counter);
  return cunumpy_philox_to_unit(w.v[0], w.v[1]);
}

/// A standard normal double for (seed, counter): Box-Muller on u1 = 1 - unit(w0, w1) in (0, 1]
/// and u2 = unit(w2, w3).
__device__ inline double cunumpy_philox_normal(unsigned long long seed,
                                               unsigned long long counter) {
  cunumpy_philox4x32 w = cunumpy_philox_words(seed, counter);
  double u1 = 1.0 - cunumpy_philox_to_unit(w.v[0], w.v[1]);
  double u2 = cunumpy_philox_to_unit(w.v[2], w.v[3]);
  return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/// Two uniform doubles in [0, 1) for (seed, stream, counter): words 0-1 and 2-3 (a particle id as
/// the stream and the step as the counter give every particle its own sequence).
__device__ inline void cunumpy_philox_uniform2(unsigned long long seed, unsigned long long stream,
                                               unsigned long long counter, double* u0, double* u1) {
  cunumpy_philox4x32 w = cunumpy_philox_words2(seed, stream, counter);
  *u0 = cunumpy_philox_to_unit(w.v[0], w.v[1]);
  *u1 = cunumpy_philox_to_unit(w.v[2], w.v[3]);
}

/// Two standard normal doubles for (seed, stream, counter): cunumpy_philox_normal's radius and
/// angle, (radius cos, radius sin).
__device__ inline void cunumpy_philox_normal2(unsigned long long seed, unsigned long long stream,
                                              unsigned long long counter, double* z0, double* z1) {
  cunumpy_philox4x32 w = cunumpy_philox_words2(seed, stream, counter);
  double radius = sqrt(-2.0 * log(1.0 - cunumpy_philox_to_unit(w.v[0], w.v[1])));
  double angle = 6.283185307179586 * cunumpy_philox_to_unit(w.v[2], w.v[3]);
  *z0 = radius * cos(angle);
  *z1 = radius * sin(angle);
}

#endif  // CUNUMPY_RANDOM_CUH
