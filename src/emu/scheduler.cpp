// Runs the threads of one emulated block: plain calls while no thread blocks, fibers resumed in
// rounds once one does. Host only.
//
// Threads run in the order b.order gives (thread order unless $GPUPY_EMU_SCHEDULE says else);
// below, "thread i" is the thread at position i of that order.
//
// Why the plain-call start is always correct: threads 0..i-1 ran to completion without reaching a
// barrier or warp collective, so they never interacted with the others through a sync point, and
// running them first is one of the schedules a GPU may pick. When thread i blocks, it is suspended
// where it stands: the worker's own stack simply becomes thread i's fiber, and a scheduler fiber
// takes over threads i+1.. (as fresh fibers) and resumes everyone in rounds. Nothing ever needs to
// be restarted, and kernels without barriers or collectives never switch stacks at all.
#include <exception>
#include <string>

#include "block.h"
#include "gpupy/emu/thread_context.h"
#include "gpupy/error.h"
#include "schedule.h"

namespace gpupy::emu {

namespace detail {
constinit thread_local ThreadContext* t_thread = nullptr;
}  // namespace detail

namespace {

// Unwinds the promoted thread back to the worker when the scheduler gives up on the block.
struct AbortSignal {};

void init_thread(BlockRun& b, EmuThread& t, unsigned i) {
  const dim3& d = b.ctx.block_dim;
  t.ctx.thread_idx = {i % d.x, (i / d.x) % d.y, i / (d.x * d.y)};
  t.ctx.linear = i;
  t.ctx.block = &b.ctx;
  t.run = &b;
}

void run_guarded(BlockRun& b, EmuThread& t, void (*body)(void*), void* ctx) {
  try {
    body(ctx);
  } catch (const AbortSignal&) {
    // the error that caused the abort is already recorded
  } catch (const detail::TrapSignal&) {
    report_thread_error(b, t, "trapped");
  } catch (const detail::AssertSignal& a) {
    report_thread_error(b, t,
                        std::string("failed assertion '") + a.expr + "' (" + a.file + ":" +
                            std::to_string(a.line) + ")");
  } catch (const std::exception& e) {
    report_thread_error(b, t, std::string("threw \"") + e.what() + "\"");
  } catch (...) {
    report_thread_error(b, t, "threw an unknown exception");
  }
}

}  // namespace

// Defined in launch.cpp; the body and context of the running launch.
void job_body(const Job& job, void (**body)(void*), void** ctx);

namespace {

void fiber_main(void* arg);

// The next thread of the current round at or after position from (starting it if need be); null
// when the round is over or the block failed.
EmuThread* next_runnable(BlockRun& b, unsigned from) {
  if (b.failed) return nullptr;
  for (unsigned p = from; p < b.n; ++p) {
    const unsigned i = thread_at(b, p);
    EmuThread& t = b.threads[i];
    if (t.state == ThreadState::kNotStarted) {
      fiber_make(t.fiber, this_worker().stack(i), &fiber_main, &t);
      t.state = ThreadState::kRunnable;
    }
    if (t.state == ThreadState::kRunnable) return &t;
  }
  return nullptr;
}

// Hands the OS thread to the next thread of the round directly (one switch per suspension instead
// of two through the scheduler), or to the scheduler when the round is over.
void switch_onward(BlockRun& b, FiberContext& from, unsigned after) {
  if (EmuThread* next = next_runnable(b, after)) {
    detail::t_thread = &next->ctx;
    fiber_switch(from, next->fiber);
  } else {
    fiber_switch(from, b.scheduler);
  }
}

void fiber_main(void* arg) {
  auto& t = *static_cast<EmuThread*>(arg);
  BlockRun& b = *t.run;
  void (*body)(void*);
  void* ctx;
  job_body(*b.job, &body, &ctx);
  run_guarded(b, t, body, ctx);
  t.state = ThreadState::kDone;
  --b.live;
  switch_onward(b, t.fiber, position_of(b, t.ctx.linear) + 1);
  __builtin_unreachable();  // a finished fiber is never resumed
}

bool resolve_barrier(BlockRun& b) {
  if (b.barrier_waiting == 0 || b.barrier_waiting != b.live) return false;
  int count = 0;
  for (unsigned i = 0; i < b.n; ++i) {
    if (b.threads[i].state == ThreadState::kBarrier) count += b.threads[i].predicate;
  }
  const int waiting = static_cast<int>(b.barrier_waiting);
  for (unsigned i = 0; i < b.n; ++i) {
    EmuThread& t = b.threads[i];
    if (t.state != ThreadState::kBarrier) continue;
    switch (t.barrier_kind) {
      case detail::BarrierKind::kCount:
        t.result = static_cast<unsigned>(count);
        break;
      case detail::BarrierKind::kAnd:
        t.result = count == waiting;
        break;
      case detail::BarrierKind::kOr:
        t.result = count > 0;
        break;
      default:
        t.result = 0;
    }
    t.state = ThreadState::kRunnable;
  }
  b.barrier_waiting = 0;
  return true;
}

// Resumes every thread that can run, once, in the block's order: each hands over to the next one,
// and the last one of the round comes back here. A shuffled schedule starts each round after the
// first at another thread.
void run_round(BlockRun& b) {
  if (b.rounds++ > 0 && b.schedule->varies()) {
    b.rotation = b.schedule->rotation(b.block_id, b.rounds, b.n);
  }
  if (EmuThread* first = next_runnable(b, 0)) {
    detail::t_thread = &first->ctx;
    fiber_switch(b.scheduler, first->fiber);
  }
}

void scheduler_main(void* arg) {
  BlockRun& b = *static_cast<BlockRun*>(arg);
  while (!b.failed) {
    run_round(b);
    if (b.failed || b.live == 0) break;
    bool released = resolve_barrier(b);
    released = resolve_warps(b) || released;
    if (!released && !b.failed) {
      report_block_error(b, "deadlocked: " + std::to_string(b.barrier_waiting) +
                                " threads wait at __syncthreads and " +
                                std::to_string(b.warp_waiting) + " at warp collectives");
    }
  }
  EmuThread& owner = b.threads[b.promoted_index];
  if (owner.state == ThreadState::kDone) fiber_switch(b.scheduler, b.main);
  b.aborting = true;
  detail::t_thread = &owner.ctx;
  fiber_switch(b.scheduler, owner.fiber);
  __builtin_unreachable();
}

void promote(BlockRun& b, EmuThread& t) {
  const unsigned p = position_of(b, t.ctx.linear);
  b.promoted = true;
  b.promoted_index = t.ctx.linear;
  for (unsigned q = p + 1; q < b.n; ++q) {
    const unsigned j = thread_at(b, q);
    init_thread(b, b.threads[j], j);
    b.threads[j].state = ThreadState::kNotStarted;
  }
  b.live = b.n - p;
  // Map every stack now, while a failure can still unwind through the kernel to run_guarded;
  // nothing may throw on the scheduler's side of a fiber switch.
  Worker& w = this_worker();
  if (b.n > 0) w.stack(b.n - 1);
  if (!w.scheduler_stack) w.scheduler_stack = std::make_unique<FiberStack>(fiber_stack_bytes());
  fiber_make(b.scheduler, *w.scheduler_stack, &scheduler_main, &b);
  fiber_switch(t.fiber, b.scheduler);
}

}  // namespace

EmuThread& current_thread(const char* intrinsic) {
  if (!detail::t_thread) {
    throw Error(std::string("[emu] ") + intrinsic + " called outside an emulated kernel");
  }
  return *reinterpret_cast<EmuThread*>(detail::t_thread);
}

void wait_for_release(BlockRun& b, EmuThread& t) {
  if (!b.promoted) {
    promote(b, t);
  } else {
    switch_onward(b, t.fiber, position_of(b, t.ctx.linear) + 1);
  }
  detail::t_thread = &t.ctx;
  if (b.aborting) throw AbortSignal{};
}

void run_block(BlockRun& b) {
  void (*body)(void*);
  void* ctx;
  job_body(*b.job, &body, &ctx);
  for (unsigned p = 0; p < b.n && !b.failed; ++p) {
    const unsigned i = thread_at(b, p);
    EmuThread& t = b.threads[i];
    init_thread(b, t, i);
    t.state = ThreadState::kRunnable;
    detail::t_thread = &t.ctx;
    run_guarded(b, t, body, ctx);
    if (b.promoted) {
      // Back on the worker's stack as the promoted thread: let the scheduler finish the block.
      if (!b.aborting) {
        t.state = ThreadState::kDone;
        --b.live;
        switch_onward(b, b.main, position_of(b, i) + 1);  // in the round now running
      }
      break;
    }
    t.state = ThreadState::kDone;
  }
  detail::t_thread = nullptr;
}

namespace detail {

int block_sync(BarrierKind kind, int predicate) {
  EmuThread& t = current_thread("__syncthreads");
  BlockRun& b = *t.run;
  t.state = ThreadState::kBarrier;
  t.barrier_kind = kind;
  t.predicate = predicate != 0;
  ++b.barrier_waiting;
  wait_for_release(b, t);
  return static_cast<int>(t.result);
}

[[noreturn]] void trap() { throw TrapSignal{}; }

[[noreturn]] void assert_fail(const char* expr, const char* file, int line) {
  throw AssertSignal{expr, file, line};
}

}  // namespace detail

}  // namespace gpupy::emu
