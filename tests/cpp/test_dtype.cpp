// C++ invariants of dtypes and NumPy 2 promotion (values checked by hand against numpy 2.4).
#include <gtest/gtest.h>

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
  EXPECT_THROW(gpupy::dtype_from_name("<f2"), gpupy::TypeError);
}
