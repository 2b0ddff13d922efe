// Selection: where, clip, triangles and diagonals. Host only.
#include <algorithm>
#include <string>

#include "../backend/backend.h"
#include "elementwise_rules.h"
#include "gpupy/error.h"
#include "shape_util.h"

namespace gpupy {
namespace {

Device operands_device(const std::vector<Operand>& inputs, const char* op) {
  std::optional<Device> device;
  for (const Operand& x : inputs) {
    if (!x.is_array()) continue;
    if (device && *device != x.array().device())
      throw ValueError(op_message(op, "operands are on different devices (" + device->str() +
                                          " and " + x.array().device().str() +
                                          "); move one with to_device()"));
    device = x.array().device();
  }
  return device.value_or(default_device());
}

bool out_of_range_int(const Operand& x, DType dt) {
  return !x.is_array() && x.scalar().weak() && is_integer(x.scalar().dtype()) && is_integer(dt) &&
         !x.scalar().fits_integer(dt);
}

// NumPy's where casts a Python int that does not fit the array dtype (wrapping) instead of
// raising, so such scalars only count by kind here.
DType where_dtype(const Operand& x1, const Operand& x2) {
  try {
    return result_type({x1, x2}, "where");
  } catch (const OverflowError&) {
    std::vector<Operand> kinds{x1, x2};
    for (Operand& x : kinds)
      if (!x.is_array() && x.scalar().weak() && is_integer(x.scalar().dtype()))
        x = Scalar(int64_t(0), /*weak=*/true);
    return result_type(kinds, "where");
  }
}

// x cast to dt and broadcast to shape, its axes in the result's memory order
Operand prepare_value(const Operand& x, DType dt, const Shape& shape,
                      const std::vector<int>& axes) {
  if (!x.is_array()) return x.scalar().cast(dt);
  return permuted_view(broadcast_to(astype(x.array(), dt, 'K', false), shape), axes);
}

}  // namespace

Array where(const Operand& condition, const Operand& x1, const Operand& x2) {
  Device device = operands_device({condition, x1, x2}, "where");
  DType dt = where_dtype(x1, x2);
  Array cond = condition.is_array()
                   ? condition.array()
                   : full({}, condition.scalar().cast(DType::bool_), DType::bool_, device);
  Shape shape = cond.shape();
  for (const Operand& x : {x1, x2})
    if (x.is_array()) shape = broadcast_shapes(shape, x.array().shape(), "where");
  // NumPy's iterator lays the result out (order='K') as the condition and values are
  std::vector<const Array*> arrays{&cond};
  for (const Operand* x : {&x1, &x2})
    if (x->is_array()) arrays.push_back(&x->array());
  const std::vector<int> axes = iteration_axes(shape, arrays, 'K');
  Array out = empty_in_layout(shape, dt, device, axes);
  if (out.size() == 0) return out;
  Operand a = prepare_value(x1, dt, shape, axes), b = prepare_value(x2, dt, shape, axes);
  Operand c = prepare_value(cond, DType::bool_, shape, axes);
  backend_for(device).where(c.array(), a, b, permuted_view(out, axes));
  return out;
}

Array clip(const Array& x, const std::optional<Operand>& min, const std::optional<Operand>& max) {
  // NumPy 2 drops a Python-int bound beyond the dtype's range on its own side (uint8 >= -1 always
  // holds); a bound beyond the other side still raises OverflowError through the promotion.
  auto beyond = [&](const std::optional<Operand>& b, bool below) {
    if (!b || !out_of_range_int(*b, x.dtype())) return false;
    const Scalar& s = b->scalar();
    bool negative = s.dtype() != DType::uint64 && s.to_int64() < 0;
    return negative == below;
  };
  std::optional<Operand> lo = beyond(min, true) ? std::nullopt : min;
  std::optional<Operand> hi = beyond(max, false) ? std::nullopt : max;
  std::vector<Operand> all{x};
  if (lo) all.push_back(*lo);
  if (hi) all.push_back(*hi);
  DType dt = result_type(all, "clip");
  Array r = astype(x, dt, 'K', /*copy_always=*/false);
  if (lo && hi) return elementwise(ElementwiseOp::clip, {r, *lo, *hi});  // one pass
  if (lo) return maximum(r, *lo);
  if (hi) return minimum(r, *hi);
  return copy(r);
}

namespace {

// cols - rows <= k (lower) or >= k (upper), shaped (rows, cols) to broadcast over the batch.
Array triangle(const Array& m, int64_t k, bool lower, const char* op) {
  if (m.ndim() == 0)
    throw TypeError(op_message(op, "input must be at least 1-dimensional"));  // as NumPy
  int64_t n_rows = m.ndim() >= 2 ? m.shape()[m.ndim() - 2] : m.shape()[0];
  int64_t n_cols = m.shape().back();
  Scalar zero(int64_t(0)), one(int64_t(1));
  Array rows = reshape(arange(zero, Scalar(n_rows), one, DType::int64, m.device()), {n_rows, 1});
  Array cols = arange(zero, Scalar(n_cols), one, DType::int64, m.device());
  Array diff = subtract(cols, rows);
  Scalar kk(k, /*weak=*/true);
  Array mask = lower ? less_equal(diff, kk) : greater_equal(diff, kk);
  return where(mask, m, Scalar(int64_t(0)).cast(m.dtype()));
}

}  // namespace

Array tril(const Array& m, int64_t k) { return triangle(m, k, true, "tril"); }
Array triu(const Array& m, int64_t k) { return triangle(m, k, false, "triu"); }

Array diagonal(const Array& a, int64_t offset, int axis1, int axis2) {
  if (a.ndim() < 2)
    throw ValueError("[diagonal] diag requires an array of at least two dimensions");
  int i = normalize_axis(axis1, a.ndim(), "diagonal");
  int j = normalize_axis(axis2, a.ndim(), "diagonal");
  if (i == j) throw ValueError("[diagonal] axis1 and axis2 cannot be the same");
  Shape shape;
  Strides strides;
  for (int d = 0; d < a.ndim(); ++d)
    if (d != i && d != j) {
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
  int64_t rows = a.shape()[i] - std::max<int64_t>(0, -offset);
  int64_t cols = a.shape()[j] - std::max<int64_t>(0, offset);
  int64_t length = std::max<int64_t>(0, std::min(rows, cols));
  int64_t start = a.offset();
  if (length > 0) start += offset >= 0 ? offset * a.strides()[j] : -offset * a.strides()[i];
  shape.push_back(length);
  strides.push_back(a.strides()[i] + a.strides()[j]);
  // Read-only as NumPy's: writes through it would surprise code written against NumPy.
  return Array(a.buffer(), start, shape, strides, a.dtype(), true);
}

Array trace(const Array& a, int64_t offset, int axis1, int axis2, std::optional<DType> dtype) {
  Array d = diagonal(a, offset, axis1, axis2);
  return sum(d, std::vector<int>{-1}, false, dtype);
}

Array diag(const Array& v, int64_t k) {
  if (v.ndim() == 2) return diagonal(v, k, 0, 1);
  if (v.ndim() != 1) throw ValueError("[diag] Input must be 1- or 2-d.");
  int64_t n = v.shape()[0] + (k < 0 ? -k : k);
  Array out = zeros({n, n}, v.dtype(), v.device());
  if (v.size() == 0) return out;
  Array d = diagonal(out, k, 0, 1);
  backend_for(v.device()).copy(v, d);
  return out;
}

}  // namespace gpupy
