"""The synthesis evaluation stays sound: every hand label still names a field of its
label, the split is the documented one, and generated labels carry valid check digits
and come back without merged fields. (Its figures are printed by
benchmarks/synthesis_eval.py; no figure is asserted here.)"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from labelrender.synth import recognise
from labelrender.synth.engine import SynthesisRequest, make_engine
from labelrender.synth.source import read_first_label

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
import synthesis_eval as evaluation  # noqa: E402
import synthesis_generate as generation  # noqa: E402

TRUTH = json.loads((BENCHMARKS / "synthesis_truth.json").read_text(encoding="utf-8"))["labels"]
WRITTEN = sorted(p.name.removesuffix(".truth.json")
                 for p in evaluation.WRITTEN.glob("*.truth.json"))
CORPUS = evaluation.DEFAULT_CORPUS
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"corpus not found at {CORPUS}")


def test_the_split_is_the_documented_hash_of_the_name() -> None:
    names = sorted(TRUTH) + WRITTEN
    held = sorted(n for n in names if evaluation.held_out(n))
    assert held == sorted(n for n in names if hashlib.sha256(n.encode()).digest()[0] % 2
                          and not n.startswith("dev_"))
    assert len(held) == 257
    assert not set(TRUTH) & set(WRITTEN)


def test_misses_are_never_listed_for_the_held_out_part() -> None:
    scores = [evaluation.LabelScore("a", misses=["missed  reference  'R-1'"])]
    args = argparse.Namespace(labels=True, misses=True)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        evaluation.print_set("held out", scores, args, misses=False)
    assert "R-1" not in out.getvalue()
    with contextlib.redirect_stdout(out):
        evaluation.print_set("dev", scores, args)
    assert "R-1" in out.getvalue()


def _beside(name: str) -> bool:
    """A written label whose ZPL sits beside its truth (no corpus needed)."""
    return evaluation.WRITTEN.joinpath(f"{name}.zpl").is_file()


@pytest.mark.parametrize("name", sorted(TRUTH) + WRITTEN)
def test_every_hand_label_names_a_field_of_its_label(name: str) -> None:
    if not _beside(name) and not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    zpl, entries = evaluation.load_truth(CORPUS, written_only=_beside(name))[name]
    fields = evaluation.field_texts(zpl)
    for text, *where in entries:
        at = where[1] if len(where) > 1 else None
        assert any((t == text or text.endswith("...") and t.startswith(text[:-3]))
                   and (at is None or at == f"{x},{y}") for t, x, y in fields), text


@pytest.mark.parametrize("code", ["1Z999AA10123456785", "EE123456789US", "003733300600005318",
                                  "9405550105796017669460"])
def test_generated_check_digits_are_valid(code: str) -> None:
    fixed = generation.fix_check_digits(code)
    assert fixed[:-1] == code[:-1] or fixed[:10] == code[:10]
    assert recognise.ups_valid(fixed) or recognise.s10_valid(fixed) \
        or recognise.gs1_valid(fixed)


@pytest.mark.parametrize(("code", "was"), [("16340661476633", "10012345678902"),
                                           ("5901234123451", "5901234123457"),
                                           ("0212345678901230371200", "")])
def test_generated_gtins_keep_their_check_digit(code: str, was: str) -> None:
    # A GTIN refilled with new digits still checks, alone or after its (01)/(02).
    fixed = generation.fix_check_digits(code, was)
    gtin = fixed[2:16] if fixed.startswith("02") and not was else fixed
    assert recognise.gs1_valid(gtin) and fixed[:-1 if was else 15] == code[:-1 if was else 15]


@pytest.mark.parametrize("text", ["1/2", "001 OF 003", "Parça: 4/5", "BAG 2 OF 2  23 KG"])
def test_generated_piece_counts_never_pass_their_total(text: str) -> None:
    rng = random.Random(7)
    for _ in range(50):
        new = generation._count_value(rng, text) or ""
        piece, total = map(int, re.findall(r"\d+", new)[:2])
        assert 1 <= piece <= total


def test_generated_labels_come_back_without_merged_fields() -> None:
    # Every development layout; without the corpus, those written for the evaluation.
    engine = make_engine("heuristic")
    templates = []
    truth = evaluation.load_truth(CORPUS, written_only=not CORPUS.is_dir())
    for name, (zpl, entries) in sorted(truth.items()):
        if not evaluation.held_out(name):
            templates.append((name, zpl, evaluation.resolve(zpl, entries)))
    labels = list(generation.generate(templates, 4 * len(generation.LOCALES)))
    assert {label.locale for label in labels} == set(generation.LOCALES)
    for label in labels:
        score = evaluation.score(engine, label.name, label.zpl, label.truth)
        assert not score.error, (label.name, score.error)
        assert score.merges == 0, label.name
        assert score.truth == len(label.truth) > 0


@pytest.mark.parametrize("text, form", [
    ("2026. 11. 26. 14:32", r"20\d\d\. \d\d\. \d\d\. 14:32"),
    ("2029.11.17까지", r"20\d\d\.\d\d\.\d\d까지"), ("2026/11/25", r"20\d\d/\d\d/\d\d"),
    ("2026年11月25日", r"20\d\d年\d\d月\d\d日"), ("26. 11. 2026", r"\d\d\. \d\d\. 20\d\d"),
    ("Exp 03/2028", r"Exp \d\d/20\d\d")])
def test_a_generated_date_is_a_day_in_the_form_of_the_one_it_replaces(text: str,
                                                                      form: str) -> None:
    # Not the digits of a date redrawn one by one ("3937. 33. 37.")
    for seed in range(20):
        new = generation._date_value(random.Random(seed), text)
        assert re.fullmatch(form, new), new
        digits = [int(n) for n in re.findall(r"\d+", new)]
        assert any(1 <= n <= 12 for n in digits) and max(digits) >= 2024


@pytest.mark.parametrize("code, kept", [
    ("1PAB-2231-X", "1PAB-"), ("(1T)L2318", "(1T)L"), ("GHS05 GHS07", "GHS05 GHS07"),
    ("H290 May be corrosive", "H290 May be corrosive"), ("00340434161094027318", "00340434"),
    ("(00) 340434161094027318", "(00) 340434"), ("99.34.123456.12345678", "99."),
    ("QA,993412345612345678", "QA,99")])
def test_generated_codes_keep_what_says_what_they_are(code: str, kept: str) -> None:
    # A data identifier, a hazard code, a carrier's own company prefix: redrawn, they
    # would make a label nobody prints ("5PAB-...", "GHS67", "H738")
    for seed in range(10):
        assert generation._Substitution(random.Random(seed)).text(code).startswith(kept)


def test_a_seed_makes_the_same_label_in_every_process() -> None:
    # Faker builds some of its lists from a set, so their order follows the process's hash
    # seed; the generated set must not change with it, or two runs cannot be compared.
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import synthesis_generate as g\n"
              "for seed in range(40):\n"
              "    fake = g._faker(g.LOCALES[seed % len(g.LOCALES)]); fake.seed_instance(seed)\n"
              "    print(fake.city(), fake.street_address(), fake.name())")
    runs = {subprocess.run([sys.executable, "-c", script, str(BENCHMARKS)], check=True,
                           capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2")}
    assert len(runs) == 1


@needs_corpus
def test_a_turned_label_keeps_its_fields_and_reads_in_their_direction() -> None:
    zpl = (CORPUS / TRUTH["seur"]["path"]).read_text(encoding="utf-8")
    turned = generation.turn_label(zpl)
    before, after = (read_first_label(z.encode("utf-8").decode("latin-1"))
                     for z in (zpl, turned))
    assert [f.raw for f in after.fields] == [f.raw for f in before.fields]
    assert {f.orientation for f in after.fields} == {"R"}
    assert (after.width, after.length) == (before.length, before.width)
    # Read in the text's direction, the lines of a block keep their order.
    assert [f.ry for f in after.fields[4:9]] == sorted(f.ry for f in after.fields[4:9])
    engine = make_engine("heuristic")
    names = [engine.synthesize(SynthesisRequest(z)).draft.field_map for z in (zpl, turned)]
    assert names[0] == names[1]


@needs_corpus
def test_a_sort_area_copy_follows_the_generated_recipient() -> None:
    zpl = (CORPUS / TRUTH["seur"]["path"]).read_text(encoding="utf-8")
    truth = evaluation.resolve(zpl, TRUTH["seur"]["fields"])
    label = generation.generate_one("seur", zpl, truth, seed=5)
    texts = [t for t, _, _ in evaluation.field_texts(label.zpl)]
    town = texts[13].split(" ", 1)[1]  # the recipient's "75002 Paris" line, regenerated
    assert town != "Paris" and texts[17] == town.upper()


@pytest.mark.parametrize("turned", [False, True])
def test_a_rule_ends_a_block_also_on_a_turned_label(turned: bool) -> None:
    zpl = ("^XA^PW812^LL1218^FO50,30^A0N,50,50^FDUPS^FS^FO50,100^GB712,4,4^FS"
           "^FO50,130^A0N,40,40^FDBob Johnson^FS^FO50,180^A0N,30,30^FD555 Pine Street^FS"
           "^FO50,220^A0N,30,30^FDDenver, CO 80202^FS^XZ")
    zpl = generation.turn_label(zpl) if turned else zpl
    values = make_engine("heuristic").synthesize(SynthesisRequest(zpl)).draft.values
    assert values["ship_to_name"] == "Bob Johnson" and "UPS" not in values.values()


@needs_corpus
def test_a_turned_block_with_lines_of_different_sizes_reads_as_upright() -> None:
    # The FedEx label of the corpus, turned: its recipient's name and street are
    # printed smaller than the town line, so each line is read from its top.
    zpl = (CORPUS / TRUTH["fedex"]["path"]).read_text(encoding="utf-8")
    engine = make_engine("heuristic")
    upright, turned = (engine.synthesize(SynthesisRequest(z)).draft.values
                       for z in (zpl, generation.turn_label(zpl)))
    recipient = {k: v for k, v in upright.items() if k.startswith("ship_to_")}
    assert recipient["ship_to_postal_city"] == "Des Moines WA 11111"
    assert {k: v for k, v in turned.items() if k.startswith("ship_to_")} == recipient


@pytest.mark.parametrize(("given", "truth", "near"), [
    ("ship_date", "date", True), ("date", "expiry_date", True),
    ("expiry_date", "manufacture_date", False), ("ship_to_address", "ship_to_postal_city", False),
    ("text", "date", False), ("date", "date", False)])
def test_a_lenient_name_only_says_more_or_less_than_the_truth(given: str, truth: str,
                                                               near: bool) -> None:
    assert evaluation.narrower(given, truth) is near


@needs_corpus
def test_the_annotators_named_development_labels_field_for_field() -> None:
    annotators = json.loads(evaluation.AGREEMENT.read_text(encoding="utf-8"))["annotators"]
    truth = evaluation.load_truth(CORPUS)
    for labels in annotators.values():
        for name, named in labels.items():
            assert not evaluation.held_out(name) and not name.startswith("dev_"), name
            assert [n[:1] + n[2:] for n in named] == [e[:1] + e[2:] for e in truth[name][1]]
            assert all(n[1] and "|" not in n[1] for n in named), name
    figures = evaluation.agreement(truth)
    assert figures["all"]["fields"] == sum(figures[w]["fields"] for w in annotators)
    assert 0 < figures["A~B"]["names_right"] <= 1


@pytest.mark.parametrize(("given", "truth", "verdict"), [
    ("ship_date_2", "date|ship_date", (True, False)), ("ship_date", "date", (False, True)),
    ("colour", "color", (True, False)), ("weight", "date", (False, False))])
def test_a_name_is_judged_through_its_meaning(given: str, truth: str,
                                              verdict: tuple[bool, bool]) -> None:
    assert evaluation.judged(given, truth) == verdict
