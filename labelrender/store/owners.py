"""Which cluster object a global template or plan override is stored for.

The operator records an owner for everything it writes: ``namespace/name`` of
the LabelTemplate (``name`` of the Plan) and the object's uid, the instance.
A template another object owns is not overwritten (two namespaces may hold a
LabelTemplate of the same name), a delete removes only what its object owns,
and a resync removes what an object that is gone left behind, never what a
newer object of the same name (another uid) has just written.
"""

from __future__ import annotations

from dataclasses import dataclass

from labelrender.store.redis_conn import text

# Lua: the owner hash is KEYS[1], the id ARGV[1], the owner ARGV[2] and the
# instance ARGV[3] ('' matches any instance). Sets `held` (the stored entry or
# false) and `matches` (it is that owner's, and that instance's if given).
MATCH_LUA = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
local matches = false
if held then
  local owner, instance = string.match(held, '^(.-) (.*)$')
  matches = owner == ARGV[2] and (ARGV[3] == '' or instance == ARGV[3])
end
"""


@dataclass(frozen=True)
class Owner:
    """The object something is stored for: ``name`` (``namespace/name`` for a
    namespaced object) and its uid, which changes when it is deleted and made again."""

    name: str
    instance: str

    def __post_init__(self) -> None:
        if " " in self.name or " " in self.instance or not self.name:
            raise ValueError("an owner name and instance hold no spaces")

    def entry(self) -> str:
        return f"{self.name} {self.instance}"


def parse(entry: object) -> Owner:
    name, _, instance = str(text(entry)).partition(" ")
    return Owner(name, instance)


def read_all(mapping: dict[bytes | str, bytes | str]) -> dict[str, Owner]:
    """An owner hash (HGETALL) as id -> Owner."""
    return {str(text(key)): parse(value) for key, value in mapping.items()}
