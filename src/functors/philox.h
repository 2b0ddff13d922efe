// Philox4x32-10 counter-based random numbers and the distributions gpupy.random draws from them,
// shared by the cpu backend and the CUDA kernels (and so emu). Bit-identical with the host
// reference gpupy.cunumpy.rng for the uniform doubles. Host and device.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpupy/config.h"
#include "gpupy/dtype.h"
#include "gpupy/random.h"
#include "scalar_math.h"

namespace gpupy::fn {

struct Philox4 {
  uint32_t v[4];
};

/// Philox4x32 with 10 rounds: 4 counter words and 2 key words -> 4 random words.
GPUPY_HD Philox4 philox4x32_10(Philox4 c, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = uint64_t(0xD2511F53u) * c.v[0];
    const uint64_t p1 = uint64_t(0xCD9E8D57u) * c.v[2];
    c = Philox4{{uint32_t(p1 >> 32) ^ c.v[1] ^ k0, uint32_t(p1), uint32_t(p0 >> 32) ^ c.v[3] ^ k1,
                 uint32_t(p0)}};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

/// The 4 words for (key, counter): key words = key's low/high halves, counter = {lo, hi, 0, 0}.
GPUPY_HD Philox4 philox_words(uint64_t key, uint64_t counter) {
  return philox4x32_10(Philox4{{uint32_t(counter), uint32_t(counter >> 32), 0u, 0u}}, uint32_t(key),
                       uint32_t(key >> 32));
}

/// 53 random bits of two words as a double in [0, 1).
GPUPY_HD double philox_unit53(uint32_t a, uint32_t b) {
  return double(((uint64_t(a) << 32) | b) >> 11) * (1.0 / 9007199254740992.0);
}

/// Element `counter` of the stream `key` as distribution D in element type T.
template <RandomDistribution D, class T>
GPUPY_HD T philox_draw(uint64_t key, uint64_t counter) {
  const Philox4 w = philox_words(key, counter);
  if constexpr (D == RandomDistribution::bits) {
    return (uint64_t(w.v[0]) << 32) | w.v[1];
  } else if constexpr (D == RandomDistribution::uniform) {
    if constexpr (sizeof(T) == 4) return float(w.v[0] >> 8) * (1.0f / 16777216.0f);
    return T(philox_unit53(w.v[0], w.v[1]));
  } else {
    // u1 in (0, 1] keeps the log finite.
    const double u1 = 1.0 - philox_unit53(w.v[0], w.v[1]);
    const double u2 = philox_unit53(w.v[2], w.v[3]);
    return T(gmath::sqrt(-2.0 * gmath::log(u1)) * gmath::cos(6.283185307179586 * u2));
  }
}

/// Calls f(std::integral_constant<RandomDistribution, D>{}, T{}) for the output's dtype: float32
/// or float64 for uniform and normal, uint64 for bits (the front end has checked). Host only.
template <class F>
void dispatch_philox(RandomDistribution dist, DType dt, F&& f) {
  using RD = RandomDistribution;
  if (dist == RD::bits) return f(std::integral_constant<RD, RD::bits>{}, uint64_t{});
  auto with_type = [&](auto d) {
    if (dt == DType::float32) return f(d, float{});
    return f(d, double{});
  };
  if (dist == RD::uniform) return with_type(std::integral_constant<RD, RD::uniform>{});
  return with_type(std::integral_constant<RD, RD::normal>{});
}

}  // namespace gpupy::fn
