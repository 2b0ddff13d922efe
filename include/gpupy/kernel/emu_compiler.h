// Run-time compilation of user CUDA kernels for the emu device: the host compiler builds the source
// against cuda_emu.h into a shared library with one C-ABI launch entry per kernel. Host only.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gpupy/emu/runtime.h"
#include "gpupy/emu/types.h"
#include "gpupy/error.h"

namespace gpupy::kernel {

/// The host compiler rejected a kernel source (Python RuntimeError); what() holds its log.
class CompileError : public Error {
 public:
  using Error::Error;
};

/// One `__global__` function of a source and its parameter C types in order ("const double*").
struct KernelEntry {
  std::string name;
  std::vector<std::string> param_types;
  std::string call;  ///< what the entry calls ("k<double, 3>" for a template); empty: name
};

struct EmuCompileOptions {
  std::vector<std::string> options;       ///< extra compiler flags ("-DN=4", "-O3")
  std::vector<std::string> include_dirs;  ///< searched for the source's `#include "..."`
  std::string cache_dir;                  ///< default: $GPUPY_CACHE_DIR or ~/.cache/gpupy/emu
};

/// A loaded compiled source; launching is thread-safe.
class EmuModule {
 public:
  EmuModule(const EmuModule&) = delete;
  EmuModule& operator=(const EmuModule&) = delete;
  ~EmuModule();

  /// Loads a library built by compile_emu (dlopen + one dlsym per kernel); Error when it fails.
  static std::shared_ptr<EmuModule> load(const std::string& path, std::vector<KernelEntry> kernels);

  /// Runs kernel `name`; args[i] points to the i-th argument's value (as cuLaunchKernel's
  /// kernelParams). Unknown name: ValueError. A failing kernel raises as emu::launch does.
  void launch(const std::string& name, emu::dim3 grid, emu::dim3 block, std::size_t shared_bytes,
              void** args) const;
  /// The kernels as given to compile_emu.
  const std::vector<KernelEntry>& kernels() const { return kernels_; }
  /// The entry for `name`; ValueError when the module has no such kernel.
  const KernelEntry& kernel(const std::string& name) const;
  /// Path of the shared library in the on-disk cache.
  const std::string& path() const { return path_; }

 private:
  using Entry = void (*)(const emu::LaunchConfig* config, void** args);
  EmuModule(void* handle, std::string path, std::vector<KernelEntry> kernels);

  void* handle_;
  std::string path_;
  std::vector<KernelEntry> kernels_;
  std::map<std::string, Entry> entries_;
};

/// Compiles `source` (or finds it in the in-memory or on-disk cache) and loads it. Throws
/// CompileError with the compiler's log when the source does not compile.
std::shared_ptr<EmuModule> compile_emu(const std::string& source,
                                       const std::vector<KernelEntry>& kernels,
                                       const EmuCompileOptions& options = {});

/// Parameter types of `__global__ void name(...)` in source, names dropped ("const float*", "int").
/// ValueError when no such kernel exists; NotImplementedError for template kernels.
std::vector<std::string> parameter_types(const std::string& source, const std::string& name);

/// The include directory holding gpupy/emu/cuda_emu.h: $GPUPY_INCLUDE_DIR, else include/ next to
/// libgpupy_emu.so (an installed package), else the source tree's.
std::string emu_include_dir();

namespace testing {
/// How often this process ran the host compiler on a kernel source (for cache tests).
unsigned long long compiler_invocations();
/// Forgets the in-memory cache so the next compile_emu consults the disk cache.
void clear_memory_cache();
}  // namespace testing

}  // namespace gpupy::kernel
