// Run-time loading of a CBLAS library (OpenBLAS and friends) for the cpu backend. Host only.
#pragma once

#include <string>

namespace gpupy::cpu {

/// CBLAS enum values (row/column major, transpose flags), as in cblas.h.
enum BlasConst : int { kRowMajor = 101, kNoTrans = 111, kTrans = 112 };

using SgemmFn = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int,
                         float, float*, int);
using DgemmFn = void (*)(int, int, int, int, int, int, double, const double*, int, const double*,
                         int, double, double*, int);
/// cgemm/zgemm take alpha and beta by pointer.
using ZgemmFn = void (*)(int, int, int, int, int, int, const void*, const void*, int, const void*,
                         int, const void*, void*, int);

using SdotFn = float (*)(int, const float*, int, const float*, int);
using DdotFn = double (*)(int, const double*, int, const double*, int);
using SgemvFn = void (*)(int, int, int, int, float, const float*, int, const float*, int, float,
                         float*, int);
using DgemvFn = void (*)(int, int, int, int, double, const double*, int, const double*, int, double,
                         double*, int);

/// The gemm entry points of the loaded library, and its dot and gemv (null when it lacks them).
struct BlasLibrary {
  std::string path;
  std::string prefix;  // "scipy_" or "" (plain cblas_ names)
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  ZgemmFn cgemm = nullptr;
  ZgemmFn zgemm = nullptr;
  SdotFn sdot = nullptr;
  DdotFn ddot = nullptr;
  SgemvFn sgemv = nullptr;
  DgemvFn dgemv = nullptr;
  int (*get_num_threads)() = nullptr;
};

/// Loads the CBLAS library at `path` (dlopen) and uses it for float matmul from then on. An empty
/// path unloads it: matmul then uses gpupy's own kernel. Throws ValueError when the file cannot be
/// loaded or lacks the four *gemm symbols; the previous library then stays in use.
void set_blas_library(const std::string& path);
/// The library in use, or nullptr when matmul runs on gpupy's own kernel.
const BlasLibrary* blas_library();
/// One line describing the BLAS in use ("scipy_openblas (<path>), 2 threads" or "none ...").
std::string blas_info();

}  // namespace gpupy::cpu
