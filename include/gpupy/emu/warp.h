// Warp intrinsics (__shfl*_sync, __ballot_sync, __any_sync, __all_sync, __syncwarp) for emulated
// kernels, over the runtime's warp collective. Host only; included by cuda_emu.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpupy/emu/thread_context.h"

namespace gpupy::emu::detail {

// Values travel as 8 raw bytes, so every trivially copyable type up to 8 bytes can be shuffled.
template <class T>
std::uint64_t to_bits(T v) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8,
                "[emu] shuffles take trivially copyable values of at most 8 bytes");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  return bits;
}
template <class T>
T from_bits(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof(T));
  return v;
}
template <class T>
T shuffle(WarpOp op, unsigned mask, T var, int param, int width) {
  return from_bits<T>(warp_collective(op, mask, to_bits(var), param, width));
}

}  // namespace gpupy::emu::detail

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32) {
  return gpupy::emu::detail::shuffle(gpupy::emu::detail::WarpOp::kShfl, mask, var, src_lane, width);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) {
  return gpupy::emu::detail::shuffle(gpupy::emu::detail::WarpOp::kShflUp, mask, var,
                                     static_cast<int>(delta), width);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) {
  return gpupy::emu::detail::shuffle(gpupy::emu::detail::WarpOp::kShflDown, mask, var,
                                     static_cast<int>(delta), width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32) {
  return gpupy::emu::detail::shuffle(gpupy::emu::detail::WarpOp::kShflXor, mask, var, lane_mask,
                                     width);
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return static_cast<unsigned>(gpupy::emu::detail::warp_collective(
      gpupy::emu::detail::WarpOp::kBallot, mask, predicate != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int predicate) {
  return static_cast<int>(gpupy::emu::detail::warp_collective(gpupy::emu::detail::WarpOp::kAny,
                                                              mask, predicate != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int predicate) {
  return static_cast<int>(gpupy::emu::detail::warp_collective(gpupy::emu::detail::WarpOp::kAll,
                                                              mask, predicate != 0, 0, 32));
}
inline void __syncwarp(unsigned mask = 0xffffffffu) {
  gpupy::emu::detail::warp_collective(gpupy::emu::detail::WarpOp::kSync, mask, 0, 0, 32);
}
/// Lanes of the warp that have not exited (the emulator does not track divergence).
inline unsigned __activemask() { return gpupy::emu::detail::active_mask(); }
