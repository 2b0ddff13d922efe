// The ndarray class: attributes, conversions and element access.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "bindings.h"
#include "gpupy/advanced_indexing.h"
#include "gpupy/alignment.h"
#include "gpupy/error.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

std::vector<IndexEntry> to_index(const Array& a, nb::handle key);
Array getitem_key(const Array& a, nb::handle key, char order = 'K');
void setitem_key(const Array& a, nb::handle key, nb::handle value);

// struct-module format characters, in DType order.
const char* const kBufferFormats[kNumDTypes] = {"?", "b", "h", "i", "q",  "B",  "H",
                                                "I", "Q", "f", "d", "Zf", "Zd", "e"};

// The buffer protocol on cpu arrays (memoryview, bytes(), NumPy's buffer path). Shape and
// strides live in view->internal until the consumer releases the view.
int get_buffer(PyObject* self, Py_buffer* view, int flags) {
  const Array& a = *nb::inst_ptr<Array>(self);
  if (a.device().type != DeviceType::cpu) {
    PyErr_Format(PyExc_BufferError,
                 "the buffer protocol is only available on cpu arrays; this array is on '%s'",
                 a.device().str().c_str());
    return -1;
  }
  if ((flags & PyBUF_WRITABLE) && a.readonly()) {
    PyErr_SetString(PyExc_BufferError, "the array is read-only");
    return -1;
  }
  auto* dims = new Py_ssize_t[2 * static_cast<size_t>(a.ndim()) + 1];
  for (int i = 0; i < a.ndim(); ++i) {
    dims[i] = static_cast<Py_ssize_t>(a.shape()[i]);
    dims[a.ndim() + i] = static_cast<Py_ssize_t>(a.strides()[i]);
  }
  view->buf = a.data();
  view->obj = nb::borrow(self).release().ptr();
  view->len = static_cast<Py_ssize_t>(a.nbytes());
  view->itemsize = static_cast<Py_ssize_t>(a.itemsize());
  view->readonly = a.readonly();
  view->ndim = a.ndim();
  view->format =
      (flags & PyBUF_FORMAT) ? const_cast<char*>(kBufferFormats[int(a.dtype())]) : nullptr;
  view->shape = dims;
  view->strides = dims + a.ndim();
  view->suboffsets = nullptr;
  view->internal = dims;
  // Consumers that cannot take strides get an error from Python rather than wrong data.
  if (!(flags & PyBUF_STRIDES) && !a.is_c_contiguous()) {
    delete[] dims;
    Py_CLEAR(view->obj);
    PyErr_SetString(PyExc_BufferError, "the array is not C-contiguous");
    return -1;
  }
  return 0;
}

void release_buffer(PyObject*, Py_buffer* view) {
  delete[] static_cast<Py_ssize_t*>(view->internal);
}

// The bytes a view of a's buffer may touch: the whole allocation for memory gpupy allocated, a's
// own bytes for wrapped memory (whose size gpupy does not know).
std::pair<const char*, const char*> buffer_range(const Array& a) {
  const Buffer& buf = *a.buffer();
  if (buf.nbytes > 0 && buf.owner == nullptr) {
    const char* lo = static_cast<const char*>(buf.data);
    return {lo, lo + buf.nbytes};
  }
  return a.byte_extent();
}

// The byte range [lo, hi) relative to the first item that a view with this layout touches, or
// nothing when a span does not fit in int64 (such a view could not stay inside any buffer; the
// wrapped int64 arithmetic of Array::byte_extent would hide that).
std::optional<std::pair<int64_t, int64_t>> checked_extent(const Shape& shape,
                                                          const Strides& strides, int64_t offset,
                                                          int64_t itemsize) {
  int64_t lo = offset, hi = offset;
  for (size_t i = 0; i < shape.size(); ++i) {
    int64_t span;
    if (__builtin_mul_overflow(shape[i] - 1, strides[i], &span) ||
        __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi))
      return std::nullopt;
  }
  if (__builtin_add_overflow(hi, itemsize, &hi)) return std::nullopt;
  return std::pair{lo, hi};
}

