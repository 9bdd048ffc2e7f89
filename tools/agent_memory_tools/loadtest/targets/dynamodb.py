"""Where the in-process target's handlers keep memory: a moto server the load test starts
(the default), or real DynamoDB tables reached with the ambient AWS credentials.

The moto server is the local stack's (``LocalDynamoDB``): it serves one request at a time,
because moto's DynamoDB is not atomic under concurrent requests and would otherwise lose
writes that DynamoDB never loses, which the checker would report as lost updates.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from agent_memory.repository import ENV_ENDPOINT_URL, TableNames, new_client
from agent_memory_tools.loadtest.exceptions import TargetError

MOTO_CREDENTIALS = {"aws_access_key_id": "local", "aws_secret_access_key": "local"}
MOTO_REGION = "us-east-1"


class Tables(Protocol):
    kind: str
    names: TableNames

    @property
    def endpoint_url(self) -> str | None: ...

    @property
    def uses_real_credentials(self) -> bool: ...

    def start(self) -> None: ...

    def client(self) -> Any: ...

    def describe(self) -> dict[str, Any]: ...

    def close(self) -> None: ...


class MotoTables:
    kind = "moto"
    uses_real_credentials = False

    def __init__(self, template_path: Path, run_id: str) -> None:
        self.names = TableNames(
            memory=f"agent-memory-loadtest-{run_id}-memory",
            turn_ledger=f"agent-memory-loadtest-{run_id}-turn-ledger",
        )
        self._template_path = template_path
        self._server: Any = None

    @property
    def endpoint_url(self) -> str:
        if self._server is None:
            raise RuntimeError("the moto server is not started")
        return str(self._server.endpoint_url)

    def start(self) -> None:
        from agent_memory_tools.local.dynamodb import LocalDynamoDB
        from agent_memory_tools.local.exceptions import StartupError

        try:
            self._server = LocalDynamoDB(self._template_path, self.names).start()
        except StartupError as error:
            raise TargetError(str(error)) from None
        except ImportError:
            raise TargetError(
                "moto is not installed: install the dev requirements (make test sets them up)"
                " or point the load test at real tables (--table-prefix / --tables-from-env)."
            ) from None

    def client(self) -> Any:
        return new_client(
            region=MOTO_REGION, endpoint_url=self.endpoint_url, credentials=MOTO_CREDENTIALS
        )

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "tables": [self.names.memory, self.names.turn_ledger]}

    def close(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.close()


@dataclass
class AwsTables:
    """Existing tables (``create=False``), or tables this run creates from the template when
    missing and deletes afterwards unless told to keep them."""

    names: TableNames
    template_path: Path
    create: bool
    keep: bool
    kind: str = "aws"
    uses_real_credentials: bool = True
    _created: bool = False

    @property
    def endpoint_url(self) -> str | None:
        return os.environ.get(ENV_ENDPOINT_URL) or None

    def client(self) -> Any:
        return new_client()

    def start(self) -> None:
        from botocore.exceptions import BotoCoreError, ClientError

        from agent_memory.repository.tables import create_tables_from_template

        try:
            client = self.client()
            missing = [
                name
                for name in (self.names.memory, self.names.turn_ledger)
                if not _exists(client, name)
            ]
            if missing and not self.create:
                raise TargetError(f"No such DynamoDB table(s): {', '.join(missing)}.")
            if missing:
                if len(missing) != 2:
                    raise TargetError(
                        f"Only one of the two tables exists ({', '.join(missing)} is missing):"
                        " delete it or choose another --table-prefix."
                    )
                create_tables_from_template(client, self.names, self.template_path)
                self._created = True
        except (BotoCoreError, ClientError) as error:
            raise TargetError(f"Cannot use the DynamoDB tables: {error}") from None

    def describe(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "tables": [self.names.memory, self.names.turn_ledger],
            "created_by_run": self._created,
        }

    def close(self) -> None:
        if self._created and not self.keep:
            from agent_memory.repository.tables import delete_tables

            delete_tables(self.client(), self.names)
            self._created = False


def _exists(client: Any, table_name: str) -> bool:
    try:
        client.describe_table(TableName=table_name)
    except client.exceptions.ResourceNotFoundException:
        return False
    return True
