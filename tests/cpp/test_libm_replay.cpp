// The cpu loops that replay glibc's exp, exp2, log, expm1, log1p, tanh, pow, expf, exp2f, logf,
// log2f, sinf, cosf, expm1f, log1pf, tanhf, atan2f and powf (and that they are in use where they
// apply), and the bounded float32 exp loops, against the library's scalar calls, bit for bit.
// Host only.
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "backend/cpu/fast_math.h"
#include "backend/cpu/libm_replay.h"

namespace gpupy::cpu {
namespace {

bool replay_expected() {
#if defined(__x86_64__)
  return fast_math_level() >= 1 && glibc_at_least_2_28();
#else
  return false;
#endif
}

/// A million inputs: random bit patterns, and random values of random binades in [2^-lo, 2^hi).
template <class T>
std::vector<T> inputs(int lo, int hi, bool negative) {
  using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<T> x(1 << 20);
  for (size_t i = 0; i < x.size(); ++i) {
    if (i % 4 == 0) {
      const U pattern = U(rng());
      std::memcpy(&x[i], &pattern, sizeof(T));
    } else {
      const double sign = negative && (rng() & 1) ? -1.0 : 1.0;
      x[i] = T(sign * std::exp2(lo + (hi - lo) * unit(rng)));
    }
  }
  return x;
}

template <class T, class F>
void expect_library(FastOp op, F library, std::vector<T> x) {
  std::vector<T> y(x.size());
  const bool used = libm_replay(op, x.data(), y.data(), static_cast<int64_t>(x.size()));
  ASSERT_EQ(used, replay_expected());  // a probe that rejects the loops here is a bug
  if (!used) GTEST_SKIP() << "no replay loops on this machine";
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = library(x[i]);
    ASSERT_EQ(std::memcmp(&want, &y[i], sizeof(T)), 0)
        << "x = " << std::hexfloat << x[i] << ": " << y[i] << ", library " << want;
  }
  // In place, and a length that leaves a tail.
  std::vector<T> z(x.begin(), x.begin() + 1003);
  ASSERT_TRUE(libm_replay(op, z.data(), z.data(), static_cast<int64_t>(z.size())));
  EXPECT_EQ(std::memcmp(z.data(), y.data(), z.size() * sizeof(T)), 0);
}

TEST(LibmReplay, ExpFloat64) {
  expect_library(
      FastOp::exp, [](double x) { return std::exp(x); }, inputs<double>(-60, 10, true));
}

TEST(LibmReplay, Exp2Float64) {
  expect_library(
      FastOp::exp2, [](double x) { return std::exp2(x); }, inputs<double>(-60, 11, true));
}

TEST(LibmReplay, LogFloat64) {
  auto x = inputs<double>(-1074, 1024, false);
  for (size_t i = 1; i < x.size(); i += 8) x[i] = 0.9 + 0.2 * double(i) / double(x.size());
  expect_library(
      FastOp::log, [](double x) { return std::log(x); }, x);
}

TEST(LibmReplay, ExpFloat32) {
  expect_library(
      FastOp::exp, [](float x) { return std::exp(x); }, inputs<float>(-30, 7, true));
}

TEST(LibmReplay, Exp2Float32) {
  expect_library(
      FastOp::exp2, [](float x) { return std::exp2(x); }, inputs<float>(-30, 8, true));
}

TEST(LibmReplay, LogFloat32) {
  expect_library(
      FastOp::log, [](float x) { return std::log(x); }, inputs<float>(-149, 128, false));
}

TEST(LibmReplay, Log2Float32) {
  expect_library(
      FastOp::log2, [](float x) { return std::log2(x); }, inputs<float>(-149, 128, false));
}

TEST(LibmReplay, SinFloat32) {
  expect_library(
      FastOp::sin, [](float x) { return std::sin(x); }, inputs<float>(-20, 8, true));
}

TEST(LibmReplay, CosFloat32) {
  expect_library(
      FastOp::cos, [](float x) { return std::cos(x); }, inputs<float>(-20, 8, true));
}

/// x over [-1, 2^hi) for log1p: every path of the library (-1 < x < -0.29, the band around 0,
/// tiny x, 1 + x at and near powers of two) and random bit patterns.
template <class T>
std::vector<T> log1p_inputs(int hi) {
  auto x = inputs<T>(-60, hi, false);
  for (size_t i = 1; i < x.size(); i += 4) x[i] = T(-1 + std::ldexp(double(i % 977) + 1, -10));
  for (size_t i = 2; i < x.size(); i += 16) x[i] = T(std::ldexp(1.0, int(i % hi)) - 1);
  return x;
}

TEST(LibmReplay, Expm1Float64) {
  expect_library(
      FastOp::expm1, [](double x) { return std::expm1(x); }, inputs<double>(-60, 10, true));
}

TEST(LibmReplay, Log1pFloat64) {
  expect_library(
      FastOp::log1p, [](double x) { return std::log1p(x); }, log1p_inputs<double>(60));
}

TEST(LibmReplay, TanhFloat64) {
  expect_library(
      FastOp::tanh, [](double x) { return std::tanh(x); }, inputs<double>(-60, 5, true));
}

TEST(LibmReplay, Expm1Float32) {
  expect_library(
      FastOp::expm1, [](float x) { return std::expm1(x); }, inputs<float>(-30, 7, true));
}

TEST(LibmReplay, Log1pFloat32) {
  expect_library(
      FastOp::log1p, [](float x) { return std::log1p(x); }, log1p_inputs<float>(30));
}

TEST(LibmReplay, TanhFloat32) {
  expect_library(
      FastOp::tanh, [](float x) { return std::tanh(x); }, inputs<float>(-60, 5, true));
}

TEST(LibmReplay, Atan2Float32) {
  // (y, x): random bit patterns, and ratios log-uniform over [2^-70, 2^70] in every quadrant.
  std::mt19937_64 rng(29);
  std::uniform_real_distribution<double> unit(0, 1);
  std::vector<float> y(1 << 20), x(y.size()), out(y.size());
  for (size_t i = 0; i < y.size(); ++i) {
    if (i % 4 == 0) {
      const auto py = uint32_t(rng()), px = uint32_t(rng());
      std::memcpy(&y[i], &py, 4), std::memcpy(&x[i], &px, 4);
      continue;
    }
    const double a = std::exp2(-30 + 60 * unit(rng)), r = std::exp2(-70 + 140 * unit(rng));
    x[i] = i % 17 == 0 ? 1.0f : float(rng() & 1 ? -a : a);
    y[i] = float((rng() & 1 ? -a : a) * r);
  }
  const auto n = static_cast<int64_t>(y.size());
  const bool used = libm_replay_atan2(y.data(), 1, x.data(), 1, out.data(), n);
  ASSERT_EQ(used, replay_expected());
  if (!used) GTEST_SKIP() << "no replay loops on this machine";
  for (size_t i = 0; i < y.size(); ++i) {
    const float want = std::atan2(y[i], x[i]);
    ASSERT_EQ(std::memcmp(&want, &out[i], 4), 0) << "atan2(" << std::hexfloat << y[i] << ", "
                                                 << x[i] << "): " << out[i] << ", library " << want;
  }
  // One x for every y, and y reversed with every other x.
  ASSERT_TRUE(libm_replay_atan2(y.data(), 1, x.data() + 5, 0, out.data(), n));
  for (size_t i = 0; i < y.size(); ++i) {
    const float want = std::atan2(y[i], x[5]);
    ASSERT_EQ(std::memcmp(&want, &out[i], 4), 0) << std::hexfloat << y[i];
  }
  ASSERT_TRUE(libm_replay_atan2(y.data() + n - 1, -1, x.data(), 2, out.data(), n / 2));
  for (int64_t i = 0; i < n / 2; ++i) {
    const float want = std::atan2(y[n - 1 - i], x[2 * i]);
    ASSERT_EQ(std::memcmp(&want, &out[i], 4), 0) << std::hexfloat << y[n - 1 - i];
  }
}

/// Pairs for pow: positive x over many binades with y = t / log(x), |t| log-uniform in
/// [2^-60, 2^max_t] (y log x crosses the fast path and both its ends), every fourth pair with
/// random bit patterns, and every seventh with an integer y and x of either sign.
template <class T>
void pow_inputs(int max_t, std::vector<T>& x, std::vector<T>& y) {
  using U = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  std::mt19937_64 rng(23);
  std::uniform_real_distribution<double> unit(0, 1);
  x.resize(1 << 20), y.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (i % 4 == 0) {
      const U px = U(rng()), py = U(rng());
      std::memcpy(&x[i], &px, sizeof(T)), std::memcpy(&y[i], &py, sizeof(T));
      continue;
    }
    x[i] = T(std::exp2(-100 + 200 * unit(rng)));
    const double t = std::exp2(-60 + (60 + max_t) * unit(rng)) * (rng() & 1 ? -1 : 1);
    y[i] = T(t / std::log(double(x[i])));
    if (i % 7 == 0) y[i] = std::round(y[i]), x[i] = rng() & 1 ? -x[i] : x[i];
  }
}

