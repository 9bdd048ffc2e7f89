"""AWS clients made with botocore alone.

Every client this package makes (DynamoDB, Bedrock Runtime, the WebSocket management API) is
a plain botocore client: boto3 adds resources and S3 transfers, which nothing here uses, and
importing it (with s3transfer) is a large part of a cold start. A client made here is the one
``boto3.session.Session().client(...)`` would make, from a private botocore session (a shared
session is not safe to create clients from on several threads).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import botocore.session
from botocore.config import Config


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
    return botocore.session.Session().create_client(
        service_name,
        region_name=region_name,
        endpoint_url=endpoint_url,
        config=config,
        aws_access_key_id=creds.get("aws_access_key_id"),
        aws_secret_access_key=creds.get("aws_secret_access_key"),
        aws_session_token=creds.get("aws_session_token"),
    )
