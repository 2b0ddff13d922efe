// Reductions front end: axes, keepdims, accumulator dtypes; mean/var/std composed from sum and
// elementwise ops so that backends implement only the ReduceOp kinds. Host only.
#include <algorithm>
#include <string>

#include "../backend/backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "shape_util.h"

namespace gpupy {
namespace {

/// `a` with its kept axes first and its reduced axes (ascending) last, plus the result shapes.
struct Plan {
  Array in;
  int n_reduced = 0;
  Shape out_shape;    // kept axes only
  Shape keep_shape;   // reduced axes as 1
  int64_t count = 1;  // number of reduced elements per output
};

Plan make_plan(const Array& a, const Axes& axes, const char* op) {
  int nd = a.ndim();
  std::vector<bool> reduced(nd, !axes.has_value());
  if (axes) {
    for (int ax : *axes) {
      int d = normalize_axis(ax, nd, op);
      if (reduced[d]) throw ValueError(op_message(op, "duplicate value in 'axis'"));
      reduced[d] = true;
    }
  }
  Plan plan;
  Shape shape;
  Strides strides;
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < nd; ++d) {
      if (reduced[d] != (pass == 1)) continue;
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
      if (pass == 0) plan.out_shape.push_back(a.shape()[d]);
    }
  for (int d = 0; d < nd; ++d) {
    plan.keep_shape.push_back(reduced[d] ? 1 : a.shape()[d]);
    if (reduced[d]) {
      plan.count *= a.shape()[d];
      ++plan.n_reduced;
    }
  }
  plan.in = a.view(shape, strides, a.offset());
  return plan;
}

Array with_keepdims(const Array& out, const Plan& plan, bool keepdims) {
  if (!keepdims) return out;
  return out.view(plan.keep_shape, c_strides(plan.keep_shape, out.itemsize()), out.offset());
}

/// Runs one backend reduction of `a` (cast to `in_dtype` first) into a new `out_dtype` array.
Array reduce_op(ReduceOp op, const Array& a, const Axes& axes, bool keepdims, DType in_dtype,
                DType out_dtype, const char* name) {
  Plan plan = make_plan(a, axes, name);
  bool needs_identity = op == ReduceOp::min || op == ReduceOp::max || op == ReduceOp::argmin ||
                        op == ReduceOp::argmax;
  if (needs_identity && plan.count == 0) {
    if (op == ReduceOp::argmin || op == ReduceOp::argmax)
      throw ValueError(
          op_message(name, std::string("attempt to get ") + name + " of an empty sequence"));
    throw ValueError(op_message(name, std::string("zero-size array to reduction operation ") +
                                          (op == ReduceOp::min ? "minimum" : "maximum") +
                                          " which has no identity"));
  }
  Array in = plan.in;
  // Backends count a sum of bool into int64 without the cast (an 8x larger copy).
  const bool count = op == ReduceOp::sum && in.dtype() == DType::bool_ &&
                     in_dtype == DType::int64 && out_dtype == DType::int64;
  if (!count) in = kernel_input(in, in_dtype);
  Array out = Array::empty(plan.out_shape, kernel_dtype(out_dtype), a.device());
  if (out.size() > 0) backend_for(a.device()).reduce(ReduceCall{op, in, plan.n_reduced, out});
  if (out.dtype() != out_dtype) out = astype(out, out_dtype);
  return with_keepdims(out, plan, keepdims);
}

int64_t reduced_count(const Array& a, const Axes& axes, const char* op) {
  return make_plan(a, axes, op).count;
}

/// mean's dtype: integers and bools average in float64, inexact dtypes keep theirs.
DType mean_dtype(DType dt, std::optional<DType> requested) {
  if (requested) return *requested;
  return is_inexact(dt) ? dt : DType::float64;
}

}  // namespace

Array sum(const Array& a, const Axes& axes, bool keepdims, std::optional<DType> dtype) {
  DType acc = accumulator_dtype(a.dtype(), dtype);
  return reduce_op(ReduceOp::sum, a, axes, keepdims, acc, acc, "sum");
}

