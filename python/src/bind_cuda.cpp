// CUDA streams, events, device properties, TF32 and pool settings, and __cuda_array_interface__
// on ndarray. Builds without CUDA bind the same names; their C++ side throws.
#include <nanobind/ndarray.h>

#include <memory>
#include <vector>

#include "../../src/backend/cuda_api.h"
#include "../../src/backend/registry.h"
#include "../../src/kernel/cuda_module.h"
#include "bindings.h"
#include "gpupy/alignment.h"
#include "gpupy/error.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

thread_local std::vector<cuda::CudaStream> t_previous_streams;  // for `with stream:` nesting

// A cuda device index from None (the default device if it is a cuda one, else 0), an int, a
// string or a gpupy.Device.
int cuda_index(nb::handle device) {
  if (device.is_none()) {
    Device d = default_device();
    return d.type == DeviceType::cuda ? d.index : 0;
  }
  if (PyLong_Check(device.ptr())) return nb::cast<int>(device);
  Device d = to_device_arg(device);
  if (d.type != DeviceType::cuda)
    throw ValueError("[cuda] expected a cuda device, got '" + d.str() + "'");
  return d.index;
}

nb::object cuda_array_interface(const Array& a) {
  if (a.device().type != DeviceType::cuda) {
    std::string msg = "__cuda_array_interface__ is only defined on cuda arrays; this array is on " +
                      a.device().str();
    throw nb::attribute_error(msg.c_str());
  }
  nb::dict d;
  nb::list shape;
  for (int64_t s : a.shape()) shape.append(s);
  d["shape"] = nb::tuple(shape);
  d["typestr"] = std::string(dtype_typestr(a.dtype()));
  uintptr_t ptr = a.size() == 0 ? 0 : reinterpret_cast<uintptr_t>(a.data());
  d["data"] = nb::make_tuple(ptr, a.readonly());
  if (a.is_c_contiguous()) {
    d["strides"] = nb::none();
  } else {
    nb::list strides;
    for (int64_t s : a.strides()) strides.append(s);
    d["strides"] = nb::tuple(strides);
  }
  d["version"] = 3;
  // Work on the array is queued on the current stream; 0 is not allowed, 1 is the legacy stream.
  uintptr_t stream = cuda::current_stream_handle(a.device().index);
  d["stream"] = stream == 0 ? uintptr_t{1} : stream;
  return d;
}

/// The cuda device of foreign memory at `data`, asked of CUDA (__cuda_array_interface__ names
/// none): managed memory and an empty array's null pointer go to the default cuda device.
Device foreign_cuda_device(const void* data) {
  cuda::PointerLocation at = data ? cuda::pointer_location(data) : cuda::PointerLocation{};
  switch (at.kind) {
    case cuda::PointerLocation::on_device:
    case cuda::PointerLocation::pinned_host:  // mapped for the device it was pinned on
      return {DeviceType::cuda, at.device};
    case cuda::PointerLocation::not_cuda:
      throw TypeError(
          "[asarray] the __cuda_array_interface__ pointer is not CUDA memory (host memory, or "
          "memory already freed)");
    default:
      break;
  }
  std::string reason;
  if (!cuda::is_available(&reason))
    throw TypeError(
        "[asarray] __cuda_array_interface__ data needs the cuda device, which is not "
        "available: " +
        reason);
  return {DeviceType::cuda, cuda_index(nb::none())};
}

/// A zero-copy view of another library's CUDA memory (CuPy, Numba, PyTorch) through its
/// __cuda_array_interface__ (v2 or v3); the view keeps `obj` alive. With a v3 `stream`, gpupy's
/// current stream on that device waits for the work the producer queued there.
Array cuda_array_interface_import(nb::handle obj) {
  CudaArrayInterface cai = read_cuda_array_interface(obj, "[asarray]");
  if (cai.masked)
    throw TypeError("[asarray] masked __cuda_array_interface__ arrays are not supported");
  void* ptr = cai.data;
  // gpupy's kernels load aligned items; a GPU faults on anything else.
  if (std::string problem = alignment_error(ptr, cai.shape, cai.strides, cai.dtype);
      !problem.empty())
    throw ValueError("[asarray] cannot view the __cuda_array_interface__ data: " + problem);
  Device device = foreign_cuda_device(ptr);
  if (cai.stream) {
    if (*cai.stream == 0)
      throw ValueError("[asarray] __cuda_array_interface__ stream 0 is not allowed (v3)");
    cuda::stream_wait_stream(device.index, cuda::current_stream_handle(device.index), *cai.stream);
  }
  return Array::wrap(ptr, cai.shape, cai.strides, cai.dtype, device, python_owner(nb::borrow(obj)),
                     cai.readonly);
}

