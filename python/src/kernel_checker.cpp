// Checks and packs the Python arguments of a user-kernel launch, one pre-built description per
// parameter, without leaving C++ (kernel layer spec 2.3). Host only.
#include "kernel_checker.h"

#include <algorithm>
#include <cstring>
#include <sstream>

#include "../../src/backend/cuda_api.h"
#include "gpupy/alignment.h"

namespace gpupy::py {
namespace {

nb::module_& numpy() {
  static nb::module_* np = new nb::module_(nb::module_::import_("numpy"));
  return *np;
}

std::string py_type_name(nb::handle v) { return Py_TYPE(v.ptr())->tp_name; }

/// The dtype of a NumPy scalar (numpy.float64(1.0) -> float64), or nullopt for other objects.
std::optional<DType> numpy_scalar_dtype(nb::handle v) {
  static std::vector<std::pair<PyTypeObject*, DType>> types = [] {
    std::vector<std::pair<PyTypeObject*, DType>> t;
    for (int i = 0; i < kNumDTypes; ++i) {
      auto dt = static_cast<DType>(i);
      nb::object sc = numpy().attr("dtype")(std::string(dtype_name(dt))).attr("type");
      t.emplace_back(reinterpret_cast<PyTypeObject*>(sc.release().ptr()), dt);
    }
    return t;
  }();
  for (const auto& [tp, dt] : types) {
    if (Py_TYPE(v.ptr()) == tp) return dt;
  }
  return std::nullopt;
}

/// A Python int as __int128; false when it does not fit in 64 bits (signed or unsigned).
bool int_value(nb::handle v, __int128& out) {
  int overflow = 0;
  long long s = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
  if (!overflow) return out = s, true;
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(v.ptr());
    if (!PyErr_Occurred()) return out = u, true;
    PyErr_Clear();
  }
  return false;
}

bool has_type_attr(nb::handle v, const char* name) {
  return PyObject_HasAttrString(reinterpret_cast<PyObject*>(Py_TYPE(v.ptr())), name) == 1;
}

/// Replaces top-level arguments that have __cuda_args__ by the tuple it returns.
nb::tuple flatten(nb::handle args) {
  nb::tuple t = nb::borrow<nb::tuple>(args);
  bool any = false;
  for (nb::handle v : t) {
    any = any || (!nb::isinstance<Array>(v) && !PyFloat_Check(v.ptr()) && !PyLong_Check(v.ptr()) &&
                  has_type_attr(v, "__cuda_args__"));
  }
  if (!any) return t;
  nb::list out;
  for (nb::handle v : t) {
    if (!nb::isinstance<Array>(v) && has_type_attr(v, "__cuda_args__")) {
      for (nb::handle x : nb::iter(v.attr("__cuda_args__")())) out.append(x);
    } else {
      out.append(v);
    }
  }
  return nb::tuple(out);
}

/// The cuda device index a __cuda_array_interface__ pointer belongs to (CAI names none), asked of
/// CUDA; -1 when any device may use it (managed memory, an empty array's null pointer).
int foreign_device(const void* data, const std::string& what) {
  if (data == nullptr) return -1;
  cuda::PointerLocation at = cuda::pointer_location(data);
  switch (at.kind) {
    case cuda::PointerLocation::on_device:
    case cuda::PointerLocation::pinned_host:  // pinned memory is mapped for the device it was
                                              // pinned on
      return at.device;
    case cuda::PointerLocation::not_cuda: {
      std::ostringstream msg;
      msg << what << ": the __cuda_array_interface__ pointer " << data
          << " is not CUDA memory (host memory, or memory already freed)";
      throw ValueError(msg.str());
    }
    default:  // managed, or unknown because CUDA is not usable here (the launch will say so)
      return -1;
  }
}

/// The launch device once every argument is seen: foreign memory any device can use goes to the
/// default device when that is a cuda one, else to cuda:0.
Device resolve(Device dev) {
  if (dev.type != DeviceType::cuda || dev.index >= 0) return dev;
  Device def = default_device();
  return {DeviceType::cuda, def.type == DeviceType::cuda ? def.index : 0};
}

std::string device_name(const Device& d) { return d.index < 0 ? "cuda" : d.str(); }

/// "(8, 12)": byte strides as Python prints a tuple.
std::string strides_text(const Strides& strides) {
  std::ostringstream out;
  out << "(";
  for (std::size_t k = 0; k < strides.size(); ++k) out << (k ? ", " : "") << strides[k];
  out << (strides.size() == 1 ? ",)" : ")");
  return out.str();
}

}  // namespace

