"""Property-based tests: the memory rules hold for any batch, not only for the examples."""

from __future__ import annotations

import copy
import unicodedata

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from agent_memory.domain import (
    ACTIONS,
    DELIMITER,
    LIMITS,
    MAX_OPERATIONS,
    TARGETS,
    MemoryValidationError,
    Operation,
    Snapshot,
    Target,
    apply_operations,
    normalize_text,
    parse_document,
    render_document,
    validate_entry,
)

# A tiny alphabet makes substring collisions, duplicates and delimiters likely; arbitrary
# text and long runs cover the rest of the input space and capacity pressure.
_TRICKY = st.text(alphabet="ab \n\t§\r", max_size=12)
_ANY = st.text(max_size=40)
_LONG = st.builds(lambda c, n: c * n, st.sampled_from("abcdef"), st.integers(100, 900))
entry_text = st.one_of(_TRICKY, _TRICKY, _ANY, _LONG)
targets = st.sampled_from((*TARGETS, "bogus"))
actions = st.sampled_from((*ACTIONS, "append"))
_WORDS = st.sampled_from(
    ["a", "ab", "b a", "§", "tab\tsep", "Python", "3.13", "x" * 120, "y" * 400]
)
storable_text = st.builds(
    lambda words, separator: separator.join(words),
    st.lists(_WORDS, min_size=1, max_size=6),
    st.sampled_from([" ", "\n", " - "]),
).filter(lambda e: is_storable(e, "user"))
_PADDING = st.text(alphabet=" \t\r\n", max_size=4)


def is_storable(entry: str, target: Target) -> bool:
    try:
        return validate_entry(entry, target) == entry
    except MemoryValidationError:
        return False


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    """Valid stored snapshots: storable, unique entries within each store's limit."""
    stores: dict[str, tuple[str, ...]] = {}
    for target in TARGETS:
        kept: list[str] = []
        for candidate in draw(st.lists(entry_text, max_size=12)):
            entry = normalize_text(candidate)
            if (
                entry not in kept
                and is_storable(entry, target)
                and len(render_document([*kept, entry])) <= LIMITS[target]
            ):
                kept.append(entry)
        stores[target] = tuple(kept)
    return Snapshot(**stores)


@st.composite
def operations_for(draw: st.DrawFn, snapshot: Snapshot, *, clean: bool = False) -> Operation:
    """Operations that address existing entries. Clean ones keep their field contract and
    carry storable content (so they fail only on matching, duplicates or capacity); the
    others may break any rule."""
    existing = snapshot.user + snapshot.memory
    content_text = storable_text if clean else entry_text
    match_text = content_text
    if existing:
        whole = st.sampled_from(existing)
        part = st.builds(_slice, whole, st.integers(0, 50), st.integers(0, 50))
        match_text = st.one_of(content_text, whole, part, part)
    if clean:
        action = draw(st.sampled_from(ACTIONS))
        return Operation(
            target=draw(st.sampled_from(TARGETS)),
            action=action,
            match=draw(match_text) if action != "add" else None,
            content=draw(content_text) if action != "remove" else None,
        )
    return Operation(
        target=draw(targets),
        action=draw(actions),
        match=draw(st.one_of(st.none(), match_text)),
        content=draw(st.one_of(st.none(), content_text)),
    )


def _slice(entry: str, start: int, stop: int) -> str:
    return entry[min(start, stop) : max(start, stop) + 1]


def assert_well_formed(snapshot: Snapshot) -> None:
    for target in TARGETS:
        entries = snapshot.entries(target)
        assert snapshot.chars(target) <= LIMITS[target]
        assert len(set(entries)) == len(entries), "duplicate entry"
        for entry in entries:
            assert entry, "empty entry"
            assert entry == normalize_text(entry), "unnormalised entry"
            assert DELIMITER not in entry
            assert all(line.strip() != "§" for line in entry.split("\n"))
            assert all(
                c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cs", "Zl", "Zp")
                for c in entry
            ), "control character"
        assert parse_document(render_document(entries)) == entries


@settings(max_examples=400)
@given(data=st.data())
def test_any_batch_either_fails_cleanly_or_yields_a_well_formed_snapshot(
    data: st.DataObject,
) -> None:
    # GIVEN a valid snapshot and a random batch that may break any rule
    snapshot = data.draw(snapshots())
    clean = data.draw(st.booleans())
    batch = data.draw(
        st.lists(operations_for(snapshot, clean=clean), min_size=1, max_size=MAX_OPERATIONS)
    )
    before = copy.deepcopy(snapshot)

    # WHEN it is applied
    try:
        result = apply_operations(snapshot, batch)
    except MemoryValidationError as error:
        # THEN a failure leaves the input exactly as it was
        assert snapshot == before
        event(f"rejected: {error.code}")
        return

    # THEN a success never exceeds a limit, nor holds an empty entry, a delimiter, a
    # control character or a duplicate
    assert snapshot == before
    assert_well_formed(result)
    event("accepted" if result != snapshot else "accepted, unchanged")


