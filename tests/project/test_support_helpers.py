"""The shared test helpers do what other tests rely on: the reference spec's text layout (finding
positions are computed from it) and its source files."""

from __future__ import annotations

import hashlib

from support.reference_spec import SOURCE_TEXT, dumps, reference_spec, write_sources


def test_dumps_helper_matches_the_reference_layout():
    # the helper writes two-space indented files, as authors do; the finding positions above rely on it
    text = dumps(reference_spec())
    assert text.startswith('{\n  "version": 1,\n  "language": "en",')
    assert text.endswith("}\n")


def test_source_files_are_the_reference_helper_files(tmp_path):
    digests = write_sources(tmp_path)
    for path, text in SOURCE_TEXT.items():
        assert (tmp_path / path).read_bytes() == text.encode("utf-8")
        assert digests[path] == hashlib.sha256(text.encode("utf-8")).hexdigest()
