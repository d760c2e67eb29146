"""The game's random generator: every shuffle and coin flip comes from it.

A game between people is seeded with a secret of 256 bits (`new_secret_seed`), stored with the
game so that a replay of its answer log is exact. The stream is BLAKE2b keyed with that secret
over a counter (a keyed hash in counter mode is a cryptographically secure generator): seeing
any number of its outputs (an opening hand, a coin flip, every later shuffle) tells nothing
about the secret or about the outputs a player has not seen. Python's Mersenne Twister is not
such a generator: seeded with 31 bits it was searched exhaustively from one opening hand, and
even with a wide seed its state can be rebuilt from enough outputs.

A whole-number seed (a scenario file's `seed:`, a test, a benchmark, and every game stored
before secret seeds existed) keeps Python's Mersenne Twister, so those replay exactly as before.

Both generators count their draws (`draws`): the engine tells from it that an answer's
consequences touched randomness, which no takeback may cross (game.py, `Engine.sealed`). Every
random choice, a shuffle, a coin flip or one a card makes, goes through `getrandbits` or
`random`, so nothing random escapes the count; counting changes no output.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from typing import Any

SECRET_PREFIX = "k256:"
SECRET_BYTES = 32  # 256 bits; the security issue asks for at least 128
_BLOCK_BITS = 512  # one BLAKE2b digest


def new_secret_seed() -> str:
    """A fresh seed for a game between people, from the operating system's CSPRNG."""
    return SECRET_PREFIX + secrets.token_hex(SECRET_BYTES)


def make_rng(seed: int | str) -> random.Random:
    """The generator a game with this stored seed uses."""
    if isinstance(seed, str):
        if not seed.startswith(SECRET_PREFIX):
            raise ValueError("a text seed is a secret written by new_secret_seed")
        key = bytes.fromhex(seed[len(SECRET_PREFIX) :])
        if len(key) != SECRET_BYTES:
            raise ValueError(f"a secret seed has {SECRET_BYTES} bytes")
        return KeyedStream(key)
    return CountedRandom(seed)


class CountedRandom(random.Random):
    """Python's `random.Random` (the same stream for the same seed) counting its draws."""

    def __init__(self, seed: Any = None) -> None:
        self.draws = 0
        super().__init__(seed)

    def getrandbits(self, k: int) -> int:
        self.draws += 1
        return super().getrandbits(k)

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def __reduce__(self) -> tuple[Any, ...]:
        # random.Random's own reduce keeps the generator's state only; the count goes along.
        return (_counted, (self.getstate(), self.draws))


def _counted(state: tuple[Any, ...], draws: int) -> CountedRandom:
    rng = CountedRandom(0)
    rng.setstate(state)
    rng.draws = draws
    return rng


class KeyedStream(random.Random):
    """`random.Random` drawing its bits from BLAKE2b(key, counter), so `shuffle`, `choice` and
    the rest keep their documented behaviour on a secure, reproducible stream."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0
        self.draws = 0  # calls of getrandbits (random() is one), counted as CountedRandom does
        super().__init__()

    def seed(self, a: Any = None, version: int = 2) -> None:
        # random.Random.__init__ calls this; the key is the only seed, so it restarts the stream.
        self._counter = 0
        self._pool = 0
        self._pool_bits = 0

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        self.draws += 1
        while self._pool_bits < k:
            block = hashlib.blake2b(
                self._counter.to_bytes(16, "little"), key=self._key, digest_size=64
            ).digest()
            self._counter += 1
            self._pool |= int.from_bytes(block, "little") << self._pool_bits
            self._pool_bits += _BLOCK_BITS
        out = self._pool & ((1 << k) - 1)
        self._pool >>= k
        self._pool_bits -= k
        return out

    def random(self) -> float:
        return self.getrandbits(53) * (2.0**-53)

    def getstate(self) -> tuple[Any, ...]:
        return (self._key, self._counter, self._pool, self._pool_bits)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._key, self._counter, self._pool, self._pool_bits = state

    def __reduce__(self) -> tuple[Any, ...]:
        # random.Random's own reduce calls the class without arguments; the key is one. (A copy
        # of a game's state, engine/snapshots.py, copies its generator at the same place, and
        # with the same count of draws.)
        return (KeyedStream, (self._key,), (self.getstate(), self.draws))

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        if len(state) == 2:  # (generator state, draws), as __reduce__ gives it
            self.setstate(state[0])
            self.draws = state[1]
        else:
            self.setstate(state)
