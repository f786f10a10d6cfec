"""Premium: the classic scenarios with guesses by value, its deck, its nine new cards, its ties.

With two to four players Premium plays the classic 16 cards, so the classic scenarios of
`setup`, `cards` and `rounds` hold for it once a Guard names a value instead of a card
(`by_value`: with the classic cards each value names exactly one card). The new cards only come
with five to eight players; their scenarios are below, and `table.py` plays five-player rounds
down to the showdown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from . import cards, rounds, setup
from .dsl import (
    NO,
    YES,
    Ed,
    Json,
    case,
    deal,
    e_compare,
    e_discard,
    e_draw,
    e_game_end,
    e_guess,
    e_look,
    e_no_effect,
    e_out,
    e_play,
    e_protect,
    e_round_end,
    e_token,
    e_turn,
    group_play,
    play,
    refuse,
    refused_round,
    rnd,
    seen,
    start_events,
    step,
    swap,
)
from .table import table

OVER = {"phase": "round_over", "turn": None}
"""A round just over, its deck not checked (`rounds.OVER` checks that it is empty)."""


# -- the classic scenarios, naming values ----------------------------------------------------------


def by_value(ed: Ed, value: Any) -> Any:
    """`value` (a case or part of one) with every named guess replaced by the card's value.

    Lists of legal actions lose the duplicates this makes (two cards of one value).
    """
    if isinstance(value, dict):
        out = {key: by_value(ed, item) for key, item in value.items()}
        if isinstance(out.get("guess"), str):
            out["guess"] = ed.value(out["guess"])
        if "legal_actions" in out:
            legal = out["legal_actions"]
            out["legal_actions"] = [action for at, action in enumerate(legal) if action not in legal[:at]]
        return out
    if isinstance(value, list):
        return [by_value(ed, item) for item in value]
    return value


def in_deck(ed: Ed, value: Any, players: int) -> Any:
    """`value` without the legal actions, and refused steps, whose guess is no card in play."""
    if isinstance(value, dict):
        out = {key: in_deck(ed, item, players) for key, item in value.items()}
        if "legal_actions" in out:
            out["legal_actions"] = [
                action for action in out["legal_actions"] if _names_a_card_in_play(ed, action, players)
            ]
        if "steps" in out:
            out["steps"] = [
                one
                for one in out["steps"]
                if not one.get("refused") or _names_a_card_in_play(ed, one["action"], players)
            ]
        return out
    if isinstance(value, list):
        return [in_deck(ed, item, players) for item in value]
    return value


def _names_a_card_in_play(ed: Ed, action: Json, players: int) -> bool:
    """False for a guess that is already a value, or names a card not dealt with `players`.

    Classic scenarios refuse such guesses because classic names cards; Premium names values.
    """
    guess = action.get("guess")
    return guess is None or isinstance(guess, str) and ed.spec.card(guess).count_for(players) > 0


def classic_group(build: Callable[[Ed], list[Json]]) -> Callable[[Ed], list[Json]]:
    """A classic scenario group as Premium plays it with two to four players.

    The classic scenarios list every card but the Guard as a Guard's guess; Premium names only the
    values of the cards in play (its new cards come with five players or more).
    """
    return lambda ed: [_worded(by_value(ed, in_deck(ed, one, one["players"]))) for one in build(ed)]


BY_VALUE = {
    "guard.guess/hit-knocks-the-target-out": "A Guard naming the value of the target's card knocks them out; "
    "their hand is discarded",
    "guard.guess/miss-does-nothing": "A Guard naming a value the target's card does not have has no effect",
    "guard.guess/may-not-name-a-guard": "A Guard may name any value of a card in play but the Guard's (1)",
}
"""Descriptions of classic cases that speak of naming cards, as Premium names values."""


def _worded(one: Json) -> Json:
    """`one` with its description restated where it speaks of naming cards."""
    key = one["id"].split(".", 1)[1]
    return {**one, "description": BY_VALUE[key]} if key in BY_VALUE else one


# -- helpers ---------------------------------------------------------------------------------------


def respond(redraw: bool) -> Json:
    """The answer to a Bishop's offer."""
    return {"type": "respond", "card": "Bishop", "redraw": redraw}


def e_group_play(player: int, card: str, targets: list[int], look: int | None = None) -> Json:
    return {**group_play(card, targets, look), "player": player}


def e_predict(player: int, target: int) -> Json:
    return {"type": "predict", "player": player, "target": target}


def e_force(player: int, target: int) -> Json:
    return {"type": "force_target", "player": player, "target": target}


def e_counter(player: int, target: int, card: str) -> Json:
    return {"type": "counter", "player": player, "target": target, "card": card}


def e_respond(player: int, redraw: bool) -> Json:
    return {"type": "respond", "player": player, "card": "Bishop", "redraw": redraw}


def e_group_trade(player: int, targets: list[int], cards_: list[str]) -> Json:
    return {"type": "trade", "player": player, "targets": targets, "cards": cards_}


def prediction(player: int, target: int) -> Json:
    return {"kind": "prediction", "player": player, "target": target, "card": "Jester"}


def forced(target: int) -> Json:
    return {"kind": "forced_target", "target": target, "card": "Sycophant"}


FIVE = ["Guard", "Priest", "Baron", "Handmaid", "Prince"]
"""Five hands that hold one card of each value from 1 to 5 (seat s holds value s + 1)."""


# -- the deck --------------------------------------------------------------------------------------


