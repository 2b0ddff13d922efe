// gpupy._core._EmuModule: a thin vehicle for run-time compiled emu kernels (compile from source,
// launch with arrays and Python scalars), until the kernel layer's CudaKernel builds on it.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/tuple.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "backend/cuda_api.h"
#include "bindings.h"
#include "gpupy/emu/runtime.h"
#include "gpupy/kernel/emu_compiler.h"
#include "kernel/cuda_module.h"
#include "kernel/nvrtc_compiler.h"
#include "kernel_checker.h"

namespace gpupy::py {
namespace {

using kernel::CudaModule;
using kernel::EmuModule;

emu::dim3 to_dim3(nb::handle v) {
  if (PyLong_Check(v.ptr())) return emu::dim3(nb::cast<unsigned>(v));
  auto t = nb::cast<std::vector<unsigned>>(v);
  if (t.empty() || t.size() > 3) throw ValueError("[emu] grid and block take 1 to 3 dimensions");
  t.resize(3, 1);
  return emu::dim3(t[0], t[1], t[2]);
}

/// Stores one argument as the parameter's C type in slot; args[i] will point at it.
void pack(nb::handle v, const std::string& type, std::uint64_t& slot) {
  auto put = [&slot](auto x) { std::memcpy(&slot, &x, sizeof x); };
  bool pointer = !type.empty() && type.back() == '*';
  if (nb::isinstance<Array>(v)) {
    if (!pointer) throw TypeError("[emu] an array was passed for parameter type " + type);
    put(static_cast<void*>(nb::cast<const Array&>(v).data()));
    return;
  }
  bool is_int = PyLong_Check(v.ptr()), is_number = is_int || PyFloat_Check(v.ptr());
  if (pointer || !is_number) {
    throw TypeError("[emu] cannot pass a " + std::string(Py_TYPE(v.ptr())->tp_name) +
                    " as parameter type " + type);
  }
  if (type == "long long" || type == "long" || type == "int64_t" || type == "ptrdiff_t") {
    put(nb::cast<long long>(v));
  } else if (type == "int" || type == "int32_t") {
    put(nb::cast<int>(v));
  } else if (type == "unsigned" || type == "unsigned int" || type == "uint32_t") {
    put(nb::cast<unsigned>(v));
  } else if (type == "unsigned long long" || type == "size_t" || type == "uint64_t") {
    put(nb::cast<unsigned long long>(v));
  } else if (type == "double") {
    put(nb::cast<double>(v));
  } else if (type == "float") {
    put(nb::cast<float>(v));
  } else if (type == "bool") {
    put(nb::cast<bool>(v));
  } else {
    throw TypeError("[emu] cannot pack a Python number as parameter type " + type);
  }
}

/// One slot per declared parameter type, each argument packed into it; ptrs[i] = &slots[i].
void pack_all(const std::string& who, const std::string& name,
              const std::vector<std::string>& types, const std::vector<nb::handle>& args,
              std::vector<std::uint64_t>& slots, std::vector<void*>& ptrs) {
  if (args.size() != types.size()) {
    throw TypeError(who + " kernel '" + name + "' takes " + std::to_string(types.size()) +
                    " arguments, got " + std::to_string(args.size()));
  }
  slots.assign(args.size(), 0);
  ptrs.resize(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    pack(args[i], types[i], slots[i]);
    ptrs[i] = &slots[i];
  }
}

std::shared_ptr<EmuModule> compile(const std::string& source, const std::vector<std::string>& names,
                                   const std::vector<std::string>& options,
                                   const std::vector<std::string>& include_dirs) {
  std::vector<kernel::KernelEntry> kernels;
  for (const auto& n : names) kernels.push_back({n, kernel::parameter_types(source, n)});
  kernel::EmuCompileOptions opts{options, include_dirs, {}};
  nb::gil_scoped_release release;
  return kernel::compile_emu(source, kernels, opts);
}

void launch(const EmuModule& m, const std::string& name, nb::handle grid, nb::handle block,
            std::size_t shared_mem, const std::vector<nb::handle>& args) {
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  pack_all("[emu]", name, m.kernel(name).param_types, args, slots, ptrs);
  emu::dim3 g = to_dim3(grid), b = to_dim3(block);
  nb::gil_scoped_release release;
  m.launch(name, g, b, shared_mem, ptrs.data());
}

/// The stream a cuda launch runs on (`stream`: a cudaStream_t as an int; None: the device's
/// current stream). gpupy's streams are non-blocking, so an explicit other stream first waits for
/// the work queued so far on the current one: the arrays gpupy computed there are ready when the
/// kernel reads them. Work queued later on the current stream does not wait for the kernel.
/// A capturing stream does not wait: the wait would cross the capture's boundary, which CUDA
/// refuses (and which invalidates the capture); work before the capture is the user's to order.
std::uintptr_t launch_stream(int device, nb::handle stream) {
  const std::uintptr_t current = cuda::current_stream_handle(device);
  if (stream.is_none()) return current;
  const auto handle = nb::cast<std::uintptr_t>(stream);
  if (handle != current && !cuda::stream_is_capturing(device, handle))
    cuda::stream_wait_stream(device, handle, current);
  return handle;
}

/// CudaKernel(check_signature=False) on cuda: each argument converted to its parameter's
/// declared C type (`types`, from kernel::parameter_types) and launched on `stream` (None:
/// the device's current stream). Arrays must be gpupy arrays on the module's device.
void cuda_raw_launch(const CudaModule& m, const std::string& name,
                     const std::vector<std::string>& types, nb::handle grid, nb::handle block,
                     std::size_t shared_mem, nb::handle stream,
                     const std::vector<nb::handle>& args) {
  for (nb::handle a : args) {
    if (!nb::isinstance<Array>(a)) continue;
    Device d = nb::cast<const Array&>(a).device();
    if (!(d.type == DeviceType::cuda && d.index == m.device())) {
      throw ValueError("[CudaKernel] '" + name + "' got an array on device " + d.str() +
                       ", but it was compiled for cuda:" + std::to_string(m.device()));
    }
  }
  std::vector<std::uint64_t> slots;
  std::vector<void*> ptrs;
  pack_all("[CudaKernel]", name, types, args, slots, ptrs);
  emu::dim3 g = to_dim3(grid), b = to_dim3(block);
  unsigned gd[3] = {g.x, g.y, g.z}, bd[3] = {b.x, b.y, b.z};
  const std::uintptr_t handle = launch_stream(m.device(), stream);
  // The memory of the arrays must outlive the launch on `handle` (see cuda::record_stream).
  for (nb::handle a : args)
    if (nb::isinstance<Array>(a)) cuda::record_stream(*nb::cast<const Array&>(a).buffer(), handle);
  nb::gil_scoped_release release;
  m.launch(name, gd, bd, shared_mem, handle, ptrs.data());
}

/// Compiles (name, call, parameter types) entries, as CudaKernel builds them from signatures.
std::shared_ptr<EmuModule> compile_entries(
    const std::string& source,
    const std::vector<std::tuple<std::string, std::string, std::vector<std::string>>>& entries,
    const std::vector<std::string>& options, const std::vector<std::string>& include_dirs) {
  std::vector<kernel::KernelEntry> kernels;
  for (const auto& [name, call, types] : entries) kernels.push_back({name, types, call});
  kernel::EmuCompileOptions opts{options, include_dirs, {}};
  nb::gil_scoped_release release;
  return kernel::compile_emu(source, kernels, opts);
}

/// Checks and packs args; launches on module when given (None: check only), on cuda on `stream`
/// (a cudaStream_t as an int; None: the device's current stream). Returns the device of the
/// array arguments (None when there is none).
nb::object checked_launch(const KernelSignature& ks, nb::handle module, nb::handle args,
                          nb::handle grid, nb::handle block, std::size_t shared_mem,
                          nb::handle stream) {
  constexpr std::size_t kStack = 1024, kMaxParams = 64;
  alignas(16) char stack[kStack];
  std::vector<char> heap;
  std::size_t size = ks.layout().size;
  char* buf = stack;
  if (size > kStack) {
    heap.resize(size + 16);
    buf = heap.data();
  }
  std::vector<std::uintptr_t> foreign_streams;
  std::vector<const Buffer*> buffers;  // of gpupy arrays, alive in `args`: see cuda::record_stream
  bool on_cuda = !module.is_none() && nb::isinstance<CudaModule>(module);
  Device dev = ks.pack(args, buf, &foreign_streams, on_cuda ? &buffers : nullptr);
  bool has_arrays = false;
  for (const auto& p : ks.signature().params) has_arrays = has_arrays || p.pointer || p.view_ndim;
  if (on_cuda) {
    const auto& m = nb::cast<const CudaModule&>(module);
    if (has_arrays && !(dev.type == DeviceType::cuda && dev.index == m.device())) {
      throw ValueError("[CudaKernel] '" + ks.signature().name + "' got arrays on device " +
                       dev.str() + ", but it was compiled for cuda:" + std::to_string(m.device()));
    }
    std::size_t n = ks.signature().params.size();
    if (n > kMaxParams) throw ValueError("[CudaKernel] a kernel takes at most 64 parameters");
    void* ptrs[kMaxParams];
    for (std::size_t i = 0; i < n; ++i) ptrs[i] = buf + ks.layout().offsets[i];
    emu::dim3 g = to_dim3(grid), b = to_dim3(block);
    unsigned gd[3] = {g.x, g.y, g.z}, bd[3] = {b.x, b.y, b.z};
    const std::uintptr_t handle = launch_stream(m.device(), stream);
    for (const auto& b : buffers) cuda::record_stream(*b, handle);
    nb::gil_scoped_release release;
    // Foreign arrays (CuPy's, Numba's) are ordered both ways with the streams their producers
    // named: the launch stream is not theirs, and a non-blocking one does not follow the legacy
    // one.
    for (std::uintptr_t s : foreign_streams) cuda::stream_wait_stream(m.device(), handle, s);
    m.launch(ks.signature().expression, gd, bd, shared_mem, handle, ptrs);
    for (std::uintptr_t s : foreign_streams) cuda::stream_wait_stream(m.device(), s, handle);
  } else if (!module.is_none()) {
    if (has_arrays && dev.type != DeviceType::emu) {
      throw ValueError("[CudaKernel] '" + ks.signature().name + "' got arrays on device " +
                       dev.str() + ", but it was compiled for emu");
    }
    const auto& m = nb::cast<const EmuModule&>(module);
    std::size_t n = ks.signature().params.size();
    if (n > kMaxParams) throw ValueError("[CudaKernel] a kernel takes at most 64 parameters");
    void* ptrs[kMaxParams];
    for (std::size_t i = 0; i < n; ++i) ptrs[i] = buf + ks.layout().offsets[i];
    emu::dim3 g = to_dim3(grid), b = to_dim3(block);
    nb::gil_scoped_release release;
    m.launch(ks.entry_name(), g, b, shared_mem, ptrs);
  }
  return has_arrays ? nb::cast(dev) : nb::none();
}

/// Checks values (one per parameter) and packs them into the writable buffer at offsets; returns
/// the device of the array values (None when there is none).
nb::object pack_at(const KernelSignature& ks, nb::tuple values, nb::handle buffer,
                   const std::vector<std::size_t>& offsets) {
  Py_buffer view;
  if (PyObject_GetBuffer(buffer.ptr(), &view, PyBUF_WRITABLE) != 0) throw nb::python_error();
  std::size_t end = 0;
  for (std::size_t i = 0; i < offsets.size() && i < ks.signature().params.size(); ++i) {
    end = std::max(end, offsets[i] + ks.signature().params[i].packed_size());
  }
  if (end > static_cast<std::size_t>(view.len)) {
    PyBuffer_Release(&view);
    throw ValueError("the record buffer is too small for its fields");
  }
  bool has_arrays = false;
  for (const auto& p : ks.signature().params) has_arrays = has_arrays || p.pointer || p.view_ndim;
  Device dev;
  try {
    dev = ks.pack_at(values, static_cast<char*>(view.buf), offsets);
  } catch (...) {
    PyBuffer_Release(&view);
    throw;
  }
  PyBuffer_Release(&view);
  return has_arrays ? nb::cast(dev) : nb::none();
}

nb::list parameters(const KernelSignature& ks) {
  nb::list out;
  for (const auto& p : ks.signature().params) {
    nb::object dt = nb::none();
    if (p.dtype) dt = nb::str(std::string(dtype_name(*p.dtype)).c_str());
    out.append(nb::make_tuple(p.name, p.ctype, dt, p.pointer, p.view_ndim, p.contiguous,
                              p.decl_type, p.struct_size));
  }
  return out;
}

kernel::NvrtcCompileOptions nvrtc_options(const std::vector<std::string>& options,
                                          const std::vector<std::string>& include_dirs,
                                          const std::string& arch) {
  kernel::NvrtcCompileOptions o;
  o.options = options;
  o.include_dirs = include_dirs;
  if (!arch.empty()) o.arch = arch;
  return o;
}

/// Compiles with NVRTC only (no driver needed): (CUBIN bytes, lowered names).
nb::tuple nvrtc_compile(const std::string& source, const std::vector<std::string>& names,
                        const std::vector<std::string>& options,
                        const std::vector<std::string>& include_dirs, const std::string& arch) {
  std::shared_ptr<const kernel::NvrtcProgram> p;
  {
    nb::gil_scoped_release release;
    p = kernel::compile_nvrtc(source, names, nvrtc_options(options, include_dirs, arch));
  }
  nb::list lowered;
  for (const auto& n : p->lowered_names) lowered.append(nb::str(n.c_str()));
  return nb::make_tuple(nb::bytes(p->cubin.data(), p->cubin.size()), lowered);
}

/// Compiles for the architecture of CUDA device `device` and loads the CUBIN there.
std::shared_ptr<CudaModule> cuda_compile_load(int device, const std::string& source,
                                              const std::vector<std::string>& names,
                                              const std::vector<std::string>& options,
                                              const std::vector<std::string>& include_dirs) {
  nb::gil_scoped_release release;
  std::string arch = kernel::cuda_device_arch(device);  // needs the driver: fails first without
  auto p = kernel::compile_nvrtc(source, names, nvrtc_options(options, include_dirs, arch));
  std::vector<std::pair<std::string, std::string>> kernels;
  for (std::size_t i = 0; i < names.size(); ++i)
    kernels.emplace_back(names[i], p->lowered_names[i]);
  return CudaModule::load(device, p->cubin, kernels);
}

}  // namespace

void bind_kernel(nb::module_& m) {
  nb::class_<KernelSignature>(m, "_KernelSignature")
      .def(nb::init<const std::string&, const std::string&,
                    const std::optional<std::vector<std::string>>&,
                    const std::vector<std::pair<std::string, nb::object>>&>(),
           nb::arg("source"), nb::arg("name"), nb::arg("template_args").none(),
           nb::arg("structs") = std::vector<std::pair<std::string, nb::object>>{})
      .def_prop_ro("name", [](const KernelSignature& k) { return k.signature().name; })
      .def_prop_ro("expression", [](const KernelSignature& k) { return k.signature().expression; })
      .def_prop_ro("entry_name", &KernelSignature::entry_name)
      .def_prop_ro("parameters", &parameters)
      .def("pack_at", &pack_at, nb::arg("values"), nb::arg("buffer"), nb::arg("offsets"))
      .def("launch", &checked_launch, nb::arg("module").none(), nb::arg("args"), nb::arg("grid"),
           nb::arg("block"), nb::arg("shared_mem"), nb::arg("stream") = nb::none());
  m.def("_cuda_kernel_names", &kernel::cuda_kernel_names);
  m.def("_ctype_of", [](nb::handle dt) { return kernel::ctype_of(*to_dtype(dt)); });
  m.def("_dtype_of_ctype", [](const std::string& c) -> nb::object {
    auto dt = kernel::dtype_of_ctype(c);
    if (!dt) return nb::none();
    return nb::str(std::string(dtype_name(*dt)).c_str());
  });
  nb::class_<EmuModule>(m, "_EmuModule")
      .def_static("compile", &compile, nb::arg("source"), nb::arg("names"),
                  nb::arg("options") = std::vector<std::string>{},
                  nb::arg("include_dirs") = std::vector<std::string>{})
      .def_static("compile_entries", &compile_entries, nb::arg("source"), nb::arg("entries"),
                  nb::arg("options"), nb::arg("include_dirs"))
      .def("launch", &launch, nb::arg("name"), nb::arg("grid"), nb::arg("block"),
           nb::arg("shared_mem"), nb::arg("args"))
      .def_prop_ro("path", &EmuModule::path)
      .def("parameter_types",
           [](const EmuModule& m, const std::string& name) { return m.kernel(name).param_types; });
  m.def("_emu_include_dir", &kernel::emu_include_dir);
  m.def("_nvrtc_compile", &nvrtc_compile, nb::arg("source"), nb::arg("names"), nb::arg("options"),
        nb::arg("include_dirs"), nb::arg("arch") = "");
  m.def("_nvrtc_available", []() {
    std::string reason;
    bool ok = kernel::nvrtc_available(&reason);
    return nb::make_tuple(ok, reason);
  });
  nb::class_<CudaModule>(m, "_CudaModule")
      .def_static("compile_load", &cuda_compile_load, nb::arg("device"), nb::arg("source"),
                  nb::arg("names"), nb::arg("options"), nb::arg("include_dirs"))
      .def_prop_ro("device", &CudaModule::device)
      .def("attributes",
           [](const CudaModule& m, const std::string& expression) {
             kernel::CudaKernelAttributes a = m.attributes(expression);
             return nb::make_tuple(a.max_threads_per_block, a.static_shared_bytes);
           })
      .def("set_max_dynamic_shared_bytes", &CudaModule::set_max_dynamic_shared_bytes,
           nb::arg("expression"), nb::arg("bytes"))
      .def("launch_raw", &cuda_raw_launch, nb::arg("name"), nb::arg("types"), nb::arg("grid"),
           nb::arg("block"), nb::arg("shared_mem"), nb::arg("stream").none(), nb::arg("args"));
  m.def("_kernel_parameter_types", &kernel::parameter_types, nb::arg("source"), nb::arg("name"));
  m.def("_cuda_launch_limits", [](int device) {
    kernel::CudaLaunchLimits l = kernel::cuda_launch_limits(device);
    nb::dict d;
    d["name"] = l.name;
    d["max_threads_dim"] = nb::make_tuple(l.max_block[0], l.max_block[1], l.max_block[2]);
    d["max_grid_size"] = nb::make_tuple(l.max_grid[0], l.max_grid[1], l.max_grid[2]);
    d["max_threads_per_block"] = l.max_threads_per_block;
    d["shared_mem_per_block"] = l.shared_per_block;
    d["shared_mem_per_block_optin"] = l.shared_per_block_optin;
    return d;
  });
  m.def("_emu_max_dynamic_shared_bytes", &emu::max_dynamic_shared_bytes);
  m.def("_emu_set_max_dynamic_shared_bytes", &emu::set_max_dynamic_shared_bytes, nb::arg("bytes"));
  // $GPUPY_EMU_SCHEDULE as in force (a drawn shuffle seed included), for replaying a test run.
  m.def("_emu_schedule", [] { return emu::to_string(emu::schedule()); });
}

}  // namespace gpupy::py
