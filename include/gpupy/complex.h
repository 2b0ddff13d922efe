// A complex number type usable in host and device code (std::complex is not device-safe). Both
// compilers.
#pragma once

#include "gpupy/config.h"

namespace gpupy {

/// Layout-compatible with std::complex<T>, C's T _Complex and CUDA's cuComplex.
template <class T>
struct alignas(2 * sizeof(T)) complex {
  T re, im;
  GPUPY_HD constexpr complex() : re(0), im(0) {}
  GPUPY_HD constexpr complex(T r, T i = T(0)) : re(r), im(i) {}
  template <class U>
  GPUPY_HD explicit constexpr complex(const complex<U>& o) : re(T(o.re)), im(T(o.im)) {}
  GPUPY_HD constexpr T real() const { return re; }
  GPUPY_HD constexpr T imag() const { return im; }
};

using complex64 = complex<float>;
using complex128 = complex<double>;

template <class T>
GPUPY_HD complex<T> operator+(complex<T> a, complex<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class T>
GPUPY_HD complex<T> operator-(complex<T> a, complex<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class T>
GPUPY_HD complex<T> operator-(complex<T> a) {
  return {-a.re, -a.im};
}
template <class T>
GPUPY_HD complex<T> operator*(complex<T> a, complex<T> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class T>
GPUPY_HD bool operator==(complex<T> a, complex<T> b) {
  return a.re == b.re && a.im == b.im;
}
template <class T>
GPUPY_HD bool operator!=(complex<T> a, complex<T> b) {
  return !(a == b);
}

template <class T>
struct is_complex_t {
  static constexpr bool value = false;
};
template <class T>
struct is_complex_t<complex<T>> {
  static constexpr bool value = true;
};
template <class T>
inline constexpr bool is_complex_v = is_complex_t<T>::value;

}  // namespace gpupy