def deck_rule(ed: Ed) -> list[Json]:
    """Two to four players deal the classic 16 cards, five to eight all 32; each count matters."""
    small, large = deal(ed, 4, ["Guard", "Priest", "Baron", "Handmaid"]), deal(ed, 5, FIVE)
    out = []
    for players, deck in ((4, small), (5, large), (8, deal(ed, 8, FIVE + ["King", "Countess", "Princess"]))):
        out.append(
            case(
                ed,
                f"setup.deck/{len(deck)}-cards-with-{players}-players",
                f"With {players} players the deck has {len(deck)} cards: one set aside, one dealt to each "
                "player, the first player draws, the rest is the draw pile",
                clauses=ed.c("setup.deck", "setup.set-aside", "setup.deal"),
                tags=["setup", "deck"],
                players=players,
                rounds=[
                    rnd(
                        deck,
                        start={
                            "state": {
                                "set_aside": deck[:1],
                                "deck": deck[players + 2 :],
                                "face_up": [] if players > 2 else deck[1:4],
                            }
                        },
                    )
                ],
            )
        )
    out += [
        case(
            ed,
            "setup.deck/five-players-refuse-the-16-card-deck",
            "Five players need all 32 cards: the classic 16 are refused",
            clauses=ed.c("setup.deck"),
            tags=["setup", "refusal"],
            players=5,
            rounds=[refused_round(small)],
        ),
        case(
            ed,
            "setup.deck/four-players-refuse-the-32-card-deck",
            "Four players play the classic 16 cards: all 32 are refused",
            clauses=ed.c("setup.deck"),
            tags=["setup", "refusal"],
            players=4,
            rounds=[refused_round(large)],
        ),
        case(
            ed,
            "setup.deck/a-new-card-with-four-players",
            "The new cards are not in the deck of two to four players (a Jester for a Guard is refused)",
            clauses=ed.c("setup.deck", "jester"),
            tags=["setup", "refusal"],
            players=4,
            rounds=[refused_round(swap(small, "Guard", "Jester"))],
        ),
    ]
    counts = Counter(large)
    for card in ed.spec.cards:
        spare = "Priest" if card.name == "Guard" else "Guard"
        out.append(
            case(
                ed,
                f"{card.clause.id.split('.', 1)[1]}/count-is-{counts[card.name]}-with-five-players",
                f"The five-player deck holds {counts[card.name]} {card.name}: one {card.name} more (one "
                f"{spare} fewer) is refused",
                clauses=[card.clause.id, *ed.c("setup.deck")],
                tags=[card.clause.id.split(".")[1], "setup", "refusal"],
                players=5,
                rounds=[refused_round(swap(large, spare, card.name))],
            )
        )
    return out


# -- the new cards, in the middle of a five-player round ------------------------------------------


def values(ed: Ed) -> list[int]:
    """Every value a Guard or Bishop may name with five to eight players (all but the Guard's)."""
    return sorted({card.value for card in ed.spec.cards if card.name != "Guard"})


def _jester_round(ed: Ed, target: int) -> tuple[list[str], list[Json]]:
    """Seat 0 plays the Jester on `target`; Guards then knock out seats 2, 4, 3 and 0: seat 1 wins."""
    deck = deal(
        ed,
        5,
        ["Jester", "Priest", "Baron", "Handmaid", "Prince"],
        ["King", "Guard", "Guard", "Guard", "Guard"],
    )
    steps = [
        step(
            play("Jester", target),
            [e_play(0, "Jester", target), e_predict(0, target), *e_turn(1, "Guard")],
            state={"marks": [prediction(0, target)]},
        ),
        step(play("Guard", 2, 3)),
        step(play("Guard", 4, 5)),
        step(play("Guard", 3, 4)),
    ]
    return deck, steps


def _jester_end(paid: bool) -> Json:
    """Seat 1's last Guard: seat 0 is out and seat 1 the last player standing."""
    return step(
        play("Guard", 0, 6),
        [
            e_play(1, "Guard", 0, 6),
            e_guess(1, 0, 6, YES),
            *e_out(0, "Guard", "King"),
            e_round_end("last_standing", [1]),
            e_token(1),
            *([e_token(0, "bonus")] if paid else []),
        ],
        state={**OVER, "round_winners": [1], "tokens": [1 if paid else 0, 1, 0, 0, 0]},
    )


def jester(ed: Ed) -> list[Json]:
    right, wrong = _jester_round(ed, 1), _jester_round(ed, 2)
    return [
        case(
            ed,
            "jester.target/another-player",
            "The Jester chooses another player, never its own",
            clauses=ed.c("jester.target", "jester"),
            tags=["jester", "refusal"],
            players=5,
            rounds=[
                rnd(
                    right[0],
                    [refuse(play("Jester", 0)), right[1][0]],
                    start={
                        "legal_actions": [play("Jester", t) for t in range(1, 5)]
                        + [play("King", t) for t in range(1, 5)]
                    },
                )
            ],
        ),
        case(
            ed,
            "jester.predict/the-chosen-player-wins-even-after-the-jester-is-out",
            "The Jester's player gains a token when the player they chose wins the round, even if they "
            "were knocked out themselves",
            clauses=ed.c("jester.predict", "round.last-standing", "tokens.round-win"),
            tags=["jester", "tokens"],
            players=5,
            rounds=[rnd(right[0], [*right[1], _jester_end(YES)])],
            note="premium.jester.predict records the choice that the prediction pays whether or not its "
            "player is still in the round",
        ),
        case(
            ed,
            "jester.predict/a-wrong-prediction-pays-nothing",
            "A Jester on a player who does not win the round pays nothing",
            clauses=ed.c("jester.predict", "round.last-standing"),
            tags=["jester", "tokens"],
            players=5,
            rounds=[rnd(wrong[0], [*wrong[1], _jester_end(NO)])],
        ),
    ]


