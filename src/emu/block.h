// Internal state of one emulated block and of the OS thread (worker) that runs it. Host only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fiber.h"
#include "gpupy/emu/runtime.h"
#include "gpupy/emu/thread_context.h"

namespace gpupy::emu {

struct Job;  // one launch (launch.cpp)
struct BlockRun;
class LaunchOrder;  // schedule.h

enum class ThreadState : std::uint8_t { kNotStarted, kRunnable, kBarrier, kWarp, kDone };

/// One emulated thread; t_thread points at ctx, its first member.
struct EmuThread {
  detail::ThreadContext ctx;
  BlockRun* run;
  FiberContext fiber;
  ThreadState state;
  detail::BarrierKind barrier_kind;
  detail::WarpOp op;
  int predicate;
  unsigned mask;
  int param;
  int width;
  std::uint64_t value;
  std::uint64_t result;
};

/// One block being run. Threads start as plain calls on the worker's own stack; the first thread
/// that blocks "promotes" the block: the worker's stack becomes that thread's fiber and a scheduler
/// fiber runs the rest (scheduler.cpp explains why this is always correct). Threads are indexed by
/// linear id and run in the order of `order` (the identity unless $GPUPY_EMU_SCHEDULE says else).
struct BlockRun {
  detail::BlockContext ctx;
  Job* job;
  const LaunchOrder* schedule;
  EmuThread* threads;
  unsigned* order;  // position -> linear id, the order of the plain calls and of each round
  unsigned* pos;    // linear id -> position
  std::uint64_t block_id;
  unsigned n;
  unsigned rounds;           // rounds the scheduler ran
  unsigned rotation;         // this round runs order[rotation..n) then order[0..rotation)
  unsigned live;             // threads not done (valid once promoted)
  unsigned barrier_waiting;  // threads at a barrier
  unsigned warp_waiting;     // threads at a warp collective
  unsigned promoted_index;   // the thread (linear id) that owns the worker's stack after promotion
  bool promoted;
  bool aborting;  // the scheduler gave up: the promoted thread unwinds back to the worker
  bool failed;
  FiberContext main;       // the worker's stack once the promoted thread has finished
  FiberContext scheduler;  // the scheduler fiber
};

/// The linear id of the thread at position p of the current round.
inline unsigned thread_at(const BlockRun& b, unsigned p) {
  const unsigned i = p + b.rotation;
  return b.order[i >= b.n ? i - b.n : i];
}
/// The position of thread `linear` in the current round.
inline unsigned position_of(const BlockRun& b, unsigned linear) {
  const unsigned q = b.pos[linear];
  return q >= b.rotation ? q - b.rotation : q + b.n - b.rotation;
}

/// Fiber stacks and buffers of one OS thread, reused by every block it runs.
struct Worker {
  std::vector<EmuThread> threads = std::vector<EmuThread>(1024);
  std::vector<unsigned> order = std::vector<unsigned>(1024), pos = std::vector<unsigned>(1024);
  std::vector<FiberStack> stacks;  // stacks[i] belongs to thread i; grown on demand
  std::unique_ptr<FiberStack> scheduler_stack;
  std::unique_ptr<unsigned char[], void (*)(void*)> shared{nullptr, nullptr};
  std::size_t shared_bytes = 0;

  const FiberStack& stack(unsigned i);
  unsigned char* dynamic_shared(std::size_t bytes);
};
Worker& this_worker();

/// Runs every thread of the block (scheduler.cpp).
void run_block(BlockRun& b);
/// Suspends the current thread until the scheduler releases it (scheduler.cpp).
void wait_for_release(BlockRun& b, EmuThread& t);
/// Releases every warp collective whose lanes have all arrived; false when none could (warp.cpp).
bool resolve_warps(BlockRun& b);

/// Records the first error of the launch: "[emu] kernel 'k' <what> in block (..) thread (..)".
void report_thread_error(BlockRun& b, const EmuThread& t, const std::string& what);
/// Records a block-level error: "[emu] kernel 'k' <what> in block (..)".
void report_block_error(BlockRun& b, const std::string& what);
std::string format_index(uint3 v);

/// The running emulated thread; throws when a device intrinsic is called outside a kernel.
EmuThread& current_thread(const char* intrinsic);

}  // namespace gpupy::emu
