"""Bounded, per-user memory for AI agents.

Follow one chat turn: ``functions/chat/app.py`` (handler) -> ``agent_memory.service.chat``
(service) -> ``agent_memory.domain`` (the memory rules) -> ``agent_memory.repository``
(DynamoDB) through ``agent_memory.ledger`` (the unit of work and its commit protocol).
"""
