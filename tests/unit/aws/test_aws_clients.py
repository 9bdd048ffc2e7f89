"""The AWS clients share botocore's data loader: a client's service model, endpoint rules and
partitions are read once per process, not once per client (each client has its own session)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from botocore.stub import Stubber

from agent_memory.aws_clients import new_aws_client

CREDENTIALS = {"aws_access_key_id": "testing", "aws_secret_access_key": "testing"}


def _client(service: str, region: str = "eu-west-1") -> Any:
    return new_aws_client(service, region_name=region, credentials=CREDENTIALS)


def test_clients_of_any_service_read_botocore_data_through_one_loader() -> None:
    # GIVEN clients of two services, made one after the other
    dynamodb, bedrock = _client("dynamodb"), _client("bedrock-runtime")

    # THEN both read through the same loader, which has cached the files it read
    assert dynamodb._loader is bedrock._loader
    assert dynamodb._loader._cache

    # AND they are separate clients, each configured as asked
    assert dynamodb.meta.service_model.service_name == "dynamodb"
    assert bedrock.meta.service_model.service_name == "bedrock-runtime"
    assert _client("dynamodb", region="us-west-2").meta.region_name == "us-west-2"


def test_clients_made_on_several_threads_share_the_loader_and_work() -> None:
    # GIVEN clients made concurrently on eight threads
    with ThreadPoolExecutor(max_workers=8) as pool:
        clients = list(pool.map(lambda _: _client("dynamodb"), range(8)))

    # THEN one loader serves them all, and each client answers a request
    assert len({id(client._loader) for client in clients}) == 1
    for client in clients:
        with Stubber(client) as stubber:
            stubber.add_response("describe_limits", {"AccountMaxReadCapacityUnits": 1})
            assert client.describe_limits()["AccountMaxReadCapacityUnits"] == 1
