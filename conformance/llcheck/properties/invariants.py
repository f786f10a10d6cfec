"""The step invariants: rules every correct engine keeps after every deal and every action.

Each invariant reads JSON states (docs/formats.md) and the spec's facts (`Rules`), never the
reference engine, so it judges any engine. `check` raises the invariant's own `Violation`
subclass, so that hypothesis tells the invariants apart while it shrinks a failure.
"""

from __future__ import annotations

from collections import Counter
from typing import ClassVar, NoReturn

from loveletter_ref.lockstep import compact

from ..harness.compare import comparable
from .awards import Mark, chosen, countered, gains_at_end, gains_during, prediction, showdown_winners
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
    """Draw pile + hands + discards + set-aside + face-up cards are exactly the edition's deck, and
    a deal sets aside and lays face up as many cards as the rules say for the player count."""

    name = "deck-conservation"
    protects = ("no card is created, lost or duplicated: the table always holds exactly the deck, "
                "and each deal sets aside and lays face up as many cards as the rules say")
    kinds = ("deck_size", "set_aside", "face_up", "deal")

    def check(self, t: Transition, game: GameTrace) -> None:
        """Count the cards a deal set apart, then every card on the table."""
        s = t.after
        if t.kind == DEAL and t.accepted:
            self._set_apart(s)
        have = Counter(s["deck"] + s["set_aside"] + s["face_up"]
                       + [c for hand in s["hands"] for c in hand]
                       + [c for pile in s["discards"] for c in pile])
        if have != self.rules.deck:
            extra = sorted((have - self.rules.deck).elements())
            missing = sorted((self.rules.deck - have).elements())
            self.fail(f"the table is not the {self.rules.edition.id} deck: extra {extra}, "
                      f"missing {missing} (deck + hands + discards + set-aside + face-up)")

    def _set_apart(self, s: Json) -> None:
        """The deal's set-aside and face-up cards are as many as the rules' for this player count."""
        rules = self.rules
        have, want = (len(s["set_aside"]), len(s["face_up"])), (rules.set_aside, rules.face_up)
        if have != want:
            self.fail(f"the deal set {have[0]} card(s) aside and laid {have[1]} face up; with "
                      f"{rules.players} players the rules set {want[0]} aside and lay {want[1]} face up")


