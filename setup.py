"""The wheel's build step: carry the app's shared files inside the package.

`make dist` (python -m build) runs it. Templates, static files and the translations (compiled
to .mo here, French typography included: lessons/catalogs.py) are copied into
`unoclass/_share/` of the wheel, where the settings look when no checkout is around
(unoclass/settings.py, SHARE_DIR). An editable install (`pip install -e .`) copies nothing: the
checkout's own folders serve.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHARED_FOLDERS = ("templates", "static", "locale")


class BuildWithSharedFiles(build_py):
    """Build the packages, then copy the shared folders into unoclass/_share/."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        share = Path(self.build_lib) / "unoclass" / "_share"
        for name in SHARED_FOLDERS:
            shutil.rmtree(share / name, ignore_errors=True)
            shutil.copytree(ROOT / name, share / name, ignore=shutil.ignore_patterns("*.mo"))
        sys.path.insert(0, str(ROOT))
        from lessons.catalogs import compile_catalog

        for po_path in sorted((share / "locale").rglob("*.po")):
            compile_catalog(po_path)
            po_path.unlink()


setup(cmdclass={"build_py": BuildWithSharedFiles})
