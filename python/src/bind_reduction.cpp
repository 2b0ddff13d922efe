// Bindings of the reduction chapter: module functions and the matching ndarray methods.
#include "bindings.h"

namespace gpupy::py {
namespace {

using namespace nb::literals;

Array as_input(nb::handle a) { return to_array(a, std::nullopt, std::nullopt); }

// Any integer-like (Python int, NumPy integer) through __index__, as NumPy accepts.
int index_value(nb::handle value, const char* op) {
  if (!PyIndex_Check(value.ptr()) || PyBool_Check(value.ptr()))  // NumPy refuses a bool axis
    throw TypeError(
        op_message(op, "'" + nb::cast<std::string>(nb::str(value.type().attr("__name__"))) +
                           "' object cannot be interpreted as an integer"));
  return nb::cast<int>(nb::steal(PyNumber_Index(value.ptr())));
}

// NumPy reads an integer axis 0 or -1 on a 0-d array as "reduce nothing" in its ufunc reductions
// and argmin/argmax (a tuple such as (0,) stays out of bounds); mean, var and std refuse it.
bool zero_d_axis(const Array& a, int axis) { return a.ndim() == 0 && (axis == 0 || axis == -1); }

std::optional<int> to_axis(nb::handle axis, const Array& a, const char* op) {
  if (axis.is_none()) return std::nullopt;
  int value = index_value(axis, op);
  if (zero_d_axis(a, value)) return std::nullopt;
  return value;
}

Axes to_reduce_axes(nb::handle axis, const Array& a, const char* op, bool ufunc_like = true) {
  if (axis.is_none()) return std::nullopt;
  if (PyIndex_Check(axis.ptr())) {
    int value = index_value(axis, op);
    if (ufunc_like && zero_d_axis(a, value)) return std::vector<int>{};
    return std::vector<int>{value};
  }
  if (!PyTuple_Check(axis.ptr()) && !PyList_Check(axis.ptr()))
    throw TypeError(op_message(op, "'axis' must be None, an integer or a tuple of integers"));
  std::vector<int> axes;
  for (nb::handle item : axis) axes.push_back(index_value(item, op));
  return axes;
}

using SumLike = Array (*)(const Array&, const Axes&, bool, std::optional<DType>);
template <SumLike F>
nb::object sum_like(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
                    bool keepdims) {
  Array x = as_input(a);
  // NumPy's add/multiply.reduce run in the promotion of the input and out (mean does not)
  std::optional<DType> dt =
      F == &gpupy::mean ? to_dtype(dtype) : dtype_or_out(dtype, out, x.dtype());
  if (dt && F == &gpupy::mean) warn_complex_discarded(x.dtype(), *dt);
  const char* op = F == &gpupy::sum ? "sum" : F == &gpupy::prod ? "prod" : "mean";
  return into_out(F(x, to_reduce_axes(axis, x, op, F != &gpupy::mean), keepdims, dt), out, op);
}

using MinLike = Array (*)(const Array&, const Axes&, bool);
template <MinLike F>
nb::object min_like(nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
  Array x = as_input(a);
  const char* op = F == &gpupy::min   ? "min"
                   : F == &gpupy::max ? "max"
                   : F == &gpupy::any ? "any"
                                      : "all";
  return into_out(F(x, to_reduce_axes(axis, x, op), keepdims), out, op);
}

using ArgLike = Array (*)(const Array&, std::optional<int>, bool);
template <ArgLike F>
nb::object arg_like(nb::handle a, nb::handle axis, nb::handle out, bool keepdims) {
  Array x = as_input(a);
  const char* op = F == &gpupy::argmax ? "argmax" : "argmin";
  Array r = F(x, to_axis(axis, x, op), keepdims);
  // NumPy writes the indices through an int64 copy of out, whose dtype must cast back safely
  const Array* target = to_out(out, op);
  if (target && target->shape() == r.shape() &&
      !can_cast(target->dtype(), DType::int64, Casting::safe))
    throw TypeError(op_message(op, "Cannot cast array data from dtype('" +
                                       std::string(dtype_name(target->dtype())) +
                                       "') to dtype('int64') according to the rule 'safe'"));
  return into_out(r, out, op);
}

using VarLike = Array (*)(const Array&, const Axes&, double, bool, std::optional<DType>);
template <VarLike F>
nb::object var_like(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out,
                    nb::handle ddof, bool keepdims, nb::handle correction) {
  Array x = as_input(a);
  std::optional<DType> dt = to_dtype(dtype);
  if (dt) warn_complex_discarded(x.dtype(), *dt);  // NumPy sums complex input in a real dt
  double d = nb::cast<double>(ddof);
  const char* op = F == &gpupy::var ? "var" : "std";
  if (!correction.is_none()) {
    if (d != 0)
      throw ValueError(op_message(op, "ddof and correction can't be provided simultaneously."));
    d = nb::cast<double>(correction);
  }
  return into_out(F(x, to_reduce_axes(axis, x, op, false), d, keepdims, dt), out, op);
}

}  // namespace

void bind_reduction(nb::module_& m) {
  auto axis = "axis"_a = nb::none();
  auto dtype = "dtype"_a = nb::none();
  auto out = "out"_a = nb::none();
  auto keepdims = "keepdims"_a = false;
  def_both(m, "sum", &sum_like<gpupy::sum>, axis, dtype, out, keepdims);
  def_both(m, "prod", &sum_like<gpupy::prod>, axis, dtype, out, keepdims);
  def_both(m, "mean", &sum_like<gpupy::mean>, axis, dtype, out, keepdims);
  def_both(m, "var", &var_like<gpupy::var>, axis, dtype, out, "ddof"_a = 0, keepdims, nb::kw_only(),
           "correction"_a = nb::none());
  def_both(m, "std", &var_like<gpupy::std>, axis, dtype, out, "ddof"_a = 0, keepdims, nb::kw_only(),
           "correction"_a = nb::none());
  def_both(m, "min", &min_like<gpupy::min>, axis, out, keepdims);
  def_both(m, "max", &min_like<gpupy::max>, axis, out, keepdims);
  def_both(m, "any", &min_like<gpupy::any>, axis, out, keepdims);
  def_both(m, "all", &min_like<gpupy::all>, axis, out, keepdims);
  def_both(m, "argmin", &arg_like<gpupy::argmin>, axis, out, nb::kw_only(), keepdims);
  def_both(m, "argmax", &arg_like<gpupy::argmax>, axis, out, nb::kw_only(), keepdims);
}

}  // namespace gpupy::py
