// launch_reduce: collapses the kept and reduced axes, checks the output dtype, picks a plan
// (thread per output, block per output, or several blocks per output plus a second pass) and
// routes to the part holding the op's kernels (reduce_*.cu). Host code; both compilers.
#include "reduce.cuh"

namespace gpupy::GPUPY_KERNEL_NS {
namespace {

// Reduced elements a block handles at least when the range is split (keeps partials few).
constexpr int64_t kMinChunk = int64_t(kBlockSize) * 8;

DType expected_out_dtype(const ReduceCall& call) {
  switch (call.op) {
    case ReduceOp::any:
    case ReduceOp::all:
      return DType::bool_;
    case ReduceOp::argmin:
    case ReduceOp::argmax:
      return DType::int64;
    case ReduceOp::sum:  // a sum of bool may count into int64
      return call.in.dtype() == DType::bool_ && call.out.dtype() == DType::int64 ? DType::int64
                                                                                 : call.in.dtype();
    default:
      return call.in.dtype();
  }
}

}  // namespace

ReducePlan choose_plan(const Layout<2>& kept, const Layout<1>& red) {
  const int64_t outputs = kept.size, reduced = red.size;
  const int64_t kept_step = std::llabs(kept.inner_stride(0));
  const int64_t red_step = std::llabs(red.inner_stride(0));
  // Short ranges, or many outputs that sit closer together than the reduced elements do.
  if (reduced <= 32 || (outputs >= 1024 && kept.shape[kept.ndim - 1] > 1 && kept_step < red_step))
    return {true, 1, reduced};
  int64_t parts = 1;
  if (outputs < max_grid_blocks()) {
    // Few outputs: split each range so that the grid fills the GPU (a full sum of 2^28 values
    // runs on thousands of blocks), then combine the partials in a second pass.
    parts = (max_grid_blocks() + outputs - 1) / outputs;
    parts = std::min(parts, (reduced + kMinChunk - 1) / kMinChunk);
    parts = std::max<int64_t>(parts, 1);
  }
  const int64_t chunk = (reduced + parts - 1) / parts;
  parts = chunk > 0 ? (reduced + chunk - 1) / chunk : 1;
  return {false, std::max<int64_t>(parts, 1), std::max<int64_t>(chunk, 1)};
}

void launch_reduce(const ReduceCall& call, Stream stream) {
  const Array& in = call.in;
  const Array& out = call.out;
  const int n_kept = in.ndim() - call.n_reduced;
  if (call.n_reduced < 0 || n_kept < 0 || out.ndim() != n_kept)
    throw ValueError("[reduce] output rank does not match the kept axes");
  if (out.dtype() != expected_out_dtype(call))
    throw TypeError("[reduce] output dtype " + std::string(dtype_name(out.dtype())) +
                    " does not match the reduction");
  if (out.size() == 0) return;
  const Shape kept_shape(in.shape().begin(), in.shape().begin() + n_kept);
  const Shape red_shape(in.shape().begin() + n_kept, in.shape().end());
  Layout<2> kept(kept_shape, {in.strides().data(), out.strides().data()});
  Layout<1> red(red_shape, {in.strides().data() + n_kept});
  switch (call.op) {
    case ReduceOp::sum:
    case ReduceOp::prod:
      return reduce_sum_prod(call, kept, red, stream);
    case ReduceOp::min:
    case ReduceOp::max:
      return reduce_min_max(call, kept, red, stream);
    case ReduceOp::any:
    case ReduceOp::all:
      return reduce_any_all(call, kept, red, stream);
    default:
      return reduce_arg(call, kept, red, stream);
  }
}

}  // namespace gpupy::GPUPY_KERNEL_NS
