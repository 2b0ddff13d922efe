// The array operations of gpupy's C++ API, grouped by NumPy reference chapter. Host only.
#pragma once

#include <optional>
#include <variant>
#include <vector>

#include "gpupy/array.h"
#include "gpupy/random.h"
#include "gpupy/scalar.h"

namespace gpupy {

/// An input of an elementwise operation: an array or a scalar (weak if it came from Python).
class Operand {
 public:
  Operand(Array a) : value_(std::move(a)) {}  // NOLINT(google-explicit-constructor)
  Operand(Scalar s) : value_(s) {}            // NOLINT(google-explicit-constructor)
  bool is_array() const { return std::holds_alternative<Array>(value_); }
  const Array& array() const { return std::get<Array>(value_); }
  const Scalar& scalar() const { return std::get<Scalar>(value_); }

 private:
  std::variant<Array, Scalar> value_;
};

/// Reduction axes; std::nullopt means all of them.
using Axes = std::optional<std::vector<int>>;

// ---- Elementwise (one function per row of elementwise_ops.inc) ----------------------------------

/// Identifies a row of the elementwise op table.
enum class ElementwiseOp : uint16_t {
#define GPUPY_ELEMENTWISE(name, arity, rule, functor) name,
#include "gpupy/elementwise_ops.inc"
#undef GPUPY_ELEMENTWISE
};
/// NumPy name of an elementwise op.
const char* op_name(ElementwiseOp op);
/// Number of inputs of an elementwise op.
int op_arity(ElementwiseOp op);

/// Applies an elementwise op with broadcasting and NumPy 2 promotion; writes into `out` if given,
/// else into a new array laid out as NumPy's order= says (see iteration_axes).
Array elementwise(ElementwiseOp op, const std::vector<Operand>& inputs, const Array* out = nullptr,
                  char order = 'K');

#define GPUPY_DECLARE_1(name)                                       \
  inline Array name(const Operand& x, const Array* out = nullptr) { \
    return elementwise(ElementwiseOp::name, {x}, out);              \
  }
#define GPUPY_DECLARE_2(name)                                                           \
  inline Array name(const Operand& x1, const Operand& x2, const Array* out = nullptr) { \
    return elementwise(ElementwiseOp::name, {x1, x2}, out);                             \
  }
// Three-input rows (clip) have no wrapper: they are reached through elementwise(), and the
// NumPy-level function of the same name below has its own front end (optional bounds, NEP 50).
#define GPUPY_DECLARE_3(name)
#define GPUPY_ELEMENTWISE(name, arity, rule, functor) GPUPY_DECLARE_##arity(name)
#include "gpupy/elementwise_ops.inc"
#undef GPUPY_ELEMENTWISE
#undef GPUPY_DECLARE_1
#undef GPUPY_DECLARE_2
#undef GPUPY_DECLARE_3

/// NumPy's `round(x, decimals)`: half to even.
Array round(const Array& x, int decimals = 0, const Array* out = nullptr);
/// Writes `src` into `dst`, broadcast and cast as NumPy's setitem does (unsafe casting).
void assign(const Array& dst, const Operand& src);

// ---- Creation -----------------------------------------------------------------------------------

Array empty(const Shape& shape, DType dtype, Device device);
Array full(const Shape& shape, const Scalar& value, std::optional<DType> dtype, Device device);
Array zeros(const Shape& shape, DType dtype, Device device);
Array ones(const Shape& shape, DType dtype, Device device);
/// NumPy's arange; the dtype defaults from the kinds of start/stop/step.
Array arange(const Scalar& start, const Scalar& stop, const Scalar& step,
             std::optional<DType> dtype, Device device);
Array linspace(const Scalar& start, const Scalar& stop, int64_t num, bool endpoint,
               std::optional<DType> dtype, Device device);
Array eye(int64_t n, int64_t m, int64_t k, DType dtype, Device device);
/// Copies host memory (any strides and alignment) into a new C-contiguous array on `device`.
Array from_host(const void* data, const Shape& shape, const Strides& strides, DType dtype,
                Device device);
/// Copies `a` into `dst`, a C-contiguous host buffer of a.nbytes() bytes.
void to_host(const Array& a, void* dst);
/// The single element of a size-1 array, copied to the host.
Scalar item(const Array& a);
/// A copy of `a` with the given dtype (C order).
Array astype(const Array& a, DType dtype, bool copy = true);
/// A C-contiguous copy.
Array copy(const Array& a);
/// NumPy's order= as an axis permutation `p`: an array of that layout is a C-ordered array of
/// shape a.shape[p] with its axes put back. 'C' is the identity, 'F' the reversal, 'A' is 'F' for
/// an F- and not C-contiguous `a`, 'K' keeps the order of a's strides (NumPy's empty_like).
/// Throws ValueError for another letter.
std::vector<int> layout_axes(const Array& a, char order);
/// The layout NumPy's ufuncs give a new result of `shape` computed from `operands` (NumPy's
/// iterator): 'C' and 'F' as named, 'A' is 'F' when every operand is F-contiguous, and 'K' sorts
/// the axes by the operands' strides, ignoring broadcast axes; on a conflict C order wins. The
/// axes run from outermost to innermost, as layout_axes's.
std::vector<int> iteration_axes(const Shape& shape, const std::vector<const Array*>& operands,
                                char order);
/// A new uninitialised array of `shape` whose memory runs in the order of `axes` (outermost
/// first): the C-ordered array of the permuted shape, with its axes put back.
Array empty_in_layout(const Shape& shape, DType dtype, Device device, const std::vector<int>& axes);
/// astype with NumPy's order=: the copy has the layout layout_axes(a, order) names; without
/// copy_always, `a` itself when its dtype and layout already are the ones asked for.
Array astype(const Array& a, DType dtype, char order, bool copy_always);
/// `a` on another device (a copy unless already there).
Array to_device(const Array& a, Device device);

// ---- Shape manipulation (views whenever NumPy returns one) --------------------------------------

/// One -1 entry is inferred. A view when the strides allow it, else a copy.
Array reshape(const Array& a, const Shape& shape);
Array permute_dims(const Array& a, const std::vector<int>& axes);
/// Reverses the axes.
Array transpose(const Array& a);
Array expand_dims(const Array& a, int axis);
/// Inserts length-1 axes at the given positions of the result (NumPy's tuple form).
Array expand_dims(const Array& a, const std::vector<int>& axes);
/// Swaps the last two axes (ndim >= 2).
Array matrix_transpose(const Array& a);
Array swapaxes(const Array& a, int axis1, int axis2);
Array moveaxis(const Array& a, const std::vector<int>& source, const std::vector<int>& destination);
/// Reverses the element order along `axes` (all axes when nullopt) through negative strides.
Array flip(const Array& a, const Axes& axes);
/// Views of all inputs broadcast to their common shape.
std::vector<Array> broadcast_arrays(const std::vector<Array>& arrays);
/// Removes the given length-1 axes (all of them when `axes` is nullopt).
Array squeeze(const Array& a, const Axes& axes);
Array ravel(const Array& a);
/// A read-only view of `a` broadcast to `shape`, as NumPy's.
Array broadcast_to(const Array& a, const Shape& shape);
Array ascontiguousarray(const Array& a);
/// NumPy's broadcast rule; throws ValueError naming both shapes.
Shape broadcast_shapes(const Shape& a, const Shape& b, const char* op = "broadcast_shapes");

// ---- Basic indexing -----------------------------------------------------------------------------

/// One entry of a basic index: an integer, a slice, `None` or `...`.
struct IndexItem {
  enum class Kind { integer, slice, newaxis, ellipsis };
  Kind kind = Kind::integer;
  int64_t integer = 0;
  std::optional<int64_t> start, stop, step;
};
/// `a[items]` as a view.
Array getitem(const Array& a, const std::vector<IndexItem>& items);
/// `a[items] = value`.
void setitem(const Array& a, const std::vector<IndexItem>& items, const Operand& value);

// ---- Reductions ---------------------------------------------------------------------------------

Array sum(const Array& a, const Axes& axes, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array prod(const Array& a, const Axes& axes, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
Array mean(const Array& a, const Axes& axes, bool keepdims = false,
           std::optional<DType> dtype = std::nullopt);
/// Variance with NumPy's dtype= rules: the mean and the sum of squares are computed in `dtype`.
Array var(const Array& a, const Axes& axes, double ddof = 0, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
/// sqrt(var), in var's dtype (an integer dtype= truncates, as NumPy's full reductions do).
Array std(const Array& a, const Axes& axes, double ddof = 0, bool keepdims = false,
          std::optional<DType> dtype = std::nullopt);
Array min(const Array& a, const Axes& axes, bool keepdims = false);
Array max(const Array& a, const Axes& axes, bool keepdims = false);
Array any(const Array& a, const Axes& axes, bool keepdims = false);
Array all(const Array& a, const Axes& axes, bool keepdims = false);
/// Index of the first minimum along `axis` (flattened when nullopt).
Array argmin(const Array& a, std::optional<int> axis, bool keepdims = false);
Array argmax(const Array& a, std::optional<int> axis, bool keepdims = false);

// ---- Sorting, searching, counting and cumulative ops
// ---------------------------------------------

/// Sorted copy along `axis` (flattened when nullopt). Always stable: ties keep their order, NaNs
/// go last (first when `descending`), complex sorts lexicographically.
Array sort(const Array& x, std::optional<int> axis = -1, bool descending = false,
           bool stable = true);
/// Indices that sort `x` along `axis` (stable, as sort).
Array argsort(const Array& x, std::optional<int> axis = -1, bool descending = false,
              bool stable = true);
/// Copy of `x` partitioned along `axis` (flattened when nullopt): at each position of `kth`
/// (negative ones count from the end) the element a sort puts there, no greater one before it and
/// no smaller one after it; the order elsewhere is unspecified. ValueError for a kth out of range.
Array partition(const Array& x, const std::vector<int64_t>& kth, std::optional<int> axis = -1);
/// Indices (int64) that partition `x` along `axis` as partition does.
Array argpartition(const Array& x, const std::vector<int64_t>& kth, std::optional<int> axis = -1);
/// ndarray.sort: sorts `x` in place along `axis`.
void sort_inplace(const Array& x, int axis = -1, bool descending = false);
/// Insertion points of `v` into the sorted 1-D `a` (in `*sorter` order if given).
Array searchsorted(const Array& a, const Operand& v, bool right = false,
                   const Array* sorter = nullptr);
/// bins[index[k]] += weights[k] (1 without weights) for each k: the adding pattern of bincount,
/// histogram and ufunc.at of add. `bins` is 1-D, C-contiguous, int64, float32 or float64;
/// indices outside it are skipped. In index order on cpu; in any order on cuda.
void bin_add(const Array& bins, const Array& index, const Array* weights = nullptr);
/// How NumPy's histogram computes the bin of an element for equal-width bins (see
/// uniform_bin_index); the front end derives it from NumPy's promotion of the range's scalars.
struct UniformBins {
  double keep_lo, keep_hi;  ///< elements outside [keep_lo, keep_hi] as float64, and NaN, get -1
  double first, denom;      ///< the guess is trunc((E(x) - first) / denom * n), E the edges' dtype
  bool sub_single = false;  ///< the subtraction rounds to float32 (else float64)
  bool div_single = false;  ///< the division and product round to float32 (implies sub_single)
};
/// int64 bin of each element of the 1-D real `x` among the n + 1 ascending, equal-width `edges`
/// (float32 or float64), as NumPy's histogram finds it: the arithmetic guess corrected against the
/// edges, the last bin closed, -1 for elements not kept.
Array uniform_bin_index(const Array& x, const Array& edges, const UniformBins& bins);
/// Number of non-zero elements over `axes` (int64).
Array count_nonzero(const Array& x, const Axes& axes = std::nullopt, bool keepdims = false);
/// Inclusive cumulative sum/product along `axis` (flattened when nullopt); small integers
/// accumulate in 64 bits as NumPy's.
Array cumsum(const Array& x, std::optional<int> axis, std::optional<DType> dtype = std::nullopt);
Array cumprod(const Array& x, std::optional<int> axis, std::optional<DType> dtype = std::nullopt);
/// The Array API's cumulative_sum/prod: `axis` may be omitted for 1-D input only;
/// `include_initial` prepends the identity.
Array cumulative_sum(const Array& x, std::optional<int> axis, std::optional<DType> dtype,
                     bool include_initial);
Array cumulative_prod(const Array& x, std::optional<int> axis, std::optional<DType> dtype,
                      bool include_initial);
/// n-th discrete difference along `axis`, after joining `prepend` and `append` (0-d ones are
/// broadcast to length 1 along `axis`).
Array diff(const Array& x, int n = 1, int axis = -1, const std::optional<Array>& prepend = {},
           const std::optional<Array>& append = {});

// ---- Linear algebra -----------------------------------------------------------------------------

/// NumPy's matmul: batched, broadcast over leading axes, 1-D operands promoted and squeezed.
Array matmul(const Array& a, const Array& b);
/// NumPy's dot (matmul for ndim <= 2, sum-product over last/second-to-last axes otherwise).
Array dot(const Array& a, const Array& b);
/// NumPy's inner: sum-product over the last axes of `a` and `b` (multiply for 0-d operands).
Array inner(const Array& a, const Array& b);
/// NumPy's outer: the flattened operands' products, shape (a.size(), b.size()).
Array outer(const Array& a, const Array& b);
/// NumPy's vdot: flattened operands of equal size, `a` conjugated; a 0-d result.
Array vdot(const Array& a, const Array& b);
/// NumPy's tensordot: sums over the paired axes axes_a[i] of `a` and axes_b[i] of `b`.
Array tensordot(const Array& a, const Array& b, const std::vector<int>& axes_a,
                const std::vector<int>& axes_b);
/// NumPy's vecdot: conj(x1) * x2 summed over `axis`, the other axes broadcast.
Array vecdot(const Array& x1, const Array& x2, int axis = -1);
/// out[i] = c[start + i] for i in [0, length), c the full correlation of the 1-D, non-empty `a`
/// and `v`: c[k] = sum over the overlapping j of a[k - (v.size() - 1) + j] * v[j], no padding
/// multiplied, in their common dtype (integers wrap, bool is any product true, float16 sums in
/// float32). convolve and correlate pick the slice of their mode and conjugate or flip v.
Array sliding_dot(const Array& a, const Array& v, int64_t start, int64_t length);

// ---- Selection ----------------------------------------------------------------------------------

/// NumPy's where(condition, x1, x2): x1 where the condition holds, else x2 (NumPy 2 promotion).
Array where(const Operand& condition, const Operand& x1, const Operand& x2);
/// NumPy's clip: minimum(maximum(x, min), max) with NaN propagation, one pass when both bounds
/// are given; a missing bound is std::nullopt.
Array clip(const Array& x, const std::optional<Operand>& min, const std::optional<Operand>& max);
/// Lower triangle of the last two axes: elements with column - row > k become zero.
Array tril(const Array& m, int64_t k = 0);
/// Upper triangle of the last two axes: elements with column - row < k become zero.
Array triu(const Array& m, int64_t k = 0);
/// A read-only view of the diagonal of axes (axis1, axis2), appended as the last axis.
Array diagonal(const Array& a, int64_t offset = 0, int axis1 = 0, int axis2 = 1);
/// Sum of the diagonal (see diagonal); dtype as sum's.
Array trace(const Array& a, int64_t offset = 0, int axis1 = 0, int axis2 = 1,
            std::optional<DType> dtype = std::nullopt);
/// NumPy's diag: a 2-D array with `v` on diagonal k (1-D v), or a view of diagonal k (2-D v).
Array diag(const Array& v, int64_t k = 0);

// ---- Joining and splitting ----------------------------------------------------------------------

/// Joins along `axis` (flattened inputs when nullopt); dtype promoted or given (same_kind).
Array concatenate(const std::vector<Array>& arrays, std::optional<int> axis = 0,
                  std::optional<DType> dtype = std::nullopt);
/// Joins equally shaped arrays along a new axis.
Array stack(const std::vector<Array>& arrays, int axis = 0);
/// Views a[i0:i1], a[i1:i2], ... along `axis` with Python slice rules for the division points.
std::vector<Array> split_at(const Array& a, const std::vector<int64_t>& indices, int axis = 0);
/// NumPy's array_split into `sections` parts (the first ones one longer when uneven).
std::vector<Array> array_split(const Array& a, int64_t sections, int axis = 0);
/// NumPy's tile.
Array tile(const Array& a, const std::vector<int64_t>& reps);
/// NumPy's repeat: one count for all, or one per element along `axis` (flattened when nullopt).
Array repeat(const Array& a, const std::vector<int64_t>& repeats, std::optional<int> axis);
/// repeat with the counts in an array (read back to the host: it is a small control array).
Array repeat(const Array& a, const Array& repeats, std::optional<int> axis);
/// NumPy's roll: shifts are summed per axis; the flattened array when `axes` is nullopt.
Array roll(const Array& a, const std::vector<int64_t>& shifts,
           const std::optional<std::vector<int>>& axes);

// ---- Random -------------------------------------------------------------------------------------

/// A new C-contiguous array whose element i is `dist` drawn from Philox4x32-10 block
/// (key, counter + i) on `device`: dtype float32/float64 for uniform and normal, uint64 for bits.
Array philox_random(const Shape& shape, DType dtype, RandomDistribution dist, uint64_t key,
                    uint64_t counter, Device device);

}  // namespace gpupy
