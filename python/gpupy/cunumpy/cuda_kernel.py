"""CudaKernel: a CUDA C kernel whose signature is parsed once and whose every launch is checked
and packed by gpupy's C++ kernel runtime; runs on the emu device (host compiler) and on cuda
(NVRTC, with the CUBIN loaded through the CUDA driver API)."""

# The public names are defined in the _cuda_* modules (split by responsibility) and re-exported
# here, where they have always been importable from.
import os
import warnings

import numpy

from gpupy import _core
from gpupy.cunumpy import _cuda_debug
from gpupy.cunumpy._cuda_debug import (  # noqa: F401 - re-exported
    _EMU_KERNEL_ATTRIBUTES,
    _HOST_DROPPED_OPTIONS,
    DEBUG_OPTIONS,
    EMU_LAUNCH_LIMITS,
    _block,
    _check_limits,
    _dims,
    cuda_debug,
    device_launch_limits,
    get_cuda_debug,
    set_cuda_debug,
)
from gpupy.cunumpy._cuda_launch_args import (
    _all_finite,
    _array_shape,
    _flatten,
    _inference_values,
    _labelled_values,
)
from gpupy.cunumpy._cuda_launch_stream import _capturing, _stream, _synchronize
from gpupy.cunumpy._cuda_signature import (  # noqa: F401 - re-exported
    CudaParameter,
    _parameters,
    _RawSignature,
    _render_template_arg,
    _signature,
    ctype_of,
    cuda_kernel_names,
    parse_cuda_signature,
)
from gpupy.cunumpy._cuda_variants import (  # noqa: F401 - re-exported
    CudaKernelVariants,
    compile_cuda_kernel,
    compile_kernels,
)
from gpupy.cunumpy._includes import include_hash, resolve_includes


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
        self._warned_capture = False  # check_finite skipped in a CUDA graph capture: said once

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
        return _cuda_debug._debug if self._debug is None else self._debug

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
            if _capturing(device, stream):
                # The launch went into a CUDA graph: nothing ran, and a sync would end the capture.
                self._warn_finite_skipped()
                return
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

    def _warn_finite_skipped(self):
        """Warns, once per kernel, that check_finite does not check launches into a CUDA graph."""
        if not self._check_finite or self._warned_capture:
            return
        self._warned_capture = True
        warnings.warn(
            f"kernel '{self._name}': check_finite is skipped while the launch stream captures a "
            "CUDA graph (the scan reads the arrays on the host, which a capture forbids, and the "
            "kernel has not run yet); check the arrays after launching the graph",
            UserWarning,
            stacklevel=4,
        )

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


def _cunumpy_include_dir():
    """Where `#include <cunumpy/...>` finds gpupy's kernel headers."""
    return os.path.join(_core._emu_include_dir(), "gpupy")


def cuda_include_dir():
    """The directory of the shipped kernel headers (cunumpy/atomic.cuh, ...), which every
    CudaKernel passes to the compiler as -I<dir>."""
    return _cunumpy_include_dir()


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
