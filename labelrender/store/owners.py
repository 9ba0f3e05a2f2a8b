"""Which cluster object a global template or plan override is stored for.

The operator records an owner for everything it writes: the cluster it runs
for, ``namespace/name`` of the LabelTemplate (``name`` of the Plan) and the
object's uid, the instance. The entry is ``cluster:name uid``; records written
before clusters were named are ``name uid`` and belong to no cluster until the
object of that name claims them again.
A template another object owns is not overwritten (two namespaces may hold a
LabelTemplate of the same name), a delete removes only what its object owns,
and a resync removes what an object that is gone left behind, never what a
newer object of the same name (another uid) has just written.
"""

from __future__ import annotations

from dataclasses import dataclass

from labelrender.store.redis_conn import text

# Lua: the owner hash is KEYS[1], the id ARGV[1], the owner's key ARGV[2], the
# instance ARGV[3] ('' matches any instance) and ARGV[4] the same object's key
# in a record of before clusters ('' for none). Sets `held` (the stored entry
# or false) and `matches` (it is that owner's, and that instance's if given).
MATCH_LUA = """
local held = redis.call('HGET', KEYS[1], ARGV[1])
local matches = false
if held then
  local owner, instance = string.match(held, '^(.-) (.*)$')
  matches = (owner == ARGV[2] or (ARGV[4] ~= '' and owner == ARGV[4]))
    and (ARGV[3] == '' or instance == ARGV[3])
end
"""


@dataclass(frozen=True)
class Owner:
    """The object something is stored for: ``name`` (``namespace/name`` for a
    namespaced object) and its uid, which changes when it is deleted and made again."""

    name: str
    instance: str
    cluster: str = ""  # "": a record of before clusters were named

    def __post_init__(self) -> None:
        if " " in self.name or " " in self.instance or not self.name:
            raise ValueError("an owner name and instance hold no spaces")
        if ":" in self.name or " " in self.cluster or ":" in self.cluster:
            raise ValueError("an owner name and cluster hold no colons")

    @property
    def key(self) -> str:
        """What the record compares: the cluster and the name."""
        return f"{self.cluster}:{self.name}" if self.cluster else self.name

    def entry(self) -> str:
        return f"{self.key} {self.instance}"

    def is_for(self, obj: Owner) -> bool:
        """Whether this record is for the object ``obj`` names: the same name in
        the same cluster, or a record of before clusters of that name."""
        return self.name == obj.name and self.cluster in ("", obj.cluster)

    def describe(self, cluster: str) -> str:
        """The name, and the cluster when it is not ``cluster``."""
        if self.cluster in ("", cluster):
            return self.name
        return f"{self.name} of cluster {self.cluster}"


def parse(entry: object) -> Owner:
    key, _, instance = str(text(entry)).partition(" ")
    cluster, _, name = key.rpartition(":")
    return Owner(name, instance, cluster)


def read_all(mapping: dict[bytes | str, bytes | str]) -> dict[str, Owner]:
    """An owner hash (HGETALL) as id -> Owner."""
    return {str(text(key)): parse(value) for key, value in mapping.items()}
