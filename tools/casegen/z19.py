"""The cards only the 2019 edition has: the Spy and the Chancellor."""

from __future__ import annotations

from .dsl import (
    NO,
    YES,
    Ed,
    Json,
    case,
    deal,
    e_discard,
    e_draw,
    e_guess,
    e_no_effect,
    e_out,
    e_play,
    e_return,
    e_round_end,
    e_token,
    e_turn,
    keep,
    play,
    refuse,
    rnd,
    seen,
    start_events,
    step,
)
from .duel import duel


def spy(ed: Ed) -> list[Json]:
    won = [e_round_end("last_standing", [0]), e_token(0), e_token(0, "bonus")]
    return [
        case(
            ed,
            "spy.bonus/one-player-played-both-spies",
            "The only player still in who played a Spy gains one extra token, however many Spies they played",
            clauses=ed.c("spy.bonus", "round.last-standing"),
            tags=["spy", "tokens"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Spy", "Priest", "Baron"], ["Spy", "Guard", "Guard", "Guard", "Guard"]),
                    [
                        step(play("Spy"), [e_play(0, "Spy"), *e_turn(1, "Guard")]),
                        step(play("Guard", 2, "Baron")),
                        step(play("Spy")),
                        step(play("Guard", 0, "Baron")),
                        step(
                            play("Guard", 1, "Priest"),
                            [
                                e_play(0, "Guard", 1, "Priest"),
                                e_guess(0, 1, "Priest", YES),
                                *e_out(1, "Guard", "Priest"),
                                *won,
                            ],
                            state={"tokens": [2, 0, 0], "round_winners": [0], "phase": "round_over"},
                        ),
                    ],
                )
            ],
            result={"tokens": [2, 0, 0]},
        ),
        case(
            ed,
            "spy.bonus/a-spy-player-who-is-out-does-not-count",
            "Two players played a Spy but one of them was knocked out: the other, still in, gains the Spy "
            "token",
            clauses=ed.c("spy.bonus"),
            tags=["spy", "tokens", "elimination"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Spy", "Spy", "Baron"], ["Priest", "King", "Guard", "Guard"]),
                    [
                        step(play("Spy")),
                        step(play("Spy")),
                        step(play("Guard", 1, "King")),
                        step(
                            play("Guard", 2, "Baron"),
                            [
                                e_play(0, "Guard", 2, "Baron"),
                                e_guess(0, 2, "Baron", YES),
                                *e_out(2, "Guard", "Baron"),
                                *won,
                            ],
                            state={
                                "tokens": [2, 0, 0],
                                "discards": [["Spy", "Guard"], ["Spy", "King"], ["Guard", "Baron"]],
                            },
                        ),
                    ],
                )
            ],
            result={"tokens": [2, 0, 0]},
        ),
        case(
            ed,
            "spy.bonus/a-spy-discarded-by-a-prince-counts",
            "A Spy discarded because of a Prince counts like a Spy played",
            clauses=ed.c("spy.bonus", "prince.discard"),
            tags=["spy", "prince", "tokens"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Prince", "Spy", "Baron"], ["Priest", "King", "Guard", "Countess", "Guard"]),
                    [
                        step(
                            play("Prince", 1),
                            [
                                e_play(0, "Prince", 1),
                                e_discard(1, "Spy"),
                                e_draw(1, "King"),
                                *e_turn(1, "Guard"),
                            ],
                        ),
                        step(play("Guard", 2, "Baron")),
                        step(play("Priest", 1)),
                        step(
                            play("Guard", 0, "Countess"),
                            [
                                e_play(1, "Guard", 0, "Countess"),
                                e_guess(1, 0, "Countess", YES),
                                *e_out(0, "Guard", "Countess"),
                                e_round_end("last_standing", [1]),
                                e_token(1),
                                e_token(1, "bonus"),
                            ],
                            state={"tokens": [0, 2, 0], "round_winners": [1]},
                        ),
                    ],
                )
            ],
            result={"tokens": [0, 2, 0]},
        ),
        case(
            ed,
            "spy.bonus/a-spy-still-in-hand-does-not-count",
            "A Spy held but never played or discarded earns nothing",
            clauses=ed.c("spy.bonus"),
            tags=["spy", "tokens"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Spy", "Priest", "Baron"], ["Guard", "Guard", "Guard"]),
                    [
                        step(play("Guard", 1, "Priest")),
                        step(play("Guard", 0, "Priest")),
                        step(
                            play("Guard", 2, "Baron"),
                            [
                                e_play(0, "Guard", 2, "Baron"),
                                e_guess(0, 2, "Baron", YES),
                                *e_out(2, "Guard", "Baron"),
                                e_round_end("last_standing", [0]),
                                e_token(0),
                            ],
                            state={"tokens": [1, 0, 0], "hands": [["Spy"], [], []]},
                        ),
                    ],
                )
            ],
            result={"tokens": [1, 0, 0]},
        ),
        case(
            ed,
            "guard.guess/naming-the-spy",
            "A Guard may name the Spy, and a correct guess knocks its holder out",
            clauses=ed.c("guard.guess", "spy"),
            tags=["guard", "spy"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Guard", "Spy", "Priest"], ["Baron", "Guard"]),
                    [
                        step(
                            play("Guard", 1, "Spy"),
                            [
                                e_play(0, "Guard", 1, "Spy"),
                                e_guess(0, 1, "Spy", YES),
                                *e_out(1, "Guard", "Spy"),
                                *e_turn(2, "Guard"),
                            ],
                            state={"eliminated": [NO, YES, NO]},
                        )
                    ],
                )
            ],
        ),
    ]


