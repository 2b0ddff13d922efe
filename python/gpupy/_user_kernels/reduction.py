"""gpupy.ReductionKernel: CuPy's user-defined reduction. A block reduces `stride` output elements
with blockDim/stride threads each (one output per block when the reductions are long, many when
they are short, so that no warp idles): each thread folds a strided share of its output's
elements, then the block combines the partial values in shared memory, halving with
__syncthreads, down to one value per output. When the outputs are too few to fill the device and
the reductions long, a first launch gives each output several blocks, each writing a partial value
to a temporary array, and a second launch of the same kernel folds the partials per output."""

import numpy
from numpy.exceptions import AxisError

import gpupy
from gpupy._user_kernels import _common as c
from gpupy._user_kernels._params import cast_scalar, check_names, parse_params

_OWNER = "ReductionKernel"
_BLOCK = 256  # most threads per output; a power of two (the shared-memory tree needs one)
_MAX_GRID = 1 << 16
_MIN_SHARE = 8 * _BLOCK  # fewest elements a block of a split reduction folds
_EMU_BLOCKS = 8  # blocks a split reduction aims for on emu: enough to exercise the split


class ReductionKernel:
    """A reduction: map_expr maps the inputs (at one element) to a value of reduce_type,
    reduce_expr folds two such values `a` and `b`, and post_map_expr writes the result `a` to the
    outputs; identity starts the fold (None: no identity, empty reductions raise); see
    cupy.ReductionKernel. The generated code also has `_type_reduce` and, per argument,
    `type_in<k>_raw` / `type_out<k>_raw` and the aliases `in<k>` / `out<k>`."""

    def __init__(
        self,
        in_params,
        out_params,
        map_expr,
        reduce_expr,
        post_map_expr,
        identity,
        name="reduce_kernel",
        reduce_type=None,
        reduce_dims=True,
        preamble="",
        options=(),
    ):
        if not isinstance(name, str) or not name.isidentifier():
            raise ValueError(f"[{_OWNER}] invalid kernel name {name!r}")
        self.in_params = parse_params(in_params, True, _OWNER)
        self.out_params = parse_params(out_params, False, _OWNER)
        self.params = self.in_params + self.out_params
        check_names(self.params, _OWNER)
        if any(p.raw for p in self.params):
            raise NotImplementedError(f"[{_OWNER}] raw parameters are not supported")
        if not self.in_params or not self.out_params:
            raise ValueError(f"[{_OWNER}] needs at least one input and one output parameter")
        for what, expr in (("map_expr", map_expr), ("reduce_expr", reduce_expr)):
            if not isinstance(expr, str) or not expr.strip():
                raise ValueError(f"[{_OWNER}] {what} must be a non-empty string of CUDA C")
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self.nargs = self.nin + self.nout
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity = None if identity is None else str(identity)
        self.name, self.preamble, self.reduce_dims = name, preamble, reduce_dims
        self.reduce_type = reduce_type  # None: the first output's type
        self.options = tuple(options)
        self.__name__ = name
        self._kernels = c.KernelCache(name, self.options)
        self._by_kind = {}  # argument kinds and dimensions -> (CudaKernel, sizeof(_type_reduce))

    @property
    def cached_codes(self):
        """The generated sources compiled so far, {source: CudaKernel}."""
        return dict(self._kernels.codes)

    def __repr__(self):
        return f"<gpupy.ReductionKernel {self.name}>"

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        """Reduces the broadcast inputs over axis (None: all axes); args are the inputs,
        optionally followed by the outputs (or out= for a single output)."""
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(
                f"[{_OWNER}] '{self.name}' takes {self.nin} arguments, or {self.nargs} with "
                f"the outputs, got {len(args)}"
            )
        out_args = list(args[self.nin :])
        if out is not None:
            if self.nout != 1:
                raise ValueError(f"[{_OWNER}] out= needs a single output; pass the outputs")
            if out_args:
                raise ValueError(f"[{_OWNER}] the output is given both positionally and as out=")
            out_args = [out]
        c.check_foreign([*args, *out_args], _OWNER)
        c.check_outputs(self.out_params, out_args, _OWNER)
        in_args = list(args[: self.nin])
        arrays = [a for a in in_args if c.is_array(a)]
        device = c.common_device(arrays + out_args, _OWNER)
        if not arrays:
            raise ValueError(f"[{_OWNER}] the reduction's shape is undecided: no array input")
        in_types, out_types, bound = c.argument_types(
            self.in_params, self.out_params, in_args, out_args, _OWNER
        )
        shape = c.broadcast_shape(arrays, _OWNER)
        red = _axes(axis, len(shape))
        kept = [d for d in range(len(shape)) if d not in red]
        out_args = self._outputs(out_args, out_types, shape, red, keepdims, device)
        result = out_args[0] if self.nout == 1 else tuple(out_args)
        n_out = _prod(shape[d] for d in kept)
        n_red = _prod(shape[d] for d in red)
        if n_out == 0:
            return result
        if n_red == 0 and self.identity is None:
            raise ValueError(
                f"[{_OWNER}] zero-size array to reduction operation {self.name} which has no "
                "identity"
            )
        values = [
            a if c.is_array(a) else cast_scalar(a, t, p, _OWNER)
            for p, a, t in zip(self.in_params, in_args, in_types, strict=True)
        ]
        views, kd, rd = _views(values, out_args, shape, kept, red, self.reduce_dims)
        key = (kd, rd, tuple(bound.items()), *((v.dtype, c.is_array(v)) for v in views))
        entry = self._by_kind.get(key)
        if entry is None:
            source, dtypes = self._source(views, kd, rd, bound, in_types, out_types)
            size = _itemsize(self._reduce_ctype(out_types), bound, in_types, out_types)
            entry = self._by_kind[key] = (self._kernels.get(source, dtypes), size)
        kernel, size = entry
        splits = _splits(n_out, n_red, device) if size else 1
        if splits == 1:
            self._launch(kernel, device, views, n_out, n_red, 1, None, stream)
            return result
        partials = gpupy.empty(n_out * splits * size, dtype=numpy.uint8, device=device)
        self._launch(kernel, device, views, n_out, n_red, splits, partials, stream)
        self._launch(kernel, device, views, n_out, splits, 1, partials, stream)
        return result

    def _launch(self, kernel, device, views, n_out, n_red, splits, partials, stream):
        """One pass: splits > 1 writes `splits` partial values per output, partials given with
        splits == 1 folds the n_red partials per output, neither is the one-pass reduction."""
        lanes = _pow2_at_least(min(n_red, _BLOCK))  # threads per output
        stride = min(_BLOCK // lanes, _pow2_at_least(n_out))  # outputs per block
        grid = min(-(-n_out // stride), _MAX_GRID // splits) * splits
        fold = partials is not None and splits == 1
        if partials is None:
            partials = _no_partials(device)
        args = [*views, partials, n_out, n_red, stride, splits, fold]
        c.launch(kernel, _OWNER, args, (grid,), (lanes * stride,), stream=stream)

    def _reduce_ctype(self, out_types):
        return self.reduce_type if self.reduce_type is not None else c.ctype(out_types[0])

    def _outputs(self, out_args, out_types, shape, red, keepdims, device):
        """The outputs passed (their shapes checked), or new arrays of the reduction's shape."""
        if keepdims:
            out_shape = tuple(1 if d in red else n for d, n in enumerate(shape))
        else:
            out_shape = tuple(n for d, n in enumerate(shape) if d not in red)
        for p, a in zip(self.out_params, out_args, strict=False):
            if tuple(a.shape) != out_shape:
                raise ValueError(
                    f"[{_OWNER}] output {p.name!r} has shape {tuple(a.shape)}, the reduction "
                    f"gives {out_shape}"
                )
        return out_args or [gpupy.empty(out_shape, dtype=t, device=device) for t in out_types]

    def _source(self, views, kd, rd, bound, in_types, out_types):
        params, dtypes = [], list(bound.values()) + list(in_types) + list(out_types)
        ins, outs = views[: self.nin], views[self.nin :]
        for p, v in zip(self.in_params, ins, strict=True):
            if c.is_array(v):
                params.append(f"Array{kd + rd}D<const {c.ctype(v.dtype)}> _raw_{p.name}")
            else:
                params.append(f"{c.ctype(v.dtype)} {p.name}")
        for p, v in zip(self.out_params, outs, strict=True):
            params.append(f"Array{max(kd, 1)}D<{c.ctype(v.dtype)}> _raw_{p.name}")
        first = next(p.name for p, v in zip(self.in_params, ins, strict=True) if c.is_array(v))
        kdigits = _digits("_o", "_ko", first, 0, kd)
        load = [_digits("_q", "_kq", first, kd, kd + rd)]
        for p, v in zip(self.in_params, ins, strict=True):
            if c.is_array(v):
                off = [f"_ko{d} * _raw_{p.name}.strides[{d}]" for d in range(kd)]
                off += [f"_kq{d} * _raw_{p.name}.strides[{d}]" for d in range(kd, kd + rd)]
                load.append(
                    f"const {c.ctype(v.dtype)} &{p.name} = _raw_{p.name}.data[{' + '.join(off)}];"
                )
        store = []
        for p, v in zip(self.out_params, outs, strict=True):
            off = " + ".join(f"_ko{d} * _raw_{p.name}.strides[{d}]" for d in range(kd)) or "0"
            store.append(f"{c.ctype(v.dtype)} &{p.name} = _raw_{p.name}.data[{off}];")
        names = {p.name for p in self.params}
        load += _positional_aliases(self.in_params, "in", names)
        store += _positional_aliases(self.out_params, "out", names)
        types = sorted(bound.items())
        types += [(f"type_in{k}_raw", t) for k, t in enumerate(in_types)]
        types += [(f"type_out{k}_raw", t) for k, t in enumerate(out_types)]
        source = (
            c.prelude(dtypes)
            + c.typedefs(types)
            + f"typedef {self._reduce_ctype(out_types)} _type_reduce;\n"
            + self.preamble
            + f"\n#define REDUCE(a, b) ({self.reduce_expr})\n"
            + f"#define POST_MAP(a) ({self.post_map_expr or '(void)(a)'})\n"
            + _BODY.format(
                name=self.name,
                params=", ".join(params),
                block=_BLOCK,
                init=f"_type_reduce({self.identity})"
                if self.identity is not None
                else "_type_reduce()",
                have="true" if self.identity is not None else "false",
                kdigits=kdigits,
                load="\n".join(load),
                map=self.map_expr,
                store="\n".join(store),
            )
        )
        return source, dtypes


# Partial values live in a raw byte buffer: __shared__ variables cannot have constructors.
# _have marks threads that folded at least one element (a reduction without identity). With
# _splits > 1, block b folds share b % _splits (a contiguous range) of its outputs' elements into
# _part; with _fold, the elements are the _n_red partials of each output, not the mapped inputs.
_BODY = """struct alignas(16) _GpupySharedBytes {{
  unsigned char bytes[{block} * sizeof(_type_reduce)];
}};
__global__ void {name}({params}, Array1D<unsigned char> _part_raw, long long _n_out,
                       long long _n_red, int _stride, int _splits, bool _fold) {{
  __shared__ _GpupySharedBytes _sraw;
  __shared__ bool _shave[{block}];
  _type_reduce* _sdata = reinterpret_cast<_type_reduce*>(_sraw.bytes);
  _type_reduce* _part = reinterpret_cast<_type_reduce*>(_part_raw.data);
  const unsigned int _tid = threadIdx.x, _lane = _tid % _stride, _rlanes = blockDim.x / _stride;
  const unsigned int _share = blockIdx.x % _splits;
  const long long _groups = gridDim.x / _splits;
  // share k of an output's elements starts at k * _n_red / _splits, rounded down to a whole row
  auto _cut = [&](long long k) {{ return k * _n_red / _splits / _rlanes * _rlanes; }};
  for (long long _ob = (long long)(blockIdx.x / _splits) * _stride; _ob < _n_out;
       _ob += _groups * _stride) {{
    const long long _o = _ob + _lane;
    const long long _hi = _o >= _n_out ? 0 : _share + 1 == _splits ? _n_red : _cut(_share + 1);
    {kdigits}
    _type_reduce _s = {init};
    bool _have = {have};
    for (long long _q = _cut(_share) + _tid / _stride; _q < _hi; _q += _rlanes) {{
      auto _mapped = [&]() -> _type_reduce {{
        {load}
        return static_cast<_type_reduce>({map});
      }};
      const _type_reduce _a = _fold ? _part[_o * _n_red + _q] : _mapped();
      _s = _have ? _type_reduce(REDUCE(_s, _a)) : _a;
      _have = true;
    }}
    _sdata[_tid] = _s;
    _shave[_tid] = _have;
    __syncthreads();
    for (unsigned int _w = blockDim.x / 2; _w >= (unsigned int)_stride; _w >>= 1) {{
      if (_tid < _w && _shave[_tid + _w]) {{
        _type_reduce _a = _sdata[_tid], _b = _sdata[_tid + _w];
        _sdata[_tid] = _shave[_tid] ? _type_reduce(REDUCE(_a, _b)) : _b;
        _shave[_tid] = true;
      }}
      __syncthreads();
    }}
    if (_tid < (unsigned int)_stride && _o < _n_out) {{
      if (_splits > 1) {{
        _part[_o * _splits + _share] = _sdata[_tid];  // every share holds elements: see _splits
      }} else {{
        {store}
        _type_reduce a = _sdata[_tid];
        POST_MAP(a);
      }}
    }}
    __syncthreads();
  }}
}}
"""


def _positional_aliases(params, prefix, names):
    """`auto &in0 = x;` ...: CuPy's reduction names for the arguments, where no parameter has
    taken the name."""
    return [
        f"auto &{prefix}{k} = {p.name}; (void){prefix}{k};"
        for k, p in enumerate(params)
        if f"{prefix}{k}" not in names
    ]


def _digits(index, prefix, array, start, stop):
    """C statements splitting `index` into digits prefix{start}..prefix{stop-1} over axes
    start..stop-1 of the input view `_raw_<array>`."""
    if stop == start:
        return ""
    lines = [f"long long {prefix}_r = {index};"]
    for d in range(stop - 1, start, -1):
        lines.append(
            f"const long long {prefix}{d} = {prefix}_r % _raw_{array}.shape[{d}]; "
            f"{prefix}_r /= _raw_{array}.shape[{d}];"
        )
    lines.append(f"const long long {prefix}{start} = {prefix}_r;")
    return " ".join(lines)


def _axes(axis, ndim):
    """The sorted reduced axes; AxisError out of range, ValueError for a repeated axis."""
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    norm = []
    for a in axes:
        if not isinstance(a, (int, numpy.integer)) or isinstance(a, bool):
            raise TypeError(f"[{_OWNER}] axis must be an int, a tuple of ints or None, got {a!r}")
        if not -ndim <= a < ndim:
            raise AxisError(f"[{_OWNER}] axis {a} is out of bounds for array of dimension {ndim}")
        norm.append(int(a) % ndim)
    if len(set(norm)) != len(norm):
        raise ValueError(f"[{_OWNER}] duplicate value in 'axis'")
    return tuple(sorted(norm))


def _splits(n_out, n_red, device):
    """Blocks per output: 1 when the one-pass layout already fills the device (or the reductions
    are short), else enough to fill it, each folding about _MIN_SHARE elements or more, so that
    every share of an output holds elements (share bounds are rounded down to _BLOCK)."""
    if device == "emu":
        target = _EMU_BLOCKS
    else:
        target = _device_blocks(device)
    if n_out * 2 > target:
        return 1
    return max(1, min(target // n_out, n_red // _MIN_SHARE, _MAX_GRID // n_out))


_DEVICE_BLOCKS = {}  # cuda device string -> blocks a split reduction aims for


def _device_blocks(device):
    """About 4 waves of resident blocks: 4 x SMs x (2048 threads per SM / _BLOCK)."""
    blocks = _DEVICE_BLOCKS.get(device)
    if blocks is None:
        index = int(device.partition(":")[2] or 0)
        sms = gpupy.cuda.get_device_properties(index)["multiprocessor_count"]
        blocks = _DEVICE_BLOCKS[device] = 4 * sms * (2048 // _BLOCK)
    return blocks


_NO_PARTIALS = {}  # device -> an empty uint8 array, the partials argument of one-pass launches


def _no_partials(device):
    a = _NO_PARTIALS.get(device)
    if a is None:
        a = _NO_PARTIALS[device] = gpupy.empty(0, dtype=numpy.uint8, device=device)
    return a


# Bytes of the C types a reduce_type may name beyond gpupy's dtypes (LP64, as nvcc and g++ see it)
_C_SIZES = {
    "char": 1,
    "int": 4,
    "unsigned": 4,
    "long": 8,
    "unsigned long": 8,
    "long int": 8,
    "size_t": 8,
    "int8_t": 1,
    "int16_t": 2,
    "int32_t": 4,
    "int64_t": 8,
    "uint8_t": 1,
    "uint16_t": 2,
    "uint32_t": 4,
    "uint64_t": 8,
}
_DTYPE_CTYPES = [numpy.dtype(t) for t in "?bBhHiIqQefdFD"]


def _itemsize(ctype, bound, in_types, out_types):
    """sizeof(ctype) when gpupy knows it (a dtype's C type, a type placeholder, type_in<k>_raw,
    a common C spelling), else None: a type from the preamble keeps the one-pass layout."""
    name = " ".join(ctype.split())
    named = dict(bound)
    named.update((f"type_in{k}_raw", t) for k, t in enumerate(in_types))
    named.update((f"type_out{k}_raw", t) for k, t in enumerate(out_types))
    named.update((c.ctype(t), t) for t in _DTYPE_CTYPES)
    if name in named:
        return numpy.dtype(named[name]).itemsize
    return _C_SIZES.get(name)


def _pow2_at_least(n):
    p = 1
    while p < n:
        p *= 2
    return p


def _prod(values):
    n = 1
    for v in values:
        n *= v
    return n


def _views(values, outs, shape, kept, red, reduce_dims):
    """Inputs as views with the kept axes first, then the reduced ones (each group merged where
    every array allows it), outputs as views of the kept axes; the two group sizes."""
    perm = list(kept) + list(red)
    arrays = [gpupy.broadcast_to(v, shape) for v in values if c.is_array(v)]
    full = tuple(shape[d] for d in perm)
    in_strides = [tuple(a.strides[d] for d in perm) for a in arrays]
    out_strides = [_kept_strides(o, len(shape), kept, red) for o in outs]
    nk = len(kept)
    if reduce_dims:
        kshape, kstr = c.collapse(full, in_strides + out_strides, 0, nk)
        rshape, rstr = c.collapse(full, in_strides, nk, len(full))
    else:
        kshape, kstr = list(full[:nk]), [list(s[:nk]) for s in in_strides + out_strides]
        rshape, rstr = list(full[nk:]), [list(s[nk:]) for s in in_strides]
    if not kshape and not rshape:  # a single element: one reduced axis of length 1
        rshape, rstr = [1], [[0] for _ in in_strides]
    kd, rd = len(kshape), len(rshape)
    it = iter(
        c.view(a, kshape + rshape, ks + rs)
        for a, ks, rs in zip(arrays, kstr[: len(arrays)], rstr, strict=True)
    )
    views = [next(it) if c.is_array(v) else v for v in values]
    for o, ks in zip(outs, kstr[len(arrays) :], strict=True):
        views.append(c.view(o, kshape, ks) if kd else c.view(o, (1,), (0,)))
    return views, kd, rd


def _kept_strides(o, ndim, kept, red):
    """An output's byte strides along the kept axes (keepdims outputs still hold the reduced
    axes, with length 1)."""
    st = tuple(o.strides)
    if o.ndim == ndim and ndim != len(kept):
        return tuple(st[d] for d in kept)
    return st
