"""Runs a host library (NumPy's LAPACK-backed linalg, its pocketfft-backed fft) on gpupy arrays.

cpu and emu arrays both live in host memory, so the library reads them through zero-copy NumPy
views and its results come back as gpupy arrays on the input's device. cuda arrays never take
this path: gpupy.fft and gpupy.linalg send them to cuFFT and cuSOLVER (see ``on_cuda``), since a
silent copy to the host and back would hide the cost from the user.
"""

import numpy

from gpupy import _core
from gpupy._creation import asarray
from gpupy._utilities import check_operands, renamed_error


def target_device(op, arrays):
    """The device of the gpupy arrays among ``arrays`` (else the default device); raises on
    arrays from different devices."""
    device = None
    for a in arrays:
        if not isinstance(a, _core.ndarray):
            continue
        if device is None:
            device = a.device
        elif a.device != device:
            devices = {a.device for a in arrays if isinstance(a, _core.ndarray)}
            names = ", ".join(sorted(f"'{d}'" for d in devices))
            raise ValueError(
                f"[{op}] the arrays are on different devices ({names}); move them first"
            )
    return _core.default_device() if device is None else device


def device_arrays(op, *values, optional=()):
    """``values`` as gpupy arrays on one device: that of the gpupy arrays among them (else the
    default device). None stays None at the positions in ``optional`` (optional arguments such as
    weights=) and raises elsewhere (check_operands); gpupy arrays are returned as they are."""
    check_operands(op, values, optional)
    device = target_device(op, values)
    return [
        v if v is None or isinstance(v, _core.ndarray) else asarray(v, device=device)
        for v in values
    ]


def on_cuda(op, *arrays):
    """None when ``arrays`` belong on a host device (run them with ``run``); otherwise a tuple of
    them as gpupy arrays on their cuda device, for the cuFFT / cuSOLVER path. A None among them
    raises (check_operands) on every device."""
    if len(arrays) == 1 and isinstance(arrays[0], _core.ndarray):  # the answer below, 0.5 us sooner
        return None if arrays[0].device.type in ("cpu", "emu") else (arrays[0],)
    check_operands(op, arrays)
    device = target_device(op, arrays)
    if device.type in ("cpu", "emu"):
        return None
    return tuple(asarray(a, device=device) for a in arrays)


def host_view(x):
    """A NumPy array over a gpupy array's host memory (no copy); other inputs via numpy.asarray."""
    if isinstance(x, _core.ndarray):
        return _core._host_view(x)
    return numpy.asarray(x)


def wrap(result, device):
    """Library results (arrays, NumPy scalars, tuples and named tuples of them) as gpupy arrays."""
    if isinstance(result, tuple):
        items = [wrap(r, device) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    if isinstance(result, numpy.ndarray) and not result.flags.c_contiguous:
        return asarray(result, device=device)  # which keeps an F order on emu too
    return _core._asarray(result, None, device)


def run(op, fn, *arrays, **kwargs):
    """``fn(*arrays, **kwargs)`` on host views of ``arrays`` (and of gpupy arrays passed as
    keyword arguments, e.g. an array ``rtol``), results on the arrays' device (cpu or emu; see
    ``on_cuda`` for cuda)."""
    device = target_device(op, (*arrays, *kwargs.values()))
    if device.type not in ("cpu", "emu"):
        raise NotImplementedError(f"[{op}] has no implementation on '{device}'")
    for k, v in kwargs.items():
        if isinstance(v, _core.ndarray):
            kwargs[k] = host_view(v)
    views = [host_view(a) for a in arrays]
    try:
        result = fn(*views, **kwargs)
    except numpy.linalg.LinAlgError as exc:  # named as on cuda: "[linalg.inv] Singular matrix"
        if str(exc).startswith("["):
            raise
        raise numpy.linalg.LinAlgError(f"[{op}] {exc}") from exc
    except Exception as exc:  # noqa: BLE001 - NumPy's errors get the operation name
        renamed = renamed_error(op, exc)
        if renamed is exc:
            raise
        raise renamed from exc
    return wrap(result, device)