def chancellor(ed: Ed) -> list[Json]:
    deck = deal(ed, 3, ["Guard", "Priest", "Baron"], ["Chancellor", "King", "Spy", "Handmaid"])
    pile = deck[8:]
    opening = start_events(["Guard", "Priest", "Baron"], "Chancellor")
    drawn = [e_play(0, "Chancellor"), e_draw(0, "King"), e_draw(0, "Spy")]
    kept = [e_return(0, "Spy", "Guard"), *e_turn(1, "Handmaid")]
    orders = [
        keep(k, *rest)
        for k, rest in (
            ("Spy", ("Guard", "King")),
            ("Spy", ("King", "Guard")),
            ("Guard", ("Spy", "King")),
            ("Guard", ("King", "Spy")),
            ("King", ("Spy", "Guard")),
            ("King", ("Guard", "Spy")),
        )
    ]
    return [
        case(
            ed,
            "chancellor.draw-return/keep-one-return-two-to-the-bottom",
            "A Chancellor draws two cards; its player keeps one of the three and puts the other two under "
            "the deck in the order chosen; only that player sees them",
            clauses=ed.c("chancellor.draw-return"),
            tags=["chancellor", "views", "refusal"],
            players=3,
            rounds=[
                rnd(
                    deck,
                    [
                        step(
                            play("Chancellor"),
                            drawn,
                            state={
                                "phase": "keep",
                                "turn": 0,
                                "hands": [["Spy", "Guard", "King"], ["Priest"], ["Baron"]],
                                "pending": {"kind": "keep", "player": 0, "return": 2, "to": "bottom"},
                            },
                            legal=orders,
                        ),
                        refuse(keep("King", "Spy"), "both other cards must be returned"),
                        refuse(keep("King", "Spy", "Priest"), "the Priest is not in this hand"),
                        refuse(play("Guard", 1, "Priest"), "a keep decision is due, not a play"),
                        step(
                            keep("King", "Spy", "Guard"),
                            kept,
                            state={
                                "phase": "play",
                                "turn": 1,
                                "deck": pile + ["Spy", "Guard"],
                                "pending": None,
                                "hands": [["King"], ["Priest", "Handmaid"], ["Baron"]],
                            },
                            views={
                                1: {"log": seen(opening + drawn + kept, 1)},
                                0: {"log": seen(opening + drawn + kept, 0)},
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "chancellor.draw-return/equal-cards-are-listed-once",
            "Keep decisions that differ only by which of two equal cards is which are one decision",
            clauses=ed.c("chancellor.draw-return"),
            tags=["chancellor"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Guard", "Priest", "Baron"], ["Chancellor", "Guard", "Priest"]),
                    [
                        step(
                            play("Chancellor"),
                            legal=[
                                keep("Guard", "Guard", "Priest"),
                                keep("Guard", "Priest", "Guard"),
                                keep("Priest", "Guard", "Guard"),
                            ],
                        )
                    ],
                )
            ],
            needs=["legal_actions"],
        ),
        case(
            ed,
            "chancellor.draw-return/returning-the-princess-is-not-discarding",
            "Putting the Princess under the deck with a Chancellor does not knock her holder out",
            clauses=ed.c("chancellor.draw-return", "princess.discard"),
            tags=["chancellor", "princess"],
            players=3,
            rounds=[
                rnd(
                    deal(
                        ed, 3, ["Princess", "Priest", "Baron"], ["Chancellor", "Guard", "Handmaid", "Guard"]
                    ),
                    [
                        step(play("Chancellor")),
                        step(
                            keep("Handmaid", "Princess", "Guard"),
                            [e_return(0, "Princess", "Guard"), *e_turn(1, "Guard")],
                            state={
                                "eliminated": [NO, NO, NO],
                                "hands": [["Handmaid"], ["Guard", "Priest"], ["Baron"]],
                            },
                        ),
                    ],
                )
            ],
        ),
        _short_and_empty(ed),
    ]


def _short_and_empty(ed: Ed) -> Json:
    """Both seats keep a Prince; the Chancellors are the last two cards of the deck."""
    game = duel(
        ed,
        ("Prince", "Prince"),
        ["Guard", "Guard", "Guard", "Priest", "Spy", "Countess", "Handmaid", "Chancellor"],
        ["Guard", "Guard", "Guard", "Priest", "Spy", "Handmaid", "Chancellor"],
        set_aside=["Princess"],
        face_up=["Baron", "Baron", "King"],
        guess="Baron",
        manual=2,
    )
    return case(
        ed,
        "chancellor.short-deck/one-card-left-then-none",
        "With one card left a Chancellor draws it and returns one card; with none left it has no effect",
        clauses=ed.c("chancellor.short-deck", "chancellor.empty-deck", "round.tie"),
        tags=["chancellor", "empty-deck", "two-player", "refusal"],
        players=2,
        rounds=[
            rnd(
                game.deck,
                [
                    *game.steps,
                    step(
                        play("Chancellor"),
                        [e_play(1, "Chancellor"), e_draw(1, "Chancellor")],
                        state={
                            "phase": "keep",
                            "deck": [],
                            "hands": [["Prince"], ["Prince", "Chancellor"]],
                            "pending": {"kind": "keep", "player": 1, "return": 1, "to": "bottom"},
                        },
                        legal=[keep("Prince", "Chancellor"), keep("Chancellor", "Prince")],
                    ),
                    refuse(keep("Prince"), "one card must be returned"),
                    refuse(keep("Prince", "Chancellor", "Guard"), "only one card is returned"),
                    step(
                        keep("Prince", "Chancellor"),
                        [e_return(1, "Chancellor"), *e_turn(0, "Chancellor", unprotect=True)],
                        state={"deck": [], "hands": [["Prince", "Chancellor"], ["Prince"]]},
                    ),
                    step(
                        play("Chancellor"),
                        [
                            e_play(0, "Chancellor"),
                            e_no_effect(0, "Chancellor"),
                            e_round_end("showdown", [0, 1], ["Prince", "Prince"]),
                            e_token(0),
                            e_token(1),
                        ],
                        state={"phase": "round_over", "hands": [["Prince"], ["Prince"]], "tokens": [1, 1]},
                    ),
                ],
            )
        ],
    )


GROUPS = {
    "spy": ("The Spy: one extra token for the only player still in who played or discarded one", spy),
    "chancellor": ("The Chancellor: draw two, keep one, return the rest to the bottom", chancellor),
}
"""File name -> (description, cases for an edition)."""
