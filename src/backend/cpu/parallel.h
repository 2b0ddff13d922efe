// A small persistent thread pool for the cpu backend's kernels. Host only.
#pragma once

#include <cstdint>
#include <functional>

namespace gpupy::cpu {

/// Number of threads kernels may use ($GPUPY_NUM_THREADS, else the hardware's count).
int num_threads();
/// parallel_for's pooled path (it also runs inline for one thread and inside a pool task).
void parallel_for_pooled(int64_t n, int64_t grain,
                         const std::function<void(int64_t, int64_t)>& body);

/// Runs body(begin, end) over [0, n) in chunks of at least `grain`, on the pool and the caller.
/// Runs inline for small n, without building a std::function (a heap block for most captures,
/// a noticeable part of a small op), and when called from inside a pool task.
template <class Body>
void parallel_for(int64_t n, int64_t grain, Body&& body) {
  if (n <= 0) return;
  if (n < 2 * grain) return body(int64_t(0), n);
  parallel_for_pooled(n, grain, body);
}

}  // namespace gpupy::cpu
