// Shared declarations of the nanobind module's parts, one bind_* function per C++ chapter.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/stl/detail/nb_list.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "gpupy/array.h"
#include "gpupy/error.h"
#include "gpupy/ops.h"

namespace nanobind::detail {
/// Shapes and strides convert to and from Python sequences as std::vector does.
template <class T, size_t N>
struct type_caster<gpupy::SmallVector<T, N>> : list_caster<gpupy::SmallVector<T, N>, T> {};
}  // namespace nanobind::detail

namespace gpupy::py {

namespace nb = nanobind;

void bind_errors(nb::module_& m);
void bind_device(nb::module_& m);
void bind_array(nb::module_& m);
void bind_elementwise(nb::module_& m);
void bind_creation(nb::module_& m);
void bind_manipulation(nb::module_& m);
void bind_reduction(nb::module_& m);
void bind_linalg(nb::module_& m);
/// where, clip, diagonals, concatenate/stack/split, tile, repeat, roll.
void bind_joining(nb::module_& m);
void bind_sorting(nb::module_& m);
void bind_random(nb::module_& m);
/// Streams, events, device properties and __cuda_array_interface__ (after bind_array).
void bind_cuda(nb::module_& m);
/// The cuFFT and cuSOLVER entry points of gpupy.fft and gpupy.linalg (_cuda_fft, _cuda_qr, ...).
void bind_cuda_libs(nb::module_& m);
/// DLPack capsules: export, import, and the CUDA stream handshake.
void bind_dlpack(nb::module_& m);
/// Run-time compiled emu kernels (_EmuModule).
void bind_kernel(nb::module_& m);
/// The type of gpupy's ufunc objects (_ufunc_type), completed by gpupy/_ufunc.py.
void bind_ufunc(nb::module_& m);

/// The dtype sum/prod and their scans compute in for input dtype `input`: dtype= as a DType, else,
/// when `out` is a gpupy array, NumPy's promotion of `input` and out's dtype (the result is then
/// cast into out), else nullopt. Warns as NumPy does where complex values are cast to real.
std::optional<DType> dtype_or_out(nb::handle dtype, nb::handle out, DType input);
/// NumPy's casting= name ('no', 'equiv', 'safe', 'same_kind', 'unsafe'); ValueError naming `op`.
Casting to_casting(const std::string& name, const char* op);
/// NumPy's order= argument as 'C', 'F', 'A' or 'K' (any case; None gives `fallback`): TypeError
/// for a non-string, ValueError naming `op` for another letter or one outside `allowed` (creation
/// functions take only "CF").
char to_order(nb::handle order, const char* op, char fallback, const char* allowed);
/// The sign of a Python int (not a bool) that neither int64 nor uint64 holds, else 0.
int huge_int_sign(nb::handle h);
/// A Python value as an elementwise operand: gpupy arrays as they are, Python scalars as weak
/// scalars, NumPy scalars and 0-d arrays as typed scalars, other array-likes as zero-copy cpu
/// arrays; Python lists and tuples become arrays on `list_device` (else the default device).
Operand to_operand(nb::handle value, std::optional<Device> list_device = std::nullopt);
/// Where the Python lists among an operation's operands are created: on the device of its first
/// gpupy array operand, as NumPy users expect `x + [1, 2]` to work on any device.
std::optional<Device> operand_device(std::initializer_list<nb::handle> values);
/// A Python value as an array on `device` (NumPy arrays are copied unless device is cpu).
Array to_array(nb::handle value, std::optional<Device> device, std::optional<DType> dtype);
/// Zero-copy cpu view of a NumPy array (or anything np.asarray accepts); unaligned data is
/// copied when `may_copy`, else refused (ValueError).
Array wrap_numpy(nb::handle value, bool may_copy = true);
/// What an object's __cuda_array_interface__ (v2 or v3) describes; `strides` are filled in for
/// C order when the interface has none (`c_order` then says so).
struct CudaArrayInterface {
  void* data = nullptr;
  bool readonly = false;
  DType dtype = DType::bool_;
  Shape shape;
  Strides strides;
  bool c_order = false;
  bool masked = false;              // a `mask` is given (gpupy arrays have none)
  std::optional<uintptr_t> stream;  // v3: the stream the producer's work is queued on
};
/// Reads obj.__cuda_array_interface__; an unsupported typestr raises TypeError naming `op`.
CudaArrayInterface read_cuda_array_interface(nb::handle obj, const std::string& op);
/// Ownership of a Python reference for an Array's buffer: released (with the GIL) when the last
/// view of the buffer dies.
std::shared_ptr<void> python_owner(nb::object obj);
/// A NumPy array holding a copy of `a` (from any device).
nb::object to_numpy(const Array& a);
/// dtype argument: None, a NumPy dtype or type, a string, or a Python type.
std::optional<DType> to_dtype(nb::handle dtype);
/// The numpy.dtype object for a gpupy dtype.
nb::object numpy_dtype(DType dt);
/// Device argument: None (default device), a string, or a gpupy.Device.
Device to_device_arg(nb::handle device);
/// Shape argument: an int or a sequence of ints (anything with __index__); TypeError or
/// ValueError (a dimension beyond int64) whose message starts with [op] otherwise.
Shape to_shape(nb::handle shape, const char* op);
/// A shape or strides as a tuple of Python ints (built directly: `a.shape` is a hot path).
nb::tuple int_tuple(const Shape& values);
/// A Python scalar (bool/int/float/complex) for a Scalar.
nb::object scalar_to_python(const Scalar& s);
/// NumPy's ComplexWarning when a cast from `from` to `to` drops imaginary parts (complex to a
/// real dtype other than bool); raises the Python error if warnings are errors.
void warn_complex_discarded(DType from, DType to);
/// Axis argument: None, an int, or a tuple of ints.
Axes to_axes(nb::handle axis);
/// TypeError "[op] ..." when an array operand is None (gpupy has no object dtype). Operands are
/// declared `.none()` so that None reaches this check, not nanobind's generic overload error.
void check_operand(nb::handle value, const char* op);
/// fn with its first (array) operand checked by check_operand before fn runs.
template <class R, class... Rest>
auto operand_checked(const char* op, R (*fn)(nb::handle, Rest...)) {
  return [op, fn](nb::handle a, Rest... rest) -> R {
    check_operand(a, op);
    return fn(a, std::forward<Rest>(rest)...);
  };
}
/// Defines `name` as a module function and as an ndarray method (self takes the place of `a`).
template <class R, class... Rest, class... Extra>
void def_both(nb::module_& m, const char* name, R (*fn)(nb::handle, Rest...),
              const Extra&... extra) {
  using namespace nb::literals;
  m.def(name, operand_checked(name, fn), "a"_a.none(), extra...);
  nb::object ndarray = nb::borrow(nb::type<Array>());
  nb::setattr(ndarray, name, nb::cpp_function(fn, nb::is_method(), nb::name(name), extra...));
}

/// An `out=` argument: None or a gpupy array.
const Array* to_out(nb::handle out, const char* op = nullptr);
/// NumPy's out= of the reductions and scans: `result` itself without one; else it is written into
/// `out` (ValueError unless the shapes match), which is returned. Errors name `op`.
nb::object into_out(const Array& result, nb::handle out, const char* op);

}  // namespace gpupy::py
