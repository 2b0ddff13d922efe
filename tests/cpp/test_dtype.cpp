// C++ invariants of dtypes and NumPy 2 promotion (values checked by hand against numpy 2.4).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

#include "functors/cast.h"
#include "gpupy/dtype.h"
#include "gpupy/error.h"

using gpupy::DType;
using gpupy::promote_types;

TEST(DType, ItemSizes) {
  EXPECT_EQ(gpupy::itemsize(DType::bool_), 1u);
  EXPECT_EQ(gpupy::itemsize(DType::uint16), 2u);
  EXPECT_EQ(gpupy::itemsize(DType::float32), 4u);
  EXPECT_EQ(gpupy::itemsize(DType::complex128), 16u);
}

TEST(DType, PromotionMixedSignedness) {
  EXPECT_EQ(promote_types(DType::int8, DType::uint8), DType::int16);
  EXPECT_EQ(promote_types(DType::uint16, DType::int8), DType::int32);
  EXPECT_EQ(promote_types(DType::uint32, DType::int64), DType::int64);
  EXPECT_EQ(promote_types(DType::uint64, DType::int64), DType::float64);
}

TEST(DType, PromotionWithFloats) {
  EXPECT_EQ(promote_types(DType::int16, DType::float32), DType::float32);
  EXPECT_EQ(promote_types(DType::int32, DType::float32), DType::float64);
  EXPECT_EQ(promote_types(DType::float64, DType::complex64), DType::complex128);
  EXPECT_EQ(promote_types(DType::uint8, DType::complex64), DType::complex64);
  EXPECT_EQ(promote_types(DType::bool_, DType::int8), DType::int8);
}

TEST(DType, PromotionIsSymmetric) {
  for (int i = 0; i < gpupy::kNumDTypes; ++i)
    for (int j = 0; j < gpupy::kNumDTypes; ++j)
      EXPECT_EQ(promote_types(DType(i), DType(j)), promote_types(DType(j), DType(i)));
}

TEST(DType, CanCast) {
  EXPECT_TRUE(gpupy::can_cast(DType::int16, DType::float32));
  EXPECT_FALSE(gpupy::can_cast(DType::int32, DType::float32));
  EXPECT_FALSE(gpupy::can_cast(DType::int64, DType::uint8, gpupy::Casting::same_kind));
  EXPECT_TRUE(gpupy::can_cast(DType::uint64, DType::int8, gpupy::Casting::same_kind));
  EXPECT_FALSE(gpupy::can_cast(DType::complex64, DType::float64, gpupy::Casting::same_kind));
}

TEST(DType, Names) {
  EXPECT_EQ(gpupy::dtype_from_name("float32"), DType::float32);
  EXPECT_EQ(gpupy::dtype_from_name("<c16"), DType::complex128);
  EXPECT_EQ(gpupy::dtype_from_name("|b1"), DType::bool_);
  EXPECT_EQ(gpupy::dtype_from_name("<f2"), DType::float16);
  EXPECT_THROW(gpupy::dtype_from_name("<f16"), gpupy::TypeError);
  EXPECT_THROW(gpupy::dtype_from_name("bfloat16"), gpupy::TypeError);
}

// The float -> integer conversion the device kernels use, against NumPy 2 on x86-64
// (numpy.array(values).astype(...)): wrapping, NaN, infinities and out-of-range values.
TEST(DType, FloatToIntAsNumpy) {
  using gpupy::float_to_int_as_numpy;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(float_to_int_as_numpy<int8_t>(300.0), 44);
  EXPECT_EQ(float_to_int_as_numpy<int8_t>(-129.0), 127);
  EXPECT_EQ(float_to_int_as_numpy<int8_t>(255.9), -1);
  EXPECT_EQ(float_to_int_as_numpy<int8_t>(nan), 0);
  EXPECT_EQ(float_to_int_as_numpy<int16_t>(3e9), 0);
  EXPECT_EQ(float_to_int_as_numpy<uint8_t>(-1.0), 255);
  EXPECT_EQ(float_to_int_as_numpy<uint16_t>(-129.0), 65407);
  EXPECT_EQ(float_to_int_as_numpy<int32_t>(-0.5), 0);
  EXPECT_EQ(float_to_int_as_numpy<int32_t>(65543.0), 65543);
  EXPECT_EQ(float_to_int_as_numpy<int32_t>(nan), INT32_MIN);
  EXPECT_EQ(float_to_int_as_numpy<int32_t>(3e9), INT32_MIN);
  EXPECT_EQ(float_to_int_as_numpy<int64_t>(3e9), 3000000000);
  EXPECT_EQ(float_to_int_as_numpy<int64_t>(-inf), INT64_MIN);
  EXPECT_EQ(float_to_int_as_numpy<int64_t>(1.8e19), INT64_MIN);
  EXPECT_EQ(float_to_int_as_numpy<uint32_t>(-1.0), 4294967295u);
  EXPECT_EQ(float_to_int_as_numpy<uint32_t>(3e9), 3000000000u);
  EXPECT_EQ(float_to_int_as_numpy<uint32_t>(-3e9), 2147483648u);
  EXPECT_EQ(float_to_int_as_numpy<uint32_t>(nan), 2147483648u);
  EXPECT_EQ(float_to_int_as_numpy<uint32_t>(inf), 0u);
  EXPECT_EQ(float_to_int_as_numpy<uint32_t>(1e20), 0u);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(-1.0), UINT64_MAX);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(-3e9), 18446744070709551616ull);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(1.8e19), 18000000000000000000ull);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(nan), 9223372036854775808ull);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(-inf), 9223372036854775808ull);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(0x1p64), 0u);
  EXPECT_EQ(float_to_int_as_numpy<uint64_t>(1.8e19f), 18000000404716257280ull);
  EXPECT_EQ(float_to_int_as_numpy<uint8_t>(-1.0f), 255);
}
