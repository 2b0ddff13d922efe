// Conversions between Python objects and the C++ API's types.
#include <cmath>
#include <complex>
#include <vector>

#include "bindings.h"
#include "gpupy/alignment.h"
#include "gpupy/error.h"

namespace gpupy::py {
namespace {

nb::module_& numpy() {
  static nb::module_* np = new nb::module_(nb::module_::import_("numpy"));
  return *np;
}

DType dtype_of_numpy(nb::handle np_dtype) {
  std::string typestr = nb::cast<std::string>(np_dtype.attr("str"));
  try {
    return dtype_from_name(typestr);
  } catch (const TypeError&) {
    throw TypeError("[asarray] NumPy dtype '" + nb::cast<std::string>(nb::str(np_dtype)) +
                    "' is not supported by gpupy");
  }
}

Scalar python_int(nb::handle h) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (!overflow) return Scalar(int64_t(v), true);
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(h.ptr());
    if (!PyErr_Occurred()) return Scalar(uint64_t(u), true);
    PyErr_Clear();
  }
  throw OverflowError("Python integer " + nb::cast<std::string>(nb::str(h)) +
                      " is out of bounds for every gpupy integer dtype");
}

// The gpupy dtype of NumPy's scalar type `type` (numpy.float64, numpy.int8, ...; not their
// subclasses), or nullopt.
std::optional<DType> numpy_scalar_dtype(PyTypeObject* type) {
  static const auto* types = [] {
    auto* t = new std::vector<std::pair<PyTypeObject*, DType>>;
    for (int i = 0; i < kNumDTypes; ++i) {
      nb::object scalar_type = numpy_dtype(static_cast<DType>(i)).attr("type");
      t->emplace_back(reinterpret_cast<PyTypeObject*>(scalar_type.release().ptr()),
                      static_cast<DType>(i));
    }
    return t;
  }();
  for (const auto& [t, dt] : *types)
    if (t == type) return dt;
  return std::nullopt;
}

// A NumPy scalar's value read through its buffer (a strong scalar of its dtype): about 1 us
// less per operand than asking it for .dtype and .item(). nullopt where that does not apply.
std::optional<Scalar> numpy_scalar(nb::handle h) {
  std::optional<DType> dt = numpy_scalar_dtype(Py_TYPE(h.ptr()));
  if (!dt) return std::nullopt;
  Py_buffer view;
  if (PyObject_GetBuffer(h.ptr(), &view, PyBUF_SIMPLE) != 0) {
    PyErr_Clear();
    return std::nullopt;
  }
  std::optional<Scalar> value;
  if (view.len == static_cast<Py_ssize_t>(itemsize(*dt)))
    value = Scalar::from_memory(*dt, view.buf);
  PyBuffer_Release(&view);
  return value;
}

// A Python or NumPy scalar, or nullopt for anything else.
std::optional<Scalar> as_scalar(nb::handle h) {
  if (PyBool_Check(h.ptr())) return Scalar(h.ptr() == Py_True, true);
  if (PyLong_CheckExact(h.ptr())) return python_int(h);
  if (PyFloat_CheckExact(h.ptr())) return Scalar(PyFloat_AS_DOUBLE(h.ptr()), true);
  if (auto s = numpy_scalar(h)) return s;
  static nb::object generic = numpy().attr("generic");
  static nb::object ndarray = numpy().attr("ndarray");
  // numpy.float64 and numpy.complex128 subclass float and complex, but NumPy's own scalars are
  // strongly typed (NEP 50): they go through the NumPy path below, not the weak one.
  bool is_generic = PyObject_IsInstance(h.ptr(), generic.ptr()) == 1;
  if (!is_generic && PyFloat_Check(h.ptr())) return Scalar(PyFloat_AS_DOUBLE(h.ptr()), true);
  if (!is_generic && PyComplex_Check(h.ptr()))
    return Scalar(complex128(PyComplex_RealAsDouble(h.ptr()), PyComplex_ImagAsDouble(h.ptr())),
                  true);
  if (!is_generic && PyLong_Check(h.ptr())) return python_int(h);  // int subclasses but bool
  bool is_0d = !is_generic && PyObject_IsInstance(h.ptr(), ndarray.ptr()) == 1 &&
               nb::cast<int>(h.attr("ndim")) == 0;
  if (!is_generic && !is_0d) return std::nullopt;
  DType dt = dtype_of_numpy(h.attr("dtype"));
  Scalar value = *as_scalar(h.attr("item")());
  return Scalar(value.cast(dt));  // strong: keeps the NumPy dtype
}

}  // namespace

