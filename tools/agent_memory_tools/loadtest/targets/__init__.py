"""Where the load test sends its turns: the handlers in-process (``inprocess``, with its
``worker`` processes and ``dynamodb`` tables), or an HTTP base URL (``http``).

Import the submodules directly: this package imports nothing, so that a worker process
starting up imports only what it needs, after its environment is set.
"""
