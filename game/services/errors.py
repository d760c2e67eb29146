"""What a use-case raises when it refuses an action."""

from __future__ import annotations


class ActionRefused(Exception):
    """An action that was not applied; `message` is shown to the sender, nothing changed."""

    def __init__(self, message: str, code: str = "refused") -> None:
        super().__init__(message)
        self.message = message
        self.code = code
