// Packing checked kernel arguments into the buffer a launch passes (cuLaunchKernel's
// kernelParams): layout, scalar range checks and array-view records (spec 2.3). Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpupy/complex.h"
#include "gpupy/kernel/signature.h"

namespace gpupy::kernel {

/// Where each parameter's value lies in the packed buffer (8-byte aligned slots).
struct ArgumentLayout {
  std::vector<std::size_t> offsets;
  std::size_t size = 0;
  explicit ArgumentLayout(const CudaSignature& sig);
};

/// Stores integer v as scalar dtype dt (int, float or complex) at dst; OverflowError
/// "<what>: V is out of range [lo, hi]" when an integer dtype cannot hold it.
void store_integer(DType dt, __int128 v, const std::string& what, void* dst);
/// Stores a real number as float or complex dtype dt (the caller rejects integer dtypes).
void store_real(DType dt, double v, void* dst);
/// Stores a complex number as complex dtype dt.
void store_complex(DType dt, complex128 v, void* dst);

/// An array as a launch sees it: data pointer, dtype, shape and byte strides.
struct ArrayArg {
  void* data = nullptr;
  DType dtype = DType::float64;
  int ndim = 0;
  const int64_t* shape = nullptr;
  const int64_t* strides = nullptr;  ///< bytes; nullptr when C-contiguous
};

/// True when the array is C-contiguous (size-1 axes may have any stride).
bool c_contiguous(const ArrayArg& a);
/// Packs an ArrayND/CArrayND parameter as {data, shape[N], strides[N] in elements} or
/// {data, shape[N]}; TypeError for a wrong rank, odd strides, or a strided CArrayND.
void pack_view(const CudaParameter& p, const ArrayArg& a, const std::string& what, void* dst);

}  // namespace gpupy::kernel
