"""NumPy's signature= (and its alias sig=) of a ufunc call, read as the dtype= that selects the
same loop; the C++ ufunc type's call comes here only when one of the two keywords is given."""

import numpy


def call_with_signature(u, args, kwargs):
    """u(*args, **kwargs) with signature=/sig= replaced by dtype= (gpupy's loops have one dtype
    for every operand, or one for the inputs and bool for the comparisons)."""
    if "signature" in kwargs and "sig" in kwargs:
        raise TypeError(f"[{u.__name__}] cannot specify both 'sig' and 'signature'")
    sig = kwargs.pop("signature", None) if "signature" in kwargs else kwargs.pop("sig")
    types = _types(u, sig)
    given = {t for t in types if t is not None}
    if not given:
        return u(*args, **kwargs)
    if "dtype" in kwargs and kwargs["dtype"] is not None:
        raise TypeError(f"[{u.__name__}] cannot specify both 'signature' and 'dtype'")
    if (
        _code(u, types) not in u.types + [None]
        or len({t for t in types[: u.nin] if t is not None}) > 1
    ):
        # gpupy's loops take one input dtype (NumPy's ldexp loops aside)
        raise TypeError(
            f"[{u.__name__}] No loop matching the specified signature and casting was found "
            f"for ufunc {u.__name__}"
        )
    if len(given) == 1:
        return u(*args, dtype=given.pop(), **kwargs)
    names = ", ".join(sorted(str(t) for t in given))
    raise NotImplementedError(
        f"[{u.__name__}] a signature of several dtypes ({names}) is not supported; dtype= "
        "selects the loop of one dtype"
    )


def _types(u, sig):
    """The signature as nin + nout dtypes (None where free), checked as NumPy checks it."""
    nargs = u.nin + u.nout
    if isinstance(sig, bytes):
        sig = sig.decode("ascii")
    if isinstance(sig, str):
        if "->" not in sig:
            if len(sig) == 1:  # NumPy's TypeError: one type is dtype='s business
                raise TypeError(
                    f"[{u.__name__}] a signature string needs '->' (such as 'ii->i'); use "
                    "dtype= for one dtype"
                )
            raise ValueError(f"[{u.__name__}] signature {sig!r} has no '->'")
        inputs, outputs = sig.replace(" ", "").split("->", 1)
        sig = tuple(inputs) + tuple(outputs)
        try:
            return [numpy.dtype(c) for c in sig] if len(sig) == nargs else _count(u, sig)
        except TypeError:
            raise ValueError(f"[{u.__name__}] signature {sig!r} names no data types") from None
    if not isinstance(sig, tuple):
        raise TypeError(
            f"[{u.__name__}] the signature object to ufunc must be a string or a tuple."
        )
    if len(sig) != nargs:
        _count(u, sig)
    return [None if t is None else numpy.dtype(_scalar_type(t)) for t in sig]


def _code(u, types):
    """NumPy's 'ii->i' code of a full signature, None for a partial one (`None in types` would
    not do: a dtype compares equal to None, which numpy.dtype reads as float64)."""
    if any(t is None for t in types):
        return None
    return "".join(t.char for t in types[: u.nin]) + "->" + "".join(t.char for t in types[u.nin :])


def _count(u, sig):
    """The error for a signature of the wrong length: NumPy's TypeError for one item."""
    exc = TypeError if len(sig) == 1 else ValueError
    raise exc(
        f"[{u.__name__}] the signature has {len(sig)} items, the ufunc {u.nin + u.nout} "
        "operands; use dtype= or fill the tuple with None"
    )


def _scalar_type(t):
    # a DType class (type(numpy.dtype('f8'))) names its scalar type
    return t.type if isinstance(t, type) and isinstance(getattr(t, "type", None), type) else t
