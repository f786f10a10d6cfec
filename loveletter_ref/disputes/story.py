"""Witnesses told as a short story that people can play out at a table.

"2 players; Ana starts. Deal: the [card] is set aside face down; Ana gets the [card], Ben the
[card]. Ana draws the [card] and plays the [card] on Ben, naming the [card] (wrong). ..."
Up to the step where the two specs part, the story is told once; from there on, each side's
version of a step is told when they differ, as one sentence under that side's name, and the
story ends with what a table sees.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from loveletter_ref.lockstep import DEAL

from .duel import Look
from .witness import Witness

NAMES = ("Ana", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana")
NUMBERS = {2: "two", 3: "three", 4: "four"}
SEAT = re.compile(r"\bplayer (\d+)")
"""A seat as the engine's messages name it."""
SELF = ("herself", "himself", "herself", "himself", "herself", "himself", "himself", "herself")
RESPOND = "respond"
"""The kind of move that answers a card's offer to its target (to discard and draw)."""


def who(seat: int) -> str:
    """The name the stories give a seat."""
    return NAMES[seat] if seat < len(NAMES) else f"player {seat}"


def _their(seat: int) -> str:
    """The possessive the stories give a seat."""
    if seat >= len(SELF):
        return "their"
    return "her" if SELF[seat] == "herself" else "his"


def _answer(seat: int, redraw: bool) -> str:
    """A player's answer to a card's offer to discard their hand and draw."""
    return f"{who(seat)} chooses to discard and draw" if redraw else f"{who(seat)} keeps {_their(seat)} card"


def _listing(names: Sequence[str]) -> str:
    counts = Counter(names)
    items = [f"the {n}" if k == 1 else f"{NUMBERS.get(k, str(k))} {n}s" for n, k in counts.items()]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class Teller:
    """Turns a witness's events into sentences."""

    def __init__(self, witness: Witness):
        self.witness = witness
        self.turn = witness.first_player
        """Whose turn it is, as far as the story has got."""
        self.responder: int | None = None
        """Who answers a card's offer, once a step leaves one due."""

    def setup(self) -> str:
        """Who plays, who starts, and the tokens already won."""
        w = self.witness
        text = f"{w.players} players; {who(w.first_player)} starts"
        if w.tokens and any(w.tokens):
            held = ", ".join(f"{who(s)} {n}" for s, n in enumerate(w.tokens) if n)
            text += f"; favour tokens already won: {held}"
        return text + "."

    def step(self, index: int, look: Look) -> list[str]:
        """One step (a deal or an action) as it went at one table, as sentences."""
        kind, value = self.witness.steps[index]
        if look.status == "refused":
            return [self._refused(kind, value, look)]
        events = list(look.raw_events)
        if kind == DEAL:
            return self._deal(value, events, look)
        if look.status == "gap" and not events:
            return [f"{self._move(value)}; {self._gap(look)}"]
        said = self._events(events, look)
        if any(move[0] == RESPOND for move in look.legal):  # the play's target answers its offer
            self.responder = next(e for e in reversed(events) if e["type"] == "play")["target"]
            said.append(f"{who(self.responder)} may keep {_their(self.responder)} card or discard it "
                        "and draw")
        return said

    def _refused(self, kind: str, value: Any, look: Look) -> str:
        reason = SEAT.sub(lambda m: who(int(m.group(1))), look.reason)
        if kind == DEAL:
            return f"the {'game' if look.clause is None else 'deal'} is refused: {reason}"
        return f"{self._intent(value)} is refused: {reason} [{look.clause}]"

    def _move(self, move: Any) -> str:
        """A move as a sentence: who does what."""
        if move[0] == RESPOND:
            assert self.responder is not None, "an answer follows the step that offers it"
            return _answer(self.responder, move[7])
        return f"{who(self.turn)} plays the {move[1]}"

    def _intent(self, move: Any) -> str:
        kind, card = move[0], move[1]
        if kind == "keep":
            return f"keeping the {card} and returning {_listing(move[4])}"
        if kind == RESPOND:
            return f"answering the {card} by {'discarding and drawing' if move[7] else 'keeping the card'}"
        text = f"playing the {card}"
        if move[2] is not None:
            text += f" on {who(move[2])}"
        if move[5]:
            text += " on " + " and ".join(who(t) for t in move[5])
        if move[3] is not None:
            text += f", naming the {' or '.join(move[3])}"
        return text

    def _deal(self, deck: Sequence[str], events: list[dict[str, Any]], look: Look) -> list[str]:
        start = next((e for e in events if e["type"] == "round_start"), None)
        if start is None:
            return [self._gap(look) if look.status == "gap" else "the round is dealt"]
        parts = []
        aside = start.get("set_aside", 0)
        if aside:
            parts.append(f"{_listing(deck[:aside])} {'is' if aside == 1 else 'are'} set aside face down")
        if start.get("face_up"):
            parts.append(f"face up: {', '.join(start['face_up'])}")
        dealt = [f"{who(e['player'])} gets the {e['card']}" for e in events if e["type"] == "deal"]
        parts.append(", ".join(dealt))
        text = f"Round {start['round']} (deck from the top: {', '.join(deck)}): " + "; ".join(parts)
        rest = [e for e in events if e["type"] not in ("round_start", "deal")]
        return [text, *self._events(rest, look)]

    def _events(self, events: list[dict[str, Any]], look: Look) -> list[str]:
        """Events as sentences: a new one at each turn, the rest of a turn joined by commas."""
        sentences: list[list[str]] = [[]]
        for event in events:
            if event["type"] == "turn":
                self.turn = event["player"]
                if sentences[-1]:
                    sentences.append([])
            said = self._event(event)
            if said:
                sentences[-1].append(said)
        told = [", ".join(parts) for parts in sentences if parts]
        if look.status == "gap":
            told.append(self._gap(look))
        return told

    def _gap(self, look: Look) -> str:
        reason = look.reason.removeprefix("the rules are silent here: ")
        reason = SEAT.sub(lambda m: who(int(m.group(1))), reason)
        return f"here the rules give no answer [{look.clause}]: {reason}"

    def _event(self, e: dict[str, Any]) -> str:
        kind = e["type"]
        if kind == "play":
            return self._play(e)
        if kind == "round_end":
            return self._round_end(e)
        p = who(e["player"]) if "player" in e else ""
        told = _card_event(kind, p, e)
        return told if told is not None else _outcome(kind, p, e)

    def _play(self, e: dict[str, Any]) -> str:
        seat = e["player"]
        text = f"{who(seat)} plays the {e['card']}"
        if "target" in e:
            target = e["target"]
            text += f" on {SELF[seat] if target == seat and seat < len(SELF) else who(target)}"
        if "targets" in e:
            text += " on " + " and ".join(who(t) for t in e["targets"])
        if "guess" in e:
            guess = e["guess"]
            text += f", naming {'the value ' + str(guess) if isinstance(guess, int) else 'the ' + guess}"
        return text

    def _round_end(self, e: dict[str, Any]) -> str:
        winners = e["winners"]
        verb = " win" if len(winners) > 1 else " wins"
        won = _names(winners) + verb + " the round" if winners else "nobody wins the round"
        if e["reason"] == "showdown":
            hands = ", ".join(f"{who(s)} the {c}" for s, c in enumerate(e.get("hands", [])) if c)
            return f"the deck is empty: showdown ({hands}); {won}"
        if e["reason"] == "all_eliminated":
            return f"everybody is out; {won}"
        return won


