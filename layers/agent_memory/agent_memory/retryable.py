"""Which AWS failures may be retried with the very same request: the one list.

The DynamoDB adapters (``repository/clients.py``), the commit protocol's classification of a
cancelled transaction (``ledger/retry.py``) and the Bedrock provider (``models/bedrock.py``)
all read these sets, so they cannot disagree about throttling. A code not listed is not
retried (validation, access, an unknown failure).
"""

from __future__ import annotations

# DynamoDB error codes (``Error.Code``): throttled, a conflicting or same-token transaction
# still in progress, or a transient server fault.
DYNAMODB_RETRYABLE_ERRORS = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "Throttling",
        "RequestLimitExceeded",
        "TransactionInProgressException",
        "TransactionConflictException",
        "InternalServerError",
        "ServiceUnavailable",
    }
)

# The same conditions as ``TransactWriteItems`` names them per item in
# ``CancellationReasons`` (shorter codes than the errors above).
DYNAMODB_RETRYABLE_CANCELLATION_REASONS = frozenset(
    {
        "TransactionConflict",
        "ThrottlingError",
        "ProvisionedThroughputExceeded",
        "RequestLimitExceeded",
    }
)

# Bedrock Runtime error codes (Converse, ConverseStream, ApplyGuardrail): throttled, over a
# quota, a model not ready or failing, a transient server fault. Any 5xx is retryable too.
BEDROCK_RETRYABLE_ERRORS = frozenset(
    {
        "ThrottlingException",
        "ServiceUnavailableException",
        "ModelNotReadyException",
        "InternalServerException",
        "ModelErrorException",
        "ServiceQuotaExceededException",
        "ModelStreamErrorException",
    }
)

# Bedrock codes that mean the call timed out: a ``ModelTimeoutError``, retryable.
BEDROCK_TIMEOUT_ERRORS = frozenset(
    {"ModelTimeoutException", "RequestTimeout", "RequestTimeoutException"}
)
