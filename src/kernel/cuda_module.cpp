// The CUDA driver API resolved lazily from libcuda.so.1 (types and functions declared here, no
// CUDA headers), and CudaModule on top of it. Host only.
#include "kernel/cuda_module.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "core/cuda_library.h"
#include "gpupy/error.h"

namespace gpupy::kernel {
namespace {

using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
using CUmodule = void*;
using CUfunction = void*;
using CUstream = void*;
constexpr CUresult CUDA_SUCCESS = 0;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2;  // then Y = 3, Z = 4
constexpr int CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5;   // then Y = 6, Z = 7
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8;
constexpr int CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97;
constexpr int CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0;
constexpr int CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1;
constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;

struct DriverApi {
  CUresult (*init)(unsigned);
  CUresult (*get_error_name)(CUresult, const char**);
  CUresult (*get_error_string)(CUresult, const char**);
  CUresult (*device_get)(CUdevice*, int);
  CUresult (*device_get_attribute)(int*, int, CUdevice);
  CUresult (*device_get_name)(char*, int, CUdevice);
  CUresult (*primary_ctx_retain)(CUcontext*, CUdevice);
  CUresult (*ctx_push)(CUcontext);
  CUresult (*ctx_pop)(CUcontext*);
  CUresult (*module_load_data)(CUmodule*, const void*);
  CUresult (*module_unload)(CUmodule);
  CUresult (*module_get_function)(CUfunction*, CUmodule, const char*);
  CUresult (*func_set_attribute)(CUfunction, int, int);
  CUresult (*func_get_attribute)(int*, int, CUfunction);
  CUresult (*launch_kernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                            unsigned, CUstream, void**, void**);
};

struct Loaded {
  DriverApi api{};
  std::string error;  // empty when the driver is usable
};

template <class Fn>
void resolve(void* lib, const char* symbol, Fn& fn, std::string& error) {
  resolve_symbol(lib, symbol, fn, error, "libcuda");
}

std::string describe(const DriverApi& api, CUresult r) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.get_error_name) api.get_error_name(r, &name);
  if (api.get_error_string) api.get_error_string(r, &text);
  std::string s = name ? name : "CUDA driver error " + std::to_string(r);
  if (text) s += std::string(": ") + text;
  return s;
}

/// libcuda.so.1 (or $GPUPY_LIBCUDA_PATH), or nullptr with `error` saying why it did not load.
void* open_libcuda(std::string& error) {
  const char* path = std::getenv("GPUPY_LIBCUDA_PATH");
  const char* name = path && *path ? path : "libcuda.so.1";
  void* lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char* why = dlerror();
    error = "no CUDA driver: cannot load " + std::string(name) + " (" +
            (why ? why : "unknown reason") + ")";
  }
  return lib;
}

Loaded load() {
  Loaded out;
  void* lib = open_libcuda(out.error);
  if (!lib) return out;
  DriverApi& a = out.api;
  resolve(lib, "cuInit", a.init, out.error);
  resolve(lib, "cuGetErrorName", a.get_error_name, out.error);
  resolve(lib, "cuGetErrorString", a.get_error_string, out.error);
  resolve(lib, "cuDeviceGet", a.device_get, out.error);
  resolve(lib, "cuDeviceGetAttribute", a.device_get_attribute, out.error);
  resolve(lib, "cuDeviceGetName", a.device_get_name, out.error);
  resolve(lib, "cuDevicePrimaryCtxRetain", a.primary_ctx_retain, out.error);
  resolve(lib, "cuCtxPushCurrent_v2", a.ctx_push, out.error);
  resolve(lib, "cuCtxPopCurrent_v2", a.ctx_pop, out.error);
  resolve(lib, "cuModuleLoadData", a.module_load_data, out.error);
  resolve(lib, "cuModuleUnload", a.module_unload, out.error);
  resolve(lib, "cuModuleGetFunction", a.module_get_function, out.error);
  resolve(lib, "cuFuncSetAttribute", a.func_set_attribute, out.error);
  resolve(lib, "cuFuncGetAttribute", a.func_get_attribute, out.error);
  resolve(lib, "cuLaunchKernel", a.launch_kernel, out.error);
  if (out.error.empty()) {
    if (CUresult r = a.init(0); r != CUDA_SUCCESS)
      out.error = "the CUDA driver cannot be initialised: " + describe(a, r);
  }
  return out;
}

