// gpupy._core._KernelSignature: a parsed kernel signature with one checker per parameter that
// checks and packs a launch's Python arguments in C++ (kernel layer spec 2.3). Host only.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "gpupy/kernel/arguments.h"
#include "gpupy/kernel/signature.h"

namespace gpupy::py {

class KernelSignature {
 public:
  /// structs: (name, packed NumPy dtype) of each struct type parameters may take by value.
  KernelSignature(const std::string& source, const std::string& name,
                  const std::optional<std::vector<std::string>>& template_args,
                  const std::vector<std::pair<std::string, nb::object>>& structs = {});

  const kernel::CudaSignature& signature() const { return sig_; }
  /// Name of the launch entry: the kernel's name, or a unique identifier for a template instance.
  const std::string& entry_name() const { return entry_; }
  /// Checks args (flattening __cuda_args__ objects) and packs them into buf (layout().size
  /// bytes); returns the device of the first array argument (cpu when there is none). Appends
  /// the __cuda_array_interface__ streams of foreign arrays to `streams` and the buffers of gpupy
  /// arrays to `buffers` when given.
  Device pack(nb::handle args, char* buf, std::vector<std::uintptr_t>* streams = nullptr,
              std::vector<const Buffer*>* buffers = nullptr) const;
  const kernel::ArgumentLayout& layout() const { return layout_; }
  /// Checks exactly one value per parameter (no flattening) and packs value i at
  /// buf + offsets[i]: the fields of a struct record.
  Device pack_at(nb::handle values, char* buf, const std::vector<std::size_t>& offsets) const;

 private:
  void pack_one(std::size_t i, nb::handle v, char* dst, Device& dev, bool& have_dev,
                std::vector<std::uintptr_t>* streams = nullptr,
                std::vector<const Buffer*>* buffers = nullptr) const;
  void pack_struct(std::size_t i, nb::handle v, char* dst) const;
  void pack_scalar(std::size_t i, nb::handle v, char* dst) const;
  void pack_numpy_scalar(std::size_t i, nb::handle v, DType src, char* dst) const;

  kernel::CudaSignature sig_;
  kernel::ArgumentLayout layout_;
  std::string entry_;
  std::vector<std::string> what_;          // "argument 0 (double* x)", built once
  std::vector<nb::object> struct_dtypes_;  // per parameter: the struct's dtype, or None
};

}  // namespace gpupy::py
