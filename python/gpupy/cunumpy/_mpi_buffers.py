"""The serial MPI stand-in's buffer handling: constants, mpi4py buffer specifications
(`buf`, `[buf, type]`, `[buf, counts, displs, type]`) and the counted copy from a send buffer
into a receive buffer (NumPy or gpupy arrays on any device, or buffer-protocol objects). Host
only."""

import numpy

from gpupy.cunumpy import profiling
from gpupy.cunumpy._backend import is_gpu, to_numpy


class _Constant:
    """A named stand-in for an MPI constant (an op, a datatype, IN_PLACE)."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"SerialMPI.{self.name}"


class _Null(_Constant):
    """A null handle: false, as mpi4py's are."""

    __slots__ = ()

    def __bool__(self):
        return False


_IN_PLACE = _Constant("IN_PLACE")
_PROC_NULL, _ANY_SOURCE, _ANY_TAG, _UNDEFINED = -2, -1, -1, -32766


def _array_of(spec):
    """The array of an mpi4py buffer specification: `buf`, `[buf, type]`,
    `[buf, counts, displs, type]`."""
    return spec[0] if isinstance(spec, (list, tuple)) else spec


def _displacement(spec):
    """Rank 0's displacement in a vector buffer specification (0 when there is none)."""
    if isinstance(spec, (list, tuple)) and len(spec) >= 3:
        displs = spec[2]
        if displs is not None and not isinstance(displs, _Constant):
            return int(displs[0])
    return 0


def _flat_view(a, op):
    if not a.flags.c_contiguous:
        raise ValueError(f"[{op}] the receive buffer must be C-contiguous")
    return a.reshape(-1)


def _as_array(op, buf, which):
    """An array (NumPy or device) as it is; another buffer-protocol object (bytearray, memoryview)
    as a NumPy view of its memory, as mpi4py reads it; TypeError naming op for anything else."""
    if hasattr(buf, "dtype") and hasattr(buf, "reshape"):
        return buf
    try:
        return numpy.asarray(memoryview(buf))
    except TypeError:
        raise TypeError(
            f"[{op}] the {which} buffer must be an array or a buffer ([buf, ...] in mpi4py's "
            f"buffer specifications), got {type(buf).__name__}"
        ) from None


def _copy(op, source, target, offset=0):
    """Copies the elements of `source` into `target` from `offset` on, both read flat in C
    order; NumPy and device arrays mix (an explicit copy, as a CUDA-aware MPI would make)."""
    source, target = _array_of(source), _array_of(target)
    if target is None:  # mpi4py's TypeError: one rank is every root and needs a receive buffer
        raise TypeError(f"[{op}] the receive buffer is None: expecting buffer or list/tuple")
    if source is _IN_PLACE or source is None or target is _IN_PLACE:  # mpi4py takes a None send
        return
    source, target = _as_array(op, source, "send"), _as_array(op, target, "receive")
    if str(source.dtype) != str(target.dtype):
        raise TypeError(
            f"[{op}] the send buffer holds {source.dtype}, the receive buffer {target.dtype}"
        )
    flat, src = _flat_view(target, op), source.reshape(-1)
    if offset + src.size > flat.size:
        raise ValueError(
            f"[{op}] the receive buffer holds {flat.size} elements, {src.size} arrive at "
            f"offset {offset}"
        )
    _counted_copy(op, src, flat, offset)


def _counted_copy(op, src, flat, offset):
    """flat[offset:offset + src.size] = src; a copy between host and device memory is counted."""
    if is_gpu(src) and not is_gpu(flat):
        src = to_numpy(src)  # counted as to_host
    elif profiling._active and is_gpu(flat) and not is_gpu(src):
        desc = f"SerialComm.{op}: a host buffer copied into a device buffer"
        profiling.record("to_device", desc, src.nbytes)
    flat[offset : offset + src.size] = src


def _missing(what, name):
    """The AttributeError for a name the stand-in lacks (dunders: the plain one, for protocols)."""
    if name.startswith("__"):
        return AttributeError(name)
    return AttributeError(
        f"{what} {name!r}: the serial stand-in covers the collectives, point-to-point messages to "
        "itself and Cartesian topologies of one rank; run under an MPI launcher with mpi4py "
        "installed for the rest"
    )


def _check_rank(op, rank, what):
    if rank not in (0, _PROC_NULL, _ANY_SOURCE):
        raise ValueError(f"[{op}] {what}={rank}: a serial communicator has only rank 0")


def _alltoallv_part(spec):
    """(array, count, displacement) of rank 0 in `[buf, counts, displs, type]`; a plain buffer or
    `[buf, type]` is all of it."""
    a = _array_of(spec)
    if isinstance(spec, (list, tuple)) and len(spec) >= 3:
        counts = spec[1]
        count = int(counts if isinstance(counts, int) else counts[0])
        return a, count, _displacement(spec)
    return a, a.size, 0


def _one_item(op, items):
    items = list(items)
    if len(items) != 1:
        raise ValueError(f"[{op}] a serial communicator takes 1 item, got {len(items)}")
    return items[0]