std::vector<kernel::StructType> struct_types(
    const std::vector<std::pair<std::string, nb::object>>& structs) {
  std::vector<kernel::StructType> out;
  for (const auto& [name, dt] : structs) {
    out.push_back({name, nb::cast<std::size_t>(dt.attr("itemsize"))});
  }
  return out;
}

KernelSignature::KernelSignature(const std::string& source, const std::string& name,
                                 const std::optional<std::vector<std::string>>& template_args,
                                 const std::vector<std::pair<std::string, nb::object>>& structs)
    : sig_(kernel::parse_cuda_signature(source, name, template_args, struct_types(structs))),
      layout_(sig_) {
  for (const auto& p : sig_.params) {
    nb::object dt = nb::none();
    for (const auto& [sname, sdt] : structs) {
      if (p.struct_size && sname == p.ctype) dt = sdt;
    }
    struct_dtypes_.push_back(dt);
  }
  entry_ = name;
  if (sig_.expression != name) {
    entry_ += "__t";
    for (char c : sig_.expression.substr(name.size())) {
      entry_ += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    }
  }
  for (std::size_t i = 0; i < sig_.params.size(); ++i) {
    // Every message about an argument starts "[CudaKernel] 'name' argument i (...)".
    what_.push_back("[CudaKernel] '" + sig_.name + "' argument " + std::to_string(i) + " (" +
                    sig_.params[i].describe() + ")");
  }
}

Device KernelSignature::pack(nb::handle args, char* buf, std::vector<std::uintptr_t>* streams,
                             std::vector<const Buffer*>* buffers) const {
  nb::tuple t = flatten(args);
  std::size_t n = t.size();
  if (n != sig_.params.size()) {
    throw TypeError(sig_.name + "() takes " + std::to_string(sig_.params.size()) +
                    " arguments after flattening argument objects, got " + std::to_string(n));
  }
  Device dev{};
  bool have_dev = false;
  for (std::size_t i = 0; i < n; ++i)
    pack_one(i, t[i], buf + layout_.offsets[i], dev, have_dev, streams, buffers);
  return resolve(dev);
}

Device KernelSignature::pack_at(nb::handle values, char* buf,
                                const std::vector<std::size_t>& offsets) const {
  nb::tuple t = nb::borrow<nb::tuple>(values);
  if (t.size() != sig_.params.size() || offsets.size() != t.size()) {
    throw TypeError("expected " + std::to_string(sig_.params.size()) + " values, got " +
                    std::to_string(t.size()));
  }
  Device dev{};
  bool have_dev = false;
  for (std::size_t i = 0; i < t.size(); ++i) pack_one(i, t[i], buf + offsets[i], dev, have_dev);
  return resolve(dev);
}

void KernelSignature::pack_struct(std::size_t i, nb::handle v, char* dst) const {
  const nb::object& want = struct_dtypes_[i];
  static PyTypeObject* void_type =
      reinterpret_cast<PyTypeObject*>(nb::object(numpy().attr("void")).release().ptr());
  bool ok = Py_TYPE(v.ptr()) == void_type;
  if (ok) {
    nb::object dt = v.attr("dtype");
    ok = dt.is(want) || dt.equal(want);
  }
  if (!ok) {
    throw TypeError(what_[i] + " must be a value of struct " + sig_.params[i].ctype +
                    " (created with that CudaStruct), got " + py_type_name(v));
  }
  Py_buffer view;
  if (PyObject_GetBuffer(v.ptr(), &view, PyBUF_SIMPLE) != 0) throw nb::python_error();
  std::memcpy(dst, view.buf, sig_.params[i].struct_size);
  PyBuffer_Release(&view);
}

