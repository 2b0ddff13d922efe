"""CUDA kernel signatures: the parsed parameters of a `__global__` function (checked launches),
the raw launch interface of unchecked ones, and the C types of template and scalar arguments."""

import numpy

from gpupy import _core
from gpupy.cunumpy._cuda_launch_args import _flatten


def _render_template_arg(a):
    """A template argument as C text: dtypes by their C type, bools as true/false."""
    if isinstance(a, str):
        return a
    if isinstance(a, (bool, numpy.bool_)):
        return "true" if a else "false"
    if isinstance(a, (int, numpy.integer)):
        return str(int(a))
    return _core._ctype_of(numpy.dtype(a))


class CudaParameter(tuple):
    """One parsed kernel parameter: (name, ctype, dtype, pointer, view_ndim, contiguous)."""

    __slots__ = ()
    name = property(lambda s: s[0])
    ctype = property(lambda s: s[1])
    dtype = property(lambda s: None if s[2] is None else numpy.dtype(s[2]))
    pointer = property(lambda s: s[3])
    view_ndim = property(lambda s: s[4] or None)
    contiguous = property(lambda s: s[5])
    struct = property(lambda s: s[6] if len(s) > 6 else None)

    def __repr__(self):
        return f"CudaParameter({self.ctype}{'*' if self.pointer else ''} {self.name})"


def parse_cuda_signature(source, name, *, structs=(), template_args=None):
    """The parameters of `__global__ void name(...)` in source, as a tuple of CudaParameter;
    each CudaStruct in structs may be taken by value (and is checked against source)."""
    args = None if template_args is None else [_render_template_arg(a) for a in template_args]
    return _parameters(_signature(source, name, structs, args), structs)


def _signature(source, name, structs, rendered_args):
    for s in structs:
        s.check_source(source)
    return _core._KernelSignature(source, name, rendered_args, [(s.name, s.dtype) for s in structs])


class _RawSignature:
    """The launch interface of a checked signature for CudaKernel(check_signature=False): no
    parsing up front and no argument checks; each argument is converted to its parameter's
    declared C type when launched (arrays pass their data pointers), as raw kernels are."""

    def __init__(self, source, name):
        self._source = source
        self.name = self.expression = self.entry_name = name
        self._types = None

    def launch(self, module, args, grid, block, shared_mem, stream=None):
        values = [_raw_value(a) for a in _flatten(args)]
        devices = {str(a.device) for a in values if isinstance(a, _core.ndarray)}
        if len(devices) > 1:
            raise ValueError(f"[CudaKernel] '{self.name}' got arrays on several devices: {devices}")
        device = devices.pop() if devices else None
        if module is None:
            return device
        if isinstance(module, _core._EmuModule):
            if device not in (None, "emu"):  # emu reads host memory: refuse other devices' arrays
                raise ValueError(f"[CudaKernel] '{self.name}' got arrays on {device}, not on emu")
            module.launch(self.name, grid, block, shared_mem, values)
        else:
            if self._types is None:
                self._types = _core._kernel_parameter_types(self._source, self.name)
            module.launch_raw(self.name, self._types, grid, block, shared_mem, stream, values)
        return device


def _raw_value(a):
    """An argument as an unchecked launch passes it: NumPy scalars as Python numbers, other
    libraries' CUDA arrays as gpupy views of their memory (on the cuda device CUDA names, after
    gpupy's current stream waits for the interface's stream)."""
    if isinstance(a, numpy.generic):
        return a.item()
    if not isinstance(a, _core.ndarray) and hasattr(type(a), "__cuda_array_interface__"):
        return _core._cuda_array_interface_import(a)
    return a


def _parameters(sig, structs):
    by_name = {s.name: s for s in structs}
    return tuple(CudaParameter((*p[:6], by_name[p[1]] if p[7] else None)) for p in sig.parameters)


def cuda_kernel_names(source):
    """Names of all `__global__ void` functions in source (comments ignored), in order."""
    return _core._cuda_kernel_names(source)


def ctype_of(dtype):
    """The C type a kernel parameter of dtype is declared with ("double" for float64);
    ValueError for dtypes without one."""
    try:
        dt = numpy.dtype(dtype)
        return _core._ctype_of(dt)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"[ctype_of] no C type for dtype {dtype!r}") from exc
