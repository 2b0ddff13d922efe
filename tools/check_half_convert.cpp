// Checks the cpu device's buffer conversions between float16 and float (src/backend/cpu/
// half_convert.cpp) against half_bits, the conversions every other gpupy loop uses: every
// float16 widened, every float32 narrowed, bit for bit (signalling NaNs included: pow(x, 0) of a
// signalling NaN is NaN, of a quiet one 1). Host only.
//
//   g++ -std=c++20 -O2 -Isrc -Iinclude tools/check_half_convert.cpp \
//       src/backend/cpu/{half_convert,fast_math,libm_replay,libm_replay_pow}.cpp \
//       src/backend/cpu/{libm_replay_fdlibm32,libm_replay_fdlibm64,libm_tables}.cpp \
//       -o /tmp/check_half_convert && /tmp/check_half_convert
#include <cstdio>
#include <cstring>
#include <vector>

#include "backend/cpu/buffered_math.h"

using gpupy::float16;

int main() {
  const int64_t kBlock = 1 << 16;
  std::vector<float16> halves(kBlock), narrowed(kBlock);
  std::vector<float> wide(kBlock), floats(kBlock);
  for (int64_t i = 0; i < kBlock; ++i) halves[i] = float16::from_bits(uint16_t(i));
  gpupy::cpu::widen_halves(halves.data(), wide.data(), kBlock);
  int64_t widen_bad = 0;
  for (int64_t i = 0; i < kBlock; ++i) {
    const float want = static_cast<float>(halves[i]);
    uint32_t a, b;
    std::memcpy(&a, &wide[i], 4);
    std::memcpy(&b, &want, 4);
    if (a != b && widen_bad++ < 5)
      std::printf("widen %04llx: %08x, half_bits %08x\n", (unsigned long long)i, a, b);
  }
  int64_t narrow_bad = 0;
  for (int64_t hi = 0; hi < (int64_t(1) << 32); hi += kBlock) {
    for (int64_t i = 0; i < kBlock; ++i) {
      const uint32_t bits = uint32_t(hi + i);
      std::memcpy(&floats[i], &bits, 4);
    }
    gpupy::cpu::narrow_floats(floats.data(), narrowed.data(), kBlock);
    for (int64_t i = 0; i < kBlock; ++i) {
      const uint16_t want = float16(floats[i]).bits;
      if (narrowed[i].bits != want && narrow_bad++ < 5)
        std::printf("narrow %08llx: %04x, half_bits %04x\n", (unsigned long long)(hi + i),
                    narrowed[i].bits, want);
    }
  }
  std::printf(
      "float16 widened: 65536, differing %lld; float32 narrowed: 4294967296, "
      "differing %lld\n",
      (long long)widen_bad, (long long)narrow_bad);
  return widen_bad || narrow_bad;
}
