"""The SSRF table: hostile webhook URLs, all refused at subscribe time, and the
same address rules at connect time (DECISIONS.md "Target checks").

docs/operators/security.md shows this same table; a test keeps them equal.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest

from labelrender.store.webhook_targets import TargetPolicy, TargetRejected, check_url
from labelrender.worker.delivery import CheckedResolver, RefusedAddress

DNS = {
    "public.example.test": ["93.184.216.34"],
    "v6.example.test": ["2606:4700:4700::1111"],
    "internal.example.test": ["10.1.2.3"],
    "mixed.example.test": ["93.184.216.34", "127.0.0.1"],
    "meta.example.test": ["169.254.169.254"],
    "mapped.example.test": ["::ffff:192.168.0.1"],
}

# (url, what makes it hostile: a word the refusal message carries)
HOSTILE = [
    ("http://public.example.test/hook", "https"),
    ("ftp://public.example.test/hook", "https"),
    ("https://user:pass@public.example.test/hook", "credentials"),
    ("https:///hook", "no host"),
    ("https://localhost/hook", "local"),
    ("https://LOCALHOST./hook", "local"),
    ("https://printer.localhost/hook", "local"),
    ("https://127.0.0.1/hook", "loopback"),
    ("https://127.8.9.10/hook", "loopback"),
    ("https://2130706433/hook", "loopback"),
    ("https://0x7f000001/hook", "loopback"),
    ("https://0177.0.0.1/hook", "loopback"),
    ("https://0x7f.0.0.1/hook", "loopback"),
    ("https://127.1/hook", "loopback"),
    ("https://0.0.0.0/hook", "unspecified"),
    ("https://0/hook", "unspecified"),
    ("https://[::1]/hook", "loopback"),
    ("https://[::]/hook", "unspecified"),
    ("https://[::ffff:127.0.0.1]/hook", "loopback"),
    ("https://[::ffff:a9fe:a9fe]/hook", "metadata"),
    ("https://[64:ff9b::a9fe:a9fe]/hook", "metadata"),
    ("https://[2002:7f00:1::]/hook", "loopback"),
    ("https://10.0.0.1/hook", "private"),
    ("https://172.16.5.4/hook", "private"),
    ("https://192.168.1.1/hook", "private"),
    ("https://169.254.169.254/latest/meta-data/", "metadata"),
    ("https://0xa9.0xfe.0xa9.0xfe/latest/meta-data/", "metadata"),
    ("https://2852039166/latest/meta-data/", "metadata"),
    ("https://[fd00:ec2::254]/latest/meta-data/", "metadata"),
    ("https://metadata.google.internal/computeMetadata/v1/", "metadata"),
    ("https://100.100.100.200/latest/meta-data/", "metadata"),
    ("https://169.254.1.1/hook", "link-local"),
    ("https://[fe80::1]/hook", "link-local"),
    ("https://[fe80::1%25eth0]/hook", "zone"),
    ("https://[fc00::1]/hook", "private"),
    ("https://100.64.0.1/hook", "CGNAT"),
    ("https://224.0.0.1/hook", "multicast"),
    ("https://[ff02::1]/hook", "multicast"),
    ("https://240.0.0.1/hook", "reserved"),
    ("https://255.255.255.255/hook", "reserved"),
    ("https://internal.example.test/hook", "may not be called"),
    ("https://mixed.example.test/hook", "may not be called"),
    ("https://meta.example.test/hook", "may not be called"),
    ("https://mapped.example.test/hook", "may not be called"),
    ("https://nowhere.example.test/hook", "does not resolve"),
]
ALLOWED = [
    "https://public.example.test/hook",
    "https://public.example.test:8443/hooks/labels?x=1",
    "https://v6.example.test/hook",
    "https://93.184.216.34/hook",
    "https://[2606:4700:4700::1111]/hook",
]


def table_resolver(host: str, port: int) -> list[str]:
    if host in DNS:
        return DNS[host]
    raise OSError(f"no such host {host}")


def test_the_table_is_long_enough() -> None:
    assert len(HOSTILE) >= 25


@pytest.mark.parametrize(("url", "why"), HOSTILE)
def test_hostile_url_is_refused_at_subscribe_time(url: str, why: str) -> None:
    with pytest.raises(TargetRejected, match=re.escape(why)):
        check_url(url, table_resolver, TargetPolicy())


# Names that only normalisation shows to be local: NFKC (circled and fullwidth
# letters and digits), case and trailing dots, IDNA; each refused for what it is.
DISGUISED = [
    ("https://\u24db\u24de\u24d2\u24d0\u24db\u24d7\u24de\u24e2\u24e3/hook", "local"),
    ("https://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54./hook", "local"),
    ("https://LocalHost../hook", "local"),
    ("https://printer.\u24db\u24de\u24d2\u24d0\u24db/hook", "local"),
    ("https://metadata.google.\uff49\uff4e\uff54\uff45\uff52\uff4e\uff41\uff4c/", "metadata"),
    ("https://\uff11\uff12\uff17.\uff10.\uff10.\uff11/hook", "loopback"),
    ("https://\u2170\u2170.example/hook", "does not resolve"),  # NFKC "ii.example"
]


@pytest.mark.parametrize(("url", "why"), DISGUISED)
def test_names_are_normalised_before_every_check(url: str, why: str) -> None:
    """With the operator's allowlist set (the probe's case), a disguised
    ``localhost`` still meets the name check, as the plain name does."""
    for policy in (TargetPolicy(), TargetPolicy.from_text(["127.0.0.0/8"])):
        if why == "loopback" and policy.allow_networks:
            continue  # the operator allowed loopback addresses on purpose
        with pytest.raises(TargetRejected, match=re.escape(why)):
            check_url(url, table_resolver, policy)


def test_refusals_do_not_say_what_a_name_resolves_to() -> None:
    """A subscribe error is no DNS oracle for the internal network: names that
    resolve to a private, a loopback, a metadata or a mapped address are all
    refused in the same words, none of them the address."""
    messages = set()
    for host in ("internal", "mixed", "meta", "mapped"):
        name = f"{host}.example.test"
        with pytest.raises(TargetRejected) as caught:
            check_url(f"https://{name}/hook", table_resolver, TargetPolicy())
        assert not any(answer in str(caught.value) for answer in DNS[name])
        messages.add(str(caught.value).replace(name, "NAME"))
    assert len(messages) == 1


@pytest.mark.parametrize("url", ALLOWED)
def test_public_https_is_accepted(url: str) -> None:
    assert check_url(url, table_resolver, TargetPolicy()) == url


def test_operator_allowlist_lets_only_its_networks_through() -> None:
    policy = TargetPolicy.from_text(["127.0.0.0/8"])
    assert check_url("https://127.0.0.1:8443/hook", table_resolver, policy)
    for url in ("https://[::1]/hook", "https://10.0.0.1/hook", "https://localhost/hook",
                "https://169.254.169.254/"):
        with pytest.raises(TargetRejected):
            check_url(url, table_resolver, policy)


class Rebinding:
    """A name that answers a public address first, then loopback."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, host: str, port: int) -> list[str]:
        self.calls += 1
        return ["93.184.216.34"] if self.calls == 1 else ["127.0.0.1"]