class HandSize(Invariant):
    """One card between turns, two on turn, 1 + drawn while keeping, none once out."""

    name = "hand-size"
    protects = ("every player still in holds one card between turns, the player on turn two (more "
                "while resolving a draw-and-return card), an eliminated player none")
    kinds = ("deal", "turn_draw", "first_turn_draw", "turn_play", "draw_return", "elimination")

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
            first = rules.first_turn_draw
            if first is not None and not any(s["discards"]):  # nothing played yet: the first turn
                return rules.deal + first, "on the round's first turn"
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
    """A card that must be played (held with one of the cards that force it) always is, and a
    card played after a mark on a player (Premium's Sycophant) chooses that player when it can."""

    name = "forced-play"
    protects = ("a card the rules force (held with one of the cards that force it) is always the one "
                "played, and the card after a mark chooses the marked player whenever it may")
    kinds = ("forced_with", "force_next_target")

    def __init__(self, rules: Rules, ctx: Context):
        super().__init__(rules, ctx)
        self.mark: int | None = None
        """The player the next card played must choose, when it can."""

    def check(self, t: Transition, game: GameTrace) -> None:
        """Check the listed and the accepted plays of a player holding a forced card, or after a mark."""
        b = t.before
        if t.kind == DEAL:
            self.mark = None
        if t.kind == DEAL or b is None or b["phase"] != "play":
            return
        plays = [a for a in (t.listed or ()) if a.get("type") == "play"]
        if t.accepted and t.action is not None:
            plays.append(t.action)
        must = self._forced(b["hands"][b["turn"]])
        for action in plays:
            if must is not None and action.get("card") != must:
                self._broke(t, action, f"who holds {sorted(b['hands'][b['turn']])} and must play {must}")
            if self.mark is not None and self._binds(b, action) and self.mark not in chosen(action):
                self._broke(t, action, f"although the card played next must choose player {self.mark}")
        if t.accepted and t.action is not None:
            self.mark = self._marked(b, t.action)

    def _broke(self, t: Transition, action: Json, why: str) -> NoReturn:
        assert t.before is not None
        verb = "accepts" if action is t.action else "lists"
        self.fail(f"the engine {verb} {describe_action(action)} by player {t.before['turn']}, {why}")

    def _forced(self, hand: list[str]) -> str | None:
        for card, forcing in self.rules.forced.items():
            if card in hand:
                rest = list(hand)
                rest.remove(card)
                if any(other in forcing for other in rest):
                    return card
        return None

    def _binds(self, b: Json, action: Json) -> bool:
        """True when the card played may choose the marked player, so it must."""
        seat, actor = self.mark, b["turn"]
        who = self.rules.choosers.get(str(action.get("card")))
        if who is None or seat is None or b["eliminated"][seat]:
            return False
        if seat == actor:
            return who == "any"
        if b["protected"][actor] and self.rules.shield_blocks_own_choices:
            return False
        return not b["protected"][seat]  # a protected player is left alone, whatever the shield blocks

    def _marked(self, b: Json, action: Json) -> int | None:
        """The player a play marks (None: it marks nobody, and any earlier mark is spent)."""
        if action.get("card") not in self.rules.markers or "target" not in action:
            return None
        return None if countered(self.rules, b, action) is not None else action["target"]


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
    """Rounds end in time, for a reason, with the winners the rules name.

    In editions where a token gained mid-round ends the game at once, a round may also stop
    there, without winners, when someone has reached the target.
    """

    name = "round-end"
    protects = ("every round ends, within as many turns as the rules' draw pile has cards, when the deck "
                "runs out or one player is left (or, where the rules say so, when a token gained "
                "during the round wins the game), with the winners the showdown rules name")
    kinds = ("last_standing", "deck_empty", "showdown", "tie", "showdown_bonus", "loses_at_showdown_to",
             "game_end")

    def __init__(self, rules: Rules, ctx: Context):
        super().__init__(rules, ctx)
        self.turns = 0
        self.pile = 0
        """The cards the engine's deal left to draw (its first player's draw included)."""

    def check(self, t: Transition, game: GameTrace) -> None:
        """Count turns; check why and how a round ended."""
        a = t.after
        if t.kind == DEAL and t.accepted:
            self.turns = 0
            self.pile = self._pile(a)
        if t.new_turn:
            self.turns += 1
            if self.turns > self.rules.pile:
                self.fail(f"turn {self.turns} began in a round whose draw pile had {self.pile} cards after "
                          f"the deal (the rules leave {self.rules.pile}, so at most {self.rules.pile} turns)")
        alive = _seats([not out for out in a["eliminated"]])
        if a["phase"] in DECISION_PHASES and len(alive) < 2:
            self.fail(f"the round goes on with only players {alive} still in")
        if t.round_ended:
            self._ended(a, alive)

    def _pile(self, a: Json) -> int:
        """The engine's draw pile after its deal: the deck, plus what was drawn or discarded beyond
        the cards dealt to the players."""
        held = sum(map(len, a["hands"])) + sum(map(len, a["discards"]))
        return len(a["deck"]) + held - self.rules.deal * self.rules.players

    def _ended(self, a: Json, alive: list[int]) -> None:
        if self.rules.mid_round_ends and a["phase"] == "game_over" and a["round_winners"] is None:
            self._stopped(a)
            return
        if a["deck"] and len(alive) > 1:
            self.fail(f"the round ended with {len(a['deck'])} cards to draw and players {alive} still in")
        winners = a["round_winners"]
        if not isinstance(winners, list):
            self.fail(f"the round ended without naming its winners (round_winners: {compact(winners)})")
        if not winners and not self.rules.winnerless:
            self.fail("the round ended without a winner")
        outsiders = [seat for seat in winners if seat not in alive]
        if outsiders:
            self.fail(f"players {outsiders} won the round although they are out of it")
        if len(alive) == 1 and winners != alive:
            self.fail(f"player {alive[0]}, the last still in, is not the round's only winner ({winners})")
        if len(alive) > 1:
            self._showdown(a, winners)

    def _stopped(self, a: Json) -> None:
        """A round stopped by the game's end: somebody must have reached the target."""
        if not any(tokens >= self.rules.target for tokens in a["tokens"]):
            self.fail(f"the game ended during the round without winners, with tokens {a['tokens']} "
                      f"and nobody at the target of {self.rules.target}")

    def _showdown(self, a: Json, winners: list[int]) -> None:
        """The showdown's winners are the ones the spec's comparison and tie-breaks name."""
        want = showdown_winners(self.rules, a)
        if want is not None and sorted(winners) != want:
            hands = {str(seat): hand for seat, hand in enumerate(a["hands"]) if not a["eliminated"][seat]}
            self.fail(f"the showdown's winners are {sorted(winners)}, but the rules name {want} "
                      f"(hands by seat {compact(hands)}, discards {compact(a['discards'])})")