std::optional<DType> to_dtype(nb::handle dtype) {
  if (dtype.is_none()) return std::nullopt;
  if (PyUnicode_Check(dtype.ptr())) {
    std::string name = nb::cast<std::string>(dtype);
    try {
      return dtype_from_name(name);
    } catch (const TypeError&) {
    }
  }
  return dtype_of_numpy(numpy().attr("dtype")(dtype));
}

std::optional<DType> dtype_or_out(nb::handle dtype, nb::handle out, DType input) {
  std::optional<DType> dt = to_dtype(dtype);
  if (!dt && nb::isinstance<Array>(out)) dt = promote_types(input, nb::cast<Array>(out).dtype());
  if (dt) warn_complex_discarded(input, *dt);  // NumPy casts complex input to a real dt
  if (nb::isinstance<Array>(out)) warn_complex_discarded(*dt, nb::cast<Array>(out).dtype());
  return dt;
}

nb::object numpy_dtype(DType dt) {
  static nb::object* cache = [] {
    auto* c = new nb::object[kNumDTypes];
    for (int i = 0; i < kNumDTypes; ++i)
      c[i] = numpy().attr("dtype")(std::string(dtype_name(static_cast<DType>(i))));
    return c;
  }();
  return cache[static_cast<int>(dt)];
}

Device to_device_arg(nb::handle device) {
  if (device.is_none()) return default_device();
  if (nb::isinstance<Device>(device)) return nb::cast<Device>(device);
  if (PyUnicode_Check(device.ptr())) return Device::parse(nb::cast<std::string>(device));
  if (nb::hasattr(device, "_device")) return nb::cast<Device>(device.attr("_device"));
  throw TypeError("[device] expected a device name such as 'cpu', 'emu' or 'cuda:0', got " +
                  nb::cast<std::string>(nb::repr(device)));
}

namespace {

// gpupy's dtype of a NumPy dtype object that is NumPy's canonical (native byte order) instance of
// one of gpupy's dtypes, found by pointer; nullopt for any other dtype object.
std::optional<DType> canonical_dtype(nb::handle np_dtype) {
  for (int i = 0; i < kNumDTypes; ++i)
    if (numpy_dtype(static_cast<DType>(i)).ptr() == np_dtype.ptr()) return static_cast<DType>(i);
  return std::nullopt;
}

// A NumPy array of a canonical dtype with aligned items, wrapped through its buffer (no dict
// built for __array_interface__: about 1 us less); nullopt where the general path must decide.
std::optional<Array> wrap_numpy_buffer(nb::handle arr) {
  std::optional<DType> dt = canonical_dtype(nb::handle(arr.attr("dtype")));
  if (!dt) return std::nullopt;
  Py_buffer view;
  if (PyObject_GetBuffer(arr.ptr(), &view, PyBUF_STRIDES) != 0) {  // read-only arrays too
    PyErr_Clear();
    return std::nullopt;
  }
  Shape shape(view.shape, view.shape + view.ndim);
  Strides strides(view.strides, view.strides + view.ndim);
  void* ptr = view.buf;
  const bool readonly = view.readonly;
  PyBuffer_Release(&view);
  if (!alignment_error(ptr, shape, strides, *dt).empty()) return std::nullopt;
  return Array::wrap(ptr, shape, strides, *dt, Device{}, python_owner(nb::borrow(arr)), readonly);
}

}  // namespace