async def test_rebinding_name_passes_subscribe_but_not_connect() -> None:
    rebinding = Rebinding()
    url = "https://rebind.example.test/hook"
    assert check_url(url, rebinding, TargetPolicy()) == url  # subscribe time
    with pytest.raises(RefusedAddress, match="may not be called"):  # connect time
        await CheckedResolver(rebinding, TargetPolicy()).resolve("rebind.example.test", 443)


@pytest.mark.parametrize("host", [
    "127.0.0.1", "0x7f.1", "2130706433", "[::1]", "::ffff:127.0.0.1", "localhost",
    "internal.example.test", "mixed.example.test", "meta.example.test",
    "metadata.google.internal",
])
async def test_connect_time_resolver_refuses(host: str) -> None:
    with pytest.raises(RefusedAddress):
        await CheckedResolver(table_resolver, TargetPolicy()).resolve(host, 443)


async def test_connect_time_resolver_returns_only_checked_addresses() -> None:
    resolver = CheckedResolver(table_resolver, TargetPolicy())
    [answer] = await resolver.resolve("public.example.test", 443, socket.AF_UNSPEC)
    assert (answer["host"], answer["hostname"], answer["port"]) == (
        "93.184.216.34", "public.example.test", 443)


def test_the_security_page_shows_this_table() -> None:
    security = (Path(__file__).resolve().parents[2] / "docs/operators/security.md").read_text()
    missing = [url for url, _ in HOSTILE if f"`{url}`" not in security]
    assert missing == []
