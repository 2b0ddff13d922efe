// Joining, splitting and tiling: allocate the result, then copy into views of it, so every device
// needs only its copy kernel. Host only.
#include <algorithm>
#include <numeric>
#include <string>

#include "../backend/backend.h"
#include "elementwise_rules.h"
#include "gpupy/error.h"
#include "shape_util.h"

namespace gpupy {
namespace {

/// The view a[start:stop] along `axis` (0 <= start <= stop <= length).
Array slice_axis(const Array& a, int axis, int64_t start, int64_t stop) {
  Shape shape = a.shape();
  shape[axis] = stop - start;
  int64_t offset = a.offset() + (stop > start ? start * a.strides()[axis] : 0);
  return Array(a.buffer(), offset, shape, a.strides(), a.dtype(), a.readonly());
}

void copy_into(const Array& src, const Array& dst) {
  if (dst.size() > 0) backend_for(dst.device()).copy(src, dst);
}

DType joined_dtype(const std::vector<Array>& arrays, std::optional<DType> dtype) {
  // NumPy's result_type of them all, which is not a pairwise promotion
  DType dt = result_type(std::vector<Operand>(arrays.begin(), arrays.end()), "concatenate");
  if (!dtype) return dt;
  for (const Array& a : arrays)
    if (!can_cast(a.dtype(), *dtype, Casting::same_kind))
      throw TypeError("[concatenate] Cannot cast array data from dtype('" +
                      std::string(dtype_name(a.dtype())) + "') to dtype('" +
                      std::string(dtype_name(*dtype)) + "') according to the rule 'same_kind'");
  return *dtype;
}

void check_joinable(const std::vector<Array>& arrays, int axis) {
  const Array& first = arrays[0];
  for (size_t k = 1; k < arrays.size(); ++k) {
    const Array& a = arrays[k];
    if (a.device() != first.device())
      throw ValueError("[concatenate] arrays are on different devices (" + first.device().str() +
                       " and " + a.device().str() + "); move one with to_device()");
    if (a.ndim() != first.ndim())
      throw ValueError(
          "[concatenate] all the input arrays must have same number of dimensions, but the array "
          "at index 0 has " +
          std::to_string(first.ndim()) + " dimension(s) and the array at index " +
          std::to_string(k) + " has " + std::to_string(a.ndim()) + " dimension(s)");
    for (int d = 0; d < a.ndim(); ++d)
      if (d != axis && a.shape()[d] != first.shape()[d])
        throw ValueError(
            "[concatenate] all the input array dimensions except for the concatenation axis must "
            "match exactly, but along dimension " +
            std::to_string(d) + ", the array at index 0 has size " +
            std::to_string(first.shape()[d]) + " and the array at index " + std::to_string(k) +
            " has size " + std::to_string(a.shape()[d]));
  }
}

}  // namespace

Array concatenate(const std::vector<Array>& arrays, std::optional<int> axis,
                  std::optional<DType> dtype) {
  if (arrays.empty()) throw ValueError("[concatenate] need at least one array to concatenate");
  if (!axis) {
    std::vector<Array> flat;
    for (const Array& a : arrays) flat.push_back(reshape(a, {-1}));
    return concatenate(flat, 0, dtype);
  }
  if (arrays[0].ndim() == 0)
    throw ValueError("[concatenate] zero-dimensional arrays cannot be concatenated");
  int ax = normalize_axis(*axis, arrays[0].ndim(), "concatenate");
  check_joinable(arrays, ax);
  DType dt = joined_dtype(arrays, dtype);
  Shape shape = arrays[0].shape();
  shape[ax] = 0;
  for (const Array& a : arrays) shape[ax] += a.shape()[ax];
  Array out = empty_in_layout(shape, dt, arrays[0].device(), concatenate_axes(arrays));
  int64_t start = 0;
  for (const Array& a : arrays) {
    int64_t stop = start + a.shape()[ax];
    copy_into(a, slice_axis(out, ax, start, stop));
    start = stop;
  }
  return out;
}

Array stack(const std::vector<Array>& arrays, int axis) {
  if (arrays.empty()) throw ValueError("[stack] need at least one array to stack");
  for (const Array& a : arrays)
    if (a.shape() != arrays[0].shape())
      throw ValueError("[stack] all input arrays must have the same shape");
  int ax = normalize_axis(axis, arrays[0].ndim() + 1, "stack");
  std::vector<Array> expanded;
  for (const Array& a : arrays) expanded.push_back(expand_dims(a, ax));
  return concatenate(expanded, ax);
}

std::vector<Array> split_at(const Array& a, const std::vector<int64_t>& indices, int axis) {
  if (a.ndim() == 0) throw ValueError("[split] array must be at least 1-dimensional");
  int ax = normalize_axis(axis, a.ndim(), "split");
  const int64_t n = a.shape()[ax];
  // Python slice rules: negative points count from the end, everything is clamped to [0, n].
  auto clamp = [n](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + n : i, 0, n); };
  std::vector<int64_t> points{0};
  for (int64_t i : indices) points.push_back(i);
  points.push_back(n);
  std::vector<Array> parts;
  for (size_t k = 0; k + 1 < points.size(); ++k) {
    int64_t start = clamp(points[k]), stop = std::max(start, clamp(points[k + 1]));
    parts.push_back(slice_axis(a, ax, start, stop));
  }
  return parts;
}

