// The per-thread state an emulated kernel reads (threadIdx, blockIdx...) and the runtime calls
// behind
// __syncthreads, warp collectives and __trap. Host only; included by cuda_emu.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpupy/emu/types.h"

namespace gpupy::emu::detail {

/// What every thread of one block shares.
struct BlockContext {
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
  unsigned char* dynamic_shared;  ///< the block's dynamic shared memory (16-byte aligned)
};

/// What one emulated thread sees; the runtime points t_thread at it before resuming the thread.
struct ThreadContext {
  uint3 thread_idx;
  unsigned linear;  ///< x + y*bx + z*bx*by; the lane is linear % 32
  const BlockContext* block;
};

/// The running emulated thread of this OS thread (null outside kernels). constinit: no TLS wrapper.
extern constinit thread_local ThreadContext* t_thread;

enum class BarrierKind : int { kSync, kCount, kAnd, kOr };
/// Block barrier; returns the count/and/or of the predicates over the block's live threads.
int block_sync(BarrierKind kind, int predicate);

enum class WarpOp : int { kShfl, kShflUp, kShflDown, kShflXor, kBallot, kAny, kAll, kSync };
/// Warp collective over the lanes in mask; value holds the lane's bits (or predicate).
std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, int param, int width);
/// Lanes of the caller's warp that have not exited.
unsigned active_mask();

/// Thrown by __trap(); reported by launch as "trapped".
struct TrapSignal {};
/// Thrown by a failing assert in a kernel.
struct AssertSignal {
  const char* expr;
  const char* file;
  int line;
};
[[noreturn]] void trap();
[[noreturn]] void assert_fail(const char* expr, const char* file, int line);

inline unsigned char* dynamic_shared() { return t_thread->block->dynamic_shared; }

/// Stands for `extern __shared__ T name[]` at namespace scope, where no block exists yet at
/// initialisation: every use reads the running block's dynamic shared memory.
template <class T>
struct DynamicShared {
  operator T*() const { return reinterpret_cast<T*>(dynamic_shared()); }
  T& operator[](std::ptrdiff_t i) const { return reinterpret_cast<T*>(dynamic_shared())[i]; }
  template <class U>
  explicit operator U*() const {
    return reinterpret_cast<U*>(dynamic_shared());
  }
};

}  // namespace gpupy::emu::detail