void KernelSignature::pack_one(std::size_t i, nb::handle v, char* dst, Device& dev, bool& have_dev,
                               std::vector<std::uintptr_t>* streams,
                               std::vector<const Buffer*>* buffers) const {
  const kernel::CudaParameter& p = sig_.params[i];
  if (p.struct_size) return pack_struct(i, v, dst);
  if (!p.pointer && !p.view_ndim) return pack_scalar(i, v, dst);
  kernel::ArrayArg a;
  Device d{DeviceType::cuda, -1};  // -1: any cuda device (see foreign_device)
  Shape shape_store;
  Strides strides_store;
  bool foreign = false;  // memory gpupy did not allocate: its alignment is not known
  if (nb::isinstance<Array>(v)) {
    const Array& arr = *nb::inst_ptr<Array>(v);
    d = arr.device();
    if (!d.is_device_memory()) {
      throw TypeError(what_[i] + " must be a device array, got " + py_type_name(v) +
                      " on cpu; arrays are never copied to the device");
    }
    a = {arr.data(), arr.dtype(), arr.ndim(), arr.shape().data(), arr.strides().data()};
    if (buffers) buffers->push_back(arr.buffer().get());
  } else if (has_type_attr(v, "__cuda_array_interface__")) {
    foreign = true;
    CudaArrayInterface cai = read_cuda_array_interface(v, "[CudaKernel] '" + sig_.name + "'");
    shape_store = std::move(cai.shape);
    strides_store = std::move(cai.strides);
    a.data = cai.data;
    a.dtype = cai.dtype;
    a.ndim = static_cast<int>(shape_store.size());
    a.shape = shape_store.data();
    a.strides = cai.c_order ? nullptr : strides_store.data();
    d.index = foreign_device(a.data, what_[i]);
    // CAI v3: the producer's work on its data is queued on `stream` (None: nothing pending).
    // Arrays of one producer usually share a stream: each is ordered once.
    if (streams && cai.stream &&
        std::find(streams->begin(), streams->end(), *cai.stream) == streams->end())
      streams->push_back(*cai.stream);
  } else {
    throw TypeError(what_[i] + " must be a device array, got " + py_type_name(v) +
                    "; arrays are never copied to the device");
  }
  if (p.dtype && a.dtype != *p.dtype) {
    throw TypeError(what_[i] + " must have dtype " + std::string(dtype_name(*p.dtype)) + ", got " +
                    std::string(dtype_name(a.dtype)));
  }
  // A GPU faults on an unaligned load. gpupy's own arrays are aligned by construction (imports
  // check, views keep item alignment); foreign memory (CuPy, Numba) may not be.
  if (foreign) {
    // Element strides are what a kernel indexes with: a byte stride between elements is a
    // layout the kernel cannot express (TypeError), unlike a misaligned address (ValueError).
    auto item = static_cast<int64_t>(itemsize(a.dtype));
    for (std::size_t k = 0; k < strides_store.size(); ++k) {
      if (shape_store[k] > 1 && strides_store[k] % item != 0) {
        throw TypeError(what_[i] + " strides " + strides_text(strides_store) +
                        " are not multiples of the element size " + std::to_string(item));
      }
    }
    if (std::string problem = alignment_error(a.data, shape_store, strides_store, a.dtype);
        !problem.empty())
      throw ValueError(what_[i] + ": " + problem);
  }
  bool same = d.type == dev.type && (d.index < 0 || dev.index < 0 || d.index == dev.index);
  if (have_dev && !same) {
    throw ValueError(what_[i] + " is on device " + device_name(d) + ", but the launch is on " +
                     device_name(dev));
  }
  if (!have_dev || dev.index < 0) dev = d;
  have_dev = true;
  if (p.view_ndim) return kernel::pack_view(p, a, what_[i], dst);
  if (!kernel::c_contiguous(a)) {
    throw TypeError(what_[i] + " must be C-contiguous: a non-contiguous view (e.g. a[:, 0:3]) " +
                    "would be read as a flat buffer; use gpupy.ascontiguousarray or " +
                    "cunumpy.as_device_array");
  }
  std::memcpy(dst, &a.data, sizeof(void*));
}

