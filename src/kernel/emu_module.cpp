// Loading and launching run-time compiled emu kernels, and finding the headers and runtime library
// that they are compiled against. Host only.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>

#include "gpupy/emu/runtime.h"
#include "gpupy/kernel/emu_compiler.h"

namespace fs = std::filesystem;

namespace gpupy::kernel {

EmuModule::EmuModule(void* handle, std::string path, std::vector<KernelEntry> kernels)
    : handle_(handle), path_(std::move(path)), kernels_(std::move(kernels)) {}

EmuModule::~EmuModule() {
  if (handle_) dlclose(handle_);
}

std::shared_ptr<EmuModule> EmuModule::load(const std::string& path,
                                           std::vector<KernelEntry> kernels) {
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw Error(std::string("[emu] loading compiled kernels failed: ") + dlerror());
  std::shared_ptr<EmuModule> module(new EmuModule(handle, path, std::move(kernels)));
  for (const auto& k : module->kernels_) {
    std::string symbol = "gpupy_emu_launch_" + k.name;
    void* entry = dlsym(handle, symbol.c_str());
    if (!entry) throw Error("[emu] " + path + " lacks the launch entry " + symbol);
    module->entries_[k.name] = reinterpret_cast<Entry>(entry);
  }
  return module;
}

const KernelEntry& EmuModule::kernel(const std::string& name) const {
  for (const auto& k : kernels_) {
    if (k.name == name) return k;
  }
  std::string names;
  for (const auto& k : kernels_) names += (names.empty() ? "" : ", ") + k.name;
  throw ValueError("[emu] no kernel '" + name + "' in this module (it has: " + names + ")");
}

void EmuModule::launch(const std::string& name, emu::dim3 grid, emu::dim3 block,
                       std::size_t shared_bytes, void** args) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) kernel(name);  // throws the ValueError
  emu::LaunchConfig config{grid, block, shared_bytes, it->first.c_str(), nullptr};
  it->second(&config, args);
}

namespace detail {

/// The directory of libgpupy_emu.so as loaded in this process.
std::string emu_library_dir() {
  Dl_info info{};
  if (!dladdr(reinterpret_cast<void*>(&emu::launch_erased), &info) || !info.dli_fname) {
    throw Error("[emu] cannot locate libgpupy_emu.so in this process");
  }
  return fs::absolute(info.dli_fname).parent_path().string();
}

}  // namespace detail

std::string emu_include_dir() {
  auto has_headers = [](const fs::path& dir) {
    std::error_code ec;
    return fs::exists(dir / "gpupy" / "emu" / "cuda_emu.h", ec);
  };
  if (const char* env = std::getenv("GPUPY_INCLUDE_DIR"); env && *env) {
    if (!has_headers(env)) {
      throw Error(std::string("[emu] GPUPY_INCLUDE_DIR=") + env + " has no gpupy/emu/cuda_emu.h");
    }
    return env;
  }
  fs::path packaged = fs::path(detail::emu_library_dir()) / "include";
  if (has_headers(packaged)) return packaged.string();
#ifdef GPUPY_SOURCE_INCLUDE_DIR
  if (has_headers(GPUPY_SOURCE_INCLUDE_DIR)) return GPUPY_SOURCE_INCLUDE_DIR;
#endif
  throw Error("[emu] cannot find gpupy's headers next to libgpupy_emu.so; set GPUPY_INCLUDE_DIR");
}

}  // namespace gpupy::kernel