const DriverApi& driver() {
  static const Loaded loaded = load();
  if (!loaded.error.empty()) throw CudaError("[cuda] " + loaded.error);
  return loaded.api;
}

void check(CUresult r, const char* call) {
  if (r == CUDA_SUCCESS) return;
  throw CudaError(std::string("[cuda] ") + call + " failed: " + describe(driver(), r));
}

CUdevice device_handle(int device) {
  CUdevice dev = 0;
  check(driver().device_get(&dev, device), "cuDeviceGet");
  return dev;
}

/// RAII: makes ctx current on this thread until destroyed.
class ContextScope {
 public:
  explicit ContextScope(CUcontext ctx) { check(driver().ctx_push(ctx), "cuCtxPushCurrent"); }
  ~ContextScope() {
    CUcontext ignored = nullptr;
    driver().ctx_pop(&ignored);
  }
  ContextScope(const ContextScope&) = delete;
  ContextScope& operator=(const ContextScope&) = delete;
};

// The launch limits of every supported GPU (the emu device checks the same ones), as a
// ValueError naming the kernel rather than the driver's bare CUDA_ERROR_INVALID_VALUE.
void check_launch_shape(const std::string& kernel, const unsigned grid[3],
                        const unsigned block[3]) {
  auto dims = [](const unsigned d[3]) {
    std::string s = "(";  // appended, not "(" + ...: GCC 12 warns falsely on that (-Wrestrict)
    for (int k = 0; k < 3; ++k) s += std::to_string(d[k]) + (k < 2 ? ", " : ")");
    return s;
  };
  std::string problem;
  const unsigned long long threads = 1ull * block[0] * block[1] * block[2];
  if (!grid[0] || !grid[1] || !grid[2] || !threads)
    problem = "grid " + dims(grid) + " or block " + dims(block) + " has a zero dimension";
  else if (threads > 1024)
    problem = "block " + dims(block) + " has " + std::to_string(threads) + " threads (max 1024)";
  else if (block[2] > 64)
    problem = "block " + dims(block) + ": block.z is limited to 64";
  else if (grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535)
    problem = "grid " + dims(grid) + " exceeds (2147483647, 65535, 65535)";
  if (!problem.empty()) throw ValueError("[cuda] kernel '" + kernel + "': " + problem);
}

}  // namespace

int cuda_driver_version(std::string* reason) {
  struct Version {
    int value = 0;
    std::string error;
  };
  // cuDriverGetVersion needs no cuInit, so a driver that sees no GPU still reports its version.
  static const Version version = [] {
    Version v;
    void* lib = open_libcuda(v.error);
    if (!lib) return v;
    CUresult (*get_version)(int*) = nullptr;
    if (!resolve_symbol(lib, "cuDriverGetVersion", get_version, v.error, "libcuda")) return v;
    DriverApi api{};
    std::string ignored;  // the error-name lookups only improve the message
    resolve(lib, "cuGetErrorName", api.get_error_name, ignored);
    resolve(lib, "cuGetErrorString", api.get_error_string, ignored);
    if (CUresult r = get_version(&v.value); r != CUDA_SUCCESS) {
      v.value = 0;
      v.error = "cuDriverGetVersion failed: " + describe(api, r);
      if (r == 34) v.error += " (this libcuda is the CUDA toolkit's stub, not a driver)";
    }
    return v;
  }();
  if (reason) *reason = version.error;
  return version.value;
}