// A view of a's memory with any shape, strides (bytes), offset (bytes from a's first item) and
// dtype: as_strided, sliding windows, dtype views. Refused when it would leave buffer_range or
// misalign items, and when its size overflows as NumPy's array constructor refuses it.
Array strided_view(const Array& a, const Shape& shape, const Strides& strides, int64_t offset,
                   nb::handle dtype, bool readonly, const std::string& op) {
  DType dt = dtype.is_none() ? a.dtype() : *to_dtype(dtype);
  if (strides.size() != shape.size())
    throw ValueError("[" + op + "] shape and strides must have the same length");
  // Zero-length axes count as 1, as in Array::empty: shape_size must not wrap for any view.
  int64_t extent = static_cast<int64_t>(itemsize(dt));
  bool empty = false;
  for (int64_t n : shape) {
    if (n < 0) throw ValueError("[" + op + "] negative dimensions are not allowed");
    empty = empty || n == 0;
    if (__builtin_mul_overflow(extent, std::max<int64_t>(n, 1), &extent))
      throw ValueError("[" + op +
                       "] array is too big; `arr.size * arr.dtype.itemsize` is larger than the "
                       "maximum possible size");
  }
  auto [lo_ok, hi_ok] = buffer_range(a);
  if (!empty) {
    auto range = checked_extent(shape, strides, offset, static_cast<int64_t>(itemsize(dt)));
    if (!range || range->first < lo_ok - a.data() || range->second > hi_ok - a.data())
      throw ValueError("[" + op + "] the view would reach outside the array's memory");
  }
  Array out(a.buffer(), a.offset() + offset, shape, strides, dt, readonly || a.readonly());
  if (std::string problem = alignment_error(out.data(), shape, strides, dt); !problem.empty())
    throw ValueError("[" + op + "] " + problem);
  return out;
}

// float(a), int(a), complex(a): `type` (float, int or complex) of a 0-d array's value, in C++
// because a Python method around .item() took 0.3 us. NumPy 2 converts only 0-d arrays.
nb::object to_python_number(const Array& a, PyObject* type) {
  if (a.ndim() != 0)
    throw TypeError("only 0-dimensional arrays can be converted to Python scalars");
  nb::object value = scalar_to_python(item(a));
  return nb::handle(type)(value);
}

PyType_Slot kBufferSlots[] = {{Py_bf_getbuffer, reinterpret_cast<void*>(get_buffer)},
                              {Py_bf_releasebuffer, reinterpret_cast<void*>(release_buffer)},
                              {0, nullptr}};

}  // namespace

char to_order(nb::handle order, const char* op, char fallback, const char* allowed) {
  if (order.is_none()) return fallback;
  if (!nb::isinstance<nb::str>(order))
    throw TypeError(op_message(
        op, std::string("order must be str, not ") + nb::type_name(order.type()).c_str()));
  std::string name = nb::cast<std::string>(order);
  char letter = name.size() == 1 ? static_cast<char>(std::toupper(name[0])) : '?';
  if (std::string_view("CFAK").find(letter) == std::string_view::npos)
    throw ValueError(
        op_message(op, "order must be one of 'C', 'F', 'A', or 'K' (got '" + name + "')"));
  if (std::string_view(allowed).find(letter) == std::string_view::npos)
    throw ValueError(op_message(op, "only 'C' or 'F' order is permitted"));
  return letter;
}

