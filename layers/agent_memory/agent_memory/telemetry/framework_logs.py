"""Framework logs that cannot copy memory, whatever the log level says.

At DEBUG, botocore logs every request's parameters (the memory documents of a
``TransactWriteItems``, the whole prompt of a Bedrock ``Converse``), Powertools' event handler
logs the validated route arguments (the user's message), the X-Ray SDK logs every entity it
sends, and the OpenAI client logs its request options. Lambda's log level controls
(``AWS_LAMBDA_LOG_LEVEL``) or ``POWERTOOLS_DEBUG`` would switch all of that on, so those loggers
are pinned to WARNING.

What they log at WARNING and above is operational, except an exception's text: Powertools'
resolver and tracer call ``logger.exception(error)``, whose message and traceback can quote
the input. ``ExceptionTextFilter`` keeps such a record but replaces its text by the type.
And a logging handler that fails prints the record's message and arguments to stderr unless
``logging.raiseExceptions`` is off.
"""

from __future__ import annotations

import logging

FRAMEWORK_LOGGERS = (
    "aws_lambda_powertools",
    "aws_xray_sdk",
    "boto3",
    "botocore",
    "urllib3",
    "httpx",
    "httpcore",
    "openai",
)
# A logger's filters only see the records created by that very logger, not its children's.
EXCEPTION_LOGGERS = (
    "aws_lambda_powertools.event_handler.api_gateway",
    "aws_lambda_powertools.tracing.tracer",
)
PINNED_LEVEL = logging.WARNING


class ExceptionTextFilter(logging.Filter):
    """A record that carries an exception keeps its level and logger, not the exception's
    text: the message is kept only when it is a plain string without arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not (record.exc_info or record.exc_text or record.stack_info):
            return True
        error = record.exc_info[1] if record.exc_info else None
        message = record.msg if isinstance(record.msg, str) and not record.args else "exception"
        if error is not None:
            message = f"{message} [{type(error).__name__}]"
        record.msg, record.args = message, ()
        record.exc_info = record.exc_text = record.stack_info = None
        return True


def _add_filter_once(target: logging.Logger | logging.Handler) -> None:
    if not any(isinstance(existing, ExceptionTextFilter) for existing in target.filters):
        target.addFilter(ExceptionTextFilter())


def quiet_framework_logs() -> None:
    """Pin the framework loggers (idempotent; run when the telemetry package is imported)."""
    # A handler that fails would otherwise print the record's message and arguments to
    # stderr (Python's documented production setting).
    logging.raiseExceptions = False
    for name in FRAMEWORK_LOGGERS:
        framework = logging.getLogger(name)
        framework.setLevel(PINNED_LEVEL)
        for handler in framework.handlers:  # e.g. the stream handler of POWERTOOLS_DEBUG
            _add_filter_once(handler)
    for name in EXCEPTION_LOGGERS:
        _add_filter_once(logging.getLogger(name))
