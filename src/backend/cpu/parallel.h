// A small persistent thread pool for the cpu backend's kernels. Host only.
#pragma once

#include <cstdint>
#include <functional>

namespace gpupy::cpu {

/// Number of threads kernels may use ($GPUPY_NUM_THREADS, else the hardware's count).
int num_threads();
/// Runs body(begin, end) over [0, n) in chunks of at least `grain`, on the pool and the caller.
/// Runs inline for small n and when called from inside a pool task.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

}  // namespace gpupy::cpu