void bind_stream(nb::module_& m) {
  nb::class_<cuda::CudaStream>(m, "Stream", "A CUDA stream (gpupy.cuda.Stream).")
      .def(
          "__init__",
          [](cuda::CudaStream* self, nb::handle device, bool non_blocking) {
            new (self) cuda::CudaStream(cuda::CudaStream::create(cuda_index(device), non_blocking));
          },
          "device"_a = nb::none(), "non_blocking"_a = true)
      .def_prop_ro("handle", &cuda::CudaStream::handle, "The cudaStream_t value.")
      .def_prop_ro("ptr", &cuda::CudaStream::handle)
      .def_prop_ro("device",
                   [](const cuda::CudaStream& s) {
                     return Device{DeviceType::cuda, s.device()};
                   })
      .def("synchronize", &cuda::CudaStream::synchronize, nb::call_guard<nb::gil_scoped_release>())
      .def("query", &cuda::CudaStream::query)
      .def("is_capturing", &cuda::CudaStream::is_capturing,
           "True while the stream captures a CUDA graph (CuPy's Stream.is_capturing).")
      .def("wait", &cuda::CudaStream::wait, "event"_a, "Makes later work wait for `event`.")
      .def(
          "record",
          [](const cuda::CudaStream& s, std::optional<cuda::CudaEvent> event) {
            cuda::CudaEvent e = event ? *event : cuda::CudaEvent::create(true, s.device());
            e.record(s);
            return e;
          },
          "event"_a = nb::none())
      .def("__enter__",
           [](nb::object self) {
             const auto& s = nb::cast<const cuda::CudaStream&>(self);
             cuda::CudaStream previous = cuda::set_current_stream(s);
             t_previous_streams.push_back(previous);
             // Streams are non-blocking: the block's ops may read arrays still being computed on
             // the stream that was current, so the new one waits for the work queued there so
             // far. Leaving the block orders nothing (sibling blocks keep running concurrently).
             if (previous.handle() != s.handle())
               cuda::stream_wait_stream(s.device(), s.handle(), previous.handle());
             return self;
           })
      .def("__exit__",
           [](const cuda::CudaStream&, nb::args) {
             if (t_previous_streams.empty())
               throw ValueError("[cuda] Stream.__exit__ without __enter__");
             cuda::set_current_stream(t_previous_streams.back());
             t_previous_streams.pop_back();
           })
      .def("__eq__", [](const cuda::CudaStream& a,
                        const cuda::CudaStream& b) { return a.handle() == b.handle(); })
      .def("__hash__", [](const cuda::CudaStream& s) { return s.handle(); })
      .def("__repr__", [](const cuda::CudaStream& s) {
        return "<gpupy.cuda.Stream " + std::to_string(s.handle()) +
               " on cuda:" + std::to_string(s.device()) + ">";
      });
  m.def(
      "current_stream",
      [](nb::handle device) { return cuda::CudaStream::current(cuda_index(device)); },
      "device"_a = nb::none(), "The stream gpupy queues work on for `device` in this thread.");
}

void bind_event(nb::module_& m) {
  nb::class_<cuda::CudaEvent>(m, "Event", "A CUDA event (gpupy.cuda.Event).")
      .def(
          "__init__",
          [](cuda::CudaEvent* self, bool timing) {
            new (self) cuda::CudaEvent(cuda::CudaEvent::create(timing));
          },
          "timing"_a = true)
      .def(
          "record",
          [](const cuda::CudaEvent& e, std::optional<cuda::CudaStream> stream) {
            e.record(stream ? *stream : cuda::CudaStream::current(cuda_index(nb::none())));
          },
          "stream"_a = nb::none())
      .def(
          "wait",
          [](const cuda::CudaEvent& e, std::optional<cuda::CudaStream> stream) {
            (stream ? *stream : cuda::CudaStream::current(cuda_index(nb::none()))).wait(e);
          },
          "stream"_a = nb::none(), "Makes later work on `stream` wait for this event.")
      .def("synchronize", &cuda::CudaEvent::synchronize, nb::call_guard<nb::gil_scoped_release>())
      .def("query", &cuda::CudaEvent::query)
      .def("elapsed_time", &cuda::CudaEvent::elapsed_time, "end"_a,
           "Milliseconds from this event to `end`.");
}

