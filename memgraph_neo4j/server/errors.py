"""One error type for every local-server step, so the CLI can catch them all in one place."""

from __future__ import annotations


class LauncherError(RuntimeError):
    """A local-server operation failed; the message says why and what to do."""
