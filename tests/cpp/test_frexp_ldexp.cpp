// gmath::frexp and gmath::ldexp (bit manipulation and exact scaling, shared by every backend)
// against the C library's, bit for bit: random bit patterns, and every exponent and shift across
// the subnormal, normal, overflow and underflow ranges.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "functors/scalar_math.h"

namespace gmath = gpupy::gmath;

namespace {

template <class T>
auto bits(T x) {
  typename gmath::FloatBits<T>::U u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

template <class T>
void expect_frexp(T x) {
  int e_ref = 0, e = -1;
  T m_ref = std::frexp(x, &e_ref), m = gmath::frexp(x, &e);
  if (std::isnan(x)) {
    EXPECT_TRUE(std::isnan(m));
    EXPECT_EQ(e, 0);
    return;
  }
  EXPECT_EQ(bits(m), bits(m_ref)) << std::hexfloat << x;
  EXPECT_EQ(e, std::isfinite(x) ? e_ref : 0) << std::hexfloat << x;  // NumPy: inf gives 0
}

template <class T>
void expect_ldexp(T x, int n) {
  T ref = std::ldexp(x, n), got = gmath::ldexp(x, n);
  if (std::isnan(x))
    EXPECT_TRUE(std::isnan(got));
  else
    EXPECT_EQ(bits(got), bits(ref)) << std::hexfloat << x << " * 2^" << n;
}

template <class T>
void random_patterns(int count) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int> shift(-3 * gmath::FloatBits<T>::bias,
                                           3 * gmath::FloatBits<T>::bias);
  for (int i = 0; i < count; ++i) {
    auto u = static_cast<typename gmath::FloatBits<T>::U>(rng());
    T x;
    std::memcpy(&x, &u, sizeof x);
    expect_frexp(x);
    expect_ldexp(x, shift(rng));
  }
}

template <class T>
void every_exponent_and_shift(int shift_step) {
  const int bias = gmath::FloatBits<T>::bias, digits = gmath::FloatBits<T>::digits;
  const T mantissas[] = {T(1), T(1.5), T(-1.75), std::nextafter(T(1), T(2)),
                         std::nextafter(T(2), T(1))};
  for (int ex = 2 - bias - digits; ex <= bias; ++ex)
    for (T m : mantissas) {
      T x = std::ldexp(m, ex);
      expect_frexp(x);
      for (int n = -2 * bias - digits - 4; n <= 2 * bias + 4; n += shift_step) expect_ldexp(x, n);
    }
}

}  // namespace

TEST(FrexpLdexp, Float32RandomBits) { random_patterns<float>(200000); }
TEST(FrexpLdexp, Float64RandomBits) { random_patterns<double>(200000); }
TEST(FrexpLdexp, Float32EveryExponentAndShift) { every_exponent_and_shift<float>(1); }
TEST(FrexpLdexp, Float64EveryExponentAndShift) { every_exponent_and_shift<double>(29); }

TEST(FrexpLdexp, SpecialValues) {
  constexpr double dinf = std::numeric_limits<double>::infinity();
  constexpr float finf = std::numeric_limits<float>::infinity();
  for (double x :
       {0.0, -0.0, dinf, -dinf, std::nan(""), 4.9e-324, -4.9e-324, 1.7976931348623157e308})
    expect_frexp(x);
  for (float x : {0.0f, -0.0f, finf, -finf, std::nanf(""), 1.4e-45f, -1.4e-45f, 3.4028235e38f})
    expect_frexp(x);
  EXPECT_EQ(bits(gmath::ldexp(-0.0, 5000)), bits(-0.0));
  EXPECT_EQ(gmath::ldexp(1.0, 1024), dinf);
  EXPECT_EQ(bits(gmath::ldexp(-1.0, -1075)), bits(-0.0));  // ties to even: -2^-1075 -> -0
  EXPECT_EQ(gmath::ldexp(3.0, -1075), 4.9e-324 * 2);       // 1.5 ulp rounds up to 2
}
