"""MPI only when the process was started by an MPI launcher, and a size-1 stand-in otherwise
(`xp.mpi.get_mpi()`): one code path for `python run.py` and `mpirun -n 4 python run.py`.

Importing mpi4py.MPI calls MPI_Init, so nothing here imports it unless asked to or launched under
MPI. The stand-in's collectives return or copy what one rank would get; methods it lacks raise
AttributeError instead of silently doing nothing."""

import operator
import os
import socket
import sys
import time
import warnings

from gpupy.cunumpy._mpi_buffers import (
    _ANY_SOURCE,
    _ANY_TAG,
    _IN_PLACE,
    _PROC_NULL,
    _UNDEFINED,
    _alltoallv_part,
    _array_of,
    _check_rank,
    _Constant,
    _copy,
    _displacement,
    _missing,
    _Null,
    _one_item,
)
from gpupy.cunumpy._mpi_self import SelfMessages, SerialRequest

# Per-rank variables that launchers set only in the processes they start. SLURM_PROCID is left
# out: a plain sbatch script has it too, without being an MPI launch.
_LAUNCHER_VARIABLES = (
    "OMPI_COMM_WORLD_RANK",  # Open MPI
    "PMI_RANK",  # MPICH, Intel MPI, Cray, srun --mpi=pmi2
    "PMIX_RANK",  # PMIx: srun --mpi=pmix, Open MPI 5
    "MV2_COMM_WORLD_RANK",  # MVAPICH2
    "MPI_LOCALRANKID",  # Hydra
    "ALPS_APP_PE",  # Cray ALPS
    "PALS_RANKID",  # Cray PALS
)
# The node-local rank, set before MPI_Init so that a device can be chosen before MPI starts.
_LOCAL_RANK_VARIABLES = (
    "OMPI_COMM_WORLD_LOCAL_RANK",
    "MV2_COMM_WORLD_LOCAL_RANK",
    "MPI_LOCALRANKID",
    "PMI_LOCAL_RANK",
    "PALS_LOCAL_RANKID",
    "SLURM_LOCALID",
    "LOCAL_RANK",
)
OVERRIDE_VARIABLE = "CUNUMPY_MPI"  # 1/true/yes/on or 0/false/no/off forces launched_under_mpi()


def _env_flag(name):
    value = os.environ.get(name, "").strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    return None


def local_rank():
    """This process's rank within its node, from the first launcher variable that holds a
    decimal number (surrounding spaces allowed), else 0; works before MPI_Init and never imports
    mpi4py. xp.cuda.bind_local_device picks its device with it."""
    for name in _LOCAL_RANK_VARIABLES:
        value = os.environ.get(name, "").strip()
        if value.isascii() and value.isdigit():
            return int(value)
    return 0


def launched_under_mpi():
    """Whether an MPI launcher started this process (its per-rank variables are set), or the
    application already initialised MPI; CUNUMPY_MPI overrides. Never imports mpi4py."""
    override = _env_flag(OVERRIDE_VARIABLE)
    if override is not None:
        return override
    if any(name in os.environ for name in _LAUNCHER_VARIABLES):
        return True
    mpi = sys.modules.get("mpi4py.MPI")
    return bool(mpi is not None and mpi.Is_initialized())


_auto_mpi = None  # get_mpi(None)'s answer, decided once per process


def get_mpi(use_mpi=None):
    """mpi4py.MPI for an MPI run, else the serial stand-in (the one SerialMPI instance). None
    decides once with launched_under_mpi(); True imports mpi4py (ImportError without it); False
    never does."""
    global _auto_mpi
    if use_mpi is True:
        from mpi4py import MPI

        return MPI
    if use_mpi is False:
        return _SERIAL
    if _auto_mpi is None:
        _auto_mpi = _SERIAL
        if launched_under_mpi():
            try:
                from mpi4py import MPI

                _auto_mpi = MPI
            except ImportError:
                warnings.warn(
                    "launched under an MPI launcher, but mpi4py is not installed: every process "
                    "runs alone as rank 0 of 1 (pip install mpi4py)",
                    RuntimeWarning,
                    stacklevel=2,
                )
    return _auto_mpi


def is_serial(mpi_or_comm=None):
    """True for the stand-in (SerialMPI or a SerialComm), or, without an argument, when
    get_mpi() gives the stand-in."""
    if mpi_or_comm is None:
        mpi_or_comm = get_mpi()
    return isinstance(mpi_or_comm, (SerialMPI, SerialComm))


