from __future__ import annotations


def lambda_handler(event: dict, context: object) -> dict:
    raise NotImplementedError