std::string cuda_device_arch(int device) {
  const DriverApi& api = driver();
  CUdevice dev = device_handle(device);
  int major = 0, minor = 0;
  check(api.device_get_attribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev),
        "cuDeviceGetAttribute");
  check(api.device_get_attribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev),
        "cuDeviceGetAttribute");
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

CudaLaunchLimits cuda_launch_limits(int device) {
  const DriverApi& api = driver();
  CUdevice dev = device_handle(device);
  auto attribute = [&](int which) {
    int v = 0;
    check(api.device_get_attribute(&v, which, dev), "cuDeviceGetAttribute");
    return v;
  };
  CudaLaunchLimits l;
  char name[256] = {};
  check(api.device_get_name(name, sizeof name - 1, dev), "cuDeviceGetName");
  l.name = name;
  for (int k = 0; k < 3; ++k) {
    l.max_block[k] = attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + k);
    l.max_grid[k] = attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + k);
  }
  l.max_threads_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
  l.shared_per_block = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
  l.shared_per_block_optin = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
  return l;
}

std::shared_ptr<CudaModule> CudaModule::load(
    int device, const std::string& cubin,
    const std::vector<std::pair<std::string, std::string>>& kernels) {
  const DriverApi& api = driver();
  CUcontext ctx = nullptr;
  check(api.primary_ctx_retain(&ctx, device_handle(device)), "cuDevicePrimaryCtxRetain");
  ContextScope scope(ctx);
  CUmodule mod = nullptr;
  check(api.module_load_data(&mod, cubin.data()), "cuModuleLoadData");
  std::shared_ptr<CudaModule> m(new CudaModule(device, ctx, mod));
  for (const auto& [expression, lowered] : kernels) {
    CUfunction f = nullptr;
    check(api.module_get_function(&f, mod, lowered.c_str()), "cuModuleGetFunction");
    m->functions_[expression] = f;
  }
  return m;
}

CudaModule::~CudaModule() {
  // Modules live as long as their kernels are cached, usually until exit; the primary context
  // stays retained (the CUDA runtime shares it).
  if (mod_) {
    const DriverApi& api = driver();
    CUcontext ignored = nullptr;
    if (api.ctx_push(ctx_) == CUDA_SUCCESS) {
      api.module_unload(mod_);
      api.ctx_pop(&ignored);
    }
  }
}

void* CudaModule::function(const std::string& expression) const {
  auto it = functions_.find(expression);
  if (it == functions_.end())
    throw ValueError("[cuda] the module has no kernel '" + expression + "'");
  return it->second;
}

CudaKernelAttributes CudaModule::attributes(const std::string& expression) const {
  CUfunction f = function(expression);
  const DriverApi& api = driver();
  ContextScope scope(ctx_);
  CudaKernelAttributes a;
  check(
      api.func_get_attribute(&a.max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f),
      "cuFuncGetAttribute");
  check(api.func_get_attribute(&a.static_shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f),
        "cuFuncGetAttribute");
  return a;
}

void CudaModule::set_max_dynamic_shared_bytes(const std::string& expression, int bytes) const {
  CUfunction f = function(expression);
  ContextScope scope(ctx_);
  check(driver().func_set_attribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes),
        "cuFuncSetAttribute");
}

void CudaModule::launch(const std::string& expression, const unsigned grid[3],
                        const unsigned block[3], std::size_t shared_bytes, std::uintptr_t stream,
                        void** args) const {
  CUfunction f = function(expression);
  check_launch_shape(expression, grid, block);
  const DriverApi& api = driver();
  ContextScope scope(ctx_);
  // Dynamic shared memory beyond 48 KiB needs the opt-in attribute: CudaKernel raises it (and
  // validates the size against the device) before launching.
  check(api.launch_kernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                          static_cast<unsigned>(shared_bytes), reinterpret_cast<CUstream>(stream),
                          args, nullptr),
        "cuLaunchKernel");
}

}  // namespace gpupy::kernel
