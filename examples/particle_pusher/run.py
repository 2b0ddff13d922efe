"""Runs the particle pusher and times it (step 5 of the README). The backend comes from the
environment: CUNUMPY_BACKEND=numpy runs the host kernels, CUNUMPY_BACKEND=gpupy the CUDA kernels
on GPUPY_DEVICE (cuda, or emu without a GPU).

    python run.py --particles 1000000 --steps 100
"""

import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from gpupy import cunumpy as xp  # noqa: E402
from pic.kernels import compile_with_numba, compile_with_pyccel, make_catalog  # noqa: E402
from pic.simulation import Simulation  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--particles", type=int, default=100_000)
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--dt", type=float, default=0.1)
    parser.add_argument("--every", type=int, default=10, help="steps between energy outputs")
    parser.add_argument(
        "--host", choices=("python", "numba", "pyccel"), default="python", help="host kernels"
    )
    args = parser.parse_args(argv)
    compilers = {"numba": compile_with_numba, "pyccel": compile_with_pyccel}
    catalog = make_catalog(compile_host=compilers.get(args.host))
    if xp.get_backend() != "numpy":
        catalog.compile_all(jobs=4)  # compile errors surface now, not inside the time loop
    sim = Simulation(args.particles, catalog=catalog)
    if xp.get_backend() == "numpy":
        sim.step(0.0)  # compiles the host kernels outside the timed loop (dt=0 moves nothing)
    energies = []
    with xp.timed_region("pic") as total:
        for i in range(args.steps):
            with xp.nvtx_range(f"step {i}"):
                sim.step(args.dt)
            if (i + 1) % args.every == 0:
                energies.append(sim.field_energy())
    result = {
        "backend": xp.get_backend(),
        "host_kernels": args.host,
        "particles": args.particles,
        "steps": args.steps,
        "seconds": total.elapsed,
        "seconds_per_step": total.elapsed / max(args.steps, 1),
        "field_energy": energies,
        "kernels": catalog.summary(),
    }
    print(json.dumps(result))
    return result


if __name__ == "__main__":
    main()
