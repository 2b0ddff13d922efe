// Checks the cpu device's replay loops (src/backend/cpu/libm_replay*.cpp) against this machine's
// C library: every float32 input for expf, exp2f, logf, log2f, sinf, cosf, expm1f, log1pf and
// tanhf; N random (y, x) pairs for atan2f, and every float32 y against four x; N random float64
// inputs (random bit patterns, values spread over each function's range, and values at its path
// boundaries) for exp, exp2, log, expm1, log1p and tanh; N float64 inputs for cos (cos_inputs:
// Box-Muller's arguments, its interval ends, s_sin.c's path, quadrant and table boundaries); N
// random (x, y) pairs for pow and powf (see random_pairs), and for powf every float32 x against
// seven exponents.
// Run it after a change to the loops or on a new glibc. Host only.
//
//   g++ -std=c++20 -O2 -ffp-contract=off -Isrc -Iinclude tools/check_libm_replay.cpp \
//       src/backend/cpu/{fast_math,libm_replay,libm_replay_pow,libm_replay_fdlibm32}.cpp \
//       src/backend/cpu/{libm_replay_fdlibm64,libm_replay_trig64,libm_tables}.cpp \
//       -o /tmp/check_libm_replay
//   /tmp/check_libm_replay [N=100663296] [MODE]   with MODE one of float32, float64, cos, pow,
//   powf-every-x, fdlibm32, fdlibm64, atan2f (all of them without it: hours on one core)
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
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

/// Where glibc's cos changes course: its path bounds (|x| = 2^-27, 0.855469, 2.426265, 105414350);
/// for the reduced argument a = x - n pi/2 (n = 0..8 and a few large n), the table's rounding
/// points |a| = (j + 1/2) / 128, the Taylor bound |a| = 0.126 and the quadrant changes
/// |a| = pi/4.
std::vector<double> cos_boundaries() {
  std::vector<double> b = {0x1p-27, 0x1.b6p-1, 0x1.368fdp1, 0x1.921fbp26};
  std::vector<double> offsets = {0.126, M_PI / 4};
  for (int j = 0; j < 110; ++j) offsets.push_back((j + 0.5) / 128);
  for (double n : {0., 1., 2., 3., 4., 5., 6., 7., 8., 1e3, 65536., 1e7, 6.7e7})
    for (double a : offsets) {
      b.push_back(n * M_PI_2 + a);
      if (n > 0) b.push_back(n * M_PI_2 - a);
    }
  return b;
}

/// N cos inputs in batches of four kinds: Box-Muller's 2 pi u for random 53-bit u (gpupy.random's
/// normal draws), with u = 0, 2^-53 k and 1 - 2^-53 k for small k in every 64th; values within
/// 2^-60..2^-8 (relative) of cos_boundaries, either sign; uniform over +-2^28 and 2^uniform(-30,
/// 28) of either sign (past the reduction's bound); random bit patterns.
void cos_inputs(int64_t total) {
  std::mt19937_64 rng(std::hash<std::string_view>{}("cos"));
  std::uniform_real_distribution<double> unit(0, 1);
  const std::vector<double> edges = cos_boundaries();
  std::vector<double> x(kBatch), y(kBatch);
  int64_t bad = 0, done = 0;
  for (int kind = 0; done < total; kind = (kind + 1) % 4, done += kBatch) {
    for (int64_t i = 0; i < kBatch; ++i) {
      const uint64_t bits = rng();
      const double sign = bits & 1 ? -1.0 : 1.0;
      double& v = x[i];
      if (kind == 0) {
        const uint64_t k = i % 64 != 0    ? bits >> 11
                           : i % 128 == 0 ? bits % 4096
                                          : (1ull << 53) - 1 - bits % 4096;
        v = 6.283185307179586 * (double(k) * 0x1p-53);
      } else if (kind == 1) {
        const double e = edges[bits % edges.size()];
        v = sign * e * (1 + (rng() & 2 ? -1 : 1) * std::exp2(-60 + 52 * unit(rng)));
      } else if (kind == 2) {
        v = i % 2 ? (unit(rng) - 0.5) * 0x1p29 : sign * std::exp2(-30 + 58 * unit(rng));
      } else {
        std::memcpy(&v, &bits, 8);
      }
    }
    const int64_t b = compare(FastOp::cos, ::cos, x, y, "cos");
    if (b < 0) return (void)std::printf("cos: no replay loop on this machine\n");
    bad += b;
  }
  std::printf("cos: %lld float64 inputs, %lld differ\n", (long long)done, (long long)bad);
}

