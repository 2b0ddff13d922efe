// The $GPUPY_EMU_SCHEDULE modes the emu tests run under, and a guard that restores the schedule
// a test changed. Host only.
#pragma once

#include <vector>

#include "gpupy/emu/runtime.h"

namespace gpupy_test {

/// In order, reversed, and two shuffle seeds.
inline std::vector<gpupy::emu::Schedule> every_schedule() {
  using gpupy::emu::ScheduleOrder;
  return {{ScheduleOrder::kInOrder, 0},
          {ScheduleOrder::kReverse, 0},
          {ScheduleOrder::kShuffle, 1},
          {ScheduleOrder::kShuffle, 20261130}};
}

/// Restores the schedule in force when it was made.
struct ScheduleGuard {
  gpupy::emu::Schedule saved = gpupy::emu::schedule();
  ~ScheduleGuard() { gpupy::emu::set_schedule(saved); }
};

}  // namespace gpupy_test
