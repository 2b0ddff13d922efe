// Advanced indexing front end: resolves NumPy's rules for integer and boolean array indices into
// a view plus int64 byte offsets, checked against the bounds, for the gather/scatter patterns.
// Host only.
#include "gpupy/advanced_indexing.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "../backend/backend.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {
namespace {

using Kind = IndexItem::Kind;

std::string shape_str(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

/// An advanced index resolved against an array: the basic part applied as a view, index arrays
/// on view axes, and where their broadcast dims go in the result.
struct Plan {
  std::vector<IndexItem> basic;  // array entries replaced by full slices
  Array view;
  std::vector<Array> indices;  // int64
  std::vector<int> axes;       // view axis of each index array
  std::vector<int> a_axes;     // axis of the indexed array (for messages)
  int pos = -1;                // view axes before the first advanced entry
  bool adjacent = true;
};

int consumed_axes(const Array& a, const std::vector<IndexEntry>& entries) {
  int consumed = 0;
  for (const IndexEntry& e : entries) {
    if (e.array) {
      consumed += e.array->dtype() == DType::bool_ ? e.array->ndim() : 1;
    } else if (e.basic.kind == Kind::integer || e.basic.kind == Kind::slice) {
      ++consumed;
    }
  }
  if (consumed > a.ndim())
    throw IndexError("[getitem] too many indices for array: array is " + std::to_string(a.ndim()) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  return consumed;
}

/// Integer arrays as int64; boolean masks as the int64 coordinates of their true elements.
std::vector<Array> index_arrays(const Array& a, const Array& index, int a_axis) {
  if (index.device() != a.device())
    throw ValueError("[getitem] the index array is on '" + index.device().str() +
                     "' but the indexed array is on '" + a.device().str() + "'");
  if (index.dtype() == DType::bool_) {
    if (index.ndim() == 0)
      throw NotImplementedError("[getitem] 0-d boolean indices are not supported");
    // As in NumPy, a boolean axis of length 0 matches an axis of any length.
    for (int d = 0; d < index.ndim(); ++d)
      if (index.shape()[d] != a.shape()[a_axis + d] && index.shape()[d] != 0)
        throw IndexError("[getitem] boolean index did not match indexed array along axis " +
                         std::to_string(a_axis + d) + "; size of axis is " +
                         std::to_string(a.shape()[a_axis + d]) +
                         " but size of corresponding boolean axis is " +
                         std::to_string(index.shape()[d]));
    return nonzero(index);
  }
  if (!is_integer(index.dtype()))
    throw IndexError("[getitem] arrays used as indices must be of integer (or boolean) type");
  if (index.dtype() == DType::uint64 && index.size() > 0) {
    // Values past int64 would wrap to (valid) negative indices in the int64 copy below.
    const Scalar hi = item(max(index, std::nullopt));
    if (!hi.fits_integer(DType::int64)) {
      uint64_t value = 0;
      hi.store(DType::uint64, &value);
      throw IndexError("[getitem] index " + std::to_string(value) + " is out of bounds for axis " +
                       std::to_string(a_axis) + " with size " + std::to_string(a.shape()[a_axis]));
    }
  }
  if (index.ndim() == 0) {  // NumPy reads it as an integer, bounds-checked before anything else
    const int64_t value = item(index).to_int64(), n = a.shape()[a_axis];
    if (value < -n || value >= n)
      throw IndexError("[getitem] index " + std::to_string(value) + " is out of bounds for axis " +
                       std::to_string(a_axis) + " with size " + std::to_string(n));
  }
  return {index.dtype() == DType::int64 ? index : astype(index, DType::int64)};
}

Plan make_plan(const Array& a, const std::vector<IndexEntry>& entries) {
  const int consumed = consumed_axes(a, entries);
  Plan plan;
  int a_axis = 0, view_axis = 0;
  bool separated = false;  // a non-advanced entry came after an advanced one
  auto advanced = [&] {
    if (plan.pos < 0) plan.pos = view_axis;
    if (separated) plan.adjacent = false;
  };
  auto separator = [&] { separated = plan.pos >= 0; };
  for (const IndexEntry& e : entries) {
    if (e.array) {
      advanced();
      for (const Array& idx : index_arrays(a, *e.array, a_axis)) {
        plan.basic.push_back(IndexItem{Kind::slice, 0, std::nullopt, std::nullopt, std::nullopt});
        plan.indices.push_back(idx);
        plan.axes.push_back(view_axis++);
        plan.a_axes.push_back(a_axis++);
      }
      continue;
    }
    plan.basic.push_back(e.basic);
    switch (e.basic.kind) {
      case Kind::integer:
        advanced();
        ++a_axis;
        break;
      case Kind::slice:
        separator();
        ++a_axis, ++view_axis;
        break;
      case Kind::newaxis:
        separator();
        ++view_axis;
        break;
      case Kind::ellipsis:
        // As in NumPy 2, an ellipsis separates advanced indices even when it stands for no axes.
        separator();
        a_axis += a.ndim() - consumed;
        view_axis += a.ndim() - consumed;
        break;
    }
  }
  plan.view = getitem(a, plan.basic);
  return plan;
}

/// Broadcast shape of the index arrays (IndexError when they do not broadcast).
Shape index_shape(const Plan& plan) {
  Shape shape;
  try {
    for (const Array& idx : plan.indices) shape = broadcast_shapes(shape, idx.shape());
  } catch (const ValueError&) {
    std::string shapes;
    for (const Array& idx : plan.indices) shapes += " " + shape_str(idx.shape());
    throw IndexError(
        "[getitem] shape mismatch: indexing arrays could not be broadcast together "
        "with shapes" +
        shapes);
  }
  return shape;
}

/// Sum over index arrays of index * byte stride, bounds-checked in the same pass (one read back
/// per index array) before any gather or scatter runs: a scatter never writes partly.
Array byte_offsets(const Plan& plan, const Shape& bshape) {
  Array offsets = Array::empty(bshape, DType::int64, plan.view.device());
  if (offsets.size() == 0) return offsets;
  if (plan.indices.empty()) return zeros(bshape, DType::int64, plan.view.device());
  Backend& backend = backend_for(plan.view.device());
  for (size_t k = 0; k < plan.indices.size(); ++k) {
    const int64_t n = plan.view.shape()[plan.axes[k]];
    const int64_t stride = plan.view.strides()[plan.axes[k]];
    int64_t bad = 0;
    if (!backend.index_offsets(broadcast_to(plan.indices[k], bshape), n, stride, offsets, k > 0,
                               bad))
      throw IndexError("[getitem] index " + std::to_string(bad) + " is out of bounds for axis " +
                       std::to_string(plan.a_axes[k]) + " with size " + std::to_string(n));
  }
  return offsets;
}

/// The plan in the result's layout: the index dims at `pos` (adjacent indices) or in front.
Backend::GatherCall make_call(const Plan& plan) {
  const Shape bshape = index_shape(plan);
  Array offsets = byte_offsets(plan, bshape);
  const Array& v = plan.view;
  Shape shape;
  Strides data_strides, offset_strides;
  const int pos = plan.adjacent ? plan.pos : 0;
  auto add_index_dims = [&] {
    for (size_t d = 0; d < bshape.size(); ++d) {
      shape.push_back(bshape[d]);
      data_strides.push_back(0);
      offset_strides.push_back(offsets.strides()[d]);
    }
  };
  int kept = 0;
  for (int d = 0; d < v.ndim(); ++d) {
    if (kept == pos && shape.size() == static_cast<size_t>(pos)) add_index_dims();
    bool indexed = false;
    for (int axis : plan.axes) indexed = indexed || axis == d;
    if (indexed) continue;
    shape.push_back(v.shape()[d]);
    data_strides.push_back(v.strides()[d]);
    offset_strides.push_back(0);
    ++kept;
  }
  if (shape.size() == static_cast<size_t>(kept)) add_index_dims();
  return {v.view(shape, data_strides, v.offset()),
          offsets.view(shape, offset_strides, offsets.offset()), Array()};
}

/// The value of `a[idx] = value` fitted to the indexing result's shape, checked as NumPy does
/// before the index bounds: its leading length-1 axes beyond the result's drop, then it must
/// broadcast to the result.
Operand fitted_value(const Plan& plan, const Operand& value) {
  if (!value.is_array()) {
    // a scalar converts (overflow, NaN, complex checks) before the index arrays are read; NumPy
    // makes an array of a NumPy scalar first, so an out-of-range one wraps here
    const Scalar& s = value.scalar();
    const Operand v = s.weak() ? value : Operand(s.cast(plan.view.dtype()));
    assign(Array::empty(Shape{0}, plan.view.dtype(), plan.view.device()), v);
    return v;
  }
  const Shape bshape = index_shape(plan);
  Shape shape;
  const int pos = plan.adjacent ? plan.pos : 0;
  for (int d = 0, kept = 0; d <= plan.view.ndim(); ++d) {
    if (kept == pos && shape.size() == static_cast<size_t>(pos))
      for (int64_t n : bshape) shape.push_back(n);
    if (d == plan.view.ndim()) break;
    bool indexed = false;
    for (int axis : plan.axes) indexed = indexed || axis == d;
    if (!indexed) shape.push_back(plan.view.shape()[d]), ++kept;
  }
  Array v = value.array();
  while (v.ndim() > static_cast<int>(shape.size()) && v.shape()[0] == 1)
    v = reshape(v, Shape(v.shape().begin() + 1, v.shape().end()));
  bool fits = v.ndim() <= static_cast<int>(shape.size());
  for (int d = 1; fits && d <= v.ndim(); ++d) {
    const int64_t n = v.shape()[v.ndim() - d];
    fits = n == 1 || n == shape[shape.size() - d];
  }
  if (!fits)
    throw ValueError("[setitem] shape mismatch: value array of shape " +
                     shape_str(value.array().shape()) +
                     " could not be broadcast to indexing result of shape " + shape_str(shape));
  return Operand(v);
}

bool has_array(const std::vector<IndexEntry>& entries) {
  for (const IndexEntry& e : entries)
    if (e.array) return true;
  return false;
}

std::vector<IndexItem> basic_items(const std::vector<IndexEntry>& entries) {
  std::vector<IndexItem> items;
  for (const IndexEntry& e : entries) items.push_back(e.basic);
  return items;
}

/// When every index array is a 0-d integer array on `a`'s device, the equivalent integer items:
/// they select the same elements (the broadcast index shape is then ()) without launching the
/// gather machinery. uint64 is left to the general path (its values may not fit int64).
std::optional<std::vector<IndexItem>> zero_d_integer_items(const Array& a,
                                                           const std::vector<IndexEntry>& entries) {
  for (const IndexEntry& e : entries)
    if (e.array && (e.array->ndim() != 0 || !is_integer(e.array->dtype()) ||
                    e.array->dtype() == DType::uint64 || e.array->device() != a.device()))
      return std::nullopt;
  std::vector<IndexItem> items;
  for (const IndexEntry& e : entries) {
    IndexItem it = e.basic;
    if (e.array) {
      it = IndexItem{};
      it.integer = item(*e.array).to_int64();
    }
    items.push_back(it);
  }
  return items;
}

/// The axes of a gather's result, outermost first, as NumPy lays it out: the index dims outermost
/// in C order, the subspace's (the axes the slices keep) inside them in its memory order; with no
/// subspace, the index arrays' memory order (NumPy's iterator over them, order='K').
std::vector<int> result_axes(const Plan& plan, const Backend::GatherCall& call) {
  const Shape bshape = index_shape(plan);
  const int nd = call.data.ndim(), nb = static_cast<int>(bshape.size());
  const int pos = plan.adjacent ? plan.pos : 0;
  std::vector<int> axes, sub_axes;
  for (int d = 0; d < nd; ++d)
    if (d < pos || d >= pos + nb) sub_axes.push_back(d);
  if (sub_axes.empty()) {
    std::vector<const Array*> indices;
    for (const Array& idx : plan.indices) indices.push_back(&idx);
    for (int d : iteration_axes(bshape, indices, 'K')) axes.push_back(pos + d);
    return axes;
  }
  for (int d = 0; d < nb; ++d) axes.push_back(pos + d);
  // NumPy's PyArray_CreateSortedStridePerm: by decreasing stride magnitude, ties in axis order
  // (a broadcast or new axis, of stride 0, goes innermost)
  std::stable_sort(sub_axes.begin(), sub_axes.end(), [&](int x, int y) {
    return std::llabs(call.data.strides()[x]) > std::llabs(call.data.strides()[y]);
  });
  axes.insert(axes.end(), sub_axes.begin(), sub_axes.end());
  return axes;
}

/// Whether `entries` is a lone integer index array of 1 or more dimensions on a's device, into an
/// array of 1 or more dimensions: a[idx], the commonest advanced index, which take_leading serves.
/// uint64 is left to the general path (its values may not fit int64).
bool is_leading_take(const Array& a, const std::vector<IndexEntry>& entries) {
  if (entries.size() != 1 || !entries[0].array || a.ndim() == 0) return false;
  const Array& index = *entries[0].array;
  return index.ndim() > 0 && is_integer(index.dtype()) && index.dtype() != DType::uint64 &&
         index.device() == a.device();
}

/// Whether take_leading's C-ordered result is also the layout result_axes gives: the index
/// iterated in C order and a's kept axes already in memory order.
bool leading_take_keeps_layout(const Array& a, const Array& index, char order) {
  if (order == 'C') return true;
  if (index.ndim() > 1 && !index.is_c_contiguous()) return false;
  for (int d = 2; d < a.ndim(); ++d)
    if (std::llabs(a.strides()[d - 1]) < std::llabs(a.strides()[d])) return false;
  return true;
}

/// a[index] for is_leading_take: the gather the general plan would build (index dims first, then
/// a's other axes), without its bookkeeping, which cost as much as the gather of 100 elements.
Array take_leading(const Array& a, const Array& index) {
  const Array idx = index.dtype() == DType::int64 ? index : astype(index, DType::int64);
  Array offsets = Array::empty(idx.shape(), DType::int64, a.device());
  Shape shape = idx.shape();
  Strides data_strides(shape.size(), 0), offset_strides = offsets.strides();
  for (int d = 1; d < a.ndim(); ++d) {
    shape.push_back(a.shape()[d]);
    data_strides.push_back(a.strides()[d]);
    offset_strides.push_back(0);
  }
  Backend& backend = backend_for(a.device());
  int64_t bad = 0;
  const int64_t n = a.shape()[0];
  if (offsets.size() > 0 && !backend.index_offsets(idx, n, a.strides()[0], offsets, false, bad))
    throw IndexError("[getitem] index " + std::to_string(bad) +
                     " is out of bounds for axis 0 with size " + std::to_string(n));
  Backend::GatherCall call{a.view(shape, std::move(data_strides), a.offset()),
                           offsets.view(shape, std::move(offset_strides), offsets.offset()),
                           Array::empty(shape, a.dtype(), a.device())};
  if (call.values.size() > 0) backend.gather(call);
  return call.values;
}

}  // namespace

Array getitem(const Array& a, const std::vector<IndexEntry>& entries, char order) {
  if (!has_array(entries)) return getitem(a, basic_items(entries));
  if (is_leading_take(a, entries) && leading_take_keeps_layout(a, *entries[0].array, order))
    return take_leading(a, *entries[0].array);
  if (auto items = zero_d_integer_items(a, entries))  // NumPy's view of an integer index, copied
    return astype(getitem(a, *items), a.dtype(), 'K', true);
  const Plan plan = make_plan(a, entries);
  Backend::GatherCall call = make_call(plan);
  // Gathered in the result's layout: every operand permuted so that the values are C-contiguous
  const std::vector<int> axes = order == 'C' ? std::vector<int>{} : result_axes(plan, call);
  const bool permuted = !std::is_sorted(axes.begin(), axes.end());
  if (permuted) {
    call.data = permute_dims(call.data, axes);
    call.offsets = permute_dims(call.offsets, axes);
  }
  call.values = Array::empty(call.data.shape(), a.dtype(), a.device());
  if (call.values.size() > 0) backend_for(a.device()).gather(call);
  if (!permuted) return call.values;
  std::vector<int> back(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) back[static_cast<size_t>(axes[i])] = static_cast<int>(i);
  return permute_dims(call.values, back);
}

void setitem(const Array& a, const std::vector<IndexEntry>& entries, const Operand& value) {
  if (!has_array(entries)) return setitem(a, basic_items(entries), value);
  if (a.readonly()) throw ValueError("[setitem] assignment destination is read-only");
  if (auto items = zero_d_integer_items(a, entries)) return setitem(a, *items, value);
  const Plan plan = make_plan(a, entries);
  const Operand fitted = fitted_value(plan, value);
  Backend::GatherCall call = make_call(plan);
  call.values = Array::empty(call.data.shape(), a.dtype(), a.device());
  assign(call.values, fitted);
  // Boolean masks select each element once; integer indices may repeat one (last wins).
  bool masks_only = true;
  for (const IndexEntry& e : entries)
    if (e.array) masks_only = masks_only && e.array->dtype() == DType::bool_;
  if (!masks_only) call.target = plan.view;
  if (call.values.size() > 0) backend_for(a.device()).scatter(call);
}

Array flatnonzero(const Array& a) {
  const Array mask = a.dtype() == DType::bool_ ? a : astype(a, DType::bool_);
  return backend_for(a.device()).flatnonzero(mask);
}

std::vector<Array> nonzero(const Array& a) {
  if (a.ndim() == 0)
    throw ValueError(
        "[nonzero] calling nonzero on 0d arrays is not allowed; use "
        "atleast_1d(a).nonzero() instead");
  const Array flat = flatnonzero(a);
  if (a.ndim() == 1) return {flat};
  std::vector<Array> coords;
  int64_t inner = 1;  // elements per step of axis d
  for (int d = a.ndim() - 1; d >= 0; --d) {
    Array c = flat.size() == 0 || inner == 1 ? flat : floor_divide(flat, Scalar(inner));
    if (d > 0 && flat.size() > 0) c = remainder(c, Scalar(a.shape()[d]));
    coords.insert(coords.begin(), c);
    inner *= a.shape()[d];
  }
  return coords;
}

}  // namespace gpupy