def assassin(ed: Ed) -> list[Json]:
    hands = ["Guard", "Assassin", "Priest", "Priest", "Baron"]
    countered = [
        e_counter(1, 0, "Assassin"),
        *e_out(0, "Assassin", "Countess"),
        e_discard(1, "Assassin"),
        e_draw(1, "King"),
        *e_turn(1, "Handmaid"),
    ]
    after = {
        "eliminated": [YES, NO, NO, NO, NO],
        "discards": [["Guard", "Countess"], ["Assassin"], [], [], []],
        "hands": [[], ["Handmaid", "King"], ["Priest"], ["Priest"], ["Baron"]],
    }
    return [
        case(
            ed,
            f"assassin.counter/a-guard-naming-{name}-knocks-its-own-player-out",
            f"A Guard that chooses the Assassin's holder (naming {guess}) knocks its own player out; the "
            "holder discards the Assassin and draws a card",
            clauses=ed.c("assassin.counter", "assassin"),
            tags=["assassin", "guard"],
            players=5,
            rounds=[
                rnd(
                    deal(ed, 5, hands, ["Countess", "King", "Handmaid"]),
                    [step(play("Guard", 1, guess), [e_play(0, "Guard", 1, guess), *countered], state=after)],
                )
            ],
        )
        for name, guess in (("three", 3), ("zero", 0))
    ] + [
        case(
            ed,
            "assassin.counter/a-bishop-is-not-countered",
            "The Assassin counters a Guard only: a Bishop naming 0 hits its holder",
            clauses=ed.c("assassin.counter", "bishop.guess"),
            tags=["assassin", "bishop"],
            players=5,
            rounds=[
                rnd(
                    deal(ed, 5, ["Bishop", "Assassin", "Priest", "Priest", "Baron"], ["Handmaid", "King"]),
                    [
                        step(
                            play("Bishop", 1, 0),
                            [e_play(0, "Bishop", 1, 0), e_guess(0, 1, 0, YES), e_token(0, "bonus")],
                            state={"eliminated": [NO] * 5, "phase": "respond", "tokens": [1, 0, 0, 0, 0]},
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "assassin/playing-it-does-nothing",
            "Playing the Assassin has no effect",
            clauses=ed.c("assassin"),
            tags=["assassin"],
            players=5,
            rounds=[
                rnd(
                    deal(ed, 5, ["Assassin", "Priest", "Priest", "Baron", "Guard"], ["Countess", "King"]),
                    [
                        step(
                            play("Assassin"),
                            [e_play(0, "Assassin"), *e_turn(1, "King")],
                            state={"discards": [["Assassin"], [], [], [], []]},
                        )
                    ],
                )
            ],
        ),
    ]


def assassin_empty_deck(ed: Ed) -> list[Json]:
    """A Guard that chooses the Assassin's holder after the last draw: the holder draws the card
    set aside (the rule the Prince follows), and is the last player standing."""
    draws = [
        "Guard",
        "Cardinal",
        "Baron",
        "King",
        "Dowager Queen",
        "Baron",
        "Priest",
        "Guard",
        "Handmaid",
        "Guard",
        "Constable",
        "Baroness",
        "Jester",
        "Sycophant",
        "Countess",
        "Handmaid",
        "Baroness",
        "Sycophant",
        "Guard",
        "Bishop",
        "Assassin",
        "Guard",
    ]
    game = table(ed, ("Count", "Count"), ["Prince", "Prince", "Princess"], "Cardinal", draws, swaps=[20])
    assert game.predictions == [(1, 0)]
    return [
        case(
            ed,
            "assassin.counter/on-an-empty-deck-its-holder-draws-the-set-aside-card",
            "A Guard that chooses the Assassin's holder after the last card was drawn knocks its own player "
            "out; the holder discards the Assassin and draws the card set aside at setup",
            clauses=ed.c("assassin.counter", "round.last-standing", "tokens.round-win"),
            tags=["assassin", "guard", "empty-deck"],
            players=5,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Guard", 1, 2),
                            [
                                e_play(0, "Guard", 1, 2),
                                e_counter(1, 0, "Assassin"),
                                *e_out(0, "Assassin", "Count"),
                                e_discard(1, "Assassin"),
                                e_draw(1, "Cardinal", "set_aside"),
                                e_round_end("last_standing", [1]),
                                e_token(1),
                            ],
                            state={
                                **rounds.OVER,
                                "set_aside": [],
                                "round_winners": [1],
                                "hands": [[], ["Cardinal"], [], [], []],
                                "tokens": [0, 1, 0, 0, 0],
                            },
                        ),
                    ],
                )
            ],
            note="Seats 2-4 are knocked out in the first turns; seats 0 and 1 then play every card they "
            "draw, seat 1 keeping the Assassin from its last draw",
        )
    ]


def nobody_to_choose(ed: Ed, card: str) -> Json:
    """`card` (which chooses players) when every other player is knocked out or protected."""
    hands = ["Handmaid", "Handmaid", "Princess", "Baron", card]
    deck = deal(ed, 5, hands, ["Guard", "Guard", "Priest", "Guard", "Priest"])
    opening = [
        step(play("Handmaid")),
        step(play("Handmaid")),
        step(play("Princess")),
        step(
            play("Baron", 4),
            state={"eliminated": [NO, NO, YES, YES, NO], "protected": [YES, YES, NO, NO, NO]},
            legal=[play(card), play("Priest")],
        ),
    ]
    own = card == "Cardinal"
    return case(
        ed,
        f"{card.lower()}.target/"
        + ("with-only-its-own-player-to-choose-it-does-nothing" if own
           else "with-every-other-player-out-or-protected-it-does-nothing"),
        f"With two players protected and two knocked out, the {card} "
        + ("could choose only its own player, one short of the two it needs" if own
           else "has nobody to look at")
        + ": it is played without targets and has no effect",
        clauses=ed.c(f"{card.lower()}.target", "targeting.no-valid-target", "handmaid.protect"),
        tags=[card.lower(), "no-target", "refusal"],
        players=5,
        rounds=[
            rnd(
                deck,
                [
                    *opening,
                    refuse(group_play(card, [2, 4] if own else [2])),
                    refuse(group_play(card, [0, 4] if own else [0])),
                    refuse(group_play(card, [0, 1])),
                    step(
                        play(card),
                        [e_play(4, card), e_no_effect(4, card), *e_turn(0, "Guard", unprotect=True)],
                    ),
                ],
            )
        ],
    )