/// One batch of pow(x, y) pairs, y contiguous or (sy = 0) y[0] for every x. Prints the first
/// mismatches; returns their count, or -1 without a loop.
template <class T>
int64_t compare_pow(T (*library)(T, T), const std::vector<T>& x, const std::vector<T>& y,
                    int64_t sy, std::vector<T>& out, const char* name) {
  const auto n = static_cast<int64_t>(x.size());
  if (!gpupy::cpu::libm_replay_pow(x.data(), 1, y.data(), sy, out.data(), n)) return -1;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T want = library(x[i], y[i * sy]);
    if (std::memcmp(&want, &out[i], sizeof(T)) == 0) continue;
    if (bad++ < 5)
      std::printf("  %s(%a, %a): loop %a, library %a\n", name, double(x[i]), double(y[i * sy]),
                  double(out[i]), double(want));
  }
  return bad;
}

/// Special and boundary values of x or y for pow: zeros, infinities, NaN, 1, integers and halves,
/// subnormals, the extremes, and the |y| bounds (2^-65, 2^63) of pow's fast path.
template <class T>
std::vector<T> pow_edges() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {0,
                      1,
                      2,
                      3,
                      0.5,
                      1.5,
                      2.5,
                      -1,
                      1e-3,
                      100,
                      101,
                      1e6,
                      1e-30,
                      L::denorm_min(),
                      L::min(),
                      L::max(),
                      L::infinity(),
                      L::quiet_NaN(),
                      T(0x1p-65),
                      T(0x1p-64),
                      T(0x1p63),
                      T(0x1p62),
                      T(0x1p24),
                      T(0x1p53),
                      T(1) / 3,
                      L::min() / 3};
  const size_t n = v.size();
  for (size_t i = 0; i < n; ++i) {
    v.push_back(-v[i]);
    v.push_back(std::nextafter(v[i], T(0)));
    v.push_back(std::nextafter(v[i], L::infinity()));
  }
  return v;
}

