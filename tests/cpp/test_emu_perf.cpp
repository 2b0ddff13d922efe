// Timings of the emu runtime (printed, never asserted): fiber switch cost and a 1M-element
// shared-memory reduction. Host only.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <numeric>
#include <vector>

#include "emu/fiber.h"
#include "gpupy/emu/cuda_emu.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct PingPong {
  gpupy::emu::FiberContext main, fiber;
  long remaining;
};

void ping_pong_body(void* arg) {
  auto* p = static_cast<PingPong*>(arg);
  for (;;) {
    --p->remaining;
    gpupy::emu::fiber_switch(p->fiber, p->main);
  }
}

TEST(EmuPerf, FiberSwitchCost) {
  gpupy::emu::FiberStack stack(gpupy::emu::fiber_stack_bytes());
  PingPong p{{}, {}, 2000000};
  gpupy::emu::fiber_make(p.fiber, stack, &ping_pong_body, &p);
  const long rounds = p.remaining;
  const auto t0 = Clock::now();
  while (p.remaining > 0) gpupy::emu::fiber_switch(p.main, p.fiber);
  const double ns = seconds_since(t0) * 1e9 / (2.0 * rounds);
  std::printf("[emu perf] fiber switch: %.1f ns\n", ns);
  EXPECT_EQ(p.remaining, 0);
}

// The classic shared-memory tree reduction, two elements per thread.
__global__ void reduce_shared(const float* in, float* out, int n) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  const int i = blockIdx.x * blockDim.x * 2 + tid;
  float v = i < n ? in[i] : 0.0f;
  if (i + static_cast<int>(blockDim.x) < n) v += in[i + blockDim.x];
  s[tid] = v;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void many_barriers(int rounds, int* out) {
  for (int r = 0; r < rounds; ++r) __syncthreads();
  if (threadIdx.x == 0) *out = rounds;
}

TEST(EmuPerf, BarrierCostPerThread) {
  int out = 0;
  const int rounds = 2000;
  const auto t0 = Clock::now();
  gpupy::emu::launch(many_barriers, dim3(1), dim3(256), 0, rounds, &out);
  const double ns = seconds_since(t0) * 1e9 / (256.0 * rounds);
  std::printf("[emu perf] __syncthreads: %.1f ns per thread and barrier (about one fiber switch)\n",
              ns);
  EXPECT_EQ(out, rounds);
}

TEST(EmuPerf, OneMillionElementReduction) {
  const int n = 1 << 20, threads = 256, blocks = n / (2 * threads);
  const int final_blocks = (blocks + 2 * threads - 1) / (2 * threads);
  std::vector<float> in(n), partial(blocks), final_sum(final_blocks);
  for (int i = 0; i < n; ++i) in[i] = static_cast<float>(i % 3);
  gpupy::emu::launch(reduce_shared, dim3(blocks), dim3(threads), 0, in.data(), partial.data(),
                     n);  // warm-up: stacks and workers
  const auto t0 = Clock::now();
  gpupy::emu::launch(reduce_shared, dim3(blocks), dim3(threads), 0, in.data(), partial.data(), n);
  gpupy::emu::launch(reduce_shared, dim3(final_blocks), dim3(threads), 0, partial.data(),
                     final_sum.data(), blocks);
  const double s = seconds_since(t0);
  std::printf(
      "[emu perf] 1M-element shared-memory reduction (256 threads/block, %u OS threads): %.3f s\n",
      gpupy::emu::num_workers(), s);
  EXPECT_EQ(std::accumulate(final_sum.begin(), final_sum.end(), 0.0),
            std::accumulate(in.begin(), in.end(), 0.0));
}

}  // namespace
