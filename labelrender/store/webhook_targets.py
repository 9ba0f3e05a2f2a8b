"""Which webhook targets we may connect to (DECISIONS.md "Target checks").

A subscription URL must be public HTTPS. The same address rules run twice:
at subscribe time against the URL and every address its name resolves to,
and at delivery time against the address actually connected to, so a name
whose DNS answer changes in between (rebinding) still cannot reach a private
network. Pure code: the resolver is passed in, so tests control DNS.

Operators (never API callers) may allow networks, e.g. ``127.0.0.0/8`` for a
test receiver or a private install; an allowed address skips the address
rules, but the literal name ``localhost`` and the metadata names stay refused.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
# host, port -> the addresses (text) the name resolves to; OSError when it does not.
Resolver = Callable[[str, int], Sequence[str]]

REFUSED_NAMES = frozenset({
    "localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback",
    "metadata", "metadata.google.internal", "metadata.goog", "instance-data",
    "instance-data.ec2.internal", "metadata.azure.internal",
})
REFUSED_SUFFIXES = (".localhost", ".internal", ".local")
_HOST_NAME = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")
METADATA_ADDRESSES = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254", "169.254.170.2", "fd00:ec2::254", "100.100.100.200",
    "192.0.0.192",
))
CGNAT = ipaddress.ip_network("100.64.0.0/10")
# IPv6 forms that embed an IPv4 address: NAT64 and the deprecated compatible form.
NAT64 = ipaddress.ip_network("64:ff9b::/96")
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")
MAX_URL_LENGTH = 2048


class TargetRejected(ValueError):
    """A webhook URL or address we refuse to deliver to; the text says why."""


@dataclass(frozen=True)
class TargetPolicy:
    """The operator's allowlist of networks (empty: public addresses only)."""

    allow_networks: tuple[Network, ...] = ()

    @staticmethod
    def from_text(networks: Iterable[str]) -> TargetPolicy:
        """``["127.0.0.0/8", "::1/128"]`` -> a policy; ValueError on a bad network."""
        parsed = tuple(ipaddress.ip_network(n.strip(), strict=False)
                       for n in networks if n.strip())
        return TargetPolicy(parsed)

    def allows(self, address: Address) -> bool:
        return any(address in network for network in self.allow_networks)


