// Warp collectives of the emulation runtime: lanes wait until every lane named in the mask has
// arrived, then all results are computed at once. Host only.
#include <bit>
#include <cstdio>
#include <string>

#include "block.h"

namespace gpupy::emu {

namespace {

constexpr unsigned kWarp = 32;

// Lanes that exist in the warp starting at base (the last warp of a block may be partial).
unsigned existing_lanes(const BlockRun& b, unsigned base) {
  const unsigned count = b.n - base < kWarp ? b.n - base : kWarp;
  return count == kWarp ? ~0u : (1u << count) - 1;
}

unsigned effective_mask(const EmuThread& t, unsigned exist) {
  return (t.mask & exist) | (1u << (t.ctx.linear % kWarp));
}

// The lane whose value lane k receives; k itself when the source lies outside its segment.
unsigned source_lane(detail::WarpOp op, unsigned k, int param, int width) {
  const unsigned w =
      (width >= 1 && width <= 32 && std::has_single_bit(unsigned(width))) ? width : 32;
  const unsigned segment = k & ~(w - 1), offset = k & (w - 1), p = static_cast<unsigned>(param);
  switch (op) {
    case detail::WarpOp::kShfl:
      return segment + (p & (w - 1));
    case detail::WarpOp::kShflUp:
      return offset >= p ? k - p : k;
    case detail::WarpOp::kShflDown:
      return offset + p < w ? k + p : k;
    case detail::WarpOp::kShflXor: {
      const unsigned src = k ^ p;
      return src < segment + w && src < kWarp ? src : k;
    }
    default:
      return k;
  }
}

void perform(BlockRun& b, unsigned base, unsigned m) {
  unsigned votes = 0;
  for (unsigned k = 0; k < kWarp; ++k) {
    if ((m >> k & 1) && b.threads[base + k].value != 0) votes |= 1u << k;
  }
  for (unsigned k = 0; k < kWarp; ++k) {
    if (!(m >> k & 1)) continue;
    EmuThread& t = b.threads[base + k];
    switch (t.op) {
      case detail::WarpOp::kBallot:
        t.result = votes;
        break;
      case detail::WarpOp::kAny:
        t.result = votes != 0;
        break;
      case detail::WarpOp::kAll:
        t.result = votes == m;
        break;
      case detail::WarpOp::kSync:
        t.result = 0;
        break;
      default: {
        // Reading a lane outside the mask is undefined on a GPU; the emulator returns the own
        // value.
        const unsigned src = source_lane(t.op, k, t.param, t.width);
        t.result = (m >> src & 1) ? b.threads[base + src].value : t.value;
      }
    }
    t.state = ThreadState::kRunnable;
  }
  b.warp_waiting -= static_cast<unsigned>(std::popcount(m));
}

// Whether every lane of m waits at a collective with the same mask; reports a lane that exited.
bool lanes_ready(BlockRun& b, const EmuThread& caller, unsigned base, unsigned m, unsigned exist) {
  bool ready = true;
  for (unsigned k = 0; k < kWarp; ++k) {
    if (!(m >> k & 1)) continue;
    const EmuThread& u = b.threads[base + k];
    if (u.state == ThreadState::kDone) {
      char mask[16];
      std::snprintf(mask, sizeof mask, "0x%08x", caller.mask);
      report_thread_error(b, caller,
                          std::string("called a warp collective whose mask ") + mask +
                              " names lane " + std::to_string(k) + ", which has exited,");
      return false;
    }
    if (u.state != ThreadState::kWarp || effective_mask(u, exist) != m) ready = false;
  }
  return ready;
}

}  // namespace

bool resolve_warps(BlockRun& b) {
  if (b.warp_waiting == 0) return false;
  bool released = false;
  for (unsigned i = 0; i < b.n && !b.failed; ++i) {
    const EmuThread& t = b.threads[i];
    if (t.state != ThreadState::kWarp) continue;
    const unsigned base = i - i % kWarp, exist = existing_lanes(b, base);
    const unsigned m = effective_mask(t, exist);
    if (lanes_ready(b, t, base, m, exist)) {
      perform(b, base, m);
      released = true;
    }
  }
  return released;
}

namespace detail {

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, int param, int width) {
  EmuThread& t = current_thread("a warp collective");
  BlockRun& b = *t.run;
  t.state = ThreadState::kWarp;
  t.op = op;
  t.mask = mask;
  t.value = value;
  t.param = param;
  t.width = width;
  ++b.warp_waiting;
  wait_for_release(b, t);
  return t.result;
}

unsigned active_mask() {
  const EmuThread& t = current_thread("__activemask");
  const BlockRun& b = *t.run;
  const unsigned base = t.ctx.linear - t.ctx.linear % kWarp;
  unsigned live = existing_lanes(b, base);
  for (unsigned k = 0; k < kWarp && base + k < b.n; ++k) {
    // Before promotion, threads after the caller in the block's order have not started (and are
    // live).
    const bool started = b.promoted || position_of(b, base + k) <= position_of(b, t.ctx.linear);
    if (started && b.threads[base + k].state == ThreadState::kDone) live &= ~(1u << k);
  }
  return live;
}

}  // namespace detail

}  // namespace gpupy::emu
