// What a CUDA source includes instead of cuda_runtime.h when the host compiler builds it for the
// emu device: qualifiers, built-in variables, shared memory, barriers, warp intrinsics, atomics,
// math. Host only (never seen by nvcc).
//
// Include it after the standard headers a kernel needs (it includes <cassert>, <cstdio>, <cmath>
// itself): it redefines `assert` so that a failing assert in a kernel raises instead of aborting,
// and a later #include <assert.h> would restore the aborting one.
//
// Where CUDA leaves behaviour undefined the emulator picks one answer and says so: a warp
// collective whose mask names an exited lane raises; reading a lane outside the mask returns the
// own value; threads of a block run one after another between sync points, so a thread that spins
// on a value another thread of its block writes without a barrier never ends.
#pragma once

#include <cassert>
#include <cmath>
#include <cstdio>

#include "gpupy/emu/atomics.h"
#include "gpupy/emu/math.h"
#include "gpupy/emu/runtime.h"
#include "gpupy/emu/thread_context.h"
#include "gpupy/emu/types.h"
#include "gpupy/emu/warp.h"

#define GPUPY_EMU 1

using gpupy::emu::dim3;
using gpupy::emu::double2;
using gpupy::emu::float2;
using gpupy::emu::float4;
using gpupy::emu::int2;
using gpupy::emu::int4;
using gpupy::emu::make_double2;
using gpupy::emu::make_float2;
using gpupy::emu::make_float4;
using gpupy::emu::make_int2;
using gpupy::emu::make_int4;
using gpupy::emu::make_uint3;
using gpupy::emu::uint3;

// ---- qualifiers (no-ops on the host) ---------------------------------------------------------
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
// Empty rather than __attribute__((noinline)): standard headers spell
// __attribute__((__noinline__)).
#define __noinline__
#define __launch_bounds__(...)
#define __align__(n) alignas(n)
// __restrict__ is a g++ keyword already.

// One OS thread runs one block at a time and the block's threads are fibers of that OS thread, so a
// thread_local static is exactly one copy per resident block.
#define __shared__ static thread_local

/// `extern __shared__ T name[];` inside a function: the launch's dynamic shared memory.
#define GPUPY_DYNAMIC_SHARED(T, name) \
  T* const name = reinterpret_cast<T*>(::gpupy::emu::detail::dynamic_shared())
/// The same at namespace scope (resolved on every use).
#define GPUPY_DYNAMIC_SHARED_GLOBAL(T, name) \
  [[maybe_unused]] static constexpr ::gpupy::emu::detail::DynamicShared<T> name {}

// ---- built-in variables (per emulated thread) --------------------------------------------------
#define threadIdx (::gpupy::emu::detail::t_thread->thread_idx)
#define blockIdx (::gpupy::emu::detail::t_thread->block->block_idx)
#define blockDim (::gpupy::emu::detail::t_thread->block->block_dim)
#define gridDim (::gpupy::emu::detail::t_thread->block->grid_dim)
constexpr int warpSize = 32;

// ---- barriers -----------------------------------------------------------------------------------
inline void __syncthreads() {
  gpupy::emu::detail::block_sync(gpupy::emu::detail::BarrierKind::kSync, 0);
}
inline int __syncthreads_count(int p) {
  return gpupy::emu::detail::block_sync(gpupy::emu::detail::BarrierKind::kCount, p);
}
inline int __syncthreads_and(int p) {
  return gpupy::emu::detail::block_sync(gpupy::emu::detail::BarrierKind::kAnd, p);
}
inline int __syncthreads_or(int p) {
  return gpupy::emu::detail::block_sync(gpupy::emu::detail::BarrierKind::kOr, p);
}

// ---- errors
// ----------------------------------------------------------------------------------------
/// Raises "[emu] kernel 'k' trapped in block (..) thread (..)" from the launch.
[[noreturn]] inline void __trap() { gpupy::emu::detail::trap(); }

#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : ::gpupy::emu::detail::assert_fail(#e, __FILE__, __LINE__))
#endif
