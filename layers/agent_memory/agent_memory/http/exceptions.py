from __future__ import annotations


class ApiError(Exception):
    """An error the client should see, as ``{"error": {"code", "message"}}`` with a 4xx status.

    ``message`` is written for the client and never quotes request content.
    """

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.message = message
