// Maps gpupy's C++ exceptions 1:1 onto Python exceptions.
#include "bindings.h"
#include "gpupy/error.h"

namespace gpupy::py {

void bind_errors(nb::module_& m) {
  static nb::object cuda_error =
      nb::steal(PyErr_NewException("gpupy._core.CudaError", PyExc_RuntimeError, nullptr));
  m.attr("CudaError") = cuda_error;
  static nb::object axis_error = nb::module_::import_("numpy.exceptions").attr("AxisError");
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const TypeError& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const ValueError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const AxisError& e) {
      PyErr_SetString(axis_error.ptr(), e.what());
    } catch (const IndexError& e) {
      PyErr_SetString(PyExc_IndexError, e.what());
    } catch (const OverflowError& e) {
      PyErr_SetString(PyExc_OverflowError, e.what());
    } catch (const NotImplementedError& e) {
      PyErr_SetString(PyExc_NotImplementedError, e.what());
    } catch (const MemoryError& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const CudaError& e) {
      PyErr_SetString(cuda_error.ptr(), e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
}

}  // namespace gpupy::py
