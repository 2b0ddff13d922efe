// Bindings of sorting, searching, counting and cumulative ops, with the matching ndarray methods.
#include <cctype>

#include "bindings.h"

namespace gpupy::py {
namespace {

using namespace nb::literals;

Array as_input(nb::handle a) { return to_array(a, std::nullopt, std::nullopt); }

std::optional<int> to_axis(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  if (!PyIndex_Check(axis.ptr()))
    throw TypeError("'" + nb::cast<std::string>(nb::str(axis.type().attr("__name__"))) +
                    "' object cannot be interpreted as an integer");
  return nb::cast<int>(nb::steal(PyNumber_Index(axis.ptr())));
}

// NumPy's kind=, stable= and order= of sort/argsort: every kind gives the same (stable) result
// here. NumPy reads a kind by its first letter and refuses kind= together with stable=.
void check_kind(nb::handle kind, nb::handle order, nb::handle stable) {
  if (!order.is_none())
    throw NotImplementedError("[sort] order= (structured arrays) is not supported");
  if (kind.is_none()) return;
  if (!PyUnicode_Check(kind.ptr()))
    throw TypeError("[sort] sort kind must be str, not " +
                    nb::cast<std::string>(kind.type().attr("__name__")));
  if (!stable.is_none())
    throw ValueError(
        "[sort] `kind` and keyword parameters can't be provided at the same time. Use only one "
        "of them.");
  std::string k = nb::cast<std::string>(kind);
  char first = k.empty() ? '\0' : static_cast<char>(std::tolower(static_cast<unsigned char>(k[0])));
  if (first != 'q' && first != 'm' && first != 'h' && first != 's')
    throw ValueError("[sort] sort kind must be one of 'quick', 'heap', or 'stable' (got '" + k +
                     "')");
}

Array sort_fn(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
              nb::handle stable) {
  check_kind(kind, order, stable);
  return gpupy::sort(as_input(a), to_axis(axis), descending);
}

Array argsort_fn(nb::handle a, nb::handle axis, nb::handle kind, nb::handle order, bool descending,
                 nb::handle stable) {
  check_kind(kind, order, stable);
  return gpupy::argsort(as_input(a), to_axis(axis), descending);
}

void sort_method(const Array& self, nb::handle axis, nb::handle kind, nb::handle order,
                 bool descending, nb::handle stable) {
  check_kind(kind, order, stable);
  if (axis.is_none()) throw TypeError("[sort] axis must be an integer for ndarray.sort");
  sort_inplace(self, *to_axis(axis), descending);
}

// partition/argpartition with kth already checked and made a list of ints by the Python layer.
Array partition_fn(nb::handle a, const std::vector<int64_t>& kth, nb::handle axis) {
  return gpupy::partition(as_input(a), kth, to_axis(axis));
}

Array argpartition_fn(nb::handle a, const std::vector<int64_t>& kth, nb::handle axis) {
  return gpupy::argpartition(as_input(a), kth, to_axis(axis));
}

bool fits_int64(nb::handle v) {
  int overflow = 0;
  PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  return overflow == 0;
}

// A Python int outside a 1-d integer array's dtype lies above (true) or below (false) every
// element, as NumPy's exact comparison finds; nullopt otherwise.
std::optional<bool> python_int_beyond(const Array& x, nb::handle v) {
  if (!PyLong_CheckExact(v.ptr()) || x.ndim() != 1 || is_inexact(x.dtype())) return std::nullopt;
  const bool above = PyObject_RichCompareBool(v.ptr(), nb::int_(0).ptr(), Py_GT) == 1;
  std::optional<Scalar> s;
  try {
    s = to_operand(v).scalar();
  } catch (const OverflowError&) {
    return above;  // beyond every integer dtype
  }
  if (is_bool(x.dtype()) || s->fits_integer(x.dtype())) return std::nullopt;
  return above;
}

Array searchsorted_fn(nb::handle a, nb::handle v, const std::string& side, nb::handle sorter) {
  if (side != "left" && side != "right")
    throw ValueError("[searchsorted] side must be 'left' or 'right' (got '" + side + "')");
  Array x = as_input(a);
  check_operand(v, "searchsorted");
  if (auto above = python_int_beyond(x, v))  // above or below every element: 0 or len(a)
    return full({}, Scalar(int64_t(*above ? x.shape()[0] : 0)), DType::int64, x.device());
  Operand q = PyLong_CheckExact(v.ptr()) && is_inexact(x.dtype()) && !fits_int64(v)
                  ? Operand(Scalar(PyLong_AsDouble(v.ptr()), true))  // compared as a float
                  : to_operand(v);
  if (PyErr_Occurred()) throw nb::python_error();
  if (q.is_array() || nb::hasattr(v, "ndim")) q = to_array(v, x.device(), std::nullopt);
  std::optional<Array> perm;
  if (!sorter.is_none()) perm = to_array(sorter, x.device(), std::nullopt);
  return gpupy::searchsorted(x, q, side == "right", perm ? &*perm : nullptr);
}

using CumFn = Array (*)(const Array&, std::optional<int>, std::optional<DType>);
template <CumFn F>
nb::object cum_fn(nb::handle a, nb::handle axis, nb::handle dtype, nb::handle out) {
  // NumPy's add/multiply.accumulate run in the promotion of the input and out
  Array x = as_input(a);
  std::optional<DType> dt = dtype_or_out(dtype, out, x.dtype());
  return into_out(F(x, to_axis(axis), dt), out, F == &gpupy::cumsum ? "cumsum" : "cumprod");
}

using CumulativeFn = Array (*)(const Array&, std::optional<int>, std::optional<DType>, bool);
template <CumulativeFn F>
nb::object cumulative_fn(nb::handle x, nb::handle axis, nb::handle dtype, nb::handle out,
                         bool include_initial) {
  Array a = as_input(x);
  std::optional<DType> dt = to_dtype(dtype);
  if (dt) warn_complex_discarded(a.dtype(), *dt);
  return into_out(F(a, to_axis(axis), dt, include_initial), out,
                  F == &gpupy::cumulative_sum ? "cumulative_sum" : "cumulative_prod");
}

Array count_nonzero_fn(nb::handle a, nb::handle axis, bool keepdims) {
  Array x = as_input(a);
  Axes axes = to_axes(axis);
  // As NumPy's add.reduce: an integer axis 0 or -1 on a 0-d array reduces nothing.
  if (x.ndim() == 0 && PyIndex_Check(axis.ptr()) && (axes->front() == 0 || axes->front() == -1))
    axes->clear();
  return gpupy::count_nonzero(x, axes, keepdims);
}

nb::object diff_fn(nb::handle a, int n, nb::handle axis_arg, nb::handle prepend,
                   nb::handle append) {
  // NumPy 2.4 returns the input itself for n=0 (a list too), before it reads the axis
  if (n == 0) return nb::borrow(a);
  Array x = as_input(a);
  std::optional<int> axis = to_axis(axis_arg);
  if (!axis) throw TypeError("[diff] 'NoneType' object cannot be interpreted as an integer");
  auto edge = [&](nb::handle e) -> std::optional<Array> {
    if (e.is_none()) return std::nullopt;
    return to_array(e, x.device(), std::nullopt);
  };
  return nb::cast(gpupy::diff(x, n, *axis, edge(prepend), edge(append)));
}

void bin_add_fn(const Array& bins, nb::handle index, nb::handle weights) {
  const Array idx = as_input(index);
  if (weights.is_none()) return gpupy::bin_add(bins, idx);
  const Array w = as_input(weights);
  gpupy::bin_add(bins, idx, &w);
}

}  // namespace

void bind_sorting(nb::module_& m) {
  auto kind = "kind"_a = nb::none();
  auto order = "order"_a = nb::none();
  auto descending = "descending"_a = false;
  auto stable = "stable"_a = nb::none();
  m.def("sort", operand_checked("sort", &sort_fn), "a"_a.none(), "axis"_a.none() = -1, kind, order,
        nb::kw_only(), descending, stable);
  def_both(m, "argsort", &argsort_fn, "axis"_a.none() = -1, kind, order, nb::kw_only(), descending,
           stable);
  nb::object ndarray = nb::borrow(nb::type<Array>());
  nb::setattr(
      ndarray, "sort",
      nb::cpp_function(&sort_method, nb::is_method(), nb::name("sort"), "axis"_a.none() = -1, kind,
                       order, nb::kw_only(), descending, stable));
  m.def("partition", &partition_fn, "a"_a, "kth"_a, "axis"_a.none() = -1);
  m.def("argpartition", &argpartition_fn, "a"_a, "kth"_a, "axis"_a.none() = -1);
  def_both(m, "searchsorted", &searchsorted_fn, "v"_a.none(), "side"_a = "left",
           "sorter"_a = nb::none());
  auto axis_none = "axis"_a = nb::none();
  auto dtype = "dtype"_a = nb::none();
  auto out = "out"_a = nb::none();
  def_both(m, "cumsum", &cum_fn<gpupy::cumsum>, axis_none, dtype, out);
  def_both(m, "cumprod", &cum_fn<gpupy::cumprod>, axis_none, dtype, out);
  m.def("cumulative_sum", operand_checked("cumulative_sum", &cumulative_fn<gpupy::cumulative_sum>),
        "x"_a.none(), nb::kw_only(), axis_none, dtype, out, "include_initial"_a = false);
  m.def("cumulative_prod",
        operand_checked("cumulative_prod", &cumulative_fn<gpupy::cumulative_prod>), "x"_a.none(),
        nb::kw_only(), axis_none, dtype, out, "include_initial"_a = false);
  m.def("bin_add", &bin_add_fn, "bins"_a, "index"_a, "weights"_a = nb::none());
  m.def(
      "_uniform_bin_index",
      [](const Array& x, const Array& edges, double keep_lo, double keep_hi, double first,
         double denom, bool sub_single, bool div_single) {
        return gpupy::uniform_bin_index(x, edges,
                                        {keep_lo, keep_hi, first, denom, sub_single, div_single});
      },
      "x"_a, "edges"_a, "keep_lo"_a, "keep_hi"_a, "first"_a, "denom"_a, "sub_single"_a,
      "div_single"_a);
  m.def("count_nonzero", operand_checked("count_nonzero", &count_nonzero_fn), "a"_a.none(),
        axis_none, nb::kw_only(), "keepdims"_a = false);
  m.def("diff", operand_checked("diff", &diff_fn), "a"_a.none(), "n"_a = 1, "axis"_a.none() = -1,
        "prepend"_a = nb::none(), "append"_a = nb::none());
}

}  // namespace gpupy::py