std::vector<Array> array_split(const Array& a, int64_t sections, int axis) {
  if (sections <= 0) throw ValueError("[array_split] number sections must be larger than 0.");
  if (a.ndim() == 0) throw ValueError("[array_split] array must be at least 1-dimensional");
  int64_t n = a.shape()[normalize_axis(axis, a.ndim(), "array_split")];
  int64_t each = n / sections, extras = n % sections;
  std::vector<int64_t> points;
  int64_t p = 0;
  for (int64_t k = 0; k + 1 < sections; ++k) {
    p += each + (k < extras ? 1 : 0);
    points.push_back(p);
  }
  return split_at(a, points, axis);
}

Array tile(const Array& a, const std::vector<int64_t>& reps) {
  for (int64_t r : reps)
    if (r < 0) throw ValueError("[tile] negative dimensions are not allowed");
  int nd = std::max<int>(a.ndim(), static_cast<int>(reps.size()));
  std::vector<int64_t> r(nd - reps.size(), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  Array src = reshape(a, [&] {
    Shape s(nd - a.ndim(), 1);
    s.insert(s.end(), a.shape().begin(), a.shape().end());
    return s;
  }());
  // out viewed as (r0, s0, r1, s1, ...) receives src broadcast along the r axes in one copy.
  Shape wide, result;
  Strides src_strides;
  for (int d = 0; d < nd; ++d) {
    wide.insert(wide.end(), {r[d], src.shape()[d]});
    src_strides.insert(src_strides.end(), {0, src.strides()[d]});
    result.push_back(r[d] * src.shape()[d]);
  }
  Array out = Array::empty(wide, a.dtype(), a.device());
  copy_into(src.view(wide, src_strides, src.offset()), out);
  return reshape(out, result);
}

namespace {

/// Writes `src` with every element along `axis` repeated `count` times into `dst` (whose axis is
/// count times longer), in one broadcast copy: both are viewed with an extra axis after `axis`.
void repeat_into(const Array& src, int axis, int64_t count, const Array& dst) {
  Shape wide = src.shape();
  wide.insert(wide.begin() + axis + 1, count);
  Strides src_strides = src.strides(), dst_strides = dst.strides();
  src_strides.insert(src_strides.begin() + axis + 1, 0);
  dst_strides.insert(dst_strides.begin() + axis + 1, dst.strides()[axis]);
  dst_strides[axis] *= count;
  copy_into(src.view(wide, src_strides, src.offset()), dst.view(wide, dst_strides, dst.offset()));
}

}  // namespace

Array repeat(const Array& a, const std::vector<int64_t>& repeats, std::optional<int> axis) {
  Array src = axis ? a : reshape(a, {-1});
  if (src.ndim() == 0) src = reshape(src, {1});
  int ax = normalize_axis(axis.value_or(0), src.ndim(), "repeat");
  const int64_t n = src.shape()[ax];
  for (int64_t r : repeats)
    if (r < 0) throw ValueError("[repeat] negative dimensions are not allowed");
  if (repeats.size() != 1 && static_cast<int64_t>(repeats.size()) != n)
    throw ValueError("[repeat] operands could not be broadcast together with shape (" +
                     std::to_string(n) + ",) (" + std::to_string(repeats.size()) + ",)");
  auto count = [&](int64_t i) { return repeats[repeats.size() == 1 ? 0 : i]; };
  Shape shape = src.shape();
  shape[ax] = 0;
  for (int64_t i = 0; i < n; ++i) shape[ax] += count(i);
  Array out = Array::empty(shape, src.dtype(), src.device());
  // One broadcast copy per run of equal counts (a single copy for a scalar count).
  int64_t start = 0;
  for (int64_t i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && count(j) == count(i);) ++j;
    int64_t stop = start + (j - i) * count(i);
    repeat_into(slice_axis(src, ax, i, j), ax, count(i), slice_axis(out, ax, start, stop));
    start = stop;
  }
  return out;
}

