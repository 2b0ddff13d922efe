"""Runs the ```python examples of docs/cuda_device.md, in order, in one namespace, on the
session's device; blocks that start with "# needs a GPU" run only with --device=cuda."""

import pathlib
import re

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "cuda_device.md"
GPU_ONLY = "# needs a GPU\n"


def test_guide_examples_run(device_name, capsys):
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 6
    assert sum(b.startswith(GPU_ONLY) for b in blocks) == 4
    namespace = {}
    for k, code in enumerate(blocks):
        if code.startswith(GPU_ONLY) and device_name != "cuda":
            continue
        exec(compile(code, f"{DOC.name}[python block {k}]", "exec"), namespace)  # noqa: S102
    # The first block chose where the rest ran: the GPU when there is one, else emu.
    assert namespace["device"] == ("cuda" if namespace["gpupy"].cuda.is_available() else "emu")
    assert "use .get() or gpupy.asnumpy()" in capsys.readouterr().out
