"""gpupy.ElementwiseKernel: CuPy's user-defined elementwise kernel, generated as CUDA C and run by
CudaKernel on cuda (NVRTC) and emu (host compiler); strided and broadcast arrays are indexed in
place, so outputs the caller passes are written directly."""

import numpy

import gpupy
from gpupy._user_kernels import _common as c
from gpupy._user_kernels._params import cast_scalar, check_names, parse_params

_OWNER = "ElementwiseKernel"
_MAX_PLANS = 256  # remembered call layouts per kernel (shapes, strides, dtypes)
_MAX_GRID = 1 << 16  # blocks per launch; the loop strides over the rest


class ElementwiseKernel:
    """A kernel applying `operation` to every element of the broadcast arguments; see
    cupy.ElementwiseKernel. `in_params`/`out_params` are 'type name' lists where the type is a
    NumPy dtype name or a one-letter placeholder bound from the arrays' dtypes; `raw` parameters
    are whole arrays indexed as x[i] (flat C order) or x(i, j)."""

    def __init__(
        self,
        in_params,
        out_params,
        operation,
        name="kernel",
        reduce_dims=True,
        preamble="",
        no_return=False,
        return_tuple=False,
        loop_prep="",
        after_loop="",
        options=(),
    ):
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"[{_OWNER}] invalid kernel name {name!r}")
        if not isinstance(operation, str):
            raise TypeError(f"[{_OWNER}] operation must be a string of CUDA C")
        self.in_params = parse_params(in_params, True, _OWNER)
        self.out_params = parse_params(out_params, False, _OWNER)
        self.params = self.in_params + self.out_params
        check_names(self.params, _OWNER)
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.nargs = self.nin + self.nout
        self.operation, self.name, self.preamble = operation, name, preamble
        self.reduce_dims, self.no_return, self.return_tuple = reduce_dims, no_return, return_tuple
        self.loop_prep, self.after_loop = loop_prep, after_loop
        self.options = tuple(options)
        self.__name__ = name
        self._kernels = c.KernelCache(name, self.options)
        self._by_kind = {}  # argument kinds -> CudaKernel, so a repeated call skips generating
        self._plans = {}  # _call_key -> what the launch of such a call needs (see _replay)

    @property
    def cached_codes(self):
        """The generated sources compiled so far, {source: CudaKernel}."""
        return dict(self._kernels.codes)

    def __repr__(self):
        return f"<gpupy.ElementwiseKernel {self.name}>"

    def __call__(self, *args, size=None, block_size=c.DEFAULT_BLOCK, stream=None):
        """Runs the kernel; args are the inputs, optionally followed by every output. Returns
        the outputs (one array, or a tuple), or None with no_return."""
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(
                f"[{_OWNER}] '{self.name}' takes {self.nin} arguments, or {self.nargs} with "
                f"the outputs, got {len(args)}"
            )
        quick = size is None and stream is None and block_size == c.DEFAULT_BLOCK
        key = _call_key(args, self.nin) if quick else None
        plan = self._plans.get(key)
        if plan is not None:
            return self._replay(plan, args)
        if not _is_int(block_size) or not 0 < block_size <= 1024:
            raise ValueError(f"[{_OWNER}] block_size must be in 1..1024, got {block_size!r}")
        c.check_foreign(args, _OWNER)
        device = c.common_device([a for a in args if c.is_array(a)], _OWNER)
        in_args, out_args = list(args[: self.nin]), list(args[self.nin :])
        c.check_outputs(self.out_params, out_args, _OWNER)
        in_types, out_types, bound = c.argument_types(
            self.in_params, self.out_params, in_args, out_args, _OWNER
        )
        shape = self._loop_shape(args, size)
        out_args = self._outputs(out_args, out_types, shape, size, device)
        result = self._result(out_args)
        n = 1
        for d in shape:
            n *= d
        if n == 0:
            return result
        values = [
            a if c.is_array(a) else cast_scalar(a, t, p, _OWNER)
            for p, a, t in zip(self.in_params, in_args, in_types, strict=True)
        ]
        kernel, views = self._launch(values + out_args, shape, n, bound, block_size, stream)
        if key is not None:  # the next call with arguments of these kinds replays this one
            specs = [
                None if v is a else (v.shape, v.strides)
                for v, a in zip(views, values + out_args, strict=True)
            ]
            scalars = [None if c.is_array(a) else t for a, t in zip(in_args, in_types, strict=True)]
            allocated = None if len(args) == self.nargs else out_types
            if len(self._plans) >= _MAX_PLANS:  # a program of ever new shapes: drop the oldest
                del self._plans[next(iter(self._plans))]
            self._plans[key] = (kernel, n, specs, scalars, shape, allocated, device)
        return result

    def _outputs(self, out_args, out_types, shape, size, device):
        """The outputs passed (their shapes checked), or new arrays of the loop's shape."""
        if out_args:
            for p, a in zip(self.out_params, out_args, strict=True):
                if not p.raw and tuple(a.shape) != shape:
                    raise ValueError(
                        f"[{_OWNER}] output {p.name!r} has shape {tuple(a.shape)}, the "
                        f"arguments broadcast to {shape}"
                    )
            return out_args
        for p in self.out_params:
            if p.raw and size is None:
                raise ValueError(
                    f"[{_OWNER}] the size of raw output {p.name!r} is undecided: pass it"
                )
        return [gpupy.empty(shape, dtype=t, device=device) for t in out_types]

    def _replay(self, plan, args):
        """A call whose arguments have the kinds, shapes, strides and devices of an earlier one:
        its checks passed then and hold now, so only scalars are cast and outputs allocated."""
        kernel, n, specs, scalars, shape, out_types, device = plan
        values = [
            a if t is None else cast_scalar(a, t, p, _OWNER)
            for p, a, t in zip(self.in_params, args, scalars, strict=False)
        ]
        if out_types is None:
            out_args = list(args[self.nin :])
        else:
            out_args = [gpupy.empty(shape, dtype=t, device=device) for t in out_types]
        values += out_args
        views = [v if s is None else c.view(v, *s) for v, s in zip(values, specs, strict=True)]
        c.launch(kernel, _OWNER, [*views, n], n_threads=n)
        return self._result(out_args)

    def _loop_shape(self, args, size):
        """The broadcast shape of the non-raw arrays, or (size,) when all arrays are raw."""
        broadcast = [
            a for p, a in zip(self.params, args, strict=False) if not p.raw and c.is_array(a)
        ]
        if size is not None:
            if broadcast:
                raise ValueError(
                    f"[{_OWNER}] size= can only be given when every array parameter is raw"
                )
            if not _is_int(size) or size < 0:
                raise ValueError(f"[{_OWNER}] size must be a non-negative int, got {size!r}")
            return (int(size),)
        if not broadcast:
            raise ValueError(
                f"[{_OWNER}] the loop size is undecided: no non-raw array argument; pass size="
            )
        return c.broadcast_shape(broadcast, _OWNER)

    def _result(self, out_args):
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return out_args[0]
        return tuple(out_args)

    def _launch(self, values, shape, n, bound, block_size, stream):
        views, loop_ndim = _views(self.params, values, shape, self.reduce_dims)
        key = (loop_ndim, tuple(bound.items()), *map(_kind, self.params, views))
        kernel = self._by_kind.get(key)
        if kernel is None:
            kernel = self._by_kind[key] = self._kernels.get(*self._source(views, loop_ndim, bound))
        block_size = int(block_size)
        if block_size == c.DEFAULT_BLOCK and stream is None:
            c.launch(kernel, _OWNER, [*views, n], n_threads=n)  # CudaKernel's quick path
        else:
            grid = min(-(-n // block_size), _MAX_GRID)
            c.launch(kernel, _OWNER, [*views, n], (grid,), (block_size,), stream=stream)
        return kernel, views

    def _source(self, views, loop_ndim, bound):
        """The CUDA C of this kernel for these argument kinds, dtypes and dimensions."""
        params, body, dtypes = [], [], list(bound.values())
        first = None
        for p, v in zip(self.params, views, strict=True):
            const = "const " if p.is_const else ""
            if not c.is_array(v):
                params.append(f"{c.ctype(v.dtype)} {p.name}")
                dtypes.append(v.dtype)
                continue
            dtypes.append(v.dtype)
            ct = c.ctype(v.dtype)
            params.append(f"Array{v.ndim}D<{const}{ct}> _raw_{p.name}")
            if p.raw:
                flag = "true" if c.contiguous(v) else "false"
                body.append(
                    f"const _GpupyRaw<{const}{ct}, {v.ndim}, {flag}> {p.name}{{_raw_{p.name}}};"
                )
            elif first is None:
                first = p.name
        per_element = []
        if first is not None:
            per_element.append(_unravel(first, loop_ndim))
            for p, v in zip(self.params, views, strict=True):
                if c.is_array(v) and not p.raw:
                    const = "const " if p.is_const else ""
                    off = " + ".join(
                        f"_k{d} * _raw_{p.name}.strides[{d}]" for d in range(loop_ndim)
                    )
                    per_element.append(
                        f"{const}{c.ctype(v.dtype)} &{p.name} = _raw_{p.name}.data[{off}];"
                    )
        source = (
            c.prelude(dtypes)
            + c.typedefs(sorted(bound.items()))
            + self.preamble
            + f"\n__global__ void {self.name}({', '.join(params)}, long long _n) {{\n"
            + "\n".join(body)
            + "\n_GpupyIndex _ind{_n};\n"
            + f"{self.loop_prep};\n"
            + "for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < _n;"
            + " i += (long long)blockDim.x * gridDim.x) {\n"
            + "\n".join(per_element)
            + f"\n{self.operation};\n}}\n{self.after_loop};\n}}\n"
        )
        return source, dtypes


def _call_key(args, nin):
    """What a call's checks depend on, per argument: an array's dtype, shape, strides, device
    (and, for outputs, writeability); a scalar's type. None when an argument is neither."""
    key = []
    for k, a in enumerate(args):
        t = type(a)
        if t is c.ndarray:
            w = k >= nin and a.flags.writeable
            key.append((a.dtype, tuple(a.shape), tuple(a.strides), str(a.device), w))
        elif t in (int, float, bool, complex):
            key.append(t)
        elif isinstance(a, numpy.generic):
            key.append(a.dtype)
        else:
            return None
    return tuple(key)


def _is_int(v):
    return isinstance(v, (int, numpy.integer)) and not isinstance(v, bool)


def _kind(p, v):
    """What the generated source depends on for one argument."""
    if not c.is_array(v):
        return (v.dtype, None)
    return (v.dtype, v.ndim, p.raw and c.contiguous(v))


def _unravel(first, ndim):
    """C statements splitting the flat index i into the digits _k0.._k{ndim-1} of the loop shape
    (the shape of the first non-raw array's view)."""
    lines = ["long long _r = i;"]
    for d in range(ndim - 1, 0, -1):
        lines.append(
            f"const long long _k{d} = _r % _raw_{first}.shape[{d}]; _r /= _raw_{first}.shape[{d}];"
        )
    lines.append("const long long _k0 = _r;")
    return " ".join(lines)


def _views(params, values, shape, reduce_dims):
    """Arguments as the kernel takes them: non-raw arrays as views broadcast to `shape` (axes
    merged where every array allows it, when reduce_dims), raw arrays as at-least-1-D views,
    scalars unchanged; and the loop's number of dimensions."""
    broadcast = [
        v if tuple(v.shape) == shape else gpupy.broadcast_to(v, shape)
        for p, v in zip(params, values, strict=True)
        if not p.raw and c.is_array(v)
    ]
    if broadcast:
        if reduce_dims:
            loop_shape, strides = c.collapse(
                shape, [tuple(b.strides) for b in broadcast], 0, len(shape)
            )
        else:
            loop_shape = [d for d in shape]
            strides = [list(b.strides) for b in broadcast]
        if not loop_shape:
            loop_shape, strides = [1], [[0] for _ in broadcast]
        broadcast = iter(
            [c.view(b, loop_shape, s) for b, s in zip(broadcast, strides, strict=True)]
        )
        ndim = len(loop_shape)
    else:
        ndim = 0
    out = []
    for p, v in zip(params, values, strict=True):
        if not c.is_array(v):
            out.append(v)
        elif p.raw:
            out.append(c.at_least_1d(v))
        else:
            out.append(next(broadcast))
    return out, ndim
