// Front end of every elementwise op: devices, dtypes, broadcasting, out=, overlap. Host only.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../backend/backend.h"
#include "elementwise_rules.h"
#include "gpupy/error.h"
#include "shape_util.h"

namespace gpupy {
namespace {

Device common_device(const std::vector<Operand>& inputs, const Array* out, const char* op) {
  std::optional<Device> device;
  auto check = [&](const Array& a) {
    if (!device)
      device = a.device();
    else if (*device != a.device())
      throw ValueError(op_message(op, "operands are on different devices (" + device->str() +
                                          " and " + a.device().str() +
                                          "); move one with to_device()"));
  };
  for (const Operand& x : inputs)
    if (x.is_array()) check(x.array());
  if (out) check(*out);
  return device ? *device : default_device();  // not value_or: default_device() takes a lock
}

DType loop_dtype(ElementwiseOp op, DType resolved) {
  switch (op_rule(op)) {
    case TypeRule::promote:
      return resolved;
    case TypeRule::promote_float:
      return float_dtype_for(resolved);
    case TypeRule::promote_float64:
      return is_inexact(resolved) ? resolved : DType::float64;
    case TypeRule::promote_bool_as_int8:
      return is_bool(resolved) ? DType::int8 : resolved;
    case TypeRule::as_bool:
      return DType::bool_;
    case TypeRule::ldexp:
      return float_dtype_for(resolved);
  }
  return resolved;
}

DType operand_dtype(const Operand& x) {
  return x.is_array() ? x.array().dtype() : x.scalar().dtype();
}

bool is_weak(const Operand& x) { return !x.is_array() && x.scalar().weak(); }

// ldexp's exponent is a Python int next to an array: NumPy's int32 loop takes it. When x is a
// Python scalar too, NumPy makes both arrays (float64, int64) and takes the int64 loop.
bool weak_exponent(const std::vector<Operand>& inputs) {
  return is_weak(inputs[1]) && !is_weak(inputs[0]);
}

// NumPy's ldexp loops take a float x and an int32 or int64 exponent, so the loop dtype comes from
// x alone, and the exponent must cast safely to int64 (a Python int must fit int32).
DType resolve_ldexp(const std::vector<Operand>& inputs, const char* name) {
  DType x = operand_dtype(inputs[0]), e = operand_dtype(inputs[1]);
  const Operand& exponent = inputs[1];
  bool python_int = is_weak(exponent) && is_integer(e);
  if (python_int) {  // NumPy's OverflowError: beyond int32 next to an array, else beyond int64
    DType loop = weak_exponent(inputs) ? DType::int32 : DType::int64;
    result_type({Scalar(int64_t(0)).cast(loop), exponent}, name);
  }
  bool integer_exponent = python_int || is_bool(e) || (is_integer(e) && e != DType::uint64);
  if (is_complex(x) || !integer_exponent)
    throw TypeError(op_message(name, "not supported for input dtypes " +
                                         std::string(dtype_name(x)) + " and " +
                                         std::string(dtype_name(e)) +
                                         ": x must be real and the exponent an integer that "
                                         "casts safely to int64"));
  return float_dtype_for(x);
}

// The loop dtype. Float and bool loops accept any Python int, so for them only the scalar's kind
// matters (NumPy: uint8_array / -1 is fine, uint8_array + -1 overflows).
DType resolve_loop(ElementwiseOp op, const std::vector<Operand>& inputs, const char* name) {
  TypeRule rule = op_rule(op);
  if (rule == TypeRule::ldexp) return resolve_ldexp(inputs, name);
  if (rule == TypeRule::promote || rule == TypeRule::promote_bool_as_int8)
    return loop_dtype(op, result_type(inputs, name));
  std::vector<Operand> kinds(inputs), strong;
  for (const Operand& x : inputs)
    if (x.is_array() || !x.scalar().weak()) strong.push_back(x);
  for (Operand& x : kinds) {
    if (!x.is_array() && x.scalar().weak()) {
      if (is_integer(x.scalar().dtype())) x = Scalar(int64_t(0), /*weak=*/true);
      // NumPy gives a Python scalar the dtype it promotes to with the other operands before it
      // picks the float loop: hypot(bool_array, 3) computes in float64 (bool and int give int64).
      if (rule == TypeRule::promote_float && !strong.empty()) {
        std::vector<Operand> with(strong);
        with.push_back(x);
        x = Scalar(0.0).cast(float_dtype_for(result_type(with, name)));
      }
      continue;
    }
    // NumPy picks the first float loop that every input casts to safely: int8 and uint16 both
    // fit float32, so arctan2(int8, uint16) is float32, not float(promote(int8, uint16)).
    DType dt = x.is_array() ? x.array().dtype() : x.scalar().dtype();
    if (rule == TypeRule::promote_float && !is_inexact(dt))
      x = Scalar(0.0).cast(float_dtype_for(dt));
  }
  return loop_dtype(op, result_type(kinds, name));
}

// Elementwise `x < 0` read back to the host; needs no reduction kernel.
bool any_negative(const Array& x) {
  if (x.size() == 0 || dtype_kind(x.dtype()) != DTypeKind::signed_int) return false;
  Array flags = less(x, Scalar(int64_t(0), /*weak=*/true));
  std::vector<unsigned char> host(static_cast<size_t>(flags.size()));
  to_host(flags, host.data());
  return std::find(host.begin(), host.end(), 1) != host.end();
}

// NumPy refuses integer powers with negative exponents instead of returning garbage.
void check_integer_power(const Operand& exponent, DType loop) {
  if (dtype_kind(loop) != DTypeKind::signed_int) return;
  bool negative =
      exponent.is_array() ? any_negative(exponent.array()) : exponent.scalar().to_int64() < 0;
  if (negative) throw ValueError("[power] Integers to negative integer powers are not allowed.");
}

// NumPy's float32 and float64 power loops, given one exponent for every element, compute 2, 0.5,
// -1 and 1 as x*x, sqrt(x), 1/x and x: several times faster than pow, and with sqrt's results
// ((-0.0)**0.5 is -0.0 and (-inf)**0.5 nan, where pow gives 0.0 and inf). gpupy takes the same
// shortcut for scalar exponents.
std::optional<ElementwiseOp> power_shortcut(const Operand& exponent, DType loop) {
  using E = ElementwiseOp;
  if ((loop != DType::float32 && loop != DType::float64) || exponent.is_array())
    return std::nullopt;
  const double e = exponent.scalar().cast(loop).to_double();
  if (e == 2.0) return E::square;
  if (e == 0.5) return E::sqrt;
  if (e == -1.0) return E::reciprocal;
  if (e == 1.0) return E::positive;
  return std::nullopt;
}

// NumPy resolves the loop, and so refuses an output it cannot cast to, before it broadcasts
void check_out_dtype(const Array& out, DType result, const char* op) {
  if (!can_cast(result, out.dtype(), Casting::same_kind))
    throw TypeError(op_message(op, "Cannot cast ufunc '" + std::string(op) + "' output from " +
                                       std::string(dtype_name(result)) + " to " +
                                       std::string(dtype_name(out.dtype())) +
                                       " with casting rule 'same_kind'"));
}

void check_out(const Array& out, const Shape& shape, DType result, const char* op) {
  if (out.readonly()) throw ValueError(op_message(op, "output array is read-only"));
  check_out_dtype(out, result, op);
  if (broadcast_shapes(shape, out.shape(), op) != out.shape())
    throw ValueError(op_message(op, "non-broadcastable output operand with shape " +
                                        shape_str(out.shape()) +
                                        " doesn't match the broadcast shape " +
                                        shape_str(broadcast_shapes(shape, out.shape(), op))));
}

// NumPy compares an integer array (or NumPy integer) with a Python int outside its range exactly
// (uint8 == -1 is all False) instead of overflowing; the answer is the same for every element.
std::optional<bool> out_of_range_comparison(ElementwiseOp op, const std::vector<Operand>& in) {
  using E = ElementwiseOp;
  if (op < E::equal || op > E::greater_equal || is_weak(in[0]) == is_weak(in[1]))
    return std::nullopt;
  bool array_first = !is_weak(in[0]);
  DType typed = operand_dtype(in[array_first ? 0 : 1]);
  const Scalar& s = in[array_first ? 1 : 0].scalar();
  if (!is_integer(typed) || !is_integer(s.dtype()) || s.fits_integer(typed)) return std::nullopt;
  bool scalar_above = s.dtype() == DType::uint64 || s.to_int64() > 0;
  bool left_below = array_first ? scalar_above : !scalar_above;  // is left < right?
  switch (op) {
    case E::equal:
      return false;
    case E::not_equal:
      return true;
    case E::less:
    case E::less_equal:
      return left_below;
    default:
      return !left_below;
  }
}

// NumPy 2 compares a signed integer with a uint64 exactly, where their common type (float64)
// would round both above 2**53: a negative value is below every uint64, and the others compare
// as uint64. Null when the operands are not such a pair (Python ints are handled above).
std::optional<Array> mixed_sign_comparison(ElementwiseOp op, const std::vector<Operand>& in,
                                           const Array* out, char order) {
  using E = ElementwiseOp;
  if (op < E::equal || op > E::greater_equal) return std::nullopt;
  for (const Operand& x : in)
    if (!x.is_array() && x.scalar().weak()) return std::nullopt;
  DType left = operand_dtype(in[0]), right = operand_dtype(in[1]);
  bool signed_left = dtype_kind(left) == DTypeKind::signed_int;
  if (!(signed_left && right == DType::uint64) &&
      !(left == DType::uint64 && dtype_kind(right) == DTypeKind::signed_int))
    return std::nullopt;
  const Operand& signed_side = in[signed_left ? 0 : 1];
  auto as_uint64 = [](const Operand& x) -> Operand {
    if (!x.is_array()) return Operand(x.scalar().cast(DType::int64).cast(DType::uint64));
    return Operand(astype(astype(x.array(), DType::int64, false), DType::uint64));
  };
  Operand u_left = signed_left ? as_uint64(in[0]) : in[0];
  Operand u_right = signed_left ? in[1] : as_uint64(in[1]);
  Array unsigned_result = elementwise(op, {u_left, u_right}, nullptr);
  // Where the signed value is negative: it is the smaller one, so only != and the comparisons
  // that put it below (left) or above (right) hold.
  bool negative_answer =
      op == E::not_equal || (signed_left ? (op == E::less || op == E::less_equal)
                                         : (op == E::greater || op == E::greater_equal));
  Array negative = elementwise(E::less, {signed_side, Operand(Scalar(int64_t{0}, true))}, nullptr);
  Array result =
      where(Operand(negative), Operand(Scalar(negative_answer)), Operand(unsigned_result));
  if (out) {
    check_out(*out, result.shape(), DType::bool_, op_name(op));
    assign(*out, Operand(result));
    return *out;
  }
  // laid out as the operands are, not as the casts made along the way are
  std::vector<const Array*> arrays;
  for (const Operand& x : in)
    if (x.is_array()) arrays.push_back(&x.array());
  Array laid_out = empty_in_layout(result.shape(), DType::bool_, result.device(),
                                   iteration_axes(result.shape(), arrays, order));
  assign(laid_out, Operand(result));
  return laid_out;
}

}  // namespace

DType elementwise_loop_dtype(ElementwiseOp op, const std::vector<Operand>& inputs) {
  using E = ElementwiseOp;
  if (op_rule(op) == TypeRule::as_bool) {  // any Python int reads as a bool: its kind counts
    std::vector<Operand> kinds(inputs);
    for (Operand& x : kinds)
      if (!x.is_array() && x.scalar().weak() && is_integer(x.scalar().dtype()))
        x = Scalar(int64_t(0), /*weak=*/true);
    return result_type(kinds, op_name(op));
  }
  DType loop = resolve_loop(op, inputs, op_name(op));
  // gpupy computes these directly on more dtypes than NumPy has loops for
  if (op == E::signbit && !is_inexact(loop)) return float_dtype_for(loop);
  if (op == E::bitwise_count && is_bool(loop)) return DType::int8;
  if (op == E::float_power) return is_complex(loop) ? DType::complex128 : DType::float64;
  return loop;
}

std::vector<DType> elementwise_loop_inputs(ElementwiseOp op, const std::vector<Operand>& inputs) {
  using E = ElementwiseOp;
  std::vector<DType> loops(inputs.size(), elementwise_loop_dtype(op, inputs));
  if (op == E::ldexp && inputs.size() == 2) {  // NumPy's exponent loops are int32 and int64
    DType e = operand_dtype(inputs[1]);
    bool wide = e == DType::int64 || e == DType::uint32 || e == DType::uint64;
    loops[1] = wide && !weak_exponent(inputs) ? DType::int64 : DType::int32;
  }
  if (op >= E::equal && op <= E::greater_equal && !is_weak(inputs[0]) && !is_weak(inputs[1])) {
    // NumPy's int64-uint64 comparison loops: a signed input goes to int64, a uint64 stays
    DType left = operand_dtype(inputs[0]), right = operand_dtype(inputs[1]);
    auto is_signed = [](DType dt) { return dtype_kind(dt) == DTypeKind::signed_int; };
    if (is_signed(left) && right == DType::uint64) loops = {DType::int64, right};
    if (left == DType::uint64 && is_signed(right)) loops = {left, DType::int64};
  }
  return loops;
}

Array elementwise(ElementwiseOp op, const std::vector<Operand>& inputs, const Array* out,
                  char order) {
  const char* name = op_name(op);
  if (order != 'K' && order != 'C' && order != 'F' && order != 'A')
    throw ValueError(op_message(name, std::string("order must be one of 'C', 'F', 'A', or 'K' "
                                                  "(got '") +
                                          order + "')"));
  int nin = op_arity(op);
  if (static_cast<int>(inputs.size()) != nin)
    throw TypeError(op_message(
        name, "takes " + std::to_string(nin) + " inputs, got " + std::to_string(inputs.size())));
  Device device = common_device(inputs, out, name);
  if (op_rule(op) == TypeRule::as_bool)  // NumPy's logical loops read a Python int as a C long
    for (const Operand& x : inputs)
      if (!x.is_array() && x.scalar().weak() && x.scalar().dtype() == DType::uint64)
        throw OverflowError(op_message(name, "Python int too large to convert to C long"));
  if (nin == 2) {
    if (auto constant = out_of_range_comparison(op, inputs)) {
      const Operand& typed = inputs[is_weak(inputs[0]) ? 1 : 0];  // an array or a NumPy scalar
      std::vector<const Array*> arrays;
      if (typed.is_array()) arrays.push_back(&typed.array());
      Shape shape = typed.is_array() ? typed.array().shape() : Shape{};
      if (!out) {
        Array r =
            empty_in_layout(shape, DType::bool_, device, iteration_axes(shape, arrays, order));
        assign(r, Scalar(*constant));
        return r;
      }
      check_out(*out, shape, DType::bool_, name);
      assign(*out, Scalar(*constant));
      return *out;
    }
    if (auto exact = mixed_sign_comparison(op, inputs, out, order)) return *exact;
  }
  DType loop = resolve_loop(op, inputs, name);
  DType result = functor_result(op, loop);
  // NumPy's float_power has float64 and complex128 loops only: a Python scalar converts straight
  // to them (1e-46 or -1e5 beside float16 data must not round to 0 or -inf first)
  if (op == ElementwiseOp::float_power && (!inputs[0].is_array() || !inputs[1].is_array()))
    loop = result;
  Backend& backend = backend_for(device);
  if (!backend.supports(op, loop))
    throw NotImplementedError(op_message(name, std::string("not implemented on ") + backend.name() +
                                                   " for " + std::string(dtype_name(loop))));
  if (out) check_out_dtype(*out, result, name);
  Shape shape;
  for (const Operand& x : inputs)
    if (x.is_array()) shape = broadcast_shapes(shape, x.array().shape(), name);
  if (out) {
    check_out(*out, shape, result, name);
    shape = out->shape();
  }
  if (op == ElementwiseOp::power) {
    if (shape_size(shape) > 0) check_integer_power(inputs[1], loop);  // NumPy's per-element check
    if (auto shortcut = power_shortcut(inputs[1], loop); shortcut && inputs[0].is_array()) {
      const Array& base = inputs[0].array();
      return elementwise(*shortcut, {astype(base, loop, 'K', false)}, out, order);
    }
  }

  // The result's layout, and the order every operand is walked in (out's too when given): with
  // the axes permuted that way, operands of one layout reach the backend C-contiguous. C-ordered
  // operands (the common case) need no sort.
  const char layout = out ? 'K' : order;  // out= fixes the layout: only the walk's order is free
  bool c_ordered = layout == 'C' || shape.size() < 2;
  if (layout == 'K' && !c_ordered) {
    c_ordered = !out || out->is_c_contiguous();
    for (const Operand& x : inputs)
      c_ordered = c_ordered && (!x.is_array() || x.array().is_c_contiguous());
  }
  std::vector<int> axes;
  if (!c_ordered) {
    std::vector<const Array*> arrays;
    for (const Operand& x : inputs)
      if (x.is_array()) arrays.push_back(&x.array());
    if (out) arrays.push_back(out);
    const bool fixed = out || layout == 'C' || layout == 'F';
    axes = iteration_axes(shape, arrays,
                          fixed ? layout : contiguous_order(shape, arrays).value_or(layout));
  }
  const bool permuted = !std::is_sorted(axes.begin(), axes.end());
  Array target = (out && out->dtype() == result) ? *out
                 : permuted                      ? empty_in_layout(shape, result, device, axes)
                                                 : Array::empty(shape, result, device);
  std::vector<Operand> prepared;
  prepared.reserve(nin);
  for (const Operand& x : inputs) {
    if (!x.is_array()) {
      prepared.emplace_back(x.scalar().cast(loop));
      continue;
    }
    Array a = x.array();
    if (a.dtype() != loop) a = astype(a, loop, 'K', true);
    if (a.shape() != shape) a = broadcast_to(a, shape);
    // An input that overlaps the output other than element-for-element is read from a copy.
    if (out && may_share_memory(a, target) &&
        !(a.data() == target.data() && a.strides() == target.strides()))
      a = copy(a);
    prepared.emplace_back(permuted ? permuted_view(a, axes) : std::move(a));
  }
  ElementwiseCall call{op, nin, {}, loop, permuted ? permuted_view(target, axes) : target};
  for (int k = 0; k < nin; ++k) call.inputs[k] = &prepared[k];
  if (shape_size(shape) > 0) backend.elementwise(call);
  if (out && out->dtype() != result) {
    backend.copy(target, *out);
    return *out;
  }
  return target;
}

Array round(const Array& x, int decimals, const Array* out) {
  // NumPy scales booleans by 10**d in float64 and cannot cast the result back.
  if (x.dtype() == DType::bool_ && decimals != 0)
    throw TypeError("[round] cannot round a bool array to " + std::to_string(decimals) +
                    " decimals (the scaled values cannot be cast back to bool)");
  if (x.dtype() == DType::bool_) return rint(x, out);  // NumPy's round(bool) is float16 rint
  if (!is_inexact(x.dtype()) && decimals >= 0) {
    // rint sends integers to floats; NumPy's round keeps them (a copy in x's layout).
    if (!out) return astype(x, x.dtype(), 'K', true);
    assign(*out, x);
    return *out;
  }
  if (!is_inexact(x.dtype())) {
    // As NumPy: scaled and rounded in float64, then cast back (an `out` takes the float64
    // values, so it must be a float array).
    double scale = 1;
    for (int i = 0; i < -decimals; ++i) scale *= 10;
    Scalar factor(scale, /*weak=*/true);
    if (out) return multiply(rint(divide(x, factor, out), out), factor, out);
    // NumPy allocates this result C-ordered unless x is F-ordered (order='A')
    Array scaled = multiply(rint(divide(astype(x, DType::float64, 'K', false), factor)), factor);
    return astype(scaled, x.dtype(), 'A', true);
  }
  if (decimals == 0) return rint(x, out);
  if (is_complex(x.dtype())) {
    // NumPy rounds the real and imaginary parts on their own: scaling by a complex 10**d would
    // mix them (inf * 0 gives nan), so each part is rounded through a real view of it.
    if (out && !is_complex(out->dtype()))
      throw TypeError("[round] a complex result cannot be written to a " +
                      std::string(dtype_name(out->dtype())) + " out array");
    DType part = real_dtype(x.dtype());
    auto part_of = [part](const Array& a, int k) {
      return a.view(a.shape(), a.strides(), a.offset() + k * int64_t(itemsize(part)), part);
    };
    Array result =
        empty_in_layout(x.shape(), x.dtype(), x.device(), iteration_axes(x.shape(), {&x}, 'K'));
    for (int k = 0; k < 2; ++k) assign(part_of(result, k), round(part_of(x, k), decimals, nullptr));
    if (!out) return result;
    assign(*out, result);
    return *out;
  }
  // NumPy rounds by scaling: y = rint(x * 10**d) / 10**d (and the reverse for negative d), into
  // a result C-ordered unless x is F-ordered (order='A').
  double scale = 1;
  for (int i = 0; i < (decimals < 0 ? -decimals : decimals); ++i) scale *= 10;
  Scalar factor(scale, /*weak=*/true);
  using E = ElementwiseOp;
  if (decimals > 0) return elementwise(E::divide, {rint(multiply(x, factor)), factor}, out, 'A');
  return elementwise(E::multiply, {rint(divide(x, factor)), factor}, out, 'A');
}

namespace {

// NumPy's int(x) of a float stored into an integer item: NaN and infinity raise, and the
// truncated value must fit (a[0] = -2.5 into uint8 is an OverflowError, not a wrap).
void check_int_of_float(double x, DType dst) {
  if (std::isnan(x)) throw ValueError("[setitem] cannot convert float NaN to integer");
  if (std::isinf(x)) throw OverflowError("[setitem] cannot convert float infinity to integer");
  const double t = std::trunc(x);
  const bool in_int64 = t >= -0x1p63 && t < 0x1p63;
  if (!in_int64 && !(dst == DType::uint64 && t >= 0 && t < 0x1p64))
    throw OverflowError("[setitem] Python int too large to convert to C long");
  if (in_int64 && !Scalar(int64_t(t), /*weak=*/true).fits_integer(dst))
    throw OverflowError("[setitem] Python integer " + std::to_string(int64_t(t)) +
                        " out of bounds for " + std::string(dtype_name(dst)));
}

// A NumPy scalar stored into a signed integer item goes through Python's int() in NumPy, so
// out-of-range values raise as a Python number would; unsigned items take the wrapped value.
void check_strong_into_signed(const Scalar& s, DType dst) {
  if (dtype_kind(dst) != DTypeKind::signed_int || is_bool(s.dtype())) return;
  if (!is_integer(s.dtype())) return check_int_of_float(s.to_complex().real(), dst);
  if (s.fits_integer(dst)) return;
  if (!s.fits_integer(DType::int64))
    throw OverflowError("[setitem] Python int too large to convert to C long");
  throw OverflowError("[setitem] Python integer " + std::to_string(s.to_int64()) +
                      " out of bounds for " + std::string(dtype_name(dst)));
}

}  // namespace

void assign(const Array& dst, const Operand& src) {
  if (dst.readonly()) throw ValueError("[setitem] assignment destination is read-only");
  Backend& backend = backend_for(dst.device());
  if (!src.is_array()) {
    const Scalar& s = src.scalar();
    if (s.weak() && is_integer(dst.dtype()) && is_integer(s.dtype()) &&
        !s.fits_integer(dst.dtype()))
      result_type({Operand(dst), src}, "setitem");  // raises the NumPy OverflowError
    if (s.weak() && is_floating(s.dtype()) && is_integer(dst.dtype()))
      check_int_of_float(s.to_double(), dst.dtype());
    if (!s.weak()) check_strong_into_signed(s, dst.dtype());
    // NumPy refuses a Python complex for a real item (bool takes its truth value) rather than
    // dropping the imaginary part.
    if (s.weak() && is_complex(s.dtype()) && !is_complex(dst.dtype()) &&
        dst.dtype() != DType::bool_)
      throw TypeError(std::string("[setitem] ") + (is_integer(dst.dtype()) ? "int" : "float") +
                      "() argument must be a real number, not 'complex'");
    if (dst.size() > 0) backend.fill(dst, s.cast(dst.dtype()));
    return;
  }
  Array a = src.array();
  if (a.device() != dst.device())
    throw ValueError("[setitem] value is on " + a.device().str() + " but the array is on " +
                     dst.device().str() + "; move it with to_device()");
  // As NumPy's assignment: leading length-1 axes of the value beyond dst's rank drop.
  while (a.ndim() > dst.ndim() && a.shape()[0] == 1)
    a = a.view(Shape(a.shape().begin() + 1, a.shape().end()),
               Strides(a.strides().begin() + 1, a.strides().end()), a.offset(), a.dtype());
  try {
    a = broadcast_to(a, dst.shape());
  } catch (const ValueError&) {
    throw ValueError("[setitem] could not broadcast input array from shape " +
                     shape_str(src.array().shape()) + " into shape " + shape_str(dst.shape()));
  }
  if (may_share_memory(a, dst) && !(a.data() == dst.data() && a.strides() == dst.strides()))
    a = copy(a);
  if (dst.size() > 0) backend.copy(a, dst);
}

}  // namespace gpupy
