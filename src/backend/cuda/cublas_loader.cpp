// dlopen/dlsym of libcublas and the per-device cuBLAS handles. Host only.
#include "cublas_loader.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

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
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
  if (!fn && error.empty()) error = std::string("symbol ") + symbol + " not found in libcublas";
  return fn != nullptr;
}

// $GPUPY_CUBLAS_LIBRARY, then the loader's search path, then the toolkit's lib64 directories
// (which are often not on the search path when the toolkit is installed by hand).
std::vector<std::string> candidates() {
  const char* names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  std::vector<std::string> out;
  if (const char* path = std::getenv("GPUPY_CUBLAS_LIBRARY"); path && *path) out.push_back(path);
  for (const char* name : names) out.push_back(name);
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* dir = std::getenv(var); dir && *dir)
      for (const char* name : names) out.push_back(std::string(dir) + "/lib64/" + name);
  for (const char* name : names) out.push_back(std::string("/usr/local/cuda/lib64/") + name);
  return out;
}

Loaded load() {
  Loaded out;
  std::string tried;
  void* lib = nullptr;
  for (const std::string& name : candidates()) {
    lib = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) break;
    const char* why = dlerror();
    tried += (tried.empty() ? "" : "; ") + (why ? std::string(why) : name);
  }
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
