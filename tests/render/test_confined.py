"""The child process of :mod:`mechdiagram.render.confined` (a site's templates render there): answers, errors
and bugs come back to the build as they were raised in it."""

from __future__ import annotations

import operator

import pytest

from mechdiagram.api import render_spec
from mechdiagram.render.confined import run_confined
from mechdiagram.shared.errors import UsageError


def test_a_value_comes_back():
    assert run_confined(operator.add, ((1, "a"), (2,)), "x") == (1, "a", 2)


def test_an_error_of_ours_comes_back_as_raised():
    with pytest.raises(UsageError, match=r"^path must be a path or a string, not bytes$"):
        run_confined(render_spec, (b"a.mechanism.json",), "x")


def test_a_bug_in_the_child_comes_back_with_its_traceback_as_a_note():
    with pytest.raises(ZeroDivisionError) as raised:
        run_confined(operator.truediv, (1, 0), "x")
    assert raised.value.__notes__[0].startswith("In the process rendering with a site's templates:\nTraceback")
    assert "ZeroDivisionError: division by zero" in raised.value.__notes__[0]
