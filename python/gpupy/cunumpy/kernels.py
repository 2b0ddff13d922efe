"""MetalKernel: a Metal kernel body run through MLX on Apple silicon. Inputs are copied to MLX
and results back into NumPy `out` arrays on every call; not part of Kernel dispatch. Elsewhere
construction raises ImportError (no MLX) or RuntimeError (no Metal GPU).

fuse: element-wise functions fused by cupy.fuse on CuPy arrays, plain calls otherwise."""

import sys

import numpy

from gpupy.cunumpy._fuse import fuse

__all__ = ["MetalKernel", "fuse", "metal_available"]


def _mlx_core():
    try:
        import mlx.core as mx
    except ImportError:
        return None
    return mx


def metal_available():
    """True when MLX is installed and reports a Metal GPU."""
    mx = _mlx_core()
    if mx is None:
        return False
    try:
        return bool(mx.metal.is_available())
    except Exception:  # noqa: BLE001 - any failure to query means no usable Metal
        return False


def _threadgroup(value):
    dims = (value,) if isinstance(value, (int, numpy.integer)) else tuple(value)
    if not 1 <= len(dims) <= 3 or any(not isinstance(d, (int, numpy.integer)) for d in dims):
        raise ValueError(f"threadgroup takes 1 to 3 positive ints, got {value!r}")
    if any(d <= 0 for d in dims):
        raise ValueError(f"threadgroup sizes must be positive, got {value!r}")
    return tuple(int(d) for d in dims) + (1,) * (3 - len(dims))


class MetalKernel:
    """A Metal kernel body (MLX generates the signature; each name is a flat row-major pointer)."""

    def __init__(
        self,
        source,
        inputs,
        outputs,
        *,
        name="cunumpy_kernel",
        header="",
        threadgroup=256,
        float64="error",
        atomic_outputs=False,
        init_value=None,
    ):
        if float64 not in ("error", "cast"):
            raise ValueError(f"float64 must be 'error' or 'cast', got {float64!r}")
        inputs, outputs = tuple(inputs), tuple(outputs)
        if not outputs:
            raise ValueError("a MetalKernel needs at least one output")
        names = inputs + outputs
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise ValueError(f"duplicate input/output names {dup}")
        self._threadgroup = _threadgroup(threadgroup)
        self.source, self.inputs, self.outputs, self.name = source, inputs, outputs, name
        self.header, self.float64 = header, float64
        self.atomic_outputs, self.init_value = atomic_outputs, init_value
        if sys.platform != "darwin":
            raise RuntimeError(
                "MetalKernel needs Apple's Metal (macOS on Apple silicon, with MLX); "
                f"this machine ({sys.platform}) has none: use CudaKernel or a host kernel"
            )
        mx = _mlx_core()
        if mx is None:
            raise ImportError("MetalKernel needs MLX (pip install mlx) on Apple silicon")
        if not metal_available():
            raise RuntimeError("MetalKernel needs a Metal GPU (Apple silicon); none is available")
        self._kernel = mx.fast.metal_kernel(
            name=name,
            input_names=list(inputs),
            output_names=list(outputs),
            source=source,
            header=header,
            atomic_outputs=atomic_outputs,
        )

    threadgroup = property(lambda self: self._threadgroup)

    def __repr__(self):
        return f"<MetalKernel {self.name} inputs={self.inputs} outputs={self.outputs}>"

    def _input(self, i, v):
        if isinstance(v, bool) or not isinstance(v, (int, float, numpy.ndarray, numpy.generic)):
            raise TypeError(f"input {i} ({self.inputs[i]}) must be a NumPy array or a number")
        if isinstance(v, int):
            return numpy.array([v], numpy.int32)
        if isinstance(v, float):
            return numpy.array([v], numpy.float32)
        return self._narrow(numpy.asarray(v), f"input {i} ({self.inputs[i]})")

    def _narrow(self, a, what):
        if a.dtype.kind == "c" or a.dtype == numpy.float64:
            if self.float64 != "cast" or a.dtype.kind == "c":
                raise TypeError(
                    f"{what} has dtype {a.dtype}, which Metal does not support; "
                    "pass float64='cast' to compute in float32"
                )
            return a.astype(numpy.float32)
        return a

    def __call__(self, *inputs, out, n_threads=None, template=None):
        if len(inputs) != len(self.inputs):
            raise TypeError(f"{self.name} takes {len(self.inputs)} inputs, got {len(inputs)}")
        outs = out if isinstance(out, (tuple, list)) else (out,)
        if len(outs) != len(self.outputs) or not all(isinstance(o, numpy.ndarray) for o in outs):
            raise TypeError(f"out must be {len(self.outputs)} NumPy array(s)")
        host_in = [self._input(i, v) for i, v in enumerate(inputs)]
        for o, n in zip(outs, self.outputs, strict=True):
            self._narrow(o, f"output {n}")
        n = outs[0].shape[0] if n_threads is None and outs[0].ndim else (n_threads or 1)
        mx = _mlx_core()
        results = self._kernel(
            inputs=[mx.array(a) for a in host_in],
            template=list(template or ()),
            grid=(int(n), 1, 1),
            threadgroup=self._threadgroup,
            output_shapes=[o.shape for o in outs],
            output_dtypes=[getattr(mx, str(self._narrow(o, "").dtype)) for o in outs],
            init_value=self.init_value,
        )
        for o, r in zip(outs, results, strict=True):
            o[...] = numpy.asarray(r).astype(o.dtype, copy=False)
        return outs[0] if len(outs) == 1 else tuple(outs)
