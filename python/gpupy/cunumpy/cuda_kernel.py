"""CudaKernel: a CUDA C kernel whose signature is parsed once and whose every launch is checked
and packed by gpupy's C++ kernel runtime; runs on the emu device (host compiler) and on cuda
(NVRTC, with the CUBIN loaded through the CUDA driver API)."""

import math
import os

import numpy

from gpupy import _core

_MAX_THREADS = 1024


def _render_template_arg(a):
    """A template argument as C text: dtypes by their C type, bools as true/false."""
    if isinstance(a, str):
        return a
    if isinstance(a, (bool, numpy.bool_)):
        return "true" if a else "false"
    if isinstance(a, (int, numpy.integer)):
        return str(int(a))
    return _core._ctype_of(numpy.dtype(a))


def _dims(value, what):
    """An int or 1-3 ints as a tuple; ValueError otherwise."""
    dims = (value,) if isinstance(value, (int, numpy.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{what} takes 1 to 3 dimensions, got {len(dims)}")
    return tuple(int(d) for d in dims)


def _block(value):
    dims = _dims(value, "block_size")
    if any(d <= 0 for d in dims):
        raise ValueError("block sizes must be positive")
    if math.prod(dims) > _MAX_THREADS:
        raise ValueError(f"a block has at most {_MAX_THREADS} threads, got {math.prod(dims)}")
    return dims


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


def _parameters(sig, structs):
    by_name = {s.name: s for s in structs}
    return tuple(CudaParameter((*p[:6], by_name[p[1]] if p[7] else None)) for p in sig.parameters)


def cuda_kernel_names(source):
    """Names of all `__global__ void` functions in source (comments ignored), in order."""
    return _core._cuda_kernel_names(source)


class CudaKernel:
    """A CUDA C kernel launched with checked arguments: pointer parameters take device arrays
    (never copied), scalars are range-checked and cast to the declared C type."""

    def __init__(
        self,
        source,
        name,
        *,
        block_size=128,
        options=(),
        include_dirs=(),
        source_dir=None,
        structs=(),
        template_args=None,
        check_signature=True,
        n_threads_from="auto",
    ):
        self._source = source
        self._name = name
        self._block = _block(block_size)
        self._user_options = tuple(options)
        self._include_dirs = tuple(str(d) for d in include_dirs)
        self._source_dir = source_dir
        self._template_args = None if template_args is None else tuple(template_args)
        if not check_signature:
            raise NotImplementedError("CudaKernel(check_signature=False) is not supported yet")
        rendered = (
            None if template_args is None else [_render_template_arg(a) for a in template_args]
        )
        self._structs = tuple(structs)
        self._sig = _signature(source, name, self._structs, rendered)
        self._params = _parameters(self._sig, self._structs)
        self._modules = {}  # device string -> compiled module
        self._emu_module = None
        self.n_threads_from = n_threads_from

    @classmethod
    def from_file(cls, path, name=None, *, suffix="_cuda.cu", **kw):
        """The kernel in file `path`; name defaults to the file name minus suffix."""
        path = os.fspath(path)
        base = os.path.basename(path)
        if name is None:
            if not base.endswith(suffix):
                raise ValueError(f"{path} does not end with {suffix!r}; pass the kernel name")
            name = base[: -len(suffix)]
        return cls(_read(path), name, **_file_kw(path, kw))

    @classmethod
    def all_from_file(cls, path, **kw):
        """{name: CudaKernel} for every `__global__` function in the file."""
        path = os.fspath(path)
        source = _read(path)
        names = cuda_kernel_names(source)
        if not names:
            raise ValueError(f"{path} defines no __global__ function")
        kw = _file_kw(path, kw)
        return {n: cls(source, n, **kw) for n in names}

    name = property(lambda self: self._name)
    source = property(lambda self: self._source)
    expression = property(lambda self: self._sig.expression)
    signature = property(lambda self: self._params)
    template_args = property(lambda self: self._template_args)
    structs = property(lambda self: self._structs)
    include_dirs = property(lambda self: self._include_dirs)
    source_dir = property(lambda self: self._source_dir)

    @property
    def block_size(self):
        return self._block[0] if len(self._block) == 1 else self._block

    @property
    def options(self):
        return self._user_options + tuple(f"-I{d}" for d in self._include_dirs)

    @property
    def is_compiled(self):
        return str(_core.default_device()) in self._modules

    def __repr__(self):
        return f"<CudaKernel {self.expression} block_size={self.block_size}>"

    def compile(self, device=None):
        """Compiles (and, on cuda, loads) the kernel for device (default: the current device) and
        caches the result per device. cuda needs NVRTC and a CUDA driver (gpupy CudaError
        otherwise); a source that does not compile raises RuntimeError with the compiler's log."""
        device = str(_core.default_device() if device is None else _core.Device(device))
        module = self._modules.get(device)
        if module is None:
            module = self._modules[device] = self._compile(device)
        return module

    def cubin(self, arch="sm_90"):
        """The kernel compiled with NVRTC to a CUBIN for arch ("sm_XY"), as bytes; needs NVRTC
        but neither a GPU nor a driver."""
        cubin, _ = _core._nvrtc_compile(
            self._prelude() + self._source,
            [self._sig.expression],
            list(self._user_options),
            list(self._include_dirs),
            arch,
        )
        return cubin

    @property
    def n_threads_from(self):
        """How a launch without n_threads or grid infers n_threads from its arguments."""
        return self._n_threads_from

    @n_threads_from.setter
    def n_threads_from(self, value):
        if not (callable(value) or value in _INFER_MODES):
            raise TypeError(
                "n_threads_from must be callable, 'auto', 'first_array', 'last_axis' or None"
            )
        self._n_threads_from = value

    def prepare_args(self, *args):
        """The arguments a launch passes, after flattening __cuda_args__ objects; raises the
        errors a launch with them would raise."""
        self._sig.launch(None, args, (0,), (1,), 0)
        return _flatten(args)

    def launch_shape(self, n_threads=None, *, grid=None, block=None, args=None):
        """(grid, block) tuples of a launch: grid = ceil(n_threads / block) per axis."""
        block = self._block if block is None else _block(block)
        if n_threads is None and grid is None and args is not None:
            n_threads = self._infer_n_threads(tuple(args), len(block))
        if (n_threads is None) == (grid is None):
            raise TypeError("pass exactly one of n_threads and grid")
        if grid is not None:
            g = _dims(grid, "grid")
            if any(d < 0 for d in g):
                raise ValueError("grid sizes must be non-negative")
            return g, block
        n = _dims(n_threads, "n_threads")
        if any(d < 0 for d in n):
            raise ValueError("n_threads must be non-negative")
        if len(block) != len(n):
            if len(block) != 1:
                raise ValueError(
                    f"block {block} and n_threads {n} have different numbers of dimensions"
                )
            block = block + (1,) * (len(n) - 1)
        return tuple(-(-a // b) for a, b in zip(n, block, strict=True)), block

    def __call__(self, *args, n_threads=None, grid=None, block=None, shared_mem=0, stream=None):
        if type(n_threads) is int and grid is None and block is None and len(self._block) == 1:
            g, b = (-(-n_threads // self._block[0]),), self._block  # the common case, fast
            if n_threads < 0:
                raise ValueError("n_threads must be non-negative")
        else:
            g, b = self.launch_shape(n_threads, grid=grid, block=block, args=args)
        if not isinstance(shared_mem, (int, numpy.integer)) or shared_mem < 0:
            raise ValueError("shared_mem must be a non-negative integer")
        if stream is not None:
            raise NotImplementedError("CudaKernel(stream=...) is not supported yet")
        empty = 0 in g
        if self._emu_module is not None and not empty:
            # One call into C++ checks, packs and launches (it refuses arrays not on emu).
            self._sig.launch(self._emu_module, args, g, b, shared_mem)
            return
        device = self._sig.launch(None, args, g, b, shared_mem)  # every check before compiling
        if empty:
            return
        device = str(device if device is not None else _core.default_device())
        module = self._modules.get(device)
        if module is None:
            module = self._modules[device] = self._compile(device)
        if device == "emu":
            self._emu_module = module
        self._sig.launch(module, args, g, b, shared_mem)

    def _infer_n_threads(self, args, block_dims):
        mode = self._n_threads_from
        if mode is None:
            return None
        if callable(mode):
            return mode(args)
        shape = next((tuple(a.shape) for a in _inference_values(args) if _array_shape(a)), None)
        if shape is None:
            raise TypeError("inferring n_threads needs an array argument; pass n_threads or grid")
        if mode == "first_array":
            return shape[0]
        if mode == "last_axis":
            return shape[-1]
        if len(shape) < block_dims:
            raise ValueError(
                f"cannot infer {block_dims}D n_threads from the first array's shape {shape}; "
                "pass n_threads"
            )
        return shape[0] if block_dims == 1 else shape[:block_dims]

    def _compile(self, device):
        if device == "emu":
            entry = (
                self._sig.entry_name,
                self._sig.expression,
                [p[6] for p in self._sig.parameters],
            )
            dirs = list(self._include_dirs) + [_cunumpy_include_dir()]
            return _core._EmuModule.compile_entries(
                self._prelude() + self._source, [entry], list(self._user_options), dirs
            )
        if device.startswith("cuda"):
            index = int(device.partition(":")[2] or 0)
            return _core._CudaModule.compile_load(
                index,
                self._prelude() + self._source,
                [self._sig.expression],
                list(self._user_options),
                list(self._include_dirs),
            )
        raise ValueError(f"CudaKernel '{self._name}' cannot run on device {device}")

    def _prelude(self):
        """The array-view header, so that ArrayND/CArrayND views work without an #include."""
        return "#include <cunumpy/array_view.cuh>\n#line 1\n"


_INFER_MODES = ("auto", "first_array", "last_axis", None)


def _flatten(args):
    """Top-level arguments with __cuda_args__ replaced by what it returns."""
    if not any(hasattr(type(a), "__cuda_args__") for a in args):
        return tuple(args)
    out = []
    for a in args:
        out.extend(a.__cuda_args__() if hasattr(type(a), "__cuda_args__") else (a,))
    return tuple(out)


def _inference_values(args):
    """Arguments in order, argument objects replaced by the values they hold (struct fields,
    CudaArguments values), so that launch-size inference finds arrays inside them."""
    for a in args:
        if not hasattr(type(a), "__cuda_args__"):
            yield a
            continue
        st = getattr(type(a), "struct", None)
        if st is not None and hasattr(a, "pack"):  # CudaStructArguments: its field attributes
            yield from (getattr(a, p.name, None) for p in st.fields)
        elif hasattr(a, "_values"):  # CudaArguments and CudaStructValue
            v = a._values
            yield from (v.values() if isinstance(v, dict) else v)
        else:
            yield from a.__cuda_args__()


def _array_shape(a):
    """True for arrays with at least one axis (scalars and 0-d arrays are skipped)."""
    shape = getattr(a, "shape", None)
    return (
        shape is not None
        and not isinstance(a, numpy.generic)
        and len(shape) > 0
        and (hasattr(type(a), "__cuda_array_interface__") or hasattr(a, "device"))
    )


def _cunumpy_include_dir():
    """Where `#include <cunumpy/...>` finds gpupy's kernel headers."""
    return os.path.join(_core._emu_include_dir(), "gpupy")


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def _file_kw(path, kw):
    kw = dict(kw)
    kw.pop("suffix", None)
    d = os.path.dirname(os.path.abspath(path))
    kw["include_dirs"] = (d, *kw.get("include_dirs", ()))
    kw.setdefault("source_dir", d)
    return kw
