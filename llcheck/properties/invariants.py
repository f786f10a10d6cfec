"""The step invariants: rules every correct engine keeps after every deal and every action.

Each invariant reads JSON states (docs/formats.md) and the spec's facts (`Rules`), never the
reference engine, so it judges any engine. `check` raises the invariant's own `Violation`
subclass, so that hypothesis tells the invariants apart while it shrinks a failure.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar, NoReturn

from .context import Context
from .failures import violation
from .rules import Rules
from .trace import DEAL, DECISION_PHASES, OVER_PHASES, GameTrace, Json, Transition, describe_action

KNOWN_PHASES = DECISION_PHASES + OVER_PHASES


class Invariant:
    """One rule checked on every transition; subclasses set the class attributes."""

    name: ClassVar[str]
    protects: ClassVar[str]
    """What the invariant protects, in one sentence (reports and docs)."""
    kinds: ClassVar[tuple[str, ...]]
    """The rule kinds of the clauses it rests on (named by saved cases)."""
    needs: ClassVar[tuple[str, ...]] = ()
    """Engine capabilities it requires."""

    def __init__(self, rules: Rules, ctx: Context):
        self.rules = rules
        self.ctx = ctx

    def check(self, t: Transition, game: GameTrace) -> None:
        """Raise this invariant's Violation unless `t` keeps it."""
        raise NotImplementedError

    def fail(self, message: str, *, where: str = "", observer: int | None = None,
             contrast: Json | None = None) -> NoReturn:
        """Raise this property's Violation (`where` defaults to the transition being checked)."""
        error = violation(self.name)(message, observer=observer, contrast=contrast)
        error.where = where
        raise error


class DeckConservation(Invariant):
    """Draw pile + hands + discards + set-aside + face-up cards are exactly the edition's deck."""

    name = "deck-conservation"
    protects = "no card is created, lost or duplicated: the table always holds exactly the deck"
    kinds = ("deck_size", "set_aside", "face_up", "deal")

    def check(self, t: Transition, game: GameTrace) -> None:
        """Count every card on the table."""
        s = t.after
        have = Counter(s["deck"] + s["set_aside"] + s["face_up"]
                       + [c for hand in s["hands"] for c in hand]
                       + [c for pile in s["discards"] for c in pile])
        if have != self.rules.deck:
            extra = sorted((have - self.rules.deck).elements())
            missing = sorted((self.rules.deck - have).elements())
            self.fail(f"the table is not the {self.rules.edition.id} deck: extra {extra}, "
                      f"missing {missing} (deck + hands + discards + set-aside + face-up)")


class HandSize(Invariant):
    """One card between turns, two on turn, 1 + drawn while keeping, none once out."""

    name = "hand-size"
    protects = ("every player still in holds one card between turns, the player on turn two (more "
                "while resolving a draw-and-return card), an eliminated player none")
    kinds = ("deal", "turn_draw", "turn_play", "draw_return", "elimination")

    def __init__(self, rules: Rules, ctx: Context):
        super().__init__(rules, ctx)
        self.keeping: int | None = None

    def check(self, t: Transition, game: GameTrace) -> None:
        """Compare every hand's size with what the phase calls for."""
        s = t.after
        if t.accepted and t.before is not None and t.before["phase"] == "play" and s["phase"] == "keep":
            card = (t.action or {}).get("card")
            draws = self.rules.draw_return.get(str(card))
            self.keeping = None if draws is None else 1 + min(draws, len(t.before["deck"]))
        for seat, hand in enumerate(s["hands"]):
            want, why = self._want(s, seat)
            if want is not None and len(hand) != want:
                self.fail(f"player {seat} holds {len(hand)} card(s) {why}, not {want}")
        pending = s.get("pending")
        if s["phase"] == "keep" and isinstance(pending, dict) and "return" in pending:
            held = len(s["hands"][s["turn"]])
            if pending["return"] != held - 1:
                self.fail(f"player {s['turn']} holds {held} cards and must return {pending['return']}")

    def _want(self, s: Json, seat: int) -> tuple[int | None, str]:
        rules = self.rules
        if s["eliminated"][seat]:
            return 0, "while out of the round"
        if seat == s["turn"] and s["phase"] == "play":
            return rules.deal + rules.turn_draw, "on their turn"
        if seat == s["turn"] and s["phase"] == "keep":
            return self.keeping, "while keeping one of the cards drawn"
        return rules.deal, "between turns"