void KernelSignature::pack_scalar(std::size_t i, nb::handle v, char* dst) const {
  DType dt = *sig_.params[i].dtype;
  const std::string& what = what_[i];
  PyObject* o = v.ptr();
  bool int_param = is_integer(dt), bool_param = dt == DType::bool_;
  auto refuse = [&](const std::string& kind) {
    return TypeError(what + " cannot take a value of type " + kind);
  };
  // NumPy's float64 and complex128 subclass Python's float and complex: they go by dtype rules.
  std::optional<DType> src;
  if (!PyLong_CheckExact(o) && !PyFloat_CheckExact(o)) src = numpy_scalar_dtype(v);
  if (src) return pack_numpy_scalar(i, v, *src, dst);
  if (PyBool_Check(o)) {
    if (!int_param && !bool_param) throw refuse("bool");
    return kernel::store_integer(dt, o == Py_True, what, dst);
  }
  if (PyLong_Check(o)) {
    if (bool_param) throw refuse("int");
    __int128 x;
    if (int_value(v, x)) return kernel::store_integer(dt, x, what, dst);
    if (!int_param) return kernel::store_real(dt, PyLong_AsDouble(o), dst);
    IntInfo info = iinfo(dt);
    throw OverflowError(what + ": " + nb::cast<std::string>(nb::str(v)) + " is out of range [" +
                        std::to_string(info.min) + ", " + std::to_string(info.max) + "]");
  }
  if (PyFloat_Check(o)) {
    if (!is_inexact(dt)) throw refuse("float");
    return kernel::store_real(dt, PyFloat_AS_DOUBLE(o), dst);
  }
  if (PyComplex_Check(o)) {
    if (!is_complex(dt)) throw refuse("complex");
    return kernel::store_complex(dt, {PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)}, dst);
  }
  throw refuse(py_type_name(v));
}

void KernelSignature::pack_numpy_scalar(std::size_t i, nb::handle v, DType src_dt,
                                        char* dst) const {
  DType dt = *sig_.params[i].dtype;
  const std::string& what = what_[i];
  PyObject* o = v.ptr();
  const DType* src = &src_dt;
  bool int_param = is_integer(dt);
  if (is_integer(*src) && (int_param || is_inexact(dt))) {
    __int128 x;
    nb::object as_int = nb::steal(PyNumber_Index(o));
    if (int_value(as_int, x)) return kernel::store_integer(dt, x, what, dst);
  }
  if (*src != dt && !can_cast(*src, dt, Casting::safe)) {
    throw TypeError(what + " cannot take a " + std::string(dtype_name(*src)) +
                    " scalar without losing information");
  }
  if (is_complex(*src)) {
    Py_complex c = PyComplex_AsCComplex(o);
    return kernel::store_complex(dt, {c.real, c.imag}, dst);
  }
  if (is_floating(*src)) return kernel::store_real(dt, PyFloat_AsDouble(o), dst);
  if (*src == DType::bool_) return kernel::store_integer(dt, PyObject_IsTrue(o) == 1, what, dst);
  nb::object as_int = nb::steal(PyNumber_Index(o));
  __int128 x = 0;
  int_value(as_int, x);
  kernel::store_integer(dt, x, what, dst);
}

}  // namespace gpupy::py
