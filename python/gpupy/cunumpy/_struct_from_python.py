"""CudaStructs from Python definitions: a function's Pyccel-style annotations (from_signature)
or a class's `__init__` read with `ast`, never imported (from_pyccel_class)."""

import ast
import inspect
import os

_SCALARS = {
    "float": "double",
    "float64": "double",
    "double": "double",
    "float32": "float",
    "float16": "__half",
    "bool": "bool",
    "bool_": "bool",
    "int64": "long long",
    "int32": "int",
    "int16": "short",
    "int8": "signed char",
    "uint64": "unsigned long long",
    "uint32": "unsigned int",
    "uint16": "unsigned short",
    "uint8": "unsigned char",
    "complex": "complex<double>",
    "complex128": "complex<double>",
    "complex64": "complex<float>",
}


def _annotation_text(a):
    """An annotation (string, type, typing object) as source text."""
    if isinstance(a, str):
        return a
    if isinstance(a, type):
        return a.__name__
    return repr(a).replace("typing.", "")


def _ctype(text, where, int_type, scalar_names):
    """(C type, ndim) of an annotation text: "float[:, :]" -> ("double", 2)."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise ValueError(f"cannot parse the annotation {text!r} of {where}") from None
    while isinstance(node, ast.Subscript) and _name(node.value) in ("Final", "const"):
        node = node.slice
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return _ctype(node.value, where, int_type, scalar_names)
    ndim = 0
    if isinstance(node, ast.Subscript):
        sl = node.slice
        items = sl.elts if isinstance(sl, ast.Tuple) else [sl]
        if not all(isinstance(s, ast.Slice) for s in items):
            raise ValueError(f"cannot parse the annotation {text!r} of {where}")
        ndim, node = len(items), node.value
        if ndim > 16:
            raise ValueError(f"{where}: arrays have at most 16 dimensions, got {ndim}")
    name = _name(node)
    if name is None:
        raise ValueError(f"cannot parse the annotation {text!r} of {where}")
    names = {"int": int_type, **_SCALARS, **(scalar_names or {})}
    if name not in names:
        raise ValueError(f"{where}: unsupported scalar type {name!r}")
    return names[name], ndim


def _name(node):
    """`float64` of `float64`, `np.float64`, `numpy.float64`; None otherwise."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _fields(params, where, int_type, scalar_names, contiguous):
    """[(name, C type)] of (name, annotation text or None) pairs."""
    fields, arrays = [], []
    for pname, text in params:
        if text is None:
            raise ValueError(f"parameter '{pname}' of {where} has no type annotation")
        ctype, ndim = _ctype(text, f"parameter '{pname}' of {where}", int_type, scalar_names)
        if ndim:
            arrays.append(pname)
        fields.append([pname, ctype, ndim])
    if contiguous is True:
        contiguous = arrays
    contiguous = list(contiguous or ())
    bad = [n for n in contiguous if n not in arrays]
    if bad:
        raise ValueError(f"contiguous names {bad} are not array fields of {where}")
    return [
        (n, f"{'C' if n in contiguous else ''}Array{d}D<{c}>" if d else c) for n, c, d in fields
    ]


def from_signature(cls, func, name, *, int_type="long long", scalar_names=None, contiguous=False):
    """A CudaStruct with one field per parameter of func (self, *args and **kw skipped)."""
    sig = inspect.signature(func)
    params = []
    for p in sig.parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        a = None if p.annotation is p.empty else _annotation_text(p.annotation)
        params.append((p.name, a))
    where = getattr(func, "__name__", repr(func))
    return cls(name, _fields(params, where, int_type, scalar_names, contiguous))


def from_pyccel_class(
    cls,
    source,
    class_name,
    name=None,
    *,
    int_type="long long",
    scalar_names=None,
    exclude=(),
    attribute_names=True,
    contiguous=False,
):
    """A CudaStruct from the `__init__` of class_name in a .py file or source text."""
    text = source
    if isinstance(source, os.PathLike) or (isinstance(source, str) and source.endswith(".py")):
        with open(os.fspath(source), encoding="utf-8") as f:
            text = f.read()
    tree = ast.parse(text)
    klass = next(
        (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == class_name), None
    )
    if klass is None:
        raise ValueError(f"no class {class_name!r} in the source")
    init = next(
        (n for n in klass.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None
    )
    if init is None:
        raise ValueError(f"class {class_name!r} has no __init__")
    stored = _stored_attributes(init)
    params = []
    for a in init.args.args[1:] + init.args.kwonlyargs:
        field = stored.get(a.arg, a.arg) if attribute_names else a.arg
        if a.arg in exclude or field in exclude:
            continue
        params.append((field, None if a.annotation is None else ast.unparse(a.annotation)))
    where = f"{class_name}.__init__"
    return cls(name or class_name, _fields(params, where, int_type, scalar_names, contiguous))


def _stored_attributes(init):
    """{parameter: attribute} for the first `self.attr = param` of each parameter."""
    out = {}
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and _name(t.value) == "self":
                    out.setdefault(node.value.id, t.attr)
    return out
