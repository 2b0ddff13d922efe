"""Runs the ```python examples of docs/cuda_kernels.md, in order, in one namespace, on emu."""

import pathlib
import re

import pytest

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "cuda_kernels.md"


def test_guide_examples_run(device_name):
    if device_name != "emu":
        pytest.skip("the guide's kernels run on --device=emu here")
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) >= 6
    namespace = {}
    for k, code in enumerate(blocks):
        exec(compile(code, f"{DOC.name}[python block {k}]", "exec"), namespace)  # noqa: S102