def story(witness: Witness, a_label: str, b_label: str) -> str:
    """The witness as one paragraph: common steps once, then each side where they differ (each
    side's version one sentence, so that nothing in it reads as happening in both games)."""
    teller = Teller(witness)
    out = [teller.setup()]
    other = teller  # side b's own teller once the games part: each side has its own turn and responder
    for i, (la, lb) in enumerate(witness.looks):
        if other is teller and i >= witness.diverged and differs(la, lb):
            other = copy.copy(teller)
        if i < witness.diverged or not differs(la, lb):
            out += map(_sentence, teller.step(i, la))
            if other is not teller:
                other.step(i, lb)
            continue
        for look, label, side in ((la, a_label, teller), (lb, b_label, other)):
            said = "; ".join(s.rstrip(".") for s in side.step(i, look))
            out.append(f"Under {label}: {said or 'nothing happens'}.")
    out.append(_sentence(outcome(witness, a_label, b_label)))
    return " ".join(out)


def steps_told(witness: Witness, labels: Sequence[str]) -> list[str]:
    """The witness step by step under one spec or two (`labels`), one numbered line a step:
    common steps once, then from where the two part, each side's version on a line of its own,
    and what a table sees at the end."""
    teller = Teller(witness)
    out = [teller.setup()]
    other = teller
    parted = False
    for i, (la, lb) in enumerate(witness.looks):
        if len(labels) == 1 or not differs(la, lb):
            said = " ".join(map(_sentence, teller.step(i, la)))
            if other is not teller:
                other.step(i, lb)
            out.append(f"{i + 1}. {said or 'Nothing happens.'}")
            continue
        if not parted:
            parted, other = True, copy.copy(teller)
            out.append(f"Here {labels[0]} and {labels[1]} part:")
        for look, label, side in ((la, labels[0], teller), (lb, labels[1], other)):
            said = "; ".join(s.rstrip(".") for s in side.step(i, look))
            out.append(f"{i + 1}. Under {label}: {said or 'nothing happens'}.")
    if len(labels) == 2:
        out.append(_sentence(outcome(witness, labels[0], labels[1])) if parted
                   else f"{labels[0]} and {labels[1]} play this game alike.")
    return out


