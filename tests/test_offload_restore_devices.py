"""Restoring an offload reference to a device node: what the spec cannot set up without privileges.

A character device such as ``/dev/zero`` never ends; read whole it exhausts memory. Creating one needs
root (``mknod``), so this runs only there, with the same 10 s bound as the spec's FIFO scenario.
"""

from __future__ import annotations

import logging
import os
import stat
import threading
from pathlib import Path
from typing import Any

import pytest

from synapse_ref.context.compactor import ContextCompactor
from synapse_ref.context.offload_storage import OffloadStorage
from synapse_ref.llm.scripted import ScriptedLLM


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mknod needs root")
def test_a_character_device_in_the_offload_directory_is_not_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="synapse")
    storage = OffloadStorage(tmp_path / "session")
    storage.offloaded_dir.mkdir(parents=True)
    device = storage.offloaded_dir / "zero"
    os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 5))  # the device /dev/zero is
    compactor = ContextCompactor(
        storage,
        ScriptedLLM("summary-model"),
        token_counter=None,
        preserve_count=5,
        target_tokens=10,
        retry_count=1,
        model=None,
        sleep=None,
    )
    reference = {
        "role": "tool",
        "toolCallId": "c1",
        "content": [{"type": "text", "text": f"Tool result is at: {device}"}],
    }
    outcome: dict[str, Any] = {}
    worker = threading.Thread(
        target=lambda: outcome.update(restored=compactor.restore_offloaded_content([reference])), daemon=True
    )
    worker.start()
    worker.join(10)
    assert not worker.is_alive(), "restoring a character device did not return within 10 s"
    assert outcome["restored"] == [reference], "a device is not an offload file: the reference stays"
    assert any(str(device) in r.getMessage() for r in caplog.records), "a warning should name the reference"
