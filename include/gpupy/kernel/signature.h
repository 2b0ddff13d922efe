// The C side of user kernels: the C type table, `__global__` signature parsing and the argument
// layout a launch packs (kernel layer spec 2.1-2.3). Host only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpupy/dtype.h"

namespace gpupy::kernel {

/// The dtype of a scalar C type ("unsigned long" -> uint64); nullopt for anything else.
/// Qualifiers and `thrust::`/`cuda::std::` in front of complex<...> are ignored.
std::optional<DType> dtype_of_ctype(std::string_view ctype);
/// The C type a dtype is passed as ("long long" for int64).
std::string ctype_of(DType dt);

/// One parameter of a `__global__` function.
struct CudaParameter {
  std::string name;
  std::string ctype;            ///< normalised element/base type: "double", "Array2D<float>"
  std::optional<DType> dtype;   ///< element dtype; nullopt for void*
  bool pointer = false;         ///< T* / T x[] / void*
  int view_ndim = 0;            ///< N of ArrayND<T> / CArrayND<T>; 0 otherwise
  bool contiguous = false;      ///< CArrayND<T>
  std::size_t struct_size = 0;  ///< sizeof of a struct passed by value; 0 for other parameters
  std::string decl_type;        ///< the declared type (template parameters substituted)

  /// "double* x", as argument messages name the parameter.
  std::string describe() const;
  /// Bytes this parameter takes in the packed argument buffer.
  std::size_t packed_size() const;
};

/// A parsed kernel: its name, how to call it (`name<double, 3>` for templates), its parameters.
struct CudaSignature {
  std::string name;
  std::string expression;
  std::vector<CudaParameter> params;
};

/// A struct type kernels may take by value: its C name and its C layout's size in bytes.
struct StructType {
  std::string name;
  std::size_t size = 0;
};

/// Parses `[template <...>] __global__ void name(...)` in source (spec 2.2). template_args are
/// rendered C text ("double", "3", "true"), one per template parameter; structs are the struct
/// types parameters may name. Throws ValueError.
CudaSignature parse_cuda_signature(const std::string& source, const std::string& name,
                                   const std::optional<std::vector<std::string>>& template_args,
                                   const std::vector<StructType>& structs = {});

/// Names of all `__global__ void` functions in source, comments ignored, first appearance order.
std::vector<std::string> cuda_kernel_names(const std::string& source);

}  // namespace gpupy::kernel
