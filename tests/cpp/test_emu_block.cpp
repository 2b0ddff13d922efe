// Tests of the emu runtime: block barriers, shared memory, grids and blocks in 2-D and 3-D. Host
// only; the kernels are CUDA sources compiled by g++ against cuda_emu.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <thread>
#include <vector>

#include "emu_schedules.h"
#include "kernels/emu_block_kernels.cuh"

namespace {

using gpupy::emu::launch;
using gpupy_test::every_schedule;

TEST(EmuBlock, SharedMemoryTreeReduction) {
  const int n = 100000, threads = 256, blocks = (n + 2 * threads - 1) / (2 * threads);
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 7) - 3.0f;
  std::vector<float> want(blocks);  // each block's pairs summed in its tree's order
  for (int b = 0; b < blocks; ++b) {
    float s[threads];
    for (int t = 0; t < threads; ++t) {
      const int i = b * 2 * threads + t;
      s[t] = (i < n ? in[i] : 0.0f) + (i + threads < n ? in[i + threads] : 0.0f);
    }
    for (int stride = threads / 2; stride > 0; stride >>= 1)
      for (int t = 0; t < stride; ++t) s[t] += s[t + stride];
    want[b] = s[0];
  }
  // Barriers make the result independent of $GPUPY_EMU_SCHEDULE, bit for bit.
  gpupy_test::ScheduleGuard guard;
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    std::vector<float> partial(blocks, -1.0f);
    GPUPY_EMU_LAUNCH(block_reduce_sum<256>, dim3(blocks), dim3(threads), 0, in.data(),
                     partial.data(), n);
    EXPECT_EQ(partial, want) << to_string(s);
  }
}

TEST(EmuBlock, HillisSteeleInclusiveScan) {
  for (int n : {1, 37, 256, 1000}) {
    std::vector<int> in(n), out(n), want(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 13) % 11 - 5;
    std::inclusive_scan(in.begin(), in.end(), want.begin());
    const unsigned threads = n <= 256 ? 256 : 1024;
    gpupy_test::ScheduleGuard guard;
    for (const auto& s : every_schedule()) {
      gpupy::emu::set_schedule(s);
      std::fill(out.begin(), out.end(), 0);
      launch(block_scan_hillis_steele, dim3(1), dim3(threads), 0, in.data(), out.data(), n);
      EXPECT_EQ(out, want) << "n=" << n << " " << to_string(s);
    }
  }
}

TEST(EmuBlock, TiledTranspose) {
  const int rows = 70, cols = 45;
  std::vector<float> in(rows * cols), out(rows * cols, -1.0f);
  for (int i = 0; i < rows * cols; ++i) in[i] = static_cast<float>(i);
  dim3 grid((cols + 31) / 32, (rows + 31) / 32), block(32, 8);
  launch(transpose_tiled, grid, block, 0, in.data(), out.data(), rows, cols);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) ASSERT_EQ(out[c * rows + r], in[r * cols + c]);
}

TEST(EmuBlock, DynamicSharedMemory) {
  const int threads = 200, blocks = 5;
  std::vector<int> in(threads * blocks), out(in.size());
  std::iota(in.begin(), in.end(), 0);
  launch(reverse_dynamic, dim3(blocks), dim3(threads), threads * sizeof(int), in.data(),
         out.data());
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < threads; ++t)
      ASSERT_EQ(out[b * threads + t], in[b * threads + threads - 1 - t]);
}

TEST(EmuBlock, EarlyExitBeforeBarrier) {
  std::vector<int> in(256);
  std::iota(in.begin(), in.end(), 1);
  for (int n : {1, 5, 33, 255}) {
    int out = -1;
    launch(early_exit_sum, dim3(1), dim3(256), 0, in.data(), &out, n);
    EXPECT_EQ(out, n * (n + 1) / 2);
  }
}

TEST(EmuBlock, ThreadsExitingBeforeTheFirstBarrierThread) {
  gpupy_test::ScheduleGuard guard;
  for (const auto& s : every_schedule()) {
    gpupy::emu::set_schedule(s);
    for (unsigned threads : {2u, 64u, 200u, 256u}) {
      int out = -1, want = 0;
      for (unsigned i = 0; i < threads; ++i) want += i % 3 ? static_cast<int>(i) : 0;
      launch(scattered_exit_sum, dim3(2), dim3(threads), 0, &out);
      EXPECT_EQ(out, want) << threads << " " << to_string(s);
    }
  }
}

