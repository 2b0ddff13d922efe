"""Run by test_cunumpy_mpi.py under `mpirun -n 2` when an MPI and mpi4py are installed: the real
mpi4py path of xp.mpi (host buffers, gpupy cpu arrays through the buffer protocol, the
CUDA-aware probe and host staging with emu arrays) and particle_recipes.exchange on NumPy, cpu
and emu arrays. Prints one OK line per rank."""

import pathlib
import sys

import gpupy
import numpy
from gpupy import cunumpy as xp

assert "mpi4py" not in sys.modules, "import gpupy.cunumpy must not import mpi4py"
assert xp.mpi.launched_under_mpi()
MPI = xp.mpi.get_mpi()
assert not xp.mpi.is_serial(MPI)
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
dest, source = (rank + 1) % size, (rank - 1) % size

s = numpy.arange(3.0) + 10 * rank
total = numpy.zeros(3)
comm.Allreduce(s, total, op=MPI.SUM)
assert numpy.array_equal(total, sum(numpy.arange(3.0) + 10 * k for k in range(size))), total

# a periodic halo with non-blocking calls: the code the serial stand-in also runs on one rank
cart = comm.Create_cart([size], periods=[True])
left, right = cart.Shift(0, 1)
halo = numpy.zeros(2)
reqs = [cart.Irecv(halo, source=left, tag=7), cart.Isend(numpy.full(2, rank + 0.5), right, tag=7)]
MPI.Request.Waitall(reqs)
assert numpy.array_equal(halo, numpy.full(2, left + 0.5)), halo

hc = gpupy.asarray(numpy.arange(4.0) + rank, device="cpu")
hr = gpupy.zeros(4, device="cpu")
with xp.mpi.mpi_buffer(hc) as sb, xp.mpi.mpi_buffer(hr, send=False, recv=True) as rb:
    assert sb is hc and rb is hr  # host arrays go to MPI as they are
    comm.Sendrecv(sb, dest, recvbuf=rb, source=source)
assert numpy.array_equal(gpupy.asnumpy(hr), numpy.arange(4.0) + source)

with xp.use_backend("gpupy"), gpupy.Device("emu"):
    # mpi4py cannot read emu memory (neither the buffer protocol nor a CUDA pointer): not aware
    aware = xp.mpi.mpi_is_cuda_aware(comm)
    assert aware is False and xp.mpi.get_mpi_cuda_aware() is False
    d = gpupy.asarray(numpy.arange(5.0) * (rank + 1), device="emu")
    e = gpupy.zeros(5, device="emu")
    staging = xp.mpi.MPIStaging(5, numpy.float64)
    with xp.count_transfers() as c:
        for _ in range(2):
            with xp.mpi.mpi_buffer(d) as sb, staging.buffer(e, send=False, recv=True) as rb:
                comm.Sendrecv(sb, dest, recvbuf=rb, source=source)
    assert numpy.array_equal(gpupy.asnumpy(e), numpy.arange(5.0) * (source + 1))
    assert (c.to_host, c.to_device) == (2, 2), c.events

# particle_recipes.exchange: every rank sends rows to every rank (itself too); the rows a rank
# receives are each source's rows for it, sources in rank order, rows in the sender's order
sys.path.insert(
    0, str(pathlib.Path(__file__).resolve().parents[2] / "examples" / "particle_pusher")
)
import particle_recipes  # noqa: E402


def rank_data(r):
    rng = numpy.random.default_rng(100 + r)
    n = 40 + 7 * r
    return rng.normal(size=(n, 3)), rng.integers(0, size, n)


markers, destination = rank_data(rank)
want = numpy.concatenate([m[d == rank] for m, d in map(rank_data, range(size))])
for backend, device in (("numpy", None), ("gpupy", "cpu"), ("gpupy", "emu")):
    with xp.use_backend(backend), gpupy.Device(device or "cpu"):
        m, d = xp.to_cunumpy(markers), xp.to_cunumpy(destination)
        with xp.count_transfers() as c:
            got = particle_recipes.exchange(comm, m, d)
        assert xp.get_array_backend(got) == backend and got.shape == want.shape, got.shape
        if device == "emu":  # MPI is not CUDA-aware here: the counts, the rows down and up
            assert str(got.device) == "emu" and (c.to_host, c.to_device) == (2, 1), c.events
        assert numpy.array_equal(xp.to_numpy(got), want), (backend, device)
print(f"rank {rank} of {size} OK")