void bind_array(nb::module_& m) {
  nb::class_<Array>(m, "ndarray", nb::is_weak_referenceable(), nb::type_slots(kBufferSlots))
      .def_prop_ro("shape", [](const Array& a) { return int_tuple(a.shape()); })
      .def_prop_ro("strides", [](const Array& a) { return int_tuple(a.strides()); })
      .def_prop_ro("ndim", &Array::ndim)
      .def_prop_ro("size", &Array::size)
      .def_prop_ro("itemsize", &Array::itemsize)
      .def_prop_ro("nbytes", &Array::nbytes)
      .def_prop_ro("dtype", [](const Array& a) { return numpy_dtype(a.dtype()); })
      .def_prop_ro("device", &Array::device)
      .def_prop_ro("_data_ptr",
                   [](const Array& a) { return reinterpret_cast<uintptr_t>(a.data()); })
      .def_prop_ro("_readonly", &Array::readonly)
      .def_prop_ro("_c_contiguous", &Array::is_c_contiguous)
      .def_prop_ro("_f_contiguous", &Array::is_f_contiguous)
      .def_prop_ro("_owns_buffer_base", [](const Array& a) { return a.buffer()->owner == nullptr; })
      // NumPy's OWNDATA: gpupy keeps no base chain, so an array owns its data when it spans the
      // whole of a buffer gpupy allocated.
      .def_prop_ro("_owndata",
                   [](const Array& a) {
                     return a.buffer()->owner == nullptr && a.offset() == 0 &&
                            static_cast<size_t>(a.nbytes()) == a.buffer()->nbytes;
                   })
      .def("_strided_view", &strided_view, "shape"_a, "strides"_a, "offset"_a, "dtype"_a.none(),
           "readonly"_a, "op"_a)
      .def_prop_ro("_buffer_refs", [](const Array& a) { return a.buffer().use_count(); })
      // ndarray.resize: the handle takes over another array's buffer, shape and strides.
      .def(
          "_replace_with", [](Array& self, const Array& other) { self = other; }, "other"_a)
      // ndarray.setflags(write=...): the handle's own read-only state (the Python side decides
      // when clearing it is allowed).
      .def(
          "_set_readonly",
          [](Array& self, bool readonly) {
            self = Array(self.buffer(), self.offset(), self.shape(), self.strides(), self.dtype(),
                         readonly);
          },
          "readonly"_a)
      .def_prop_ro("_buffer_range",
                   [](const Array& a) {
                     auto [lo, hi] = buffer_range(a);
                     return nb::make_tuple(reinterpret_cast<uintptr_t>(lo),
                                           reinterpret_cast<uintptr_t>(hi));
                   })
      .def("_same_buffer", [](const Array& a, const Array& b) { return a.buffer() == b.buffer(); })
      // In-place metadata change (ndarray.shape = ...): a becomes the view v of its own memory.
      .def("_become_view",
           [](Array& a, const Array& v) {
             if (a.buffer() != v.buffer())
               throw ValueError("[shape] the new view must share the array's memory");
             a = v;
           })
      .def("__len__",
           [](const Array& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def(
          "get", [](const Array& a) { return to_numpy(a); },
          "A NumPy copy of the array (any device).")
      .def("item", [](const Array& a) { return scalar_to_python(item(a)); })
      .def("__float__",
           [](const Array& a) {
             return to_python_number(a, reinterpret_cast<PyObject*>(&PyFloat_Type));
           })
      .def("__int__",
           [](const Array& a) {
             return to_python_number(a, reinterpret_cast<PyObject*>(&PyLong_Type));
           })
      .def("__complex__",
           [](const Array& a) {
             return to_python_number(a, reinterpret_cast<PyObject*>(&PyComplex_Type));
           })
      .def(
          "astype",
          [](nb::pointer_and_handle<Array> self, nb::handle dtype, nb::handle order,
             const std::string& casting, bool subok, bool copy) -> nb::object {
            const Array& a = *self.p;
            DType to = *to_dtype(dtype);
            char layout = to_order(order, "astype", 'K', "CFAK");
            if (!can_cast(a.dtype(), to, to_casting(casting, "astype")))
              throw TypeError("[astype] Cannot cast array data from dtype('" +
                              std::string(dtype_name(a.dtype())) + "') to dtype('" +
                              std::string(dtype_name(to)) + "') according to the rule '" + casting +
                              "'");
            (void)subok;  // gpupy has no ndarray subclasses
            warn_complex_discarded(a.dtype(), to);
            Array out = astype(a, to, layout, copy);
            // As NumPy, copy=False returns the array itself when nothing had to change.
            if (out.buffer() == a.buffer() && out.offset() == a.offset() &&
                out.strides() == a.strides() && out.dtype() == a.dtype())
              return nb::borrow(self.h);
            return nb::cast(std::move(out));
          },
          "dtype"_a, "order"_a.none() = "K", "casting"_a = "unsafe", "subok"_a = true,
          "copy"_a = true)
      .def(
          "copy",
          [](const Array& a, nb::handle order) {
            return astype(a, a.dtype(), to_order(order, "copy", 'C', "CFAK"), true);
          },
          "order"_a.none() = "C")
      .def(
          "to_device",
          [](const Array& a, nb::handle device) { return to_device(a, to_device_arg(device)); },
          "device"_a)
      .def(
          "__getitem__", [](const Array& a, nb::handle key) { return getitem_key(a, key); },
          "key"_a.none())
      .def("_getitem", &getitem_key, "key"_a.none(), "order"_a = 'K',
           "self[key]; order='C' lays out an advanced-indexing result C-ordered (numpy.take's).")
      .def("_nonzero", [](const Array& a) { return nonzero(a); })
      .def("_flatnonzero", [](const Array& a) { return flatnonzero(a); })
      .def("__setitem__", &setitem_key, "key"_a.none(), "value"_a.none())
      .def("_setitem", &setitem_key, "key"_a.none(), "value"_a.none());
}

namespace {

// Python's own conversion: a null `overflow_error` saturates huge slice bounds as slices do, else
// huge integers raise it (IndexError for indices, as NumPy).
int64_t as_index(nb::handle h, PyObject* overflow_error) {
  Py_ssize_t v = PyNumber_AsSsize_t(h.ptr(), overflow_error);
  if (v == -1 && PyErr_Occurred()) throw nb::python_error();
  return v;
}

std::optional<int64_t> opt_int(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return as_index(h, nullptr);
}

// Lists, arrays of any dimension and booleans ask for advanced indexing (not a basic index).
bool is_array_index(nb::handle h) {
  if (PyList_Check(h.ptr()) || PyBool_Check(h.ptr()) || nb::isinstance<Array>(h)) return true;
  if (!nb::hasattr(h, "dtype") || !nb::hasattr(h, "ndim")) return false;
  return nb::cast<int>(h.attr("ndim")) > 0 ||
         nb::cast<std::string>(h.attr("dtype").attr("kind")) == "b";
}

// A list or NumPy array index moves to the indexed array's device (an explicit user index);
// an empty list is an integer index, as in NumPy.
Array index_array(const Array& a, nb::handle h) {
  if (nb::isinstance<Array>(h)) return nb::cast<Array>(h);
  Array index = to_array(h, a.device(), std::nullopt);
  if (index.size() == 0 && !is_integer(index.dtype()) && index.dtype() != DType::bool_)
    return astype(index, DType::int64);
  return index;
}

IndexEntry to_item(const Array& a, nb::handle h) {
  IndexEntry entry;
  IndexItem& item = entry.basic;
  if (PyLong_CheckExact(h.ptr())) {  // first: is_array_index's hasattr misses cost 0.1 us
    item.kind = IndexItem::Kind::integer;
    item.integer = as_index(h, PyExc_IndexError);
  } else if (h.is_none()) {
    item.kind = IndexItem::Kind::newaxis;
  } else if (h.ptr() == Py_Ellipsis) {
    item.kind = IndexItem::Kind::ellipsis;
  } else if (PySlice_Check(h.ptr())) {
    auto* slice = reinterpret_cast<PySliceObject*>(h.ptr());
    item.kind = IndexItem::Kind::slice;
    item.start = opt_int(slice->start);
    item.stop = opt_int(slice->stop);
    item.step = opt_int(slice->step);
  } else if (PyBool_Check(h.ptr())) {
    throw NotImplementedError("[getitem] boolean scalar indices are not supported");
  } else if (is_array_index(h) || PyTuple_Check(h.ptr())) {
    entry.array = index_array(a, h);  // a tuple inside the index is a sequence, as in NumPy
  } else if (PyLong_Check(h.ptr()) || nb::hasattr(h, "__index__")) {
    item.kind = IndexItem::Kind::integer;
    item.integer = as_index(h, PyExc_IndexError);
  } else {
    throw IndexError(
        "[getitem] only integers, slices (`:`), ellipsis (`...`) and None "
        "(`numpy.newaxis`) are valid indices, got " +
        nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  }
  return entry;
}

// The value of a 0-d boolean index used alone (a bool, a NumPy bool or a 0-d boolean array, also
// as the only item of a tuple), else nullopt. Checked only after the index was refused, to keep
// the common path free.
std::optional<bool> zero_d_mask(nb::handle key) {
  if (PyTuple_Check(key.ptr())) {
    if (PyTuple_GET_SIZE(key.ptr()) != 1) return std::nullopt;
    key = PyTuple_GET_ITEM(key.ptr(), 0);
  }
  if (PyBool_Check(key.ptr())) return key.ptr() == Py_True;
  if (!nb::hasattr(key, "dtype") || !nb::hasattr(key, "ndim")) return std::nullopt;
  if (nb::cast<int>(key.attr("ndim")) != 0 ||
      nb::cast<std::string>(key.attr("dtype").attr("kind")) != "b")
    return std::nullopt;
  const int truth = PyObject_IsTrue(key.ptr());
  if (truth < 0) throw nb::python_error();
  return truth == 1;
}

// As in NumPy and the Array API: a new leading axis of length 1 (True) or 0 (False).
Array mask_view(const Array& a, bool mask) {
  IndexItem newaxis;
  newaxis.kind = IndexItem::Kind::newaxis;
  IndexItem leading;
  leading.kind = IndexItem::Kind::slice;
  leading.stop = mask ? 1 : 0;
  return getitem(getitem(a, std::vector<IndexItem>{newaxis}), std::vector<IndexItem>{leading});
}

// NumPy reads a boolean scalar beside other indices as a 0-d boolean array: a new axis of length
// 1 (True) or 0 (False), indexed by an integer array that joins the advanced indices. Returns a's
// view with those axes and the index for it; nullopt when no item of the key is such a scalar.
std::optional<std::pair<Array, std::vector<IndexEntry>>> expand_bool_scalars(const Array& a,
                                                                             nb::handle key) {
  if (!PyTuple_Check(key.ptr())) return std::nullopt;
  nb::tuple items = nb::borrow<nb::tuple>(key);
  std::vector<std::optional<bool>> masks;
  std::vector<IndexItem> axes;  // a's axes, with a new one at each boolean scalar
  for (nb::handle h : items) {
    masks.push_back(PyTuple_Check(h.ptr()) ? std::nullopt : zero_d_mask(h));
    IndexItem item;
    if (masks.back()) {
      item.kind = IndexItem::Kind::newaxis;
    } else if (h.is_none()) {
      continue;  // applied to the view, where it is in the same place among the axes
    } else if (h.ptr() == Py_Ellipsis) {
      item.kind = IndexItem::Kind::ellipsis;
    } else {
      item.kind = IndexItem::Kind::slice;  // the whole axis (or a boolean array's axes)
      int consumed = 1;
      if (is_array_index(h)) {
        Array index = index_array(a, h);
        if (index.dtype() == DType::bool_) consumed = index.ndim();
      }
      axes.insert(axes.end(), consumed, item);
      continue;
    }
    axes.push_back(item);
  }
  if (std::none_of(masks.begin(), masks.end(), [](auto m) { return m.has_value(); }))
    return std::nullopt;
  Array view = getitem(a, axes);
  std::vector<IndexEntry> entries;
  for (size_t i = 0; i < masks.size(); ++i) {
    if (!masks[i]) {
      entries.push_back(to_item(view, items[i]));
      continue;
    }
    IndexEntry entry;
    entry.array = zeros(Shape{*masks[i] ? 1 : 0}, DType::int64, a.device());
    entries.push_back(std::move(entry));
  }
  return std::make_pair(std::move(view), std::move(entries));
}

Array getitem_key(const Array& a, nb::handle key, char order) {
  try {
    return getitem(a, to_index(a, key), order);
  } catch (const NotImplementedError&) {
    if (std::optional<bool> mask = zero_d_mask(key)) return mask_view(a, *mask);
    auto expanded = expand_bool_scalars(a, key);
    if (!expanded) throw;
    return getitem(expanded->first, expanded->second, order);
  }
}

// An index of one integer per axis (`()` on a 0-d array) names one element: NumPy then converts the
// value as a scalar (int(), float(), complex(), bool()) instead of broadcasting it.
bool is_element_key(const Array& a, nb::handle key) {
  auto integer = [](nb::handle h) {
    if (PyLong_Check(h.ptr())) return !PyBool_Check(h.ptr());
    return PyIndex_Check(h.ptr()) && nb::hasattr(h, "ndim") && nb::cast<int>(h.attr("ndim")) == 0 &&
           nb::cast<std::string>(h.attr("dtype").attr("kind")) != "b";  // NumPy/gpupy integers
  };
  if (!PyTuple_Check(key.ptr())) return a.ndim() == 1 && is_element_key(a, nb::make_tuple(key));
  nb::tuple items = nb::borrow<nb::tuple>(key);
  if (static_cast<int>(items.size()) != a.ndim()) return false;
  for (int d = 0; d < a.ndim(); ++d) {
    if (!integer(items[d])) return false;
    // an index out of bounds is NumPy's first error, raised by setitem itself
    Py_ssize_t i = PyNumber_AsSsize_t(items[d].ptr(), nullptr);
    if (i == -1 && PyErr_Occurred()) PyErr_Clear();
    if (i < -a.shape()[d] || i >= a.shape()[d]) return false;
  }
  return true;
}

// NumPy's scalar conversion of a sequence for one element: a bool takes the truth value of one
// item; numbers refuse it (TypeError from int() of a list or complex(), else ValueError).
void check_element_value(DType dtype, const Array& value, bool python_sequence) {
  if (dtype == DType::bool_ && value.size() == 1) return;
  if (is_complex(dtype) || (python_sequence && is_integer(dtype)))
    throw TypeError("[setitem] a sequence cannot be converted to one " +
                    std::string(dtype_name(dtype)) + " element");
  throw ValueError("[setitem] setting an array element with a sequence.");
}

// One boolean mask of a's whole shape that selects nothing: NumPy then casts no element of the
// value (no ComplexWarning for a complex array into a real one).
bool full_mask_selects_nothing(const Array& a, nb::handle key) {
  if (PyTuple_Check(key.ptr()) && PyTuple_GET_SIZE(key.ptr()) == 1)
    key = PyTuple_GET_ITEM(key.ptr(), 0);
  if (PyBool_Check(key.ptr()) || !is_array_index(key)) return false;
  Array mask = index_array(a, key);
  if (mask.dtype() != DType::bool_ || mask.shape() != a.shape()) return false;
  bool selected = false;
  to_host(any(mask, std::nullopt), &selected);
  return !selected;
}

void setitem_key(const Array& a, nb::handle key, nb::handle value) {
  // NumPy data and lists are moved onto the destination's device; scalars stay scalars.
  // A gpupy array on another device is refused by assign: moving it is explicit.
  // NumPy converts a Python int beyond every integer dtype for a float or bool destination
  bool huge_to_float = (is_inexact(a.dtype()) || is_bool(a.dtype())) && huge_int_sign(value);
  auto convert = [&]() -> Operand {
    if (huge_to_float) return Operand(Scalar(PyLong_AsDouble(value.ptr()), true));
    try {
      return to_operand(value);
    } catch (const OverflowError&) {
      // NumPy reports an out-of-bounds basic index first (an advanced one after the value)
      std::vector<IndexEntry> entries = to_index(a, key);
      if (std::none_of(entries.begin(), entries.end(), [](const IndexEntry& e) { return e.array; }))
        getitem(a, entries);
      throw;
    }
  };
  Operand v = convert();
  if (PyErr_Occurred()) throw nb::python_error();  // beyond double
  DType from = v.is_array() ? v.array().dtype() : v.scalar().dtype();
  if (is_complex(from) && !is_complex(a.dtype()) && a.dtype() != DType::bool_) {
    // As NumPy: Python complex numbers (alone or in a list) cannot become real numbers, NumPy
    // ones and complex arrays lose their imaginary parts with a ComplexWarning.
    if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) {
      try {
        v = to_array(value, a.device(), a.dtype());  // NumPy's own per-element conversion
      } catch (nb::python_error& e) {
        if (!e.matches(PyExc_TypeError)) throw;
        throw TypeError(std::string("[setitem] ") + nb::cast<std::string>(nb::str(e.value())));
      }
    } else if (v.is_array() || !v.scalar().weak()) {
      static nb::object generic = nb::module_::import_("numpy").attr("generic");
      if (nb::isinstance(value, generic) || !full_mask_selects_nothing(a, key))
        warn_complex_discarded(from, a.dtype());
    }
  }
  if (v.is_array() && !nb::isinstance<Array>(value) && v.array().device() != a.device())
    v = to_array(value, a.device(), std::nullopt);
  const bool sequence = PyList_Check(value.ptr()) || PyTuple_Check(value.ptr());
  if (v.is_array() && v.array().ndim() > 0 && is_element_key(a, key)) {
    if (a.dtype() == DType::bool_ && sequence)  // bool() of a Python list: is it non-empty
      v = Operand(Scalar(nb::len(value) > 0));
    else
      check_element_value(a.dtype(), v.array(), sequence);
  }
  try {
    std::vector<IndexEntry> entries = to_index(a, key);
    bool basic = true;
    for (const IndexEntry& e : entries) basic = basic && !e.array;
    // NumPy converts a list for a basic index with at most the target's rank (an array value's
    // extra leading length-1 axes drop, a list's do not).
    if (sequence && basic && v.is_array()) {
      const int rank = getitem(a, entries).ndim();
      if (v.array().ndim() > rank)
        throw ValueError(
            "[setitem] setting an array element with a sequence. The requested array would "
            "exceed the maximum number of dimension of " +
            std::to_string(rank) + ".");
    }
    setitem(a, entries, v);
  } catch (const NotImplementedError&) {
    if (std::optional<bool> mask = zero_d_mask(key)) {
      IndexEntry all;
      all.basic.kind = IndexItem::Kind::ellipsis;
      setitem(mask_view(a, *mask), std::vector<IndexEntry>{all}, v);
      return;
    }
    auto expanded = expand_bool_scalars(a, key);
    if (!expanded) throw;
    setitem(expanded->first, expanded->second, v);
  }
}

std::vector<IndexEntry> to_index(const Array& a, nb::handle key) {
  std::vector<IndexEntry> items;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(key)) items.push_back(to_item(a, h));
  } else {
    items.push_back(to_item(a, key));
  }
  return items;
}

}  // namespace

}  // namespace gpupy::py