Array wrap_numpy(nb::handle value, bool may_copy) {
  static nb::handle ndarray_type = numpy().attr("ndarray");
  nb::object arr = value.type().is(ndarray_type) ? nb::borrow(value)
                                                 : nb::object(numpy().attr("asarray")(value));
  if (auto wrapped = wrap_numpy_buffer(arr)) return *wrapped;
  // gpupy's loops read native byte order: a byte-swapped array ('>f8' on a little-endian host)
  // is read through NumPy's cast to its native twin, as NumPy's own loops do.
  nb::object np_dtype = arr.attr("dtype");
  if (!nb::cast<bool>(np_dtype.attr("isnative"))) {
    if (!may_copy)
      throw ValueError(
          "[asarray] Unable to avoid copy while creating an array as requested: the array's "
          "byte order is not the host's");
    arr = arr.attr("astype")(np_dtype.attr("newbyteorder")("="));
  }
  DType dt = dtype_of_numpy(arr.attr("dtype"));
  for (int attempt = 0;; ++attempt) {
    nb::dict iface = nb::cast<nb::dict>(arr.attr("__array_interface__"));
    nb::tuple data = nb::cast<nb::tuple>(iface["data"]);
    auto ptr = reinterpret_cast<void*>(nb::cast<uintptr_t>(data[0]));
    bool readonly = nb::cast<bool>(data[1]);
    Shape shape = nb::cast<Shape>(iface["shape"]);
    nb::object st = iface.contains("strides") ? nb::object(iface["strides"]) : nb::none();
    Strides strides = st.is_none() ? c_strides(shape, itemsize(dt)) : nb::cast<Strides>(st);
    // gpupy's loops load items as aligned words: unaligned NumPy data (a packed record's field,
    // frombuffer at an odd offset) is copied, as NumPy's own casts do, or refused.
    if (std::string problem = alignment_error(ptr, shape, strides, dt); !problem.empty()) {
      if (!may_copy) {
        throw ValueError(
            "[asarray] Unable to avoid copy while creating an array as requested: the array "
            "cannot be shared because " +
            problem);
      }
      if (attempt > 0) throw Error("[asarray] NumPy's copy is not aligned: " + problem);
      arr = numpy().attr("array")(arr, nb::arg("copy") = true);
      continue;
    }
    return Array::wrap(ptr, shape, strides, dt, Device{}, python_owner(std::move(arr)), readonly);
  }
}

std::shared_ptr<void> python_owner(nb::object obj) {
  return std::shared_ptr<void>(obj.release().ptr(), [](void* p) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(p));
  });
}

CudaArrayInterface read_cuda_array_interface(nb::handle obj, const std::string& op) {
  nb::dict cai = nb::cast<nb::dict>(obj.attr("__cuda_array_interface__"));
  CudaArrayInterface r;
  r.masked = cai.contains("mask") && !cai["mask"].is_none();
  std::string typestr = nb::cast<std::string>(cai["typestr"]);
  try {
    r.dtype = dtype_from_name(typestr);
  } catch (const TypeError&) {
    throw TypeError(op + " __cuda_array_interface__ typestr '" + typestr +
                    "' is not supported by gpupy");
  }
  r.shape = nb::cast<Shape>(cai["shape"]);
  nb::tuple data = nb::cast<nb::tuple>(cai["data"]);
  r.data = reinterpret_cast<void*>(nb::cast<uintptr_t>(data[0]));
  r.readonly = nb::cast<bool>(data[1]);
  nb::object st = cai.contains("strides") ? nb::object(cai["strides"]) : nb::none();
  r.c_order = st.is_none();
  r.strides = r.c_order ? c_strides(r.shape, itemsize(r.dtype)) : nb::cast<Strides>(st);
  if (cai.contains("stream") && !cai["stream"].is_none())
    r.stream = nb::cast<uintptr_t>(cai["stream"]);
  return r;
}

int huge_int_sign(nb::handle h) {
  if (!PyLong_Check(h.ptr()) || PyBool_Check(h.ptr())) return 0;
  int overflow = 0;
  PyLong_AsLongLongAndOverflow(h.ptr(), &overflow);
  if (overflow > 0) {
    PyLong_AsUnsignedLongLong(h.ptr());
    if (!PyErr_Occurred()) return 0;
    PyErr_Clear();
  }
  return overflow;
}

Operand to_operand(nb::handle value, std::optional<Device> list_device) {
  if (nb::isinstance<Array>(value)) return nb::cast<Array>(value);
  if (auto s = as_scalar(value)) return *s;
  // A list is no one's memory: it is created where the operation runs. NumPy arrays stay
  // zero-copy host arrays (copying them to a device behind the user's back is refused).
  if (PyList_Check(value.ptr()) || PyTuple_Check(value.ptr()))
    return to_array(value, list_device ? *list_device : default_device(), std::nullopt);
  return wrap_numpy(value);
}

std::optional<Device> operand_device(std::initializer_list<nb::handle> values) {
  for (nb::handle v : values)
    if (nb::isinstance<Array>(v)) return nb::cast<const Array&>(v).device();
  return std::nullopt;
}