/// N (x, y) pairs in batches of five kinds: random bit patterns; x over every binade with
/// y = t / log(x), |t| log-uniform in [2^-60, 2^10] (y log x covers the fast path, its ends at
/// 2^-54 and 512 and the overflow and underflow thresholds beyond), a quarter of them negative x
/// with y rounded to an integer; x within 2^-1..2^-53 of 1
/// against |y| log-uniform in [2^-70, 2^64] (the |y| bounds); edges of either side (pow_edges)
/// against random x or y, and y log x near the exp thresholds (+-512, overflow, underflow, 2^-54);
/// one exponent per batch (the loop's scalar-y path).
template <class T>
void random_pairs(T (*library)(T, T), const char* name, int64_t total) {
  using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  constexpr bool kDouble = sizeof(T) == 8;
  const double emin = kDouble ? -1074 : -149, emax = kDouble ? 1024 : 128;
  // |y ln x| (float64) or |y log2 x| (float32) at the exp step's limits and result thresholds.
  const std::vector<double> limits = kDouble
                                         ? std::vector<double>{512,
                                                               -512,
                                                               709.782712893384,
                                                               -708.3964185322641,
                                                               -745.1332191019411,
                                                               0x1p-54,
                                                               -0x1p-54}
                                         : std::vector<double>{126, -126, 128, -149, -150, 0x1p-25};
  const std::vector<T> edges = pow_edges<T>();
  std::mt19937_64 rng(std::hash<std::string_view>{}(name));
  std::uniform_real_distribution<double> unit(0, 1);
  auto log_uniform = [&](double lo, double hi) { return std::exp2(lo + (hi - lo) * unit(rng)); };
  auto sign = [&] { return rng() & 1 ? -1.0 : 1.0; };
  std::vector<T> x(kBatch), y(kBatch), out(kBatch);
  int64_t bad = 0, done = 0;
  for (int kind = 0; done < total; kind = (kind + 1) % 5, done += kBatch) {
    for (int64_t i = 0; i < kBatch; ++i) {
      T& a = x[i];
      T& b = y[i];
      const double base_log = kDouble ? 1.0 : M_LN2;  // y log x in the library's base
      switch (kind) {
        case 0: {
          const auto px = U(rng()), py = U(rng());
          std::memcpy(&a, &px, sizeof(T)), std::memcpy(&b, &py, sizeof(T));
          break;
        }
        case 1:  // every fourth pair: a negative x and an integer y
          a = T(log_uniform(emin, emax));
          b = T(sign() * log_uniform(-60, 10) / (std::log(double(a)) / base_log));
          if (i % 4 == 0) a = -a, b = std::round(b) == 0 ? T(sign()) : std::round(b);
          break;
        case 2:
          a = T(1 + sign() * log_uniform(-53, -1));
          b = T(sign() * log_uniform(-70, 64));
          break;
        case 3:
          a = i % 3 == 0 ? edges[rng() % edges.size()] : T(sign() * log_uniform(emin, emax));
          if (i % 3 == 1)
            b = edges[rng() % edges.size()];
          else if (rng() & 1)
            b = T(sign() * log_uniform(-70, 64));
          else  // an integer or a half in [-100, 100)
            b = T(double(int(rng() % 400) - 200) / 2);
          if (i % 3 == 2) {  // y log x within a few ulp-scaled steps of a threshold
            a = T(log_uniform(-30, 30));
            const double t = limits[rng() % limits.size()] * (1 + (unit(rng) - 0.5) * 1e-6);
            b = T(t / (std::log(double(a)) / base_log));
          }
          break;
        default:
          a = T(log_uniform(emin, emax) * (i % 16 == 0 ? -1 : 1));
          b = i == 0 ? T(sign() * log_uniform(-8, 8)) : T(0);
      }
    }
    const int64_t b = compare_pow(library, x, y, kind == 4 ? 0 : 1, out, name);
    if (b < 0) return (void)std::printf("%s: no replay loop on this machine\n", name);
    bad += b;
  }
  std::printf("%s: %lld (x, y) pairs, %lld differ\n", name, (long long)done, (long long)bad);
}

/// N atan2f(y, x) pairs in batches of three kinds: random bit patterns (zeros, infinities, NaN,
/// subnormals), |y / x| log-uniform in [2^-80, 2^80] in all four quadrants (past both of atan2f's
/// 2^60 cut-offs) with x = 1 in every 50th pair, and both in [-3, 3]; then every float32 y against
/// each of `xs`.
void atan2f_pairs(int64_t total, std::vector<float> xs) {
  std::mt19937_64 rng(std::hash<std::string_view>{}("atan2f"));
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<float> x(kBatch), y(kBatch), out(kBatch);
  auto compare = [&](int64_t sx) {
    if (!gpupy::cpu::libm_replay_atan2(y.data(), 1, x.data(), sx, out.data(), kBatch)) return -1L;
    long bad = 0;
    for (int64_t i = 0; i < kBatch; ++i) {
      const float want = ::atan2f(y[i], x[i * sx]);
      if (std::memcmp(&want, &out[i], 4) != 0 && bad++ < 5)
        std::printf("  atan2f(%a, %a): loop %a, library %a\n", double(y[i]), double(x[i * sx]),
                    double(out[i]), double(want));
    }
    return bad;
  };
  int64_t bad = 0, done = 0;
  for (int kind = 0; done < total; kind = (kind + 1) % 3, done += kBatch) {
    for (int64_t i = 0; i < kBatch; ++i) {
      if (kind == 0) {
        const auto py = uint32_t(rng()), px = uint32_t(rng());
        std::memcpy(&y[i], &py, 4), std::memcpy(&x[i], &px, 4);
      } else if (kind == 1) {
        const double r = std::exp2(-80 + 160 * unit(rng)), a = std::exp2(-40 + 80 * unit(rng));
        x[i] = i % 50 == 0 ? 1.0f : float(rng() & 1 ? -a : a);
        y[i] = float((rng() & 1 ? -a : a) * r);
      } else {
        x[i] = float(-3 + 6 * unit(rng)), y[i] = float(-3 + 6 * unit(rng));
      }
    }
    const long b = compare(1);
    if (b < 0) return (void)std::printf("atan2f: no replay loop on this machine\n");
    bad += b;
  }
  std::printf("atan2f: %lld (y, x) pairs, %lld differ\n", (long long)done, (long long)bad);
  for (const float e : xs) {
    bad = 0;
    x[0] = e;
    for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kBatch) {
      for (int64_t i = 0; i < kBatch; ++i) {
        const auto pattern = uint32_t(start + i);
        std::memcpy(&y[i], &pattern, 4);
      }
      bad += compare(0);
    }
    std::printf("atan2f(y, %a): all 4294967296 float32 y, %lld differ\n", double(e),
                (long long)bad);
  }
}

