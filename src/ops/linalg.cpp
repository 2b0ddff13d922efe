// Linear algebra front end (to be completed). Host only.
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {

Array matmul(const Array&, const Array&) {
  throw NotImplementedError("[matmul] not implemented yet");
}
Array dot(const Array&, const Array&) { throw NotImplementedError("[dot] not implemented yet"); }

}  // namespace gpupy
