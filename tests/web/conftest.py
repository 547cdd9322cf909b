"""Every test of the browser layer starts in English (tests that want German say so): a test that
leaves German behind cannot change what a later one reads, whatever the order xdist runs them in."""

from __future__ import annotations

import pytest
from hearts_web.core import i18n


@pytest.fixture(autouse=True)
def english() -> None:
    i18n.set_lang("en")
