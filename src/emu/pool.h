// The OS threads that emulated blocks are distributed over. Host only.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace gpupy::emu {

/// A fixed pool of helper threads; the launching thread works alongside them.
class Pool {
 public:
  /// The process-wide pool: hardware threads - 1 helpers ($GPUPY_EMU_THREADS - 1 when set).
  static Pool& instance();
  unsigned size() const { return static_cast<unsigned>(threads_.size()); }
  /// Runs work on the caller and on up to helpers pool threads; returns when all are done.
  void run(const std::function<void()>& work, unsigned helpers);

 private:
  explicit Pool(unsigned helpers);
  void loop();

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void()>* work_ = nullptr;
  unsigned wanted_ = 0;  // helpers still to join the current run
  unsigned busy_ = 0;    // helpers inside the current run
  std::vector<std::thread> threads_;
};

}  // namespace gpupy::emu
