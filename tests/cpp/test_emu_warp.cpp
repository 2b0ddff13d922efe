// Tests of the emu runtime: warp shuffles and votes (partial masks, partial warps) and atomics
// across OS threads. Host only; kernels compiled by g++ against cuda_emu.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "emu_schedules.h"
#include "gpupy/error.h"
#include "kernels/emu_warp_kernels.cuh"

namespace {

using gpupy::emu::launch;
using gpupy_test::every_schedule;

// Collectives keep their results under every $GPUPY_EMU_SCHEDULE: only independent progress moves.
TEST(EmuWarp, ShflDownReduction) {
  gpupy_test::ScheduleGuard guard;
  const int n = 50000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 5);
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    float out = 0.0f;
    launch(warp_reduce_sum, dim3((n + 255) / 256), dim3(256), 0, in.data(), &out, n);
    EXPECT_FLOAT_EQ(out, std::accumulate(in.begin(), in.end(), 0.0f)) << to_string(s);
  }
}

TEST(EmuWarp, ShflUpBlockScan) {
  const int threads = 512, blocks = 3;
  std::vector<int> in(threads * blocks), out(in.size()), want(in.size());
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 9) - 4;
  for (int b = 0; b < blocks; ++b) {
    std::inclusive_scan(in.begin() + b * threads, in.begin() + (b + 1) * threads,
                        want.begin() + b * threads);
  }
  gpupy_test::ScheduleGuard guard;
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    std::fill(out.begin(), out.end(), 0);
    launch(block_scan_shfl, dim3(blocks), dim3(threads), 0, in.data(), out.data());
    EXPECT_EQ(out, want) << to_string(s);
  }
}

TEST(EmuWarp, VotesInPartialLastWarp) {
  gpupy_test::ScheduleGuard guard;
  const int threads = 70;  // warps of 32, 32 and 6 lanes
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    std::vector<unsigned> ballots(3), active(3);
    std::vector<int> anys(3), alls(3);
    launch(vote_partial, dim3(1), dim3(threads), 0, ballots.data(), anys.data(), alls.data(),
           active.data());
    EXPECT_EQ(ballots[0], 0xaaaaaaaau) << to_string(s);
    EXPECT_EQ(ballots[1], 0xaaaaaaaau) << to_string(s);
    EXPECT_EQ(ballots[2], 0x2au) << to_string(s);  // lanes 1, 3, 5 of 6
    EXPECT_EQ(anys[0], 1);
    EXPECT_EQ(anys[2], 1);
    EXPECT_EQ(alls[0], 1);
    EXPECT_EQ(alls[1], 0);  // threads 40..63 fail t < 40
    EXPECT_EQ(alls[2], 0);
    // __activemask names the lanes that have not exited; when other orders let the other lanes
    // finish before lane 0 asks, they are gone (CUDA promises no convergence here either).
    if (s.order == gpupy::emu::ScheduleOrder::kInOrder) {
      EXPECT_EQ(active[0], 0xffffffffu);
      EXPECT_EQ(active[2], 0x3fu);
    } else {
      EXPECT_EQ(active[0] & 1u, 1u) << to_string(s);
      EXPECT_EQ(active[2] & ~0x3fu, 0u) << to_string(s);
    }
  }
}

TEST(EmuWarp, ShflWithPartialMasksAndWidth) {
  gpupy_test::ScheduleGuard guard;
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    std::vector<int> idx(32), xr(32);
    launch(shfl_partial_masks, dim3(1), dim3(32), 0, idx.data(), xr.data());
    for (int lane = 0; lane < 32; ++lane) {
      EXPECT_EQ(idx[lane], lane < 16 ? 30 : 200) << lane << " " << to_string(s);
      EXPECT_EQ(xr[lane], (lane ^ 1) * 10) << lane << " " << to_string(s);
    }
  }
}

TEST(EmuWarp, ExitedLaneInMaskIsAnError) {
  gpupy_test::ScheduleGuard guard;
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    std::vector<int> out(32);
    try {
      GPUPY_EMU_LAUNCH(shfl_with_exited_lane, dim3(1), dim3(32), 0, out.data());
      ADD_FAILURE() << "expected an error under " << to_string(s);
    } catch (const gpupy::Error& e) {
      EXPECT_NE(std::string(e.what()).find("shfl_with_exited_lane"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("has exited"), std::string::npos) << e.what();
    }
  }
}

