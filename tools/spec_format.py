"""Write docs/spec-format.md from the schema (mechdiagram.render.docs.spec_format).

Run after changing schema/mechanism.schema.json; tests/cli/editors/test_spec_docs.py fails until you do:

    python tools/spec_format.py            # writes docs/spec-format.md
    python tools/spec_format.py OUT.md     # writes elsewhere
"""

from __future__ import annotations

import sys
from pathlib import Path

from mechdiagram.render.docs import spec_format
from mechdiagram.shared.files import write_file

DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "spec-format.md"


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else DEFAULT
    changed = write_file(target, spec_format().encode("utf-8"))
    print(f"{target}: {'written' if changed else 'already current'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