def cardinal(ed: Ed) -> list[Json]:
    hands = ["Cardinal", "King", "Priest", "Guard", "Baron"]
    deck = deal(ed, 5, hands, ["Handmaid", "Guard"])
    played = [
        e_group_play(0, "Cardinal", [1, 2], 2),
        e_group_trade(0, [1, 2], ["King", "Priest"]),
        e_look(0, 2, "King"),
        *e_turn(1, "Guard"),
    ]
    log = [*start_events(hands, "Handmaid"), *played]
    return [
        case(
            ed,
            "cardinal.trade/two-other-players-exchange-hands",
            "The Cardinal makes two chosen players exchange hands, then its player looks at one of them; "
            "only the two see the cards they exchange",
            clauses=ed.c("cardinal.target", "cardinal.trade", "cardinal.look", "cardinal"),
            tags=["cardinal"],
            players=5,
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            group_play("Cardinal", [1, 2], 2),
                            played,
                            state={
                                "hands": [["Handmaid"], ["Guard", "Priest"], ["King"], ["Guard"], ["Baron"]]
                            },
                            views={
                                seat: {"hand": hand, "log": seen(log, seat)}
                                for seat, hand in (
                                    (0, ["Handmaid"]),
                                    (1, ["Guard", "Priest"]),
                                    (3, ["Guard"]),
                                )
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "cardinal.target/its-own-player-may-be-one-of-the-two",
            "The Cardinal may choose its own player as one of the two",
            clauses=ed.c("cardinal.target", "cardinal.trade", "cardinal.look"),
            tags=["cardinal"],
            players=5,
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            group_play("Cardinal", [0, 3], 3),
                            [
                                e_group_play(0, "Cardinal", [0, 3], 3),
                                e_group_trade(0, [0, 3], ["Handmaid", "Guard"]),
                                e_look(0, 3, "Handmaid"),
                                *e_turn(1, "Guard"),
                            ],
                            state={
                                "hands": [["Guard"], ["Guard", "King"], ["Priest"], ["Handmaid"], ["Baron"]]
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "cardinal.target/two-players-and-one-of-them-to-look-at",
            "A Cardinal naming one player, or looking at a player it did not choose, is refused",
            clauses=ed.c("cardinal.target", "cardinal.look"),
            tags=["cardinal", "refusal"],
            players=5,
            rounds=[
                rnd(
                    deck,
                    [
                        refuse(group_play("Cardinal", [1], 1)),
                        refuse(group_play("Cardinal", [1, 2], 3)),
                        refuse(group_play("Cardinal", [1, 2])),
                        refuse(play("Cardinal", 1)),
                    ],
                )
            ],
        ),
    ]


def baroness(ed: Ed) -> list[Json]:
    deck = deal(ed, 5, ["Baroness", "Guard", "Priest", "Priest", "Baron"], ["Jester", "Guard"])
    others = range(1, 5)
    legal = [group_play("Baroness", [a, b]) for a in others for b in others if a < b]
    legal += [group_play("Baroness", [a]) for a in others] + [play("Jester", t) for t in others]
    return [
        case(
            ed,
            "baroness.look/two-hands",
            "The Baroness looks at the hands of two other players",
            clauses=ed.c("baroness.target", "baroness.look", "baroness"),
            tags=["baroness"],
            players=5,
            needs=["events"],
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            group_play("Baroness", [2, 4]),
                            [
                                e_group_play(0, "Baroness", [2, 4]),
                                e_look(0, 2, "Priest"),
                                e_look(0, 4, "Baron"),
                                *e_turn(1, "Guard"),
                            ],
                        )
                    ],
                    start={"legal_actions": legal},
                )
            ],
        ),
        case(
            ed,
            "baroness.look/one-hand",
            "The Baroness may look at one other player's hand only",
            clauses=ed.c("baroness.target", "baroness.look"),
            tags=["baroness"],
            players=5,
            needs=["events"],
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            group_play("Baroness", [3]),
                            [e_group_play(0, "Baroness", [3]), e_look(0, 3, "Priest"), *e_turn(1, "Guard")],
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "baroness.target/other-players-only",
            "The Baroness may not choose its own player",
            clauses=ed.c("baroness.target"),
            tags=["baroness", "refusal"],
            players=5,
            rounds=[rnd(deck, [refuse(group_play("Baroness", [0, 2])), refuse(group_play("Baroness", [0]))])],
        ),
    ]


def sycophant(ed: Ed) -> list[Json]:
    deck = deal(ed, 5, ["Sycophant", "Guard", "Priest", "Priest", "Baron"], ["Countess", "Guard", "Handmaid"])
    out = [
        case(
            ed,
            "sycophant.force/the-next-card-must-choose-the-marked-player",
            "After the Sycophant marks a player, the next card played must choose that player; the mark "
            "then ends",
            clauses=ed.c("sycophant.target", "sycophant.force", "sycophant"),
            tags=["sycophant", "refusal"],
            players=5,
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            play("Sycophant", 3),
                            [e_play(0, "Sycophant", 3), e_force(0, 3), *e_turn(1, "Guard")],
                            state={"marks": [forced(3)]},
                            legal=[play("Guard", 3, v) for v in values(ed)],
                        ),
                        refuse(play("Guard", 2, 2)),
                        step(
                            play("Guard", 3, 2),
                            [
                                e_play(1, "Guard", 3, 2),
                                e_guess(1, 3, 2, YES),
                                *e_out(3, "Guard", "Priest"),
                                *e_turn(2, "Handmaid"),
                            ],
                            state={"marks": []},
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "sycophant.force/ignored-by-a-card-that-may-not-choose-the-marked-player",
            "A Sycophant marking the next player binds nothing: that player's Guard may not choose them, "
            "so it chooses freely",
            clauses=ed.c("sycophant.force"),
            tags=["sycophant", "choice"],
            players=5,
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            play("Sycophant", 1),
                            [e_play(0, "Sycophant", 1), e_force(0, 1), *e_turn(1, "Guard")],
                            legal=[play("Guard", t, v) for t in (0, 2, 3, 4) for v in values(ed)],
                        ),
                        step(
                            play("Guard", 4, 3),
                            [
                                e_play(1, "Guard", 4, 3),
                                e_guess(1, 4, 3, YES),
                                *e_out(4, "Guard", "Baron"),
                                *e_turn(2, "Handmaid"),
                            ],
                            state={"marks": []},
                        ),
                    ],
                )
            ],
            note="premium.sycophant.force records the choice that a mark the next card may not follow "
            "is ignored",
        ),
        case(
            ed,
            "sycophant.target/any-player-including-oneself",
            "The Sycophant may mark its own player",
            clauses=ed.c("sycophant.target", "sycophant.force"),
            tags=["sycophant"],
            players=5,
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            play("Sycophant", 0),
                            [e_play(0, "Sycophant", 0), e_force(0, 0), *e_turn(1, "Guard")],
                            state={"marks": [forced(0)]},
                            legal=[play("Guard", 0, v) for v in values(ed)],
                        )
                    ],
                )
            ],
        ),
    ]
    with_cardinal = deal(
        ed, 5, ["Sycophant", "Cardinal", "Priest", "Guard", "Baron"], ["Countess", "King", "Guard"]
    )
    out.append(
        case(
            ed,
            "sycophant.force/a-cardinal-must-include-the-marked-player",
            "A Cardinal played after a Sycophant must name the marked player as one of its two",
            clauses=ed.c("sycophant.force", "cardinal.target", "cardinal.trade"),
            tags=["sycophant", "cardinal", "refusal"],
            players=5,
            rounds=[
                rnd(
                    with_cardinal,
                    [
                        step(play("Sycophant", 3)),
                        refuse(group_play("Cardinal", [0, 2], 2)),
                        step(
                            group_play("Cardinal", [2, 3], 3),
                            [
                                e_group_play(1, "Cardinal", [2, 3], 3),
                                e_group_trade(1, [2, 3], ["Priest", "Guard"]),
                                e_look(1, 3, "Priest"),
                                *e_turn(2, "Guard"),
                            ],
                            state={
                                "marks": [],
                                "hands": [["Countess"], ["King"], ["Guard", "Guard"], ["Priest"], ["Baron"]],
                            },
                        ),
                    ],
                )
            ],
        )
    )
    return out


