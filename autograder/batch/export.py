"""Read a Gradescope "Export Submissions" folder or zip into a sorted list of submissions.

Gradescope's export holds ``submission_metadata.yml`` next to one ``submission_<id>``
folder per submission. The YAML is written by Ruby, so its keys are symbols
(``:submitters:``, ``:name:``)::

    submission_123456:
      :submitters:
      - :name: Ada Lovelace
        :sid: '3031234567'
        :email: ada@example.edu
      :created_at: 2024-03-01 20:15:42.123456000 -08:00
      :score: 87.0

Keys with or without the leading colon are accepted. Without a metadata file, every
visible subfolder or file of the export is one submission, named after it.
PyYAML is optional: without it a minimal reader extracts exactly these fields.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from autograder.intake.modules import loose_files

METADATA = "submission_metadata.yml"
_IGNORED = {"__MACOSX", "__pycache__", METADATA}


class ExportError(Exception):
    """The export cannot be read (message for the TA)."""


@dataclass(frozen=True)
class Submitter:
    name: str = ""
    email: str = ""
    sid: str = ""


@dataclass
class Submission:
    """One submission to grade. ``path`` is None when the metadata lists a folder that is absent."""

    id: str
    path: Path | None
    submitters: tuple[Submitter, ...] = ()
    created_at: str = ""
    export_score: float | None = None

    @property
    def names(self) -> str:
        return "; ".join(s.name for s in self.submitters)

    @property
    def emails(self) -> str:
        return "; ".join(s.email for s in self.submitters)

    @property
    def sids(self) -> str:
        return "; ".join(s.sid for s in self.submitters)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "path": str(self.path) if self.path else None,
            "submitters": [vars(s) for s in self.submitters],
            "created_at": self.created_at,
            "export_score": self.export_score,
        }

    @classmethod
    def from_json(cls, data: dict) -> Submission:
        return cls(
            id=data["id"],
            path=Path(data["path"]) if data.get("path") else None,
            submitters=tuple(Submitter(**s) for s in data.get("submitters", [])),
            created_at=data.get("created_at", ""),
            export_score=data.get("export_score"),
        )


@dataclass
class Export:
    root: Path
    submissions: list[Submission]
    metadata: Path | None = None
    notes: list[str] = field(default_factory=list)


def open_export(path: Path, workdir: Path) -> Export:
    """Read the export at ``path`` (a folder or a .zip, extracted under ``workdir``)."""
    if not path.exists():
        raise ExportError(f"{path} does not exist")
    if path.is_file():
        if not zipfile.is_zipfile(path):
            raise ExportError(f"{path} is neither a folder nor a zip file")
        path = extract_zip(path, workdir / "export")
    root, metadata = find_root(path)
    notes: list[str] = []
    if metadata is None:
        submissions = [s for s in _from_listing(root) if not _same(s.path, workdir)]
        notes.append(f"no {METADATA}: {len(submissions)} submissions named after the folders/files of {root}")
    else:
        entries, note = read_metadata(metadata)
        notes += [note] if note else []
        submissions = _from_metadata(root, entries, notes)
    submissions = [s for s in submissions if not _same(s.path, workdir)]
    if not submissions:
        raise ExportError(f"no submissions found in {path}")
    submissions.sort(key=lambda s: sort_key(s.id))
    return Export(root=root, submissions=submissions, metadata=metadata, notes=notes)


def extract_zip(path: Path, destination: Path) -> Path:
    """Extract ``path`` into ``destination``, refusing entries that escape it.

    A rerun with the same zip (path, size, modification time) reuses the extraction.
    """
    stat = path.stat()
    stamp = f"{path.resolve()}|{stat.st_size}|{stat.st_mtime_ns}"
    marker = destination / ".extracted-from"
    if marker.is_file() and marker.read_text() == stamp:
        return destination
    if destination.exists():
        shutil.rmtree(destination)
    destination.mkdir(parents=True)
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            parts = PurePosixPath(info.filename.replace("\\", "/")).parts
            if not parts or info.filename.startswith("/") or ".." in parts:
                continue  # absolute or escaping names: never written
            target = destination.joinpath(*parts)
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
    marker.write_text(stamp)
    return destination


def find_root(folder: Path) -> tuple[Path, Path | None]:
    """The folder holding the submissions and its metadata file, if any.

    Gradescope's zip wraps everything in one folder (``assignment_<id>_export/``): a
    lone top-level folder that holds folders, or loose per-student files (``loose_files``), is
    descended into (at most twice); one that holds one student's files is a class of one.
    """
    for _ in range(3):
        if (folder / METADATA).is_file():
            return folder, folder / METADATA
        entries = _visible(folder)
        lone = entries[0] if len(entries) == 1 and entries[0].is_dir() else None
        if lone and ((lone / METADATA).is_file() or any(p.is_dir() for p in _visible(lone)) or loose_files(lone)):
            folder = entries[0]
            continue
        break
    return folder, None


def _same(a: Path | None, b: Path) -> bool:
    """Whether ``a`` is the output folder (which may sit inside a folder of submissions)."""
    return a is not None and b.exists() and a.exists() and a.resolve() == b.resolve()


def _visible(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and p.name not in _IGNORED)


def _from_listing(root: Path) -> list[Submission]:
    entries = _visible(root)
    stems = [p.name if p.is_dir() else p.stem for p in entries]
    ids = [stem if stems.count(stem) == 1 else p.name for stem, p in zip(stems, entries)]
    return [Submission(id=_short_id(i), path=p) for i, p in zip(ids, entries)]


def _from_metadata(root: Path, entries: dict[str, dict], notes: list[str]) -> list[Submission]:
    submissions = []
    missing = []
    for folder, entry in entries.items():
        path = root / folder
        if not path.exists():
            missing.append(folder)
        submissions.append(
            Submission(
                id=_short_id(folder),
                path=path if path.exists() else None,
                submitters=tuple(_submitter(s) for s in _get(entry, "submitters") or []),
                created_at=_text(_get(entry, "created_at")),
                export_score=_number(_get(entry, "score")),
            )
        )
    listed = set(entries)
    extra = [p for p in _visible(root) if p.name not in listed]
    submissions += [Submission(id=_short_id(p.name), path=p) for p in extra]
    if missing:
        notes.append(f"{len(missing)} submissions listed in {METADATA} are missing from the export")
    if extra:
        notes.append(f"{len(extra)} folders/files are not in {METADATA}; graded without names")
    return submissions


def _short_id(name: str) -> str:
    """``submission_123456`` -> ``123456``; other names unchanged."""
    match = re.fullmatch(r"submission_(\d+)", name)
    return match.group(1) if match else name


def sort_key(submission_id: str) -> tuple:
    """Numeric ids in numeric order, then the others by name: the shards' order."""
    return (0, int(submission_id), "") if submission_id.isdigit() else (1, 0, submission_id)


