// DLPack export (capsules for ndarray.__dlpack__) and import (gpupy.from_dlpack), legacy and
// versioned, plus the CUDA stream handshake. The argument rules live in gpupy/_dlpack.py. Host
// only.
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "../../src/backend/cuda_api.h"
#include "bindings.h"
#include "dlpack.h"
#include "gpupy/alignment.h"

namespace gpupy::py {
namespace {
using namespace nb::literals;

constexpr const char* kLegacyName = "dltensor";
constexpr const char* kVersionedName = "dltensor_versioned";
constexpr const char* kUsedLegacyName = "used_dltensor";
constexpr const char* kUsedVersionedName = "used_dltensor_versioned";

// DLPack reports layouts and devices it cannot share as BufferError (no C++ counterpart).
[[noreturn]] void raise_buffer_error(const std::string& msg) {
  throw nb::buffer_error(msg.c_str());
}

DLDataType to_dl_dtype(DType dt) {
  auto bits = static_cast<uint8_t>(itemsize(dt) * 8);
  switch (dtype_kind(dt)) {
    case DTypeKind::boolean:
      return {kDLBool, 8, 1};
    case DTypeKind::signed_int:
      return {kDLInt, bits, 1};
    case DTypeKind::unsigned_int:
      return {kDLUInt, bits, 1};
    case DTypeKind::floating:
      return {kDLFloat, bits, 1};
    case DTypeKind::complex:
      return {kDLComplex, bits, 1};
  }
  throw TypeError("[__dlpack__] unsupported dtype");
}

DType from_dl_dtype(DLDataType t) {
  if (t.lanes != 1) throw TypeError("[from_dlpack] vector dtypes (lanes != 1) are not supported");
  const char* name = nullptr;
  switch (t.code) {
    case kDLBool:
      if (t.bits == 8) name = "bool";
      break;
    case kDLInt:
      if (t.bits >= 8 && t.bits <= 64) name = "i";
      break;
    case kDLUInt:
      if (t.bits == 1 || (t.bits >= 8 && t.bits <= 64)) name = t.bits == 1 ? "bool" : "u";
      break;
    case kDLFloat:
      if (t.bits == 16 || t.bits == 32 || t.bits == 64) name = "f";
      break;
    case kDLComplex:
      if (t.bits == 64 || t.bits == 128) name = "c";
      break;
    default:
      break;
  }
  if (name == nullptr)
    throw TypeError("[from_dlpack] DLPack dtype (code " + std::to_string(t.code) + ", " +
                    std::to_string(t.bits) + " bits) is not supported by gpupy");
  if (std::string(name) == "bool") return DType::bool_;
  return dtype_from_name(std::string(name) + std::to_string(t.bits / 8));
}

// Owns what a DLTensor points at: the array (which keeps its buffer alive), shape and strides.
template <class Managed>
struct ExportContext {
  Managed managed{};
  Array array;
  std::vector<int64_t> shape, strides;
};

template <class Managed>
void delete_context(Managed* self) {
  delete static_cast<ExportContext<Managed>*>(self->manager_ctx);
}

template <class Managed>
void capsule_destructor(PyObject* capsule) {
  // A renamed ("used_...") capsule belongs to its consumer; only an unconsumed one is ours.
  const char* name = std::is_same_v<Managed, DLManagedTensor> ? kLegacyName : kVersionedName;
  if (!PyCapsule_IsValid(capsule, name)) return;
  auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
  if (m != nullptr && m->deleter != nullptr) m->deleter(m);
}

template <class Managed>
Managed* fill_context(ExportContext<Managed>* ctx, const Array& a) {
  ctx->array = a;
  ctx->shape.assign(a.shape().begin(), a.shape().end());
  auto item = static_cast<int64_t>(a.itemsize());
  for (int64_t s : a.strides()) {
    if (s % item != 0)
      raise_buffer_error("[__dlpack__] strides that are not a multiple of the item size");
    ctx->strides.push_back(s / item);
  }
  DLTensor& t = ctx->managed.dl_tensor;
  t.data = a.data();
  Device d = a.device();
  t.device = d.type == DeviceType::cuda ? DLDevice{kDLCUDA, d.index} : DLDevice{kDLCPU, 0};
  t.ndim = a.ndim();
  t.dtype = to_dl_dtype(a.dtype());
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;
  ctx->managed.manager_ctx = ctx;
  ctx->managed.deleter = &delete_context<Managed>;
  return &ctx->managed;
}

template <class Managed>
nb::object make_capsule(const Array& a, uint64_t flags) {
  auto ctx = std::make_unique<ExportContext<Managed>>();
  Managed* m = fill_context(ctx.get(), a);
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    m->version = {kDLPackMajorVersion, kDLPackMinorVersion};
    m->flags = flags;
  }
  const char* name = std::is_same_v<Managed, DLManagedTensor> ? kLegacyName : kVersionedName;
  PyObject* cap = PyCapsule_New(m, name, &capsule_destructor<Managed>);
  if (cap == nullptr) throw nb::python_error();
  ctx.release();  // now owned by the capsule (or, once renamed, by the consumer)
  return nb::steal(cap);
}

nb::object dlpack_export(const Array& a, bool versioned, bool copied) {
  if (!versioned) return make_capsule<DLManagedTensor>(a, 0);
  uint64_t flags = (a.readonly() ? kDLFlagReadOnly : 0) | (copied ? kDLFlagIsCopied : 0);
  return make_capsule<DLManagedTensorVersioned>(a, flags);
}

Device from_dl_device(DLDevice d) {
  // Pinned host memory (CUDAHost) is ordinary host memory to the cpu device.
  if (d.device_type == kDLCPU || d.device_type == kDLCUDAHost) return Device{DeviceType::cpu, 0};
  if (d.device_type == kDLCUDA) return Device{DeviceType::cuda, d.device_id};
  raise_buffer_error("[from_dlpack] DLPack device type " + std::to_string(d.device_type) +
                     " is not supported by gpupy (cpu and cuda are)");
}

// The view a tensor describes: data, shape and byte strides.
struct TensorLayout {
  void* data;
  DType dtype;
  Shape shape;
  Strides strides;
};

TensorLayout tensor_layout(const DLTensor& t) {
  TensorLayout l{static_cast<char*>(t.data) + t.byte_offset,
                 from_dl_dtype(t.dtype),
                 Shape(t.shape, t.shape + t.ndim),
                 {}};
  if (t.strides == nullptr) {
    l.strides = c_strides(l.shape, itemsize(l.dtype));
  } else {
    for (int i = 0; i < t.ndim; ++i)
      l.strides.push_back(t.strides[i] * static_cast<int64_t>(itemsize(l.dtype)));
  }
  return l;
}

// Why gpupy cannot view the tensor in place (empty when it can): its kernels load aligned items.
std::string misalignment(const DLTensor& t) {
  if (t.ndim < 0) return {};
  TensorLayout l = tensor_layout(t);
  return alignment_error(l.data, l.shape, l.strides, l.dtype);
}

// Checks a tensor gpupy can view; nothing is consumed until this passes.
void check_tensor(const DLTensor& t) {
  if (t.ndim < 0) raise_buffer_error("[from_dlpack] negative ndim");
  from_dl_dtype(t.dtype);
  Device d = from_dl_device(t.device);
  if (std::string problem = misalignment(t); !problem.empty())
    raise_buffer_error("[from_dlpack] cannot view the tensor in place: " + problem +
                       " (allow a copy: copy=None or copy=True)");
  if (d.type == DeviceType::cuda && t.data != nullptr) {
    // The producer's device_id is what the stream handshake and every later op use: check it.
    cuda::PointerLocation at = cuda::pointer_location(t.data);
    if (at.kind == cuda::PointerLocation::on_device && at.device != d.index)
      raise_buffer_error("[from_dlpack] the tensor claims device cuda:" + std::to_string(d.index) +
                         " but its memory is on cuda:" + std::to_string(at.device));
  }
}

// Views a consumed tensor; `owner` runs the producer's deleter when the last view dies.
Array wrap_tensor(const DLTensor& t, bool readonly, std::shared_ptr<void> owner) {
  TensorLayout l = tensor_layout(t);
  return Array::wrap(l.data, l.shape, l.strides, l.dtype, from_dl_device(t.device),
                     std::move(owner), readonly);
}

template <class Managed>
std::shared_ptr<void> consumer_owner(Managed* m) {
  return std::shared_ptr<void>(m, [](void* p) {
    auto* mt = static_cast<Managed*>(p);
    if (mt->deleter == nullptr) return;
    nb::gil_scoped_acquire gil;  // producers such as NumPy free Python objects in the deleter
    mt->deleter(mt);
  });
}

// Renames the capsule (the consumer now owns the tensor) and views it.
template <class Managed>
nb::tuple consume(PyObject* capsule, Managed* m, const char* used_name, uint64_t flags) {
  check_tensor(m->dl_tensor);
  if (PyCapsule_SetName(capsule, used_name) != 0) throw nb::python_error();
  Array a = wrap_tensor(m->dl_tensor, (flags & kDLFlagReadOnly) != 0, consumer_owner(m));
  return nb::make_tuple(a, (flags & kDLFlagIsCopied) != 0);
}

nb::tuple dlpack_import(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, kVersionedName)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersionedName));
    if (m->version.major > kDLPackMajorVersion)
      raise_buffer_error("[from_dlpack] DLPack version " + std::to_string(m->version.major) + "." +
                         std::to_string(m->version.minor) + " is not supported (max 1.x)");
    return consume(c, m, kUsedVersionedName, m->flags);
  }
  if (PyCapsule_IsValid(c, kLegacyName)) {
    auto* m = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacyName));
    return consume(c, m, kUsedLegacyName, 0);
  }
  throw TypeError(
      "[from_dlpack] expected an unconsumed DLPack capsule ('dltensor' or 'dltensor_versioned')");
}