def constable(ed: Ed) -> list[Json]:
    def knocked_out(tokens: list[int]) -> Json:
        deck = deal(
            ed, 5, ["Constable", "Guard", "Priest", "Priest", "Baron"], ["Count", "Guard", "Handmaid"]
        )
        won = [tokens[0] + 1, *tokens[1:]]
        ends = won[0] >= ed.spec.player_table("tokens_to_win", 5)
        tail = [e_game_end(0)] if ends else e_turn(2, "Handmaid")
        state = {"tokens": won, "eliminated": [YES, NO, NO, NO, NO]}
        if ends:
            state |= {"phase": "game_over", "round_winners": None, "game_winners": [0]}
        return rnd(
            deck,
            [
                step(play("Constable"), [e_play(0, "Constable"), *e_turn(1, "Guard")]),
                step(
                    play("Guard", 0, 5),
                    [
                        e_play(1, "Guard", 0, 5),
                        e_guess(1, 0, 5, YES),
                        *e_out(0, "Guard", "Count"),
                        e_token(0, "bonus"),
                        *tail,
                    ],
                    state=state,
                ),
            ],
        )

    held = deal(ed, 5, ["Count", "Guard", "Priest", "Priest", "Baron"], ["Constable", "Guard", "Handmaid"])
    return [
        case(
            ed,
            "constable.token/a-discarded-constable-pays-when-its-player-is-knocked-out",
            "A player with the Constable in their discard pile gains a token when knocked out",
            clauses=ed.c("constable.token", "constable"),
            tags=["constable", "tokens"],
            players=5,
            rounds=[knocked_out([0] * 5)],
        ),
        case(
            ed,
            "constable.token/the-fourth-token-ends-the-game-at-once",
            "A Constable token that brings its player to 4 tokens wins the game at once, the round "
            "unfinished",
            clauses=ed.c("constable.token", "game.end", "tokens.target"),
            tags=["constable", "game-end"],
            players=5,
            tokens=[3, 0, 0, 0, 0],
            rounds=[knocked_out([3, 0, 0, 0, 0])],
        ),
        case(
            ed,
            "constable.token/a-constable-discarded-on-the-way-out-pays-nothing",
            "A Constable still in hand when its player is knocked out pays nothing",
            clauses=ed.c("constable.token"),
            tags=["constable", "choice"],
            players=5,
            rounds=[
                rnd(
                    held,
                    [
                        step(play("Count")),
                        step(
                            play("Guard", 0, 6),
                            [
                                e_play(1, "Guard", 0, 6),
                                e_guess(1, 0, 6, YES),
                                *e_out(0, "Guard", "Constable"),
                                *e_turn(2, "Handmaid"),
                            ],
                            state={"tokens": [0] * 5},
                        ),
                    ],
                )
            ],
            note="premium.constable.token records the choice that the Constable must already be discarded",
        ),
    ]


def dowager_queen(ed: Ed) -> list[Json]:
    def duel_(mine: str, theirs: str) -> list[str]:
        return deal(ed, 5, ["Dowager Queen", theirs, "Guard", "Guard", "Guard"], [mine, "Guard"])

    def compared(mine: str, theirs: str, loser: int | None) -> Json:
        """Seat 0's Dowager Queen on seat 1, `mine` against `theirs`: `loser` is out (None: nobody)."""
        knocked_out = [] if loser is None else e_out(loser, "Dowager Queen", (mine, theirs)[loser])
        return rnd(
            duel_(mine, theirs),
            [
                step(
                    play("Dowager Queen", 1),
                    [
                        e_play(0, "Dowager Queen", 1),
                        e_compare(0, 1, mine, theirs, loser),
                        *knocked_out,
                        *e_turn(2 if loser == 1 else 1, "Guard"),
                    ],
                    state={"eliminated": [seat == loser for seat in range(5)]},
                )
            ],
        )

    return [
        case(
            ed,
            "dowager-queen.compare/the-higher-hand-is-out",
            "The Dowager Queen compares hands like a Baron, but the higher card is knocked out",
            clauses=ed.c("dowager-queen.target", "dowager-queen.compare", "dowager-queen"),
            tags=["dowager-queen", "compare"],
            players=5,
            rounds=[compared("Priest", "King", 1)],
        ),
        case(
            ed,
            "dowager-queen.compare/its-own-player-when-higher",
            "The Dowager Queen's own player is out when their card is the higher",
            clauses=ed.c("dowager-queen.compare"),
            tags=["dowager-queen", "compare"],
            players=5,
            rounds=[compared("Countess", "Priest", 0)],
        ),
        case(
            ed,
            "dowager-queen.tie/equal-values-do-nothing",
            "Equal values (a Cardinal and a Priest are both 2) knock nobody out",
            clauses=ed.c("dowager-queen.tie"),
            tags=["dowager-queen", "tie"],
            players=5,
            rounds=[compared("Cardinal", "Priest", None)],
        ),
        case(
            ed,
            "dowager-queen.target/another-player",
            "The Dowager Queen may not choose its own player",
            clauses=ed.c("dowager-queen.target"),
            tags=["dowager-queen", "refusal"],
            players=5,
            rounds=[rnd(duel_("Priest", "King"), [refuse(play("Dowager Queen", 0))])],
        ),
    ]


def _bishop_deck(ed: Ed, target_holds: str = "King") -> list[str]:
    return deal(ed, 5, ["Bishop", target_holds, "Guard", "Guard", "Guard"], ["Priest", "Baron", "Handmaid"])


def _bishop_hit(tokens: list[int]) -> Json:
    return step(
        play("Bishop", 1, 6),
        [e_play(0, "Bishop", 1, 6), e_guess(0, 1, 6, YES), e_token(0, "bonus")],
        state={
            "phase": "respond",
            "pending": {"kind": "respond", "player": 1, "card": "Bishop"},
            "tokens": [tokens[0] + 1, *tokens[1:]],
        },
        legal=[respond(NO), respond(YES)],
    )


