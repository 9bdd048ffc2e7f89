"""Developer and operator tools for agent-memory. Nothing here ever runs in Lambda.

The local stack (``local``), the load test (``loadtest``), the ``agent-memory`` CLI
(``cli``), the operator commands (``operations``: readiness probe, export) and the local
stand-in for an identity provider (``dev_auth``). They import the runtime package
``agent_memory`` (the Lambda layer); the layer never imports them, and the built layer does
not contain them (``tests/functional/build`` checks both).
"""
