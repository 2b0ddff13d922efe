// Host API of the CUDA emulation runtime: launch configuration, launch, limits, source rewriting.
// Host only. Kernels themselves include cuda_emu.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "gpupy/emu/types.h"

namespace gpupy::emu {

/// Geometry and identity of one emulated launch.
struct LaunchConfig {
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
  const char* name = nullptr;    ///< kernel name for messages; when null, looked up from `kernel`
  const void* kernel = nullptr;  ///< only used to name the kernel in messages
};

/// Throws ValueError ("[emu] kernel 'k': ...") when config cannot be launched.
void validate_launch(const LaunchConfig& config);

/// Runs thread_body(ctx) once per emulated thread of the grid and returns when every block
/// finished. Throws ValueError for an invalid configuration and gpupy::Error for a failing kernel
/// (trap, assert, exception, deadlock), naming the kernel, the block and the thread.
void launch_erased(const LaunchConfig& config, void (*thread_body)(void*), void* ctx);

/// Limit on dynamic shared memory per block (default 48 KiB, as CUDA without opt-in).
void set_max_dynamic_shared_bytes(std::size_t bytes);
std::size_t max_dynamic_shared_bytes();

/// OS threads a large grid runs on (the caller plus the pool; $GPUPY_EMU_THREADS overrides).
/// The order blocks and threads run in is $GPUPY_EMU_SCHEDULE's (schedule() below).
unsigned num_workers();

/// The order in which blocks, and the threads of a block between sync points, make independent
/// progress. A GPU promises none; kReverse and kShuffle expose code that relies on emu's default.
enum class ScheduleOrder { kInOrder, kReverse, kShuffle };
struct Schedule {
  ScheduleOrder order = ScheduleOrder::kInOrder;
  std::uint64_t seed = 0;  ///< kShuffle only: the same seed replays the same launches identically
};
/// Parses "inorder", "reverse", "shuffle" (a seed drawn at random) or "shuffle:<seed>"; throws
/// ValueError naming $GPUPY_EMU_SCHEDULE otherwise.
Schedule parse_schedule(const std::string& text);
/// The schedule of later launches: $GPUPY_EMU_SCHEDULE, read at the first launch (inorder when
/// unset; a drawn shuffle seed is written once to stderr), until set_schedule changes it.
Schedule schedule();
/// Sets the schedule of later launches and numbers them afresh: the same seed set again replays
/// the same block ids and thread orders.
void set_schedule(Schedule s);
/// "inorder", "reverse" or "shuffle:<seed>": the value of $GPUPY_EMU_SCHEDULE that replays s.
std::string to_string(Schedule s);

/// Counters since the last reset_stats(): blocks run, and blocks that needed fibers (a thread
/// reached a barrier or warp collective); the rest ran as plain calls.
struct Stats {
  unsigned long long blocks = 0;
  unsigned long long fiber_blocks = 0;
};
Stats stats();
void reset_stats();

/// Rewrites every `extern __shared__ [__align__(n)] T name[];` so CUDA sources compile with the
/// host compiler: inside a function it becomes `GPUPY_DYNAMIC_SHARED(T, name);` (a `T* const`);
/// at namespace scope `GPUPY_DYNAMIC_SHARED_GLOBAL(T, name);` (an object converting to T* on every
/// use). A type with a comma is first named by `using gpupy_emu_shared_t_<name> = T;`. Comments,
/// strings and every other declaration are left as they are.
std::string rewrite_dynamic_shared(std::string source);

namespace detail {
template <class Kernel, class Params>
struct LaunchClosure {
  Kernel kernel;
  Params params;
  // Each thread gets its own copy of the parameters, as on a GPU.
  static void run(void* self) {
    auto* c = static_cast<LaunchClosure*>(self);
    std::apply(c->kernel, c->params);
  }
};
}  // namespace detail

/// Launches kernel(args...) on grid x block threads; name is used in error messages.
template <class... P, class... A>
void launch_named(const char* name, void (*kernel)(P...), dim3 grid, dim3 block,
                  std::size_t dynamic_shared_bytes, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "[emu] wrong number of kernel arguments");
  using Params = std::tuple<std::decay_t<P>...>;
  detail::LaunchClosure<void (*)(P...), Params> closure{kernel, Params(std::forward<A>(args)...)};
  LaunchConfig config{grid, block, dynamic_shared_bytes, name,
                      reinterpret_cast<const void*>(kernel)};
  launch_erased(config, &decltype(closure)::run, &closure);
}

/// Launches kernel(args...); the kernel is named from its symbol when it can be found.
template <class... P, class... A>
void launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t dynamic_shared_bytes,
            A&&... args) {
  launch_named(nullptr, kernel, grid, block, dynamic_shared_bytes, std::forward<A>(args)...);
}

}  // namespace gpupy::emu

/// kernel<<<grid, block, shmem>>>(args...) for emulated kernels, with the kernel's name in errors.
#define GPUPY_EMU_LAUNCH(kernel, grid, block, shmem, ...) \
  ::gpupy::emu::launch_named(#kernel, kernel, grid, block, shmem, ##__VA_ARGS__)
