// CUDA device math and bit intrinsics for emulated kernels (fast-math variants computed exactly).
// Host only; included by cuda_emu.h.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

// CUDA declares float and double overloads of the C math functions in the global namespace (and
// not C++'s lerp or special functions). Without these, a kernel's abs(-2.5) would call the C
// library's abs(int) and give 2, and sin(float) would compute in double.
using std::abs, std::fabs, std::sqrt, std::cbrt, std::hypot, std::exp, std::exp2, std::expm1;
using std::erf, std::erfc, std::lgamma, std::tgamma, std::fma, std::fmod, std::remainder;
using std::floor, std::ceil, std::trunc, std::round, std::lround, std::llround, std::rint;
using std::fmin, std::fmax, std::isnan, std::isinf, std::isfinite, std::signbit;
using std::log, std::log2, std::log10, std::log1p, std::logb, std::ilogb, std::pow;
using std::lrint, std::llrint, std::nearbyint, std::nextafter, std::copysign, std::fdim;
using std::remquo, std::modf, std::frexp, std::ldexp, std::scalbn, std::scalbln;
using std::sin, std::cos, std::tan, std::asin, std::acos, std::atan, std::atan2;
using std::sinh, std::cosh, std::tanh, std::asinh, std::acosh, std::atanh;

inline float __expf(float x) { return std::exp(x); }
inline float __logf(float x) { return std::log(x); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
/// Clamps to [0, 1]; NaN gives 0 as on the GPU.
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }
inline float __fmul_rn(float x, float y) { return x * y; }
inline float __fadd_rn(float x, float y) { return x + y; }
inline double __dmul_rn(double x, double y) { return x * y; }
inline double __dadd_rn(double x, double y) { return x + y; }
/// Round half to even, as long as the caller kept the default rounding mode.
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }

inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return std::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }

inline int __popc(unsigned x) { return std::popcount(x); }
inline int __popcll(unsigned long long x) { return std::popcount(x); }
inline int __clz(int x) { return std::countl_zero(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return std::countl_zero(static_cast<unsigned long long>(x)); }
/// 1-based position of the least significant set bit; 0 for 0.
inline int __ffs(int x) { return x == 0 ? 0 : std::countr_zero(static_cast<unsigned>(x)) + 1; }
inline int __ffsll(long long x) {
  return x == 0 ? 0 : std::countr_zero(static_cast<unsigned long long>(x)) + 1;
}
inline unsigned __brev(unsigned x) {
  x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
  x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
  x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
  x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
  return (x >> 16) | (x << 16);
}
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}

/// Read-only cache load: a plain load on the host.
template <class T>
T __ldg(const T* p) {
  return *p;
}

// CUDA's global min/max overloads. Non-template, so they win over std::min/std::max when a kernel
// says `using namespace std;`, and they never hide the std templates.
#define GPUPY_EMU_MINMAX(A, B, R)                                                  \
  inline R min(A a, B b) { return static_cast<R>(a) < static_cast<R>(b) ? a : b; } \
  inline R max(A a, B b) { return static_cast<R>(a) > static_cast<R>(b) ? a : b; }
GPUPY_EMU_MINMAX(int, int, int)
GPUPY_EMU_MINMAX(unsigned, unsigned, unsigned)
GPUPY_EMU_MINMAX(int, unsigned, unsigned)
GPUPY_EMU_MINMAX(unsigned, int, unsigned)
GPUPY_EMU_MINMAX(long, long, long)
GPUPY_EMU_MINMAX(unsigned long, unsigned long, unsigned long)
GPUPY_EMU_MINMAX(long long, long long, long long)
GPUPY_EMU_MINMAX(unsigned long long, unsigned long long, unsigned long long)
#undef GPUPY_EMU_MINMAX
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
inline double min(float a, double b) { return std::fmin(a, b); }
inline double max(float a, double b) { return std::fmax(a, b); }
inline double min(double a, float b) { return std::fmin(a, b); }
inline double max(double a, float b) { return std::fmax(a, b); }
