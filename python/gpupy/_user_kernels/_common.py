"""What the three user-kernel classes share: argument classification and device checks, the
C prelude of generated kernels, dimension collapsing, and the cache of compiled CudaKernels."""

import os

import numpy

import gpupy
from gpupy import _core
from gpupy._user_kernels._params import decide_types
from gpupy.lib.stride_tricks import as_strided

ndarray = _core.ndarray
DEFAULT_BLOCK = 128  # CudaKernel's default block size, which its quickest launch path takes


def is_array(a):
    return isinstance(a, ndarray)


def common_device(arrays, owner):
    """The device string all gpupy arrays among `arrays` live on (the default device when there
    are none); ValueError for several devices, NotImplementedError for cpu."""
    devices = {str(a.device) for a in arrays}
    if len(devices) > 1:
        raise ValueError(f"[{owner}] arrays on different devices: {sorted(devices)}")
    device = devices.pop() if devices else str(_core.default_device())
    if device == "cpu":
        raise NotImplementedError(
            f"[{owner}] user kernels run on the cuda and emu devices, not on cpu; create the "
            "arrays with device='emu' (or 'cuda'), or move them with .to_device('emu')"
        )
    return device


def check_outputs(out_params, out_args, owner):
    """TypeError for an output argument that is not a gpupy array, ValueError for a read-only
    one (a broadcast view, say)."""
    for p, a in zip(out_params, out_args, strict=False):
        if not is_array(a):
            raise TypeError(
                f"[{owner}] output {p.name!r} must be a gpupy array, got {type(a).__name__}"
            )
        if not a.flags.writeable:
            raise ValueError(f"[{owner}] output {p.name!r} is read-only")


def argument_types(in_params, out_params, in_args, out_args, owner):
    """decide_types on the arguments themselves: arrays bind their dtypes, scalars none."""
    return decide_types(
        in_params,
        out_params,
        [a.dtype if is_array(a) else None for a in in_args],
        [a.dtype for a in out_args] if out_args else [None] * len(out_params),
        owner,
    )


def broadcast_shape(arrays, owner):
    """The shape the arrays broadcast to; ValueError naming their shapes otherwise."""
    try:
        return tuple(gpupy.broadcast_shapes(*[tuple(a.shape) for a in arrays]))
    except ValueError:
        shapes = ", ".join(str(tuple(a.shape)) for a in arrays)
        raise ValueError(f"[{owner}] arguments of shapes {shapes} do not broadcast") from None


def check_foreign(args, owner):
    """TypeError for arrays that are not gpupy arrays (NumPy arrays are never copied)."""
    for k, a in enumerate(args):
        if isinstance(a, numpy.ndarray) or (
            not is_array(a) and hasattr(type(a), "__cuda_array_interface__")
        ):
            raise TypeError(
                f"[{owner}] argument {k} must be a gpupy array or a scalar, got "
                f"{type(a).__module__}.{type(a).__name__}; arrays are never copied to the device"
            )


def ctype(dtype):
    """The C type of a dtype in generated kernels."""
    return _core._ctype_of(numpy.dtype(dtype))


def prelude(dtypes):
    """Headers and helpers a generated kernel needs for these dtypes: complex<T> (std::complex on
    emu, cuda::std::complex under NVRTC), __half, and the raw-array accessor."""
    kinds = {numpy.dtype(d) for d in dtypes}
    text = []
    if any(d.kind == "c" for d in kinds):
        text.append(_COMPLEX)
    if numpy.dtype(numpy.float16) in kinds:
        text.append("#include <cuda_fp16.h>\n")
    text.append(_HELPERS)
    return "".join(text)


_COMPLEX = """#ifdef GPUPY_EMU
#include <complex>
template <class T> using complex = std::complex<T>;
#else
#include <cuda/std/complex>
template <class T> using complex = cuda::std::complex<T>;
#endif
"""

# A raw parameter: x[i] takes a flat C-order index (strides honoured), x(i, j) a multi-index.
_HELPERS = """template <class T, int N, bool C>
struct _GpupyRaw {
  gpupy_view::Strided<T, N> v;
  __device__ T& operator[](long long flat) const {
    if (C) return v.data[flat];
    long long off = 0;
    for (int k = N - 1; k >= 0; --k) {
      off += (flat % v.shape[k]) * v.strides[k];
      flat /= v.shape[k];
    }
    return v.data[off];
  }
  template <class... I> __device__ T& operator()(I... idx) const { return v(idx...); }
  __device__ long long size() const { return v.size(); }
  __device__ const long long* shape() const { return v.shape; }
};
struct _GpupyIndex {
  long long size_;
  __device__ long long size() const { return size_; }
};
"""


