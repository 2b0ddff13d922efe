// Thread pool behind cpu::parallel_for. Host only.
#include "parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpupy::cpu {
namespace {

thread_local bool t_in_pool_task = false;

class Pool {
 public:
  explicit Pool(int workers) {
    for (int i = 0; i < workers; ++i) threads_.emplace_back([this] { worker_loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
  }

  int size() const { return static_cast<int>(threads_.size()) + 1; }

  // Runs task(i) for i in [0, count) on all threads; returns when every index is done.
  void run(int64_t count, const std::function<void(int64_t)>& task) {
    std::lock_guard<std::mutex> one_job(job_mutex_);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = &task;
      count_ = count;
      next_ = 0;
      done_ = 0;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    work();
    std::unique_lock<std::mutex> lock(mutex_);
    finished_.wait(lock, [&] { return done_ == count_; });
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    t_in_pool_task = true;
    for (;;) {
      int64_t i = next_.fetch_add(1);
      if (i >= count_) break;
      try {
        (*task_)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      if (done_.fetch_add(1) + 1 == count_) {
        std::lock_guard<std::mutex> lock(mutex_);
        finished_.notify_all();
      }
    }
    t_in_pool_task = false;
  }

  void worker_loop() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || (generation_ != seen && task_ != nullptr); });
        if (stop_) return;
        seen = generation_;
      }
      work();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex mutex_, job_mutex_;
  std::condition_variable wake_, finished_;
  const std::function<void(int64_t)>* task_ = nullptr;
  std::atomic<int64_t> next_{0}, done_{0};
  int64_t count_ = 0;
  uint64_t generation_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
};

Pool& pool() {
  static Pool p(num_threads() - 1);
  return p;
}

}  // namespace

int num_threads() {
  static int n = [] {
    if (const char* env = std::getenv("GPUPY_NUM_THREADS"); env && std::atoi(env) > 0)
      return std::atoi(env);
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }();
  return n;
}

void parallel_for_pooled(int64_t n, int64_t grain,
                         const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  int threads = num_threads();
  if (threads <= 1 || n < 2 * grain || t_in_pool_task) {
    body(0, n);
    return;
  }
  // A few chunks per thread balances uneven cores without much scheduling cost.
  int64_t chunks = std::min<int64_t>(n / grain, int64_t(threads) * 4);
  int64_t step = (n + chunks - 1) / chunks;
  pool().run(chunks, [&](int64_t c) {
    int64_t begin = c * step, end = std::min(n, begin + step);
    if (begin < end) body(begin, end);
  });
}

}  // namespace gpupy::cpu
