// Bindings of the manipulation chapter: shape changes and transpositions, views where NumPy's are.
#include "bindings.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

std::vector<int> to_int_list(nb::handle axes) {
  if (PyLong_Check(axes.ptr())) return {nb::cast<int>(axes)};
  return nb::cast<std::vector<int>>(axes);
}

}  // namespace

void bind_manipulation(nb::module_& m) {
  m.def(
      "reshape",
      [](const Array& a, nb::handle shape) { return reshape(a, to_shape(shape, "reshape")); },
      "a"_a, "shape"_a);
  m.def(
      "permute_dims",
      [](const Array& a, nb::handle axes) { return permute_dims(a, to_int_list(axes)); }, "a"_a,
      "axes"_a);
  m.def(
      "_transpose",
      [](const Array& a, nb::handle axes) {
        return axes.is_none() ? transpose(a) : permute_dims(a, to_int_list(axes));
      },
      "a"_a, "axes"_a = nb::none());
  m.def("matrix_transpose", &matrix_transpose, "x"_a);
  m.def(
      "expand_dims",
      [](const Array& a, nb::handle axis) { return expand_dims(a, to_int_list(axis)); }, "a"_a,
      "axis"_a);
  m.def(
      "squeeze",
      [](const Array& a, nb::handle axis) {
        // NumPy reads an integer axis 0 or -1 of a 0-d array as "squeeze nothing" (not a tuple)
        if (a.ndim() == 0 && PyIndex_Check(axis.ptr())) {
          const int64_t ax = nb::cast<int64_t>(nb::steal(PyNumber_Index(axis.ptr())));
          if (ax == 0 || ax == -1) return squeeze(a, std::vector<int>{});
        }
        return squeeze(a, to_axes(axis));
      },
      "a"_a, "axis"_a = nb::none());
  m.def("ravel", &ravel, "a"_a);
  m.def(
      "_broadcast_to",
      [](const Array& a, nb::handle shape) {
        return broadcast_to(a, to_shape(shape, "broadcast_to"));
      },
      "a"_a, "shape"_a);
  m.def("_broadcast_arrays", &broadcast_arrays, "arrays"_a);
  m.def("_broadcast_shapes", [](const std::vector<Shape>& shapes) {
    Shape out;
    for (const Shape& s : shapes) out = broadcast_shapes(out, s);
    return nb::tuple(nb::cast(out));
  });
  m.def("ascontiguousarray", &ascontiguousarray, "a"_a);
  m.def("swapaxes", &swapaxes, "a"_a, "axis1"_a, "axis2"_a);
  m.def(
      "moveaxis",
      [](const Array& a, nb::handle source, nb::handle destination) {
        return moveaxis(a, to_int_list(source), to_int_list(destination));
      },
      "a"_a, "source"_a, "destination"_a);
  m.def(
      "flip", [](const Array& a, nb::handle axis) { return flip(a, to_axes(axis)); }, "m"_a,
      "axis"_a = nb::none());
}

}  // namespace gpupy::py
