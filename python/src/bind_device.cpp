// Devices, the default device, memory statistics and CUDA availability.
#include <memory>

#include "../../src/backend/registry.h"
#include "bindings.h"

namespace gpupy::py {
namespace {
thread_local std::vector<std::unique_ptr<DeviceScope>> t_scopes;
}

void bind_device(nb::module_& m) {
  nb::class_<Device>(m, "Device")
      .def("__init__",
           [](Device* self, nb::handle spec) { new (self) Device(to_device_arg(spec)); })
      .def_prop_ro(
          "type",
          [](const Device& d) {
            return d.type == DeviceType::cpu ? "cpu" : (d.type == DeviceType::emu ? "emu" : "cuda");
          })
      .def_ro("index", &Device::index)
      .def("__str__", &Device::str)
      .def("__repr__", [](const Device& d) { return "Device('" + d.str() + "')"; })
      .def("__eq__",
           [](const Device& a, nb::handle b) {
             if (nb::isinstance<Device>(b)) return a == nb::cast<Device>(b);
             if (!PyUnicode_Check(b.ptr())) return false;
             try {
               return a == to_device_arg(b);
             } catch (const ValueError&) {  // a string that names no device ('C') is not equal
               return false;
             }
           })
      .def("__hash__", [](const Device& d) { return int(d.type) * 1024 + d.index; })
      .def("__enter__",
           [](const Device& d) {
             t_scopes.push_back(std::make_unique<DeviceScope>(d));
             return d;
           })
      .def("__exit__", [](const Device&, nb::args) { t_scopes.pop_back(); });

  m.def("default_device", &default_device, "The device new arrays are created on.");
  m.def("set_default_device", [](nb::handle d) { set_default_device(to_device_arg(d)); });
  m.def(
      "synchronize", [](nb::handle d) { backend_for(to_device_arg(d)).synchronize(); },
      nb::arg("device") = nb::none());
  m.def(
      "memory_stats",
      [](nb::handle d) {
        MemoryStats s = backend_for(to_device_arg(d)).memory_stats();
        nb::dict out;
        out["used_bytes"] = s.used_bytes;
        out["pending_bytes"] = s.pending_bytes;
        out["total_bytes"] = s.total_bytes;
        return out;
      },
      nb::arg("device") = nb::none());
  m.def(
      "free_all_blocks", [](nb::handle d) { backend_for(to_device_arg(d)).free_all_blocks(); },
      nb::arg("device") = nb::none());
  m.def("cuda_is_built", &cuda::is_built);
  m.def("cuda_is_available", [] {
    std::string reason;
    bool ok = cuda::is_available(&reason);
    return nb::make_tuple(ok, reason);
  });
  m.def("cuda_device_count", &cuda::device_count);
}

}  // namespace gpupy::py