Array repeat(const Array& a, const Array& repeats, std::optional<int> axis) {
  if (repeats.ndim() > 1) throw ValueError("[repeat] repeats must be 0- or 1-dimensional");
  if (!is_integer(repeats.dtype()) && !is_bool(repeats.dtype()))
    throw TypeError("[repeat] Cannot cast array data from dtype('" +
                    std::string(dtype_name(repeats.dtype())) +
                    "') to dtype('int64') according to the rule 'safe'");
  // The counts decide the output shape, so they are read back to the host (a small control array).
  std::vector<int64_t> counts(static_cast<size_t>(repeats.size()));
  to_host(astype(repeats, DType::int64, /*copy=*/false), counts.data());
  return repeat(a, counts, axis);
}

namespace {

/// A copy of `a` rolled by `shift` along `axis`: two copies of the wrapped halves.
Array roll_axis(const Array& a, int axis, int64_t shift) {
  Array out = Array::empty(a.shape(), a.dtype(), a.device());
  const int64_t n = a.shape()[axis];
  int64_t s = n == 0 ? 0 : ((shift % n) + n) % n;
  copy_into(slice_axis(a, axis, 0, n - s), slice_axis(out, axis, s, n));
  copy_into(slice_axis(a, axis, n - s, n), slice_axis(out, axis, 0, s));
  return out;
}

}  // namespace

Array roll(const Array& a, const std::vector<int64_t>& shifts,
           const std::optional<std::vector<int>>& axes) {
  if (!axes) {
    int64_t total = std::accumulate(shifts.begin(), shifts.end(), int64_t(0));
    return reshape(roll(reshape(a, {-1}), {total}, std::vector<int>{0}), a.shape());
  }
  size_t n = std::max(shifts.size(), axes->size());
  if ((shifts.size() != n && shifts.size() != 1) || (axes->size() != n && axes->size() != 1))
    throw ValueError("[roll] 'shift' and 'axis' should be scalars or 1D sequences");
  std::vector<int64_t> per_axis(a.ndim(), 0);
  for (size_t k = 0; k < n; ++k) {
    int ax = normalize_axis((*axes)[axes->size() == 1 ? 0 : k], a.ndim(), "roll");
    per_axis[ax] += shifts[shifts.size() == 1 ? 0 : k];
  }
  Array out = a;
  bool copied = false;
  for (int d = 0; d < a.ndim(); ++d)
    if (per_axis[d] != 0 || (!copied && d == a.ndim() - 1)) {
      out = roll_axis(out, d, per_axis[d]);
      copied = true;
    }
  return copied ? out : copy(a);
}

}  // namespace gpupy
