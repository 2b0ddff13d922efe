// The order of one launch's blocks and threads under $GPUPY_EMU_SCHEDULE (runtime.h). Host only.
#pragma once

#include <cstdint>

#include "gpupy/emu/runtime.h"

namespace gpupy::emu {

/// The block-id bijection and the thread orders of one launch.
class LaunchOrder {
 public:
  /// Draws the launch's key from the schedule's seed and a per-process launch counter.
  LaunchOrder(Schedule s, std::uint64_t total_blocks);
  /// The id given to the block taken index-th from the launch's queue.
  std::uint64_t block_id(std::uint64_t index) const {
    if (order_ == ScheduleOrder::kInOrder) return index;
    if (order_ == ScheduleOrder::kReverse) return total_ - 1 - index;
    return shuffled_block(index);
  }
  /// Whether the thread order differs from block to block and from round to round.
  bool varies() const { return order_ == ScheduleOrder::kShuffle; }
  /// Fills order (position -> linear thread id) and pos (its inverse) for n threads of block id.
  void thread_order(std::uint64_t block, unsigned n, unsigned* order, unsigned* pos) const;
  /// Shuffle: the rotation in [1, n) of the block's order for scheduler round `round` (>= 1), so
  /// that every release starts the round at another thread (a full reshuffle per round cost 25%).
  unsigned rotation(std::uint64_t block, unsigned round, unsigned n) const;

 private:
  std::uint64_t shuffled_block(std::uint64_t index) const;
  std::uint64_t mix(std::uint64_t x) const;

  ScheduleOrder order_;
  std::uint64_t total_;
  std::uint64_t key_ = 0;
  std::uint64_t mask_ = 0;  // 2^k - 1 for the smallest power of two 2^k >= total_
  unsigned shift_ = 1;
  std::uint64_t mul_[2] = {1, 1}, add_[2] = {0, 0};
};

}  // namespace gpupy::emu
