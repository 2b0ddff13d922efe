// Launch of emulated kernels: validation, the pool of OS threads that blocks are distributed over,
// and the errors a launch reports. Host only.
#include <cxxabi.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "block.h"
#include "gpupy/error.h"
#include "pool.h"
#include "schedule.h"

namespace gpupy::emu {

struct Job {
  explicit Job(const LaunchConfig& c)
      : config(c),
        total_blocks(std::uint64_t{c.grid.x} * c.grid.y * c.grid.z),
        order(schedule(), total_blocks) {}
  LaunchConfig config;
  void (*body)(void*) = nullptr;
  void* ctx = nullptr;
  std::uint64_t total_blocks;
  LaunchOrder order;
  std::atomic<std::uint64_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string error;
};

void job_body(const Job& job, void (**body)(void*), void** ctx) {
  *body = job.body;
  *ctx = job.ctx;
}

namespace {

std::atomic<std::size_t> g_max_dynamic_shared{48 * 1024};
std::atomic<unsigned long long> g_blocks{0}, g_fiber_blocks{0};

std::string kernel_name(const LaunchConfig& c) {
  if (c.name) return c.name;
  Dl_info info{};
  if (c.kernel && dladdr(c.kernel, &info) && info.dli_sname) {
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(
        abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status), std::free);
    return status == 0 ? demangled.get() : info.dli_sname;
  }
  char buf[40];
  std::snprintf(buf, sizeof buf, "kernel at %p", c.kernel);
  return buf;
}

std::string prefix(const LaunchConfig& c) { return "[emu] kernel '" + kernel_name(c) + "'"; }

void record(Job& job, const std::string& message) {
  std::lock_guard lock(job.error_mutex);
  if (job.error.empty()) job.error = message;
  job.failed.store(true);
}

void run_blocks(Job& job) {
  Worker& w = this_worker();
  const LaunchConfig& c = job.config;
  BlockRun b{};
  b.job = &job;
  b.schedule = &job.order;
  b.threads = w.threads.data();
  b.order = w.order.data();
  b.pos = w.pos.data();
  b.n = c.block.x * c.block.y * c.block.z;
  if (!job.order.varies()) job.order.thread_order(0, b.n, b.order, b.pos);
  b.ctx.block_dim = c.block;
  b.ctx.grid_dim = c.grid;
  b.ctx.dynamic_shared = w.dynamic_shared(c.dynamic_shared_bytes);
  unsigned long long blocks = 0, fiber_blocks = 0;  // published once, not per block
  for (;;) {
    const std::uint64_t index = job.next.fetch_add(1, std::memory_order_relaxed);
    if (index >= job.total_blocks || job.failed.load(std::memory_order_relaxed)) break;
    const std::uint64_t id = job.order.block_id(index), gx = c.grid.x, gy = c.grid.y;
    b.ctx.block_idx = {unsigned(id % gx), unsigned(id / gx % gy), unsigned(id / (gx * gy))};
    b.block_id = id;
    if (job.order.varies()) job.order.thread_order(id, b.n, b.order, b.pos);
    b.rounds = b.rotation = b.live = b.barrier_waiting = b.warp_waiting = b.promoted_index = 0;
    b.promoted = b.aborting = b.failed = false;
    run_block(b);
    ++blocks;
    fiber_blocks += b.promoted;
  }
  g_blocks.fetch_add(blocks, std::memory_order_relaxed);
  g_fiber_blocks.fetch_add(fiber_blocks, std::memory_order_relaxed);
}

}  // namespace

std::string format_index(uint3 v) {
  char buf[40];  // snprintf: GCC 12 warns falsely (-Wrestrict) on chained string operator+
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", v.x, v.y, v.z);
  return buf;
}

void report_thread_error(BlockRun& b, const EmuThread& t, const std::string& what) {
  b.failed = true;
  record(*b.job, prefix(b.job->config) + " " + what + " in block " + format_index(b.ctx.block_idx) +
                     " thread " + format_index(t.ctx.thread_idx));
}

void report_block_error(BlockRun& b, const std::string& what) {
  b.failed = true;
  record(*b.job, prefix(b.job->config) + " " + what + " in block " + format_index(b.ctx.block_idx));
}

void validate_launch(const LaunchConfig& c) {
  auto fail = [&](const std::string& what) { throw ValueError(prefix(c) + ": " + what); };
  const std::string grid = format_index(c.grid), block = format_index(c.block);
  if (!c.grid.x || !c.grid.y || !c.grid.z) fail("grid " + grid + " has a zero dimension");
  if (!c.block.x || !c.block.y || !c.block.z) fail("block " + block + " has a zero dimension");
  const std::uint64_t threads = std::uint64_t{c.block.x} * c.block.y * c.block.z;
  if (threads > 1024)
    fail("block " + block + " has " + std::to_string(threads) + " threads; the limit is 1024");
  if (c.block.z > 64) fail("block " + block + ": block.z is limited to 64");
  if (c.grid.x > 0x7fffffffu) fail("grid " + grid + ": grid.x is limited to 2147483647");
  if (c.grid.y > 65535 || c.grid.z > 65535)
    fail("grid " + grid + ": grid.y and grid.z are limited to 65535");
  if (c.dynamic_shared_bytes > max_dynamic_shared_bytes()) {
    fail(std::to_string(c.dynamic_shared_bytes) +
         " bytes of dynamic shared memory exceed the limit of " +
         std::to_string(max_dynamic_shared_bytes()) +
         " (raise it with set_max_dynamic_shared_bytes)");
  }
}

void launch_erased(const LaunchConfig& config, void (*thread_body)(void*), void* ctx) {
  validate_launch(config);
  if (detail::t_thread) {
    throw Error(prefix(config) +
                ": launched from inside a kernel; the emu device has no dynamic parallelism");
  }
  Job job(config);
  job.body = thread_body;
  job.ctx = ctx;
  static std::mutex launch_mutex;  // the pool serves one launch at a time
  {
    std::lock_guard lock(launch_mutex);
    const unsigned helpers =
        static_cast<unsigned>(std::min<std::uint64_t>(job.total_blocks, num_workers()) - 1);
    if (helpers == 0) {
      run_blocks(job);
    } else {
      Pool::instance().run([&job] { run_blocks(job); }, helpers);
    }
  }
  if (job.failed.load()) throw Error(job.error);
}

void set_max_dynamic_shared_bytes(std::size_t bytes) { g_max_dynamic_shared.store(bytes); }
std::size_t max_dynamic_shared_bytes() { return g_max_dynamic_shared.load(); }

Stats stats() { return {g_blocks.load(), g_fiber_blocks.load()}; }

void reset_stats() {
  g_blocks.store(0);
  g_fiber_blocks.store(0);
}

unsigned num_workers() { return Pool::instance().size() + 1; }

const FiberStack& Worker::stack(unsigned i) {
  while (stacks.size() <= i) stacks.emplace_back(fiber_stack_bytes());
  return stacks[i];
}

unsigned char* Worker::dynamic_shared(std::size_t bytes) {
  if (bytes > shared_bytes || !shared) {
    const std::size_t size = (std::max<std::size_t>(bytes, 1024) + 255) / 256 * 256;
    shared = {static_cast<unsigned char*>(std::aligned_alloc(256, size)), std::free};
    if (!shared) throw MemoryError("[emu] cannot allocate dynamic shared memory");
    shared_bytes = size;
  }
  return shared.get();
}

Worker& this_worker() {
  thread_local Worker worker;
  return worker;
}

}  // namespace gpupy::emu
