// dlopen/dlsym of libcublas and the cuBLAS handles, one per (device, stream). Host only.
#include "cublas_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <list>
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
        resolve("cublasDestroy_v2", a.destroy, e);
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

cublasHandle_t cublas_handle(int device, cudaStream_t stream, const char* op) {
  struct Cached {
    int device;
    cudaStream_t stream;
    cublasHandle_t handle;
  };
  constexpr size_t kMaxHandles = 8;
  static std::list<Cached> cache;  // most recently used first; kept until exit
  static std::mutex mutex;
  const CublasApi& api = cublas(op);
  std::lock_guard<std::mutex> lock(mutex);
  for (auto it = cache.begin(); it != cache.end(); ++it) {
    if (it->device == device && it->stream == stream) {
      cache.splice(cache.begin(), cache, it);
      return it->handle;
    }
  }
  if (cache.size() >= kMaxHandles) {
    // cublasDestroy waits for the device (cudaDeviceSynchronize), so no GEMM queued with the
    // evicted handle is still running; a failure only leaks it.
    DeviceGuard guard(cache.back().device);
    api.destroy(cache.back().handle);
    cache.pop_back();
  }
  DeviceGuard guard(device);
  cublasHandle_t handle = nullptr;
  check_cublas(api.create(&handle), "cublasCreate", op);
  cache.push_front({device, stream, handle});
  return handle;
}

void check_cublas(cublasStatus_t status, const char* call, const char* op) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  const CublasApi& api = cublas(op);
  std::string name = api.status_name ? api.status_name(status)
                                     : "cuBLAS status " + std::to_string(static_cast<int>(status));
  throw CudaError(std::string("[") + op + "] " + call + " failed: " + name);
}

}  // namespace gpupy::cuda
