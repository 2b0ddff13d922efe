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
    if len(given) == 1:
        return u(*args, dtype=given.pop(), **kwargs)
    if all(t is not None for t in types):  # (dtype == None compares with float64)
        code = (
            "".join(t.char for t in types[: u.nin]) + "->" + "".join(t.char for t in types[u.nin :])
        )
        if code not in u.types:
            raise TypeError(
                f"[{u.__name__}] No loop matching the specified signature and casting was found "
                f"for ufunc {u.__name__}"
            )
    names = ", ".join(sorted(str(t) for t in given))
    raise NotImplementedError(
        f"[{u.__name__}] a signature of several dtypes ({names}) is not supported; dtype= "
        "selects the loop of one dtype"
    )


def _types(u, sig):
    """The signature as nin + nout dtypes (None where free), checked as NumPy checks it."""
    nargs = u.nin + u.nout
    if isinstance(sig, str):
        if "->" not in sig:
            raise TypeError(
                f"[{u.__name__}] a signature string needs '->' (such as 'ii->i'); use dtype= "
                "for one dtype"
            )
        inputs, outputs = sig.replace(" ", "").split("->")
        sig = tuple(inputs) + tuple(outputs)
    elif not isinstance(sig, tuple):
        raise TypeError(
            f"[{u.__name__}] the signature object to ufunc must be a string or a tuple."
        )
    if len(sig) != nargs:
        raise TypeError(
            f"[{u.__name__}] the signature has {len(sig)} items, the ufunc {nargs} operands; use "
            "dtype= or fill the tuple with None"
        )
    return [None if t is None else numpy.dtype(_scalar_type(t)) for t in sig]


def _scalar_type(t):
    # a DType class (type(numpy.dtype('f8'))) names its scalar type
    return t.type if isinstance(t, type) and isinstance(getattr(t, "type", None), type) else t
