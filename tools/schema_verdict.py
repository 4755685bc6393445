"""Write renderer/validate/verdict.py, the schema compiled into Python (renderer.validate.compile).

Run after changing schema/mechanism.schema.json; tests/validate/test_schema_engines.py fails until you do
(it needs the test extras, which pin fastjsonschema):

    python tools/schema_verdict.py
"""

from __future__ import annotations

import json
from pathlib import Path

from renderer.files import write_file
from renderer.validate.compile import verdict_source

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schema" / "mechanism.schema.json"
TARGET = ROOT / "renderer" / "validate" / "verdict.py"


def main() -> int:
    source = verdict_source(json.loads(SCHEMA.read_text("utf-8")))
    changed = write_file(TARGET, source.encode("utf-8"))
    print(f"{TARGET.relative_to(ROOT)}: {'written' if changed else 'already current'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
