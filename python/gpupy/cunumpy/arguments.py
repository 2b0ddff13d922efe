"""Argument objects and C structs for CudaKernel launches (gpupy.cunumpy.arguments).

A CudaStruct describes a C struct field by field; its NumPy dtype reproduces the C layout
(`align=True`), so a packed value is the exact bytes a kernel taking the struct by value reads.
Field values go through the same C++ checkers as kernel parameters."""

import re

import numpy

from gpupy import _core

__all__ = [
    "CudaArguments",
    "CudaStruct",
    "CudaStructArguments",
    "CudaStructValue",
    "write_cuda_header",
]

_FIELD_KERNEL = "cunumpy_struct_fields"
_IDENT = re.compile(r"[A-Za-z_]\w*\Z")


class CudaArguments:
    """Values passed to a kernel in place of this one argument (flattened by every launch)."""

    def __init__(self, *values):
        self._values = tuple(values)

    def __cuda_args__(self):
        return self._values

    def __repr__(self):
        return f"{type(self).__name__}({len(self._values)} values)"


def _strip_comments(source):
    source = re.sub(r"/\*.*?\*/", " ", source, flags=re.S)
    return re.sub(r"//[^\n]*", " ", source)


def _parse_fields(decls, what):
    """Parses "ctype name" declarations with gpupy's kernel signature parser."""
    src = f"__global__ void {_FIELD_KERNEL}({', '.join(decls)}) {{}}"
    try:
        sig = _core._KernelSignature(src, _FIELD_KERNEL, None)
    except ValueError as exc:
        msg = str(exc).replace(f" of '{_FIELD_KERNEL}'", "")
        raise ValueError(f"{what}: {msg}") from None
    return sig


def _field_dtype(p):
    """The dtype a parsed field takes in the packed record."""
    _, _, dt, pointer, ndim, contiguous = p[:6]
    if pointer:
        return numpy.dtype(numpy.uint64)
    if ndim:
        parts = [("data", numpy.uint64), ("shape", numpy.int64, (ndim,))]
        if not contiguous:
            parts.append(("strides", numpy.int64, (ndim,)))
        return numpy.dtype(parts, align=True)
    return numpy.dtype(dt)


class CudaStruct:
    """A C struct passed to kernels by value: fields [(name, C type)], C-aligned NumPy layout."""

    def __init__(self, name, fields):
        from gpupy.cunumpy.cuda_kernel import CudaParameter

        if not isinstance(name, str) or not _IDENT.match(name):
            raise ValueError(f"invalid struct name {name!r}: it must be a C identifier")
        fields = [(str(f), str(t)) for f, t in fields]
        names = [f for f, _ in fields]
        dup = sorted({f for f in names if names.count(f) > 1})
        if dup:
            raise ValueError(f"struct {name}: duplicate field names {dup}")
        if not fields:
            raise ValueError(f"struct {name} needs at least one field")
        for f in names:
            if not _IDENT.match(f):
                raise ValueError(f"struct {name}: invalid field name {f!r}")
        self._name = name
        self._sig = _parse_fields([f"{t} {f}" for f, t in fields], f"struct {name}")
        params = self._sig.parameters
        self._fields = tuple(CudaParameter(p[:6]) for p in params)
        self._dtype = numpy.dtype(
            {"names": names, "formats": [_field_dtype(p) for p in params]}, align=True
        )
        self._offsets = [self._dtype.fields[f][1] for f in names]

    name = property(lambda self: self._name)
    fields = property(lambda self: self._fields)
    dtype = property(lambda self: self._dtype)
    has_views = property(lambda self: any(p.view_ndim for p in self._fields))

    def __repr__(self):
        return f"CudaStruct({self._name!r}, {len(self._fields)} fields)"

    @property
    def declaration(self):
        lines = [f"    {_decl_type(p)} {p.name};" for p in self._fields]
        return f"struct {self._name} {{\n" + "\n".join(lines) + "\n};\n"

    def __call__(self, **values):
        names = [p.name for p in self._fields]
        missing = [n for n in names if n not in values]
        unknown = [n for n in values if n not in names]
        if missing or unknown:
            raise TypeError(
                f"struct {self._name}: missing fields {missing}, unknown fields {unknown}"
            )
        ordered = tuple(values[n] for n in names)
        record = numpy.zeros((), self._dtype)
        self._sig.pack_at(ordered, record, self._offsets)
        return CudaStructValue(self, record[()], dict(zip(names, ordered, strict=True)))

    def pack_values(self, ordered):
        """The packed record of values given in field order."""
        record = numpy.zeros((), self._dtype)
        self._sig.pack_at(tuple(ordered), record, self._offsets)
        return record[()]

    def check_source(self, source):
        """ValueError when source defines `struct Name {...}` differently; absence is fine."""
        from gpupy.cunumpy._struct_text import check_source

        check_source(self, source)

    def to_header(self, path=None, *, guard=None, includes=()):
        from gpupy.cunumpy._struct_text import header_text

        return header_text([self], path, guard or f"{self._name.upper()}_CUH", includes)

    def layout_source(self, include=None):
        from gpupy.cunumpy._struct_text import layout_source

        return layout_source(self, include)

    def verify_layout(self, include=None, *, include_dirs=(), options=()):
        from gpupy.cunumpy._struct_text import verify_layout

        return verify_layout(self, include, include_dirs, options)

    @classmethod
    def from_signature(cls, func, name, **kw):
        from gpupy.cunumpy._struct_from_python import from_signature

        return from_signature(cls, func, name, **kw)

    @classmethod
    def from_pyccel_class(cls, source, class_name, name=None, **kw):
        from gpupy.cunumpy._struct_from_python import from_pyccel_class

        return from_pyccel_class(cls, source, class_name, name, **kw)