class SerialComm(SelfMessages):
    """A communicator of size 1 with the mpi4py Comm methods a serial run needs: object
    collectives return what one rank gets (`allreduce(x)` is x, `gather(x)` is [x]), buffer
    collectives copy the send buffer into the receive buffer (nothing with IN_PLACE), point to
    point only to and from rank 0 itself or PROC_NULL (Sendrecv copies; Send/Isend queue a copy
    that Recv/Irecv take by tag; a receive nothing matches raises RuntimeError instead of
    hanging). Other methods raise AttributeError."""

    rank = 0
    size = 1

    def __init__(self, name="COMM_WORLD"):
        self._name = name

    def __repr__(self):
        return f"SerialComm({self._name})"

    def __getattr__(self, name):
        raise _missing("SerialComm has no method", name)

    def Get_rank(self):
        return 0

    def Get_size(self):
        return 1

    def Get_name(self):
        return self._name

    def Dup(self):
        return type(self)(self._name)

    Clone = Dup

    def Split(self, color=0, key=0):
        return _SERIAL.COMM_NULL if color == _UNDEFINED else SerialComm(self._name)

    def Create_cart(self, dims, periods=None, reorder=False):
        return SerialCartComm(dims, periods)

    def Free(self):
        pass

    def Abort(self, errorcode=0):
        raise SystemExit(errorcode)

    def Barrier(self):
        pass

    barrier = Barrier

    # object collectives
    def bcast(self, obj, root=0):
        _check_rank("bcast", root, "root")
        return obj

    def reduce(self, sendobj, op=None, root=0):
        _check_rank("reduce", root, "root")
        return sendobj

    def allreduce(self, sendobj, op=None):
        return sendobj

    def scan(self, sendobj, op=None):
        return sendobj

    def exscan(self, sendobj, op=None):
        return None  # undefined on rank 0; mpi4py gives None

    def gather(self, sendobj, root=0):
        _check_rank("gather", root, "root")
        return [sendobj]

    def allgather(self, sendobj):
        return [sendobj]

    def scatter(self, sendobj, root=0):
        _check_rank("scatter", root, "root")
        return _one_item("scatter", sendobj)

    def alltoall(self, sendobj):
        return [_one_item("alltoall", sendobj)]

    def sendrecv(self, sendobj, dest=0, sendtag=0, recvbuf=None, source=0, recvtag=0, status=None):
        _check_rank("sendrecv", dest, "dest")
        _check_rank("sendrecv", source, "source")
        return None if _PROC_NULL in (dest, source) else sendobj

    def iallreduce(self, sendobj, op=None):
        return SerialRequest(sendobj)

    # buffer collectives
    def Bcast(self, buf, root=0):
        _check_rank("Bcast", root, "root")

    def Reduce(self, sendbuf, recvbuf, op=None, root=0):
        _check_rank("Reduce", root, "root")
        _copy("Reduce", sendbuf, recvbuf)

    def Allreduce(self, sendbuf, recvbuf, op=None):
        _copy("Allreduce", sendbuf, recvbuf)

    def Scan(self, sendbuf, recvbuf, op=None):
        _copy("Scan", sendbuf, recvbuf)

    def Exscan(self, sendbuf, recvbuf, op=None):
        pass  # rank 0's receive buffer is undefined

    def Gather(self, sendbuf, recvbuf, root=0):
        _check_rank("Gather", root, "root")
        _copy("Gather", sendbuf, recvbuf)

    def Gatherv(self, sendbuf, recvbuf, root=0):
        _check_rank("Gatherv", root, "root")
        _copy("Gatherv", sendbuf, recvbuf, _displacement(recvbuf))

    def Allgather(self, sendbuf, recvbuf):
        _copy("Allgather", sendbuf, recvbuf)

    def Allgatherv(self, sendbuf, recvbuf):
        _copy("Allgatherv", sendbuf, recvbuf, _displacement(recvbuf))

    def Scatter(self, sendbuf, recvbuf, root=0):
        _check_rank("Scatter", root, "root")
        _copy("Scatter", sendbuf, recvbuf)

    def Scatterv(self, sendbuf, recvbuf, root=0):
        _check_rank("Scatterv", root, "root")
        if recvbuf is _IN_PLACE:
            return
        target = _array_of(recvbuf)
        start = _displacement(sendbuf)
        _copy("Scatterv", _array_of(sendbuf).reshape(-1)[start : start + target.size], target)

    def Alltoall(self, sendbuf, recvbuf):
        _copy("Alltoall", sendbuf, recvbuf)

    def Alltoallv(self, sendbuf, recvbuf):
        if sendbuf is _IN_PLACE:
            return
        src, count, sdispl = _alltoallv_part(sendbuf)
        dst, _, rdispl = _alltoallv_part(recvbuf)
        _copy("Alltoallv", src.reshape(-1)[sdispl : sdispl + count], dst, rdispl)

    def Sendrecv(self, sendbuf, dest=0, sendtag=0, recvbuf=None, source=0, recvtag=0, status=None):
        _check_rank("Sendrecv", dest, "dest")
        _check_rank("Sendrecv", source, "source")
        if dest == _PROC_NULL or source == _PROC_NULL:
            return  # the receive buffer is left alone, as MPI leaves it
        _copy("Sendrecv", sendbuf, recvbuf)

    def Sendrecv_replace(self, buf, dest=0, sendtag=0, source=0, recvtag=0, status=None):
        _check_rank("Sendrecv_replace", dest, "dest")
        _check_rank("Sendrecv_replace", source, "source")


