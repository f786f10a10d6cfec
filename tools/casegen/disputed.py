"""Cases that follow a rulebook reading (spec/readings/) where it departs from its edition.

Each names the reading it assumes and both clause ids: the reading's, which the case follows,
and the edition's, which it departs from. They run against engines that claim to follow the
reading; an engine of the edition is expected to fail them.
"""

from __future__ import annotations

from .dsl import (
    Ed,
    Json,
    case,
    e_deal,
    e_game_end,
    e_guess,
    e_look,
    e_out,
    e_play,
    e_round_end,
    e_round_start,
    e_token,
    e_turn,
    expect,
    play,
    rnd,
    stack,
    start_events,
    step,
)
from .rounds import classic_tie


def classic(ed: Ed) -> list[Json]:
    no_face_up = stack(ed, 2, ["Princess", "Guard", "Priest", "Handmaid"])
    three = stack(ed, 3, ["Princess", "King", "Guard", "Priest", "Baron", "Handmaid"])
    two = stack(ed, 2, ["Princess", "Countess", "King", "Guard", "Priest", "Guard"])
    tie = classic_tie(ed, "nobody")
    return [
        case(
            ed,
            "setup.face-up/no-face-up-cards-with-two-players",
            "The BGA page lays no cards face up in a two-player game: after the face-down card, the next "
            "cards are dealt",
            clauses=["bga-classic-premium.setup.face-up", *ed.c("setup.face-up")],
            tags=["setup", "two-player"],
            players=2,
            assumes="bga-classic-premium",
            rounds=[
                rnd(
                    no_face_up,
                    start=expect(
                        start_events(["Guard", "Priest"], "Handmaid"),
                        state={
                            "set_aside": ["Princess"],
                            "face_up": [],
                            "hands": [["Guard", "Handmaid"], ["Priest"]],
                            "deck": no_face_up[4:],
                        },
                    ),
                )
            ],
        ),
        case(
            ed,
            "setup.face-up/one-face-up-card-with-three-players",
            "The Persian guide lays one card face up whatever the number of players",
            clauses=["fa-guide.setup.face-up", *ed.c("setup.face-up")],
            tags=["setup"],
            players=3,
            assumes="fa-guide",
            rounds=[
                rnd(
                    three,
                    start=expect(
                        start_events(["Guard", "Priest", "Baron"], "Handmaid", face_up=["King"]),
                        state={"set_aside": ["Princess"], "face_up": ["King"], "deck": three[6:]},
                    ),
                )
            ],
        ),
        case(
            ed,
            "setup.set-aside/two-hidden-cards-with-two-players",
            "The Persian guide (one of its two versions) sets two cards aside face down with two players, "
            "and one face up",
            clauses=["fa-guide.setup.set-aside", "fa-guide.setup.face-up", *ed.c("setup.set-aside")],
            tags=["setup", "two-player"],
            players=2,
            assumes="fa-guide",
            rounds=[
                rnd(
                    two,
                    start=expect(
                        [
                            e_round_start(1, 0, ["King"], set_aside=2),
                            e_deal(0, "Guard"),
                            e_deal(1, "Priest"),
                            *e_turn(0, "Guard"),
                        ],
                        state={"set_aside": ["Princess", "Countess"], "face_up": ["King"], "deck": two[6:]},
                    ),
                )
            ],
        ),
        case(
            ed,
            "tokens.target/four-tokens-with-two-players",
            "The Persian guide ends a two-player game at four tokens",
            clauses=["fa-guide.tokens.target", *ed.c("tokens.target")],
            tags=["tokens", "game-end", "two-player"],
            players=2,
            tokens=[3, 0],
            assumes="fa-guide",
            rounds=[
                rnd(
                    two,
                    [
                        step(
                            play("Guard", 1, "Priest"),
                            [
                                e_play(0, "Guard", 1, "Priest"),
                                e_guess(0, 1, "Priest", True),
                                *e_out(1, "Guard", "Priest"),
                                e_round_end("last_standing", [0]),
                                e_token(0),
                                e_game_end(0),
                            ],
                            state={"phase": "game_over", "tokens": [4, 0], "game_winners": [0]},
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "round.tie/every-tied-player-wins",
            "The Dutch rules' classic variant keeps the 2019 tie rule: equal cards at the showdown all win",
            clauses=["nl-2019-classic-variant.round.tie", *ed.c("round.tie")],
            tags=["showdown", "tie", "two-player"],
            players=2,
            assumes="nl-2019-classic-variant",
            rounds=[
                rnd(
                    tie.deck,
                    [
                        *tie.steps,
                        step(
                            play("Handmaid"),
                            state={"phase": "round_over", "round_winners": [0, 1], "tokens": [1, 1]},
                        ),
                    ],
                )
            ],
        ),
    ]


def z19(ed: Ed) -> list[Json]:
    two = stack(ed, 2, ["Princess", "Chancellor", "Chancellor", "King", "Guard", "Baron", "Priest"])
    three = stack(ed, 3, ["Princess", "Priest", "Guard", "Baron", "King", "Guard"])
    return [
        case(
            ed,
            "guard.target/a-guard-may-choose-its-own-player",
            "The Slovenian/English summary lets a Guard choose any player: naming one's own card knocks "
            "oneself out",
            clauses=["sl-en-2019.guard.target", *ed.c("guard.target")],
            tags=["guard", "two-player"],
            players=2,
            assumes="sl-en-2019",
            rounds=[
                rnd(
                    two,
                    [
                        step(
                            play("Guard", 0, "Priest"),
                            [
                                e_play(0, "Guard", 0, "Priest"),
                                e_guess(0, 0, "Priest", True),
                                *e_out(0, "Guard", "Priest"),
                                e_round_end("last_standing", [1]),
                                e_token(1),
                            ],
                            state={"eliminated": [True, False], "round_winners": [1], "tokens": [0, 1]},
                        )
                    ],
                )
            ],
        ),
        case(
            ed,
            "priest.target/a-priest-may-look-at-its-own-hand",
            "The Turkish sheet lets a Priest look at any player's hand, its own player's included",
            clauses=["tr-2019.priest.target", *ed.c("priest.target")],
            tags=["priest"],
            players=3,
            assumes="tr-2019",
            rounds=[
                rnd(
                    three,
                    [
                        step(
                            play("Priest", 0),
                            [e_play(0, "Priest", 0), e_look(0, 0, "King"), *e_turn(1, "Guard")],
                            state={"hands": [["King"], ["Guard", "Guard"], ["Baron"]], "turn": 1},
                        )
                    ],
                )
            ],
        ),
    ]


GROUPS = {
    "readings": (
        "Where a rulebook reading departs from the edition",
        lambda ed: classic(ed) if ed.id == "classic" else z19(ed),
    ),
}
"""File name -> (description, cases for an edition)."""
