"""game/runtime/lru.py: the one bounded memo every hand-rolled LRU becomes."""

from __future__ import annotations

import threading

import pytest

from game.runtime.lru import LRU, StateMemo


def test_the_least_recently_used_entry_goes_first() -> None:
    memo: LRU[str, int] = LRU(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "a" is now the most recent: "b" goes next
    memo.put("c", 3)
    assert "b" not in memo
    assert memo.get("a") == 1 and memo.get("c") == 3
    assert len(memo) == 2


def test_peek_does_not_refresh_and_put_replaces() -> None:
    memo: LRU[str, int] = LRU(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.peek("a") == 1  # not made recent
    memo.put("b", 20)  # a replacement counts as a use
    memo.put("c", 3)
    assert "a" not in memo
    assert memo.peek("b") == 20


def test_get_or_make_makes_once_and_keeps() -> None:
    memo: LRU[str, int] = LRU(4)
    calls = []
    assert memo.get_or_make("k", lambda: calls.append(1) or 7) == 7
    assert memo.get_or_make("k", lambda: calls.append(1) or 8) == 7
    assert calls == [1]


def test_missing_keys_pop_and_clear() -> None:
    memo: LRU[str, int] = LRU(1)
    assert memo.get("x") is None and memo.get("x", 5) == 5 and memo.peek("x", 6) == 6
    memo.put("x", 0)  # a falsy value is a value
    assert memo.get("x", 5) == 0
    assert memo.pop("x") == 0 and memo.pop("x") is None
    memo.put("y", 1)
    memo.clear()
    assert len(memo) == 0
    with pytest.raises(ValueError):
        LRU(0)


def test_threads_share_one_memo_within_its_bound() -> None:
    memo: LRU[int, int] = LRU(50)
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for i in range(2000):
                key = (i * 7 + offset) % 120
                assert memo.get_or_make(key, lambda k=key: k * 2) == key * 2
                memo.put(key, key * 2)
                memo.pop((key + 1) % 120)
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(memo) <= 50


def test_a_state_memo_holds_a_value_while_its_state_holds_and_before_its_deadline() -> None:
    memo: StateMemo[str, str] = StateMemo(2)
    memo.put("game", ("v1", "alice online"), "page", until=10.0)
    assert memo.get("game", ("v1", "alice online"), now=9.9) == "page"
    assert memo.get("game", ("v2", "alice online"), now=9.9) is None  # made from another state
    assert memo.get("game", ("v1", "alice online"), now=10.0) is None  # its deadline passed
    memo.put("game", "s", "forever", until=float("inf"))
    memo.put("other", "s", "a", until=float("inf"))
    memo.put("third", "s", "b", until=float("inf"))  # bounded: the least recently used goes
    assert memo.get("game", "s", now=1e12) is None
    assert memo.get("third", "s", now=1e12) == "b"