template <class T, class F>
void expect_pow_library(int max_t, F library) {
  std::vector<T> x, y;
  pow_inputs<T>(max_t, x, y);
  std::vector<T> out(x.size());
  const int64_t n = static_cast<int64_t>(x.size());
  const bool used = libm_replay_pow(x.data(), 1, y.data(), 1, out.data(), n);
  ASSERT_EQ(used, replay_expected());
  if (!used) GTEST_SKIP() << "no replay loops on this machine";
  for (size_t i = 0; i < x.size(); ++i) {
    const T want = library(x[i], y[i]);
    ASSERT_EQ(std::memcmp(&want, &out[i], sizeof(T)), 0)
        << "pow(" << std::hexfloat << x[i] << ", " << y[i] << "): " << out[i] << ", library "
        << want;
  }
  // One exponent for every element, one base for every element, in place with a tail.
  for (const T e : {T(2.5), T(-0.75), T(3), T(1e-3)}) {
    ASSERT_TRUE(libm_replay_pow(x.data(), 1, &e, 0, out.data(), n));
    for (size_t i = 0; i < x.size(); ++i) {
      const T want = library(x[i], e);
      ASSERT_EQ(std::memcmp(&want, &out[i], sizeof(T)), 0) << std::hexfloat << x[i] << " ** " << e;
    }
  }
  const T base = T(1.3);
  ASSERT_TRUE(libm_replay_pow(&base, 0, y.data(), 1, out.data(), n));
  for (size_t i = 0; i < y.size(); ++i) {
    const T want = library(base, y[i]);
    ASSERT_EQ(std::memcmp(&want, &out[i], sizeof(T)), 0) << std::hexfloat << base << " ** " << y[i];
  }
  // Other strides, one of them negative.
  ASSERT_TRUE(libm_replay_pow(x.data(), 2, y.data() + n - 1, -1, out.data(), n / 2));
  for (int64_t i = 0; i < n / 2; ++i) {
    const T want = library(x[2 * i], y[n - 1 - i]);
    ASSERT_EQ(std::memcmp(&want, &out[i], sizeof(T)), 0) << std::hexfloat << x[2 * i];
  }
  std::vector<T> z(y.begin(), y.begin() + 1003);
  ASSERT_TRUE(libm_replay_pow(x.data(), 1, z.data(), 1, z.data(), 1003));
  ASSERT_TRUE(libm_replay_pow(x.data(), 1, y.data(), 1, out.data(), 1003));
  EXPECT_EQ(std::memcmp(z.data(), out.data(), z.size() * sizeof(T)), 0);
}

