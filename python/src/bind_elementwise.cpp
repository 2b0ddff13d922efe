// The elementwise op table as module functions, and ndarray's arithmetic operators.
#include <array>
#include <limits>

#include "../../src/ops/elementwise_rules.h"
#include "../../src/ops/shape_util.h"
#include "bindings.h"

namespace gpupy::py {
namespace {

using namespace nb::literals;

// Operators return NotImplemented for operands they cannot interpret, so Python tries the other
// operand's reflected method; module functions raise instead.
std::optional<Operand> operand_or_none(nb::handle value, Device device) {
  try {
    return to_operand(value, device);
  } catch (const std::exception&) {
    PyErr_Clear();
    return std::nullopt;
  }
}

bool is_comparison(ElementwiseOp op) {
  using E = ElementwiseOp;
  return op == E::equal || op == E::not_equal || op == E::less || op == E::less_equal ||
         op == E::greater || op == E::greater_equal;
}

// NumPy 2 with a Python int beyond every integer dtype: a float or complex operand, or an op
// whose integer inputs compute in a float loop (hypot, true_divide), takes it as a float, an
// integer comparison reads it as beyond every value (as ±inf does); else OverflowError.
Operand huge_int_operand(ElementwiseOp op, nb::handle h, int sign, const Operand& other) {
  DType dt = other.is_array() ? other.array().dtype() : other.scalar().dtype();
  TypeRule rule = op_rule(op);
  if (rule == TypeRule::as_bool)  // NumPy's logical loops read a Python int as a C long
    throw OverflowError(op_message(op_name(op), "Python int too large to convert to C long"));
  if (is_inexact(dt) || rule == TypeRule::promote_float || rule == TypeRule::promote_float64) {
    double v = PyLong_AsDouble(h.ptr());
    if (PyErr_Occurred()) throw nb::python_error();  // beyond double: NumPy's OverflowError too
    if (is_inexact(dt)) return Scalar(v, true);
    // an integer operand: the int's kind picks the loop (int8 with hypot: float16), which then
    // holds the value (as inf if need be)
    DType loop = rule == TypeRule::promote_float64 || op == ElementwiseOp::float_power
                     ? DType::float64
                     : float_dtype_for(is_bool(dt) ? DType::int64 : dt);
    return Scalar(v).cast(loop);
  }
  if (is_integer(dt) && is_comparison(op))
    return Scalar(sign * std::numeric_limits<double>::infinity(), true);
  return to_operand(h);  // raises OverflowError
}

// The operands of a binary op, with Python ints beyond int64/uint64 read as NumPy reads them.
std::array<Operand, 2> binary_operands(ElementwiseOp op, nb::handle a, nb::handle b) {
  int sa = huge_int_sign(a), sb = huge_int_sign(b);
  std::optional<Device> dev = operand_device({a, b});
  if (sb && !sa) {
    Operand x = to_operand(a, dev);
    return {x, huge_int_operand(op, b, sb, x)};
  }
  if (sa && !sb) {
    Operand y = to_operand(b, dev);
    return {huge_int_operand(op, a, sa, y), y};
  }
  return {to_operand(a, dev), to_operand(b, dev)};
}

// A huge Python int raises NumPy's OverflowError here: int's reflected method cannot take an array.
std::optional<Operand> other_or_none(ElementwiseOp op, const Array& self, nb::handle other) {
  if (int sign = huge_int_sign(other)) return huge_int_operand(op, other, sign, self);
  return operand_or_none(other, self.device());
}

// With out=, NumPy returns the very object passed (out=(a,) returns a).
nb::object result_object(Array result, nb::handle out) {
  if (out.is_none()) return nb::cast(std::move(result));
  if (PyTuple_Check(out.ptr())) return nb::borrow(PyTuple_GET_ITEM(out.ptr(), 0));
  return nb::borrow(out);
}

// operator.concat(a, b): a TypeError for arrays, as NumPy's (without a sequence concat slot,
// Python falls back to a + b). `+` reaches it too, when no operand's __add__ takes the other.
PyObject* refuse_concat(PyObject* a, PyObject* b) {
  PyErr_Format(PyExc_TypeError,
               "unsupported operand type(s) for + or operator.concat: '%s' and '%s' (gpupy "
               "arrays are concatenated with gpupy.concatenate())",
               Py_TYPE(a)->tp_name, Py_TYPE(b)->tp_name);
  return nullptr;
}

template <ElementwiseOp Op>
nb::object binary_operator(const Array& self, nb::handle other) {
  auto o = other_or_none(Op, self, other);
  if (!o) return nb::borrow(Py_NotImplemented);
  return nb::cast(elementwise(Op, {self, *o}));
}

/// NumPy compares an array with None element by element, as objects: == is all False and != all
/// True (gpupy has no object arrays, so None reaches no comparison loop).
template <ElementwiseOp Op>
nb::object comparison_operator(const Array& self, nb::handle other) {
  if constexpr (Op == ElementwiseOp::equal || Op == ElementwiseOp::not_equal) {
    if (other.is_none())
      return nb::cast(
          full(self.shape(), Scalar(Op == ElementwiseOp::not_equal), DType::bool_, self.device()));
  }
  return binary_operator<Op>(self, other);
}

template <ElementwiseOp Op>
nb::object reflected_operator(const Array& self, nb::handle other) {
  auto o = other_or_none(Op, self, other);
  if (!o) return nb::borrow(Py_NotImplemented);
  return nb::cast(elementwise(Op, {*o, self}));
}

template <ElementwiseOp Op>
nb::object inplace_operator(nb::handle self, nb::handle other) {
  auto o = other_or_none(Op, nb::cast<Array>(self), other);
  if (!o) return nb::borrow(Py_NotImplemented);
  elementwise(Op, {nb::cast<Array>(self), *o}, nb::inst_ptr<Array>(self));
  return nb::borrow(self);
}

/// NumPy's `**` operator on float and complex arrays computes `a ** 2`, `a ** -1` (Python ints)
/// and `a ** 0.5` (a Python float) as square, reciprocal and sqrt for every inexact dtype, where
/// numpy.power of a float16 or complex array computes pow (see power_shortcut in
/// src/ops/elementwise.cpp).
std::optional<ElementwiseOp> power_operator_shortcut(const Array& self, nb::handle exponent) {
  if (!is_inexact(self.dtype())) return std::nullopt;
  if (PyLong_CheckExact(exponent.ptr())) {
    int overflow = 0;
    long e = PyLong_AsLongAndOverflow(exponent.ptr(), &overflow);
    if (!overflow && e == 2) return ElementwiseOp::square;
    if (!overflow && e == -1) return ElementwiseOp::reciprocal;
  } else if (PyFloat_CheckExact(exponent.ptr()) && PyFloat_AS_DOUBLE(exponent.ptr()) == 0.5) {
    return ElementwiseOp::sqrt;
  }
  return std::nullopt;
}

nb::object power_operator(const Array& self, nb::handle other) {
  if (auto op = power_operator_shortcut(self, other)) return nb::cast(elementwise(*op, {self}));
  return binary_operator<ElementwiseOp::power>(self, other);
}

nb::object inplace_power_operator(nb::handle self, nb::handle other) {
  const Array& a = *nb::inst_ptr<Array>(self);
  if (auto op = power_operator_shortcut(a, other)) {
    elementwise(*op, {a}, &a);
    return nb::borrow(self);
  }
  return inplace_operator<ElementwiseOp::power>(self, other);
}

template <ElementwiseOp Op>
Array unary_operator(const Array& self) {
  return elementwise(Op, {self});
}

DType required_dtype(nb::handle value, const char* op) {
  if (auto dt = to_dtype(value)) return *dt;
  throw TypeError(op_message(op, "expected a dtype, got None"));
}

// A result_type argument: dtypes (and Python types such as `float`) count as strongly typed
// values of that dtype; everything else is read as an elementwise operand would be.
Operand promotion_operand(nb::handle value) {
  static nb::object np_dtype = nb::module_::import_("numpy").attr("dtype");
  if (PyType_Check(value.ptr()) || PyUnicode_Check(value.ptr()) || nb::isinstance(value, np_dtype))
    return Scalar(int64_t(0)).cast(required_dtype(value, "result_type"));
  // result_type depends on kinds only (as NumPy's); the value check belongs to the operations,
  // so a Python int beyond every integer dtype is fine here too
  if (PyLong_CheckExact(value.ptr())) return Scalar(int64_t(0), /*weak=*/true);
  Operand o = to_operand(value);
  if (!o.is_array() && o.scalar().weak() && is_integer(o.scalar().dtype()))
    return Scalar(int64_t(0), /*weak=*/true);
  return o;
}

void bind_promotion(nb::module_& m) {
  m.def("_result_type", [](nb::args args) {
    if (args.size() == 0) throw ValueError("[result_type] at least one array or dtype is required");
    std::vector<Operand> operands;
    for (nb::handle h : args) operands.push_back(promotion_operand(h));
    return numpy_dtype(result_type(operands, "result_type"));
  });
  m.def("_promote_types", [](nb::handle a, nb::handle b) {
    return numpy_dtype(
        promote_types(required_dtype(a, "promote_types"), required_dtype(b, "promote_types")));
  });
  m.def("_can_cast", [](nb::handle from, nb::handle to, const std::string& casting) {
    return can_cast(required_dtype(from, "can_cast"), required_dtype(to, "can_cast"),
                    to_casting(casting, "can_cast"));
  });
}

std::string cast_message(const std::string& name, const std::string& what, DType from, DType to,
                         const std::string& casting) {
  return op_message(name.c_str(), "Cannot cast ufunc '" + name + "' " + what + " from dtype('" +
                                      std::string(dtype_name(from)) + "') to dtype('" +
                                      std::string(dtype_name(to)) + "') with casting rule '" +
                                      casting + "'");
}

// Input i's cast to the loop dtype `to` under casting=. NumPy reads Python bools as bools here;
// other Python scalars pass every rule but 'equiv'.
void check_input_cast(ElementwiseOp op, size_t i, const Operand& o, DType to, Casting casting,
                      const std::string& rule) {
  DType from = o.is_array() ? o.array().dtype() : o.scalar().dtype();
  if (!o.is_array() && o.scalar().weak() && !is_bool(from)) {
    if (casting != Casting::equiv) {  // only the kind counts (a Python float to int64 does not)
      if (casting != Casting::unsafe && kind_rank(from) > kind_rank(to))
        throw TypeError(cast_message(op_name(op), "input " + std::to_string(i), from, to, rule));
      return;
    }
    // 'equiv' accepts the Python type's own dtype (int64, float64, complex128), and NumPy's
    // integer comparisons take a Python int as it is
    bool comparison = op >= ElementwiseOp::equal && op <= ElementwiseOp::greater_equal;
    if (comparison && is_integer(from) && is_integer(to)) return;
    DType own = is_integer(from)   ? DType::int64
                : is_complex(from) ? DType::complex128
                                   : DType::float64;
    if (to == own) return;
    const char* kind = is_integer(from) ? "int" : is_complex(from) ? "complex" : "float";
    throw TypeError(op_message(op_name(op), std::string("cannot cast Python ") + kind + " to " +
                                                std::string(dtype_name(to)) +
                                                " under the casting rule '" + rule + "'"));
  }
  if (!can_cast(from, to, casting))
    throw TypeError(cast_message(op_name(op), "input " + std::to_string(i), from, to, rule));
}

// The operands with each Python int read by its kind alone: its value is checked after the cast.
std::vector<Operand> int_kinds(std::vector<Operand> operands) {
  for (Operand& o : operands)
    if (!o.is_array() && o.scalar().weak() && is_integer(o.scalar().dtype()))
      o = Scalar(int64_t(0), /*weak=*/true);
  return operands;
}

// dtype= names the output dtype (NumPy's signature=(None, ..., dtype)): the input dtype of the
// loop that gives it, or nullopt when there is none (sin to int64, equal to float64).
std::optional<DType> loop_input_for(ElementwiseOp op, const std::vector<Operand>& operands,
                                    DType out) {
  auto gives = [&](DType in) {
    std::vector<Operand> cast(operands.size(), Operand(Scalar(0.0).cast(in)));
    if (op == ElementwiseOp::ldexp) {  // NumPy's ldexp resolver: x casts safely, e as it is
      DType x = operands[0].is_array() ? operands[0].array().dtype() : operands[0].scalar().dtype();
      if (!can_cast(x, in, Casting::safe)) return false;
      cast[1] = operands[1];
    }
    DType loop = elementwise_loop_dtype(op, cast);
    return loop == in && functor_supports(op, loop) && functor_result(op, loop) == out;
  };
  DType natural = elementwise_loop_dtype(op, int_kinds(operands));  // equal's int64: bool
  if (functor_supports(op, natural) && functor_result(op, natural) == out) return natural;
  // NumPy's logical_* have a loop for every input dtype, all giving bool
  if (op_rule(op) == TypeRule::as_bool && out == DType::bool_) return natural;
  if (gives(out)) return out;
  if (is_floating(out)) {  // absolute of complex: the complex loop of that precision
    DType c = out == DType::float64 ? DType::complex128 : DType::complex64;
    if (gives(c)) return c;
  }
  return std::nullopt;
}

// binary_operands under dtype= or casting=: NumPy resolves a dtype='s loop before it converts a
// Python int beyond every integer dtype, then reads it in the loop's dtype (a float, else a C
// long: OverflowError); casting='equiv' refuses such an int without dtype=.
std::array<Operand, 2> keyword_operands(ElementwiseOp op, nb::handle a, nb::handle b,
                                        nb::handle dtype, nb::handle casting) {
  int sa = huge_int_sign(a), sb = huge_int_sign(b);
  if (bool(sa) == bool(sb)) return binary_operands(op, a, b);
  nb::handle huge = sa ? a : b;
  Operand other = to_operand(sa ? b : a);
  const char* name = op_name(op);
  if (std::optional<DType> dt = to_dtype(dtype)) {
    Operand probe(Scalar(int64_t(0), /*weak=*/true));
    std::optional<DType> in =
        loop_input_for(op, sa ? std::vector{probe, other} : std::vector{other, probe}, *dt);
    if (!in)
      throw TypeError(op_message(
          name, "No loop matching the specified signature and casting was found for ufunc " +
                    std::string(name)));
    if (!is_inexact(*in) || op_rule(op) == TypeRule::as_bool)
      throw OverflowError(op_message(name, "Python int too large to convert to C long"));
    double v = PyLong_AsDouble(huge.ptr());
    if (PyErr_Occurred()) throw nb::python_error();
    Operand h(Scalar(v, /*weak=*/true));
    return sa ? std::array{h, other} : std::array{other, h};
  }
  if (!casting.is_none() && nb::cast<std::string>(casting) == "equiv" && !is_comparison(op)) {
    DType to = elementwise_loop_dtype(op, {other, Operand(Scalar(0.0, /*weak=*/true))});
    throw TypeError(op_message(name, "cannot cast Python int to " + std::string(dtype_name(to)) +
                                         " under the casting rule 'equiv'"));
  }
  return binary_operands(op, a, b);
}

// NumPy's integer power checks each exponent inside its loop, so a negative exponent that where=
// masks out is no error: those exponents become 1 (their results are never written).
void skip_masked_exponents(std::vector<Operand>& operands, const Operand& mask, const Array* dst) {
  Operand& e = operands[1];
  if (!e.is_array() || dtype_kind(e.array().dtype()) != DTypeKind::signed_int) return;
  Shape full = dst ? dst->shape() : e.array().shape();
  for (const Operand& x : operands)
    if (x.is_array()) full = broadcast_shapes(full, x.array().shape(), "power");
  Shape mask_shape = mask.is_array() ? mask.array().shape() : Shape{};
  if (broadcast_shapes(full, mask_shape, "power") != full) return;  // reported by the call
  e = Operand(where(mask, e.array(), Scalar(int64_t(1), /*weak=*/true)));
}

// NumPy's ufunc keywords dtype= (the operands are cast to it first, which selects that loop),
// casting= (the rule for those casts and for writing into out) and where= (the result is written
// only where the mask holds: into out, else into zeros). They are rare, so they are composed here
// and the plain call stays one kernel.
nb::object ufunc_with_keywords(ElementwiseOp op, std::vector<Operand> operands, nb::handle out,
                               nb::handle where_mask, nb::handle dtype, nb::handle casting_name,
                               char order) {
  std::string name = op_name(op);
  std::string rule = casting_name.is_none() ? "same_kind" : nb::cast<std::string>(casting_name);
  Casting casting = to_casting(rule, name.c_str());
  if (std::optional<DType> dt = to_dtype(dtype)) {
    std::optional<DType> in = loop_input_for(op, operands, *dt);
    if (!in)
      throw TypeError(op_message(name.c_str(),
                                 "No loop matching the specified signature and "
                                 "casting was found for ufunc " +
                                     name));
    // NumPy converts the Python scalars while it resolves the loop, before any array's cast
    std::vector<size_t> order;
    for (int weak_pass = 1; weak_pass >= 0; --weak_pass)
      for (size_t i = 0; i < operands.size(); ++i)
        if ((!operands[i].is_array() && operands[i].scalar().weak()) == bool(weak_pass))
          order.push_back(i);
    for (size_t i : order) {
      Operand& o = operands[i];
      if (op == ElementwiseOp::ldexp && i == 1) {  // the exponent keeps its own loop dtype
        check_input_cast(op, i, o, elementwise_loop_inputs(op, operands)[1], casting, rule);
        continue;
      }
      // NumPy's logical_* take every input dtype for a bool result, under any casting=
      if (op_rule(op) != TypeRule::as_bool || *dt != DType::bool_)
        check_input_cast(op, i, o, *in, casting, rule);
      // a Python complex too: NumPy casts it to dtype= as it casts the arrays
      warn_complex_discarded(o.is_array() ? o.array().dtype() : o.scalar().dtype(), *in);
      if (op_rule(op) == TypeRule::as_bool && !o.is_array() && o.scalar().weak()) {
        if (o.scalar().dtype() == DType::uint64)  // beyond a C long, as in elementwise()
          throw OverflowError(
              op_message(name.c_str(), "Python int too large to convert to C long"));
        o = Operand(o.scalar().cast(DType::bool_));  // only its truth counts (300 is True)
        continue;
      }
      if (!o.is_array() && o.scalar().weak() && is_integer(*in) && is_integer(o.scalar().dtype()) &&
          !o.scalar().fits_integer(*in))
        result_type({Operand(Scalar(int64_t(0)).cast(*in)), o}, name.c_str());  // OverflowError
      o = o.is_array() ? Operand(astype(o.array(), *in, 'K', false))
                       : Operand(o.scalar().cast(*in));
    }
  } else if ((casting == Casting::no || casting == Casting::equiv) &&
             op_rule(op) != TypeRule::as_bool) {  // NumPy's logical_* accept any input dtype
    // the other rules hold by construction: NumPy picks a loop every input casts to safely
    std::vector<DType> loops = elementwise_loop_inputs(op, int_kinds(operands));
    for (size_t i = 0; i < operands.size(); ++i)
      check_input_cast(op, i, operands[i], loops[i], casting, rule);
  }
  const Array* dst = to_out(out, op_name(op));
  bool masked = where_mask.ptr() != Py_True;
  // A list mask is created where the operation runs, as a list operand is (operand_device)
  std::optional<Device> device;
  for (const Operand& x : operands)
    if (x.is_array() && !device) device = x.array().device();
  if (!device && dst) device = dst->device();
  const Operand mask = masked ? to_operand(where_mask, device) : Operand(Scalar(true));
  if (masked && op == ElementwiseOp::power) skip_masked_exponents(operands, mask, dst);
  if (dst && masked) {
    // NumPy's masked loop first reads out into the loop's output dtype: complex into real warns
    DType loop = elementwise_loop_dtype(op, operands);
    if (functor_supports(op, loop)) warn_complex_discarded(dst->dtype(), functor_result(op, loop));
  }
  if (!dst) {
    Array r = elementwise(op, operands, nullptr, order);
    if (!masked) return nb::cast(r);
    return nb::cast(where(mask, r, Scalar(int64_t(0)).cast(r.dtype())));
  }
  if (casting == Casting::same_kind) {  // out's own checks (shape, casting) apply
    if (!masked) return result_object(elementwise(op, operands, dst), out);
    Array staged = astype(*dst, dst->dtype(), true);
    elementwise(op, operands, &staged);
    assign(*dst, where(mask, staged, *dst));
    return result_object(*dst, out);
  }
  Array r = elementwise(op, operands);
  if (!can_cast(r.dtype(), dst->dtype(), casting))
    throw TypeError(cast_message(name, "output", r.dtype(), dst->dtype(), rule));
  warn_complex_discarded(r.dtype(), dst->dtype());
  Array value = astype(broadcast_to(r, dst->shape()), dst->dtype(), false);
  assign(*dst, masked ? Operand(where(mask, value, *dst)) : Operand(value));
  return result_object(*dst, out);
}

}  // namespace

Casting to_casting(const std::string& name, const char* op) {
  if (name == "no") return Casting::no;
  if (name == "equiv") return Casting::equiv;
  if (name == "safe") return Casting::safe;
  if (name == "same_kind") return Casting::same_kind;
  if (name == "unsafe") return Casting::unsafe;
  throw ValueError(
      op_message(op, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'"));
}

void bind_elementwise(nb::module_& m) {
// order= (NumPy's default 'K') lays out a new result; the plain call goes straight to
// elementwise().
#define GPUPY_DEF_1(name)                                                                          \
  m.def(                                                                                           \
      #name,                                                                                       \
      [](nb::handle x, nb::handle out, nb::handle where, nb::handle dtype, nb::handle casting,     \
         nb::handle order) {                                                                       \
        char layout = to_order(order, #name, 'K', "CFAK");                                         \
        if (huge_int_sign(x)) /* NumPy computes on an object array: no loop takes it */            \
          throw TypeError(op_message(#name,                                                        \
                                     "a Python int beyond every integer dtype is an object "       \
                                     "array to NumPy; gpupy has no object dtype"));                \
        if (where.ptr() == Py_True && dtype.is_none() && casting.is_none())                        \
          return result_object(                                                                    \
              elementwise(ElementwiseOp::name, {to_operand(x)}, to_out(out, #name), layout), out); \
        return ufunc_with_keywords(ElementwiseOp::name, {to_operand(x)}, out, where, dtype,        \
                                   casting, layout);                                               \
      },                                                                                           \
      "x"_a.none(), "out"_a = nb::none(), nb::kw_only(), "where"_a = true, "dtype"_a = nb::none(), \
      "casting"_a = nb::none(), "order"_a = nb::none(), "See numpy." #name ".");
#define GPUPY_DEF_2(name)                                                                    \
  m.def(                                                                                     \
      #name,                                                                                 \
      [](nb::handle x1, nb::handle x2, nb::handle out, nb::handle where, nb::handle dtype,   \
         nb::handle casting, nb::handle order) {                                             \
        char layout = to_order(order, #name, 'K', "CFAK");                                   \
        bool plain = where.ptr() == Py_True && dtype.is_none() && casting.is_none();         \
        auto [a, b] = plain ? binary_operands(ElementwiseOp::name, x1, x2)                   \
                            : keyword_operands(ElementwiseOp::name, x1, x2, dtype, casting); \
        if (plain)                                                                           \
          return result_object(                                                              \
              elementwise(ElementwiseOp::name, {a, b}, to_out(out, #name), layout), out);    \
        return ufunc_with_keywords(ElementwiseOp::name, {a, b}, out, where, dtype, casting,  \
                                   layout);                                                  \
      },                                                                                     \
      "x1"_a.none(), "x2"_a.none(), "out"_a = nb::none(), nb::kw_only(), "where"_a = true,   \
      "dtype"_a = nb::none(), "casting"_a = nb::none(), "order"_a = nb::none(),              \
      "See numpy." #name ".");
#define GPUPY_DEF_3(name)                                                                         \
  m.def(                                                                                          \
      #name,                                                                                      \
      [](nb::handle x1, nb::handle x2, nb::handle x3, nb::handle out, nb::handle where,           \
         nb::handle dtype, nb::handle casting, nb::handle order) {                                \
        char layout = to_order(order, #name, 'K', "CFAK");                                        \
        std::optional<Device> dev = operand_device({x1, x2, x3});                                 \
        std::vector<Operand> in{to_operand(x1, dev), to_operand(x2, dev), to_operand(x3, dev)};   \
        if (where.ptr() == Py_True && dtype.is_none() && casting.is_none())                       \
          return result_object(elementwise(ElementwiseOp::name, in, to_out(out, #name), layout),  \
                               out);                                                              \
        return ufunc_with_keywords(ElementwiseOp::name, in, out, where, dtype, casting, layout);  \
      },                                                                                          \
      "x1"_a.none(), "x2"_a.none(), "x3"_a.none(), "out"_a = nb::none(), nb::kw_only(),           \
      "where"_a = true, "dtype"_a = nb::none(), "casting"_a = nb::none(), "order"_a = nb::none(), \
      "See numpy." #name ".");
#define GPUPY_ELEMENTWISE(name, arity, rule, functor) GPUPY_DEF_##arity(name)
#include "gpupy/elementwise_ops.inc"
#undef GPUPY_ELEMENTWISE
#undef GPUPY_DEF_1
#undef GPUPY_DEF_2
#undef GPUPY_DEF_3

  m.def(
      "round",
      [](nb::handle x_in, int decimals, nb::handle out) {
        check_operand(x_in, "round");
        Array x = to_array(x_in, std::nullopt, std::nullopt);
        const Array* dst = to_out(out, "round");
        // NumPy scales, rounds and scales back real floats in a wider inexact out's dtype
        // (complex parts are rounded in their own dtype)
        bool widen = dst && is_floating(x.dtype()) && is_inexact(dst->dtype()) &&
                     x.dtype() != dst->dtype() && can_cast(x.dtype(), dst->dtype(), Casting::safe);
        DType rd = x.dtype() == DType::bool_ ? DType::float16 : x.dtype();  // bool: float16 rint
        if (dst && !can_cast(rd, dst->dtype(), Casting::same_kind))         // before out's shape
          throw TypeError("[round] Cannot cast array data from dtype('" +
                          std::string(dtype_name(rd)) + "') to dtype('" +
                          std::string(dtype_name(dst->dtype())) +
                          "') according to the rule 'same_kind'");
        if (dst && dst->shape() != x.shape())  // NumPy's round does not broadcast into out
          throw ValueError("[round] out has shape " + shape_str(dst->shape()) +
                           ", the result has " + shape_str(x.shape()));
        return result_object(round(widen ? astype(x, dst->dtype()) : x, decimals, dst), out);
      },
      "x"_a.none(), "decimals"_a = 0, "out"_a = nb::none(), "See numpy.round.");
  bind_promotion(m);

  auto cls = nb::type<Array>();
  nb::object ndarray = nb::borrow(cls);
  using E = ElementwiseOp;
#define GPUPY_OPERATOR(dunder, op)                                                             \
  nb::setattr(ndarray, "__" dunder "__",                                                       \
              nb::cpp_function(binary_operator<E::op>, nb::is_method(), "other"_a.none()));    \
  nb::setattr(ndarray, "__r" dunder "__",                                                      \
              nb::cpp_function(reflected_operator<E::op>, nb::is_method(), "other"_a.none())); \
  nb::setattr(ndarray, "__i" dunder "__",                                                      \
              nb::cpp_function(inplace_operator<E::op>, nb::is_method(), "other"_a.none()));
  GPUPY_OPERATOR("add", add)
  GPUPY_OPERATOR("sub", subtract)
  GPUPY_OPERATOR("mul", multiply)
  GPUPY_OPERATOR("truediv", divide)
  GPUPY_OPERATOR("floordiv", floor_divide)
  GPUPY_OPERATOR("mod", remainder)
  GPUPY_OPERATOR("pow", power)
  nb::setattr(ndarray, "__pow__",
              nb::cpp_function(power_operator, nb::is_method(), "other"_a.none()));
  nb::setattr(ndarray, "__ipow__",
              nb::cpp_function(inplace_power_operator, nb::is_method(), "other"_a.none()));
  GPUPY_OPERATOR("and", bitwise_and)
  GPUPY_OPERATOR("or", bitwise_or)
  GPUPY_OPERATOR("xor", bitwise_xor)
  GPUPY_OPERATOR("lshift", left_shift)
  GPUPY_OPERATOR("rshift", right_shift)
#undef GPUPY_OPERATOR
#define GPUPY_COMPARISON(dunder, op)     \
  nb::setattr(ndarray, "__" dunder "__", \
              nb::cpp_function(comparison_operator<E::op>, nb::is_method(), "other"_a.none()));
  GPUPY_COMPARISON("eq", equal)
  GPUPY_COMPARISON("ne", not_equal)
  GPUPY_COMPARISON("lt", less)
  GPUPY_COMPARISON("le", less_equal)
  GPUPY_COMPARISON("gt", greater)
  GPUPY_COMPARISON("ge", greater_equal)
#undef GPUPY_COMPARISON
  nb::setattr(ndarray, "__neg__", nb::cpp_function(unary_operator<E::negative>, nb::is_method()));
  nb::setattr(ndarray, "__pos__", nb::cpp_function(unary_operator<E::positive>, nb::is_method()));
  nb::setattr(ndarray, "__abs__", nb::cpp_function(unary_operator<E::absolute>, nb::is_method()));
  nb::setattr(ndarray, "__invert__", nb::cpp_function(unary_operator<E::invert>, nb::is_method()));
  // after __add__: assigning it clears the slot
  reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_as_sequence->sq_concat = refuse_concat;
}

}  // namespace gpupy::py
