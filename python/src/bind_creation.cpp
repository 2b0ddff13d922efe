// Creation functions and conversions to and from NumPy.
#include <algorithm>
#include <numeric>

#include "../../src/backend/registry.h"
#include "bindings.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

// A Python or NumPy scalar, or a 0-d gpupy array read as its value (np.arange(n.max() + 1)).
Scalar to_scalar(nb::handle value) {
  Operand o = to_operand(value);
  if (!o.is_array()) return o.scalar();
  if (o.array().ndim() != 0) throw TypeError("expected a scalar");
  return item(o.array());
}

// A NumPy array viewing the memory of a cpu or emu array (both live in host memory), for the
// host-library twins (gpupy.linalg, gpupy.fft). The NumPy array's base holds `self` alive.
nb::object host_view(nb::handle self) {
  const Array& a = *nb::inst_ptr<Array>(self);
  if (a.device().type != DeviceType::cpu && a.device().type != DeviceType::emu)
    throw NotImplementedError(
        "[_host_view] only cpu and emu arrays live in host memory; this "
        "array is on '" +
        a.device().str() + "'");
  backend_for(a.device()).synchronize();  // queued work must land before the host reads
  static nb::object asarray = nb::module_::import_("numpy").attr("asarray");
  // cpu arrays export the buffer protocol, NumPy's fastest way in (0.3 us; the dict below 1.7).
  if (a.device().type == DeviceType::cpu) return asarray(self);
  nb::dict iface;
  iface["shape"] = int_tuple(a.shape());
  iface["strides"] = nb::tuple(nb::cast(a.strides()));
  iface["typestr"] = numpy_dtype(a.dtype()).attr("str");
  iface["data"] = nb::make_tuple(reinterpret_cast<uintptr_t>(a.data()), a.readonly());
  iface["version"] = 3;
  static nb::object ns = nb::module_::import_("types").attr("SimpleNamespace");
  nb::object holder = ns();
  nb::setattr(holder, "__array_interface__", iface);
  nb::setattr(holder, "array", self);
  return asarray(holder);
}

// The `offset`-th diagonal of the last two axes as a view (see numpy.linalg.diagonal).
Array diagonal_view(const Array& a, int64_t offset) {
  if (a.ndim() < 2)
    throw ValueError("[linalg.diagonal] the array must be at least two-dimensional, got " +
                     std::to_string(a.ndim()) + " dimension(s)");
  int nd = a.ndim();
  int64_t rows = a.shape()[nd - 2], cols = a.shape()[nd - 1];
  int64_t rs = a.strides()[nd - 2], cs = a.strides()[nd - 1];
  int64_t n = offset >= 0 ? std::min(rows, cols - offset) : std::min(rows + offset, cols);
  n = std::max<int64_t>(n, 0);
  int64_t start = n == 0 ? 0 : (offset >= 0 ? offset * cs : -offset * rs);
  Shape shape(a.shape().begin(), a.shape().end() - 2);
  Strides strides(a.strides().begin(), a.strides().end() - 2);
  shape.push_back(n);
  strides.push_back(rs + cs);
  return a.view(shape, strides, a.offset() + start);
}

}  // namespace

