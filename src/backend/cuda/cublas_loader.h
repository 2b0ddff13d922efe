// cuBLAS loaded on first use with dlopen, so gpupy never links it and imports without it.
// Host only.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <string>

namespace gpupy::cuda {

/// The cuBLAS entry points gpupy uses, resolved from the shared library.
struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetMathMode) set_math_mode = nullptr;
  decltype(&cublasSgemmStridedBatched) sgemm = nullptr;
  decltype(&cublasDgemmStridedBatched) dgemm = nullptr;
  decltype(&cublasCgemmStridedBatched) cgemm = nullptr;
  decltype(&cublasZgemmStridedBatched) zgemm = nullptr;
  decltype(&cublasGetStatusName) status_name = nullptr;  // optional
};

/// The loaded library; throws CudaError naming `op` and what dlopen/dlsym said when unavailable.
const CublasApi& cublas(const char* op);
/// The cuBLAS handle for work on `stream` of `device`. One per stream: a handle's workspace is
/// shared by the GEMMs it runs, and cuBLAS gives the same bits from run to run only while one
/// stream at a time uses a handle. The 8 most recently used are kept; the caller serialises use.
cublasHandle_t cublas_handle(int device, cudaStream_t stream, const char* op);
/// Throws CudaError "[op] <call> failed: <status name>" unless `status` is success.
void check_cublas(cublasStatus_t status, const char* call, const char* op);

}  // namespace gpupy::cuda
