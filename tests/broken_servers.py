"""Implementations with one rule broken, served over the wire by ``python -m synapse_ref.server --impl``.

Each breaks a rule that the spec can only see from outside the implementation's process: how much a call
reads, which files it opens, what it does when a delete really fails.  ``tests/test_wire.py`` runs the
scenarios of each rule against them over the wire and expects those scenarios to fail.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable
from pathlib import Path

from synapse_ref.adapter import ReferenceImplementation
from synapse_ref.context.compactor import ContextCompactor
from synapse_ref.skills.conversation_reader import ConversationReader, ConversationTurn
from synapse_spec import contract

logger = logging.getLogger("synapse.context.compactor")


class WholeFileReader(ConversationReader):
    """Reads the whole file before taking its tail: right turns, 64 MiB read for a 1 000-character tail."""

    def read_truncated(self, file_path: str | Path, max_chars: int) -> list[ConversationTurn]:
        if max_chars > 0:
            Path(file_path).read_bytes()
        return super().read_truncated(file_path, max_chars)


class SymlinkFollowingCompactor(ContextCompactor):
    """Checks the reference's path without resolving symbolic links and opens it as any path, so a link
    inside the offload directory that points outside is followed and its target read."""

    def normalize_offloaded_filepath(self, filepath: str) -> str | None:
        base = os.path.abspath(self.storage.offloaded_dir)
        resolved = os.path.abspath(filepath)
        if os.path.commonpath([base, resolved]) != base or resolved == base:
            logger.warning("Skipping offload restore for out-of-scope path: %s", filepath)
            return None
        return resolved

    def read_offloaded_file(self, resolved: str, limit: int) -> str:
        return Path(resolved).read_text(encoding="utf-8")


class FirstFailureStopsCleanup(ContextCompactor):
    """Gives up the whole cleanup at the first file it cannot delete (logging it)."""

    def cleanup_offloaded_files(self, retained: Iterable[str] = ()) -> list[str]:
        keep = {os.path.realpath(p) for p in retained}
        deleted: list[str] = []
        for file in self.storage.list_files():
            if os.path.realpath(file) in keep:
                continue
            try:
                self.storage.remove(file)
            except OSError as exc:
                logger.warning("Failed to delete offloaded file during compact cleanup: %s (%s)", file, exc)
                break
            deleted.append(file)
        return deleted


class _Swapped(ReferenceImplementation):
    compactor_class: type[ContextCompactor] = ContextCompactor

    def context_compactor(
        self,
        storage: contract.OffloadStorage,
        llm: contract.LLMClient,
        *,
        token_counter: contract.TokenCounter | None = None,
        preserve_count: int = 5,
        target_tokens: int = 8000,
        retry_count: int = 3,
        model: str | None = None,
        sleep: contract.Sleep | None = None,
    ) -> contract.ContextCompactor:
        return self.compactor_class(
            storage,
            llm,
            token_counter=token_counter,
            preserve_count=preserve_count,
            target_tokens=target_tokens,
            retry_count=retry_count,
            model=model,
            sleep=sleep,
        )


class WholeFileReaderImplementation(ReferenceImplementation):
    name = "broken-whole-file-tail-read"

    def conversation_reader(self) -> contract.ConversationReader:
        return WholeFileReader()


class SymlinkFollowingImplementation(_Swapped):
    name = "broken-symlink-restore"
    compactor_class = SymlinkFollowingCompactor


class FirstFailureStopsImplementation(_Swapped):
    name = "broken-cleanup-stops"
    compactor_class = FirstFailureStopsCleanup


def whole_file_tail_read() -> WholeFileReaderImplementation:
    return WholeFileReaderImplementation()


def symlink_following_restore() -> SymlinkFollowingImplementation:
    return SymlinkFollowingImplementation()


def cleanup_stops_at_first_failure() -> FirstFailureStopsImplementation:
    return FirstFailureStopsImplementation()


class CrashingImplementation(ReferenceImplementation):
    """Dies (exit status 3, a last word on stderr) when asked for a conversation reader."""

    name = "crashing"

    def conversation_reader(self) -> contract.ConversationReader:
        import sys

        sys.stderr.write("about to die on purpose\n")
        sys.stderr.flush()
        os._exit(3)


def crashes_on_reader() -> CrashingImplementation:
    return CrashingImplementation()


class HangingImplementation(ReferenceImplementation):
    """Never answers when asked for a conversation reader (a call stuck in a loop)."""

    name = "hanging"

    def conversation_reader(self) -> contract.ConversationReader:
        import time

        time.sleep(3600)
        raise AssertionError("unreachable")


def hangs_on_reader() -> HangingImplementation:
    return HangingImplementation()
