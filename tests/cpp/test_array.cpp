// C++ invariants of Array views, contiguity, overlap and the host allocator's statistics.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "backend/backend.h"
#include "gpupy/alignment.h"
#include "gpupy/array.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

using gpupy::Array;
using gpupy::Device;
using gpupy::DType;

TEST(Array, CStridesAndContiguity) {
  Array a = Array::empty({2, 3, 4}, DType::float32, Device{});
  EXPECT_EQ(a.strides(), (gpupy::Strides{48, 16, 4}));
  EXPECT_TRUE(a.is_c_contiguous());
  EXPECT_FALSE(a.is_f_contiguous());
  EXPECT_EQ(a.nbytes(), 96);
  // The transposed view is F-contiguous and still dense.
  Array t = a.view({4, 3, 2}, {4, 16, 48}, 0);
  EXPECT_TRUE(t.is_f_contiguous());
  EXPECT_TRUE(t.is_dense());
  EXPECT_EQ(t.buffer(), a.buffer());
}

TEST(Array, SizeOneAndEmptyAxesDoNotBreakContiguity) {
  Array a = Array::empty({1, 5}, DType::int64, Device{});
  EXPECT_TRUE(a.view({1, 5}, {999, 8}, 0).is_c_contiguous());
  Array e = Array::empty({0, 3}, DType::int8, Device{});
  EXPECT_EQ(e.size(), 0);
  EXPECT_TRUE(e.is_c_contiguous());
}

TEST(Array, NegativeStridesAndExtent) {
  Array a = Array::empty({10}, DType::int32, Device{});
  Array reversed = a.view({10}, {-4}, 36);  // a[::-1]
  auto [lo, hi] = reversed.byte_extent();
  EXPECT_EQ(lo, a.data());
  EXPECT_EQ(hi, a.data() + 40);
  EXPECT_FALSE(reversed.is_c_contiguous());
  EXPECT_TRUE(gpupy::may_share_memory(a, reversed));
  Array first_half = a.view({5}, {4}, 0), second_half = a.view({5}, {4}, 20);
  EXPECT_FALSE(gpupy::may_share_memory(first_half, second_half));
}

TEST(Array, AlignmentErrorChecksAddressAndStridesOfLongAxes) {
  using gpupy::alignment_error;
  alignas(16) static char buf[64];
  EXPECT_EQ(alignment_error(buf, {3}, {16}, DType::complex128), "");
  EXPECT_EQ(alignment_error(buf + 8, {3}, {8}, DType::float64), "");
  // complex128 needs 16 bytes, though 8 is its C alignment (NumPy's "aligned" flag).
  EXPECT_NE(alignment_error(buf + 8, {3}, {16}, DType::complex128).find("16-byte aligned"),
            std::string::npos);
  EXPECT_NE(alignment_error(buf + 1, {2}, {4}, DType::float32).find("float32 data must be 4-byte"),
            std::string::npos);
  EXPECT_EQ(alignment_error(buf, {2, 2}, {17, 16}, DType::complex128),
            "complex128 data must be 16-byte aligned, got a stride of 17 bytes");
  // Strides of length-1 axes are never followed, and empty arrays load nothing.
  EXPECT_EQ(alignment_error(buf, {1, 2}, {17, 16}, DType::complex128), "");
  EXPECT_EQ(alignment_error(buf + 1, {0, 2}, {16, 16}, DType::complex128), "");
  EXPECT_EQ(alignment_error(buf + 1, {5}, {1}, DType::uint8), "");
}

TEST(Array, FromHostCopiesUnalignedStridedItems) {
  // A (2, 2) view of every other complex128 of a buffer starting 1 byte past a 16-byte boundary.
  alignas(16) static unsigned char raw[1 + 8 * 16];
  for (size_t i = 0; i < sizeof raw; ++i) raw[i] = static_cast<unsigned char>(i * 7 + 3);
  for (Device dev : {Device{}, Device{gpupy::DeviceType::emu, 0}}) {
    Array a;
    try {
      a = gpupy::from_host(raw + 1, {2, 2}, {64, 32}, DType::complex128, dev);
    } catch (const gpupy::NotImplementedError&) {
      continue;  // a build without the emu device
    }
    ASSERT_EQ(a.strides(), (gpupy::Strides{32, 16}));
    std::vector<unsigned char> got(a.nbytes());
    gpupy::to_host(a, got.data());
    for (size_t k = 0; k < 4; ++k)
      EXPECT_EQ(std::memcmp(got.data() + 16 * k, raw + 1 + 32 * k, 16), 0) << dev.str() << k;
  }
}

TEST(Array, BroadcastShapes) {
  EXPECT_EQ(gpupy::broadcast_shapes({3, 1}, {1, 4}), (gpupy::Shape{3, 4}));
  EXPECT_EQ(gpupy::broadcast_shapes({}, {2, 2}), (gpupy::Shape{2, 2}));
  EXPECT_THROW(gpupy::broadcast_shapes({3}, {4}), gpupy::ValueError);
}

TEST(Allocator, UsedBytesReturnToBaseline) {
  gpupy::Backend& cpu = gpupy::backend_for(Device{});
  size_t before = cpu.memory_stats().used_bytes;
  {
    Array a = Array::empty({1000}, DType::float64, Device{});
    Array v = a.view({10}, {8}, 0);
    EXPECT_EQ(cpu.memory_stats().used_bytes, before + 8000);
  }
  EXPECT_EQ(cpu.memory_stats().used_bytes, before);
}

TEST(Elementwise, AddThroughTheFrontEnd) {
  Array a = gpupy::arange(gpupy::Scalar(int64_t(0)), gpupy::Scalar(int64_t(4)),
                          gpupy::Scalar(int64_t(1)), DType::int32, Device{});
  Array b = gpupy::add(a, gpupy::Scalar(int64_t(10), /*weak=*/true));
  EXPECT_EQ(b.dtype(), DType::int32);
  const int32_t* p = reinterpret_cast<const int32_t*>(b.data());
  EXPECT_EQ(p[0], 10);
  EXPECT_EQ(p[3], 13);
  EXPECT_THROW(gpupy::add(a, gpupy::Scalar(int64_t(1) << 40, true)), gpupy::OverflowError);
}
