// Stands in for the emu backend in builds without it. Host only.
#include "gpupy/error.h"
#include "registry.h"

namespace gpupy {

Backend& emu_backend() {
  throw NotImplementedError("[emu] gpupy was built without the emu device");
}

}  // namespace gpupy
