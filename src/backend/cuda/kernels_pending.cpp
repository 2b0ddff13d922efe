// Temporary stand-ins for the CUDA kernels (kernels.h) until their .cu files are merged; delete
// this file then. Host only.
#include "gpupy/error.h"
#include "kernels.h"

namespace gpupy::cuda {
namespace {
[[noreturn]] void pending(const char* op) {
  throw NotImplementedError(std::string("[") + op + "] not implemented on cuda yet");
}
}  // namespace

void launch_copy(const Array&, const Array&, Stream) { pending("copy"); }
void launch_fill(const Array&, const Scalar&, Stream) { pending("fill"); }
void launch_iota(const Array&, const Scalar&, const Scalar&, Stream) { pending("arange"); }
void launch_elementwise(const ElementwiseCall& call, Stream) { pending(op_name(call.op)); }
void launch_reduce(const ReduceCall&, Stream) { pending("reduce"); }
void launch_matmul(const Array&, const Array&, const Array&, Stream) { pending("matmul"); }

}  // namespace gpupy::cuda
