// Bindings of the selection and joining chapters (where, clip, diagonals, concatenate, split...).
#include "bindings.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

std::optional<Operand> optional_operand(nb::handle value) {
  if (value.is_none()) return std::nullopt;
  return to_operand(value);
}

}  // namespace

void bind_joining(nb::module_& m) {
  m.def(
      "_where",
      [](nb::handle c, nb::handle x, nb::handle y) {
        std::optional<Device> dev = operand_device({c, x, y});
        return where(to_operand(c, dev), to_operand(x, dev), to_operand(y, dev));
      },
      "condition"_a, "x"_a, "y"_a);
  m.def(
      "_clip",
      [](const Array& x, nb::handle lo, nb::handle hi) {
        return clip(x, optional_operand(lo), optional_operand(hi));
      },
      "x"_a, "min"_a.none(), "max"_a.none());
  m.def("_tril", &tril, "m"_a, "k"_a);
  m.def("_triu", &triu, "m"_a, "k"_a);
  m.def("_diagonal", &diagonal, "a"_a, "offset"_a, "axis1"_a, "axis2"_a);
  m.def(
      "_trace",
      [](const Array& a, int64_t offset, int axis1, int axis2, nb::handle dtype) {
        std::optional<DType> dt = to_dtype(dtype);
        if (dt) warn_complex_discarded(a.dtype(), *dt);  // NumPy sums in dt: a complex cast
        return trace(a, offset, axis1, axis2, dt);
      },
      "a"_a, "offset"_a, "axis1"_a, "axis2"_a, "dtype"_a.none());
  m.def("_diag", &diag, "v"_a, "k"_a);
  m.def(
      "_concatenate",
      [](const std::vector<Array>& arrays, std::optional<int> axis, nb::handle dtype) {
        return concatenate(arrays, axis, to_dtype(dtype));
      },
      "arrays"_a, "axis"_a.none(), "dtype"_a.none());
  m.def("_stack", &stack, "arrays"_a, "axis"_a);
  m.def("_split_at", &split_at, "a"_a, "indices"_a, "axis"_a);
  m.def("_array_split", &array_split, "a"_a, "sections"_a, "axis"_a);
  m.def("_tile", &tile, "a"_a, "reps"_a);
  m.def("_repeat",
        nb::overload_cast<const Array&, const std::vector<int64_t>&, std::optional<int>>(&repeat),
        "a"_a, "repeats"_a, "axis"_a.none());
  m.def("_repeat_array", nb::overload_cast<const Array&, const Array&, std::optional<int>>(&repeat),
        "a"_a, "repeats"_a, "axis"_a.none());
  m.def("_roll", &roll, "a"_a, "shifts"_a, "axes"_a.none());
}

}  // namespace gpupy::py
