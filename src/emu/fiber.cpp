// Fiber context switch and stacks of the emulation runtime. Host only.
// ucontext's swapcontext makes a sigprocmask syscall per switch; the x86-64 path below saves only
// what the SysV ABI says a callee must preserve, so a switch costs a few nanoseconds.
#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <new>

#include "gpupy/error.h"

#if defined(__x86_64__) && !defined(GPUPY_EMU_UCONTEXT)
extern "C" void gpupy_emu_fiber_switch(void** save_sp, void* new_sp);
extern "C" void gpupy_emu_fiber_entry();

// Frame (low to high): MXCSR + x87 control word, r15, r14, r13, r12, rbx, rbp, return address.
asm(R"(
  .text
  .globl gpupy_emu_fiber_switch
  .hidden gpupy_emu_fiber_switch
  .type gpupy_emu_fiber_switch, @function
gpupy_emu_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $8, %rsp
  stmxcsr (%rsp)
  fnstcw 4(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr (%rsp)
  fldcw 4(%rsp)
  addq $8, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size gpupy_emu_fiber_switch, .-gpupy_emu_fiber_switch

  .globl gpupy_emu_fiber_entry
  .hidden gpupy_emu_fiber_entry
  .type gpupy_emu_fiber_entry, @function
gpupy_emu_fiber_entry:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size gpupy_emu_fiber_entry, .-gpupy_emu_fiber_entry
)");
#endif

namespace gpupy::emu {

std::size_t fiber_stack_bytes() {
  static const std::size_t bytes = [] {
    std::size_t kb = 64;
    if (const char* env = std::getenv("GPUPY_EMU_STACK_KB")) {
      long v = std::atol(env);
      if (v >= 16) kb = static_cast<std::size_t>(v);
    }
    return kb * 1024;
  }();
  return bytes;
}

FiberStack::FiberStack(std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  guard_ = page;
  usable_ = (bytes + page - 1) / page * page;
  base_ =
      mmap(nullptr, guard_ + usable_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base_ == MAP_FAILED) {
    base_ = nullptr;
    throw MemoryError("[emu] cannot map a fiber stack");
  }
  mprotect(base_, guard_, PROT_NONE);
}

FiberStack::~FiberStack() {
  if (base_) munmap(base_, guard_ + usable_);
}

FiberStack::FiberStack(FiberStack&& other) noexcept
    : base_(other.base_), guard_(other.guard_), usable_(other.usable_) {
  other.base_ = nullptr;
}

#if defined(__x86_64__) && !defined(GPUPY_EMU_UCONTEXT)

void fiber_make(FiberContext& ctx, const FiberStack& stack, void (*fn)(void*), void* arg) {
  auto top = reinterpret_cast<std::uintptr_t>(stack.top()) & ~std::uintptr_t{15};
  auto* frame = reinterpret_cast<std::uint64_t*>(top) - 8;  // after `ret`, rsp == top (aligned)
  std::uint32_t mxcsr;
  std::uint16_t fpucw;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpucw));
  frame[0] = mxcsr | (std::uint64_t{fpucw} << 32);
  frame[1] = 0;                                     // r15
  frame[2] = 0;                                     // r14
  frame[3] = reinterpret_cast<std::uint64_t>(fn);   // r13
  frame[4] = reinterpret_cast<std::uint64_t>(arg);  // r12
  frame[5] = 0;                                     // rbx
  frame[6] = 0;                                     // rbp
  frame[7] = reinterpret_cast<std::uint64_t>(&gpupy_emu_fiber_entry);
  ctx.sp = frame;
}

void fiber_switch(FiberContext& from, FiberContext& to) { gpupy_emu_fiber_switch(&from.sp, to.sp); }

#else  // portable fallback

namespace {
// makecontext passes int arguments only; the entry picks fn/arg up from here before anything else
// runs.
thread_local void (*t_entry_fn)(void*);
thread_local void* t_entry_arg;
void ucontext_entry() { t_entry_fn(t_entry_arg); }
}  // namespace

void fiber_make(FiberContext& ctx, const FiberStack& stack, void (*fn)(void*), void* arg) {
  getcontext(&ctx.uc);
  ctx.uc.uc_stack.ss_sp = stack.top() - stack.usable();
  ctx.uc.uc_stack.ss_size = stack.usable();
  ctx.uc.uc_link = nullptr;
  makecontext(&ctx.uc, reinterpret_cast<void (*)()>(&ucontext_entry), 0);
  // Fibers are made right before their first switch, on the same OS thread.
  t_entry_fn = fn;
  t_entry_arg = arg;
}

void fiber_switch(FiberContext& from, FiberContext& to) { swapcontext(&from.uc, &to.uc); }

#endif

}  // namespace gpupy::emu
