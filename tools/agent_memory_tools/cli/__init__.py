"""The ``agent-memory`` console script."""