class SerialCartComm(SerialComm):
    """A Cartesian communicator of one rank: every dimension has size 1; Shift gives rank 0 as
    neighbour along periodic dimensions and PROC_NULL along the others."""

    def __init__(self, dims, periods=None):
        super().__init__("COMM_CART")
        try:
            self.dims = [operator.index(d) for d in dims]
        except TypeError:
            raise TypeError(
                f"[Create_cart] dims must be a sequence of integers, got {dims!r}"
            ) from None
        if any(d != 1 for d in self.dims):
            raise ValueError(f"[Create_cart] a serial communicator has 1 rank, dims {self.dims}")
        p = [False] * len(self.dims) if periods is None else [bool(x) for x in periods]
        if len(p) != len(self.dims):
            raise ValueError(f"[Create_cart] {len(self.dims)} dims but {len(p)} periods")
        self.periods = p
        self.coords = [0] * len(self.dims)
        self.ndim = len(self.dims)

    def Get_topo(self):
        return list(self.dims), list(self.periods), list(self.coords)

    def Get_coords(self, rank):
        _check_rank("Get_coords", rank, "rank")
        return list(self.coords)

    def Get_cart_rank(self, coords):
        return 0

    def Shift(self, direction, disp):
        if not 0 <= direction < self.ndim:
            raise ValueError(f"[Shift] direction {direction} of a {self.ndim}-D topology")
        return (0, 0) if self.periods[direction] else (_PROC_NULL, _PROC_NULL)


class SerialMPI:
    """What a serial run needs of the mpi4py.MPI module: COMM_WORLD/COMM_SELF (SerialComm),
    IN_PLACE, reduction ops, datatypes, PROC_NULL/ANY_SOURCE, Wtime, Request; get_mpi() returns
    its one instance. Other names raise AttributeError."""

    PROC_NULL, ANY_SOURCE, ANY_TAG, UNDEFINED = _PROC_NULL, _ANY_SOURCE, _ANY_TAG, _UNDEFINED
    IN_PLACE = _IN_PLACE
    COMM_NULL = _Null("COMM_NULL")
    Request = SerialRequest
    Comm = Intracomm = SerialComm
    Cartcomm = SerialCartComm

    def __init__(self):
        self.COMM_WORLD = SerialComm("COMM_WORLD")
        self.COMM_SELF = SerialComm("COMM_SELF")

    def __repr__(self):
        return "<gpupy.cunumpy.mpi.SerialMPI: a serial stand-in for mpi4py.MPI>"

    def __getattr__(self, name):
        raise _missing("SerialMPI has no attribute", name)

    @staticmethod
    def Wtime():
        return time.perf_counter()

    @staticmethod
    def Wtick():
        return time.get_clock_info("perf_counter").resolution

    @staticmethod
    def Get_processor_name():
        return socket.gethostname()

    @staticmethod
    def Is_initialized():
        return False

    @staticmethod
    def Is_finalized():
        return False


_OPS = ("SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR", "MAXLOC")
_OPS += ("MINLOC", "REPLACE", "NO_OP")
_TYPES = ("BYTE", "CHAR", "BOOL", "C_BOOL", "SHORT", "INT", "LONG", "LONG_LONG", "UNSIGNED")
_TYPES += ("UNSIGNED_LONG", "FLOAT", "DOUBLE", "C_FLOAT_COMPLEX", "C_DOUBLE_COMPLEX", "INT8_T")
_TYPES += ("INT16_T", "INT32_T", "INT64_T", "UINT8_T", "UINT16_T", "UINT32_T", "UINT64_T")
for _name in _OPS + _TYPES:
    setattr(SerialMPI, _name, _Constant(_name))
_SERIAL = SerialMPI()
