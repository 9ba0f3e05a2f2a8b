"""Name badges and visitor passes: the person's name is the largest line of words.

A label is a badge when its static words say so ("VISITOR", "Besökare", "SPEAKER",
"Teilnehmer", a conference or a summit). There the name printed largest is the
person's: a visitor's on a pass, an attendee's on a conference badge, and a given name
printed alone over the surname splits into both. A company by its legal form under
the name is the person's company, a line under it with a word of a job ("Head of
Network Planning", "Kierownik ds. ...") their job title, and a role word printed large
lower down ("SPEAKER", "PRELEGENT") the attendee's kind. All of it comes from layout
alone, so its names are for review.
"""

from __future__ import annotations

import re

from . import shapes
from .addresses import COMPANY
from .decision import Decision, leading_spaces, mark_variable, rename_shaped_codes

_VISITOR = re.compile(r"\b(?:visitors?|visitatore|besökare|besokare|besucher|visiteur|"
                      r"visitante|bezoeker|gość|gosc|návštěva|navsteva|vierailija|"
                      r"látogató|ziyaretçi|guest|gast|ospite|invitado|contractor)\b", re.I)
# Roles of an event's people, the words of its badges.
_ROLES = (r"attendee|speaker|delegate|participant|teilnehmer|partecipante|participante|"
          r"deelnemer|uczestnik|prelegent|exhibitor|aussteller|exposant|espositore|expositor|"
          r"sponsor|press|presse|staff|crew")
_EVENT = re.compile(rf"\b(?:{_ROLES}|summit|conference|konferenz|konferencja|conferenza|"
                    r"congress|kongress|congresso|forum|expo|symposium|badge|namensschild|"
                    r"identyfikator)\b", re.I)
# Roles an event prints large on a badge.
_ROLE = re.compile(rf"(?:{_ROLES}|organi[sz]er|vip|moderator|referent|relatore|ponente)", re.I)
# A person's name: one to four words with capitals, particles allowed
# ("van der Berg", "Wiśniewska-Kozłowska", "O'Neill").
_WORD = r"[^\W\d_][^\W\d_'’.-]*(?:[-'’][^\W\d_]+)*\.?"
_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|do|dos|du|la|le|y|bin|al|ter|ten)"
_NAME = re.compile(rf"(?:{_PARTICLE}\s+)*{_WORD}(?:\s+(?:{_PARTICLE}\s+)*{_WORD}){{0,3}}")
_LARGE = 36
# Words of a job title, printed under the person's name ("Head of Network Planning",
# "Principal Platform Engineer", "Leiterin Einkauf", "Directeur commercial").
_JOB = re.compile(
    r"\b(?:engineer|manager|director|head of|officer|lead|specialist|analyst|consultant|"
    r"coordinator|developer|architect|president|chief|ceo|cto|cfo|coo|founder|co-founder|"
    r"scientist|researcher|professor|designer|administrator|supervisor|technician|advisor|"
    r"adviser|executive|planner|buyer|leiter|leiterin|ingenieur|ingenieurin|"
    r"geschäftsführer|geschäftsführerin|berater|beraterin|entwickler|entwicklerin|"
    r"directeur|directrice|responsable|ingénieur|ingénieure|chef de|gerente|ingeniero|"
    r"ingeniera|jefe|jefa|direttore|direttrice|responsabile|ingegnere|kierownik|dyrektor|"
    r"inżynier|specjalista|adviseur|hoofd|ingenjör|chef för|projektledare)\b", re.I)


def _person(text: str) -> bool:
    words = [w for w in text.split() if not re.fullmatch(_PARTICLE, w)]
    return bool(_NAME.fullmatch(text)) and bool(words) and len(words) <= 4 \
        and all(w[:1].isupper() for w in words) and not text.isupper() \
        and not shapes.reads_as_caption(text) and not shapes.is_country(text)