class Protection(Invariant):
    """Protection lasts exactly until its owner's next turn; no card chooses the protected or out."""

    name = "protection"
    protects = ("protection lasts exactly until the start of its owner's next turn, and a protected "
                "or eliminated player is never the target of another player's card")
    kinds = ("protect", "elimination", "choose")

    def check(self, t: Transition, game: GameTrace) -> None:
        """Check targets (listed and played) and every change of protection."""
        a = t.after
        if t.kind == DEAL:
            if t.accepted and any(a["protected"]):
                self.fail(f"players {_seats(a['protected'])} are protected as the round begins")
            return
        assert t.before is not None and t.action is not None
        for listed in t.listed or ():
            self._target(t.before, listed, "lists")
        if not t.accepted:
            return
        self._target(t.before, t.action, "accepts")
        self._shields(t)

    def _target(self, before: Json, action: Json, verb: str) -> None:
        if action.get("type") != "play":
            return
        actor = before["turn"]
        chosen = [action["target"]] if "target" in action else list(action.get("targets", []))
        for seat in chosen:
            if seat == actor or not isinstance(seat, int) or not 0 <= seat < self.rules.players:
                continue
            if before["eliminated"][seat]:
                self.fail(f"the engine {verb} {describe_action(action)} by player {actor} although "
                          f"player {seat} is out of the round")
            if before["protected"][seat] and self.rules.shield_blocks_choosing:
                self.fail(f"the engine {verb} {describe_action(action)} by player {actor} although "
                          f"player {seat} is protected")

    def _shields(self, t: Transition) -> None:
        assert t.before is not None and t.action is not None
        a, b, actor = t.after, t.before, t.actor
        shielded = t.action.get("type") == "play" and t.action.get("card") in self.rules.protectors
        for seat in range(self.rules.players):
            if a["eliminated"][seat]:
                continue
            if t.new_turn and seat == a["turn"]:
                if a["protected"][seat]:
                    self.fail(f"player {seat} is still protected at the start of their own turn")
            elif seat == actor and shielded:
                if not a["protected"][seat]:
                    self.fail(f"player {seat} played {t.action['card']} but is not protected")
            elif a["protected"][seat] != b["protected"][seat]:
                change = "ended" if b["protected"][seat] else "began"
                self.fail(f"player {seat}'s protection {change} during player {actor}'s turn "
                          f"({describe_action(t.action)})")