// The alignment problem of an unconsumed capsule's tensor (empty when none); consumes nothing.
std::string dlpack_misalignment(nb::handle capsule) {
  PyObject* c = capsule.ptr();
  if (PyCapsule_IsValid(c, kVersionedName)) {
    auto* m = static_cast<DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, kVersionedName));
    return m->version.major > kDLPackMajorVersion ? std::string() : misalignment(m->dl_tensor);
  }
  if (PyCapsule_IsValid(c, kLegacyName))
    return misalignment(
        static_cast<DLManagedTensor*>(PyCapsule_GetPointer(c, kLegacyName))->dl_tensor);
  return {};
}

}  // namespace

void bind_dlpack(nb::module_& m) {
  m.def("_dlpack_export", &dlpack_export, "array"_a, "versioned"_a, "copied"_a,
        "A DLPack capsule viewing `array` (versioned: DLPack 1.x, else legacy).");
  m.def("_dlpack_import", &dlpack_import, "capsule"_a,
        "(array, is_copied) from an unconsumed DLPack capsule; the array keeps it alive.");
  m.def("_dlpack_misalignment", &dlpack_misalignment, "capsule"_a,
        "Why an unconsumed capsule's tensor cannot be viewed in place (its data or strides are "
        "not aligned to the item size), or an empty string.");
  m.def("_cuda_stream_wait_current", &cuda::stream_wait_current, "device"_a, "stream"_a,
        "Makes the consumer `stream` (DLPack convention: 1 legacy, 2 per-thread, >2 a handle) "
        "wait for the work queued so far on gpupy's current stream of `device`.");
}

}  // namespace gpupy::py
