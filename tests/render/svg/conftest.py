"""Fixtures of the SVG tests: the reference spec's files, rendered once per module."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from support.outputs import render
from support.reference_spec import reference_spec


@pytest.fixture(scope="module")
def reference_outputs() -> dict[str, bytes]:
    """The reference spec's output files (slug ``ref``) by name."""
    return render(reference_spec())


@pytest.fixture(scope="module")
def animated(reference_outputs) -> ET.Element:
    """The animated SVG of scenario ``one-request``, parsed."""
    return ET.fromstring(reference_outputs["ref.one-request.svg"])


@pytest.fixture(scope="module")
def poster(reference_outputs) -> ET.Element:
    """Its poster SVG, parsed."""
    return ET.fromstring(reference_outputs["ref.one-request.poster.svg"])
