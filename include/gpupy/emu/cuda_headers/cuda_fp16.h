// CUDA's cuda_fp16.h for kernels built for the emu device: the __half type with its operators and
// the common scalar intrinsics (conversions, arithmetic, comparisons, math). Each computes in
// float and rounds once to nearest even, which gives the bits CUDA's half arithmetic gives: float
// carries more than twice float16's precision, so the double rounding of +, -, *, / and sqrt is
// harmless. __half2 and the other vector types are not provided. Host only (emu kernels).
#pragma once

#include <cmath>

#include "gpupy/float16.h"

struct __half {
  gpupy::float16 value;
  __half() = default;
  // As CUDA's __half: converts implicitly from and to float.
  __half(float f) : value(f) {}
  __half(double d) : value(d) {}
  operator float() const { return static_cast<float>(value); }
};
using half = __half;

inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline __half __int2half_rn(int i) { return __half(double(i)); }
inline float __half2float(__half h) { return float(h); }
inline int __half2int_rz(__half h) { return int(float(h)); }
inline __half __ushort_as_half(unsigned short bits) {
  __half h;
  h.value = gpupy::float16::from_bits(bits);
  return h;
}
inline unsigned short __half_as_ushort(__half h) { return h.value.bits; }

inline __half __hadd(__half a, __half b) { return __half(float(a) + float(b)); }
inline __half __hsub(__half a, __half b) { return __half(float(a) - float(b)); }
inline __half __hmul(__half a, __half b) { return __half(float(a) * float(b)); }
inline __half __hdiv(__half a, __half b) { return __half(float(a) / float(b)); }
inline __half __hneg(__half a) { return __ushort_as_half(a.value.bits ^ 0x8000u); }
inline __half __habs(__half a) { return __ushort_as_half(a.value.bits & 0x7fffu); }
// a * b is exact in double and the sum rounds once there before the final rounding to half.
inline __half __hfma(__half a, __half b, __half c) {
  return __half(double(float(a)) * double(float(b)) + double(float(c)));
}
// As CUDA: a NaN operand gives the other one.
inline __half __hmax(__half a, __half b) {
  return float(a) >= float(b) || float(b) != float(b) ? a : b;
}
inline __half __hmin(__half a, __half b) {
  return float(a) <= float(b) || float(b) != float(b) ? a : b;
}

inline bool __heq(__half a, __half b) { return float(a) == float(b); }
inline bool __hne(__half a, __half b) { return float(a) != float(b); }
inline bool __hlt(__half a, __half b) { return float(a) < float(b); }
inline bool __hle(__half a, __half b) { return float(a) <= float(b); }
inline bool __hgt(__half a, __half b) { return float(a) > float(b); }
inline bool __hge(__half a, __half b) { return float(a) >= float(b); }
inline bool __hisnan(__half a) { return (a.value.bits & 0x7fffu) > 0x7c00u; }
inline int __hisinf(__half a) {
  return (a.value.bits & 0x7fffu) == 0x7c00u ? (a.value.bits & 0x8000u ? -1 : 1) : 0;
}

inline __half hsqrt(__half a) { return __half(std::sqrt(float(a))); }
inline __half hrsqrt(__half a) { return __half(1.0f / std::sqrt(float(a))); }
inline __half hrcp(__half a) { return __half(1.0f / float(a)); }
inline __half hexp(__half a) { return __half(std::exp(float(a))); }
inline __half hexp2(__half a) { return __half(std::exp2(float(a))); }
inline __half hlog(__half a) { return __half(std::log(float(a))); }
inline __half hlog2(__half a) { return __half(std::log2(float(a))); }
inline __half hlog10(__half a) { return __half(std::log10(float(a))); }
inline __half hsin(__half a) { return __half(std::sin(float(a))); }
inline __half hcos(__half a) { return __half(std::cos(float(a))); }
inline __half htrunc(__half a) { return __half(std::trunc(float(a))); }
inline __half hfloor(__half a) { return __half(std::floor(float(a))); }
inline __half hceil(__half a) { return __half(std::ceil(float(a))); }
inline __half hrint(__half a) { return __half(std::nearbyint(float(a))); }

inline __half operator+(__half a, __half b) { return __hadd(a, b); }
inline __half operator-(__half a, __half b) { return __hsub(a, b); }
inline __half operator*(__half a, __half b) { return __hmul(a, b); }
inline __half operator/(__half a, __half b) { return __hdiv(a, b); }
inline __half operator-(__half a) { return __hneg(a); }
inline __half operator+(__half a) { return a; }
inline __half& operator+=(__half& a, __half b) { return a = __hadd(a, b); }
inline __half& operator-=(__half& a, __half b) { return a = __hsub(a, b); }
inline __half& operator*=(__half& a, __half b) { return a = __hmul(a, b); }
inline __half& operator/=(__half& a, __half b) { return a = __hdiv(a, b); }
inline bool operator==(__half a, __half b) { return __heq(a, b); }
inline bool operator!=(__half a, __half b) { return __hne(a, b); }
inline bool operator<(__half a, __half b) { return __hlt(a, b); }
inline bool operator<=(__half a, __half b) { return __hle(a, b); }
inline bool operator>(__half a, __half b) { return __hgt(a, b); }
inline bool operator>=(__half a, __half b) { return __hge(a, b); }