/// powf(x, y) for every float32 x and each given y.
void every_float_pow(std::vector<float> exponents) {
  std::vector<float> x(kBatch), out(kBatch);
  for (const float e : exponents) {
    int64_t bad = 0;
    const std::vector<float> y = {e};
    for (uint64_t start = 0; start < (uint64_t(1) << 32); start += kBatch) {
      for (int64_t i = 0; i < kBatch; ++i) {
        const auto pattern = uint32_t(start + i);
        std::memcpy(&x[i], &pattern, 4);
      }
      const int64_t b = compare_pow<float>(::powf, x, y, 0, out, "powf");
      if (b < 0) return (void)std::printf("powf: no replay loop on this machine\n");
      bad += b;
    }
    std::printf("powf(x, %a): all 4294967296 float32 x, %lld differ\n", double(e), (long long)bad);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 100663296;
  const char* only = argc > 2 ? argv[2] : "";
  const bool all = only[0] == 0;
  if (all || std::strcmp(only, "pow") == 0) {
    random_pairs<double>(::pow, "pow", n);
    random_pairs<float>(::powf, "powf", n);
  }
  if (all || std::strcmp(only, "powf-every-x") == 0)
    every_float_pow({2.5f, -1.5f, 1.0f / 3, 3, -7, 0x1.fffffep+6f, -0x1.3p-7f});
  if (all || std::strcmp(only, "fdlibm64") == 0) {
    // The reduction steps (|x| = ln2 / 2, 1.5 ln2, k = 20 and 57), -56 ln2, the overflow
    // threshold; log1p's sqrt(2) - 1, -0.2929, 2^53; tanh's 1 and 22.
    random_doubles(FastOp::expm1, ::expm1, "expm1", n, -45, 710, -60, 10,
                   {0.34657, 1.03972, 13.5, 39.8, -38.82, 709.78}, 0.01);
    random_doubles(FastOp::log1p, ::log1p, "log1p", n, -1, 4, -60, 54,
                   {0.41421356, -0.29289, -1, 0x1p53, 0, 1}, 0.01);
    random_doubles(FastOp::tanh, ::tanh, "tanh", n, -23, 23, -60, 5, {1, -1, 22, 0.34657}, 0.01);
  }
  if (all || std::strcmp(only, "cos") == 0) cos_inputs(n);
  if (all || std::strcmp(only, "atan2f") == 0) atan2f_pairs(n, {1.0f, -1.0f, -0.75f, 3.5f});
  if (all || std::strcmp(only, "fdlibm32") == 0) {
    every_float(FastOp::expm1, ::expm1f, "expm1f");
    every_float(FastOp::log1p, ::log1pf, "log1pf");
    every_float(FastOp::tanh, ::tanhf, "tanhf");
  }
  if (!all && std::strcmp(only, "float32") != 0 && std::strcmp(only, "float64") != 0) return 0;
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
