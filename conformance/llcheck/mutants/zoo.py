"""The zoo: every mutant, the rule it bends, and the clause(s) it breaks.

A mutant is a `Game` subclass (`games`), a spec with one clause rewritten (`variants`), or an
adapter whose views leak (`views`). Each is an `Engine`; as a protocol program it is served by
`llcheck serve --impl python:llcheck.mutants.engines:NAME`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from loveletter_ref import Game
from loveletter_ref.spec import Edition, load_spec
from loveletter_ref.variants import stated

from ..engines.base import Engine
from ..engines.reference import ReferenceEngine
from . import games, lists, variants, views

ENTRY_MODULE = "llcheck.mutants.engines"
"""The module whose attributes (one per mutant) `python:` impls name."""


@dataclass(frozen=True)
class Mutant:
    """A deliberately broken engine and the clauses it breaks (keys, without the edition prefix)."""

    name: str
    summary: str
    breaks: tuple[str, ...]
    kind: str
    build: Callable[[str], Engine]
    shows_at: tuple[str, int] = ("classic", 3)
    """An edition and player count where the bent rule comes into play (where to fuzz first)."""

    def engine(self) -> Engine:
        """A fresh engine with this mutation."""
        return self.build(f"mutant {self.name}")

    def clauses(self, edition: Edition) -> tuple[str, ...]:
        """The full ids of the broken clauses in `edition` (empty when it has none of them)."""
        found = (edition.clause_by_key(key) for key in self.breaks)
        return tuple(c.id for c in found if c is not None)

    @property
    def rules_bent(self) -> int:
        """How many rules the mutant bends (a spec mutant may rewrite two clauses)."""
        return len(self.build.changes) if isinstance(self.build, SpecBuild) else 1

    def variant(self, edition: Edition) -> tuple[tuple[str, Any], ...]:
        """For a mutant that is nothing but a variant of the spec (no adapter of its own), each
        changed clause's key and the rule it states instead in `edition`; empty otherwise."""
        build = self.build
        if not isinstance(build, SpecBuild) or build.adapter is not ReferenceEngine:
            return ()
        return tuple((key, rewrite(edition.id, rule)) for key, kind, rewrite in build.changes
                     if (rule := stated(edition, key, kind)) is not None)

    @property
    def impl(self) -> str:
        """How to name this mutant with --impl."""
        return f"python:{ENTRY_MODULE}:{self.name}"


def _game(cls: type[Game]) -> Callable[[str], Engine]:
    return lambda name: ReferenceEngine(game_class=cls, name=name)


@dataclass(frozen=True)
class SpecBuild:
    """Builds a spec mutant: the reference (or an `adapter` around it) playing specs with `changes`."""

    changes: tuple[variants.Change, ...]
    adapter: type[ReferenceEngine] = ReferenceEngine

    def __call__(self, name: str) -> Engine:
        return self.adapter(specs=variants.specs(self.changes), name=name)


def _spec(key: str, kind: str, rewrite: variants.Rewrite) -> SpecBuild:
    return SpecBuild(((key, kind, rewrite),))


def _specs(*changes: variants.Change, adapter: type[ReferenceEngine] = ReferenceEngine) -> SpecBuild:
    return SpecBuild(changes, adapter)


def _view(cls: type[ReferenceEngine]) -> Callable[[str], Engine]:
    return lambda name: cls(name=name)


def _both_out(edition: str, rule: Any) -> Any:
    return "both_out"


def _no_exclusions(edition: str, rule: Any) -> Any:
    return {**rule, "exclude": []}


def _to_top(edition: str, rule: Any) -> Any:
    return {**rule, "to": "top"}


def _when_played(edition: str, rule: Any) -> Any:
    return "when_played"


def _other_tie_rule(edition: str, rule: Any) -> Any:
    return ["all_win"] if "discard_total" in rule else ["discard_total", "nobody"]


def _one_more_token(edition: str, rule: Any) -> Any:
    return {players: n + 1 for players, n in rule.items()}