TEST(EmuAtomics, HistogramAcrossManyBlocks) {
  const int n = 1 << 20;
  std::vector<unsigned char> data(n);
  for (int i = 0; i < n; ++i) data[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  std::vector<unsigned> bins(256, 0), want(256, 0);
  for (unsigned char c : data) ++want[c];
  launch(histogram256, dim3(512), dim3(128), 0, data.data(), n, bins.data());
  EXPECT_EQ(bins, want);
}

TEST(EmuAtomics, CasBasedFloatMax) {
  const int n = 100000;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>((i * 7919) % 100003) * 0.5f;
  float out = -1.0f;
  launch(float_max, dim3((n + 127) / 128), dim3(128), 0, in.data(), n, &out);
  EXPECT_EQ(out, *std::max_element(in.begin(), in.end()));
}

TEST(EmuAtomics, IncDecWrapAround) {
  unsigned counter = 0, down = 0;
  launch(inc_dec, dim3(4), dim3(64), 0, &counter, &down, 253);
  EXPECT_EQ(counter, 253u % 10u);  // atomicInc(p, 9) counts 0..9 and wraps
  // atomicDec(p, 6) from 0 cycles 6, 5, ..., 0, 6, ...
  unsigned want = 0;
  for (int i = 0; i < 253; ++i) want = (want == 0 || want > 6) ? 6 : want - 1;
  EXPECT_EQ(down, want);
}

TEST(EmuAtomics, MinMaxAndWideAdd) {
  const int n = 5000;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 2001 - 1000;
  int mn = 1 << 30, mx = -(1 << 30);
  unsigned long long sum = 0;
  launch(min_max_atomics, dim3((n + 63) / 64), dim3(64), 0, in.data(), n, &mn, &mx, &sum);
  EXPECT_EQ(mn, *std::min_element(in.begin(), in.end()));
  EXPECT_EQ(mx, *std::max_element(in.begin(), in.end()));
  unsigned long long want = 0;
  for (int v : in) want += static_cast<unsigned long long>(v + 1000);
  EXPECT_EQ(sum, want);
}

TEST(EmuAtomics, SixteenBitCasAndBitOps) {
  unsigned short h = 5;
  EXPECT_EQ(atomicCAS(&h, static_cast<unsigned short>(5), static_cast<unsigned short>(9)), 5);
  EXPECT_EQ(h, 9);
  EXPECT_EQ(atomicCAS(&h, static_cast<unsigned short>(5), static_cast<unsigned short>(1)), 9);
  unsigned u = 0xf0;
  EXPECT_EQ(atomicOr(&u, 0x0fu), 0xf0u);
  EXPECT_EQ(atomicAnd(&u, 0x3cu), 0xffu);
  EXPECT_EQ(atomicXor(&u, 0xffu), 0x3cu);
  EXPECT_EQ(u, 0xc3u);
  EXPECT_EQ(atomicExch(&u, 4u), 0xc3u);
  EXPECT_EQ(atomicSub(&u, 1u), 4u);
}

TEST(EmuMath, IntrinsicsMatchReferences) {
  EXPECT_EQ(__popc(0xf0f0u), 8);
  EXPECT_EQ(__popcll(~0ull), 64);
  EXPECT_EQ(__clz(1), 31);
  EXPECT_EQ(__clz(0), 32);
  EXPECT_EQ(__clzll(1ll), 63);
  EXPECT_EQ(__ffs(0), 0);
  EXPECT_EQ(__ffs(8), 4);
  EXPECT_EQ(__brev(1u), 0x80000000u);
  EXPECT_EQ(__brev(0x12345678u), 0x1e6a2c48u);
  EXPECT_EQ(__float2int_rn(2.5f), 2);
  EXPECT_EQ(__float2int_rn(3.5f), 4);
  EXPECT_EQ(__saturatef(1.5f), 1.0f);
  EXPECT_EQ(__saturatef(-2.0f), 0.0f);
  EXPECT_FLOAT_EQ(rsqrtf(4.0f), 0.5f);
  EXPECT_FLOAT_EQ(__expf(1.0f), std::exp(1.0f));
  EXPECT_FLOAT_EQ(__fdividef(1.0f, 4.0f), 0.25f);
  EXPECT_EQ(min(3, 5), 3);
  EXPECT_EQ(max(3u, 5u), 5u);
  EXPECT_EQ(max(2.0f, -1.0f), 2.0f);
  EXPECT_EQ(std::min(3, 5), 3);  // std::min is still usable
  int x = 42;
  EXPECT_EQ(__ldg(&x), 42);
  EXPECT_FLOAT_EQ(__logf(2.0f), std::log(2.0f));
  EXPECT_FLOAT_EQ(__sinf(0.5f), std::sin(0.5f));
  EXPECT_FLOAT_EQ(__cosf(0.5f), std::cos(0.5f));
  EXPECT_FLOAT_EQ(__powf(2.0f, 10.0f), 1024.0f);
  EXPECT_FLOAT_EQ(fmaf(2.0f, 3.0f, 1.0f), 7.0f);
  EXPECT_EQ(__fmul_rn(1.5f, 2.0f), 3.0f);
  EXPECT_EQ(__fadd_rn(1.5f, 2.0f), 3.5f);
  EXPECT_DOUBLE_EQ(rsqrt(16.0), 0.25);
}

// Every qualifier CUDA code spells must compile away.
__constant__ float c_table[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__managed__ int m_counter = 0;
__shared__ int s_file_scope[32];
struct __align__(16) Aligned {
  float v[4];
};

__host__ __device__ __forceinline__ float twice(float v) { return 2.0f * v; }
__device__ __noinline__ float thrice(float v) { return 3.0f * v; }

__global__ void __launch_bounds__(64, 2)
    qualified(const float* __restrict__ in, float* __restrict__ out) {
  const int t = threadIdx.x;
  s_file_scope[t] = t;
  __syncthreads();
  out[t] = twice(in[t]) + thrice(c_table[t % 4]) + s_file_scope[31 - t];
  atomicAdd(&m_counter, 1);
  __threadfence();
}

TEST(EmuMath, QualifiersCompileAway) {
  static_assert(alignof(Aligned) == 16);
  std::vector<float> in(32, 1.0f), out(32);
  launch(qualified, dim3(1), dim3(32), 0, in.data(), out.data());
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], 2.0f + 3.0f * (t % 4 + 1) + (31 - t));
  EXPECT_EQ(m_counter, 32);
}

}  // namespace
