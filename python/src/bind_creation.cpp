// Creation functions and conversions to and from NumPy.
#include "bindings.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

Shape to_shape(nb::handle shape) {
  if (PyLong_Check(shape.ptr())) return {nb::cast<int64_t>(shape)};
  return nb::cast<Shape>(shape);
}

Scalar to_scalar(nb::handle value) {
  Operand o = to_operand(value);
  if (o.is_array()) throw TypeError("expected a scalar");
  return o.scalar();
}

}  // namespace

void bind_creation(nb::module_& m) {
  m.def(
      "_asarray",
      [](nb::handle obj, nb::handle dtype, nb::handle device) {
        std::optional<Device> dev;
        if (!device.is_none()) dev = to_device_arg(device);
        return to_array(obj, dev, to_dtype(dtype));
      },
      "obj"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def("_to_numpy", [](const Array& a) { return to_numpy(a); });
  m.def("_wrap_numpy", &wrap_numpy);
  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return empty(to_shape(shape), to_dtype(dtype).value_or(DType::float64),
                     to_device_arg(device));
      },
      "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return zeros(to_shape(shape), to_dtype(dtype).value_or(DType::float64),
                     to_device_arg(device));
      },
      "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return ones(to_shape(shape), to_dtype(dtype).value_or(DType::float64),
                    to_device_arg(device));
      },
      "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle device) {
        return full(to_shape(shape), to_scalar(fill_value), to_dtype(dtype), to_device_arg(device));
      },
      "shape"_a, "fill_value"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "_arange",
      [](nb::handle start, nb::handle stop, nb::handle step, nb::handle dtype, nb::handle device) {
        return arange(to_scalar(start), to_scalar(stop), to_scalar(step), to_dtype(dtype),
                      to_device_arg(device));
      },
      "start"_a, "stop"_a, "step"_a, "dtype"_a.none(), "device"_a.none());
  m.def(
      "linspace",
      [](nb::handle start, nb::handle stop, int64_t num, bool endpoint, nb::handle dtype,
         nb::handle device) {
        return linspace(to_scalar(start), to_scalar(stop), num, endpoint, to_dtype(dtype),
                        to_device_arg(device));
      },
      "start"_a, "stop"_a, "num"_a = 50, "endpoint"_a = true, "dtype"_a = nb::none(),
      "device"_a = nb::none());
  m.def(
      "eye",
      [](int64_t n, nb::handle m_cols, int64_t k, nb::handle dtype, nb::handle device) {
        int64_t cols = m_cols.is_none() ? n : nb::cast<int64_t>(m_cols);
        return eye(n, cols, k, to_dtype(dtype).value_or(DType::float64), to_device_arg(device));
      },
      "N"_a, "M"_a = nb::none(), "k"_a = 0, "dtype"_a = nb::none(), "device"_a = nb::none());
}

}  // namespace gpupy::py
