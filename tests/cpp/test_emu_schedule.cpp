// Tests of $GPUPY_EMU_SCHEDULE: the order in which emulated blocks get their ids and threads make
// progress (in order, reversed, shuffled and replayable). Host only.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include "emu/schedule.h"
#include "emu_schedules.h"
#include "gpupy/error.h"
#include "kernels/emu_schedule_kernels.cuh"

namespace {

using gpupy::emu::launch;
using gpupy::emu::LaunchOrder;
using gpupy::emu::Schedule;
using gpupy::emu::ScheduleOrder;

const dim3 kGrid(8, 3, 2), kBlock(8, 4, 2);  // 48 blocks of 64 threads
const unsigned kBlocks = 48, kThreads = 64;

struct Recorded {
  std::map<std::size_t, std::vector<unsigned>> blocks_by_worker;  // in the order each ran them
  std::vector<std::vector<unsigned>> threads[2];                  // [phase][block]: thread order
};

Recorded run_log(bool barrier) {
  std::vector<OrderLogEntry> log(kBlocks * kThreads * (barrier ? 2 : 1));
  unsigned count = 0;
  launch(append_ids, kGrid, kBlock, 0, &count, log.data(), barrier ? 1 : 0);
  EXPECT_EQ(count, log.size());
  Recorded r;
  for (auto& phase : r.threads) phase.resize(kBlocks);
  for (const OrderLogEntry& e : log) {
    if (e.phase == 0 && r.threads[0][e.block].empty()) {
      r.blocks_by_worker[e.worker].push_back(e.block);
    }
    r.threads[e.phase][e.block].push_back(e.thread);
  }
  // Every block ran once, and every thread of it once per phase.
  std::vector<unsigned> all;
  for (const auto& [worker, blocks] : r.blocks_by_worker) {
    all.insert(all.end(), blocks.begin(), blocks.end());
  }
  std::sort(all.begin(), all.end());
  std::vector<unsigned> want(kBlocks);
  std::iota(want.begin(), want.end(), 0u);
  EXPECT_EQ(all, want);
  for (int phase = 0; phase < (barrier ? 2 : 1); ++phase) {
    for (const auto& threads : r.threads[phase]) {
      std::vector<unsigned> sorted = threads;
      std::sort(sorted.begin(), sorted.end());
      EXPECT_EQ(sorted.size(), kThreads);
      EXPECT_TRUE(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
    }
  }
  return r;
}

std::vector<unsigned> iota(unsigned n, bool reversed) {
  std::vector<unsigned> v(n);
  std::iota(v.begin(), v.end(), 0u);
  if (reversed) std::reverse(v.begin(), v.end());
  return v;
}

void expect_fixed_order(bool reversed) {
  for (bool barrier : {false, true}) {
    const Recorded r = run_log(barrier);
    for (const auto& [worker, blocks] : r.blocks_by_worker) {
      auto cmp = [reversed](unsigned a, unsigned b) { return reversed ? a > b : a < b; };
      EXPECT_TRUE(std::is_sorted(blocks.begin(), blocks.end(), cmp)) << "barrier " << barrier;
    }
    for (int phase = 0; phase < (barrier ? 2 : 1); ++phase) {
      for (unsigned b = 0; b < kBlocks; ++b) {
        ASSERT_EQ(r.threads[phase][b], iota(kThreads, reversed)) << "block " << b;
      }
    }
  }
}

TEST(EmuSchedule, InOrderRunsBlocksAndThreadsInIncreasingIds) {
  gpupy_test::ScheduleGuard guard;
  gpupy::emu::set_schedule({ScheduleOrder::kInOrder, 0});
  expect_fixed_order(false);
}

TEST(EmuSchedule, ReverseRunsBlocksAndThreadsInDecreasingIds) {
  gpupy_test::ScheduleGuard guard;
  gpupy::emu::set_schedule({ScheduleOrder::kReverse, 0});
  expect_fixed_order(true);
}

TEST(EmuSchedule, ShufflePermutesBlockIdsAndThreadOrdersAndReplays) {
  gpupy_test::ScheduleGuard guard;
  const Schedule s{ScheduleOrder::kShuffle, 77};
  gpupy::emu::set_schedule(s);
  const Recorded r = run_log(true);
  gpupy::emu::set_schedule(s);
  const LaunchOrder order(s, kBlocks);  // the launch numbered 0 after set_schedule, as above
  std::vector<unsigned> index_of(kBlocks), ids(kBlocks);
  for (unsigned i = 0; i < kBlocks; ++i) index_of[ids[i] = order.block_id(i)] = i;
  EXPECT_NE(ids, iota(kBlocks, false));
  EXPECT_NE(ids, iota(kBlocks, true));
  // Each worker took queue positions in increasing order and ran the ids the bijection gave them.
  for (const auto& [worker, blocks] : r.blocks_by_worker) {
    for (std::size_t k = 1; k < blocks.size(); ++k) {
      EXPECT_LT(index_of[blocks[k - 1]], index_of[blocks[k]]);
    }
  }
  std::set<std::vector<unsigned>> distinct;
  for (unsigned b = 0; b < kBlocks; ++b) {
    for (const auto& threads : {r.threads[0][b], r.threads[1][b]}) {
      EXPECT_NE(threads, iota(kThreads, false));
      EXPECT_NE(threads, iota(kThreads, true));
      distinct.insert(threads);
    }
  }
  // A new order per block, resumed from another thread after the barrier.
  EXPECT_EQ(distinct.size(), 2 * kBlocks);

  gpupy::emu::set_schedule(s);
  const Recorded again = run_log(true);
  EXPECT_EQ(again.threads[0], r.threads[0]);
  EXPECT_EQ(again.threads[1], r.threads[1]);
  gpupy::emu::set_schedule({ScheduleOrder::kShuffle, 78});
  EXPECT_NE(run_log(true).threads[0], r.threads[0]);
}

TEST(EmuSchedule, ShuffledBlockIdsAreABijectionForEveryGridSize) {
  for (std::uint64_t total : {1ull, 2ull, 3ull, 5ull, 64ull, 65ull, 1000ull, 4097ull}) {
    for (std::uint64_t seed : {0ull, 1ull, 99ull}) {
      const LaunchOrder order({ScheduleOrder::kShuffle, seed}, total);
      std::vector<std::uint64_t> ids(total);
      for (std::uint64_t i = 0; i < total; ++i) ids[i] = order.block_id(i);
      std::vector<std::uint64_t> sorted = ids;
      std::sort(sorted.begin(), sorted.end());
      for (std::uint64_t i = 0; i < total; ++i) ASSERT_EQ(sorted[i], i) << total << " " << seed;
      if (total >= 64) {
        EXPECT_FALSE(std::is_sorted(ids.begin(), ids.end())) << total;
      }
    }
  }
}

TEST(EmuSchedule, ParsesTheEnvironmentValue) {
  using gpupy::emu::parse_schedule;
  EXPECT_EQ(parse_schedule("inorder").order, ScheduleOrder::kInOrder);
  EXPECT_EQ(parse_schedule("reverse").order, ScheduleOrder::kReverse);
  const Schedule s = parse_schedule("shuffle:18446744073709551615");
  EXPECT_EQ(s.order, ScheduleOrder::kShuffle);
  EXPECT_EQ(s.seed, 18446744073709551615ull);
  EXPECT_EQ(gpupy::emu::to_string(s), "shuffle:18446744073709551615");
  EXPECT_EQ(parse_schedule("shuffle").order, ScheduleOrder::kShuffle);
  for (const char* bad : {"", "random", "shuffle:", "shuffle:x1", "shuffle:-1", "Reverse",
                          "shuffle:18446744073709551616"}) {
    try {
      parse_schedule(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const gpupy::ValueError& e) {
      EXPECT_NE(std::string(e.what()).find("[emu] GPUPY_EMU_SCHEDULE"), std::string::npos);
    }
  }
}

}  // namespace
