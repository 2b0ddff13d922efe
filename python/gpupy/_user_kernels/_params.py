"""The parameter grammar of ElementwiseKernel and ReductionKernel ('float32 x, raw T y') and the
binding of type placeholders to dtypes, with CuPy's rules and gpupy's error messages."""

import numpy


class ParameterInfo:
    """One parameter: name, dtype (None for a placeholder), ctype (the C type, or the placeholder
    letter), raw (whole-array access with x[i]) and is_const (inputs)."""

    __slots__ = ("name", "dtype", "ctype", "raw", "is_const")

    def __init__(self, text, is_const, owner):
        words = text.split()
        if len(words) < 2:
            raise ValueError(
                f"[{owner}] syntax error in parameter {text.strip()!r}: expected 'type name'"
            )
        t, name = words[-2:]
        if not name.isidentifier():
            raise ValueError(f"[{owner}] invalid parameter name {name!r} in {text.strip()!r}")
        self.name, self.raw, self.is_const = name, False, is_const
        for word in words[:-2]:
            if word == "raw":
                self.raw = True
            elif word == "_non_const":
                self.is_const = False
            else:
                raise ValueError(
                    f"[{owner}] unknown keyword {word!r} in parameter {text.strip()!r}"
                )
        if len(t) == 1:
            if not t.isidentifier():
                raise ValueError(f"[{owner}] invalid type placeholder {t!r} in {text.strip()!r}")
            self.dtype, self.ctype = None, t
        else:
            self.dtype = dtype_of(t, owner, text)
            self.ctype = None

    def __repr__(self):
        raw = "raw " if self.raw else ""
        return f"<ParameterInfo {raw}{self.ctype or self.dtype} {self.name}>"


def dtype_of(t, owner, text=None):
    """The NumPy dtype a type name in a parameter list stands for; ValueError when there is none
    or gpupy's kernels cannot take it."""
    try:
        dtype = numpy.dtype(t)
    except TypeError:
        where = f" in {text.strip()!r}" if text else ""
        raise ValueError(f"[{owner}] unknown type {t!r}{where}") from None
    if dtype.kind not in "biufc":
        raise ValueError(f"[{owner}] type {t!r} ({dtype}) is not supported by user kernels")
    return dtype


def parse_params(text, is_const, owner):
    """The parameters of one comma-separated list ('' gives none)."""
    if not isinstance(text, str):
        raise TypeError(f"[{owner}] parameter lists are strings, got {type(text).__name__}")
    if not text.strip():
        return ()
    return tuple(ParameterInfo(part, is_const, owner) for part in text.strip().split(","))


def check_names(params, owner):
    """Refuses duplicate names and the names the generated code uses itself."""
    seen = set()
    for p in params:
        if p.name == "i":
            raise ValueError(f"[{owner}] 'i' is reserved for the loop index; rename the parameter")
        if p.name.startswith("_"):
            raise ValueError(f"[{owner}] names starting with '_' are reserved, got {p.name!r}")
        if p.name in seen:
            raise ValueError(f"[{owner}] parameter {p.name!r} is declared twice")
        seen.add(p.name)


def decide_types(in_params, out_params, in_dtypes, out_dtypes, owner):
    """(in_types, out_types, {placeholder: dtype}) from the dtypes of the array arguments (None
    for scalars), outputs first as CuPy binds them; TypeError on a mismatch or an unbound
    placeholder."""
    bound = {}
    for p, a in zip(out_params, out_dtypes, strict=True):
        if a is not None:
            _bind(p, numpy.dtype(a), bound, owner)
    for p, a in zip(in_params, in_dtypes, strict=True):
        if a is not None:
            _bind(p, numpy.dtype(a), bound, owner)

    def resolve(p):
        if p.dtype is not None:
            return p.dtype
        if p.ctype not in bound:
            raise TypeError(
                f"[{owner}] cannot determine the type placeholder {p.ctype!r} of parameter "
                f"{p.name!r}: no array argument binds it (scalars take the placeholder's type, "
                "they do not set it)"
            )
        return bound[p.ctype]

    return tuple(map(resolve, in_params)), tuple(map(resolve, out_params)), bound


def _bind(p, dtype, bound, owner):
    if p.dtype is not None:
        if dtype != p.dtype:
            raise TypeError(
                f"[{owner}] type mismatch: parameter {p.name!r} is {p.dtype}, "
                f"got an array of {dtype}"
            )
        return
    have = bound.setdefault(p.ctype, dtype)
    if have != dtype:
        raise TypeError(
            f"[{owner}] type mismatch: placeholder {p.ctype!r} is {have} from an earlier argument, "
            f"but parameter {p.name!r} got an array of {dtype}"
        )


def cast_scalar(value, dtype, p, owner):
    """A scalar argument as a NumPy scalar of its parameter's dtype (CuPy casts Python and NumPy
    scalars to the parameter's type); TypeError/OverflowError naming the parameter otherwise."""
    if isinstance(value, (bool, int, float, complex, numpy.generic)):
        try:
            return dtype.type(value)
        except (TypeError, ValueError, OverflowError) as exc:
            raise type(exc)(f"[{owner}] parameter {p.name!r} ({dtype}): {exc}") from None
    raise TypeError(
        f"[{owner}] parameter {p.name!r} takes a gpupy array or a scalar, "
        f"got {type(value).__name__}"
    )
