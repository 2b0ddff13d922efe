// Reductions front end: axes, keepdims, accumulator dtypes; mean/var/std composed from sum and
// elementwise ops so that backends implement only the ReduceOp kinds. Host only.
#include <algorithm>
#include <numeric>
#include <string>

#include "../backend/backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "shape_util.h"

namespace gpupy {
namespace {

/// `a` with its kept axes first, in the result's memory order, and its reduced axes (ascending)
/// last, plus the result shapes.
struct Plan {
  Array in;
  int n_reduced = 0;
  Shape out_shape;         // kept axes only, in memory order (the backend's C-ordered output)
  Shape keep_shape;        // all axes in their order, reduced axes as 1
  std::vector<int> order;  // every axis, outermost first: the result's layout
  std::vector<bool> reduced;
  int64_t count = 1;  // number of reduced elements per output
};

// As NumPy's: the result keeps the order of a's strides (order='K'), except argmin and argmax,
// which NumPy allocates C-ordered.
Plan make_plan(const Array& a, const Axes& axes, const char* op, bool keep_layout = true) {
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
  plan.order.resize(static_cast<size_t>(nd));
  std::iota(plan.order.begin(), plan.order.end(), 0);
  if (keep_layout && !a.is_c_contiguous()) plan.order = iteration_axes(a.shape(), {&a}, 'K');
  Shape shape;
  Strides strides;
  for (int pass = 0; pass < 2; ++pass)
    for (int i = 0; i < nd; ++i) {
      const int d = pass == 0 ? plan.order[static_cast<size_t>(i)] : i;
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
  plan.reduced = reduced;
  return plan;
}

// The backend's output (C-ordered, kept axes in memory order) as the result: its axes back in
// a's order, with the reduced ones as length-1 axes when keepdims.
Array laid_out(const Array& out, const Plan& plan, bool keepdims) {
  const bool c_ordered = std::is_sorted(plan.order.begin(), plan.order.end());
  if (c_ordered && !keepdims) return out;
  const Strides strides = strides_in_order(plan.keep_shape, out.itemsize(), plan.order);
  if (keepdims) return out.view(plan.keep_shape, strides, out.offset());
  Shape kept_shape;
  Strides kept_strides;
  for (size_t d = 0; d < plan.keep_shape.size(); ++d)
    if (!plan.reduced[d]) {
      kept_shape.push_back(plan.keep_shape[d]);
      kept_strides.push_back(strides[d]);
    }
  return out.view(kept_shape, kept_strides, out.offset());
}

/// Runs one backend reduction of `a` (cast to `in_dtype` first) into a new `out_dtype` array,
/// cast to `result_dtype` when given.
Array reduce_op(ReduceOp op, const Array& a, const Axes& axes, bool keepdims, DType in_dtype,
                DType out_dtype, const char* name,
                std::optional<DType> result_dtype = std::nullopt) {
  const bool arg = op == ReduceOp::argmin || op == ReduceOp::argmax;
  Plan plan = make_plan(a, axes, name, /*keep_layout=*/!arg);
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
  if (out.dtype() != result_dtype.value_or(out_dtype))
    out = astype(out, result_dtype.value_or(out_dtype));
  return laid_out(out, plan, keepdims);
}

int64_t reduced_count(const Array& a, const Axes& axes, const char* op) {
  return make_plan(a, axes, op).count;
}

/// total / divisor, into `total` (a reduction's own result) when its dtype holds the quotient, as
/// NumPy's mean and var divide, so the result keeps the reduction's layout.
Array divide_in_place(const Array& total, double divisor) {
  Scalar d(divisor, /*weak=*/true);
  return is_inexact(total.dtype()) ? divide(total, d, &total) : divide(total, d);
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
          ? reduce_op(ReduceOp::sum, a, axes, keepdims, DType::int64, DType::int64, "mean", work)
          : reduce_op(ReduceOp::sum, a, axes, keepdims, dt == DType::float16 ? dt : work, work,
                      "mean");
  Array result = divide_in_place(total, static_cast<double>(count));
  return result.dtype() == dt ? result : astype(result, dt, 'K', true);
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
  Array result = divide_in_place(total, divisor);
  // an integer dtype= truncates
  return result.dtype() == acc ? result : astype(result, acc, 'K', true);
}

Array std(const Array& a, const Axes& axes, double ddof, bool keepdims,
          std::optional<DType> dtype) {
  Array variance = var(a, axes, ddof, keepdims, dtype);
  // in place where the dtype allows, as NumPy, so the result keeps the reduction's layout
  Array result = is_inexact(variance.dtype()) ? sqrt(variance, &variance) : sqrt(variance);
  return result.dtype() == variance.dtype() ? result : astype(result, variance.dtype(), 'K', true);
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
