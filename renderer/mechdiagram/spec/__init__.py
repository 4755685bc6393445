"""The spec stage: find spec files, load them with the position of every value, validate them (JSON Schema
and the rules beside it), verify their sources' SHA-256 and write digests into them (``hash --write``).
It imports only the shared vocabulary; validation never runs the layout."""
