"""The command table and the loop that plays a command stream into printer state."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..lexer import Command
from ..printer import PrinterState
from . import barcode, field, font, graphic, setup
from .font import _object_name

Handler = Callable[[PrinterState, Command], None]

COMMANDS: dict[str, Handler] = {
    **setup.COMMANDS,
    **field.COMMANDS,
    **font.COMMANDS,
    **graphic.COMMANDS,
    **barcode.COMMANDS,
}

# Stored formats may recall stored formats; a loop of them is cut off here.
_MAX_RECALL_DEPTH = 8


def execute(state: PrinterState, commands: Sequence[Command], depth: int = 0) -> None:
    """Play ``commands`` into ``state``, one handler per command."""
    cap = state.limits.max_commands
    for position, command in enumerate(commands):
        state.command = command
        if position % 256 == 0:
            state.check_time()
        state.commands_spent += 1
        if state.commands_spent > cap:
            state.spend_commands(0, command)  # raises, naming the command
        if state.recording is not None and command.name != "XZ":
            state.recording[1].append(command)
            continue
        if command.name == "DF":
            _download_format(state, command)
        elif command.name == "XF":
            _recall_format(state, command, commands, position + 1, depth)
        else:
            handler = COMMANDS.get(command.name)
            if handler is None:
                state.warn(f"unknown command {command.code}; ignored")
            elif state.in_label or command.name in _OUTSIDE_LABEL:
                handler(state, command)


def _download_format(state: PrinterState, command: Command) -> None:
    """^DFd:o.x - Download Format: the rest of this format is stored, not printed."""
    name = _object_name(command.params or "R:UNKNOWN.ZPL")
    state.recording = (name if "." in name else name + ".ZPL", [])


def _recall_format(
    state: PrinterState, command: Command, commands: Sequence[Command], rest: int, depth: int
) -> None:
    """^XFd:o.x - Recall Format: play a stored format, its ^FN fields filled from this one."""
    name = _object_name(command.params or "R:UNKNOWN.ZPL")
    stored = state.formats.get(name if "." in name else name + ".ZPL")
    if stored is None:
        state.warn(f"format {name} is not in memory; nothing recalled")
        return
    if depth >= _MAX_RECALL_DEPTH:
        raise state.over("recall_depth",
                         f"stored formats recall each other deeper than {_MAX_RECALL_DEPTH}")
    state.uses_format = True
    state.recalled.update(_field_values(state, commands, rest))
    execute(state, stored, depth + 1)


def _field_values(state: PrinterState, commands: Sequence[Command], rest: int) -> dict[int, str]:
    """The ^FN n ... ^FD value pairs that follow an ^XF (at ``rest`` on) in the same format;
    the commands read count against the command cap, as many ^XF in one format read the
    same ones again."""
    values: dict[int, str] = {}
    number: int | None = None
    for index in range(rest, len(commands)):
        command = commands[index]
        state.spend_commands(1, command)
        if command.name == "XZ":
            break
        if command.name == "FN":
            digits = "".join(ch for ch in command.params if ch.isdigit())
            number = int(digits) if digits else 0
        elif command.name in ("FD", "FV") and number is not None:
            values[number] = command.params
        elif command.name == "FS":
            number = None
    return values


# Commands that act outside ^XA..^XZ (control commands and downloads).
_OUTSIDE_LABEL = frozenset(
    {"XA", "CC", "CT", "CD", "DG", "DY", "DU", "CW", "CI"} | set(setup.SILENT))