def bishop(ed: Ed) -> list[Json]:
    out = [
        case(
            ed,
            "bishop.redraw/the-target-keeps-its-card",
            "A Bishop naming the target's value gains a token; the target may keep the card",
            clauses=ed.c("bishop.target", "bishop.guess", "bishop.redraw", "bishop"),
            tags=["bishop", "tokens"],
            players=5,
            rounds=[
                rnd(
                    _bishop_deck(ed),
                    [
                        _bishop_hit([0] * 5),
                        refuse(play("Priest", 2), note="the Bishop's target must answer first"),
                        step(
                            respond(NO),
                            [e_respond(1, NO), *e_turn(1, "Baron")],
                            state={
                                "phase": "play",
                                "pending": None,
                                "hands": [["Priest"], ["Baron", "King"], ["Guard"], ["Guard"], ["Guard"]],
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "bishop.redraw/the-target-discards-and-draws",
            "The Bishop's target may discard the named card and draw a new one",
            clauses=ed.c("bishop.redraw"),
            tags=["bishop"],
            players=5,
            rounds=[
                rnd(
                    _bishop_deck(ed),
                    [
                        _bishop_hit([0] * 5),
                        step(
                            respond(YES),
                            [
                                e_respond(1, YES),
                                e_discard(1, "King"),
                                e_draw(1, "Baron"),
                                *e_turn(1, "Handmaid"),
                            ],
                            state={
                                "hands": [["Priest"], ["Baron", "Handmaid"], ["Guard"], ["Guard"], ["Guard"]],
                                "discards": [["Bishop"], ["King"], [], [], []],
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "bishop.redraw/discarding-the-princess-knocks-the-target-out",
            "A Bishop's target who chooses to discard the Princess is knocked out by her",
            clauses=ed.c("bishop.redraw", "princess.discard"),
            tags=["bishop", "princess"],
            players=5,
            rounds=[
                rnd(
                    _bishop_deck(ed, "Princess"),
                    [
                        step(
                            play("Bishop", 1, 8),
                            [e_play(0, "Bishop", 1, 8), e_guess(0, 1, 8, YES), e_token(0, "bonus")],
                        ),
                        step(
                            respond(YES),
                            [
                                e_respond(1, YES),
                                e_discard(1, "Princess"),
                                *e_out(1, "Princess"),
                                *e_turn(2, "Baron"),
                            ],
                            state={"eliminated": [NO, YES, NO, NO, NO]},
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "bishop.guess/a-miss-does-nothing",
            "A Bishop naming a value the target does not hold gains nothing and offers nothing",
            clauses=ed.c("bishop.guess"),
            tags=["bishop"],
            players=5,
            rounds=[
                rnd(
                    _bishop_deck(ed),
                    [
                        refuse(play("Bishop", 1, 1), note="the Bishop, like the Guard, may not name 1"),
                        refuse(play("Bishop", 0, 9), note="another player"),
                        step(
                            play("Bishop", 1, 5),
                            [e_play(0, "Bishop", 1, 5), e_guess(0, 1, 5, NO), *e_turn(1, "Baron")],
                            state={"tokens": [0] * 5, "phase": "play"},
                        ),
                    ],
                )
            ],
        ),
    ]
    for players in range(5, 9):
        goal = ed.spec.player_table("tokens_to_win", players)
        tokens = [goal - 1] + [0] * (players - 1)
        deck = deal(ed, players, ["Bishop", "King", *["Guard"] * (players - 2)], ["Priest"])
        out.append(
            case(
                ed,
                f"tokens.target/{players}-players-{goal}-tokens-won-mid-round",
                f"With {players} players a Bishop token that brings its player to {goal} wins the game "
                "at once",
                clauses=ed.c("tokens.target", "game.end", "bishop.guess"),
                tags=["bishop", "tokens", "game-end"],
                players=players,
                tokens=tokens,
                rounds=[
                    rnd(
                        deck,
                        [
                            step(
                                play("Bishop", 1, 6),
                                [
                                    e_play(0, "Bishop", 1, 6),
                                    e_guess(0, 1, 6, YES),
                                    e_token(0, "bonus"),
                                    e_game_end(0),
                                ],
                                state={
                                    "phase": "game_over",
                                    "turn": None,
                                    "pending": None,
                                    "round_winners": None,
                                    "game_winners": [0],
                                    "tokens": [goal] + [0] * (players - 1),
                                },
                            )
                        ],
                    )
                ],
            )
        )
    out.append(
        case(
            ed,
            "tokens.target/5-players-3-tokens-is-not-enough",
            "With five players, a third token does not end the game",
            clauses=ed.c("tokens.target", "bishop.guess"),
            tags=["bishop", "tokens"],
            players=5,
            tokens=[2, 0, 0, 0, 0],
            rounds=[rnd(_bishop_deck(ed), [_bishop_hit([2, 0, 0, 0, 0])])],
        )
    )
    return out


# -- showdowns with two players, and the next round -------------------------------------------------


def showdowns(ed: Ed) -> list[Json]:
    """Two-player rounds played to an empty deck with the classic cards (tools/casegen/duel.py)."""
    game = rounds.classic_king_beats_prince(ed)
    out = [
        case(
            ed,
            "round.showdown/the-highest-card-wins",
            "When a turn ends with the deck empty, the players still in compare hands: the higher card wins",
            clauses=ed.c("round.deck-empty", "round.showdown", "tokens.round-win"),
            tags=["showdown", "two-player"],
            players=2,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Handmaid"),
                            [
                                e_play(1, "Handmaid"),
                                e_protect(1),
                                e_round_end("showdown", [0], ["King", "Prince"]),
                                e_token(0),
                            ],
                            state={**rounds.OVER, "round_winners": [0], "tokens": [1, 0]},
                        ),
                    ],
                )
            ],
        )
    ]
    for kind, winners, totals in (("nobody", [0, 1], "12 and 12"), ("starter", [0], "14 and 10")):
        shared = len(winners) > 1
        out.append(
            rounds.classic_tie_case(
                ed, kind, winners, totals,
                "equal-discard-totals-both-win" if shared else "the-higher-discard-total-wins",
                "players still tied all win the round" if shared else "seat 0 wins",
                over=OVER,
                note="premium.round.tie records the choice of Premium's rulebook (every still-tied player "
                "wins) over the game-help page (nobody wins)" if shared else None,
            )
        )
    return out


def next_first(ed: Ed) -> list[Json]:
    jest, steps = _jester_round(ed, 2)
    tie = rounds.classic_tie(ed, "nobody", first=1)
    return [
        case(
            ed,
            "round.next-first/the-winner-starts",
            "The winner of a round starts the next one",
            clauses=ed.c("round.next-first"),
            tags=["next-round", "games"],
            players=5,
            rounds=[
                rnd(jest, [*steps, _jester_end(NO)]),
                rnd(
                    deal(ed, 5, FIVE, ["Guard"]),
                    start={"state": {"round": 2, "starter": 1, "turn": 1, "tokens": [0, 1, 0, 0, 0]}},
                ),
            ],
        ),
        case(
            ed,
            "round.next-first/tied-winners-the-first-from-the-last-starter",
            "After a round won by several tied players, the first of them in turn order from the last "
            "round's starter starts (here that starter, seat 1)",
            clauses=ed.c("round.next-first", "round.tie"),
            tags=["next-round", "games", "tie", "two-player", "choice"],
            players=2,
            first=1,
            rounds=[
                rnd(tie.deck, [*tie.steps, step(play("Handmaid"))]),
                rnd(
                    deal(ed, 2, ["Guard", "Priest"], ["Baron"]),
                    start={"state": {"round": 2, "starter": 1, "turn": 1, "tokens": [1, 1]}},
                ),
            ],
            note="premium.round.next-first records the choice for several winners",
        ),
    ]


# -- five-player showdowns (tools/casegen/table.py) ------------------------------------------------

ANY = None
OUT3 = [ANY, ANY, ANY]
"""The showdown hands of seats 2-4, knocked out in the opening."""


def count_bonus(ed: Ed) -> list[Json]:
    draws = [
        "Guard",
        "Count",
        "Jester",
        "Priest",
        "Baron",
        "Count",
        "Handmaid",
        "Guard",
        "Sycophant",
        "Baroness",
        "Dowager Queen",
        "Baron",
        "Guard",
        "Handmaid",
        "Bishop",
        "Constable",
        "Countess",
        "Sycophant",
        "Guard",
        "Assassin",
        "Baroness",
        "Guard",
    ]
    game = table(ed, ("Prince", "Prince"), ["Cardinal", "Cardinal", "King"], "Princess", draws)
    assert game.predictions == [(1, 0)]
    return [
        case(
            ed,
            "count.bonus/discarded-counts-break-a-showdown-tie",
            "Two Princes meet at the showdown; each Count in a player's discard pile adds 1, so the player "
            "who discarded both Counts wins (and the Jester that predicted it pays)",
            clauses=ed.c("count.bonus", "count", "round.showdown", "round.deck-empty", "jester.predict"),
            tags=["count", "jester", "showdown"],
            players=5,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Guard", 1, 2),
                            [
                                e_play(0, "Guard", 1, 2),
                                e_guess(0, 1, 2, NO),
                                e_round_end("showdown", [0], ["Prince", "Prince", *OUT3]),
                                e_token(0),
                                e_token(1, "bonus"),
                            ],
                            state={**rounds.OVER, "round_winners": [0], "tokens": [1, 1, 0, 0, 0]},
                        ),
                    ],
                )
            ],
            note="Seats 2-4 are knocked out in the first turns; seats 0 and 1 then play every card they draw",
        )
    ]


def count_one_point(ed: Ed) -> list[Json]:
    draws = [
        "Guard",
        "Dowager Queen",
        "Baron",
        "King",
        "Cardinal",
        "Cardinal",
        "Baron",
        "Constable",
        "Guard",
        "Count",
        "Priest",
        "Baroness",
        "Guard",
        "Sycophant",
        "Guard",
        "Jester",
        "Bishop",
        "Countess",
        "Guard",
        "Assassin",
        "Sycophant",
        "Baroness",
    ]
    game = table(ed, ("Handmaid", "Handmaid"), ["Prince", "Prince", "Princess"], "Count", draws,
                 swaps=[16, 17])
    assert game.kept == ["Countess", "Bishop"] and game.predictions == [(0, 1)] and game.marked == 1
    return [
        case(
            ed,
            "count.bonus/one-count-adds-exactly-one",
            "A Countess (7) with one Count discarded counts 8 and loses to a Bishop (9); a Count worth "
            "2 would tie them, and the tie would go to the Countess's far higher discard total",
            clauses=ed.c("count.bonus", "round.showdown", "round.deck-empty", "jester.predict"),
            tags=["count", "bishop", "showdown"],
            players=5,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            group_play("Baroness", [1]),
                            [
                                {"type": "play", "player": 0, "card": "Baroness", "targets": [1]},
                                e_look(0, 1, "Bishop"),
                                e_round_end("showdown", [1], ["Countess", "Bishop", *OUT3]),
                                e_token(1),
                                e_token(0, "bonus"),
                            ],
                            state={**rounds.OVER, "round_winners": [1], "tokens": [1, 1, 0, 0, 0]},
                        ),
                    ],
                )
            ],
            note="The other Count is the card set aside, so seat 1 discards none; seat 0's discards total "
            "42 against seat 1's 24",
        )
    ]


def bishop_showdown(ed: Ed) -> list[Json]:
    draws = [
        "Guard",
        "Baron",
        "King",
        "Dowager Queen",
        "Baron",
        "Jester",
        "Priest",
        "Handmaid",
        "Guard",
        "Sycophant",
        "Baroness",
        "Guard",
        "Constable",
        "Baroness",
        "Princess",
        "Bishop",
        "Countess",
        "Guard",
        "Sycophant",
        "Assassin",
        "Guard",
        "Handmaid",
    ]
    game = table(ed, ("Count", "Count"), ["Prince", "Prince", "Cardinal"], "Cardinal", draws, swaps=[14, 15])
    assert game.kept == ["Bishop", "Princess"] and game.predictions == [(0, 1)]
    return [
        case(
            ed,
            "bishop.showdown/the-bishop-loses-to-the-princess",
            "At the showdown the Bishop (9) loses to the Princess (8)",
            clauses=ed.c("bishop.showdown", "round.showdown", "jester.predict"),
            tags=["bishop", "princess", "showdown"],
            players=5,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Handmaid"),
                            [
                                e_play(0, "Handmaid"),
                                e_protect(0),
                                e_round_end("showdown", [1], ["Bishop", "Princess", *OUT3]),
                                e_token(1),
                                e_token(0, "bonus"),
                            ],
                            state={**OVER, "round_winners": [1], "tokens": [1, 1, 0, 0, 0]},
                        ),
                    ],
                )
            ],
            note="Both players discarded a Count, so the Bishop is worth 10 and the Princess 9: the Bishop "
            "loses all "
            "the same",
        )
    ]