def system_resolver(host: str, port: int) -> list[str]:
    """Every address the system resolver gives for ``host``."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def parse_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """``host`` read the way ``inet_aton`` reads it, or None.

    Browsers and C libraries accept 1 to 4 parts, each decimal, octal (leading
    0) or hex (0x); the last part fills the remaining bytes. So ``2130706433``,
    ``0x7f.1`` and ``0177.0.0.1`` are all 127.0.0.1 and must be caught as such.
    """
    parts = host.split(".")
    if parts and parts[-1] == "":  # a trailing dot is still the same address
        parts = parts[:-1]
    if not 1 <= len(parts) <= 4:
        return None
    values = [_ipv4_part(part) for part in parts]
    if any(value is None for value in values):
        return None
    numbers = [v for v in values if v is not None]
    *head, last = numbers
    if any(v > 255 for v in head) or last >= 256 ** (4 - len(head)):
        return None
    total = last
    for index, value in enumerate(head):
        total += value << (8 * (3 - index))
    return ipaddress.IPv4Address(total)


def _ipv4_part(part: str) -> int | None:
    text = part.lower()
    try:
        if text.startswith("0x"):
            return int(text[2:] or "0", 16)
        if len(text) > 1 and text.startswith("0"):
            return int(text[1:], 8)
        return int(text, 10) if text.isdigit() else None
    except ValueError:
        return None


def literal_address(host: str) -> Address | None:
    """The address ``host`` spells (IPv6 with or without brackets, any IPv4
    spelling), or None when it is a name."""
    bare = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if ":" in bare:
        if "%" in bare:
            raise TargetRejected(f"IPv6 zone ids are not allowed: {host!r}")
        try:
            return ipaddress.IPv6Address(bare)
        except ValueError as exc:
            raise TargetRejected(f"{host!r} is not a valid IPv6 address") from exc
    return parse_ipv4(bare)


def address_refusal(address: Address, policy: TargetPolicy) -> str | None:
    """Why ``address`` is refused, or None when it may be connected to."""
    if policy.allows(address):
        return None
    if isinstance(address, ipaddress.IPv6Address):
        embedded = _embedded_ipv4(address)
        if embedded is not None:
            reason = address_refusal(embedded, policy)
            return None if reason is None else f"IPv6 form of a {reason}"
    if address in METADATA_ADDRESSES:
        return "cloud metadata address"
    for test, reason in _CLASSES:
        if test(address):
            return reason
    return None


def _embedded_ipv4(address: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    if address.ipv4_mapped is not None:
        return address.ipv4_mapped
    if address in NAT64 or (address in IPV4_COMPATIBLE and int(address) > 1):
        return ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.sixtofour is not None:
        return address.sixtofour
    return None


_CLASSES: tuple[tuple[Callable[[Address], bool], str], ...] = (
    (lambda a: a.is_unspecified, "unspecified address"),
    (lambda a: a.is_loopback, "loopback address"),
    (lambda a: a.is_link_local, "link-local address"),
    (lambda a: a.is_multicast, "multicast address"),
    (lambda a: isinstance(a, ipaddress.IPv4Address) and a in CGNAT, "CGNAT address"),
    (lambda a: a.is_reserved, "reserved address"),
    (lambda a: a.is_private, "private address"),
    (lambda a: not a.is_global, "non-public address"),
)


def check_address(address: str | Address, policy: TargetPolicy) -> Address:
    """The address, or TargetRejected when it may not be connected to."""
    parsed = ipaddress.ip_address(address) if isinstance(address, str) else address
    reason = address_refusal(parsed, policy)
    if reason is not None:
        raise TargetRejected(f"{parsed} is refused: {reason}")
    return parsed


def normal_host(host: str) -> str:
    """The name every check and the resolver see: NFKC, lower case, no trailing
    dot, and IDNA (punycode) for what is not ASCII, so ``ⓛⓞⓒⓐⓛⓗⓞⓢⓣ``,
    ``LOCALHOST.`` and ``ｌｏｃａｌｈｏｓｔ`` are all ``localhost``; fullwidth
    digits become a literal address. TargetRejected for what cannot be a name."""
    name = unicodedata.normalize("NFKC", host).lower().rstrip(".")
    if not name.isascii():
        try:
            name = name.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise TargetRejected("url host is not a valid host name") from exc
    if not _HOST_NAME.fullmatch(name):
        raise TargetRejected("url host is not a valid host name")
    return name


def check_host_name(host: str) -> None:
    """Names refused whatever they resolve to (DECISIONS.md: ``localhost``,
    the metadata names), checked on the normal form (``normal_host``)."""
    name = normal_host(host)
    if name in REFUSED_NAMES or name.endswith(REFUSED_SUFFIXES):
        raise TargetRejected(f"{host!r} is a local or metadata name")


def check_url(url: str, resolver: Resolver, policy: TargetPolicy) -> str:
    """Subscribe-time check: ``url`` if it is public HTTPS and every address its
    host resolves to is allowed; TargetRejected with the reason otherwise."""
    host, port = split_target(url)
    address = literal_address(host)
    if address is not None:
        check_address(address, policy)
        return url
    check_host_name(host)
    resolve_checked(host, port, resolver, policy)
    return url


def split_target(url: str) -> tuple[str, int]:
    """Host and port of an absolute ``https://`` URL without credentials."""
    if len(url) > MAX_URL_LENGTH:
        raise TargetRejected(f"url is longer than {MAX_URL_LENGTH} characters")
    if any(ch.isspace() or ord(ch) < 32 for ch in url) or "\\" in url:
        raise TargetRejected("url contains whitespace, control characters or backslashes")
    try:
        parts = urlsplit(url)
        port = parts.port or 443
    except ValueError as exc:
        raise TargetRejected(f"url is malformed: {exc}") from exc
    if parts.scheme.lower() != "https":
        raise TargetRejected("url must use https")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise TargetRejected("url must not carry credentials")
    host = parts.hostname
    if not host:
        raise TargetRejected("url has no host")
    return (f"[{host}]" if ":" in host else normal_host(host)), port


def resolve_checked(host: str, port: int, resolver: Resolver,
                    policy: TargetPolicy) -> list[Address]:
    """Every address ``host`` resolves to, each checked; refused as a whole
    when any is refused (the connector might otherwise pick that one)."""
    try:
        answers = list(resolver(host, port))
    except (OSError, UnicodeError) as exc:
        raise TargetRejected(f"{host!r} does not resolve: {exc}") from exc
    if not answers:
        raise TargetRejected(f"{host!r} does not resolve")
    return [_checked_answer(host, answer, policy) for answer in answers]


def _checked_answer(host: str, answer: str, policy: TargetPolicy) -> Address:
    try:
        address = ipaddress.ip_address(answer)
    except ValueError as exc:
        raise TargetRejected(f"{host!r} resolves to a malformed address") from exc
    if address_refusal(address, policy) is not None:
        # Neither the address nor its kind: the message must not map the
        # internal network for whoever subscribes names to probe it.
        raise TargetRejected(f"{host!r} resolves to an address that may not be called "
                             "(local, private, reserved or metadata)")
    return address
