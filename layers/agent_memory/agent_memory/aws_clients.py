"""AWS clients made with botocore alone.

Every client this package makes (DynamoDB, Bedrock Runtime, the WebSocket management API) is
a plain botocore client: boto3 adds resources and S3 transfers, which nothing here uses, and
importing it (with s3transfer) is a large part of a cold start. A client made here is the one
``boto3.session.Session().client(...)`` would make, from a private botocore session (a shared
session is not safe to create clients from on several threads).

The sessions share one data loader, botocore's reader of its JSON data (the service models,
endpoint rules, partitions, default configuration), which caches what it has read: a
private loader per session parsed those files again for every client, about 35 ms each on
a chat turn's first request, which builds three clients (two DynamoDB, one Bedrock).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Any

import botocore.session
from botocore.config import Config
from botocore.loaders import Loader


class _SharedLoader:
    """The process's one botocore data loader, taken from the first session that needs one.

    Its cache is a dictionary filled on first read of each file: threads that race on a file
    both read it and one result is kept, the same data.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loader: Loader | None = None

    def session(self) -> botocore.session.Session:
        """A new session whose clients read botocore's data through the shared loader."""
        session = botocore.session.Session()
        with self._lock:
            if self._loader is None:
                self._loader = session.get_component("data_loader")
            else:
                session.register_component("data_loader", self._loader)
        return session


_SHARED_LOADER = _SharedLoader()


def new_aws_client(
    service_name: str,
    *,
    region_name: str | None = None,
    endpoint_url: str | None = None,
    config: Config | None = None,
    credentials: Mapping[str, str] | None = None,
) -> Any:
    """A new client of ``service_name`` (typed by the caller: ``DynamoDBClient``...).

    ``credentials`` (``aws_access_key_id``, ``aws_secret_access_key``, optional
    ``aws_session_token``) is for tests and the local stack; Lambda uses its role.
    """
    creds = credentials or {}
    return _SHARED_LOADER.session().create_client(
        service_name,
        region_name=region_name,
        endpoint_url=endpoint_url,
        config=config,
        aws_access_key_id=creds.get("aws_access_key_id"),
        aws_secret_access_key=creds.get("aws_secret_access_key"),
        aws_session_token=creds.get("aws_session_token"),
    )