def _no_face_up(edition: str, rule: Any) -> Any:
    return {players: 0 for players in rule}


def _higher_loses(edition: str, rule: Any) -> Any:
    return {**rule, "loser": "higher"}


def _others_only(edition: str, rule: Any) -> Any:
    return {**rule, "who": "other"}


def _counterclockwise(edition: str, rule: Any) -> Any:
    return "counterclockwise"


def _self(edition: str, rule: Any) -> Any:
    return "self"


def _plus_one(edition: str, rule: Any) -> Any:
    return rule + 1


def _anyone(edition: str, rule: Any) -> Any:
    return {**rule, "who": "any"}


def _first_forcing_card_only(edition: str, rule: Any) -> Any:
    return rule[:1]


def _forced_by_the_highest_too(edition: str, rule: Any) -> Any:
    return [*rule, _highest(edition)]


def _highest(edition: str) -> str:
    return max(load_spec(edition).cards, key=lambda card: card.value).name


def _round_long(edition: str, rule: Any) -> Any:
    return {**rule, "until": "round_end"}


def _blocks_choosing_too(edition: str, rule: Any) -> Any:
    return {**rule, "blocks": ["chosen_by_others", "choosing_others"]}


def _round_long_blocking_choices(edition: str, rule: Any) -> Any:
    return _blocks_choosing_too(edition, _round_long(edition, rule))


def _no_effect(edition: str, rule: Any) -> Any:
    return "no_effect"


def _zero(edition: str, rule: Any) -> Any:
    return 0


def _one_token_fewer(edition: str, rule: Any) -> Any:
    return {players: n - 1 for players, n in rule.items()}


def _one_more_face_up(edition: str, rule: Any) -> Any:
    return {players: n + 1 for players, n in rule.items()}


def _nobody_wins_a_tie(edition: str, rule: Any) -> Any:
    return ["nobody"]


def _hit_scores(edition: str, rule: Any) -> Any:
    return {**rule, "on_hit": "gain_token"}


def _bonus_doubled(edition: str, rule: Any) -> Any:
    return {**rule, "amount": rule["amount"] * 2}


def _draws_one_more(edition: str, rule: Any) -> Any:
    return {**rule, "draw": rule["draw"] + 1}


