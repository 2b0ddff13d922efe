// float16 storage, conversions and promotion (values checked by hand against IEEE 754 binary16
// and NumPy 2.4).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "functors/cast.h"
#include "functors/float16_loops.h"
#include "gpupy/dtype.h"
#include "gpupy/float16.h"

using gpupy::DType;
using gpupy::float16;

namespace {

uint16_t bits(double v) { return float16(v).bits; }

}  // namespace

TEST(Float16, ExactValues) {
  EXPECT_EQ(bits(0.0), 0x0000u);
  EXPECT_EQ(bits(-0.0), 0x8000u);
  EXPECT_EQ(bits(1.0), 0x3c00u);
  EXPECT_EQ(bits(-2.0), 0xc000u);
  EXPECT_EQ(bits(65504.0), 0x7bffu);                  // largest finite
  EXPECT_EQ(bits(std::ldexp(1.0, -14)), 0x0400u);     // smallest normal
  EXPECT_EQ(bits(std::ldexp(1.0, -24)), 0x0001u);     // smallest subnormal
  EXPECT_EQ(bits(std::ldexp(1023.0, -24)), 0x03ffu);  // largest subnormal
}

TEST(Float16, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even mantissa (1).
  EXPECT_EQ(bits(1.0 + std::ldexp(1.0, -11)), 0x3c00u);
  EXPECT_EQ(bits(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02u);
  EXPECT_EQ(bits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3c01u);
  // 65520 is halfway between 65504 and 65536 (inf's place): it rounds to inf, 65519.99 does not.
  EXPECT_EQ(bits(65520.0), 0x7c00u);
  EXPECT_EQ(bits(65519.99), 0x7bffu);
  EXPECT_EQ(bits(1e300), 0x7c00u);
  EXPECT_EQ(bits(-1e300), 0xfc00u);
  // Subnormals: 2^-25 ties to 0, just above it rounds to the smallest subnormal, and 1.5 and
  // 2.5 units of 2^-24 tie to 2 units.
  EXPECT_EQ(bits(std::ldexp(1.0, -25)), 0x0000u);
  EXPECT_EQ(bits(std::ldexp(1.0, -25) * 1.0000001), 0x0001u);
  EXPECT_EQ(bits(std::ldexp(1.5, -24)), 0x0002u);
  EXPECT_EQ(bits(std::ldexp(2.5, -24)), 0x0002u);
  EXPECT_EQ(bits(-std::ldexp(1.0, -30)), 0x8000u);
  EXPECT_EQ(bits(std::numeric_limits<double>::denorm_min()), 0x0000u);
  // The largest subnormal plus half a unit carries into the smallest normal.
  EXPECT_EQ(bits(std::ldexp(1023.5, -24)), 0x0400u);
}

TEST(Float16, InfinityAndNan) {
  EXPECT_EQ(bits(std::numeric_limits<double>::infinity()), 0x7c00u);
  EXPECT_EQ(bits(-std::numeric_limits<double>::infinity()), 0xfc00u);
  const uint16_t nan = bits(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00u, 0x7c00u);
  EXPECT_NE(nan & 0x03ffu, 0u);
}

TEST(Float16, EveryPatternRoundTripsThroughFloat) {
  for (uint32_t b = 0; b < 0x10000u; ++b) {
    const float16 h = float16::from_bits(uint16_t(b));
    const float f = static_cast<float>(h);
    if (std::isnan(f)) {
      EXPECT_EQ(b & 0x7c00u, 0x7c00u);
      EXPECT_NE(b & 0x03ffu, 0u);
      continue;
    }
    EXPECT_EQ(float16(f).bits, b) << "pattern " << b;
    EXPECT_EQ(float16(double(f)).bits, b) << "pattern " << b;
  }
  EXPECT_EQ(static_cast<float>(float16::from_bits(0x0001u)), std::ldexp(1.0f, -24));
  EXPECT_EQ(static_cast<float>(float16::from_bits(0xfbffu)), -65504.0f);
}

TEST(Float16, Casts) {
  EXPECT_EQ((gpupy::cast_value<int32_t>(float16(-3.75))), -3);
  EXPECT_EQ((gpupy::cast_value<bool>(float16(0.0))), false);
  EXPECT_EQ((gpupy::cast_value<float16>(int64_t(2049))).bits, bits(2048.0));  // ties to even
  EXPECT_EQ((gpupy::cast_value<float16>(uint64_t(1) << 40)).bits, 0x7c00u);
  EXPECT_EQ((gpupy::cast_value<float16>(gpupy::complex128(1.5, 9.0))).bits, bits(1.5));
  EXPECT_EQ((gpupy::cast_value<gpupy::complex64>(float16(0.5))).re, 0.5f);
}

TEST(Float16, StepsByOneUlp) {
  gpupy::fn::ViaFloat<gpupy::fn::Nextafter> next;
  EXPECT_EQ(next(float16(1.0), float16(2.0)).bits, 0x3c01u);
  EXPECT_EQ(next(float16(1.0), float16(0.0)).bits, 0x3bffu);
  EXPECT_EQ(next(float16(0.0), float16(-1.0)).bits, 0x8001u);
  EXPECT_EQ(next(float16(-1.0), float16(-2.0)).bits, 0xbc01u);
  gpupy::fn::ViaFloat<gpupy::fn::Spacing> spacing;
  EXPECT_EQ(static_cast<float>(spacing(float16(1.0))), std::ldexp(1.0f, -10));
  // NumPy's float16 spacing steps towards +inf for negative values too: -4 -> +2^-9.
  EXPECT_EQ(static_cast<float>(spacing(float16(-4.0))), std::ldexp(1.0f, -9));
  EXPECT_EQ(spacing(float16(65504.0)).bits, 0x7c00u);
}

TEST(Float16, Promotion) {
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::int8), DType::float16);
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::uint8), DType::float16);
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::bool_), DType::float16);
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::int16), DType::float32);
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::uint32), DType::float64);
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::float32), DType::float32);
  EXPECT_EQ(gpupy::promote_types(DType::float16, DType::complex64), DType::complex64);
  EXPECT_EQ(gpupy::promote_types(DType::int8, DType::int16), DType::int16);  // unchanged
  EXPECT_TRUE(gpupy::can_cast(DType::uint8, DType::float16));
  EXPECT_FALSE(gpupy::can_cast(DType::int16, DType::float16));
  EXPECT_TRUE(gpupy::can_cast(DType::int16, DType::float32));
  EXPECT_EQ(gpupy::float_dtype_for(DType::int8), DType::float16);
  EXPECT_EQ(gpupy::float_dtype_for(DType::bool_), DType::float16);
  EXPECT_EQ(gpupy::float_dtype_for(DType::uint16), DType::float32);
  EXPECT_EQ(gpupy::complex_dtype(DType::float16), DType::complex64);
  EXPECT_EQ(gpupy::itemsize(DType::float16), 2u);
  EXPECT_EQ(gpupy::dtype_from_name("<f2"), DType::float16);
  EXPECT_EQ(gpupy::finfo(DType::float16).max, 65504.0);
}
