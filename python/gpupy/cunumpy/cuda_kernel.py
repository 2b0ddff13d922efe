"""CudaKernel: a CUDA C kernel whose signature is parsed once and whose every launch is checked
and packed by gpupy's C++ kernel runtime; runs on the emu device (host compiler) and on cuda
(NVRTC, with the CUBIN loaded through the CUDA driver API)."""

import concurrent.futures
import contextlib
import math
import os

import numpy

from gpupy import _core
from gpupy.cunumpy._includes import include_hash, resolve_includes

_MAX_THREADS = 1024

# Debug mode: line info for profilers and debuggers, and bounds checks in array views.
DEBUG_OPTIONS = ("-lineinfo", "-DCUNUMPY_BOUNDS_CHECK")
_HOST_DROPPED_OPTIONS = ("-lineinfo",)  # NVRTC options the host compiler (emu) has no use for
_debug = os.environ.get("CUNUMPY_CUDA_DEBUG", "").strip().lower() in ("1", "true", "yes", "on")


def set_cuda_debug(enabled):
    """Turns debug mode on or off for every CudaKernel created with debug=None."""
    global _debug
    _debug = bool(enabled)


def get_cuda_debug():
    """The global debug flag (initially from CUNUMPY_CUDA_DEBUG in 1, true, yes, on)."""
    return _debug


@contextlib.contextmanager
def cuda_debug(enabled=True):
    """Debug mode on (or off) inside the with block; the previous setting afterwards."""
    previous = _debug
    set_cuda_debug(enabled)
    try:
        yield
    finally:
        set_cuda_debug(previous)


# The launch limits of the emu device: an NVIDIA H200's, so that a launch that would fail on the
# GPU fails the same way on emu.
EMU_LAUNCH_LIMITS = {
    "name": "gpupy emu (NVIDIA H200 limits)",
    "max_threads_dim": (1024, 1024, 64),
    "max_grid_size": (2**31 - 1, 65535, 65535),
    "max_threads_per_block": 1024,
    "shared_mem_per_block": 48 * 1024,
    "shared_mem_per_block_optin": 227 * 1024,
}
_EMU_KERNEL_ATTRIBUTES = (1024, 0)  # (max threads per block, static shared bytes)
_device_limits = {}  # device string -> launch limits, queried once per device