void bind_creation(nb::module_& m) {
  m.def(
      "_asarray",
      [](nb::handle obj, nb::handle dtype, nb::handle device) {
        std::optional<Device> dev;
        if (!device.is_none()) dev = to_device_arg(device);
        std::optional<DType> dt = to_dtype(dtype);
        if (dt && nb::isinstance<Array>(obj))
          warn_complex_discarded(nb::cast<Array>(obj).dtype(), *dt);
        return to_array(obj, dev, dt);
      },
      "obj"_a.none(), "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def("_to_numpy", [](const Array& a) { return to_numpy(a); });
  m.def("_wrap_numpy", &wrap_numpy, "value"_a, "may_copy"_a = true);
  m.def("_diagonal", &diagonal_view, "a"_a, "offset"_a = 0);
  m.def("_host_view", &host_view, "a"_a,
        "Private: a NumPy view of a cpu or emu array's host memory (no copy).");
  m.def(
      "empty",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return empty(to_shape(shape, "empty"), to_dtype(dtype).value_or(DType::float64),
                     to_device_arg(device));
      },
      "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "zeros",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return zeros(to_shape(shape, "zeros"), to_dtype(dtype).value_or(DType::float64),
                     to_device_arg(device));
      },
      "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "_check_order",
      [](nb::handle order, const char* op, const char* fallback, const char* allowed) {
        return std::string(1, to_order(order, op, fallback[0], allowed));
      },
      "order"_a.none(), "op"_a, "default"_a, "allowed"_a,
      "NumPy's order= as one upper-case letter of `allowed` (None: `default`).");
  m.def(
      "_layout_axes",
      [](const Array& a, nb::handle order, const char* op) -> nb::object {
        std::vector<int> axes = layout_axes(a, to_order(order, op, 'C', "CFAK"));
        for (size_t i = 0; i < axes.size(); ++i)
          if (axes[i] != static_cast<int>(i)) return nb::tuple(nb::cast(axes));
        return nb::none();
      },
      "a"_a, "order"_a.none(), "op"_a,
      "The axes order= reads `a` in, as ops.h's layout_axes; None for C order.");
  m.def(
      "_iteration_axes",
      [](nb::handle shape, const std::vector<Array>& operands, nb::handle order, const char* op) {
        std::vector<const Array*> arrays;
        for (const Array& a : operands) arrays.push_back(&a);
        return nb::tuple(nb::cast(
            iteration_axes(to_shape(shape, op), arrays, to_order(order, op, 'K', "CFAK"))));
      },
      "shape"_a, "operands"_a, "order"_a.none(), "op"_a,
      "The axes, outermost first, of a new result of `shape` that NumPy's iterator lays out "
      "from `operands` (ops.h's iteration_axes).");
  m.def(
      "_like_layout",
      [](const Array& prototype, nb::handle shape, nb::handle order, const char* op) {
        char layout = to_order(order, op, 'K', "CFAK");
        Shape s = shape.is_none() ? prototype.shape() : to_shape(shape, op);
        std::vector<int> axes;
        if (static_cast<int>(s.size()) == prototype.ndim()) {
          axes = layout_axes(prototype, layout);
        } else {  // NumPy: a shape of another length keeps only an F order
          bool fortran = layout == 'F' || (layout == 'A' && prototype.is_f_contiguous() &&
                                           !prototype.is_c_contiguous());
          axes.resize(s.size());
          std::iota(axes.begin(), axes.end(), 0);
          if (fortran) std::reverse(axes.begin(), axes.end());
        }
        Shape allocated(s.size());
        Shape back(s.size());
        bool identity = true;
        for (size_t i = 0; i < s.size(); ++i) {
          allocated[i] = s[static_cast<size_t>(axes[i])];
          back[static_cast<size_t>(axes[i])] = static_cast<int64_t>(i);
          identity = identity && axes[i] == static_cast<int>(i);
        }
        return nb::make_tuple(int_tuple(allocated),
                              identity ? nb::object(nb::none()) : nb::object(int_tuple(back)));
      },
      "prototype"_a, "shape"_a.none(), "order"_a.none(), "op"_a,
      "A *_like function's layout: the shape to allocate in C order, and the axes that put it "
      "back (None for C order).");
  m.def(
      "ones",
      [](nb::handle shape, nb::handle dtype, nb::handle device) {
        return ones(to_shape(shape, "ones"), to_dtype(dtype).value_or(DType::float64),
                    to_device_arg(device));
      },
      "shape"_a, "dtype"_a = nb::none(), "device"_a = nb::none());
  m.def(
      "full",
      [](nb::handle shape, nb::handle fill_value, nb::handle dtype, nb::handle device) {
        check_operand(fill_value, "full");
        Scalar value = to_scalar(fill_value);
        std::optional<DType> dt = to_dtype(dtype);
        if (dt) warn_complex_discarded(value.dtype(), *dt);
        return full(to_shape(shape, "full"), value, dt, to_device_arg(device));
      },
      "shape"_a, "fill_value"_a.none(), "dtype"_a = nb::none(), "device"_a = nb::none());
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
