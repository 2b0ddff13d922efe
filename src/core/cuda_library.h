// Finds and dlopens a CUDA toolkit library (cuBLAS, NVRTC, ...) at first use, so gpupy builds and
// imports on machines without it. Host only.
#pragma once

#include <dlfcn.h>

#include <initializer_list>
#include <string>
#include <utility>

namespace gpupy {

/// dlopen of the first loadable library among `names`: the path in $`env_override` first, then
/// each name on the loader's search path, then under $CUDA_HOME/lib64, $CUDA_PATH/lib64 and
/// /usr/local/cuda/lib64 (a hand-installed toolkit is often not on the search path). Returns
/// nullptr and describes every attempt in `tried` when none loads.
void* open_cuda_library(const char* env_override, std::initializer_list<const char*> names,
                        std::string& tried);

/// Looks up `symbol` in `lib` into the function pointer `fn`; the first missing symbol is named in
/// `error` ("symbol X not found in <library>").
template <class Fn>
bool resolve_symbol(void* lib, const char* symbol, Fn& fn, std::string& error,
                    const char* library) {
  fn = reinterpret_cast<Fn>(dlsym(lib, symbol));
  if (!fn && error.empty()) error = std::string("symbol ") + symbol + " not found in " + library;
  return fn != nullptr;
}

/// A library's entry points, or why they could not all be loaded.
template <class Api>
struct LoadedLibrary {
  Api api{};          // value-initialised: unresolved entry points stay null
  std::string error;  // empty when every required symbol was found
};

/// Opens the first loadable of `names` (as open_cuda_library does) and lets
/// `resolve(lib, api, error)` fill in the entry points; when nothing loads, the error is
/// "cannot load <what> (<every attempt>)<hint>". Callers keep the result in a function-local
/// static, so each library is loaded once, at first use.
template <class Api, class Resolve>
LoadedLibrary<Api> load_cuda_library(const char* env_override,
                                     std::initializer_list<const char*> names, const char* what,
                                     Resolve&& resolve, const char* hint = "") {
  LoadedLibrary<Api> out;
  std::string tried;
  void* lib = open_cuda_library(env_override, names, tried);
  if (!lib) {
    out.error = std::string("cannot load ") + what + " (" + tried + ")" + hint;
    return out;
  }
  std::forward<Resolve>(resolve)(lib, out.api, out.error);
  return out;
}

}  // namespace gpupy