def bishop_empty_deck(ed: Ed) -> list[Json]:
    draws = [
        "Guard",
        "Cardinal",
        "Baron",
        "King",
        "Dowager Queen",
        "Baron",
        "Priest",
        "Guard",
        "Handmaid",
        "Guard",
        "Sycophant",
        "Baroness",
        "Jester",
        "Constable",
        "Countess",
        "Handmaid",
        "Baroness",
        "Sycophant",
        "Guard",
        "Assassin",
        "Guard",
        "Bishop",
    ]
    game = table(ed, ("Count", "Count"), ["Prince", "Prince", "Princess"], "Cardinal", draws)
    assert game.predictions == [(1, 0)]
    return [
        case(
            ed,
            "bishop.empty-deck/the-target-draws-the-set-aside-card",
            "A Bishop's target who redraws after the last card was drawn takes the card set aside; then the "
            "showdown follows",
            clauses=ed.c(
                "bishop.empty-deck", "bishop.redraw", "bishop.guess", "round.deck-empty", "count.bonus"
            ),
            tags=["bishop", "empty-deck", "showdown"],
            players=5,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Bishop", 1, 5),
                            [e_play(0, "Bishop", 1, 5), e_guess(0, 1, 5, YES), e_token(0, "bonus")],
                            state={"phase": "respond", "deck": []},
                        ),
                        step(
                            respond(YES),
                            [
                                e_respond(1, YES),
                                e_discard(1, "Count"),
                                e_draw(1, "Cardinal", "set_aside"),
                                e_round_end("showdown", [0], ["Count", "Cardinal", *OUT3]),
                                e_token(0),
                                e_token(1, "bonus"),
                            ],
                            state={**OVER, "set_aside": [], "round_winners": [0], "tokens": [2, 1, 0, 0, 0]},
                        ),
                    ],
                )
            ],
        )
    ]