Array prod(const Array& a, const Axes& axes, bool keepdims, std::optional<DType> dtype) {
  DType acc = accumulator_dtype(a.dtype(), dtype);
  return reduce_op(ReduceOp::prod, a, axes, keepdims, acc, acc, "prod");
}

Array mean(const Array& a, const Axes& axes, bool keepdims, std::optional<DType> dtype) {
  DType dt = mean_dtype(a.dtype(), dtype);
  int64_t count = reduced_count(a, axes, "mean");
  // As NumPy: sum in `dt` (float16 in float32), divide (in float64 when `dt` is an integer),
  // cast back to `dt`.
  DType work = kernel_dtype(dt);
  // The float64 sum of bools is their count, exactly (below 2**53): counted without the cast.
  Array total =
      a.dtype() == DType::bool_ && work == DType::float64
          ? astype(reduce_op(ReduceOp::sum, a, axes, keepdims, DType::int64, DType::int64, "mean"),
                   work)
          : reduce_op(ReduceOp::sum, a, axes, keepdims, dt == DType::float16 ? dt : work, work,
                      "mean");
  Array result = divide(total, Scalar(static_cast<double>(count), /*weak=*/true));
  return result.dtype() == dt ? result : astype(result, dt);
}

Array var(const Array& a, const Axes& axes, double ddof, bool keepdims,
          std::optional<DType> dtype) {
  // As NumPy: the mean is summed and kept in `dtype` (complex data summed in a real dtype keeps
  // the real parts), the deviations take the promoted dtype and their squares are summed in
  // `dtype` again.
  DType dt = mean_dtype(a.dtype(), dtype);
  int64_t count = reduced_count(a, axes, "var");
  Array centred = subtract(a, mean(a, axes, /*keepdims=*/true, dt));
  // |x - mean|^2 without the rounding of a square root, real even for complex input.
  Array squared = is_complex(centred.dtype()) ? add(square(real(centred)), square(imag(centred)))
                                              : square(centred);
  DType acc = dtype ? *dtype : squared.dtype();
  Array total = reduce_op(ReduceOp::sum, squared, axes, keepdims, acc, acc, "var");
  double divisor = std::max(static_cast<double>(count) - ddof, 0.0);
  Array result = divide(total, Scalar(divisor, /*weak=*/true));
  return result.dtype() == acc ? result : astype(result, acc);  // an integer dtype= truncates
}

Array std(const Array& a, const Axes& axes, double ddof, bool keepdims,
          std::optional<DType> dtype) {
  Array variance = var(a, axes, ddof, keepdims, dtype);
  Array result = sqrt(variance);
  return result.dtype() == variance.dtype() ? result : astype(result, variance.dtype());
}

Array min(const Array& a, const Axes& axes, bool keepdims) {
  return reduce_op(ReduceOp::min, a, axes, keepdims, a.dtype(), a.dtype(), "min");
}

Array max(const Array& a, const Axes& axes, bool keepdims) {
  return reduce_op(ReduceOp::max, a, axes, keepdims, a.dtype(), a.dtype(), "max");
}

Array any(const Array& a, const Axes& axes, bool keepdims) {
  return reduce_op(ReduceOp::any, a, axes, keepdims, a.dtype(), DType::bool_, "any");
}

Array all(const Array& a, const Axes& axes, bool keepdims) {
  return reduce_op(ReduceOp::all, a, axes, keepdims, a.dtype(), DType::bool_, "all");
}

Array argmin(const Array& a, std::optional<int> axis, bool keepdims) {
  Axes axes = axis ? Axes(std::vector<int>{*axis}) : std::nullopt;
  return reduce_op(ReduceOp::argmin, a, axes, keepdims, a.dtype(), DType::int64, "argmin");
}

Array argmax(const Array& a, std::optional<int> axis, bool keepdims) {
  Axes axes = axis ? Axes(std::vector<int>{*axis}) : std::nullopt;
  return reduce_op(ReduceOp::argmax, a, axes, keepdims, a.dtype(), DType::int64, "argmax");
}

}  // namespace gpupy
