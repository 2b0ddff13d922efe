// Run-time loading of a CBLAS library through dlopen, so the core builds and imports without one.
// Host only.
#include "blas.h"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

#include "gpupy/error.h"

namespace gpupy::cpu {
namespace {

std::atomic<const BlasLibrary*> g_library{nullptr};
std::mutex g_load_mutex;

template <class Fn>
Fn resolve(void* handle, const std::string& prefix, const char* name) {
  return reinterpret_cast<Fn>(dlsym(handle, (prefix + name).c_str()));
}

// Fills the gemm pointers with one naming scheme; false if any is missing.
bool resolve_all(void* handle, const std::string& prefix, BlasLibrary& lib) {
  lib.prefix = prefix;
  lib.sgemm = resolve<SgemmFn>(handle, prefix, "cblas_sgemm");
  lib.dgemm = resolve<DgemmFn>(handle, prefix, "cblas_dgemm");
  lib.cgemm = resolve<ZgemmFn>(handle, prefix, "cblas_cgemm");
  lib.zgemm = resolve<ZgemmFn>(handle, prefix, "cblas_zgemm");
  lib.sdot = resolve<SdotFn>(handle, prefix, "cblas_sdot");
  lib.ddot = resolve<DdotFn>(handle, prefix, "cblas_ddot");
  lib.sgemv = resolve<SgemvFn>(handle, prefix, "cblas_sgemv");
  lib.dgemv = resolve<DgemvFn>(handle, prefix, "cblas_dgemv");
  lib.get_num_threads = resolve<int (*)()>(handle, prefix, "openblas_get_num_threads");
  return lib.sgemm && lib.dgemm && lib.cgemm && lib.zgemm;
}

}  // namespace

void set_blas_library(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_load_mutex);
  if (path.empty()) {
    g_library.store(nullptr);
    return;
  }
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw ValueError("[set_blas_library] cannot load '" + path + "': " + (why ? why : "unknown"));
  }
  // Libraries stay loaded and descriptors are never freed: a matmul on another thread may still be
  // running through the previous one.
  auto* lib = new BlasLibrary;
  lib->path = path;
  if (!resolve_all(handle, "scipy_", *lib) && !resolve_all(handle, "", *lib)) {
    delete lib;
    dlclose(handle);
    throw ValueError("[set_blas_library] '" + path + "' has no cblas_{s,d,c,z}gemm symbols");
  }
  g_library.store(lib);
}

const BlasLibrary* blas_library() { return g_library.load(std::memory_order_acquire); }

std::string blas_info() {
  const BlasLibrary* lib = blas_library();
  if (!lib) return "none (gpupy's built-in matmul kernel)";
  std::string name = lib->prefix == "scipy_" ? "scipy_openblas" : "cblas";
  std::string info = name + " (" + lib->path + ")";
  if (lib->get_num_threads) info += ", " + std::to_string(lib->get_num_threads()) + " threads";
  return info;
}

}  // namespace gpupy::cpu
