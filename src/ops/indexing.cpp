// Basic indexing front end: integers, slices, None and `...` turn into views. Host only.
#include <limits>
#include <utility>

#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace gpupy {
namespace {

using Kind = IndexItem::Kind;

// Python's PySlice_Unpack + PySlice_AdjustIndices: clamps start/stop into the axis and returns
// the number of selected elements.
int64_t adjust_slice(const IndexItem& item, int64_t length, int64_t& start, int64_t& step) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  step = item.step.value_or(1);
  if (step == 0) throw ValueError("[getitem] slice step cannot be zero");
  if (step == kMin) step = -kMax;  // as Python does, so that -step cannot overflow
  start = item.start.value_or(step < 0 ? kMax : 0);
  int64_t stop = item.stop.value_or(step < 0 ? kMin : kMax);
  auto clamp = [&](int64_t& v) {
    if (v < 0) {
      v += length;
      if (v < 0) v = step < 0 ? -1 : 0;
    } else if (v >= length) {
      v = step < 0 ? length - 1 : length;
    }
  };
  clamp(start);
  clamp(stop);
  if (step < 0) return stop < start ? (start - stop - 1) / (-step) + 1 : 0;
  return start < stop ? (stop - start - 1) / step + 1 : 0;
}

// Number of array axes the index consumes (integers and slices); checks the ellipsis count.
int consumed_axes(const Array& a, const std::vector<IndexItem>& items) {
  int consumed = 0, ellipses = 0, added = 0;
  for (const IndexItem& item : items) {
    if (item.kind == Kind::ellipsis) ++ellipses;
    if (item.kind == Kind::integer || item.kind == Kind::slice) ++consumed;
    if (item.kind == Kind::newaxis) ++added;
  }
  if (ellipses > 1) throw IndexError("[getitem] an index can only have a single ellipsis ('...')");
  if (consumed > a.ndim())
    throw IndexError("[getitem] too many indices for array: array is " + std::to_string(a.ndim()) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  // NumPy's limit (its arrays have at most 64 dimensions), so that the result can reach NumPy
  if (a.ndim() - consumed + added > 64)
    throw IndexError(
        "[getitem] number of dimensions must be within [0, 64], indexing result would have " +
        std::to_string(a.ndim() - consumed + added));
  return consumed;
}

}  // namespace

Array getitem(const Array& a, const std::vector<IndexItem>& items) {
  int consumed = consumed_axes(a, items);
  Shape shape;
  Strides strides;
  int64_t offset = a.offset();
  int axis = 0;
  auto keep = [&](int n) {
    for (int k = 0; k < n; ++k, ++axis) {
      shape.push_back(a.shape()[axis]);
      strides.push_back(a.strides()[axis]);
    }
  };
  for (const IndexItem& item : items) {
    switch (item.kind) {
      case Kind::newaxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case Kind::ellipsis:
        keep(a.ndim() - consumed);
        break;
      case Kind::integer: {
        int64_t n = a.shape()[axis], i = item.integer;
        if (i < -n || i >= n)
          throw IndexError("[getitem] index " + std::to_string(i) + " is out of bounds for axis " +
                           std::to_string(axis) + " with size " + std::to_string(n));
        offset += (i < 0 ? i + n : i) * a.strides()[axis++];
        break;
      }
      case Kind::slice: {
        int64_t start = 0, step = 1;
        int64_t len = adjust_slice(item, a.shape()[axis], start, step);
        // An empty selection keeps the offset: start may sit one past the axis.
        if (len > 0) offset += start * a.strides()[axis];
        shape.push_back(len);
        strides.push_back(a.strides()[axis++] * step);
        break;
      }
    }
  }
  keep(a.ndim() - axis);  // trailing axes without an index are taken whole
  return a.view(std::move(shape), std::move(strides), offset);
}

void setitem(const Array& a, const std::vector<IndexItem>& items, const Operand& value) {
  if (a.readonly()) throw ValueError("[setitem] assignment destination is read-only");
  assign(getitem(a, items), value);
}

}  // namespace gpupy
