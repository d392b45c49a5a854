"""A property computed on first use and kept on its instance, without a lock.

``functools.cached_property`` on Python 3.11 takes one lock per property shared by every instance of
the class, so while one question's ranking was worked out (a 2,000-character question: seconds of
encoding) every other question waited for its own: a normal answer took 1.1 s instead of 25 ms
beside one long one. Evidence belongs to one question on one thread, so it needs no lock at all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class memoized(Generic[T]):
    """Like ``functools.cached_property`` (the value goes into the instance's ``__dict__`` under the
    method's name), minus the lock: for objects that one thread uses at a time."""

    def __init__(self, method: Callable[[Any], T]) -> None:
        self.method = method
        self.name = method.__name__
        self.__doc__ = method.__doc__

    @overload
    def __get__(self, instance: None, owner: type) -> memoized[T]: ...
    @overload
    def __get__(self, instance: object, owner: type) -> T: ...
    def __get__(self, instance: object | None, owner: type) -> T | memoized[T]:
        if instance is None:
            return self
        value = self.method(instance)
        instance.__dict__[self.name] = value  # found there first from now on: a non-data descriptor
        return value
