"""A PEP 517 / PEP 660 build backend for pytest-mockllm-server, standard library only.

`pip install ./python` then needs no build dependency from a package index: setuptools (before 70.1) wants the
`wheel` package, hatchling and flit_core are not in a bare Python, and the machines that run this repo's tests
may have no PyPI. The package is pure Python under src/, so a wheel is a zip of it plus the metadata below.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tarfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "pytest_mockllm_server"


def _read_pyproject() -> Dict[str, Any]:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    try:
        import tomllib  # Python 3.11+

        return tomllib.loads(text)
    except ImportError:
        return _parse_simple_toml(text)


def _parse_simple_toml(text: str) -> Dict[str, Any]:
    """Enough TOML for this package's own pyproject.toml: tables, and one-line strings or string arrays."""
    doc: Dict[str, Any] = {}
    table = doc
    for raw in text.splitlines():
        line = raw.strip()
        if line == "" or line.startswith("#"):
            continue
        if line.startswith("["):
            table = doc
            for part in line.strip("[]").split("."):
                table = table.setdefault(part, {})
            continue
        key, _, value = line.partition("=")
        table[key.strip().strip('"')] = json.loads(value.strip())
    return doc


def _project() -> Dict[str, Any]:
    return _read_pyproject()["project"]


def _dist_name() -> str:
    return str(_project()["name"]).replace("-", "_")


def _dist_info() -> str:
    return f"{_dist_name()}-{_project()['version']}.dist-info"


def _metadata() -> str:
    p = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {p['name']}", f"Version: {p['version']}", f"Summary: {p['description']}"]
    if isinstance(p.get("license"), str):
        lines.append(f"License: {p['license']}")
    lines.append(f"Requires-Python: {p['requires-python']}")
    lines += [f"Requires-Dist: {d}" for d in p.get("dependencies", [])]
    lines += [f"Classifier: {c}" for c in p.get("classifiers", [])]
    readme = ROOT / str(p.get("readme", "README.md"))
    if readme.exists():
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + readme.read_text(encoding="utf-8")
    return "\n".join(lines) + "\n"


def _entry_points() -> str:
    out: List[str] = []
    for group, entries in _project().get("entry-points", {}).items():
        out.append(f"[{group}]")
        out += [f"{name} = {target}" for name, target in entries.items()]
        out.append("")
    return "\n".join(out)


def _package_files() -> List[Tuple[str, bytes]]:
    src = ROOT / "src"
    files = []
    for path in sorted((src / PACKAGE).rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files.append((path.relative_to(src).as_posix(), path.read_bytes()))
    return files


def _write_wheel(directory: str, files: List[Tuple[str, bytes]]) -> str:
    info = _dist_info()
    files = files + [
        (f"{info}/METADATA", _metadata().encode()),
        (f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: mockllm_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
        (f"{info}/entry_points.txt", _entry_points().encode()),
        (f"{info}/top_level.txt", f"{PACKAGE}\n".encode()),
    ]
    record = []
    for name, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files.append((f"{info}/RECORD", ("\n".join(record) + "\n").encode()))
    wheel_name = f"{_dist_name()}-{_project()['version']}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, wheel_name), "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files:
            zf.writestr(zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return wheel_name


def build_wheel(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    return _write_wheel(wheel_directory, _package_files())


def build_editable(wheel_directory: str, config_settings: Optional[Dict[str, Any]] = None, metadata_directory: Optional[str] = None) -> str:
    pth = f"{_dist_name()}.pth"
    return _write_wheel(wheel_directory, [(pth, (str(ROOT / "src") + "\n").encode())])


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    base = f"{_dist_name()}-{_project()['version']}"
    name = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as tar:
        for rel in ["pyproject.toml", "README.md", "_build/mockllm_build.py"]:
            if (ROOT / rel).exists():
                tar.add(str(ROOT / rel), arcname=f"{base}/{rel}")
        for rel, _ in _package_files():
            tar.add(str(ROOT / "src" / rel), arcname=f"{base}/src/{rel}")
        pkg_info = _metadata().encode()
        ti = tarfile.TarInfo(f"{base}/PKG-INFO")
        ti.size = len(pkg_info)
        tar.addfile(ti, io.BytesIO(pkg_info))
    return name
