"""The probes against the reference engine: exhaustive search on decks small enough to play out
completely, and random play on the real editions.

On the six-card test decks (tests/data/probes/) every deal and every sequence of legal actions
is played: a query is reachable for the probes exactly when the search sees it. On the real
editions, seeded random rounds must never show a situation the catalogue expects unreachable.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_vocabulary_unbundled import REDRAW_GUARD

from loveletter_ref import load_spec
from loveletter_ref.probes.api import CATALOGUE, Prover, clause_applies, query
from loveletter_ref.probes.catalogue import IMPOSSIBLE
from loveletter_ref.probes.playback import play, silenced
from loveletter_ref.probes.search import deals, explore, observed, random_rounds
from loveletter_ref.spec.facts import facts_for

DATA = Path(__file__).parent / "data" / "probes"


def exhaustive(spec, conditions) -> set[str]:
    """The conditions some game of the spec reaches (token queries start one token short)."""
    plain = [c for c in conditions if not c.uses_tokens]
    token = [c for c in conditions if c.uses_tokens]
    seen, visit = observed(plain)
    explore(spec, 2, deals(spec, 2), visit)
    if token:
        seen_token, visit = observed(token)
        explore(spec, 2, deals(spec, 2), visit, tokens=facts_for(spec, 2).near_target)
        seen.update(seen_token)
    return set(seen)


def probed(spec, conditions) -> set[str]:
    prover = Prover(spec, 2)
    found = set()
    for condition in conditions:
        verdict = prover.ask(condition, 200_000_000)
        assert verdict.status != "unknown", condition.name
        assert verdict.problem is None, (condition.name, verdict.problem)
        if verdict.status == "reachable":
            found.add(condition.name)
    return found


@pytest.mark.parametrize("deck", ["tiny-classic", "tiny-2019"])
def test_every_answer_agrees_with_exhaustive_search(deck):
    spec = load_spec(DATA / f"{deck}.yaml")
    assert probed(spec, CATALOGUE) == exhaustive(spec, CATALOGUE)


@pytest.mark.parametrize("deck, key", [
    ("tiny-classic", "baron.tie"), ("tiny-classic", "prince.empty-deck"), ("tiny-classic", "round.tie"),
    ("tiny-classic", "targeting.no-valid-target"), ("tiny-2019", "chancellor.short-deck"),
    ("tiny-2019", "countess.forced"), ("tiny-2019", "spy.bonus"),
])
def test_silent_clauses_are_reached_exactly_when_a_game_needs_them(deck, key):
    spec = silenced(load_spec(DATA / f"{deck}.yaml"), key)
    conditions = [query("silent-clause"), clause_applies(key)]
    assert probed(spec, conditions) == exhaustive(spec, conditions)


@pytest.mark.parametrize("deck, key, name", [
    ("tiny-2019", "chancellor.short-deck", "draw-return-short"),
    ("tiny-2019", "chancellor.empty-deck", "draw-return-empty"),
    ("tiny-classic", "targeting.no-valid-target", "forced-targeting"),
])
def test_a_play_is_reached_though_the_rule_deciding_it_is_silent(tmp_path, deck, key, name):
    """Regression: the card is played in the situation even where the reading is silent on what
    happens next (it was proved unreachable in one turn); the witness stops on that gap. (The
    Prince chooses others only here, so that every game reaching the situation meets the gap.)"""
    path = tmp_path / f"{deck}.yaml"
    path.write_text((DATA / f"{deck}.yaml").read_text().replace("choose: {who: any}", "choose: {who: other}"))
    spec = silenced(load_spec(path), key)
    assert probed(spec, [query(name)]) == exhaustive(spec, [query(name)]) == {name}
    verdict = Prover(spec, 2).ask(query(name), 200_000_000)
    assert play(spec, verdict.witness).gap.clause == f"{spec.prefix}.{key}"


def test_every_out_and_a_rule_gap_when_a_tie_knocks_both_out(tmp_path):
    text = (DATA / "tiny-classic.yaml").read_text().replace("on_tie: nothing", "on_tie: both_out")
    path = tmp_path / "both-out.yaml"
    path.write_text(text)
    spec = load_spec(path)
    conditions = [query("all-eliminated"), query("no-winner"), clause_applies("round.all-eliminated")]
    found = probed(spec, conditions)
    assert found == exhaustive(spec, conditions) == {"all-eliminated", "clause-applies:round.all-eliminated"}


@pytest.mark.parametrize("edition, players", [("classic", 4), ("z-man-2019", 5), ("premium", 6)])
def test_random_rounds_never_show_what_the_catalogue_rules_out(edition, players):
    spec = load_spec(edition)
    impossible = [q for q in CATALOGUE
                  if q.group == IMPOSSIBLE and q.expected(spec, players) == "unreachable"]
    seen, visit = observed(impossible)
    random_rounds(spec, players, 150, seed=6, visit=visit)
    assert not seen, {name: playback.record for name, playback in seen.items()}


def test_two_cards_forcing_each_other_are_an_open_question_both_searches_find(tmp_path):
    text = (DATA / "tiny-2019.yaml").read_text().replace(
        "      - id: prince.discard\n",
        "      - id: prince.forced\n"
        "        forced_with: [Countess]\n"
        "        source: {doc: test, paraphrase: true, quote: \"With the Countess, play him.\"}\n"
        "      - id: prince.discard\n")
    path = tmp_path / "forcing.yaml"
    path.write_text(text)
    spec = load_spec(path)
    conditions = [query("forced-conflict"), query("set-aside-drawn")]
    assert probed(spec, conditions) == exhaustive(spec, conditions) == {"forced-conflict", "set-aside-drawn"}


READING_CHANGES = (
    ("kind: edition\nid: probe-tiny-classic\n",
     "kind: reading\nid: probe-tiny-reading\ndescribes: classic\nrulebook: test\nlanguage: en\n"),
    ("      - id: guard.target\n        choose: {who: other}",
     "      - id: guard.target\n        choose: {who: any}"),
    ("tie: [discard_total, nobody]", "tie: [highest_discard]"),
    ("next_first: {who: round_winner, several: first_from_previous_starter, none: previous_starter}",
     "next_first: {who: round_winner}"),
    ("  - {id: game.end, game_end: {several: all_win}, source: {doc: test, paraphrase: true, "
     "quote: \"All who reach it win.\"}}",
     "  - {id: game.end, silent: \"Who wins when two reach the target is not said.\"}"),
)
"""A rulebook reading of the tiny classic deck: a Guard that may choose its own player, a tie
chain that may run out, a next-round rule for one winner only, and a silent game-end rule."""


def tiny_reading(tmp_path):
    text = (DATA / "tiny-classic.yaml").read_text()
    for old, new in READING_CHANGES:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / "tiny-reading.yaml"
    path.write_text(text)
    return load_spec(path)


def explored(spec, conditions) -> set[str]:
    """The conditions some game reaches, starting with no tokens or one short of the target."""
    seen, visit = observed(conditions)
    explore(spec, 2, deals(spec, 2), visit)
    explore(spec, 2, deals(spec, 2), visit, tokens=facts_for(spec, 2).near_target)
    return set(seen)


def test_on_a_reading_every_unreachable_answer_survives_exhaustive_search(tmp_path):
    """Regression: a reading's Guard may choose its own player (`who: any`), where the editions say
    `other`; the probes must neither miss the games this opens nor claim games it does not."""
    spec = tiny_reading(tmp_path)
    keys = ["guard.target", "guard.guess", "round.tie", "game.end", "prince.empty-deck", "baron.tie",
            "targeting.no-valid-target"]  # (the search plays one round: no next-round rule)
    conditions = [*CATALOGUE, *(clause_applies(key) for key in keys)]
    assert probed(spec, conditions) == explored(spec, conditions)


PREMIUM_KEYS = {
    "tiny-premium-a": ["assassin.counter", "sycophant.force", "bishop.guess", "bishop.redraw",
                       "bishop.empty-deck", "game.end", "round.tie"],
    "tiny-premium-b": ["jester.predict", "cardinal.trade", "cardinal.look", "baroness.look",
                       "constable.token", "dowager-queen.tie", "game.end", "round.tie"],
}


@pytest.mark.parametrize("deck", sorted(PREMIUM_KEYS))
def test_premium_rules_agree_with_exhaustive_search(deck):
    """Premium's rule kinds (counters, marks, groups of two, predictions, showdown bonuses, tokens
    paid during the round that can end the game at once): every answer both ways."""
    spec = load_spec(DATA / f"{deck}.yaml")
    conditions = [*CATALOGUE, *(clause_applies(key) for key in PREMIUM_KEYS[deck])]
    assert probed(spec, conditions) == explored(spec, conditions)


MINISTER_CHANGES = (
    ("  - name: Handmaid\n    value: 4\n", "  - name: Minister\n    value: 7\n"),
    ("    id: handmaid\n", "    id: minister\n"),
    ("\"Handmaid, value 4.\"", "\"Minister, value 7.\""),
    ("      - id: handmaid.protect\n        protect: {until: own_next_turn, blocks: [chosen_by_others]}\n",
     "      - id: minister.limit\n        out_if_hand_total: 12\n"),
    ("\"Others cannot choose you until your next turn.\"", "\"Out with a hand worth 12 or more.\""),
)
"""The tiny classic deck with a Minister (out with a hand worth 12 or more) for the Handmaid."""


def tiny_minister(tmp_path):
    text = (DATA / "tiny-classic.yaml").read_text()
    for old, new in MINISTER_CHANGES:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "tiny-minister.yaml"
    path.write_text(text)
    return load_spec(path)


def test_a_hand_total_limit_agrees_with_exhaustive_search(tmp_path):
    spec = tiny_minister(tmp_path)
    conditions = [*CATALOGUE, clause_applies("minister.limit")]
    found = probed(spec, conditions)
    assert found == exhaustive(spec, conditions)
    assert "clause-applies:minister.limit" in found


def test_a_silent_hand_total_limit_is_reached_exactly_when_a_game_needs_it(tmp_path):
    spec = silenced(tiny_minister(tmp_path), "minister.limit")
    conditions = [query("silent-clause"), clause_applies("minister.limit")]
    assert probed(spec, conditions) == exhaustive(spec, conditions)



@pytest.mark.parametrize("change, key", [
    (("empty_deck: set_aside", "empty_deck: no_effect"), "prince.empty-deck"),
    ((REDRAW_GUARD[0], REDRAW_GUARD[1].replace("RULE", "no_effect")), "guard.empty-deck"),
])
def test_a_card_with_no_effect_on_an_empty_deck_is_probed_as_the_engine_plays_it(tmp_path, change, key):
    """`empty_deck: no_effect` stops a discard-and-draw (nothing is discarded) and an offer to
    redraw (none is made) when the deck is empty; the probes and the engine agree on every query."""
    path = tmp_path / "no-effect.yaml"
    text = (DATA / "tiny-classic.yaml").read_text()
    assert change[0] in text
    path.write_text(text.replace(*change))
    spec = load_spec(path)
    conditions = [*CATALOGUE, clause_applies(key)]
    found = probed(spec, conditions)
    assert found == exhaustive(spec, conditions)
    assert f"clause-applies:{key}" in found
