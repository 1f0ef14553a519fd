"""Reading a Jupyter notebook submission: nbformat (v4; older versions converted, or read from the
raw JSON when nbformat refuses), then one Chunk per code cell. A broken cell is skipped with a
note and the others still load; cell magics other than %%time/%%capture are skipped too.
"""

from __future__ import annotations

import json

from autograder.feedback.markdown import code_span
from autograder.intake.source import (
    CELL_MAGICS_KEPT,
    Chunk,
    IntakeError,
    Program,
    check_source,
    check_time,
    decode_text,
    removed_note,
)


def load_notebook(data: bytes, name: str) -> Program:
    text = decode_text(data, code_span(name))
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as error:
        raise IntakeError(
            f"{code_span(name)} is not a valid notebook: its JSON is broken at line {error.lineno}, column "
            f"{error.colno} ({error.msg}). Was it saved completely? Open it in Jupyter, save it, and upload it again."
        ) from None
    except (RecursionError, MemoryError, ValueError):
        raise IntakeError(f"{code_span(name)} is not a valid notebook: its JSON is nested too deeply.") from None
    if not isinstance(raw, dict):
        raise IntakeError(f"{code_span(name)} is not a Jupyter notebook (its JSON is not an object with cells).")
    notes: list[str] = []
    notes += _other_homework(raw, name)
    cells = _notebook_cells(raw, text, name, notes)
    sources = [source for kind, source in cells if kind == "code"]
    if not sources:
        raise IntakeError(f"{code_span(name)} has no code cells. Put your functions in code cells (not markdown).",
                          "empty")
    if not any(s.strip() for s in sources):
        raise IntakeError(f"{code_span(name)}: all {len(sources)} code cells are empty. Did you save the notebook?",
                          "empty")
    chunks = []
    for number, source in enumerate(sources, 1):
        check_time()
        chunk = _load_cell(name, number, source.replace("\r\n", "\n").replace("\r", "\n"), notes)
        chunks += [chunk] if chunk is not None else []
    if not chunks:
        raise IntakeError(f"None of the code cells of {code_span(name)} could be loaded.\n\n" + "\n\n".join(notes),
                          "syntax error")
    return Program(name, "ipynb", chunks, notes)


def _other_homework(raw: dict, name: str) -> list[str]:
    """A note when the notebook's metadata names another homework than this one (its template says which)."""
    from autograder import contract

    metadata = raw.get("metadata")
    said = metadata.get("autograder") if isinstance(metadata, dict) else None
    homework = said.get("homework") if isinstance(said, dict) else None
    if not isinstance(homework, str) or homework == contract.NAME:
        return []
    return [f"{code_span(name)} was made from the template of another homework ({code_span(homework, 60)}), not "
            f"`{contract.NAME}`: did you upload the right notebook? It was graded as `{contract.UPLOAD}.ipynb`."]


def _notebook_cells(raw: dict, text: str, name: str, notes: list[str]) -> list[tuple[str, str]]:
    """(cell_type, source) in order. nbformat first (converts v3 and older); raw JSON if it refuses."""
    major = raw.get("nbformat")
    if isinstance(major, int) and not isinstance(major, bool) and major < 4:
        notes.append(f"{code_span(name)} uses notebook format {major}; it was converted to format 4 to be graded.")
    if isinstance(major, int) and not isinstance(major, bool):
        try:
            import nbformat

            nb = nbformat.convert(nbformat.reader.reads(text), 4)
            try:
                nbformat.validate(nb)
            except Exception:  # harmless schema slips are common in student notebooks
                pass
            return [(str(c.get("cell_type", "")), _joined(c.get("source", ""))) for c in nb.cells]
        except Exception:
            pass  # read the raw JSON instead
    cells = raw.get("cells")
    if not isinstance(cells, list):  # versions 2 and 3 keep their cells in worksheets
        sheets = raw.get("worksheets")
        sheets = sheets if isinstance(sheets, list) else []
        cells = [c for w in sheets if isinstance(w, dict) and isinstance(w.get("cells"), list) for c in w["cells"]]
        if not sheets:
            if isinstance(major, int) and major < 3:
                raise IntakeError(
                    f"{code_span(name)} uses notebook format version {major}, which is too old to read. "
                    "Open it in a current Jupyter, save it, and upload it again."
                )
            raise IntakeError(f"{code_span(name)} is not a Jupyter notebook (its JSON has no `cells`).")
    result = []
    for cell in cells:
        if isinstance(cell, dict):
            source = next((cell[k] for k in ("source", "input", "code") if k in cell), "")
            result.append((str(cell.get("cell_type", "")), _joined(source)))
    return result


def _joined(source: object) -> str:
    """A cell's source: a string, or a list of lines to join (anything else: empty)."""
    lines = source if isinstance(source, list) else [source]
    return "".join(s for s in lines if isinstance(s, str))


def _load_cell(name: str, number: int, source: str, notes: list[str]) -> Chunk | None:
    """One code cell as a Chunk, or None when it is empty, not Python or broken (notes: "code cell 3, line 2: ...")."""
    label = f"code cell {number}"
    if not source.strip():
        return None
    lines = source.split("\n")
    first = next(i for i, line in enumerate(lines) if line.strip())
    if lines[first].lstrip().startswith("%%"):
        magic = lines[first].lstrip()[2:].split(maxsplit=1)
        magic_name = magic[0] if magic else ""
        if magic_name not in CELL_MAGICS_KEPT:
            shown = code_span("%%" + magic_name)
            notes.append(f"{label}, line {first + 1}: this is a {shown} cell, not Python; it was skipped.")
            return None
        lines[first] = ""
        source = "\n".join(lines)
    filename = f"{name} ({label})"
    code, removed, error = check_source(source, filename, report_raw=False)
    if error is not None:
        what = f"{error.kind} ({error.message})" if error.message else error.kind
        notes.append(f"{label}, line {error.line or 1}: {what}; this cell was skipped, the other cells were "
                     f"loaded.{error.snippet}")
        return None
    if removed:
        notes.append(removed_note(label, removed))
    return Chunk(label, filename, code)
