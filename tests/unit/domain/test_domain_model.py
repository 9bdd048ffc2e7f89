from __future__ import annotations

import pytest

from agent_memory.domain import (
    DELIMITER,
    LIMITS,
    Snapshot,
    Usage,
    normalize_text,
    parse_document,
    render_document,
)


def test_limits_and_delimiter_are_the_hermes_values() -> None:
    # GIVEN / WHEN / THEN: the bounds every other part of the system relies on
    assert dict(LIMITS) == {"user": 1375, "memory": 2200}
    assert DELIMITER == "\n§\n"


@pytest.mark.parametrize(
    ("raw", "normalised"),
    [
        ("  fact  ", "fact"),
        ("\r\nline one\r\nline two\r\n", "line one\nline two"),
        ("old\rmac", "old\nmac"),
        ("\t tabbed \n", "tabbed"),
        ("inner  spaces stay", "inner  spaces stay"),
    ],
)
def test_normalize_text_unifies_line_endings_and_strips_outer_whitespace(
    raw: str, normalised: str
) -> None:
    # GIVEN transport-formatted text / WHEN normalised / THEN only the meaningful text remains
    assert normalize_text(raw) == normalised


def test_document_round_trip() -> None:
    # GIVEN entries, one spanning two lines
    entries = ("first", "second\nline", "third")

    # WHEN rendered and parsed back
    document = render_document(entries)

    # THEN the stored form is the delimiter-joined text and parses back to the same entries
    assert document == "first\n§\nsecond\nline\n§\nthird"
    assert parse_document(document) == entries
    assert parse_document("") == ()


def test_chars_count_the_rendered_document_including_delimiters() -> None:
    # GIVEN two entries of 5 and 4 characters
    snapshot = Snapshot(user=("abcde", "wxyz"))

    # WHEN / THEN the count includes the 3-character delimiter
    assert snapshot.chars("user") == 5 + 3 + 4
    assert snapshot.chars("memory") == 0


def test_usage_percent_is_rounded_down_as_in_the_prompt_header() -> None:
    # GIVEN the seed's example figures
    usage = Usage(target="user", chars=564, limit=1375)

    # WHEN / THEN 41.02% shows as 41
    assert usage.percent == 41
    assert Usage(target="memory", chars=2200, limit=2200).percent == 100


def test_snapshot_helpers() -> None:
    # GIVEN a snapshot built from stored documents
    snapshot = Snapshot.from_documents(user="a\n§\nb", memory="")

    # WHEN / THEN
    assert snapshot.user == ("a", "b")
    assert snapshot.memory == ()
    assert not snapshot.is_empty
    assert Snapshot().is_empty
    assert snapshot.document("user") == "a\n§\nb"
    assert snapshot.usage("user") == Usage(target="user", chars=5, limit=1375)
    replaced = snapshot.replace_entries("memory", ["m"])
    assert replaced == Snapshot(user=("a", "b"), memory=("m",))
    assert snapshot.memory == ()  # the original is untouched