def gap_story(witness: Witness, label: str) -> str:
    """A game under one spec that stops on a rule gap."""
    teller = Teller(witness)
    out = [teller.setup()]
    for i, (look, _) in enumerate(witness.looks):
        out += map(_sentence, teller.step(i, look))
    return " ".join(out)


def differs(a: Look, b: Look) -> bool:
    return a.status != b.status or a.events != b.events or a.clause != b.clause


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def outcome(witness: Witness, a_label: str, b_label: str) -> str:
    """What a table sees at the end of the witness, in one sentence."""
    la, lb = witness.looks[-1]
    if la.status != lb.status and "ok" not in (la.status, lb.status):
        return (f"so neither plays on: {_stopped(la, a_label, witness.players)}, and "
                f"{_stopped(lb, b_label, witness.players)}")
    if la.status != lb.status:
        for look, label, other in ((la, a_label, b_label), (lb, b_label, a_label)):
            if look.status == "refused" and look.clause is None:  # the game itself, not a step
                return f"so {label} refuses a game of {witness.players} players, which {other} plays"
            if look.status == "refused":
                return f"so {label} refuses what {other} allows ({look.clause})"
            if look.status == "gap":
                return f"so {label} cannot go on, its rules silent at {look.clause}, where {other} plays on"
    parts = []
    for seat in range(witness.players):
        if la.alive and lb.alive and la.alive[seat] != lb.alive[seat]:
            out_label, in_label = (a_label, b_label) if not la.alive[seat] else (b_label, a_label)
            parts.append(f"{who(seat)} is out under {out_label} but still in under {in_label}")
    if la.round_winners != lb.round_winners:
        parts.append(f"the round is won by {_names(la.round_winners)} under {a_label} and by "
                     f"{_names(lb.round_winners)} under {b_label}")
    if la.tokens != lb.tokens:
        parts.append(f"tokens are {_tokens(la.tokens)} under {a_label} and {_tokens(lb.tokens)} "
                     f"under {b_label}")
    if la.game_winners != lb.game_winners:
        parts.append(f"the game is {_won(la.game_winners)} under {a_label} and {_won(lb.game_winners)} "
                     f"under {b_label}")
    return "so " + "; ".join(parts) if parts else "the two games differ"


def _stopped(look: Look, label: str, players: int) -> str:
    """Why one side stops, when neither plays on."""
    if look.status == "refused" and look.clause is None:
        return f"{label} refuses a game of {players} players"
    if look.status == "refused":
        return f"{label} refuses the move ({look.clause})"
    return f"{label}'s rules are silent at {look.clause}"


def _names(seats: Sequence[int] | None) -> str:
    if seats is None:
        return "nobody yet"
    return " and ".join(who(s) for s in seats) if seats else "nobody"


def _tokens(tokens: Sequence[int]) -> str:
    return ", ".join(f"{who(s)} {n}" for s, n in enumerate(tokens))


def _won(seats: Sequence[int] | None) -> str:
    return "still on" if seats is None else f"won by {_names(seats)}"


def _card_event(kind: str, p: str, e: dict[str, Any]) -> str | None:
    """An event that moves or shows cards, told (None for the other kinds)."""
    if kind == "draw":
        source = " set aside at the start" if e.get("from") == "set_aside" else ""
        return f"{p} draws the {e['card']}{source}"
    if kind == "look":
        return f"{p} sees {who(e['target'])}'s {e['card']}"
    if kind == "compare":
        mine, theirs = e["cards"]
        return f"{p}'s {mine} against {who(e['target'])}'s {theirs}"
    if kind == "trade":
        return "they swap hands"
    if kind == "counter":
        return f"{p} reveals the {e['card']}"
    if kind == "return":
        return f"{p} returns {_listing(e['cards'])} to the {e['to']} of the deck"
    if kind == "discard":
        return f"{p} discards the {e['card']}"
    return None


def _outcome(kind: str, p: str, e: dict[str, Any]) -> str:
    """Any other event told: what a play decided, a player out, tokens, the game's end."""
    if kind == "no_effect":
        return "it has no effect"
    if kind == "guess":
        return "a right guess" if e["correct"] else "a wrong guess"
    if kind == "predict":
        return f"betting that {who(e['target'])} wins the round"
    if kind == "force_target":
        return f"the next card played must choose {who(e['target'])} if it can"
    if kind == RESPOND:
        return _answer(e["player"], e["redraw"])
    if kind == "eliminate":
        return f"{p} is out"
    if kind == "token":
        return f"{p} gains {e['amount']} token{'s' if e['amount'] != 1 else ''}"
    if kind == "game_end":
        winners = e["winners"]
        return f"{' and '.join(who(s) for s in winners)} win{'s' if len(winners) == 1 else ''} the game"
    if kind in ("turn", "unprotect", "protect", "deal", "round_start"):
        return ""
    return kind.replace("_", " ")
