"""The package's errors have one root, and one ConfigurationError, as the docstrings say."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import agent_memory
import agent_memory.auth
import agent_memory.models
import agent_memory.repository
import agent_memory.service
from agent_memory.exceptions import AgentMemoryError, ConfigurationError


def runtime_exception_classes() -> list[type[BaseException]]:
    classes: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(agent_memory.__path__, prefix="agent_memory."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                inspect.isclass(value)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not name.startswith("_")  # private control flow, never raised out
            ):
                classes[f"{info.name}.{name}"] = value
    return list(classes.values())


def test_every_public_error_of_the_package_derives_from_agent_memory_error() -> None:
    # GIVEN every exception class the runtime package defines
    classes = runtime_exception_classes()

    # THEN there are many, and each is an AgentMemoryError
    assert len(classes) > 40
    assert [c.__qualname__ for c in classes if not issubclass(c, AgentMemoryError)] == []


def test_a_deploy_time_mistake_is_one_configuration_error_whichever_layer_finds_it() -> None:
    # GIVEN the configuration errors the repository, the service, auth and models raise
    # THEN the first two are the package's one class and the others derive from it
    assert agent_memory.repository.ConfigurationError is ConfigurationError
    assert agent_memory.service.ConfigurationError is ConfigurationError
    assert issubclass(agent_memory.auth.AuthConfigurationError, ConfigurationError)
    assert issubclass(agent_memory.models.ModelConfigurationError, ConfigurationError)