TEST(EmuBlock, PrintfWorksInKernels) {
  testing::internal::CaptureStdout();
  launch(say_hello, dim3(4), dim3(8), 0, 42);
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "hello from the emu device: 42\n");
}

TEST(EmuBlock, SyncthreadsCountAndOr) {
  std::vector<int> flags(96, 0);
  int count = -1, all = -1, any = -1;
  launch(sync_predicates, dim3(1), dim3(96), 0, flags.data(), &count, &all, &any);
  EXPECT_EQ(count, 0);
  EXPECT_EQ(all, 0);
  EXPECT_EQ(any, 0);
  for (int i = 0; i < 96; i += 3) flags[i] = 7;
  launch(sync_predicates, dim3(1), dim3(96), 0, flags.data(), &count, &all, &any);
  EXPECT_EQ(count, 32);
  EXPECT_EQ(all, 0);
  EXPECT_EQ(any, 1);
  std::fill(flags.begin(), flags.end(), 1);
  launch(sync_predicates, dim3(1), dim3(96), 0, flags.data(), &count, &all, &any);
  EXPECT_EQ(count, 96);
  EXPECT_EQ(all, 1);
}

TEST(EmuBlock, Grids3DAndBlocks3D) {
  const dim3 grid(3, 2, 4), block(4, 3, 2);
  const int per_block = 24, total = 3 * 2 * 4 * per_block;
  std::vector<int> out(total * 6, -1);
  launch(write_coords, grid, block, 0, out.data());
  int slot = 0;
  for (int bz = 0; bz < 4; ++bz)
    for (int by = 0; by < 2; ++by)
      for (int bx = 0; bx < 3; ++bx)
        for (int tz = 0; tz < 2; ++tz)
          for (int ty = 0; ty < 3; ++ty)
            for (int tx = 0; tx < 4; ++tx, ++slot) {
              const int* o = &out[slot * 6];
              ASSERT_EQ(std::vector<int>(o, o + 6), (std::vector<int>{bx, by, bz, tx, ty, tz}));
            }
}

TEST(EmuBlock, TwoDimensionalBlockBarrier) {
  std::vector<int> in(128 * 9), out(9);
  std::iota(in.begin(), in.end(), 0);
  launch(block2d_sum, dim3(9), dim3(16, 8), 0, in.data(), out.data());
  for (int b = 0; b < 9; ++b) {
    EXPECT_EQ(out[b], std::accumulate(in.begin() + b * 128, in.begin() + (b + 1) * 128, 0));
  }
}

__global__ void axpy(int n, float a, const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

TEST(EmuBlock, KernelsWithoutBarriersRunAsPlainCalls) {
  const int n = 1 << 20;
  std::vector<float> x(n, 2.0f), y(n, 1.0f);
  gpupy::emu::reset_stats();
  const auto t0 = std::chrono::steady_clock::now();
  launch(axpy, dim3((n + 255) / 256), dim3(256), 0, n, 3.0f, x.data(), y.data());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[emu perf] 1M-thread axpy without barriers: %.4f s\n", s);
  EXPECT_EQ(gpupy::emu::stats().blocks, static_cast<unsigned long long>(n / 256));
  EXPECT_EQ(gpupy::emu::stats().fiber_blocks, 0u);
  EXPECT_TRUE(std::all_of(y.begin(), y.end(), [](float v) { return v == 7.0f; }));

  std::vector<int> in(256, 1);
  int out = 0;
  gpupy::emu::reset_stats();
  launch(early_exit_sum, dim3(1), dim3(256), 0, in.data(), &out, 100);
  EXPECT_EQ(gpupy::emu::stats().fiber_blocks, 1u);
}

TEST(EmuBlock, ConcurrentLaunchesFromHostThreads) {
  std::vector<std::thread> hosts;
  std::vector<int> results(4, -1);
  for (int h = 0; h < 4; ++h) {
    hosts.emplace_back([h, &results] {
      std::vector<int> in(256, h + 1);
      for (int rep = 0; rep < 20; ++rep)
        launch(early_exit_sum, dim3(3), dim3(256), 0, in.data(), &results[h], 200);
    });
  }
  for (auto& t : hosts) t.join();
  for (int h = 0; h < 4; ++h) EXPECT_EQ(results[h], 200 * (h + 1));
}

}  // namespace
