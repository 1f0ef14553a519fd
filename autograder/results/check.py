"""Is this a results.json Gradescope will accept, and one we would write?

``validate`` checks Gradescope's spec as a JSON schema (``tests/schema/
gradescope_results.schema.json``, when jsonschema is installed) and then what our plugin
promises beyond it (``structural_problems``): no nulls, valid enums, finite numbers and a
total that is the sum of the tests' scores. Used by ``check-zip``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

SCHEMA = Path(__file__).resolve().parents[2] / "tests" / "schema" / "gradescope_results.schema.json"
VISIBILITIES = {"hidden", "after_due_date", "after_published", "visible"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}


def _jsonschema() -> Any:
    try:
        import jsonschema
    except ImportError:
        return None
    return jsonschema


def validate(data: Any) -> list[str]:
    """Problems of a results.json: the JSON schema (when available) and structural checks."""
    problems = []
    jsonschema = _jsonschema()
    if SCHEMA.is_file() and jsonschema is not None:
        validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text()))
        problems += [f"schema: {e.json_path}: {e.message}"[:300] for e in validator.iter_errors(data)][:10]
    return problems + structural_problems(data)


def structural_problems(data: Any) -> list[str]:
    """What our results.json must satisfy: no nulls, valid enums, finite numbers, a consistent score."""
    if not isinstance(data, dict):
        return ["results.json is not a JSON object"]
    problems = [f"null at {where}" for where in _nulls(data)][:5]
    if not isinstance(data.get("tests"), list):
        return [*problems, "no tests list"]
    for key in ("score", "execution_time"):
        if not _finite(data.get(key)):
            problems.append(f"{key} is not a finite number")
    for key, allowed in (("output_format", FORMATS), ("stdout_visibility", VISIBILITIES)):
        if key in data and data[key] not in allowed:
            problems.append(f"{key} {data[key]!r} is not one of {sorted(allowed)}")
    for i, test in enumerate(data["tests"]):
        where = f"tests[{i}]"
        if not isinstance(test, dict):
            problems.append(f"{where} is not an object")
            continue
        if not isinstance(test.get("name"), str) or not test.get("name"):
            problems.append(f"{where} has no name")
        for key in ("score", "max_score"):
            if not _finite(test.get(key)):
                problems.append(f"{where}.{key} is not a finite number")
        if test.get("status") not in {"passed", "failed"}:
            problems.append(f"{where}.status {test.get('status')!r}")
        if test.get("visibility", "visible") not in VISIBILITIES:
            problems.append(f"{where}.visibility {test.get('visibility')!r}")
        if not isinstance(test.get("tags", []), list) or not all(isinstance(t, str) for t in test.get("tags", [])):
            problems.append(f"{where}.tags is not a list of strings")
    scores = [t.get("score") for t in data["tests"] if isinstance(t, dict)]
    if _finite(data.get("score")) and all(map(_finite, scores)) and not math.isclose(data["score"], sum(scores)):
        problems.append(f"score {data['score']} is not the sum of the tests' scores {sum(scores):g}")
    return problems


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _nulls(value: Any, where: str = "$") -> list[str]:
    if value is None:
        return [where]
    if isinstance(value, dict):
        return [w for k, v in value.items() for w in _nulls(v, f"{where}.{k}")]
    if isinstance(value, list):
        return [w for i, v in enumerate(value) for w in _nulls(v, f"{where}[{i}]")]
    return []
