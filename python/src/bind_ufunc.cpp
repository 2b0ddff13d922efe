// The type of gpupy's ufunc objects (host only): a callable that hands its arguments, by
// vectorcall, to the elementwise function it wraps, so that calling gpupy.sin costs what calling
// the C++ function costs. gpupy/_ufunc.py adds the attributes and methods (at, reduce, ...).
#include "bindings.h"
// After bindings.h: structmember.h needs Python.h first.
#include <structmember.h>

namespace gpupy::py {
namespace {

struct UfuncObject {
  PyObject_HEAD PyObject* func;
  PyObject* dict;  // __name__, nin, nout and the other per-ufunc attributes
  vectorcallfunc vectorcall;
};

UfuncObject* as_ufunc(PyObject* self) { return reinterpret_cast<UfuncObject*>(self); }

// NumPy's signature= (or sig=): gpupy/_ufunc_signature.py reads it as the dtype= of that loop.
PyObject* call_with_signature(PyObject* self, PyObject* const* args, size_t nargsf,
                              PyObject* kwnames) {
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject* tuple = PyTuple_New(nargs);
  if (!tuple) return nullptr;
  for (Py_ssize_t i = 0; i < nargs; ++i) PyTuple_SET_ITEM(tuple, i, Py_NewRef(args[i]));
  PyObject* kwargs = PyDict_New();
  for (Py_ssize_t i = 0; kwargs && i < PyTuple_GET_SIZE(kwnames); ++i)
    if (PyDict_SetItem(kwargs, PyTuple_GET_ITEM(kwnames, i), args[nargs + i]) < 0) Py_CLEAR(kwargs);
  PyObject* result = nullptr;
  if (kwargs) result = PyObject_CallMethod(self, "_call_with_signature", "OO", tuple, kwargs);
  Py_DECREF(tuple);
  Py_XDECREF(kwargs);
  return result;
}

PyObject* ufunc_vectorcall(PyObject* self, PyObject* const* args, size_t nargsf,
                           PyObject* kwnames) {
  for (Py_ssize_t i = 0; kwnames && i < PyTuple_GET_SIZE(kwnames); ++i) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, i);
    if (PyUnicode_CompareWithASCIIString(name, "signature") == 0 ||
        PyUnicode_CompareWithASCIIString(name, "sig") == 0)
      return call_with_signature(self, args, nargsf, kwnames);
  }
  return PyObject_Vectorcall(as_ufunc(self)->func, args, nargsf, kwnames);
}

PyObject* ufunc_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject* func = nullptr;
  if ((kwargs && PyDict_GET_SIZE(kwargs)) || !PyArg_UnpackTuple(args, "ufunc", 1, 1, &func))
    return PyErr_Format(PyExc_TypeError, "[ufunc] takes exactly one argument, the function"),
           nullptr;
  if (!PyCallable_Check(func))
    return PyErr_Format(PyExc_TypeError, "[ufunc] the argument must be callable"), nullptr;
  auto* self = as_ufunc(type->tp_alloc(type, 0));
  if (!self) return nullptr;
  self->func = Py_NewRef(func);
  self->dict = nullptr;
  self->vectorcall = ufunc_vectorcall;
  return reinterpret_cast<PyObject*>(self);
}

int ufunc_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(as_ufunc(self)->func);
  Py_VISIT(as_ufunc(self)->dict);
  Py_VISIT(Py_TYPE(self));  // heap types are referenced by their instances
  return 0;
}

int ufunc_clear(PyObject* self) {
  Py_CLEAR(as_ufunc(self)->func);
  Py_CLEAR(as_ufunc(self)->dict);
  return 0;
}

void ufunc_dealloc(PyObject* self) {
  PyTypeObject* type = Py_TYPE(self);
  PyObject_GC_UnTrack(self);
  ufunc_clear(self);
  type->tp_free(self);
  Py_DECREF(type);
}

PyMemberDef ufunc_members[] = {
    {"func", T_OBJECT_EX, offsetof(UfuncObject, func), READONLY, "the wrapped function"},
    {"__dictoffset__", T_PYSSIZET, offsetof(UfuncObject, dict), READONLY, nullptr},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(UfuncObject, vectorcall), READONLY, nullptr},
    {nullptr, 0, 0, 0, nullptr}};

PyGetSetDef ufunc_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, nullptr, nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr}};

PyType_Slot ufunc_slots[] = {{Py_tp_new, reinterpret_cast<void*>(ufunc_new)},
                             {Py_tp_call, reinterpret_cast<void*>(PyVectorcall_Call)},
                             {Py_tp_traverse, reinterpret_cast<void*>(ufunc_traverse)},
                             {Py_tp_clear, reinterpret_cast<void*>(ufunc_clear)},
                             {Py_tp_dealloc, reinterpret_cast<void*>(ufunc_dealloc)},
                             {Py_tp_members, ufunc_members},
                             {Py_tp_getset, ufunc_getset},
                             {0, nullptr}};

// Not a base type: Python 3.11 drops vectorcall from subclasses defined in Python, so the
// methods are set on this (mutable) type instead of on a subclass.
PyType_Spec ufunc_spec = {"gpupy.ufunc", sizeof(UfuncObject), 0,
                          Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
                          ufunc_slots};

}  // namespace

void bind_ufunc(nb::module_& m) {
  PyObject* type = PyType_FromSpec(&ufunc_spec);
  if (!type) throw nb::python_error();
  m.attr("_ufunc_type") = nb::steal(type);
}

}  // namespace gpupy::py