namespace {

/// Whether nested lists and tuples hold a gpupy array (gpupy._creation._first_gpupy_array's
/// test, without a Python call per element: a list of 1000 floats took 0.2 ms that way). Nesting
/// deeper than NumPy's 64 dimensions is left to NumPy's error.
bool holds_gpupy_array(nb::handle seq, int depth = 0) {
  if (depth > 64) return false;
  nb::object fast = nb::steal(PySequence_Fast(seq.ptr(), ""));
  if (!fast.is_valid()) throw nb::python_error();
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast.ptr()); ++i) {
    nb::handle item = PySequence_Fast_GET_ITEM(fast.ptr(), i);
    if (nb::isinstance<Array>(item)) return true;
    if ((PyList_Check(item.ptr()) || PyTuple_Check(item.ptr())) &&
        holds_gpupy_array(item, depth + 1))
      return true;
  }
  return false;
}

}  // namespace

Array to_array(nb::handle value, std::optional<Device> device, std::optional<DType> dtype) {
  check_operand(value, "asarray");  // not NumPy's object array: gpupy has no object dtype
  if (nb::isinstance<Array>(value)) {
    Array a = nb::cast<Array>(value);
    if (device && a.device() != *device) a = gpupy::to_device(a, *device);
    return dtype ? astype(a, *dtype, false) : a;
  }
  Device dev = device ? *device : default_device();
  // A Python float to an integer (NumPy's int(): NaN, infinity and a value the dtype cannot
  // hold raise), a complex to a real dtype or an int beyond int64/uint64 take NumPy's conversion
  // below, with its errors (asarray(nan, dtype=int8), array(-2.5, dtype=uint32)).
  bool numpy_checks = dtype && huge_int_sign(value);
  if (!numpy_checks && dtype &&
      (PyFloat_CheckExact(value.ptr()) || PyComplex_CheckExact(value.ptr())))
    numpy_checks = PyComplex_CheckExact(value.ptr()) ? !is_complex(*dtype) && !is_bool(*dtype)
                                                     : is_integer(*dtype);
  if (auto s = numpy_checks ? std::nullopt : as_scalar(value); s && !nb::hasattr(value, "ndim")) {
    // a Python int above int64's range is uint64, as NumPy's asarray makes it
    if (!dtype && s->dtype() == DType::uint64) dtype = DType::uint64;
    return full({}, *s, dtype, dev);
  }
  if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) {
    // Sequences holding gpupy arrays are stacked on the arrays' device: NumPy cannot read the
    // data of emu and cuda arrays, and a host round trip of cpu ones is a waste.
    if (holds_gpupy_array(value)) {
      static nb::object* creation = new nb::object(nb::module_::import_("gpupy._creation"));
      nb::object dev_arg = device ? nb::cast(*device) : nb::none();
      nb::object dt_arg = dtype ? numpy_dtype(*dtype) : nb::none();
      return nb::cast<Array>(creation->attr("_from_nested_arrays")(value, dt_arg, dev_arg));
    }
  }
  nb::object arr =
      dtype ? numpy().attr("asarray")(value, numpy_dtype(*dtype)) : numpy().attr("asarray")(value);
  Array host = wrap_numpy(arr);
  if (dev.type == DeviceType::cpu) return host;
  return from_host(host.data(), host.shape(), host.strides(), host.dtype(), dev);
}

nb::object to_numpy(const Array& a) {
  nb::object out = numpy().attr("empty")(int_tuple(a.shape()), numpy_dtype(a.dtype()));
  nb::dict iface = nb::cast<nb::dict>(out.attr("__array_interface__"));
  auto ptr = reinterpret_cast<void*>(nb::cast<uintptr_t>(nb::cast<nb::tuple>(iface["data"])[0]));
  {
    nb::gil_scoped_release release;
    to_host(a, ptr);
  }
  return out;
}

namespace {
// One dimension: anything with __index__; a clear TypeError or ValueError naming `op` otherwise.
// Returns false (with no Python error set) when `item` is not an integer at all.
bool index_dim(nb::handle item, const char* op, int64_t& out) {
  // NumPy refuses a bool as a dimension (True is not the length 1)
  if (!PyIndex_Check(item.ptr()) || PyBool_Check(item.ptr())) return false;
  nb::object index = nb::steal(PyNumber_Index(item.ptr()));
  if (!index) {
    PyErr_Clear();
    return false;
  }
  int overflow = 0;
  long long value = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow) throw ValueError(std::string("[") + op + "] Maximum allowed dimension exceeded");
  out = value;
  return true;
}
}  // namespace

