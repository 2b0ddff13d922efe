"""The arguments of a CudaKernel launch: argument objects (`__cuda_args__`) flattened or labelled
field by field, the arrays launch-size inference reads, and the NaN/inf scan of debug launches."""

import numpy

_HAS_CUDA_ARGS = {}  # type -> whether it defines __cuda_args__ (hasattr misses are slow)


def _is_argument_object(a):
    t = type(a)
    known = _HAS_CUDA_ARGS.get(t)
    if known is None:
        known = _HAS_CUDA_ARGS[t] = hasattr(t, "__cuda_args__")
    return known


def _flatten(args):
    """Top-level arguments with __cuda_args__ replaced by what it returns."""
    if not any(map(_is_argument_object, args)):
        return tuple(args)
    out = []
    for a in args:
        out.extend(a.__cuda_args__() if _is_argument_object(a) else (a,))
    return tuple(out)


def _labelled_values(args):
    """(label, value) for the arguments in order, argument objects replaced by the values they
    hold: "0" for argument 0, "1.x" for field x of a struct, "2[0]" for a CudaArguments value."""
    for i, a in enumerate(args):
        if not hasattr(type(a), "__cuda_args__"):
            yield str(i), a
            continue
        st = getattr(type(a), "struct", None)
        values = getattr(a, "_values", None)
        if st is not None and hasattr(a, "pack"):  # CudaStructArguments: its field attributes
            yield from ((f"{i}.{p.name}", getattr(a, p.name, None)) for p in st.fields)
        elif isinstance(values, dict):  # CudaStructValue: the field values it was made of
            yield from ((f"{i}.{k}", v) for k, v in values.items())
        else:  # CudaArguments, or any object with __cuda_args__
            values = a.__cuda_args__() if values is None else values
            yield from ((f"{i}[{j}]", v) for j, v in enumerate(values))


def _inference_values(args):
    """Arguments in order, argument objects replaced by the values they hold (struct fields,
    CudaArguments values), so that launch-size inference finds arrays inside them."""
    return (v for _, v in _labelled_values(args))


def _all_finite(a):
    """True when the device array a holds no NaN or inf."""
    import gpupy

    if isinstance(a, gpupy.ndarray):
        return bool(gpupy.isfinite(a).all())
    from gpupy.cunumpy._backend import to_numpy

    return bool(numpy.isfinite(to_numpy(a)).all())


def _array_shape(a):
    """True for arrays with at least one axis (scalars and 0-d arrays are skipped)."""
    shape = getattr(a, "shape", None)
    return (
        shape is not None
        and not isinstance(a, numpy.generic)
        and len(shape) > 0
        and (hasattr(type(a), "__cuda_array_interface__") or hasattr(a, "device"))
    )
