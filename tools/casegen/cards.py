"""Each card's effect, for the cards both editions share (three players unless a case says so).

Deals name the cards each seat holds and the order of the draws; `start_events` and the `e_*`
helpers spell out the events the rules call for, turn by turn.
"""

from __future__ import annotations

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
    e_guess,
    e_look,
    e_no_effect,
    e_out,
    e_play,
    e_protect,
    e_trade,
    e_turn,
    guard_plays,
    play,
    refuse,
    rnd,
    seen,
    start_events,
    step,
)


def guard(ed: Ed) -> list[Json]:
    hands = ["Guard", "Priest", "Baron"]
    foreign = "Spy" if ed.id == "classic" else "Jester"
    return [
        case(
            ed,
            "guard.guess/hit-knocks-the-target-out",
            "A Guard naming the card the target holds knocks them out; their hand is discarded",
            clauses=ed.c("guard.guess", "elimination"),
            tags=["guard", "elimination"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Handmaid", "Guard"]),
                    [
                        step(
                            play("Guard", 1, "Priest"),
                            [
                                e_play(0, "Guard", 1, "Priest"),
                                e_guess(0, 1, "Priest", YES),
                                *e_out(1, "Guard", "Priest"),
                                *e_turn(2, "Guard"),
                            ],
                            state={
                                "eliminated": [NO, YES, NO],
                                "hands": [["Handmaid"], [], ["Guard", "Baron"]],
                                "discards": [["Guard"], ["Priest"], []],
                                "turn": 2,
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "guard.guess/miss-does-nothing",
            "A Guard naming a card the target does not hold has no effect",
            clauses=ed.c("guard.guess"),
            tags=["guard"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Handmaid", "Guard"]),
                    [
                        step(
                            play("Guard", 1, "Baron"),
                            [e_play(0, "Guard", 1, "Baron"), e_guess(0, 1, "Baron", NO), *e_turn(1, "Guard")],
                            state={
                                "eliminated": [NO, NO, NO],
                                "hands": [["Handmaid"], ["Guard", "Priest"], ["Baron"]],
                                "discards": [["Guard"], [], []],
                                "turn": 1,
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "guard.guess/may-not-name-a-guard",
            "A Guard may name any card but the Guard, and only cards of the edition, by name",
            clauses=ed.c("guard.guess"),
            tags=["guard", "refusal"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Guard", "Guard", "Baron"], ["Handmaid", "Guard"]),
                    [
                        refuse(
                            play("Guard", 1, "Guard"), "naming the Guard is forbidden, even at a Guard holder"
                        ),
                        refuse(play("Guard", 1, foreign), f"{foreign} is not a card of this edition"),
                        refuse(play("Guard", 1, 2), "cards are named, not values, in this edition"),
                        refuse(play("Guard", 1), "a Guard with somebody to choose must name a card"),
                        step(
                            play("Guard", 2, "Baron"),
                            [
                                e_play(0, "Guard", 2, "Baron"),
                                e_guess(0, 2, "Baron", YES),
                                *e_out(2, "Guard", "Baron"),
                                *e_turn(1, "Guard"),
                            ],
                        ),
                    ],
                    start={"legal_actions": guard_plays(ed, 1, 2) + [play("Handmaid")]},
                )
            ],
        ),
        case(
            ed,
            "guard.target/another-player",
            "A Guard chooses another player still in the round: not oneself, not a seat that does not exist",
            clauses=ed.c("guard.target"),
            tags=["guard", "refusal"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Handmaid"]),
                    [
                        refuse(play("Guard", 0, "Handmaid"), "the Guard may not choose its player"),
                        refuse(play("Guard", 3, "Priest"), "there is no seat 3 with three players"),
                        step(play("Guard", 2, "Baron")),
                    ],
                )
            ],
        ),
    ]


def priest(ed: Ed) -> list[Json]:
    hands = ["Priest", "King", "Baron"]
    opening = start_events(hands, "Guard")
    effect = [e_play(0, "Priest", 1), e_look(0, 1, "King"), *e_turn(1, "Guard")]
    log = opening + effect
    return [
        case(
            ed,
            "priest.look/only-the-player-sees-the-hand",
            "A Priest shows the target's hand to its player alone; others see that a look happened",
            clauses=ed.c("priest.target", "priest.look"),
            tags=["priest", "views"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Guard", "Guard"]),
                    [
                        refuse(play("Priest", 0), "the Priest chooses another player"),
                        step(
                            play("Priest", 1),
                            effect,
                            state={
                                "hands": [["Guard"], ["Guard", "King"], ["Baron"]],
                                "eliminated": [NO, NO, NO],
                            },
                            views={
                                0: {"log": seen(log, 0)},
                                1: {"log": seen(log, 1)},
                                2: {"log": seen(log, 2)},
                            },
                        ),
                    ],
                )
            ],
        ),
    ]


def baron(ed: Ed) -> list[Json]:
    win_opening = start_events(["Baron", "Priest", "Guard"], "King")
    win = [
        e_play(0, "Baron", 1),
        e_compare(0, 1, "King", "Priest", 1),
        *e_out(1, "Baron", "Priest"),
        *e_turn(2, "Guard"),
    ]
    return [
        case(
            ed,
            "baron.compare/the-lower-hand-is-out",
            "A Baron compares hands privately; the target's lower card knocks the target out",
            clauses=ed.c("baron.target", "baron.compare"),
            tags=["baron", "views"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Baron", "Priest", "Guard"], ["King", "Guard"]),
                    [
                        refuse(play("Baron", 0), "the Baron chooses another player"),
                        step(
                            play("Baron", 1),
                            win,
                            state={
                                "eliminated": [NO, YES, NO],
                                "discards": [["Baron"], ["Priest"], []],
                                "hands": [["King"], [], ["Guard", "Guard"]],
                            },
                            views={
                                1: {"log": seen(win_opening + win, 1)},
                                2: {"log": seen(win_opening + win, 2)},
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "baron.compare/the-player-may-lose",
            "A Baron knocks its own player out when the player's remaining card is the lower",
            clauses=ed.c("baron.compare"),
            tags=["baron"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Baron", "Princess", "Guard"], ["Guard", "Priest"]),
                    [
                        step(
                            play("Baron", 1),
                            [
                                e_play(0, "Baron", 1),
                                e_compare(0, 1, "Guard", "Princess", 0),
                                *e_out(0, "Baron", "Guard"),
                                *e_turn(1, "Priest"),
                            ],
                            state={
                                "eliminated": [YES, NO, NO],
                                "discards": [["Baron", "Guard"], [], []],
                                "hands": [[], ["Priest", "Princess"], ["Guard"]],
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "baron.tie/nobody-is-out",
            "A Baron comparing two equal cards knocks nobody out",
            clauses=ed.c("baron.tie"),
            tags=["baron", "tie"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Baron", "Priest", "Guard"], ["Priest", "Guard"]),
                    [
                        step(
                            play("Baron", 1),
                            [
                                e_play(0, "Baron", 1),
                                e_compare(0, 1, "Priest", "Priest", None),
                                *e_turn(1, "Guard"),
                            ],
                            state={
                                "eliminated": [NO, NO, NO],
                                "hands": [["Priest"], ["Guard", "Priest"], ["Guard"]],
                                "discards": [["Baron"], [], []],
                            },
                        )
                    ],
                )
            ],
        ),
    ]


def out_or_protected(ed: Ed) -> list[Json]:
    """Targeted cards against players who are out of the round or protected by a Handmaid."""
    draws = ["Guard", "Guard", "King", "Priest"]
    return [
        case(
            ed,
            "baron.target/not-an-eliminated-or-protected-player",
            "Baron and King refuse players who are out of the round or protected, and oneself; the "
            "protection ends when its owner's turn starts",
            clauses=ed.c("baron.target", "king.target", "elimination", "handmaid.protect"),
            tags=["baron", "king", "handmaid", "elimination", "refusal"],
            players=4,
            rounds=[
                rnd(
                    deal(ed, 4, ["Guard", "Priest", "Handmaid", "Baron"], draws),
                    [
                        step(play("Guard", 1, "Priest")),
                        step(
                            play("Handmaid"),
                            [e_play(2, "Handmaid"), e_protect(2), *e_turn(3, "King")],
                            state={"protected": [NO, NO, YES, NO], "eliminated": [NO, YES, NO, NO]},
                        ),
                        refuse(play("Baron", 1), "player 1 is out of the round"),
                        refuse(play("Baron", 2), "player 2 is protected by the Handmaid"),
                        refuse(play("Baron", 3), "the Baron chooses another player"),
                        refuse(play("King", 1), "player 1 is out of the round"),
                        refuse(play("King", 2), "player 2 is protected by the Handmaid"),
                        refuse(play("King", 3), "the King chooses another player"),
                        step(
                            play("Baron", 0),
                            [
                                e_play(3, "Baron", 0),
                                e_compare(3, 0, "King", "Guard", 0),
                                *e_out(0, "Baron", "Guard"),
                                *e_turn(2, "Priest", unprotect=True),
                            ],
                            state={
                                "eliminated": [YES, YES, NO, NO],
                                "protected": [NO, NO, NO, NO],
                                "turn": 2,
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "king.target/legal-actions-leave-out-eliminated-and-protected-players",
            "With one player out and one protected, Baron and King may only choose the remaining player",
            clauses=ed.c("baron.target", "king.target", "elimination", "handmaid.protect"),
            tags=["baron", "king", "handmaid", "elimination"],
            players=4,
            rounds=[
                rnd(
                    deal(ed, 4, ["Guard", "Priest", "Handmaid", "Baron"], draws),
                    [
                        step(play("Guard", 1, "Priest")),
                        step(play("Handmaid"), legal=[play("Baron", 0), play("King", 0)]),
                    ],
                )
            ],
            needs=["legal_actions"],
        ),
    ]


def handmaid(ed: Ed) -> list[Json]:
    draws = ["Priest", "Guard", "Guard", "Baron", "Guard", "Handmaid"]
    return [
        case(
            ed,
            "handmaid.protect/until-the-start-of-the-owners-next-turn",
            "A Handmaid protects its player through the other players' turns, not earlier and not later: "
            "the protection ends when the owner's next turn starts",
            clauses=ed.c("handmaid.protect"),
            tags=["handmaid", "refusal"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Handmaid", "Guard", "Guard"], draws),
                    [
                        step(
                            play("Handmaid"),
                            [e_play(0, "Handmaid"), e_protect(0), *e_turn(1, "Guard")],
                            state={"protected": [YES, NO, NO]},
                        ),
                        refuse(play("Guard", 0, "Priest"), "player 0 is protected"),
                        step(
                            play("Guard", 2, "Princess"),
                            [
                                e_play(1, "Guard", 2, "Princess"),
                                e_guess(1, 2, "Princess", NO),
                                *e_turn(2, "Guard"),
                            ],
                            state={"protected": [YES, NO, NO]},
                            note="still protected during the second player's turn",
                        ),
                        refuse(play("Guard", 0, "Priest"), "player 0 is still protected"),
                        step(
                            play("Guard", 1, "Princess"),
                            [
                                e_play(2, "Guard", 1, "Princess"),
                                e_guess(2, 1, "Princess", NO),
                                *e_turn(0, "Baron", unprotect=True),
                            ],
                            state={"protected": [NO, NO, NO], "turn": 0},
                        ),
                        step(
                            play("Priest", 1),
                            [e_play(0, "Priest", 1), e_look(0, 1, "Guard"), *e_turn(1, "Guard")],
                        ),
                        step(
                            play("Guard", 0, "Baron"),
                            [
                                e_play(1, "Guard", 0, "Baron"),
                                e_guess(1, 0, "Baron", YES),
                                *e_out(0, "Guard", "Baron"),
                                *e_turn(2, "Handmaid"),
                            ],
                            note="player 0 may be chosen again once the protection has ended",
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "handmaid.protect/legal-actions-avoid-the-protected-player",
            "While a player is protected, other players' Guards may only choose the unprotected players",
            clauses=ed.c("handmaid.protect"),
            tags=["handmaid"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Handmaid", "Guard", "Priest"], ["Priest", "Baron"]),
                    [step(play("Handmaid"), legal=guard_plays(ed, 2) + [play("Baron", 2)])],
                )
            ],
            needs=["legal_actions"],
        ),
    ]


def _all_protected(ed: Ed, held: str, drawn: str) -> list[str]:
    """Seats 1 and 2 (who start) play Handmaids; then seat 0 holds `held` and draws `drawn`."""
    return deal(ed, 3, [held, "Handmaid", "Handmaid"], ["Guard", "Guard", drawn, "Priest", "Baron"])


def _protect_both(legal: list[Json]) -> list[Json]:
    """Seats 1 and 2 play their Handmaids; then seat 0 may play exactly `legal`."""
    return [step(play("Handmaid")), step(play("Handmaid"), legal=legal)]


def no_valid_target(ed: Ed) -> list[Json]:
    out = []
    for card, other in (("Guard", "Priest"), ("Priest", "Guard"), ("Baron", "Guard"), ("King", "Guard")):
        refusal = play(card, 1, "Priest") if card == "Guard" else play(card, 1)
        out.append(
            case(
                ed,
                f"targeting.no-valid-target/{card.lower()}-has-no-effect",
                f"With every other player protected, a {card} is played without a target and does nothing",
                clauses=ed.c("targeting.no-valid-target", f"{card.lower()}.target", "handmaid.protect"),
                tags=[card.lower(), "handmaid", "no-target"],
                players=3,
                first=1,
                rounds=[
                    rnd(
                        _all_protected(ed, card, other),
                        [
                            *_protect_both([play(card), play(other)]),
                            refuse(refusal, "player 1 is protected"),
                            refuse(
                                play(card, 0, "Priest") if card == "Guard" else play(card, 0),
                                f"the {card} never chooses its player",
                            ),
                            step(
                                play(card),
                                [e_play(0, card), e_no_effect(0, card), *e_turn(1, "Priest", unprotect=True)],
                                state={
                                    "hands": [[other], ["Guard", "Priest"], ["Guard"]],
                                    "discards": [[card], ["Handmaid"], ["Handmaid"]],
                                    "protected": [NO, NO, YES],
                                },
                            ),
                        ],
                    )
                ],
            )
        )
    out.append(
        case(
            ed,
            "targeting.no-valid-target/prince-chooses-its-player",
            "With every other player protected, the Prince must choose its own player",
            clauses=ed.c("targeting.no-valid-target", "prince.target", "prince.discard", "handmaid.protect"),
            tags=["prince", "handmaid", "no-target"],
            players=3,
            first=1,
            rounds=[
                rnd(
                    _all_protected(ed, "Prince", "Guard"),
                    [
                        *_protect_both([play("Prince", 0), play("Guard")]),
                        refuse(play("Prince", 1), "player 1 is protected"),
                        refuse(play("Prince"), "somebody may be chosen: the Prince's own player"),
                        step(
                            play("Prince", 0),
                            [
                                e_play(0, "Prince", 0),
                                e_discard(0, "Guard"),
                                e_draw(0, "Priest"),
                                *e_turn(1, "Baron", unprotect=True),
                            ],
                            state={
                                "hands": [["Priest"], ["Guard", "Baron"], ["Guard"]],
                                "discards": [["Prince", "Guard"], ["Handmaid"], ["Handmaid"]],
                            },
                        ),
                    ],
                )
            ],
        )
    )
    out.append(
        case(
            ed,
            "targeting.no-valid-target/prince-on-oneself-discards-the-princess",
            "Holding Prince and Princess with every other player protected: the Prince on oneself "
            "discards the Princess, and that knocks the player out",
            clauses=ed.c("targeting.no-valid-target", "prince.target", "princess.discard"),
            tags=["prince", "princess", "handmaid", "no-target"],
            players=3,
            first=1,
            rounds=[
                rnd(
                    _all_protected(ed, "Princess", "Prince"),
                    [
                        *_protect_both([play("Prince", 0), play("Princess")]),
                        step(
                            play("Prince", 0),
                            [
                                e_play(0, "Prince", 0),
                                e_discard(0, "Princess"),
                                *e_out(0, "Princess"),
                                *e_turn(1, "Priest", unprotect=True),
                            ],
                            state={
                                "eliminated": [YES, NO, NO],
                                "hands": [[], ["Guard", "Priest"], ["Guard"]],
                                "discards": [["Prince", "Princess"], ["Handmaid"], ["Handmaid"]],
                            },
                        ),
                    ],
                )
            ],
        )
    )
    out.append(
        case(
            ed,
            "targeting.no-valid-target/others-out-or-protected",
            "With one other player out and the other protected, a Baron has nobody to choose and does "
            "nothing",
            clauses=ed.c("targeting.no-valid-target", "elimination", "handmaid.protect"),
            tags=["baron", "handmaid", "elimination", "no-target"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Guard", "Priest", "Handmaid"], ["Baron", "Guard", "Priest", "Guard"]),
                    [
                        step(play("Guard", 1, "Priest")),
                        step(play("Handmaid"), legal=[play("Baron"), play("Priest")]),
                        refuse(play("Baron", 1), "player 1 is out of the round"),
                        refuse(play("Baron", 2), "player 2 is protected"),
                        step(
                            play("Baron"),
                            [
                                e_play(0, "Baron"),
                                e_no_effect(0, "Baron"),
                                *e_turn(2, "Guard", unprotect=True),
                            ],
                            state={"eliminated": [NO, YES, NO], "protected": [NO, NO, NO]},
                        ),
                    ],
                )
            ],
        )
    )
    return out


def prince(ed: Ed) -> list[Json]:
    hands = ["Prince", "King", "Guard"]
    return [
        case(
            ed,
            "prince.target/any-player-including-oneself",
            "A Prince may choose any player still in the round, its own player included",
            clauses=ed.c("prince.target"),
            tags=["prince"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Guard"]),
                    [],
                    start={
                        "legal_actions": [play("Prince", 0), play("Prince", 1), play("Prince", 2)]
                        + guard_plays(ed, 1, 2)
                    },
                )
            ],
            needs=["legal_actions"],
        ),
        case(
            ed,
            "prince.discard/the-target-discards-and-draws",
            "The Prince's target discards their hand without its effect and draws the top card",
            clauses=ed.c("prince.discard"),
            tags=["prince"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Guard", "Baron", "Priest"]),
                    [
                        step(
                            play("Prince", 1),
                            [
                                e_play(0, "Prince", 1),
                                e_discard(1, "King"),
                                e_draw(1, "Baron"),
                                *e_turn(1, "Priest"),
                            ],
                            state={
                                "hands": [["Guard"], ["Priest", "Baron"], ["Guard"]],
                                "discards": [["Prince"], ["King"], []],
                                "eliminated": [NO, NO, NO],
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "prince.discard/on-oneself",
            "A Prince played on oneself discards the other card in hand and draws a new one",
            clauses=ed.c("prince.target", "prince.discard"),
            tags=["prince"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Guard", "Baron", "Priest"]),
                    [
                        step(
                            play("Prince", 0),
                            [
                                e_play(0, "Prince", 0),
                                e_discard(0, "Guard"),
                                e_draw(0, "Baron"),
                                *e_turn(1, "Priest"),
                            ],
                            state={
                                "hands": [["Baron"], ["Priest", "King"], ["Guard"]],
                                "discards": [["Prince", "Guard"], [], []],
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "prince.discard/the-discarded-card-has-no-effect",
            "A card discarded by a Prince does not act: a discarded Baron compares nothing, a Guard "
            "guesses nothing",
            clauses=ed.c("prince.discard"),
            tags=["prince"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Prince", "Baron", "Guard"], ["Guard", "Princess", "Priest"]),
                    [
                        step(
                            play("Prince", 1),
                            [
                                e_play(0, "Prince", 1),
                                e_discard(1, "Baron"),
                                e_draw(1, "Princess"),
                                *e_turn(1, "Priest"),
                            ],
                            state={"eliminated": [NO, NO, NO]},
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "prince.target/not-a-protected-player",
            "A Prince may not choose a player protected by the Handmaid",
            clauses=ed.c("prince.target", "handmaid.protect"),
            tags=["prince", "handmaid", "refusal"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Handmaid", "Prince", "Guard"], ["Guard", "Guard"]),
                    [
                        step(play("Handmaid")),
                        refuse(play("Prince", 0), "player 0 is protected"),
                        step(play("Prince", 2)),
                    ],
                )
            ],
        ),
    ]


def princess(ed: Ed) -> list[Json]:
    return [
        case(
            ed,
            "princess.discard/playing-her-knocks-her-player-out",
            "A player who plays the Princess is out of the round; their other card is discarded",
            clauses=ed.c("princess.discard"),
            tags=["princess", "elimination"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Princess", "Priest", "Guard"], ["Baron", "Guard"]),
                    [
                        step(
                            play("Princess"),
                            [e_play(0, "Princess"), *e_out(0, "Princess", "Baron"), *e_turn(1, "Guard")],
                            state={
                                "eliminated": [YES, NO, NO],
                                "hands": [[], ["Guard", "Priest"], ["Guard"]],
                                "discards": [["Princess", "Baron"], [], []],
                            },
                        )
                    ],
                    start={"legal_actions": [play("Princess"), play("Baron", 1), play("Baron", 2)]},
                )
            ],
        ),
        case(
            ed,
            "princess.discard/discarded-by-a-prince",
            "A Princess discarded because of a Prince knocks her holder out, who draws no new card",
            clauses=ed.c("princess.discard", "prince.discard"),
            tags=["princess", "prince", "elimination"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Prince", "Princess", "Guard"], ["Guard", "Baron"]),
                    [
                        step(
                            play("Prince", 1),
                            [
                                e_play(0, "Prince", 1),
                                e_discard(1, "Princess"),
                                *e_out(1, "Princess"),
                                *e_turn(2, "Baron"),
                            ],
                            state={
                                "eliminated": [NO, YES, NO],
                                "hands": [["Guard"], [], ["Guard", "Baron"]],
                                "discards": [["Prince"], ["Princess"], []],
                            },
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "princess.discard/traded-away-by-a-king",
            "Giving the Princess away with a King is not discarding her: nobody is out",
            clauses=ed.c("princess.discard", "king.trade"),
            tags=["princess", "king"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Princess", "Priest", "Guard"], ["King", "Guard"]),
                    [
                        step(
                            play("King", 1),
                            [e_play(0, "King", 1), e_trade(0, 1, "Princess", "Priest"), *e_turn(1, "Guard")],
                            state={
                                "eliminated": [NO, NO, NO],
                                "hands": [["Priest"], ["Guard", "Princess"], ["Guard"]],
                            },
                        )
                    ],
                )
            ],
        ),
    ]


def king(ed: Ed) -> list[Json]:
    hands = ["King", "Priest", "Guard"]
    opening = start_events(hands, "Baron")
    effect = [e_play(0, "King", 2), e_trade(0, 2, "Baron", "Guard"), *e_turn(1, "Handmaid")]
    return [
        case(
            ed,
            "king.trade/hands-are-exchanged",
            "A King trades hands with another player; only the two of them see the cards",
            clauses=ed.c("king.target", "king.trade"),
            tags=["king", "views"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Baron", "Handmaid"]),
                    [
                        refuse(play("King", 0), "the King chooses another player"),
                        step(
                            play("King", 2),
                            effect,
                            state={
                                "hands": [["Guard"], ["Priest", "Handmaid"], ["Baron"]],
                                "discards": [["King"], [], []],
                            },
                            views={
                                0: {"hand": ["Guard"], "log": seen(opening + effect, 0)},
                                1: {"log": seen(opening + effect, 1)},
                                2: {"hand": ["Baron"], "log": seen(opening + effect, 2)},
                            },
                        ),
                    ],
                )
            ],
        ),
    ]


def countess(ed: Ed) -> list[Json]:
    hands = ["Countess", "Priest", "Guard"]
    out = []
    for royal, held in (("King", "Countess"), ("Prince", "Countess"), ("King", "King")):
        first = hands if held == "Countess" else ["King", "Priest", "Guard"]
        drawn = royal if held == "Countess" else "Countess"
        slug = f"with-{royal.lower()}" + ("-drawn-second" if held != "Countess" else "")
        refusals = [refuse(play(royal, 1), f"the {royal} may not be played while the Countess is held")]
        if royal == "Prince":
            refusals.append(refuse(play("Prince", 0), "not even on oneself"))
        out.append(
            case(
                ed,
                f"countess.forced/{slug}",
                f"Holding the Countess and the {royal}, the Countess must be played"
                + (" (the Countess drawn onto a King)" if held != "Countess" else ""),
                clauses=ed.c("countess.forced"),
                tags=["countess", royal.lower(), "refusal"],
                players=3,
                rounds=[
                    rnd(
                        deal(ed, 3, first, [drawn, "Guard"]),
                        [
                            *refusals,
                            step(
                                play("Countess"),
                                [e_play(0, "Countess"), *e_turn(1, "Guard")],
                                state={
                                    "hands": [[royal], ["Guard", "Priest"], ["Guard"]],
                                    "discards": [["Countess"], [], []],
                                },
                            ),
                        ],
                        start={"legal_actions": [play("Countess")]},
                    )
                ],
            )
        )
    out.append(
        case(
            ed,
            "countess.forced/free-otherwise",
            "Without King or Prince the Countess need not be played, and may be played for no effect",
            clauses=ed.c("countess.forced"),
            tags=["countess"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Baron", "Guard"]),
                    [
                        step(
                            play("Countess"),
                            [e_play(0, "Countess"), *e_turn(1, "Guard")],
                            state={"hands": [["Baron"], ["Guard", "Priest"], ["Guard"]]},
                        )
                    ],
                    start={"legal_actions": [play("Countess"), play("Baron", 1), play("Baron", 2)]},
                )
            ],
        )
    )
    out.append(
        case(
            ed,
            "countess.forced/the-other-card-may-be-played",
            "Without King or Prince, the card beside the Countess may be played",
            clauses=ed.c("countess.forced"),
            tags=["countess"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, hands, ["Baron", "Guard"]),
                    [
                        step(
                            play("Baron", 2),
                            [
                                e_play(0, "Baron", 2),
                                e_compare(0, 2, "Countess", "Guard", 2),
                                *e_out(2, "Baron", "Guard"),
                                *e_turn(1, "Guard"),
                            ],
                            state={
                                "eliminated": [NO, NO, YES],
                                "hands": [["Countess"], ["Guard", "Priest"], []],
                            },
                        )
                    ],
                )
            ],
        )
    )
    return out


GROUPS = {
    "guard": ("The Guard: choosing another player, naming a card", guard),
    "priest": ("The Priest: a private look at another hand", priest),
    "baron": ("The Baron: comparing hands, the lower is out, a tie does nothing", baron),
    "out-or-protected": ("Targeted cards against players who are out or protected", out_or_protected),
    "handmaid": ("The Handmaid: protection until the start of the owner's next turn", handmaid),
    "no-valid-target": (
        "Every other player protected: no-effect plays and the Prince on oneself",
        no_valid_target,
    ),
    "prince": ("The Prince: any player discards their hand and draws", prince),
    "princess": ("The Princess: out when played or discarded, for any reason", princess),
    "king": ("The King: trading hands", king),
    "countess": ("The Countess: forced beside the King or a Prince, free otherwise", countess),
}
"""File name -> (description, cases for an edition)."""