Shape to_shape(nb::handle shape, const char* op) {
  int64_t n;
  if (index_dim(shape, op, n)) return {n};
  bool text = PyUnicode_Check(shape.ptr()) || PyBytes_Check(shape.ptr());
  nb::object seq = text ? nb::object() : nb::steal(PySequence_Fast(shape.ptr(), ""));
  if (!seq) {
    PyErr_Clear();
    throw TypeError(std::string("[") + op + "] '" + Py_TYPE(shape.ptr())->tp_name +
                    "' object cannot be interpreted as an integer");
  }
  Shape out;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq.ptr()); ++i) {
    nb::handle item = PySequence_Fast_GET_ITEM(seq.ptr(), i);
    if (!index_dim(item, op, n))
      throw TypeError(std::string("[") + op + "] '" + Py_TYPE(item.ptr())->tp_name +
                      "' object cannot be interpreted as an integer");
    out.push_back(n);
  }
  return out;
}

nb::tuple int_tuple(const Shape& values) {
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(values.size()));
  if (!t) throw nb::python_error();
  nb::tuple result = nb::steal<nb::tuple>(t);
  for (size_t i = 0; i < values.size(); ++i) {
    PyObject* v = PyLong_FromLongLong(values[i]);
    if (!v) throw nb::python_error();
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), v);
  }
  return result;
}

nb::object scalar_to_python(const Scalar& s) {
  switch (dtype_kind(s.dtype())) {
    case DTypeKind::boolean:
      return nb::bool_(s.to_bool());
    case DTypeKind::signed_int:
      return nb::int_(s.to_int64());
    case DTypeKind::unsigned_int: {
      uint64_t v;
      s.store(DType::uint64, &v);
      return nb::steal(PyLong_FromUnsignedLongLong(v));
    }
    case DTypeKind::floating:
      return nb::float_(s.to_double());
    case DTypeKind::complex: {
      complex128 c = s.to_complex();
      return nb::steal(PyComplex_FromDoubles(c.re, c.im));
    }
  }
  return nb::none();
}

void warn_complex_discarded(DType from, DType to) {
  if (!is_complex(from) || is_complex(to) || to == DType::bool_) return;
  static nb::object* category =
      new nb::object(nb::module_::import_("numpy.exceptions").attr("ComplexWarning"));
  if (PyErr_WarnEx(category->ptr(), "Casting complex values to real discards the imaginary part",
                   1) < 0)
    throw nb::python_error();  // warnings turned into errors
}

Axes to_axes(nb::handle axis) {
  if (axis.is_none()) return std::nullopt;
  // __index__ accepts NumPy integers as well as Python ints, as NumPy's axis arguments do.
  auto index = [](nb::handle h) {
    if (!nb::hasattr(h, "__index__"))
      throw TypeError("axis must be an integer or a tuple of integers, got " +
                      nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
    return nb::cast<int>(h.attr("__index__")());
  };
  if (!PyTuple_Check(axis.ptr()) && !PyList_Check(axis.ptr())) return std::vector<int>{index(axis)};
  std::vector<int> axes;
  for (nb::handle h : axis) axes.push_back(index(h));
  return axes;
}

void check_operand(nb::handle value, const char* op) {
  if (value.is_none())
    throw TypeError(std::string("[") + op +
                    "] expected an array, got None (gpupy arrays have no object dtype)");
}

const Array* to_out(nb::handle out, const char* op) {
  if (out.is_none()) return nullptr;
  if (PyTuple_Check(out.ptr()) && PyTuple_GET_SIZE(out.ptr()) == 1)
    return to_out(PyTuple_GET_ITEM(out.ptr(), 0), op);
  if (!nb::isinstance<Array>(out)) {
    std::string message = "out must be a gpupy.ndarray, got " +
                          nb::cast<std::string>(nb::str(out.type().attr("__name__")));
    throw TypeError(op ? op_message(op, message) : message);
  }
  return nb::inst_ptr<Array>(out);
}

nb::object into_out(const Array& result, nb::handle out, const char* op) {
  const Array* target = to_out(out, op);
  if (!target) return nb::cast(result);
  if (target->shape() != result.shape())
    throw ValueError(op_message(op, "output parameter has the wrong shape"));
  warn_complex_discarded(result.dtype(), target->dtype());  // a complex result into a real out
  assign(*target, result);
  return nb::borrow(out);
}

}  // namespace gpupy::py
