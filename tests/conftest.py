"""Settings for the whole suite."""

from __future__ import annotations

from hypothesis import settings

# Hypothesis checks rules, not speed: a per-example deadline only measures how busy the machine
# is (CI shares two cores), and speed goals live in benchmarks/, which print figures.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")