def typedefs(pairs):
    """`typedef <ctype> <name>;` lines for (name, dtype) pairs."""
    return "".join(f"typedef {ctype(d)} {n};\n" for n, d in pairs)


def collapse(shape, strides_list, start, stop):
    """Merges axes start..stop-1 of `shape` wherever every array in strides_list (byte strides,
    one tuple per array) walks them as one axis, and drops length-1 axes; returns the new shape
    and each array's new strides for that segment."""
    shape_out, strides_out = [], [[] for _ in strides_list]
    for ax in range(start, stop):
        n = shape[ax]
        if n == 1:
            continue
        if shape_out and all(
            s[-1] == st[ax] * n for s, st in zip(strides_out, strides_list, strict=True)
        ):
            shape_out[-1] *= n
            for s, st in zip(strides_out, strides_list, strict=True):
                s[-1] = st[ax]
            continue
        shape_out.append(n)
        for s, st in zip(strides_out, strides_list, strict=True):
            s.append(st[ax])
    return shape_out, strides_out


def view(a, shape, strides):
    """A view of a (no copy) with the given shape and byte strides (a itself when it has them)."""
    shape, strides = tuple(shape), tuple(strides)
    if shape == tuple(a.shape) and strides == tuple(a.strides):
        return a
    return as_strided(a, shape=shape, strides=strides)


def at_least_1d(a):
    """A 1-element view for 0-d arrays (ArrayND needs an axis); other arrays unchanged."""
    return view(a, (1,), (0,)) if a.ndim == 0 else a


def contiguous(a):
    return bool(a.flags.c_contiguous)


def compile_options(options, dtypes):
    """User options plus, for complex dtypes, the CUDA toolkit's libcu++ headers for NVRTC."""
    opts = tuple(options)
    if any(numpy.dtype(d).kind == "c" for d in dtypes):
        cccl = _cccl_include_dir()
        if cccl:
            opts += (f"-I{cccl}",)
    return opts


_CCCL = []


def _cccl_include_dir():
    """The toolkit directory holding cuda/std/complex (include/cccl since CUDA 13), or ''."""
    if not _CCCL:
        found = ""
        for root in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
            for sub in ("include/cccl", "include"):
                if root and os.path.exists(os.path.join(root, sub, "cuda", "std", "complex")):
                    found = found or os.path.join(root, sub)
        _CCCL.append(found)
    return _CCCL[0]


class KernelCache:
    """CudaKernels by generated source: each distinct source (one per dtype and dimension
    combination) is parsed once and compiled once per device by CudaKernel's cache."""

    def __init__(self, name, options):
        self._name, self._options = name, tuple(options)
        self.codes = {}  # source -> CudaKernel

    def get(self, source, dtypes):
        kernel = self.codes.get(source)
        if kernel is None:
            from gpupy.cunumpy.cuda_kernel import CudaKernel

            opts = compile_options(self._options, dtypes)
            kernel = self.codes[source] = CudaKernel(
                source, self._name, options=opts, block_size=DEFAULT_BLOCK
            )
        return kernel


def launch(kernel, owner, args, grid=None, block=None, shared_mem=0, stream=None, n_threads=None):
    """Launches a CudaKernel; its errors (bad arguments, compiler failures with the compiler's
    log, launch limits) are re-raised naming the class, CudaError keeps its type."""
    try:
        if n_threads is not None:
            kernel(*args, n_threads=n_threads)
        else:
            kernel(*args, grid=grid, block=block, shared_mem=shared_mem, stream=stream)
    except (TypeError, ValueError, OverflowError, RuntimeError) as exc:
        if type(exc) not in (TypeError, ValueError, OverflowError, RuntimeError):
            raise  # CudaError, AxisError: their own types matter more than the prefix
        if str(exc).startswith(f"[{owner}]"):
            raise
        raise type(exc)(f"[{owner}] '{kernel.name}': {exc}") from exc