def device_launch_limits(device):
    """The limits a launch on device ("emu", "cuda:0") is validated against, as a dict."""
    device = str(device)
    limits = _device_limits.get(device)
    if limits is None:
        if device == "emu":
            limits = dict(EMU_LAUNCH_LIMITS)
        elif device.startswith("cuda"):
            limits = _core._cuda_launch_limits(int(device.partition(":")[2] or 0))
        else:
            raise ValueError(f"[CudaKernel] device {device} runs no CUDA kernels")
        _device_limits[device] = limits
    return limits


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
        debug=None,
        n_threads_from="auto",
        check_finite=False,
    ):
        self._source = source
        self._name = name
        self._block = _block(block_size)
        self._user_options = tuple(options)
        self._include_dirs = tuple(str(d) for d in include_dirs)
        self._source_dir = source_dir
        self._template_args = None if template_args is None else tuple(template_args)
        self._structs = tuple(structs)
        if check_signature:
            rendered = (
                None if template_args is None else [_render_template_arg(a) for a in template_args]
            )
            self._sig = _signature(source, name, self._structs, rendered)
            self._params = _parameters(self._sig, self._structs)
        else:
            if template_args is not None:
                raise ValueError("template_args need the signature: pass check_signature=True")
            self._sig = _RawSignature(source, name)
            self._params = ()
        # Only then does C++ check that the arrays are on the module's device (the fast path).
        self._params_have_arrays = any(p.pointer or p.view_ndim for p in self._params)
        if debug not in (None, True, False):
            raise TypeError(f"debug must be None, True or False, got {debug!r}")
        self._debug = debug
        self._modules = {}  # device string -> compiled module
        self._limits = {}  # device string -> [device limits, kernel attributes, dynamic allowance]
        # (module, grid, block, shared_mem) of the last plain launch that validated: the next
        # launch of that shape goes straight to C++, which checks the arrays' device.
        self._fast = None
        self.n_threads_from = n_threads_from
        self.check_finite = check_finite

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
    signature = property(
        lambda self: self._params if isinstance(self._sig, _core._KernelSignature) else None
    )
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
    def included_headers(self):
        """The headers the source includes (recursively, each once, depth first), resolved now:
        quotes relative to the including file or source_dir, then include_dirs, then the cunumpy
        header dir; `<cunumpy/...>` in the shipped header dir."""
        return resolve_includes(
            self._source,
            (*self._include_dirs, _cunumpy_include_dir()),
            base_dir=self._source_dir,
            angle_dirs=(_cunumpy_include_dir(),),
        )

    @property
    def is_compiled(self):
        return str(_core.default_device()) in self._modules

    @property
    def debug(self):
        """None (follow the global debug flag at each launch), True or False."""
        return self._debug

    def debug_active(self):
        """Whether launches now compile with DEBUG_OPTIONS and check for errors after launching."""
        return _debug if self._debug is None else self._debug

    @property
    def check_finite(self):
        """Whether every launch checks its float and complex arrays for NaN and inf afterwards."""
        return self._check_finite

    @check_finite.setter
    def check_finite(self, value):
        self._check_finite = bool(value)

    def compile_options(self):
        """The options a compilation now uses: options, gpupy's header dir, and DEBUG_OPTIONS when
        debug mode is active (frozen at compile time: recompile() after switching it)."""
        opts = list(self.options)
        include = f"-I{_cunumpy_include_dir()}"
        if include not in opts:
            opts.append(include)
        return tuple(opts) + self._debug_options(opts) + self._include_hash_option()

    def _include_hash_option(self):
        """-DCUNUMPY_INCLUDE_HASH=0x<hash of the included headers>, or () without includes: the
        define puts the headers' contents into every compile cache's key."""
        headers = self.included_headers
        return (f"-DCUNUMPY_INCLUDE_HASH=0x{include_hash(headers)}",) if headers else ()

    def _debug_options(self, present):
        if not self.debug_active():
            return ()
        return tuple(o for o in DEBUG_OPTIONS if o not in present)

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

    def recompile(self, device=None):
        """Drops the module of device (default: the current device) and compiles again, with the
        options in effect now; other devices keep theirs."""
        device = str(_core.default_device() if device is None else _core.Device(device))
        self._modules.pop(device, None)
        self._limits.pop(device, None)
        self._fast = None
        return self.compile(device)

    def cubin(self, arch="sm_90"):
        """The kernel compiled with NVRTC to a CUBIN for arch ("sm_XY"), as bytes; needs NVRTC
        but neither a GPU nor a driver."""
        cubin, _ = _core._nvrtc_compile(
            self._prelude() + self._source,
            [self._sig.expression],
            self._nvrtc_options(),
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
        checked = self._check_finite or self.debug_active()
        empty = 0 in g
        plain = stream is None and not checked
        fast = self._fast
        if plain and fast is not None and (g, b, shared_mem) == fast[1:]:
            try:
                self._sig.launch(fast[0], args, g, b, shared_mem)
                return
            except ValueError:
                pass  # arrays on another device (or bad arguments): the full path decides
        stream_device, handle = (None, None) if stream is None else _stream(stream)
        device = self._sig.launch(None, args, g, b, shared_mem)  # every check before compiling
        if empty:
            return
        device = str(device or stream_device or _core.default_device())
        module = self._modules.get(device)
        if module is None:
            module = self._modules[device] = self._compile(device)
        self._validate(device, module, g, b, shared_mem)
        if stream_device is not None and stream_device != device:
            raise ValueError(
                f"[CudaKernel] '{self._name}': the stream belongs to another device "
                f"({stream_device}, the launch is on {device})"
            )
        if not checked:
            self._sig.launch(module, args, g, b, shared_mem, handle)
            if plain and self._params_have_arrays:
                self._fast = (module, g, b, shared_mem)
            return
        try:
            self._sig.launch(module, args, g, b, shared_mem, handle)
            _synchronize(device, stream)
        except RuntimeError as exc:
            raise RuntimeError(
                f"CUDA error after launching kernel '{self._name}' with grid {g} and block {b}: "
                f"{exc}"
            ) from exc
        if self._check_finite:
            self._scan_finite(args)

    def _validate(self, device, module, g, b, shared_mem):
        """ValueError when the launch exceeds the device's or the kernel's limits (nothing is
        launched then); raises the kernel's dynamic shared memory allowance when it must."""
        entry = self._limits.get(device)
        if entry is None:
            limits = device_launch_limits(device)
            if device == "emu":
                attrs = _EMU_KERNEL_ATTRIBUTES
            else:
                attrs = tuple(module.attributes(self._sig.expression))
            allowance = limits["shared_mem_per_block"] - attrs[1]
            entry = self._limits[device] = [limits, attrs, allowance]
        limits, (kernel_threads, static_shared), allowance = entry
        _check_limits(
            self.expression, device, limits, kernel_threads, static_shared, g, b, shared_mem
        )
        if shared_mem > allowance:
            if device == "emu":
                if shared_mem > _core._emu_max_dynamic_shared_bytes():
                    _core._emu_set_max_dynamic_shared_bytes(shared_mem)
            else:
                module.set_max_dynamic_shared_bytes(self._sig.expression, shared_mem)
            entry[2] = shared_mem

    def _scan_finite(self, args):
        """RuntimeError naming the first float or complex array argument holding a NaN or inf."""
        for label, value in _labelled_values(args):
            dtype = getattr(value, "dtype", None)
            if dtype is None or isinstance(value, numpy.generic) or not hasattr(value, "shape"):
                continue  # scalars and non-arrays
            if numpy.dtype(dtype).kind not in "fc":
                continue
            if not _all_finite(value):
                raise RuntimeError(
                    f"kernel '{self._name}' left a NaN or inf in argument {label} "
                    f"(dtype {numpy.dtype(dtype)}, shape {tuple(value.shape)})"
                )

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
            source = self._prelude() + self._source
            options = [o for o in self._nvrtc_options() if o not in _HOST_DROPPED_OPTIONS]
            dirs = self._compile_include_dirs() + [_cunumpy_include_dir()]
            if isinstance(self._sig, _RawSignature):
                return _core._EmuModule.compile(source, [self._name], options, dirs)
            entry = (
                self._sig.entry_name,
                self._sig.expression,
                [p[6] for p in self._sig.parameters],
            )
            return _core._EmuModule.compile_entries(source, [entry], options, dirs)
        if device.startswith("cuda"):
            index = int(device.partition(":")[2] or 0)
            return _core._CudaModule.compile_load(
                index,
                self._prelude() + self._source,
                [self._sig.expression],
                self._nvrtc_options(),
                self._compile_include_dirs(),
            )
        raise RuntimeError(
            f"cannot compile CUDA kernel '{self._name}': device {device} runs no CUDA kernels "
            "(use cuda or emu)"
        )

    def _compile_include_dirs(self):
        """include_dirs, after source_dir when that is set (quoted includes of the source resolve
        there first, as included_headers resolves them)."""
        dirs = list(self._include_dirs)
        if self._source_dir is not None and str(self._source_dir) not in dirs:
            dirs.insert(0, str(self._source_dir))
        return dirs

    def _nvrtc_options(self):
        return [
            *self._user_options,
            *self._debug_options(self._user_options),
            *self._include_hash_option(),
        ]

    def _prelude(self):
        """The array-view header, so that ArrayND/CArrayND views work without an #include."""
        return "#include <cunumpy/array_view.cuh>\n#line 1\n"


_INFER_MODES = ("auto", "first_array", "last_axis", None)


_HAS_CUDA_ARGS = {}  # type -> whether it defines __cuda_args__ (hasattr misses are slow)


def _is_argument_object(a):
    t = type(a)
    known = _HAS_CUDA_ARGS.get(t)
    if known is None:
        known = _HAS_CUDA_ARGS[t] = hasattr(t, "__cuda_args__")
    return known


def _flatten(args):
    """Top-level arguments with __cuda_args__ replaced by what it returns."""
    if not any(map(_is_argument_object, args)):
        return tuple(args)
    out = []
    for a in args:
        out.extend(a.__cuda_args__() if _is_argument_object(a) else (a,))
    return tuple(out)


def _labelled_values(args):
    """(label, value) for the arguments in order, argument objects replaced by the values they
    hold: "0" for argument 0, "1.x" for field x of a struct, "2[0]" for a CudaArguments value."""
    for i, a in enumerate(args):
        if not hasattr(type(a), "__cuda_args__"):
            yield str(i), a
            continue
        st = getattr(type(a), "struct", None)
        values = getattr(a, "_values", None)
        if st is not None and hasattr(a, "pack"):  # CudaStructArguments: its field attributes
            yield from ((f"{i}.{p.name}", getattr(a, p.name, None)) for p in st.fields)
        elif isinstance(values, dict):  # CudaStructValue: the field values it was made of
            yield from ((f"{i}.{k}", v) for k, v in values.items())
        else:  # CudaArguments, or any object with __cuda_args__
            values = a.__cuda_args__() if values is None else values
            yield from ((f"{i}[{j}]", v) for j, v in enumerate(values))


def _inference_values(args):
    """Arguments in order, argument objects replaced by the values they hold (struct fields,
    CudaArguments values), so that launch-size inference finds arrays inside them."""
    return (v for _, v in _labelled_values(args))


def _check_limits(expression, device, limits, kernel_threads, static_shared, g, b, shared_mem):
    context = f"CudaKernel {expression} on {device} ({limits['name']})"
    for axis, (n, most) in enumerate(zip(b, limits["max_threads_dim"], strict=False)):
        if n > most:
            raise ValueError(f"{context}: block[{axis}]={n} exceeds the {most} limit")
    for axis, (n, most) in enumerate(zip(g, limits["max_grid_size"], strict=False)):
        if n > most:
            raise ValueError(f"{context}: grid[{axis}]={n} exceeds the {most} limit")
    threads = math.prod(b)
    most = min(limits["max_threads_per_block"], kernel_threads)
    if threads > most:
        raise ValueError(
            f"{context}: block {b} has {threads} threads, exceeding the {most} device/kernel limit"
        )
    most = max(limits["shared_mem_per_block"], limits["shared_mem_per_block_optin"])
    if static_shared + shared_mem > most:
        raise ValueError(
            f"{context}: static shared memory {static_shared} + shared_mem={shared_mem} exceeds "
            f"the {most}-byte limit per block"
        )


def _stream(stream):
    """(device string, handle) of a gpupy stream; TypeError for anything else."""
    if not isinstance(stream, _STREAM_TYPES):
        raise TypeError(
            f"[CudaKernel] stream must be a gpupy.cuda.Stream or None, got {type(stream).__name__}"
        )
    return str(stream.device), stream.handle


_STREAM_TYPES = (_core.Stream,)


def _synchronize(device, stream):
    """Waits for the launch (emu launches are synchronous already)."""
    if device == "emu":
        return
    if stream is None:
        stream = _core.current_stream(int(device.partition(":")[2] or 0))
    stream.synchronize()


def _all_finite(a):
    """True when the device array a holds no NaN or inf."""
    import gpupy

    if isinstance(a, gpupy.ndarray):
        return bool(gpupy.isfinite(a).all())
    from gpupy.cunumpy._backend import to_numpy

    return bool(numpy.isfinite(to_numpy(a)).all())


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


def cuda_include_dir():
    """The directory of the shipped kernel headers (cunumpy/atomic.cuh, ...), which every
    CudaKernel passes to the compiler as -I<dir>."""
    return _cunumpy_include_dir()


def ctype_of(dtype):
    """The C type a kernel parameter of dtype is declared with ("double" for float64);
    ValueError for dtypes without one."""
    try:
        dt = numpy.dtype(dtype)
        return _core._ctype_of(dt)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"[ctype_of] no C type for dtype {dtype!r}") from exc


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


