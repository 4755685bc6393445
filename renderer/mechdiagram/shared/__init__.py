"""The shared vocabulary every stage speaks: errors, findings and JSON Pointers, the typed spec model, a run's
settings, file helpers (atomic writes, paths as users see them), package data, the message catalogue and the
characters the text rules refuse.  It imports no other stage."""
