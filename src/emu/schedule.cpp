// $GPUPY_EMU_SCHEDULE: the order in which emulated blocks get their ids and the threads of a
// block make progress between sync points. Host only.
#include "schedule.h"

#include <atomic>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpupy/error.h"

namespace gpupy::emu {

namespace {

std::mutex g_mutex;
std::optional<Schedule> g_schedule;
std::atomic<std::uint64_t> g_launches{0};

std::uint64_t splitmix(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Schedule from_environment() {
  const char* env = std::getenv("GPUPY_EMU_SCHEDULE");
  if (!env || !*env) return {};
  Schedule s = parse_schedule(env);
  if (s.order == ScheduleOrder::kShuffle && std::string(env) == "shuffle") {
    // Print the drawn seed so that a failing run can be replayed.
    std::fprintf(stderr, "gpupy emu: GPUPY_EMU_SCHEDULE=%s (set it to replay this run)\n",
                 to_string(s).c_str());
  }
  return s;
}

}  // namespace

Schedule parse_schedule(const std::string& text) {
  if (text == "inorder") return {};
  if (text == "reverse") return {ScheduleOrder::kReverse, 0};
  if (text == "shuffle") return {ScheduleOrder::kShuffle, std::random_device{}()};
  if (text.rfind("shuffle:", 0) == 0 && text.size() > 8 &&
      text.find_first_not_of("0123456789", 8) == std::string::npos) {
    try {
      return {ScheduleOrder::kShuffle, std::stoull(text.substr(8))};
    } catch (const std::out_of_range&) {  // falls through to the error below
    }
  }
  throw ValueError("[emu] GPUPY_EMU_SCHEDULE='" + text +
                   "' is not one of inorder, reverse, shuffle, shuffle:<seed> (decimal)");
}

Schedule schedule() {
  std::lock_guard lock(g_mutex);
  if (!g_schedule) g_schedule = from_environment();
  return *g_schedule;
}

void set_schedule(Schedule s) {
  std::lock_guard lock(g_mutex);
  g_schedule = s;
  g_launches.store(0);  // launches are numbered afresh, so that setting a seed again replays them
}

std::string to_string(Schedule s) {
  switch (s.order) {
    case ScheduleOrder::kReverse:
      return "reverse";
    case ScheduleOrder::kShuffle:
      return "shuffle:" + std::to_string(s.seed);
    default:
      return "inorder";
  }
}

LaunchOrder::LaunchOrder(Schedule s, std::uint64_t total_blocks)
    : order_(s.order), total_(total_blocks) {
  if (order_ != ScheduleOrder::kShuffle) return;
  std::uint64_t state = s.seed ^ (g_launches.fetch_add(1) * 0xd1b54a32d192ed03ull);
  key_ = splitmix(state);
  const unsigned bits = static_cast<unsigned>(std::bit_width(total_ - 1));
  mask_ = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  shift_ = bits / 2 + 1;
  for (int r = 0; r < 2; ++r) {
    mul_[r] = splitmix(state) | 1;  // odd: a bijection modulo 2^k
    add_[r] = splitmix(state);
  }
}

// Two rounds of an affine map and an xor-shift, each a bijection of [0, 2^k).
std::uint64_t LaunchOrder::mix(std::uint64_t x) const {
  for (int r = 0; r < 2; ++r) {
    x = (x * mul_[r] + add_[r]) & mask_;
    x ^= x >> shift_;
  }
  return x;
}

std::uint64_t LaunchOrder::shuffled_block(std::uint64_t index) const {
  // Cycle-walking restricts the bijection of [0, 2^k) to [0, total_); 2^k < 2 * total_, so it
  // takes fewer than two steps on average.
  std::uint64_t x = mix(index);
  while (x >= total_) x = mix(x);
  return x;
}

void LaunchOrder::thread_order(std::uint64_t block, unsigned n, unsigned* order,
                               unsigned* pos) const {
  for (unsigned i = 0; i < n; ++i) order[i] = order_ == ScheduleOrder::kReverse ? n - 1 - i : i;
  if (order_ == ScheduleOrder::kShuffle) {
    std::uint64_t state = key_ ^ (block * 0x9e3779b97f4a7c15ull);
    splitmix(state);
    std::uint64_t bits = 0;
    for (unsigned i = n, left = 0; i > 1; --i, --left) {  // Fisher-Yates, 32 random bits a step
      if (left == 0) {
        bits = splitmix(state);
        left = 2;
      }
      const auto j =
          static_cast<unsigned>((std::uint64_t{static_cast<std::uint32_t>(bits)} * i) >> 32);
      bits >>= 32;
      std::swap(order[i - 1], order[j]);
    }
  }
  for (unsigned i = 0; i < n; ++i) pos[order[i]] = i;
}

unsigned LaunchOrder::rotation(std::uint64_t block, unsigned round, unsigned n) const {
  if (n < 2) return 0;
  std::uint64_t state = key_ ^ (block * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t{round} << 40);
  return 1 + static_cast<unsigned>(splitmix(state) % (n - 1));
}

}  // namespace gpupy::emu
