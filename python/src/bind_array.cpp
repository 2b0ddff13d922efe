// The ndarray class: attributes, conversions and element access.
#include "bindings.h"
#include "gpupy/error.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

nb::tuple as_tuple(const std::vector<int64_t>& v) { return nb::tuple(nb::cast(v)); }

std::vector<IndexItem> to_index(nb::handle key);

}  // namespace

void bind_array(nb::module_& m) {
  nb::class_<Array>(m, "ndarray", nb::is_weak_referenceable())
      .def_prop_ro("shape", [](const Array& a) { return as_tuple(a.shape()); })
      .def_prop_ro("strides", [](const Array& a) { return as_tuple(a.strides()); })
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
      .def("_same_buffer", [](const Array& a, const Array& b) { return a.buffer() == b.buffer(); })
      .def("__len__",
           [](const Array& a) {
             if (a.ndim() == 0) throw TypeError("len() of unsized object");
             return a.shape()[0];
           })
      .def(
          "get", [](const Array& a) { return to_numpy(a); },
          "A NumPy copy of the array (any device).")
      .def("item", [](const Array& a) { return scalar_to_python(item(a)); })
      .def(
          "astype",
          [](const Array& a, nb::handle dtype, bool copy) {
            return astype(a, *to_dtype(dtype), copy);
          },
          "dtype"_a, "copy"_a = true)
      .def("copy", [](const Array& a) { return copy(a); })
      .def(
          "to_device",
          [](const Array& a, nb::handle device) { return to_device(a, to_device_arg(device)); },
          "device"_a)
      .def("_getitem", [](const Array& a, nb::handle key) { return getitem(a, to_index(key)); })
      .def("_setitem", [](const Array& a, nb::handle key, nb::handle value) {
        setitem(a, to_index(key), to_operand(value));
      });
}

namespace {

std::optional<int64_t> opt_int(nb::handle h) {
  if (h.is_none()) return std::nullopt;
  return nb::cast<int64_t>(h.attr("__index__")());
}

IndexItem to_item(nb::handle h) {
  IndexItem item;
  if (h.is_none()) {
    item.kind = IndexItem::Kind::newaxis;
  } else if (h.ptr() == Py_Ellipsis) {
    item.kind = IndexItem::Kind::ellipsis;
  } else if (PySlice_Check(h.ptr())) {
    item.kind = IndexItem::Kind::slice;
    item.start = opt_int(h.attr("start"));
    item.stop = opt_int(h.attr("stop"));
    item.step = opt_int(h.attr("step"));
  } else if (PyLong_Check(h.ptr()) || nb::hasattr(h, "__index__")) {
    if (PyBool_Check(h.ptr()))
      throw IndexError("[getitem] boolean scalars are not supported as indices yet");
    item.kind = IndexItem::Kind::integer;
    item.integer = nb::cast<int64_t>(h.attr("__index__")());
  } else {
    throw IndexError(
        "[getitem] only integers, slices (`:`), ellipsis (`...`) and None "
        "(`numpy.newaxis`) are valid indices, got " +
        nb::cast<std::string>(nb::str(h.type().attr("__name__"))));
  }
  return item;
}

std::vector<IndexItem> to_index(nb::handle key) {
  std::vector<IndexItem> items;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle h : nb::borrow<nb::tuple>(key)) items.push_back(to_item(h));
  } else {
    items.push_back(to_item(key));
  }
  return items;
}

}  // namespace

}  // namespace gpupy::py
