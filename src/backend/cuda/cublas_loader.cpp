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

LoadedLibrary<CublasApi> load() {
  return load_cuda_library<CublasApi>(
      "GPUPY_CUBLAS_LIBRARY", {"libcublas.so.13", "libcublas.so.12", "libcublas.so"}, "cuBLAS",
      [](void* lib, CublasApi& a, std::string& e) {
        auto resolve = [lib](const char* symbol, auto& fn, std::string& error) {
          resolve_symbol(lib, symbol, fn, error, "libcublas");
        };
        resolve("cublasCreate_v2", a.create, e);
        resolve("cublasSetStream_v2", a.set_stream, e);
        resolve("cublasSetMathMode", a.set_math_mode, e);
        resolve("cublasSgemmStridedBatched", a.sgemm, e);
        resolve("cublasDgemmStridedBatched", a.dgemm, e);
        resolve("cublasCgemmStridedBatched", a.cgemm, e);
        resolve("cublasZgemmStridedBatched", a.zgemm, e);
        std::string ignored;  // optional: status names only improve messages
        resolve("cublasGetStatusName", a.status_name, ignored);
      });
}

}  // namespace

const CublasApi& cublas(const char* op) {
  static const LoadedLibrary<CublasApi> loaded = load();
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