def _decl_type(p):
    """The C type a field is declared with: "double*", "Array2D<double>", "int"."""
    return p.ctype + ("*" if p.pointer else "")


def write_cuda_header(path, structs, guard=None, *, includes=()):
    """Writes the declarations of structs to a header at path; returns its text."""
    from gpupy.cunumpy._struct_text import guard_from_path, header_text

    return header_text(list(structs), path, guard or guard_from_path(path), includes)


class CudaStructValue:
    """A packed struct value: `packed` (a numpy.void of the struct's dtype) and the original
    field values (`value["field"]`, which keeps the arrays alive)."""

    __slots__ = ("_packed", "_struct", "_values")

    def __init__(self, struct, packed, values):
        self._struct = struct
        self._packed = packed
        self._values = values

    struct = property(lambda self: self._struct)
    packed = property(lambda self: self._packed)

    def __getitem__(self, field):
        return self._values[field]

    def __cuda_args__(self):
        return (self._packed,)

    def __repr__(self):
        return f"<CudaStructValue of struct {self._struct.name}>"


def _state(v):
    """What a field's packed bytes depend on: address (and shape, strides) or the value."""
    ptr = getattr(v, "_data_ptr", None)  # gpupy arrays (emu has no __cuda_array_interface__)
    if ptr is not None and hasattr(v, "strides"):
        return (ptr, tuple(v.shape), tuple(v.strides))
    if hasattr(type(v), "__cuda_array_interface__"):
        cai = v.__cuda_array_interface__
        return (cai["data"][0], tuple(cai["shape"]), cai.get("strides"))
    if isinstance(v, (int, float, complex, bool, numpy.generic)):
        return (type(v), v)
    return id(v)


class CudaStructArguments(CudaArguments):
    """Argument object packed as one struct: subclasses set `struct_name` and `fields`; instances
    hold each field as an attribute and re-pack when a field changes."""

    struct = None

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        own = vars(cls)
        has_name, has_fields = "struct_name" in own, "fields" in own
        if has_name != has_fields:
            raise TypeError(f"{cls.__name__} must define both struct_name and fields")
        if has_name:
            cls.struct = CudaStruct(cls.struct_name, cls.fields)

    def pack(self):
        """Packs the current field values (and remembers their state)."""
        st = type(self).struct
        if st is None:
            raise TypeError(f"{type(self).__name__} defines no struct (struct_name and fields)")
        values = []
        for p in st.fields:
            try:
                values.append(getattr(self, p.name))
            except AttributeError:
                raise AttributeError(
                    f"{type(self).__name__} has no attribute {p.name!r} for field {p.name} of "
                    f"struct {st.name}"
                ) from None
        self.__dict__["_cunumpy_packed"] = st.pack_values(values)
        self.__dict__["_cunumpy_state"] = [_state(v) for v in values]
        return self.__dict__["_cunumpy_packed"]

    @property
    def packed(self):
        d = self.__dict__
        st = type(self).struct
        if "_cunumpy_packed" not in d or st is None:
            return self.pack()
        state = d["_cunumpy_state"]
        for k, p in enumerate(st.fields):
            if _state(getattr(self, p.name)) != state[k]:
                return self.pack()
        return d["_cunumpy_packed"]

    def __cuda_args__(self):
        return (self.packed,)

    def __getstate__(self):
        d = dict(self.__dict__)
        d.pop("_cunumpy_packed", None)
        d.pop("_cunumpy_state", None)
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)

    def __copy__(self):
        new = type(self).__new__(type(self))
        new.__setstate__(self.__getstate__())
        return new

    def __repr__(self):
        st = type(self).struct
        return f"<{type(self).__name__}: struct {st.name if st else None}>"
