// Checks the cpu device's replay loops (src/backend/cpu/libm_replay.cpp) against this machine's C
// library: every float32 input for expf, exp2f, logf, log2f, sinf and cosf, and N random float64
// inputs (random bit patterns, values spread over each function's range, and values at its path
// boundaries) for exp, exp2 and log. Run it after a change to the loops or on a new glibc. Host
// only.
//
//   g++ -std=c++20 -O2 -ffp-contract=off -Isrc -Iinclude tools/check_libm_replay.cpp \
//       src/backend/cpu/{fast_math,libm_replay,libm_tables}.cpp -o /tmp/check_libm_replay
//   /tmp/check_libm_replay [N=100663296] [float32|float64]   (about 10 minutes on one core)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string_view>
#include <vector>

#include "backend/cpu/libm_replay.h"

using gpupy::cpu::FastOp;

namespace {

constexpr int64_t kBatch = 1 << 22;

/// Compares one batch; prints the first mismatches. Returns their count, or -1 without a loop.
template <class T>
int64_t compare(FastOp op, T (*library)(T), const std::vector<T>& x, std::vector<T>& y,
                const char* name) {
  if (!gpupy::cpu::libm_replay(op, x.data(), y.data(), static_cast<int64_t>(x.size()))) return -1;
  int64_t bad = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = library(x[i]);
    if (std::memcmp(&want, &y[i], sizeof(T)) == 0) continue;
    if (bad++ < 5)
      std::printf("  %s(%a): loop %a, library %a\n", name, double(x[i]), double(y[i]),
                  double(want));
  }
  return bad;
}

void every_float(FastOp op, float (*library)(float), const char* name) {
  std::vector<float> x(kBatch), y(kBatch);
  int64_t bad = 0;
  for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kBatch) {
    for (int64_t i = 0; i < kBatch; ++i) {
      const auto pattern = uint32_t(start + i);
      std::memcpy(&x[i], &pattern, 4);
    }
    const int64_t b = compare(op, library, x, y, name);
    if (b < 0) return (void)std::printf("%s: no replay loop on this machine\n", name);
    bad += b;
  }
  std::printf("%s: all 4294967296 float32 inputs, %lld differ\n", name, (long long)bad);
}

/// One of four kinds of input per batch: bit patterns, uniform over [lo, hi], 2^uniform(elo, ehi)
/// with either sign, and values within `width` of the given boundaries.
void random_doubles(FastOp op, double (*library)(double), const char* name, int64_t total,
                    double lo, double hi, double elo, double ehi, std::vector<double> edges,
                    double width) {
  std::mt19937_64 rng(std::hash<std::string_view>{}(name));
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<double> x(kBatch), y(kBatch);
  int64_t bad = 0, done = 0;
  for (int kind = 0; done < total; kind = (kind + 1) % 4, done += kBatch) {
    for (auto& v : x) {
      const uint64_t bits = rng();
      switch (kind) {
        case 0:
          std::memcpy(&v, &bits, 8);
          break;
        case 1:
          v = lo + (hi - lo) * unit(rng);
          break;
        case 2:
          v = std::exp2(elo + (ehi - elo) * unit(rng)) * (bits & 1 ? -1 : 1);
          break;
        default:
          v = edges[bits % edges.size()] + width * (unit(rng) - 0.5);
      }
    }
    const int64_t b = compare(op, library, x, y, name);
    if (b < 0) return (void)std::printf("%s: no replay loop on this machine\n", name);
    bad += b;
  }
  std::printf("%s: %lld float64 inputs, %lld differ\n", name, (long long)done, (long long)bad);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 100663296;
  const char* only = argc > 2 ? argv[2] : "";
  if (std::strcmp(only, "float32") != 0) {
    const double edges[] = {-512, 512, -745.13, 709.78, 0x1p-54, -0x1p-54};
    random_doubles(FastOp::exp, ::exp, "exp", n, -746, 711, -60, 11, {edges, edges + 6}, 1);
    random_doubles(FastOp::exp2, ::exp2, "exp2", n, -1080, 1030, -60, 11,
                   {-512, 512, -1075, 1024, 0x1p-54}, 1);
    random_doubles(FastOp::log, ::log, "log", n, 0, 1e308, -1075, 1024, {0.9375, 1, 1.0647}, 0.3);
  }
  if (std::strcmp(only, "float64") != 0) {
    every_float(FastOp::exp, ::expf, "expf");
    every_float(FastOp::exp2, ::exp2f, "exp2f");
    every_float(FastOp::log, ::logf, "logf");
    every_float(FastOp::log2, ::log2f, "log2f");
    every_float(FastOp::sin, ::sinf, "sinf");
    every_float(FastOp::cos, ::cosf, "cosf");
  }
}
