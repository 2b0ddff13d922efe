// The gpupy._core extension module: binds the C++ API one to one, no logic.
#include "bindings.h"

NB_MODULE(_core, m) {
  using namespace gpupy::py;
  m.doc() = "gpupy's C++ core";
  // Compiled kernels held by module-level catalogs (and nanobind's own caches) are still alive
  // when the interpreter shuts down; that is not a reference leak, so do not report it as one.
  nb::set_leak_warnings(false);
  bind_errors(m);
  bind_device(m);
  bind_array(m);
  bind_elementwise(m);
  bind_ufunc(m);
  bind_creation(m);
  bind_manipulation(m);
  bind_reduction(m);
  bind_linalg(m);
  bind_joining(m);
  bind_sorting(m);
  bind_random(m);
  bind_cuda(m);
  bind_cuda_libs(m);
  bind_kernel(m);
  bind_dlpack(m);
}
