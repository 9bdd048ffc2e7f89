"""Typed reads of DynamoDB attribute values (``{"S": ...}``, ``{"N": ...}``) of an item:
``None`` when the attribute is missing or of another type, never an exception."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def string_attribute(item: Mapping[str, Any], name: str) -> str | None:
    value = item.get(name)
    if isinstance(value, Mapping) and isinstance(value.get("S"), str):
        return str(value["S"])
    return None


def number_attribute(item: Mapping[str, Any], name: str) -> int | None:
    value = item.get(name)
    if isinstance(value, Mapping) and isinstance(value.get("N"), str):
        try:
            return int(value["N"])
        except ValueError:
            return None
    return None