ZOO = (
    Mutant("baron-tie-eliminates", "a Baron comparison that ties knocks both players out",
           ("baron.tie",), "spec", _spec("baron.tie", "on_tie", _both_out)),
    Mutant("baron-higher-loses", "the Baron knocks out the player with the higher card",
           ("baron.compare",), "spec", _spec("baron.compare", "compare", _higher_loses)),
    Mutant("guard-may-name-guard", "the Guard may name a Guard",
           ("guard.guess",), "spec", _spec("guard.guess", "guess", _no_exclusions)),
    Mutant("handmaid-too-long", "Handmaid protection lasts to the end of the player's next turn",
           ("handmaid.protect",), "game", _game(games.HandmaidTooLong)),
    Mutant("handmaid-too-short", "Handmaid protection ends when the next player's turn is over",
           ("handmaid.protect",), "game", _game(games.HandmaidTooShort)),
    Mutant("prince-empty-deck-draws-nothing",
           "with an empty deck the Prince's target draws nothing and is out",
           ("prince.empty-deck",), "game", _game(games.PrinceEmptyDeckDrawsNothing)),
    Mutant("prince-only-others", "the Prince may not choose the player who plays it",
           ("prince.target",), "spec", _spec("prince.target", "choose", _others_only)),
    Mutant("chancellor-returns-to-top", "the Chancellor puts the returned cards on top of the deck",
           ("chancellor.draw-return",), "spec", _spec("chancellor.draw-return", "draw_return", _to_top),
           ("z-man-2019", 2)),
    Mutant("chancellor-short-deck-no-effect",
           "a Chancellor with one card left in the deck has no effect",
           ("chancellor.short-deck",), "game", _game(games.ShortDeckNoEffect), ("z-man-2019", 4)),
    Mutant("countess-not-forced", "the Countess need not be played with the King or a Prince",
           ("countess.forced",), "game", _game(games.CountessNotForced)),
    Mutant("princess-survives-prince", "a Princess discarded by a Prince does not knock out",
           ("princess.discard",), "spec", _spec("princess.discard", "out_if_discarded", _when_played)),
    Mutant("king-ignores-handmaid", "the King may trade with a protected player",
           ("king.target", "handmaid.protect"), "game", _game(games.TradeIgnoresProtection)),
    Mutant("spy-bonus-shared", "the Spy bonus goes to every player still in with a Spy discarded",
           ("spy.bonus",), "game", _game(games.BonusShared), ("z-man-2019", 3)),
    Mutant("wrong-tie-rule", "a showdown tie is broken by the other edition's rule",
           ("round.tie",), "spec", _spec("round.tie", "tie", _other_tie_rule)),
    Mutant("wrong-token-target", "one more token than the rules say is needed to win the game",
           ("tokens.target",), "spec", _spec("tokens.target", "tokens_to_win", _one_more_token)),
    Mutant("winner-gets-two-tokens", "a round's winner gains two tokens",
           ("tokens.round-win",), "spec", _spec("tokens.round-win", "round_tokens", _plus_one)),
    Mutant("no-face-up-with-two", "two-player rounds set no cards aside face up",
           ("setup.face-up",), "spec", _spec("setup.face-up", "face_up", _no_face_up), ("classic", 2)),
    Mutant("wrong-next-starter", "the player after the round's winner starts the next round",
           ("round.next-first",), "game", _game(games.WrongNextStarter)),
    Mutant("first-player-ignored", "seat 0 starts the first round whoever was chosen",
           ("setup.first-player",), "game", _game(games.FirstPlayerIgnored)),
    Mutant("eliminated-keeps-turns", "a player who is out still takes turns, burning a card each",
           ("elimination",), "game", _game(games.EliminatedKeepsTurns)),
    Mutant("counterclockwise", "turns pass counterclockwise",
           ("turn.order",), "spec", _spec("turn.order", "turn_order", _counterclockwise)),
    Mutant("no-target-means-self", "a card with nobody to choose must choose its own player",
           ("targeting.no-valid-target",), "spec",
           _spec("targeting.no-valid-target", "no_valid_target", _self)),
    Mutant("guard-may-choose-self", "the Guard may choose the player who plays it",
           ("guard.target",), "spec", _spec("guard.target", "choose", _anyone)),
    Mutant("priest-may-choose-self", "the Priest may look at its own player's hand",
           ("priest.target",), "spec", _spec("priest.target", "choose", _anyone)),
    Mutant("baron-may-choose-self", "the Baron may compare with its own player (always a tie)",
           ("baron.target",), "spec", _spec("baron.target", "choose", _anyone)),
    Mutant("king-may-choose-self", "the King may trade with its own player (nothing happens)",
           ("king.target",), "spec", _spec("king.target", "choose", _anyone)),
    Mutant("countess-forced-by-king-only", "the Countess is forced with the King but not with a Prince",
           ("countess.forced",), "spec", _spec("countess.forced", "forced_with", _first_forcing_card_only)),
    Mutant("countess-forced-by-princess",
           "the Countess is forced with the Princess too (hiding a legal play)",
           ("countess.forced",), "spec", _spec("countess.forced", "forced_with", _forced_by_the_highest_too)),
    Mutant("handmaid-lasts-the-round", "Handmaid protection lasts to the end of the round",
           ("handmaid.protect",), "spec", _spec("handmaid.protect", "protect", _round_long)),
    Mutant("handmaid-blocks-choosing-all-round",
           "protection lasts the round and keeps its player from choosing others (which shows only "
           "with the longer protection)", ("handmaid.protect",), "spec",
           _spec("handmaid.protect", "protect", _round_long_blocking_choices)),
    Mutant("prince-empty-deck-no-effect", "a Prince played when the deck is empty has no effect",
           ("prince.empty-deck",), "spec", _spec("prince.empty-deck", "empty_deck", _no_effect)),
    Mutant("nothing-set-aside", "no card is set aside face down at the start of a round",
           ("setup.set-aside",), "spec", _spec("setup.set-aside", "set_aside", _zero)),
    Mutant("two-set-aside", "two cards are set aside face down at the start of a round",
           ("setup.set-aside",), "spec", _spec("setup.set-aside", "set_aside", _plus_one)),
    Mutant("four-face-up-with-two", "two-player rounds set one card more aside face up",
           ("setup.face-up",), "spec", _spec("setup.face-up", "face_up", _one_more_face_up), ("classic", 2)),
    Mutant("one-token-fewer", "one token fewer than the rules say wins the game",
           ("tokens.target",), "spec", _spec("tokens.target", "tokens_to_win", _one_token_fewer)),
    Mutant("nobody-wins-a-tie", "a showdown tie is never broken: nobody wins the round",
           ("round.tie",), "spec", _spec("round.tie", "tie", _nobody_wins_a_tie)),
    Mutant("guard-hit-scores", "a Guard's right guess gains a token instead of knocking out",
           ("guard.guess",), "spec", _spec("guard.guess", "guess", _hit_scores)),
    Mutant("spy-bonus-doubled", "the Spy bonus is worth two tokens",
           ("spy.bonus",), "spec", _spec("spy.bonus", "bonus_token", _bonus_doubled), ("z-man-2019", 3)),
    Mutant("chancellor-draws-three", "the Chancellor draws three cards",
           ("chancellor.draw-return",), "spec",
           _spec("chancellor.draw-return", "draw_return", _draws_one_more), ("z-man-2019", 3)),
    Mutant("list-omits-self-target", "the legal list leaves out choosing oneself, which the engine accepts",
           ("prince.target",), "list", _specs(adapter=lists.ListOmitsSelfTarget)),
    Mutant("accepts-unlisted-guess", "the Guard may name a Guard when sent, though the list never says so",
           ("guard.guess",), "list",
           _specs(("guard.guess", "guess", _no_exclusions), adapter=lists.ListsNoSelfNaming)),
    Mutant("baron-both-out-counterclockwise",
           "two rules bent: turns pass counterclockwise (hiding the other), a Baron tie knocks both out",
           ("turn.order", "baron.tie"), "spec",
           _specs(("turn.order", "turn_order", _counterclockwise), ("baron.tie", "on_tie", _both_out))),
    Mutant("guard-names-anything-of-anyone", "two rules bent: the Guard may choose its own player and "
           "name a Guard", ("guard.target", "guard.guess"), "spec",
           _specs(("guard.target", "choose", _anyone), ("guard.guess", "guess", _no_exclusions))),
    Mutant("two-tokens-for-more", "two rules bent: a round's winner gains two tokens and one more is "
           "needed", ("tokens.round-win", "tokens.target"), "spec",
           _specs(("tokens.round-win", "round_tokens", _plus_one),
                  ("tokens.target", "tokens_to_win", _one_more_token))),
    Mutant("set-aside-leaks", "every player's view names the card set aside face down",
           ("setup.set-aside",), "view", _view(views.SetAsideLeaks)),
    Mutant("priest-look-public", "the card a Priest looks at shows in every player's view",
           ("priest.look",), "view", _view(views.LookIsPublic)),
)
"""Every mutant, in the order docs/mutants.md lists them."""

MUTANTS = {mutant.name: mutant for mutant in ZOO}
"""Mutants by name."""


def get(name: str) -> Mutant:
    """The mutant called `name` (hyphens or underscores); KeyError naming the known ones."""
    key = name.replace("_", "-")
    if key not in MUTANTS:
        raise KeyError(f"no mutant {name!r} (known: {', '.join(MUTANTS)})")
    return MUTANTS[key]