def refine(decisions: list[Decision]) -> None:
    """Name the person, their company and role on a badge or a visitor's pass."""
    static = " ".join(d.text for d in decisions if not d.variable and not d.source.is_barcode)
    visitor = _VISITOR.search(static) is not None
    if not visitor and _EVENT.search(static) is None:
        return
    for d in decisions:
        if visitor and d.variable and d.name == "time_slot":
            d.name = "valid_time"  # a pass's hours ("09:30 - 18:00"), no delivery window
    texts = sorted((d for d in decisions if not d.source.is_barcode and d.text.strip()),
                   key=lambda d: (d.source.ry, d.source.rx))
    names = [d for d in texts if d.source.font_height >= _LARGE and _person(d.text.strip())
             and (not d.variable or d.name_certainty <= 0.5)]
    if not names:
        return
    first = max(names, key=lambda d: d.source.font_height)
    below = [d for d in names if d is not first and 0 < d.source.ry - first.source.ry
             <= 2.5 * first.source.font_height and abs(d.source.rx - first.source.rx) <= 20]
    person = "visitor_name" if visitor else "attendee_name"
    if len(first.text.split()) == 1 and below:
        _mark(first, "a given name printed large on a badge", "first_name")
        _mark(below[0], "a surname under the given name on a badge", "last_name")
        last = below[0]
    else:
        _mark(first, "the name printed largest on a badge", person)
        last = first
    after = [d for d in texts if 0 < d.source.ry - last.source.ry <= 4 * last.source.font_height
             and abs(d.source.rx - last.source.rx) <= 20]
    company = next((d for d in after if COMPANY.search(d.text)
                    and (not d.variable or d.name_certainty <= 0.5)
                    and not shapes.has_digits(d.text, 1)), None)
    if company is not None:
        _mark(company, "a company under the name on a badge", "company")
    title = next((d for d in after if d is not company and _JOB.search(d.text)
                  and (not d.variable or d.name_certainty <= 0.5)
                  and not shapes.has_digits(d.text, 1) and len(d.text.split()) <= 6), None)
    if title is not None:
        _mark(title, "a job title under the name on a badge", "job_title")
    top = texts[0]
    for d in texts:
        if d is not top and not d.variable and d.source.font_height >= _LARGE \
                and d.text.isupper() and _ROLE.fullmatch(d.text.strip()):
            _mark(d, "the attendee's role printed large on a badge", "attendee_type")


# Names a pass's code may have from its shape or symbology alone.
_CODE_GUESSES = frozenset({"reference", "tracking_number", "serial_number", "text", "field"})
# A visitor, as a pass names one (a guest may be a hotel's, with its luggage).
_PASS_VISITOR = re.compile(r"\b(?:visitors?|visitatore|besökare|besokare|besucher|visiteur|"
                           r"visitante|bezoeker|gość|gosc|návštěva|navsteva|vierailija|"
                           r"látogató|ziyaretçi)\b", re.I)


def pass_numbers(decisions: list[Decision]) -> None:
    """A barcode only its shape or symbology named on a visitor's pass ("VISITOR",
    "Visitatore", "Besökare"), holding one code ("V2611-0193"), is the pass's number,
    and so is its printed form; a record of several values ("A|B|C") stays the
    barcode's data. (Once the other rules have named the codes their captions name.)"""
    static = " ".join(d.text for d in decisions if not d.variable and not d.source.is_barcode)
    if _PASS_VISITOR.search(static) is None:
        return
    for code in decisions:
        name = code.name or ""
        guessed = name in _CODE_GUESSES or name.endswith("_data")
        if not code.source.is_barcode or not code.variable or not guessed \
                or code.name_certainty >= 0.85 \
                or not re.fullmatch(r"[A-Z0-9][\w./-]{3,30}", (code.value or "").strip()):
            continue
        rename_shaped_codes([d for d in decisions if d.value == code.value], {name},
                            "pass_number")


def _mark(d: Decision, reason: str, name: str) -> None:
    d.variable = False
    mark_variable(d, reason, 0.6, leading_spaces(d), (name, 0.55))