class Tokens(Invariant):
    """Tokens only grow, by exactly what the spec awards, during a round or at its end."""

    name = "tokens"
    protects = ("favour tokens only grow, and only by the amounts the spec awards: at a round's end, "
                "and during it where a card pays at once")
    kinds = ("round_tokens", "bonus_token", "predict", "token_if_eliminated")
    needs = ("games",)

    def __init__(self, rules: Rules, ctx: Context):
        super().__init__(rules, ctx)
        self.marks: list[Mark] = []
        """The predictions made in the round so far."""

    def check(self, t: Transition, game: GameTrace) -> None:
        """Compare each player's gain with the spec's award."""
        a, b = t.after, t.before
        if t.kind == DEAL:
            self.marks = []
            start = list(b["tokens"] if b is not None else (game.tokens or [0] * self.rules.players))
            if t.accepted and not t.round_ended and a["tokens"] != start:
                self.fail(f"the deal changed the tokens from {start} to {a['tokens']}")
            if t.round_ended and self.rules.exact_tokens:  # nobody has discarded anything yet
                gained = [now - then for now, then in zip(a["tokens"], start, strict=True)]
                due = gains_at_end(self.rules, a, [])
                if gained != due:
                    self.fail(f"the players gained {gained} tokens in a round that ended at its deal; "
                              f"the rules award {due}")
            return
        if not t.accepted or b is None:
            return
        gained = [now - then for now, then in zip(a["tokens"], b["tokens"], strict=True)]
        lost = [seat for seat, gain in enumerate(gained) if gain < 0]
        if lost:
            self.fail(f"players {lost} lost tokens ({b['tokens']} -> {a['tokens']})")
        if not self.rules.exact_tokens or t.action is None:
            return
        due = gains_during(self.rules, b, a, t.action)
        mark = prediction(self.rules, b, t.action)
        if mark is not None:
            self.marks.append(mark)
        stopped = a["phase"] == "game_over" and a["round_winners"] is None
        if t.round_ended and not stopped:
            due = [x + y for x, y in zip(due, gains_at_end(self.rules, a, self.marks), strict=True)]
        if gained != due:
            when = "as the round ended" if t.round_ended else "during the round"
            self.fail(f"the players gained {gained} tokens {when}; the rules award {due}")


class GameEnd(Invariant):
    """The game ends exactly when someone reaches the target; no round is dealt after it.

    The state machine asks for one more round of every game that is over: the engine must refuse.
    """

    name = "game-end"
    protects = ("a game ends exactly when someone reaches the token target (at a round's end, or at "
                "once where the rules say so), with everyone at the target as its winners, and no "
                "round is dealt after it")
    kinds = ("tokens_to_win", "game_end")
    needs = ("games",)

    def check(self, t: Transition, game: GameTrace) -> None:
        """Check the phase and the winners after every round's end (and mid-round tokens)."""
        a = t.after
        if self.rules.mid_round_ends and t.accepted and a["phase"] in DECISION_PHASES:
            early = [seat for seat, tokens in enumerate(a["tokens"]) if tokens >= self.rules.target]
            if early:
                self.fail(f"players {early} reached {self.rules.target} tokens during the round but "
                          "the game goes on")
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
            self.fail(f"the engine is in phase {compact(a['phase'])} (known: {', '.join(KNOWN_PHASES)})")
        if a["phase"] in DECISION_PHASES and t.accepted:
            turn = a["turn"]
            if not isinstance(turn, int) or not 0 <= turn < self.rules.players or a["eliminated"][turn]:
                self.fail(f"player {compact(turn)} is on turn but is not a player still in the round")
            if a["phase"] == "respond":
                self._responder(a)
        if t.kind == DEAL and not t.accepted and (b is None or b["phase"] != "game_over"):
            self.fail(f"the engine refused to deal a valid deck: {t.reason}")
        if t.kind != DEAL and not t.accepted and comparable("state", a) != comparable("state", b):
            self.fail(f"refusing {describe_action(t.action)} changed the state")
        if t.listed is not None:
            self._listed(t)

    def _responder(self, a: Json) -> None:
        """A response is owed by a player still in the round, named in `pending`."""
        pending = a.get("pending")
        who = pending.get("player") if isinstance(pending, dict) else None
        if not isinstance(who, int) or not 0 <= who < self.rules.players or a["eliminated"][who]:
            self.fail(f"a response is due from {compact(who)}, who is not a player still in the round "
                      f"(pending: {compact(pending)})")

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
