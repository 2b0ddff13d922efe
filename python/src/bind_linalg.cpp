// Bindings of the linalg chapter: matmul, dot, the @ operator, the BLAS loader. Host compiler.
#include "backend/cpu/blas.h"
#include "bindings.h"

namespace gpupy::py {
namespace {

using namespace nb::literals;

// Long products run without the GIL; the arrays are built (and kept alive) before it is released.
Array matmul_nogil(const Array& a, const Array& b) {
  nb::gil_scoped_release release;
  return matmul(a, b);
}

Array dot_nogil(const Array& a, const Array& b) {
  nb::gil_scoped_release release;
  return dot(a, b);
}

// Lists are created on `list_device` (the other operand's, see operand_device); NumPy arrays
// keep to_array's rule.
Array as_array(nb::handle value, std::optional<Device> list_device = std::nullopt) {
  bool is_list = PyList_Check(value.ptr()) || PyTuple_Check(value.ptr());
  return to_array(value, is_list ? list_device : std::nullopt, std::nullopt);
}

// An operand of the module function op (declared `.none()`: None is refused by name here).
Array operand(nb::handle value, const char* op, std::optional<Device> list_device) {
  check_operand(value, op);
  return as_array(value, list_device);
}

// The two operands of a product, lists created on the other operand's device.
std::pair<Array, Array> operands(nb::handle a, nb::handle b, const char* op) {
  std::optional<Device> dev = operand_device({a, b});
  return {operand(a, op, dev), operand(b, op, dev)};
}

// The @ operator returns NotImplemented for operands it cannot interpret, as Python expects.
std::optional<Array> array_or_none(nb::handle value, Device device) {
  try {
    return as_array(value, device);
  } catch (const std::exception&) {
    PyErr_Clear();
    return std::nullopt;
  }
}

// As NumPy's @, a Python int beside an array is converted to that array's dtype first: one that
// does not fit an integer (or, for bool, int64) dtype raises OverflowError before the shapes are
// looked at; beside a float array a huge int becomes a float. Returns the operand to use.
nb::handle python_int_operand(const Array& self, nb::handle other, nb::object& keep) {
  if (!PyLong_Check(other.ptr()) || PyBool_Check(other.ptr())) return other;
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(other.ptr(), &overflow);
  bool fits = !overflow;
  if (overflow > 0 && self.dtype() == DType::uint64) {
    PyLong_AsUnsignedLongLong(other.ptr());
    fits = !PyErr_Occurred();
    PyErr_Clear();
    if (fits) {  // beyond int64: only a uint64 array takes it
      keep = nb::cast(to_array(other, self.device(), DType::uint64));
      return keep;
    }
  }
  if (is_inexact(self.dtype())) {
    if (!fits) keep = nb::float_(other);
    return fits ? other : keep;
  }
  if (fits && !overflow && is_integer(self.dtype()))
    fits = Scalar(int64_t(v), /*weak=*/true).fits_integer(self.dtype());
  if (!fits)
    throw OverflowError("[matmul] Python integer " + nb::cast<std::string>(nb::str(other)) +
                        " out of bounds for " + std::string(dtype_name(self.dtype())));
  return other;
}

nb::object matmul_operator(const Array& self, nb::handle other) {
  nb::object keep;
  auto o = array_or_none(python_int_operand(self, other, keep), self.device());
  if (!o) return nb::borrow(Py_NotImplemented);
  return nb::cast(matmul_nogil(self, *o));
}

nb::object rmatmul_operator(const Array& self, nb::handle other) {
  nb::object keep;
  auto o = array_or_none(python_int_operand(self, other, keep), self.device());
  if (!o) return nb::borrow(Py_NotImplemented);
  return nb::cast(matmul_nogil(*o, self));
}

}  // namespace

void bind_linalg(nb::module_& m) {
  m.def(
      "matmul",
      [](nb::handle x1, nb::handle x2) {
        auto [a, b] = operands(x1, x2, "matmul");
        return matmul_nogil(a, b);
      },
      "x1"_a.none(), "x2"_a.none(), "See numpy.matmul.");
  m.def(
      "dot",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = operands(a, b, "dot");
        return dot_nogil(x, y);
      },
      "a"_a.none(), "b"_a.none(), "See numpy.dot.");
  m.def(
      "inner",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = operands(a, b, "inner");
        return inner(x, y);
      },
      "a"_a.none(), "b"_a.none(), "See numpy.inner.");
  m.def(
      "outer",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = operands(a, b, "outer");
        return outer(x, y);
      },
      "a"_a.none(), "b"_a.none(), "See numpy.outer.");
  m.def(
      "vdot",
      [](nb::handle a, nb::handle b) {
        auto [x, y] = operands(a, b, "vdot");
        return vdot(x, y);
      },
      "a"_a.none(), "b"_a.none(), "See numpy.vdot.");
  m.def(
      "vecdot",
      [](nb::handle x1, nb::handle x2, int axis) {
        auto [a, b] = operands(x1, x2, "vecdot");
        return vecdot(a, b, axis);
      },
      "x1"_a.none(), "x2"_a.none(), nb::kw_only(), "axis"_a = -1, "See numpy.vecdot.");
  m.def(
      "_tensordot",
      [](nb::handle a, nb::handle b, const std::vector<int>& axes_a,
         const std::vector<int>& axes_b) {
        Array x = as_array(a), y = as_array(b);
        nb::gil_scoped_release release;
        return tensordot(x, y, axes_a, axes_b);
      },
      "a"_a, "b"_a, "axes_a"_a, "axes_b"_a, "tensordot with explicit axis lists.");
  m.def(
      "_sliding_dot",
      [](const Array& a, const Array& v, int64_t start, int64_t length) {
        nb::gil_scoped_release release;
        return sliding_dot(a, v, start, length);
      },
      "a"_a, "v"_a, "start"_a, "length"_a,
      "The slice [start, start + length) of the full correlation of 1-D a and v (see "
      "convolve).");
  m.def("_set_blas_library", &cpu::set_blas_library, "path"_a,
        "Loads the CBLAS library at `path` for cpu float matmul ('' to use gpupy's own kernel).");
  m.def("_blas_info", &cpu::blas_info, "Which BLAS the cpu device uses for float matmul.");

  nb::object ndarray = nb::borrow(nb::type<Array>());
  // None is taken, to return NotImplemented: Python then raises its TypeError naming both types.
  nb::setattr(ndarray, "__matmul__",
              nb::cpp_function(matmul_operator, nb::is_method(), "other"_a.none()));
  nb::setattr(ndarray, "__rmatmul__",
              nb::cpp_function(rmatmul_operator, nb::is_method(), "other"_a.none()));
  nb::setattr(
      ndarray, "dot",
      nb::cpp_function([](const Array& self,
                          nb::handle b) { return dot_nogil(self, as_array(b, self.device())); },
                       nb::is_method(), "b"_a, "See numpy.ndarray.dot."));
  // The original gpupy's method spellings: ga.add(gb), ga.mul(gb).
  nb::setattr(
      ndarray, "add",
      nb::cpp_function([](const Array& self,
                          nb::handle other) { return add(self, to_operand(other, self.device())); },
                       nb::is_method(), "other"_a, "Elementwise self + other (see gpupy.add)."));
  nb::setattr(ndarray, "mul",
              nb::cpp_function(
                  [](const Array& self, nb::handle other) {
                    return multiply(self, to_operand(other, self.device()));
                  },
                  nb::is_method(), "other"_a, "Elementwise self * other (see gpupy.multiply)."));
}

}  // namespace gpupy::py
