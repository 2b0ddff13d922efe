// Fibers for the emulation runtime: a hand-written x86-64 context switch (ucontext elsewhere) and
// guarded, reusable stacks. Host only.
#pragma once

#include <cstddef>

// GPUPY_EMU_UCONTEXT forces the portable ucontext path (to test it on x86-64).
#if !defined(__x86_64__) || defined(GPUPY_EMU_UCONTEXT)
#include <ucontext.h>
#endif

namespace gpupy::emu {

/// A suspended execution context.
struct FiberContext {
#if defined(__x86_64__) && !defined(GPUPY_EMU_UCONTEXT)
  void* sp = nullptr;  // callee-saved registers and MXCSR/x87 control word live on the stack
#else
  ucontext_t uc;
#endif
};

/// An mmap'd stack with a PROT_NONE guard page below it, so an overflow faults instead of
/// silently corrupting a neighbour.
class FiberStack {
 public:
  explicit FiberStack(std::size_t bytes);
  ~FiberStack();
  FiberStack(FiberStack&& other) noexcept;
  FiberStack(const FiberStack&) = delete;
  FiberStack& operator=(const FiberStack&) = delete;
  FiberStack& operator=(FiberStack&&) = delete;
  void* base() const { return base_; }
  std::size_t usable() const { return usable_; }
  char* top() const { return static_cast<char*>(base_) + guard_ + usable_; }

 private:
  void* base_ = nullptr;
  std::size_t guard_ = 0;
  std::size_t usable_ = 0;
};

/// Stack size of every fiber: $GPUPY_EMU_STACK_KB KiB (default 64).
std::size_t fiber_stack_bytes();

/// Prepares ctx so that switching to it runs fn(arg) on stack; fn must never return.
void fiber_make(FiberContext& ctx, const FiberStack& stack, void (*fn)(void*), void* arg);

/// Saves the running context into from and resumes to.
void fiber_switch(FiberContext& from, FiberContext& to);

}  // namespace gpupy::emu
