"""What is expensive to make and the same every time it is asked for, made once and kept (part of
the service layer): a finished game's replay in a language, the board or the position in words at
a game's version, a player's hint at a version.

`Kept` is a small memo: the result of a key is made by the first request; requests for the same
key while it is being made wait for that one (30 replays asked at once draw one); the least
recently used results are let go beyond a count. A failure is not kept, nor an empty result (a
drawing that failed and was logged): the next request tries again.

>>> import asyncio
>>> made = []
>>> async def make(n):
...     made.append(n)
...     await asyncio.sleep(0)
...     return n * n
>>> kept = Kept(2)
>>> async def ask():
...     first = await asyncio.gather(*(kept.get(("sq", 3), lambda: make(3)) for _ in range(5)))
...     again = await kept.get(("sq", 3), lambda: make(3))
...     return first, again
>>> asyncio.run(ask()), made
(([9, 9, 9, 9, 9], 9), [3])
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class Kept:
    """Results by key, made once (see the module docstring); at most ``count`` kept."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._done: OrderedDict[Hashable, Any] = OrderedDict()
        self._making: dict[Hashable, asyncio.Future[Any]] = {}

    def holds(self, key: Hashable) -> bool:
        """Whether ``key``'s result is kept or being made (asking for it costs nothing more)."""
        return key in self._done or key in self._making

    async def get(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        """The result kept for ``key``, made by ``make()`` when there is none."""
        if key in self._done:
            self._done.move_to_end(key)
            result: T = self._done[key]
            return result
        if key in self._making:
            shared: T = await asyncio.shield(self._making[key])
            return shared
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._making[key] = future
        try:
            result = await make()
        except BaseException as error:
            if isinstance(error, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(error)
                future.exception()  # marked retrieved: no "never retrieved" log when nobody waited
            raise
        finally:
            del self._making[key]
        future.set_result(result)
        if result:
            self._done[key] = result
        while len(self._done) > self.count:
            self._done.popitem(last=False)
        return result
