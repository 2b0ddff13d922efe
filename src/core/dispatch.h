// Maps a run-time DType to its C++ element type for template code. Host only.
#pragma once

#include <cstdint>
#include <string>

#include "gpupy/complex.h"
#include "gpupy/dtype.h"
#include "gpupy/error.h"
#include "gpupy/float16.h"

namespace gpupy {

template <class T>
struct TypeTag {
  using type = T;
};

/// Calls f(TypeTag<T>{}) with T the element type of `dt`.
template <class F>
decltype(auto) dispatch_dtype(DType dt, F&& f) {
  switch (dt) {
    case DType::bool_:
      return f(TypeTag<bool>{});
    case DType::int8:
      return f(TypeTag<int8_t>{});
    case DType::int16:
      return f(TypeTag<int16_t>{});
    case DType::int32:
      return f(TypeTag<int32_t>{});
    case DType::int64:
      return f(TypeTag<int64_t>{});
    case DType::uint8:
      return f(TypeTag<uint8_t>{});
    case DType::uint16:
      return f(TypeTag<uint16_t>{});
    case DType::uint32:
      return f(TypeTag<uint32_t>{});
    case DType::uint64:
      return f(TypeTag<uint64_t>{});
    case DType::float32:
      return f(TypeTag<float>{});
    case DType::float64:
      return f(TypeTag<double>{});
    case DType::complex64:
      return f(TypeTag<complex64>{});
    case DType::complex128:
      return f(TypeTag<complex128>{});
    case DType::float16:
      return f(TypeTag<float16>{});
  }
  throw ValueError("[dispatch] invalid dtype code " + std::to_string(static_cast<int>(dt)));
}

/// dispatch_dtype for the backend kernels that have no float16 loop (reductions, scans, sorts,
/// searches, matmul): the ops layer runs float16 through them in float32, as NumPy's float16
/// loops compute, so float16 reaching one of them is a routing bug, reported naming `op`.
template <class F>
decltype(auto) dispatch_dtype_except_float16(DType dt, const char* op, F&& f) {
  return dispatch_dtype(dt, [&](auto tag) -> decltype(auto) {
    if constexpr (is_float16_v<typename decltype(tag)::type>)
      throw ValueError(std::string("[") + op + "] float16 must be widened to float32 first");
    else
      return f(tag);
  });
}

/// The DType of a C++ element type.
template <class T>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<T, bool>)
    return DType::bool_;
  else if constexpr (std::is_same_v<T, int8_t>)
    return DType::int8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return DType::int16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return DType::int32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return DType::int64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return DType::uint8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return DType::uint16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return DType::uint32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return DType::uint64;
  else if constexpr (std::is_same_v<T, float>)
    return DType::float32;
  else if constexpr (std::is_same_v<T, double>)
    return DType::float64;
  else if constexpr (std::is_same_v<T, complex64>)
    return DType::complex64;
  else if constexpr (std::is_same_v<T, float16>)
    return DType::float16;
  else {
    static_assert(std::is_same_v<T, complex128>, "not a gpupy element type");
    return DType::complex128;
  }
}

}  // namespace gpupy