class CudaKernelVariants:
    """CudaKernels made on demand by factory(*key) (one per key, e.g. per dtype or template
    argument), each created once and kept; compile_all compiles them ahead of the first launch."""

    def __init__(self, factory):
        if not callable(factory):
            raise TypeError(f"the factory must be callable, got {type(factory).__name__}")
        self._factory = factory
        self._variants = {}

    def get(self, *key):
        """The kernel for key, made by the factory on first use."""
        kernel = self._variants.get(key)
        if kernel is None:
            kernel = self._factory(*key)
            if not isinstance(kernel, CudaKernel):
                raise TypeError(
                    f"the factory must return a CudaKernel, got {type(kernel).__name__} "
                    f"for key {key!r}"
                )
            self._variants[key] = kernel
        return kernel

    def keys(self):
        """The keys made so far, in creation order."""
        return list(self._variants)

    def __iter__(self):
        return iter(list(self._variants))

    def __len__(self):
        return len(self._variants)

    def __contains__(self, key):
        return (key if isinstance(key, tuple) else (key,)) in self._variants

    def __repr__(self):
        return f"<CudaKernelVariants: {len(self)} kernels>"

    def compile_all(self, keys=(), *, jobs=1):
        """Makes the variants of keys (a key is a tuple, or one value for one-element keys), then
        compiles every variant for the default device, jobs at a time; returns their keys."""
        for key in keys:
            self.get(*(key if isinstance(key, tuple) else (key,)))
        return compile_kernels(list(self._variants.items()), jobs=jobs)


