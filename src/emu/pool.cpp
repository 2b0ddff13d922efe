// The pool of OS threads that runs emulated blocks. Host only.
#include "pool.h"

#include <cstdlib>

namespace gpupy::emu {

Pool& Pool::instance() {
  // Never destroyed: helpers sleep on a condition variable until the process exits.
  static Pool* pool = [] {
    long n = static_cast<long>(std::thread::hardware_concurrency());
    if (const char* env = std::getenv("GPUPY_EMU_THREADS")) n = std::atol(env);
    return new Pool(static_cast<unsigned>(n > 1 ? n - 1 : 0));
  }();
  return *pool;
}

Pool::Pool(unsigned helpers) {
  for (unsigned i = 0; i < helpers; ++i) threads_.emplace_back([this] { loop(); });
  for (auto& t : threads_) t.detach();
}

void Pool::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return wanted_ > 0; });
    --wanted_;
    ++busy_;
    const std::function<void()>* work = work_;
    lock.unlock();
    (*work)();
    lock.lock();
    if (--busy_ == 0) done_.notify_all();
  }
}

void Pool::run(const std::function<void()>& work, unsigned helpers) {
  {
    std::lock_guard lock(mutex_);
    work_ = &work;
    wanted_ = helpers;
  }
  wake_.notify_all();
  work();
  std::unique_lock lock(mutex_);
  wanted_ = 0;  // the caller found no work left, so helpers that have not woken need not join
  done_.wait(lock, [this] { return busy_ == 0; });
  work_ = nullptr;
}

}  // namespace gpupy::emu
