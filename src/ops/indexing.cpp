// Basic indexing front end (to be completed). Host only.
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {

Array getitem(const Array&, const std::vector<IndexItem>&) {
  throw NotImplementedError("[getitem] not implemented yet");
}
void setitem(const Array&, const std::vector<IndexItem>&, const Operand&) {
  throw NotImplementedError("[setitem] not implemented yet");
}

}  // namespace gpupy
