"""The memory documents as the API answers them: entries, sizes, provenance, withheld marks."""

from __future__ import annotations

from agent_memory.domain import LIMITS, TARGETS, UNKNOWN_SOURCE, Target, withheld_entries
from agent_memory.http.contract import EntryProvenance, MemoryDocument, MemoryDocumentsResponse
from agent_memory.repository import LoadedMemory


def _provenance(
    loaded: LoadedMemory, target: Target, withheld: tuple[bool, ...]
) -> list[EntryProvenance]:
    """Issue 15's record of each entry plus the scanner's withheld mark (an entry without a
    record reads as written by an unknown source)."""
    records = [item.to_dict() for item in loaded.entry_provenance(target)]
    records += [{"source": UNKNOWN_SOURCE, "updated_at": 0}] * (len(withheld) - len(records))
    return [
        EntryProvenance.model_validate({**record, "withheld": hidden})
        for record, hidden in zip(records, withheld, strict=False)
    ]


def documents_response(loaded: LoadedMemory) -> MemoryDocumentsResponse:
    snapshot = loaded.snapshot
    withheld = withheld_entries(snapshot)
    documents = {
        target: MemoryDocument(
            entries=list(snapshot.entries(target)),
            chars=snapshot.chars(target),
            limit=LIMITS[target],
            provenance=_provenance(loaded, target, withheld[target]),
        )
        for target in TARGETS
    }
    return MemoryDocumentsResponse(**documents)
