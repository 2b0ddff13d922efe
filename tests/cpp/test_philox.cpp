// The shared Philox4x32-10 functor against the Random123 known-answer vectors, and the cpu
// backend's philox_fill against the functor.
#include <gtest/gtest.h>

#include <cstring>

#include "functors/philox.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

using gpupy::RandomDistribution;
using gpupy::fn::Philox4;

namespace {

Philox4 run(Philox4 c, uint32_t k0, uint32_t k1) { return gpupy::fn::philox4x32_10(c, k0, k1); }

void expect_words(const Philox4& got, const Philox4& want) {
  for (int i = 0; i < 4; ++i) EXPECT_EQ(got.v[i], want.v[i]) << "word " << i;
}

}  // namespace

TEST(Philox, KnownAnswers) {
  expect_words(run({{0, 0, 0, 0}}, 0, 0), {{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}});
  expect_words(run({{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}}, 0xffffffff, 0xffffffff),
               {{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}});
  expect_words(run({{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}}, 0xa4093822, 0x299f31d0),
               {{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}});
}

TEST(Philox, DrawsFromTheBlockWords) {
  const uint64_t key = 0x0123456789abcdefull, counter = 0x100000007ull;
  const Philox4 w = gpupy::fn::philox_words(key, counter);
  expect_words(w, run({{7, 1, 0, 0}}, 0x89abcdef, 0x01234567));
  const uint64_t bits = gpupy::fn::philox_draw<RandomDistribution::bits, uint64_t>(key, counter);
  EXPECT_EQ(bits, (uint64_t(w.v[0]) << 32) | w.v[1]);
  const double u = gpupy::fn::philox_draw<RandomDistribution::uniform, double>(key, counter);
  EXPECT_EQ(u, double(bits >> 11) * 0x1p-53);
  const float f = gpupy::fn::philox_draw<RandomDistribution::uniform, float>(key, counter);
  EXPECT_EQ(f, float(w.v[0] >> 8) * 0x1p-24f);
  EXPECT_GE(u, 0.0);
  EXPECT_LT(u, 1.0);
}

TEST(Philox, CpuFillMatchesTheFunctor) {
  const uint64_t key = 42, counter = 1000;
  gpupy::Array a = gpupy::philox_random({3, 5}, gpupy::DType::float64, RandomDistribution::normal,
                                        key, counter, gpupy::Device{});
  ASSERT_TRUE(a.is_c_contiguous());
  const double* p = reinterpret_cast<const double*>(a.data());
  for (int i = 0; i < 15; ++i)
    EXPECT_EQ(p[i], (gpupy::fn::philox_draw<RandomDistribution::normal, double>(key, counter + i)));
  EXPECT_THROW(gpupy::philox_random({2}, gpupy::DType::int32, RandomDistribution::uniform, 0, 0,
                                    gpupy::Device{}),
               gpupy::TypeError);
}