def compile_cuda_kernel(kernel, device=None):
    """Compiles a CudaKernel for device (default: the default device) without launching it."""
    device = str(device or _core.default_device())
    if device == "cpu":
        raise RuntimeError(
            f"cannot compile CUDA kernel '{kernel.name}': the default device is cpu "
            "(use cuda or emu)"
        )
    kernel.compile(device)


def compile_kernels(named_kernels, *, jobs=1):
    """Compiles [(name, CudaKernel)] for the default device and returns the names. jobs=1 (or
    one kernel): one after the other, stopping at the first error; jobs>1: a pool of jobs
    threads compiles them all, then the first error in list order is raised; None: CPU count."""
    if jobs is None:
        jobs = os.cpu_count() or 1
    if not isinstance(jobs, (int, numpy.integer)) or jobs < 1:
        raise ValueError("jobs must be positive or None")
    device = str(_core.default_device())  # the default device is per thread: read it here
    names = [name for name, _ in named_kernels]
    if jobs == 1 or len(named_kernels) <= 1:
        for _, kernel in named_kernels:
            compile_cuda_kernel(kernel, device)
        return names

    def compile_one(kernel):
        try:
            compile_cuda_kernel(kernel, device)
        except Exception as exc:  # noqa: BLE001 - re-raised below, in list order
            return exc
        return None

    with concurrent.futures.ThreadPoolExecutor(min(jobs, len(named_kernels))) as pool:
        errors = list(pool.map(compile_one, [k for _, k in named_kernels]))
    first = next((e for e in errors if e is not None), None)
    if first is not None:
        raise first
    return names