@given(snapshot=snapshots(), data=st.data())
def test_normalisation_happens_before_the_capacity_check(
    snapshot: Snapshot, data: st.DataObject
) -> None:
    # GIVEN a storable entry and the same entry as a transport might deliver it
    target = data.draw(st.sampled_from(TARGETS))
    entry = normalize_text(data.draw(entry_text))
    assume(is_storable(entry, target))
    padded = data.draw(_PADDING) + entry.replace("\n", "\r\n") + data.draw(_PADDING)

    # WHEN each is added
    def outcome(content: str) -> Snapshot | str:
        operation = Operation(target=target, action="add", content=content)
        try:
            return apply_operations(snapshot, [operation])
        except MemoryValidationError as error:
            return error.code

    # THEN the padding changes nothing: it is never counted against the limit
    assert outcome(padded) == outcome(entry)


@given(snapshot=snapshots(), data=st.data())
def test_adding_an_existing_entry_changes_nothing(snapshot: Snapshot, data: st.DataObject) -> None:
    # GIVEN a stored entry
    target = data.draw(st.sampled_from(TARGETS))
    assume(snapshot.entries(target))
    entry = data.draw(st.sampled_from(snapshot.entries(target)))

    # WHEN it is added again, once or several times in one batch
    repeats = data.draw(st.integers(1, 5))
    batch = [Operation(target=target, action="add", content=entry)] * repeats

    # THEN the snapshot is unchanged
    assert apply_operations(snapshot, batch) == snapshot


@given(snapshot=snapshots(), data=st.data())
def test_a_whole_entry_match_selects_exactly_that_entry(
    snapshot: Snapshot, data: st.DataObject
) -> None:
    # GIVEN a stored entry, and longer entries that contain it
    target = data.draw(st.sampled_from(TARGETS))
    entry = normalize_text(data.draw(entry_text))
    assume(is_storable(entry, target) and entry not in snapshot.entries(target))
    containing = [f"{entry} and more", f"also {entry}"]
    assume(all(is_storable(e, target) for e in containing))
    entries = (*snapshot.entries(target), *containing, entry)
    assume(all(e != entry for e in containing))
    stocked = snapshot.replace_entries(target, entries)

    # WHEN it is removed by its exact text
    result = apply_operations(stocked, [Operation(target=target, action="remove", match=entry)])

    # THEN only that entry goes
    assert result.entries(target) == entries[:-1]


@given(
    target=st.sampled_from(TARGETS),
    count=st.integers(2, 10),
    new_length=st.integers(1, 60),
    data=st.data(),
)
def test_a_full_store_can_be_consolidated_and_extended_in_one_batch(
    target: Target, count: int, new_length: int, data: st.DataObject
) -> None:
    # GIVEN a store filled to exactly its limit
    limit = LIMITS[target]
    size = (limit - len(DELIMITER) * (count - 1)) // count
    entries = [f"{i:03d}" + "x" * (size - 3) for i in range(count)]
    entries[-1] += "y" * (limit - len(render_document(entries)))
    full = Snapshot().replace_entries(target, entries)
    assert full.chars(target) == limit
    new_fact = "n" * new_length
    add = Operation(target=target, action="add", content=new_fact)

    # WHEN a new fact alone is added, THEN it does not fit
    with pytest.raises(MemoryValidationError) as caught:
        apply_operations(full, [add])
    assert caught.value.code == "capacity_exceeded"

    # WHEN the same batch also shortens one entry (before or after the add)
    victim = data.draw(st.sampled_from(entries))
    shorten = Operation(target=target, action="replace", match=victim[:3], content="short")
    batch = data.draw(st.permutations([add, shorten]))
    result = apply_operations(full, batch)

    # THEN it succeeds, holds the new fact, and fits
    assert new_fact in result.entries(target)
    assert result.chars(target) <= limit


SENTINEL = "QSENTINELQ"


@settings(max_examples=200)
@given(data=st.data())
def test_error_messages_never_quote_entries_or_matches(data: st.DataObject) -> None:
    # GIVEN stored entries and operation texts that all carry a sentinel
    def marked(text: str) -> str:
        return f"{SENTINEL} {text}"

    snapshot = Snapshot(memory=(marked("one"), marked("two")))
    text = st.one_of(st.none(), entry_text.map(marked))
    batch = data.draw(
        st.lists(
            st.builds(Operation, target=targets, action=actions, match=text, content=text),
            min_size=1,
            max_size=MAX_OPERATIONS,
        )
    )

    # WHEN the batch fails, THEN the message never repeats any of that text
    message = ""
    try:
        apply_operations(snapshot, batch)
    except MemoryValidationError as error:
        message = str(error)
    assert SENTINEL not in message
