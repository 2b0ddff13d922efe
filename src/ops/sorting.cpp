// Sorting, searching, counting and cumulative ops front end: axes are moved last through views
// so that backends sort and scan along the last axis only; diff and count_nonzero are composed
// from elementwise ops and reductions. Host only.
#include <algorithm>
#include <string>

#include "../backend/backend.h"
#include "elementwise_rules.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"
#include "shape_util.h"

namespace gpupy {
namespace {

/// The index item `:`.
IndexItem whole() {
  IndexItem item;
  item.kind = IndexItem::Kind::slice;
  return item;
}

/// `a` flattened when `axis` is nullopt, with the normalised axis.
std::pair<Array, int> axis_input(const Array& a, std::optional<int> axis, const char* op) {
  if (!axis) return {ravel(a), 0};
  if (a.ndim() == 0)
    throw AxisError(op_message(
        op, "axis " + std::to_string(*axis) + " is out of bounds for array of dimension 0"));
  return {a, normalize_axis(*axis, a.ndim(), op)};
}

Array last(const Array& a, int axis) { return moveaxis(a, {axis}, {-1}); }

/// A new array of `shape` laid out as `a` is (NumPy's order='K' for sorted values and scans).
Array empty_as(const Array& a, const Shape& shape, DType dtype) {
  return empty_in_layout(shape, dtype, a.device(), iteration_axes(a.shape(), {&a}, 'K'));
}

/// The values `run(in, values, indices)` writes along the last axis for `a`'s axis `ax` (and the
/// int64 positions into `*indices`, if given); float16 runs as float32, which orders the same.
template <class Run>
Array along_rows(const Array& a, int ax, Array* indices, Run&& run) {
  Array values = empty_as(a, a.shape(), a.dtype());  // NumPy's indices are C-ordered
  if (indices) *indices = Array::empty(a.shape(), DType::int64, a.device());
  if (a.size() == 0) return values;
  Array iv = indices ? last(*indices, ax) : Array();
  const DType work = kernel_dtype(a.dtype());
  Array in = a.dtype() == work ? a : astype(a, work);
  Array result = a.dtype() == work ? values : Array::empty(a.shape(), work, a.device());
  run(last(in, ax), last(result, ax), indices ? &iv : nullptr);
  if (result.dtype() != values.dtype()) assign(values, result);
  return values;
}

/// Sorted values of `a` along `axis` and, if `indices` is given, the positions into it.
Array sort_impl(const Array& x, std::optional<int> axis, bool descending, Array* indices,
                const char* op) {
  auto [a, ax] = axis_input(x, axis, op);
  Backend& backend = backend_for(a.device());  // (lambdas may not capture structured bindings)
  return along_rows(a, ax, indices, [&](const Array& in, const Array& out, const Array* iv) {
    backend.sort(in, out, iv, descending);
  });
}

/// `kth` for rows of length n: negative positions counted from the end, sorted, duplicates gone.
std::vector<int64_t> kth_positions(std::vector<int64_t> kth, int64_t n, const char* op) {
  for (int64_t& k : kth) {
    if (k < 0) k += n;  // NumPy's message names a negative kth after adding n
    if (k < 0 || k >= n)
      throw ValueError(op_message(
          op, "kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(n) + ")"));
  }
  std::sort(kth.begin(), kth.end());
  kth.erase(std::unique(kth.begin(), kth.end()), kth.end());
  return kth;
}

/// Values of `x` partitioned at `kth` along `axis` and, if `indices` is given, their positions.
Array partition_impl(const Array& x, const std::vector<int64_t>& kth, std::optional<int> axis,
                     Array* indices, const char* op) {
  auto [a, ax] = axis_input(x, axis, op);
  // As NumPy, kth is checked only when there is something to partition.
  const std::vector<int64_t> ks = a.size() ? kth_positions(kth, a.shape()[ax], op) : kth;
  Backend& backend = backend_for(a.device());
  return along_rows(a, ax, indices, [&](const Array& in, const Array& out, const Array* iv) {
    backend.partition(in, ks, out, iv);
  });
}

/// Writes the scan of `a` along `axis` into `out` (same shape, accumulator dtype).
void scan_into(ScanOp op, const Array& a, int axis, const Array& out) {
  if (a.size() == 0) return;
  const DType work = kernel_dtype(out.dtype());  // float16 accumulates in float32
  Array in = kernel_input(a, out.dtype());
  Array result = out.dtype() == work ? out : Array::empty(out.shape(), work, out.device());
  backend_for(a.device()).scan(op, last(in, axis), last(result, axis));
  if (result.dtype() != out.dtype()) assign(out, result);
}

Array scan_op(ScanOp op, const Array& x, std::optional<int> axis, std::optional<DType> dtype,
              const char* name) {
  // NumPy scans a 0-d input as a 1-d one, also along axis 0 or -1.
  if (x.ndim() == 0 && axis) normalize_axis(*axis, 1, name), axis = std::nullopt;
  auto [a, ax] = axis_input(x, axis, name);
  Array out = empty_as(a, a.shape(), accumulator_dtype(a.dtype(), dtype));
  scan_into(op, a, ax, out);
  return out;
}

Array cumulative(ScanOp op, const Array& x, std::optional<int> axis, std::optional<DType> dtype,
                 bool include_initial, const char* name) {
  Array a = x.ndim() == 0 ? reshape(x, {1}) : x;
  if (!axis && a.ndim() > 1)
    throw ValueError(op_message(name,
                                "the 'axis' argument is required for arrays of more than "
                                "one dimension"));
  int ax = normalize_axis(axis.value_or(0), a.ndim(), name);
  DType dt = accumulator_dtype(a.dtype(), dtype);
  if (!include_initial) {
    Array out = empty_as(a, a.shape(), dt);
    scan_into(op, a, ax, out);
    return out;
  }
  Shape shape = a.shape();
  shape[ax] += 1;
  Array out = empty_as(a, shape, dt);
  std::vector<IndexItem> head(ax + 1, whole()), tail = head;
  head[ax].stop = 1;
  tail[ax].start = 1;
  assign(getitem(out, head), Scalar(int64_t(op == ScanOp::sum ? 0 : 1), /*weak=*/true));
  scan_into(op, a, ax, getitem(out, tail));
  return out;
}

/// One operand of diff's prepend/append: broadcast to `a`'s shape with length 1 along `axis`.
Array diff_edge(const Array& a, const Array& edge, int axis) {
  if (edge.ndim() > 0) return edge;
  Shape shape = a.shape();
  shape[axis] = 1;
  return broadcast_to(edge, shape);
}

/// `parts` joined along `axis` by assigning each into its slice of a new array.
Array join(const std::vector<Array>& parts, int axis) {
  Shape shape = parts[0].shape();
  shape[axis] = 0;
  for (const Array& p : parts) {
    if (p.ndim() != int(shape.size()))
      throw ValueError("[diff] all the input arrays must have the same number of dimensions");
    shape[axis] += p.shape()[axis];
  }
  DType dt = result_type(std::vector<Operand>(parts.begin(), parts.end()), "diff");
  // laid out as NumPy's concatenate lays out the parts, which its diff joins with
  Array out = empty_in_layout(shape, dt, parts[0].device(), concatenate_axes(parts));
  std::vector<IndexItem> items(axis + 1, whole());
  int64_t at = 0;
  for (const Array& p : parts) {
    items[axis].start = at;
    items[axis].stop = at + p.shape()[axis];
    at += p.shape()[axis];
    Array slot = getitem(out, items);
    if (slot.shape() != p.shape())
      throw ValueError(
          "[diff] the prepended and appended arrays must match the input's shape "
          "except along 'axis'");
    assign(slot, p);
  }
  return out;
}

}  // namespace

Array sort(const Array& x, std::optional<int> axis, bool descending, bool /*stable*/) {
  return sort_impl(x, axis, descending, nullptr, "sort");
}

Array argsort(const Array& x, std::optional<int> axis, bool descending, bool /*stable*/) {
  Array indices;
  sort_impl(x, axis, descending, &indices, "argsort");
  return indices;
}

Array partition(const Array& x, const std::vector<int64_t>& kth, std::optional<int> axis) {
  return partition_impl(x, kth, axis, nullptr, "partition");
}

Array argpartition(const Array& x, const std::vector<int64_t>& kth, std::optional<int> axis) {
  Array indices;
  partition_impl(x, kth, axis, &indices, "argpartition");
  return indices;
}

void sort_inplace(const Array& x, int axis, bool descending) {
  if (x.readonly()) throw ValueError("[sort] assignment destination is read-only");
  assign(x, sort_impl(x, axis, descending, nullptr, "sort"));
}

Array searchsorted(const Array& a, const Operand& v, bool right, const Array* sorter) {
  if (a.ndim() != 1) throw ValueError("[searchsorted] the sorted array must be 1-D");
  // a Python int keeps its own dtype (uint64 above int64's range)
  Array q = v.is_array() ? v.array() : full({}, v.scalar(), v.scalar().dtype(), a.device());
  if (q.device() != a.device()) throw ValueError("[searchsorted] arrays are on different devices");
  DType dt = kernel_dtype(promote_types(a.dtype(), q.dtype()));
  Array sorted = a.dtype() == dt ? a : astype(a, dt);
  if (q.dtype() != dt) q = astype(q, dt);
  Array perm;
  if (sorter) {
    if (sorter->ndim() != 1 || sorter->shape()[0] != a.shape()[0])
      throw ValueError("[searchsorted] sorter.size must equal a.size");
    if (!is_integer(sorter->dtype())) throw TypeError("[searchsorted] sorter must be integers");
    perm = astype(*sorter, DType::int64, false);
    if (perm.size() > 0 && (item(min(perm, std::nullopt)).to_int64() < 0 ||
                            item(max(perm, std::nullopt)).to_int64() >= perm.size()))
      throw ValueError("[searchsorted] Sorter index out of range.");
  }
  Array out = Array::empty(q.shape(), DType::int64, a.device());
  if (q.size() > 0)
    backend_for(a.device()).searchsorted(sorted, sorter ? &perm : nullptr, q, out, right);
  return out;
}

void bin_add(const Array& bins, const Array& index, const Array* weights) {
  if (bins.ndim() != 1 || !bins.is_c_contiguous())
    throw ValueError("[bin_add] bins must be a 1-D C-contiguous array");
  if (bins.readonly()) throw ValueError("[bin_add] assignment destination is read-only");
  const DType dt = bins.dtype();
  if (dt != DType::int64 && dt != DType::float32 && dt != DType::float64)
    throw TypeError("[bin_add] bins must be int64, float32 or float64");
  if (index.ndim() != 1) throw ValueError("[bin_add] index must be 1-D");
  if (!is_integer(index.dtype()) && index.dtype() != DType::bool_)
    throw TypeError("[bin_add] index must be integers");
  if (index.device() != bins.device() || (weights && weights->device() != bins.device()))
    throw ValueError("[bin_add] arrays are on different devices");
  if (weights && weights->shape() != index.shape())
    throw ValueError("[bin_add] weights and index must have the same length");
  const Array idx = ascontiguousarray(astype(index, DType::int64, false));
  Array w;
  if (weights) w = ascontiguousarray(astype(*weights, dt, false));
  if (idx.size() > 0) backend_for(bins.device()).bin_add(idx, weights ? &w : nullptr, bins);
}

Array uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins) {
  if (x.ndim() != 1 || edges.ndim() != 1)
    throw ValueError("[uniform_bin_index] x and edges must be 1-D");
  if (edges.size() < 2) throw ValueError("[uniform_bin_index] edges must hold at least two values");
  if (edges.dtype() != DType::float32 && edges.dtype() != DType::float64)
    throw TypeError("[uniform_bin_index] edges must be float32 or float64");
  const DType dt = x.dtype();
  if (dt == DType::bool_ || dt == DType::float16 || is_complex(dt))
    throw TypeError("[uniform_bin_index] x must be integers, float32 or float64, not " +
                    std::string(dtype_name(dt)));
  if (edges.device() != x.device())
    throw ValueError("[uniform_bin_index] arrays are on different devices");
  if (bins.div_single && !bins.sub_single)
    throw ValueError("[uniform_bin_index] a float32 division needs a float32 subtraction");
  Array out = Array::empty(x.shape(), DType::int64, x.device());
  if (x.size() > 0)
    backend_for(x.device())
        .uniform_bin_index(ascontiguousarray(x), ascontiguousarray(edges), bins, out);
  return out;
}

Array count_nonzero(const Array& x, const Axes& axes, bool keepdims) {
  // bool counts directly; other dtypes compare with zero in their own dtype first.
  const Array nonzero =
      x.dtype() == DType::bool_ ? x : not_equal(x, Scalar(int64_t(0), /*weak=*/true));
  return sum(nonzero, axes, keepdims, DType::int64);
}

Array cumsum(const Array& x, std::optional<int> axis, std::optional<DType> dtype) {
  return scan_op(ScanOp::sum, x, axis, dtype, "cumsum");
}

Array cumprod(const Array& x, std::optional<int> axis, std::optional<DType> dtype) {
  return scan_op(ScanOp::prod, x, axis, dtype, "cumprod");
}

Array cumulative_sum(const Array& x, std::optional<int> axis, std::optional<DType> dtype,
                     bool include_initial) {
  return cumulative(ScanOp::sum, x, axis, dtype, include_initial, "cumulative_sum");
}

Array cumulative_prod(const Array& x, std::optional<int> axis, std::optional<DType> dtype,
                      bool include_initial) {
  return cumulative(ScanOp::prod, x, axis, dtype, include_initial, "cumulative_prod");
}

Array diff(const Array& x, int n, int axis, const std::optional<Array>& prepend,
           const std::optional<Array>& append) {
  if (n < 0) throw ValueError("[diff] order must be non-negative but got " + std::to_string(n));
  if (n == 0) return x;  // as NumPy: before the input's rank and the axis are checked
  if (x.ndim() == 0)
    throw ValueError("[diff] diff requires input that is at least one dimensional");
  const int ax = normalize_axis(axis, x.ndim(), "diff");
  Array a = x;
  if (prepend || append) {
    std::vector<Array> parts;
    if (prepend) parts.push_back(diff_edge(x, *prepend, ax));
    parts.push_back(x);
    if (append) parts.push_back(diff_edge(x, *append, ax));
    a = join(parts, ax);
  }
  std::vector<IndexItem> hi(ax + 1, whole()), lo = hi;
  hi[ax].start = 1;
  lo[ax].stop = -1;
  for (int k = 0; k < n; ++k) {
    // NumPy's diff of booleans is "not equal" (subtracting booleans is an error).
    a = a.dtype() == DType::bool_ ? not_equal(getitem(a, hi), getitem(a, lo))
                                  : subtract(getitem(a, hi), getitem(a, lo));
  }
  return a;
}

}  // namespace gpupy