def jester_shared_win(ed: Ed) -> list[Json]:
    draws = [
        "Guard",
        "Jester",
        "Baron",
        "Baron",
        "King",
        "Count",
        "Dowager Queen",
        "Guard",
        "Count",
        "Priest",
        "Handmaid",
        "Bishop",
        "Sycophant",
        "Guard",
        "Baroness",
        "Handmaid",
        "Guard",
        "Sycophant",
        "Baroness",
        "Constable",
        "Assassin",
        "Guard",
    ]
    game = table(ed, ("Prince", "Prince"), ["Cardinal", "Cardinal", "Countess"], "Princess", draws)
    totals = [sum(ed.value(card) for card in pile) for pile in game.discards[:2]]
    assert game.predictions == [(0, 1)] and totals == [38 - 1, 38], totals
    return [
        case(
            ed,
            "jester.predict/a-shared-round-win-pays",
            "Two Princes with one Count each and equal discard totals (38) share the round; the Jester on "
            "one of them pays",
            clauses=ed.c("jester.predict", "round.tie", "count.bonus", "round.showdown"),
            tags=["jester", "count", "tie", "showdown", "choice"],
            players=5,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Guard", 1, 2),
                            [
                                e_play(0, "Guard", 1, 2),
                                e_guess(0, 1, 2, NO),
                                e_round_end("showdown", [0, 1], ["Prince", "Prince", *OUT3]),
                                e_token(0),
                                e_token(1),
                                e_token(0, "bonus"),
                            ],
                            state={**OVER, "round_winners": [0, 1], "tokens": [2, 1, 0, 0, 0]},
                        ),
                    ],
                )
            ],
            note="premium.jester.predict records the choice that a shared round win counts as a win",
        )
    ]


# -- the groups --------------------------------------------------------------------------------------


def _values(group: Callable[[Ed], list[Json]]) -> Callable[[Ed], list[Json]]:
    return lambda ed: [by_value(ed, one) for one in group(ed)]


GROUPS = {
    "setup": (
        "Setup with two to four players: the face-down card, face-up cards, dealing",
        classic_group(setup.dealing),
    ),
    "turns": ("Turns: order, one card per turn, players who are out", classic_group(setup.turns)),
    **{
        name: (f"{description}, naming values", classic_group(build))
        for name, (description, build) in cards.GROUPS.items()
    },
    "last-standing": ("The last player standing wins the round at once", classic_group(rounds.last_standing)),
    "deck": (
        "Deals must be exactly the deck for the player count: 16 cards for 2-4 players, 32 for 5-8",
        deck_rule,
    ),
    "jester": ("The Jester: a prediction of the round's winner", jester),
    "assassin": (
        "The Assassin: a Guard that chooses its holder knocks out its own player",
        lambda ed: assassin(ed) + assassin_empty_deck(ed),
    ),
    "cardinal": (
        "The Cardinal: two players exchange hands, one of them seen",
        lambda ed: [*cardinal(ed), nobody_to_choose(ed, "Cardinal")],
    ),
    "baroness": (
        "The Baroness: a look at one or two hands",
        lambda ed: [*baroness(ed), nobody_to_choose(ed, "Baroness")],
    ),
    "sycophant": ("The Sycophant: the next card played must choose the marked player", sycophant),
    "constable": ("The Constable: a token for a player knocked out with it discarded", constable),
    "dowager-queen": ("The Dowager Queen: a Baron whose higher card is out", dowager_queen),
    "bishop": (
        "The Bishop: a token for naming a value, a redraw for its target, the game won mid-round",
        bishop,
    ),
    "showdown": (
        "Showdowns and ties with two players: the higher card, then the higher discard total",
        _values(lambda ed: showdowns(ed) + rounds.empty_deck(ed, OVER)),
    ),
    "next-round": ("Who starts the next round", _values(next_first)),
    "five-player-showdowns": (
        "Five-player rounds played to the showdown: the Count, the Bishop, the Jester",
        lambda ed: (count_bonus(ed) + count_one_point(ed) + bishop_showdown(ed) + bishop_empty_deck(ed)
                    + jester_shared_win(ed)),
    ),
}
"""File name -> (description, cases for Premium)."""