// Versions, device memory, pinned host buffers, asynchronous copies to them, NVTX.
void bind_host_io(nb::module_& m) {
  m.def(
      "cuda_driver_version",
      [] {
        std::string reason;
        int v = kernel::cuda_driver_version(&reason);
        return nb::make_tuple(v ? nb::cast(v) : nb::none(), reason);
      },
      "(version or None, why there is none): the CUDA driver's version, read from libcuda.");
  m.def(
      "cuda_runtime_version",
      [] {
        int v = cuda::runtime_version();
        return v ? nb::cast(v) : nb::none();
      },
      "The CUDA runtime version gpupy was built with, or None in builds without CUDA.");
  m.def(
      "cuda_memory_info",
      [](nb::handle device) {
        cuda::MemoryInfo info = cuda::memory_info(cuda_index(device));
        return nb::make_tuple(info.free, info.total);
      },
      "device"_a = nb::none(), "(free, total) bytes of a cuda device's memory.");
  m.def(
      "cuda_pinned_empty",
      [](size_t nbytes) {
        void* ptr = cuda::alloc_pinned(nbytes);
        nb::capsule owner(ptr, [](void* p) noexcept { cuda::free_pinned(p); });
        return nb::ndarray<nb::numpy, uint8_t, nb::ndim<1>>(ptr, {nbytes}, owner);
      },
      "nbytes"_a, "A NumPy uint8 array of `nbytes` in page-locked (pinned) host memory.");
  m.def(
      "cuda_copy_to_host_async",
      [](const Array& src, nb::ndarray<nb::device::cpu, nb::c_contig> host,
         const cuda::CudaStream& stream) {
        if (host.nbytes() != static_cast<size_t>(src.nbytes()))
          throw ValueError("[to_host_async] the host buffer has " + std::to_string(host.nbytes()) +
                           " bytes, the array " + std::to_string(src.nbytes()));
        cuda::copy_to_host_async(host.data(), src, stream);
      },
      "src"_a, "host"_a, "stream"_a,
      "Queues a copy of a C-contiguous cuda array into a writable host array on `stream`.");
  m.def(
      "_nvtx_push",
      [](const std::string& name, uint32_t argb) { cuda::nvtx_push(name.c_str(), argb); }, "name"_a,
      "argb"_a = 0);
  m.def("_nvtx_pop", &cuda::nvtx_pop);
}

}  // namespace

void bind_cuda(nb::module_& m) {
  bind_host_io(m);
  bind_stream(m);
  bind_event(m);
  m.def("cuda_device_properties", [](int index) {
    cuda::DeviceProperties p = cuda::device_properties(index);
    nb::dict d;
    d["name"] = p.name;
    d["compute_capability"] = nb::make_tuple(p.major, p.minor);
    d["total_memory"] = p.total_memory;
    d["multiprocessor_count"] = p.multiprocessor_count;
    d["max_threads_per_block"] = p.max_threads_per_block;
    d["max_shared_memory_per_block"] = p.max_shared_memory_per_block;
    d["warp_size"] = p.warp_size;
    return d;
  });
  m.def("cuda_set_allow_tf32", &cuda::set_allow_tf32, "allow"_a);
  m.def("cuda_allow_tf32", [] { return cuda::allow_tf32(); });
  m.def(
      "cuda_set_memory_limit",
      [](nb::handle device, size_t bytes) { cuda::set_memory_limit(cuda_index(device), bytes); },
      "device"_a, "bytes"_a);
  m.def(
      "cuda_memory_limit", [](nb::handle device) { return cuda::memory_limit(cuda_index(device)); },
      "device"_a = nb::none());
  m.def(
      "cuda_record_stream",
      [](const Array& a, uintptr_t stream) { cuda::record_stream(*a.buffer(), stream); }, "array"_a,
      "stream"_a,
      "Keeps the array's memory from reuse, once freed, until the work queued so far on "
      "`stream` (a cudaStream_t; 1 legacy, 2 per-thread default stream) is done.");
  m.def("_cuda_array_interface_import", &cuda_array_interface_import, "obj"_a,
        "A zero-copy view of an object's __cuda_array_interface__ data on its cuda device.");
  nb::object property = nb::module_::import_("builtins").attr("property");
  nb::setattr(m.attr("ndarray"), "__cuda_array_interface__",
              property(nb::cpp_function(&cuda_array_interface)));
}

}  // namespace gpupy::py