def _get(mapping: Any, key: str) -> Any:
    if not isinstance(mapping, dict):
        return None
    for candidate in (f":{key}", key):
        if candidate in mapping:
            return mapping[candidate]
    return None


def _submitter(entry: Any) -> Submitter:
    return Submitter(name=_text(_get(entry, "name")), email=_text(_get(entry, "email")), sid=_text(_get(entry, "sid")))


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return str(value).strip()


def _number(value: Any) -> float | None:
    if value is None or isinstance(value, bool):
        return None
    text = str(value).strip()
    ruby_decimal = re.fullmatch(r"\d+:(\S+)", text)  # Ruby BigDecimal dump "18:0.87e2"
    try:
        return float(ruby_decimal.group(1) if ruby_decimal else text)
    except ValueError:
        return None


# ---------------------------------------------------------------- metadata reading


def read_metadata(path: Path) -> tuple[dict[str, dict], str]:
    """``{folder: entry}`` from the metadata file, and a note when PyYAML was not available."""
    text = path.read_text(encoding="utf-8", errors="replace")
    try:
        import yaml
    except ImportError:
        return _minimal_yaml(text), f"PyYAML not installed: read {METADATA} with a minimal reader"
    try:
        data = yaml.load(text, Loader=_tolerant_loader(yaml))  # a SafeLoader subclass
    except yaml.YAMLError as error:
        raise ExportError(f"{path}: not valid YAML ({error})") from error
    if not isinstance(data, dict):
        raise ExportError(f"{path}: expected a mapping of submission folders")
    return {str(k): v if isinstance(v, dict) else {} for k, v in data.items()}, ""


def _tolerant_loader(yaml: Any) -> type:
    """A SafeLoader that reads Ruby-tagged nodes (``!ruby/object:...``) as plain data."""

    class Loader(yaml.SafeLoader):
        pass

    def construct_any(loader: Any, _suffix: str, node: Any) -> Any:
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node, deep=True)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node, deep=True)
        return loader.construct_scalar(node)

    Loader.add_multi_constructor("!", construct_any)
    Loader.add_multi_constructor("tag:", construct_any)
    return Loader


_LINE = re.compile(r"^(?P<indent> *)(?P<dash>- +)?(?P<key>[^\s:'\"][^:]*|:[^:\s]+):(?: +(?P<value>.*))?$")


def _minimal_yaml(text: str) -> dict[str, dict]:
    """Just the fields we use, from Gradescope's layout, without PyYAML.

    Top-level keys are submission folders; under each, ``:submitters:`` is a list of
    mappings, ``:created_at:`` and ``:score:`` are scalars. Everything else (the
    previous results, the history) is skipped by indentation.
    """
    entries: dict[str, dict] = {}
    current: dict | None = None
    in_submitters = False
    person: dict | None = None
    base = item = 0
    for raw in text.splitlines():
        if not raw.strip() or raw.lstrip().startswith("#") or raw.startswith("---"):
            continue
        match = _LINE.match(raw)
        if not match:
            continue
        indent = len(match["indent"])
        key = match["key"].strip()
        value = _scalar(match["value"])
        if indent == 0 and not match["dash"]:
            current = entries.setdefault(key, {})
            in_submitters, base = False, 0
            continue
        if current is None:
            continue
        if base == 0:
            base = indent
        if indent == base and not match["dash"]:
            in_submitters = key.lstrip(":") == "submitters"
            if in_submitters:
                current[":submitters"] = []
            elif key.lstrip(":") in {"created_at", "score"}:
                current[key if key.startswith(":") else f":{key}"] = value
            continue
        if in_submitters and match["dash"] and indent <= base + 2:
            person = {}
            current[":submitters"].append(person)
            item = indent + len(match["dash"])
        elif not in_submitters or person is None or indent != item:
            continue
        if key.lstrip(":") in {"name", "email", "sid"}:
            person[":" + key.lstrip(":")] = value
    return entries


def _scalar(value: str | None) -> Any:
    if value is None or value in {"", "~", "null"}:
        return None
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m[1], m[1]), value[1:-1])
    return re.sub(r"(?<!\s)\s+#.*$", "", value)  # starts only where a whitespace run starts: linear time
