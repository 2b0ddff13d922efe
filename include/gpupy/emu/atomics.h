// CUDA atomics for emulated kernels as real host atomics (blocks run on several OS threads).
// Host only; included by cuda_emu.h.
#pragma once

#include <atomic>

namespace gpupy::emu::detail {

template <class T>
std::atomic_ref<T> aref(T* p) {
  return std::atomic_ref<T>(*p);
}
// Applies f(old) until the compare-exchange succeeds; returns the old value, as CUDA does.
template <class T, class F>
T atomic_update(T* p, F f) {
  auto a = aref(p);
  T old = a.load(std::memory_order_relaxed);
  while (!a.compare_exchange_weak(old, f(old), std::memory_order_seq_cst)) {
  }
  return old;
}

}  // namespace gpupy::emu::detail

#define GPUPY_EMU_ATOMIC_FETCH(name, op, T) \
  inline T name(T* p, T v) { return gpupy::emu::detail::aref(p).op(v); }

GPUPY_EMU_ATOMIC_FETCH(atomicAdd, fetch_add, int)
GPUPY_EMU_ATOMIC_FETCH(atomicAdd, fetch_add, unsigned)
GPUPY_EMU_ATOMIC_FETCH(atomicAdd, fetch_add, unsigned long long)
GPUPY_EMU_ATOMIC_FETCH(atomicAdd, fetch_add, float)
GPUPY_EMU_ATOMIC_FETCH(atomicAdd, fetch_add, double)
GPUPY_EMU_ATOMIC_FETCH(atomicSub, fetch_sub, int)
GPUPY_EMU_ATOMIC_FETCH(atomicSub, fetch_sub, unsigned)
GPUPY_EMU_ATOMIC_FETCH(atomicExch, exchange, int)
GPUPY_EMU_ATOMIC_FETCH(atomicExch, exchange, unsigned)
GPUPY_EMU_ATOMIC_FETCH(atomicExch, exchange, unsigned long long)
GPUPY_EMU_ATOMIC_FETCH(atomicExch, exchange, float)
GPUPY_EMU_ATOMIC_FETCH(atomicAnd, fetch_and, int)
GPUPY_EMU_ATOMIC_FETCH(atomicAnd, fetch_and, unsigned)
GPUPY_EMU_ATOMIC_FETCH(atomicAnd, fetch_and, unsigned long long)
GPUPY_EMU_ATOMIC_FETCH(atomicOr, fetch_or, int)
GPUPY_EMU_ATOMIC_FETCH(atomicOr, fetch_or, unsigned)
GPUPY_EMU_ATOMIC_FETCH(atomicOr, fetch_or, unsigned long long)
GPUPY_EMU_ATOMIC_FETCH(atomicXor, fetch_xor, int)
GPUPY_EMU_ATOMIC_FETCH(atomicXor, fetch_xor, unsigned)
GPUPY_EMU_ATOMIC_FETCH(atomicXor, fetch_xor, unsigned long long)
#undef GPUPY_EMU_ATOMIC_FETCH

#define GPUPY_EMU_ATOMIC_MINMAX(T)                                                         \
  inline T atomicMin(T* p, T v) {                                                          \
    return gpupy::emu::detail::atomic_update(p, [v](T old) { return v < old ? v : old; }); \
  }                                                                                        \
  inline T atomicMax(T* p, T v) {                                                          \
    return gpupy::emu::detail::atomic_update(p, [v](T old) { return v > old ? v : old; }); \
  }
GPUPY_EMU_ATOMIC_MINMAX(int)
GPUPY_EMU_ATOMIC_MINMAX(unsigned)
GPUPY_EMU_ATOMIC_MINMAX(long long)
GPUPY_EMU_ATOMIC_MINMAX(unsigned long long)
#undef GPUPY_EMU_ATOMIC_MINMAX

/// ((old >= v) ? 0 : old + 1), CUDA's wrap-around counter.
inline unsigned atomicInc(unsigned* p, unsigned v) {
  return gpupy::emu::detail::atomic_update(p,
                                           [v](unsigned old) { return old >= v ? 0u : old + 1; });
}
/// ((old == 0 || old > v) ? v : old - 1).
inline unsigned atomicDec(unsigned* p, unsigned v) {
  return gpupy::emu::detail::atomic_update(
      p, [v](unsigned old) { return (old == 0 || old > v) ? v : old - 1; });
}

template <class T>
T gpupy_emu_atomic_cas(T* p, T compare, T value) {
  gpupy::emu::detail::aref(p).compare_exchange_strong(compare, value);
  return compare;  // holds the old value whether or not the exchange happened
}
inline int atomicCAS(int* p, int c, int v) { return gpupy_emu_atomic_cas(p, c, v); }
inline unsigned atomicCAS(unsigned* p, unsigned c, unsigned v) {
  return gpupy_emu_atomic_cas(p, c, v);
}
inline unsigned long long atomicCAS(unsigned long long* p, unsigned long long c,
                                    unsigned long long v) {
  return gpupy_emu_atomic_cas(p, c, v);
}
inline unsigned short atomicCAS(unsigned short* p, unsigned short c, unsigned short v) {
  return gpupy_emu_atomic_cas(p, c, v);
}

/// Scoped variants behave as the device-wide ones (a stronger guarantee).
#define atomicAdd_block atomicAdd
#define atomicAdd_system atomicAdd
#define atomicCAS_block atomicCAS
#define atomicCAS_system atomicCAS

inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_block() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __threadfence_system() { std::atomic_thread_fence(std::memory_order_seq_cst); }