TEST(LibmReplay, PowFloat64) {
  expect_pow_library<double>(10, [](double x, double y) { return std::pow(x, y); });
}

TEST(LibmReplay, PowFloat32) {
  expect_pow_library<float>(8, [](float x, float y) { return std::pow(x, y); });
}

TEST(LibmReplay, OnlyWhenRoundingToNearest) {
  if (!replay_expected()) GTEST_SKIP() << "no replay loops on this machine";
  std::vector<double> x(9, 1.0), y(9);  // glibc's log(1) is +0 in every rounding mode
  ASSERT_EQ(std::fesetround(FE_DOWNWARD), 0);
  const bool used = libm_replay(FastOp::log, x.data(), y.data(), 9);
  std::fesetround(FE_TONEAREST);
  EXPECT_FALSE(used);
  EXPECT_TRUE(libm_replay(FastOp::log, x.data(), y.data(), 9));
}

/// The float32 exp loops that serve where the replay loops do not: random inputs, and inputs whose
/// exact result lies within 0.02 ulp of a rounding midpoint, where they must defer to the library.
void expect_bounded_loop(FastOp op, float (*library)(float), double (*exact)(double)) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<float> range(-110.0f, 110.0f);
  std::vector<float> x;
  int near = 0;
  while (x.size() < 200000) {
    const float v = range(rng);
    const double e = exact(v);
    const float rounded = float(e);
    if (!std::isfinite(rounded) || rounded < 1e-30f) continue;
    const double ulp = double(std::nextafter(rounded, INFINITY)) - double(rounded);
    const bool is_near = std::fabs(std::fabs((e - double(rounded)) / ulp) - 0.5) < 0.02;
    if (is_near || x.size() % 8 != 0) x.push_back(v), near += is_near;
  }
  ASSERT_GT(near, 1000);
  std::vector<float> y(x.size());
  if (!fast_unary_bounded(op, x.data(), y.data(), static_cast<int64_t>(x.size())))
    GTEST_SKIP() << "no bounded loops on this machine";
  for (size_t i = 0; i < x.size(); ++i) {
    const float want = library(x[i]);
    ASSERT_EQ(std::memcmp(&want, &y[i], 4), 0) << "x = " << std::hexfloat << x[i];
  }
}

TEST(FastMathBounded, ExpFloat32) { expect_bounded_loop(FastOp::exp, ::expf, ::exp); }

TEST(FastMathBounded, Exp2Float32) { expect_bounded_loop(FastOp::exp2, ::exp2f, ::exp2); }

}  // namespace
}  // namespace gpupy::cpu