class ForcedPlay(Invariant):
    """A card that must be played (held with one of the cards that force it) always is."""

    name = "forced-play"
    protects = "a card the rules force (held with one of the cards that force it) is always the one played"
    kinds = ("forced_with",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """Check the listed and the accepted plays of a player holding a forced card."""
        b = t.before
        if t.kind == DEAL or b is None or b["phase"] != "play":
            return
        hand = b["hands"][b["turn"]]
        must = self._forced(hand)
        if must is None:
            return
        plays = [a for a in (t.listed or ()) if a.get("type") == "play"]
        if t.accepted and t.action is not None:
            plays.append(t.action)
        for action in plays:
            if action.get("card") != must:
                verb = "accepts" if action is t.action else "lists"
                self.fail(f"the engine {verb} {describe_action(action)} by player {b['turn']}, who holds "
                          f"{sorted(hand)} and must play {must}")

    def _forced(self, hand: list[str]) -> str | None:
        for card, forcing in self.rules.forced.items():
            if card in hand:
                rest = list(hand)
                rest.remove(card)
                if any(other in forcing for other in rest):
                    return card
        return None


class OutIfDiscarded(Invariant):
    """A player still in the round never has a card in their discards that knocks its holder out."""

    name = "out-if-discarded"
    protects = ("a player still in the round never has a discarded card that knocks out whoever "
                "discards it (the Princess)")
    kinds = ("out_if_discarded",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """Look through the discards of the players still in, and at the card just played."""
        a = t.after
        for seat, pile in enumerate(a["discards"]):
            fatal = [card for card in pile if card in self.rules.out_any_reason]
            if fatal and not a["eliminated"][seat]:
                self.fail(f"player {seat} is still in the round with {fatal[0]} in their discards")
        if t.accepted and t.action is not None and t.action.get("type") == "play" \
                and t.action.get("card") in self.rules.out_when_played:
            actor = t.actor
            if actor is not None and not a["eliminated"][actor]:
                self.fail(f"player {actor} played {t.action['card']} and is still in the round")


class RoundEnd(Invariant):
    """Rounds end in time, for a reason, with a winner still in the round."""

    name = "round-end"
    protects = ("every round ends, within as many turns as the draw pile had cards, when the deck "
                "runs out or one player is left, with at least one winner still in the round")
    kinds = ("last_standing", "deck_empty", "showdown", "tie")

    def __init__(self, rules: Rules, ctx: Context):
        super().__init__(rules, ctx)
        self.turns = 0

    def check(self, t: Transition, game: GameTrace) -> None:
        """Count turns; check why and how a round ended."""
        a = t.after
        if t.kind == DEAL and t.accepted:
            self.turns = 0
        if t.new_turn:
            self.turns += 1
            if self.turns > self.rules.pile:
                self.fail(f"turn {self.turns} began in a round whose draw pile had {self.rules.pile} cards")
        alive = _seats([not out for out in a["eliminated"]])
        if a["phase"] in DECISION_PHASES and len(alive) < 2:
            self.fail(f"the round goes on with only players {alive} still in")
        if t.round_ended:
            self._ended(a, alive)

    def _ended(self, a: Json, alive: list[int]) -> None:
        if a["deck"] and len(alive) > 1:
            self.fail(f"the round ended with {len(a['deck'])} cards to draw and players {alive} still in")
        winners = a["round_winners"]
        if not isinstance(winners, list):
            self.fail(f"the round ended without naming its winners (round_winners: {winners!r})")
        if not winners and not self.rules.winnerless:
            self.fail("the round ended without a winner")
        outsiders = [seat for seat in winners if seat not in alive]
        if outsiders:
            self.fail(f"players {outsiders} won the round although they are out of it")
        if len(alive) == 1 and winners != alive:
            self.fail(f"player {alive[0]}, the last still in, is not the round's only winner ({winners})")


class Tokens(Invariant):
    """Tokens only grow, at a round's end, by exactly what the spec awards."""

    name = "tokens"
    protects = "favour tokens only grow, and only by the amounts the spec awards at a round's end"
    kinds = ("round_tokens", "bonus_token")
    needs = ("games",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """Compare each player's gain with the spec's award."""
        a, b = t.after, t.before
        if t.kind == DEAL:
            start = b["tokens"] if b is not None else (game.tokens or [0] * self.rules.players)
            if t.accepted and a["tokens"] != list(start):
                self.fail(f"the deal changed the tokens from {list(start)} to {a['tokens']}")
            return
        if not t.accepted or b is None:
            return
        gained = [now - then for now, then in zip(a["tokens"], b["tokens"], strict=True)]
        lost = [seat for seat, gain in enumerate(gained) if gain < 0]
        if lost:
            self.fail(f"players {lost} lost tokens ({b['tokens']} -> {a['tokens']})")
        if not self.rules.exact_tokens:
            return
        due = self._due(a) if t.round_ended else [0] * self.rules.players
        if gained != due:
            when = "at the round's end" if t.round_ended else "during the round"
            self.fail(f"the players gained {gained} tokens {when}; the rules award {due}")

    def _due(self, a: Json) -> list[int]:
        winners = a["round_winners"] or []
        due = [self.rules.round_tokens if seat in winners else 0 for seat in range(self.rules.players)]
        for card, amount in self.rules.bonuses:
            holders = [seat for seat, pile in enumerate(a["discards"])
                       if card in pile and not a["eliminated"][seat]]
            if len(holders) == 1:
                due[holders[0]] += amount
        return due


class GameEnd(Invariant):
    """The game ends exactly when someone reaches the target; no round is dealt after it.

    The state machine asks for one more round of every game that is over: the engine must refuse.
    """

    name = "game-end"
    protects = ("a game ends exactly when someone reaches the token target, with everyone at the "
                "target as its winners, and no round is dealt after it")
    kinds = ("tokens_to_win", "game_end")
    needs = ("games",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """Check the phase and the winners after every round's end."""
        a = t.after
        if not t.round_ended:
            return
        reached = [seat for seat, tokens in enumerate(a["tokens"]) if tokens >= self.rules.target]
        if reached and a["phase"] != "game_over":
            self.fail(f"players {reached} reached {self.rules.target} tokens but the game goes on")
        if reached and sorted(a["game_winners"] or []) != reached:
            self.fail(f"the game's winners are {a['game_winners']}, not {reached} who reached the target")
        if not reached and (a["phase"] == "game_over" or a["game_winners"]):
            self.fail(f"the game ended with tokens {a['tokens']}, nobody at the target of "
                      f"{self.rules.target}")


class Legality(Invariant):
    """The engine always says what it waits for and honours its own list of legal actions."""

    name = "legality"
    protects = ("the engine always says who must decide, lists at least one legal action without "
                "duplicates, accepts every action it lists, and a refused action changes nothing")
    kinds = ("turn_play",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """Check the phase, the list of legal actions and refusals."""
        a, b = t.after, t.before
        if a["phase"] not in KNOWN_PHASES:
            self.fail(f"the engine is in phase {a['phase']!r} (known: {', '.join(KNOWN_PHASES)})")
        if a["phase"] in DECISION_PHASES and t.accepted:
            turn = a["turn"]
            if not isinstance(turn, int) or not 0 <= turn < self.rules.players or a["eliminated"][turn]:
                self.fail(f"player {turn!r} is on turn but is not a player still in the round")
        if t.kind == DEAL and not t.accepted and (b is None or b["phase"] != "game_over"):
            self.fail(f"the engine refused to deal a valid deck: {t.reason}")
        if t.kind != DEAL and not t.accepted and a != b:
            self.fail(f"refusing {describe_action(t.action)} changed the state")
        if t.listed is not None:
            self._listed(t)

    def _listed(self, t: Transition) -> None:
        listed = t.listed or []
        keys = [_key(action) for action in listed]
        if not listed:
            self.fail("the engine lists no legal action although a decision is due")
        if len(set(keys)) != len(keys):
            twice = next(action for action, key in zip(listed, keys, strict=True) if keys.count(key) > 1)
            self.fail(f"the engine lists {describe_action(twice)} twice")
        if not t.accepted and t.action is not None and _key(t.action) in keys:
            self.fail(f"the engine refused {describe_action(t.action)}, which it lists as legal: {t.reason}")


def _seats(flags: list[bool]) -> list[int]:
    return [seat for seat, flag in enumerate(flags) if flag]


def _key(action: Json) -> tuple[tuple[str, str], ...]:
    """A hashable form of a JSON action."""
    return tuple(sorted((key, repr(value)) for key, value in action.items()))
