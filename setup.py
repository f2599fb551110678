"""Puts the spec itself (features, steps, fixtures and the conftest.py that loads them) into the wheel.

The repository keeps them at its top level, where ``pytest features/`` finds them; the wheel carries them
under ``synapse_spec/_spec/`` so that ``synapse-spec run`` works from any directory once installed.
Editable installs skip the copy: there the plugin finds them in the checkout.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

SPEC_PARTS = ("features", "steps", "fixtures", "conftest.py")
ROOT = Path(__file__).resolve().parent


class BuildPyWithSpec(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib, "synapse_spec", "_spec")
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        ignore = shutil.ignore_patterns("__pycache__", "*.py[cod]")
        for part in SPEC_PARTS:
            source = ROOT / part
            if source.is_dir():
                shutil.copytree(source, target / part, ignore=ignore)
            else:
                shutil.copy2(source, target / part)


setup(cmdclass={"build_py": BuildPyWithSpec})
