"""DeferredOpen: the open runs once after its delay unless the end of the turn comes first,
and the end of the turn waits for an open that is running."""

from __future__ import annotations

import threading

from agent_memory.ledger.deferred_open import DeferredOpen


def test_a_settle_before_the_delay_means_the_open_never_runs() -> None:
    # GIVEN an open deferred far into the future
    ran = threading.Event()
    deferred = DeferredOpen(ran.set, delay_s=60.0)
    # WHEN the turn ends first
    opened = deferred.settle()
    # THEN settle says so, and the open does not run afterwards either
    assert opened is False
    assert not ran.wait(0.05)
    assert deferred.settle() is False


def test_a_settle_after_the_open_ran_says_it_ran() -> None:
    # GIVEN an open that has run
    ran = threading.Event()
    deferred = DeferredOpen(ran.set, delay_s=0.0)
    assert ran.wait(5.0)
    # WHEN the turn ends
    # THEN settle says the item was opened
    assert deferred.settle() is True


def test_a_settle_while_the_open_runs_waits_for_it() -> None:
    # GIVEN an open that is running (blocked until released)
    started, release, finished = threading.Event(), threading.Event(), threading.Event()

    def slow_open() -> None:
        started.set()
        release.wait(5.0)
        finished.set()

    deferred = DeferredOpen(slow_open, delay_s=0.0)
    assert started.wait(5.0)
    answers: list[bool] = []
    settler = threading.Thread(target=lambda: answers.append(deferred.settle()))
    # WHEN the turn ends meanwhile
    settler.start()
    settler.join(0.05)
    # THEN settle has not returned before the open finished, and then says it ran
    assert answers == []
    release.set()
    settler.join(5.0)
    assert finished.is_set()
    assert answers == [True]
