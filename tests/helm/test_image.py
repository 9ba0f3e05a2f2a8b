"""The Dockerfile, read without a Docker engine: what it copies exists and
reaches the build context, it runs a real `labelrender` subcommand as the
chart's non-root user, and its final stage carries no compilers."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from labelrender.cli import build_parser
from tests.helm.support import REPO, case_values, chart, pod_spec, render

DOCKERFILE = REPO / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"
COMPILERS = {"build-essential", "gcc", "g++", "clang", "make", "cc", "cpp"}


@dataclass(frozen=True)
class Instruction:
    keyword: str
    arguments: str


def instructions(text: str) -> list[Instruction]:
    """Dockerfile instructions, continuation lines joined, comments dropped."""
    parsed: list[Instruction] = []
    pending = ""
    for line in text.splitlines():
        if line.lstrip().startswith("#") or not line.strip():
            continue
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        keyword, _, arguments = (pending + line).strip().partition(" ")
        parsed.append(Instruction(keyword.upper(), arguments.strip()))
        pending = ""
    return parsed


def stages() -> list[list[Instruction]]:
    """The build stages, each from its FROM; ARGs before the first FROM applied."""
    found: list[list[Instruction]] = []
    global_args: dict[str, str] = {}
    for instruction in instructions(DOCKERFILE.read_text()):
        if instruction.keyword == "ARG" and not found:
            name, _, default = instruction.arguments.partition("=")
            global_args[name] = default
            continue
        arguments = re.sub(r"\$\{(\w+)\}", lambda m: global_args.get(m[1], m[0]),
                           instruction.arguments)
        if instruction.keyword == "FROM":
            found.append([])
        found[-1].append(Instruction(instruction.keyword, arguments))
    return found


def ignore_patterns() -> list[str]:
    return [line.strip() for line in DOCKERIGNORE.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def pattern_regex(pattern: str) -> re.Pattern[str]:
    """A .dockerignore pattern (Go filepath.Match plus **) as a regex."""
    parts = re.split(r"(\*\*/|\*\*|\*|\?|\[[^\]]*\])", pattern.strip("/"))
    wildcards = {"**/": "(?:.*/)?", "**": ".*", "*": "[^/]*", "?": "[^/]"}

    def piece(part: str) -> str:
        if part.startswith("[") and part.endswith("]"):  # a class; Go negates with ^
            return part
        return wildcards.get(part, re.escape(part))

    return re.compile("".join(piece(part) for part in parts))


def ignored(path: str, patterns: list[str]) -> bool:
    """Docker's rule: the last pattern matching the path or a parent decides."""
    parents = [str(Path(*Path(path).parts[:n])) for n in range(1, len(Path(path).parts) + 1)]
    verdict = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        regex = pattern_regex(pattern.removeprefix("!"))
        if any(regex.fullmatch(p) for p in parents):
            verdict = not negated
    return verdict


@pytest.mark.parametrize(("path", "expected"), [
    ("pyproject.toml", False),
    ("README.md", False),
    ("labelrender/zpl/fonts/Inter-Bold.otf", False),
    ("labelrender/zpl/__pycache__/lexer.cpython-311.pyc", True),
    ("labelrender/zpl/lexer.pyc", True),
    ("tests/conftest.py", True),
    ("helm/labelrender/values.yaml", True),
    (".git/config", True),
    (".labelrender/redis.db", True),
    ("benchmarks/api_load.py", True),
])
def test_the_build_context_holds_the_package_and_nothing_else(path: str,
                                                              expected: bool) -> None:
    assert ignored(path, ignore_patterns()) is expected


def copies() -> list[tuple[list[str], str]]:
    """(sources, destination) of every COPY from the build context."""
    found = []
    for stage in stages():
        for instruction in stage:
            if instruction.keyword == "COPY" and "--from" not in instruction.arguments:
                *sources, destination = instruction.arguments.split()
                found.append((sources, destination))
    return found


def test_every_copied_path_exists_and_reaches_the_context() -> None:
    patterns = ignore_patterns()
    assert copies()
    for sources, _ in copies():
        for source in sources:
            path = REPO / source
            assert path.exists(), source
            files = [path] if path.is_file() else [
                p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
            assert files
            for file in files:
                assert not ignored(str(file.relative_to(REPO)), patterns), file


def test_what_pip_reads_to_install_the_package_is_copied() -> None:
    """pyproject.toml names its readme and package directory; both must be there."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text())
    copied = {Path(s).name for sources, _ in copies() for s in sources}
    assert {"pyproject.toml", project["project"]["readme"], "labelrender"} <= copied


def exec_form(stage: list[Instruction], keyword: str) -> list[str]:
    (instruction,) = [i for i in stage if i.keyword == keyword]
    command: list[str] = json.loads(instruction.arguments)  # exec form: a JSON list
    return command


def subcommands() -> set[str]:
    (action,) = [a for a in build_parser()._subparsers._group_actions]  # type: ignore[union-attr]
    return set(action.choices)


def tiers() -> set[str]:
    """The tiers the image runs; the operator once the package has its command."""
    return {"api", "worker"} | ({"operator"} & subcommands())


def test_the_image_runs_a_labelrender_subcommand() -> None:
    final = stages()[-1]
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert exec_form(final, "ENTRYPOINT") == ["labelrender"]
    assert scripts["labelrender"] == "labelrender.cli:main"
    (default,) = exec_form(final, "CMD")
    assert default in tiers()


def test_every_tier_the_chart_runs_is_a_subcommand_of_the_image() -> None:
    for component, deployment in render(case_values("defaults")).deployments():
        if component in tiers():
            (container,) = pod_spec(deployment)["containers"]
            assert container["args"][0] in subcommands()


def test_stages_are_slim_and_the_last_has_no_compilers() -> None:
    *builders, final = stages()
    assert builders, "multi-stage: a build stage and a runtime stage"
    for stage in stages():
        image = stage[0].arguments.split()[0]
        assert re.fullmatch(r"python:3\.1[1-9][\w.]*-slim[\w-]*", image), image
    installs = " ".join(i.arguments for i in final if i.keyword == "RUN")
    assert not COMPILERS & set(re.findall(r"[\w+.-]+", installs))
    assert all(i.arguments.startswith("--from=") for i in final if i.keyword == "COPY")


def test_the_image_user_is_the_charts_non_root_user() -> None:
    final = stages()[-1]
    (user,) = [i.arguments for i in final if i.keyword == "USER"]
    uid, _, gid = user.partition(":")
    security = chart().values["podSecurityContext"]
    assert (int(uid), int(gid)) == (security["runAsUser"], security["runAsGroup"])
    assert int(uid) != 0


def test_the_image_exposes_the_api_port_of_the_chart() -> None:
    (exposed,) = [i.arguments for i in stages()[-1] if i.keyword == "EXPOSE"]
    assert int(exposed) == chart().values["api"]["port"]
