// Small shape helpers shared by the op front ends. Host only.
#pragma once

#include <optional>
#include <string>

#include "gpupy/array.h"
#include "gpupy/dtype.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {

/// `a` cast to the kernel dtype of an accumulation in `dt`: a float16 `dt` rounds the input to
/// float16 first, as NumPy's cast does (7e4 becomes inf), and gpupy then sums it in float32.
inline Array kernel_input(const Array& a, DType dt) {
  Array in = (dt == DType::float16 && a.dtype() != dt) ? astype(a, dt) : a;
  return in.dtype() == kernel_dtype(dt) ? in : astype(in, kernel_dtype(dt));
}

/// "(3, 4)" / "(3,)" / "()", NumPy's spelling of a shape.
inline std::string shape_str(const Shape& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

/// NumPy's accumulator dtype for sum, prod, cumsum and cumprod unless `requested`: bool and
/// small integers widen to 64 bits of their signedness; floats and complex keep their dtype.
inline DType accumulator_dtype(DType dt, std::optional<DType> requested) {
  if (requested) return *requested;
  switch (dtype_kind(dt)) {
    case DTypeKind::boolean:
    case DTypeKind::signed_int:
      return DType::int64;
    case DTypeKind::unsigned_int:
      return DType::uint64;
    default:
      return dt;
  }
}

/// Maps a possibly negative axis into [0, ndim); throws the NumPy AxisError (an IndexError).
inline int normalize_axis(int axis, int ndim, const char* op) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError(op_message(op, "axis " + std::to_string(axis) +
                                       " is out of bounds for array of dimension " +
                                       std::to_string(ndim)));
  return axis < 0 ? axis + ndim : axis;
}

}  // namespace gpupy
