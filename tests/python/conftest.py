"""Runs the whole suite on the device given by --device=cpu|emu|cuda (default cpu)."""

import os

import gpupy
import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--device",
        default="cpu",
        choices=["cpu", "emu", "cuda"],
        help="gpupy device every test runs on",
    )


def _device_unavailable(name):
    if name == "cuda":
        ok, reason = gpupy._core.cuda_is_available()
        return None if ok else f"no usable CUDA device: {reason}"
    if name == "emu":
        try:
            gpupy.zeros(1, device="emu")
        except NotImplementedError as exc:
            return str(exc)
    return None


def pytest_configure(config):
    # A plain "shuffle" draws its seed here, once, so that pytest-xdist's workers (which inherit
    # the environment) share it and the header below can name it for a replay.
    if os.environ.get("GPUPY_EMU_SCHEDULE") == "shuffle":
        os.environ["GPUPY_EMU_SCHEDULE"] = f"shuffle:{int.from_bytes(os.urandom(4), 'little')}"


def pytest_report_header(config):
    if config.getoption("--device") == "emu" and os.environ.get("GPUPY_EMU_SCHEDULE"):
        return f"emu schedule: GPUPY_EMU_SCHEDULE={gpupy._core._emu_schedule()}"
    return None


@pytest.fixture(scope="session")
def device_name(request):
    name = request.config.getoption("--device")
    reason = _device_unavailable(name)
    if reason:
        pytest.skip(reason)
    return name


@pytest.fixture
def kernel_device(device_name):
    """The device CudaKernel launches run on (emu, or cuda with a GPU); other devices skip."""
    if device_name not in ("emu", "cuda"):
        pytest.skip("CudaKernel launches need --device=emu or --device=cuda")
    return device_name


@pytest.fixture(autouse=True)
def _on_device(device_name):
    """Makes the chosen device the default for the test, so xp.asarray(...) lands there."""
    with gpupy.Device(device_name):
        yield


class _ProgressLog:
    """Writes failures as they happen, and running counts, to GPUPY_PROGRESS_LOG.

    tools/gpu_check.sh runs the suite under a time limit on a borrowed GPU machine; when the limit
    kills pytest before its summary, this file still says how far it got and what failed.
    """

    def __init__(self, path):
        self.path = path
        self.counts = {"passed": 0, "failed": 0, "skipped": 0}
        with open(path, "w") as f:
            f.write("counts: none yet\n")

    def record(self, report):
        if report.failed:
            outcome = "failed"
            crash = getattr(report.longrepr, "reprcrash", None)
            message = crash.message if crash else str(report.longrepr)
            message = " ".join(message.split())[:300]
            with open(self.path, "a") as f:
                f.write(f"FAILED {report.nodeid} ({report.when}): {message}\n")
        elif report.skipped:
            outcome = "skipped"
        elif report.when == "call":
            outcome = "passed"
        else:
            return
        self.counts[outcome] += 1
        if sum(self.counts.values()) % 250 == 0:
            self.write_counts()

    def write_counts(self):
        with open(self.path) as f:
            failures = [line for line in f if line.startswith("FAILED ")]
        counts = ", ".join(f"{n} {k}" for k, n in self.counts.items())
        with open(self.path, "w") as f:
            f.write(f"counts: {counts}\n")
            f.writelines(failures)


_progress = None
# Only the process that sees every report writes: xdist's workers forward theirs to it.
if os.environ.get("GPUPY_PROGRESS_LOG") and not os.environ.get("PYTEST_XDIST_WORKER"):
    _progress = _ProgressLog(os.environ["GPUPY_PROGRESS_LOG"])


def pytest_runtest_logreport(report):
    if _progress is not None:
        _progress.record(report)


def pytest_sessionfinish(session):
    if _progress is not None:
        _progress.write_counts()
