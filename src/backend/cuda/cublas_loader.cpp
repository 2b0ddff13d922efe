// dlopen/dlsym of libcublas and the per-device cuBLAS handles. Host only.
#include "cublas_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "../../core/cuda_library.h"
#include "gpupy/error.h"
#include "stream.h"

namespace gpupy::cuda {
namespace {

struct Loaded {
  CublasApi api;
  std::string error;  // empty when every required symbol was found
};

template <class Fn>
bool resolve(void* lib, const char* symbol, Fn& fn, std::string& error) {
  return resolve_symbol(lib, symbol, fn, error, "libcublas");
}

Loaded load() {
  Loaded out;
  std::string tried;
  void* lib = open_cuda_library("GPUPY_CUBLAS_LIBRARY",
                                {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}, tried);
  if (!lib) {
    out.error = "cannot load cuBLAS (" + tried + ")";
    return out;
  }
  CublasApi& a = out.api;
  resolve(lib, "cublasCreate_v2", a.create, out.error);
  resolve(lib, "cublasSetStream_v2", a.set_stream, out.error);
  resolve(lib, "cublasSetMathMode", a.set_math_mode, out.error);
  resolve(lib, "cublasSgemmStridedBatched", a.sgemm, out.error);
  resolve(lib, "cublasDgemmStridedBatched", a.dgemm, out.error);
  resolve(lib, "cublasCgemmStridedBatched", a.cgemm, out.error);
  resolve(lib, "cublasZgemmStridedBatched", a.zgemm, out.error);
  std::string ignored;
  resolve(lib, "cublasGetStatusName", a.status_name, ignored);
  return out;
}

}  // namespace

const CublasApi& cublas(const char* op) {
  static const Loaded loaded = load();
  if (!loaded.error.empty()) throw CudaError(std::string("[") + op + "] " + loaded.error);
  return loaded.api;
}

cublasHandle_t cublas_handle(int device, const char* op) {
  static cublasHandle_t handles[kMaxDevices] = {};
  static std::mutex mutex;
  const CublasApi& api = cublas(op);
  std::lock_guard<std::mutex> lock(mutex);
  if (!handles[device]) {
    DeviceGuard guard(device);
    check_cublas(api.create(&handles[device]), "cublasCreate", op);
  }
  return handles[device];
}

void check_cublas(cublasStatus_t status, const char* call, const char* op) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const CublasApi& api = cublas(op);
  std::string name = api.status_name ? api.status_name(status)
                                     : "cuBLAS status " + std::to_string(static_cast<int>(status));
  throw CudaError(std::string("[") + op + "] " + call + " failed: " + name);
}

}  // namespace gpupy::cuda
