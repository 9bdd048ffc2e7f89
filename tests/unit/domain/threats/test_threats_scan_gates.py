"""The cheap tests that stand before a costly one (a search over the whole entry) only
skip work: wherever the costly one would find something, the cheap one lets it run."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from agent_memory.domain.threats.encoded import _SPACED_HEX_RUN, _may_hold_spaced_hex

HEX_ISH = st.text(alphabet="0123456789abcdefABCDEFxyz \t\n:,-\u3000\u2028\x85é", max_size=120)


@settings(max_examples=400)
@given(
    prefix=HEX_ISH,
    pairs=st.lists(st.sampled_from(["de", "AD", "01", "f9"]), min_size=8, max_size=12),
    separator=st.sampled_from([" ", ":", ",", "-", "\u2028", "\x85", "\t"]),
    suffix=HEX_ISH,
)
def test_the_spaced_hex_gate_lets_every_spaced_run_through(
    prefix: str, pairs: list[str], separator: str, suffix: str
) -> None:
    # GIVEN a text that may hold a run of hex pairs split by any separator the search takes
    text = prefix + " " + separator.join(pairs) + " " + suffix
    # WHEN the search finds a run THEN the gate had let the text through
    if _SPACED_HEX_RUN.search(text):
        assert _may_hold_spaced_hex(text)


@settings(max_examples=400)
@given(text=HEX_ISH)
def test_the_spaced_hex_gate_agrees_with_the_search_on_any_text(text: str) -> None:
    if _SPACED_HEX_RUN.search(text):
        assert _may_hold_spaced_hex(text)


def test_the_spaced_hex_gate_refuses_prose() -> None:
    # GIVEN prose with many hex letters but no run of eight pairs
    prose = "a decade ago we added a feed; be a bee, add a dead cafe face " * 20
    # THEN the search is skipped
    assert not _may_hold_spaced_hex(prose)
    assert not _SPACED_HEX_RUN.search(prose)
