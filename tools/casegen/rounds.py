"""How rounds and games end: last player standing, showdowns, ties, tokens, the next starter."""

from __future__ import annotations

from typing import Any

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
    e_out,
    e_play,
    e_protect,
    e_return,
    e_round_end,
    e_token,
    e_turn,
    expect,
    keep,
    play,
    refused_round,
    rnd,
    start_events,
    step,
)
from .duel import Duel, duel

OVER: Json = {"phase": "round_over", "turn": None, "deck": []}
"""The state every showdown case ends in (merged into the last step's expectation)."""

CLASSIC_FACE_UP = ["Baron", "Baron", "Prince"]
Z19_FACE_UP = ["Chancellor", "Chancellor", "Prince"]


def classic_king_beats_prince(ed: Ed, first: int = 0) -> Duel:
    """`king_beats_prince` with the classic 16 cards, which Premium also plays with two players."""
    return duel(
        ed,
        ("King", "Prince"),
        ["Guard", "Guard", "Guard", "Priest", "Countess"],
        ["Guard", "Guard", "Priest", "Handmaid", "Handmaid"],
        set_aside=["Princess"],
        face_up=CLASSIC_FACE_UP,
        guess="Baron",
        first=first,
    )


def king_beats_prince(ed: Ed, first: int = 0) -> Duel:
    """Seat 0 keeps the King, seat 1 a Prince; the Princess is set aside; seat 0 plays the last card.

    Both Spies (2019) are played by seat 1; the Barons meet a protected opponent.
    """
    if ed.id == "classic":
        return classic_king_beats_prince(ed, first)
    return duel(
        ed,
        ("King", "Prince"),
        ["Guard", "Baron", "Handmaid", "Guard", "Guard", "Priest", "Guard", "Countess"],
        ["Handmaid", "Guard", "Baron", "Spy", "Priest", "Spy", "Guard"],
        set_aside=["Princess"],
        face_up=Z19_FACE_UP,
        guess="Baron",
        first=first,
    )


def showdowns(ed: Ed) -> list[Json]:
    game = king_beats_prince(ed)
    last = "Handmaid" if ed.id == "classic" else "Countess"
    seat = 1 if ed.id == "classic" else 0
    tail = [e_protect(1)] if last == "Handmaid" else []
    bonus = [e_token(1, "bonus")] if ed.id != "classic" else []
    tokens = [1, 1] if bonus else [1, 0]
    return [
        case(
            ed,
            "round.showdown/the-highest-card-wins",
            "When a turn ends with the deck empty, the players still in compare hands: the higher card "
            "wins the round and a token",
            clauses=ed.c(
                "round.deck-empty", "round.showdown", "tokens.round-win", *(["spy.bonus"] if bonus else [])
            ),
            tags=["showdown", "two-player"] + (["spy"] if bonus else []),
            players=2,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play(last),
                            [
                                e_play(seat, last),
                                *tail,
                                e_round_end("showdown", [0], ["King", "Prince"]),
                                e_token(0),
                                *bonus,
                            ],
                            state={
                                **OVER,
                                "round_winners": [0],
                                "tokens": tokens,
                                "hands": [["King"], ["Prince"]],
                            },
                        ),
                    ],
                )
            ],
            result={"round_winners": [0], "tokens": tokens, "game_winners": None},
            note="2019: seat 1 played both Spies and is still in at the end, so it gains the Spy token "
            "although it lost the showdown"
            if bonus
            else None,
        ),
    ]


def one_player_out(ed: Ed) -> list[Json]:
    """A three-player showdown after one player was knocked out at the first turn."""
    end = [e_round_end("showdown", [0], ["King", None, "Prince"]), e_token(0)]
    clauses = ed.c("round.showdown", "round.deck-empty", "elimination")
    if ed.id == "classic":
        deck = deal(
            ed,
            3,
            ["King", "Prince", "Prince"],
            [
                "Guard",
                "Handmaid",
                "Baron",
                "Guard",
                "Handmaid",
                "Baron",
                "Guard",
                "Priest",
                "Priest",
                "Guard",
                "Countess",
                "Guard",
            ],
            set_aside=["Princess"],
        )
        plays = [
            play("Guard", 1, "Prince"),
            play("Handmaid"),
            play("Baron"),
            play("Guard", 0, "Baron"),
            play("Handmaid"),
            play("Baron"),
            play("Guard", 2, "Baron"),
            play("Priest", 0),
            play("Priest", 2),
            play("Guard", 0, "Baron"),
            play("Countess"),
        ]
        steps = [step(a) for a in plays]
        final = step(
            play("Guard", 0, "Baron"),
            [e_play(2, "Guard", 0, "Baron"), e_guess(2, 0, "Baron", NO), *end],
            state={**OVER, "round_winners": [0], "tokens": [1, 0, 0], "eliminated": [NO, YES, NO]},
        )
        return [
            case(
                ed,
                "round.showdown/players-who-are-out-take-no-part",
                "A showdown compares only the players still in; a player knocked out shows no card",
                clauses=clauses,
                tags=["showdown", "elimination"],
                players=3,
                rounds=[rnd(deck, [*steps, final])],
            )
        ]
    deck = deal(
        ed,
        3,
        ["King", "Prince", "Prince"],
        [
            "Guard",
            "Handmaid",
            "Baron",
            "Guard",
            "Handmaid",
            "Baron",
            "Chancellor",
            "Spy",
            "Guard",
            "Chancellor",
            "Guard",
            "Countess",
            "Guard",
            "Guard",
            "Priest",
            "Priest",
            "Spy",
        ],
        set_aside=["Princess"],
    )
    opening = [
        play("Guard", 1, "Prince"),
        play("Handmaid"),
        play("Baron"),
        play("Guard", 0, "Baron"),
        play("Handmaid"),
        play("Baron"),
        play("Chancellor"),
    ]
    closing = [
        play("Guard", 2, "Baron"),
        play("Guard", 0, "Baron"),
        play("Priest", 2),
        play("Priest", 0),
        play("Spy"),
        play("Spy"),
        play("Guard", 2, "Baron"),
        play("Guard", 0, "Baron"),
    ]
    return [
        case(
            ed,
            "round.showdown/players-who-are-out-take-no-part",
            "A showdown compares only the players still in; a player knocked out shows no card. Both "
            "Chancellors return their cards to the bottom, where they are drawn last",
            clauses=clauses + ed.c("chancellor.draw-return"),
            tags=["showdown", "elimination", "chancellor"],
            players=3,
            rounds=[
                rnd(
                    deck,
                    [
                        *[step(a) for a in opening],
                        step(
                            keep("King", "Spy", "Guard"),
                            [e_return(0, "Spy", "Guard"), *e_turn(2, "Chancellor")],
                            state={
                                "deck": [
                                    "Guard",
                                    "Countess",
                                    "Guard",
                                    "Guard",
                                    "Priest",
                                    "Priest",
                                    "Spy",
                                    "Spy",
                                    "Guard",
                                ]
                            },
                        ),
                        step(
                            play("Chancellor"),
                            [e_play(2, "Chancellor"), e_draw(2, "Guard"), e_draw(2, "Countess")],
                            state={
                                "phase": "keep",
                                "pending": {"kind": "keep", "player": 2, "return": 2, "to": "bottom"},
                                "hands": [["King"], [], ["Guard", "Prince", "Countess"]],
                            },
                        ),
                        step(
                            keep("Prince", "Guard", "Countess"),
                            [e_return(2, "Guard", "Countess"), *e_turn(0, "Guard")],
                            state={
                                "deck": [
                                    "Guard",
                                    "Priest",
                                    "Priest",
                                    "Spy",
                                    "Spy",
                                    "Guard",
                                    "Guard",
                                    "Countess",
                                ]
                            },
                        ),
                        *[step(a) for a in closing],
                        step(
                            play("Countess"),
                            [e_play(0, "Countess"), *end],
                            state={
                                **OVER,
                                "round_winners": [0],
                                "tokens": [1, 0, 0],
                                "eliminated": [NO, YES, NO],
                            },
                        ),
                    ],
                )
            ],
            note="Both players still in played a Spy, so nobody gains the Spy token.",
        )
    ]


def prince_duel(ed: Ed, first: int = 0) -> Duel:
    """Both seats keep a Prince; the Princess is set aside. 2019: one Spy each."""
    if ed.id == "classic":
        raise ValueError("classic Prince duels are built by classic_tie")
    return duel(
        ed,
        ("Prince", "Prince"),
        ["Guard", "Guard", "Guard", "Baron", "Priest", "Spy", "Handmaid", "Countess"],
        ["Guard", "Guard", "Guard", "Baron", "Priest", "Spy", "Handmaid"],
        set_aside=["Princess"],
        face_up=["Chancellor", "Chancellor", "King"],
        guess="King",
        first=first,
    )


CLASSIC_TIES = {
    # starter's draws (and discard total), other player's draws (and discard total)
    "nobody": (
        ["Guard", "Guard", "Guard", "Priest", "Countess"],
        ["Guard", "Guard", "Priest", "Handmaid", "Handmaid"],
    ),
    "starter": (
        ["Guard", "Guard", "Guard", "Handmaid", "Countess"],
        ["Guard", "Guard", "Priest", "Priest", "Handmaid"],
    ),
    "other": (
        ["Guard", "Guard", "Priest", "Priest", "Handmaid"],
        ["Guard", "Guard", "Guard", "Handmaid", "Countess"],
    ),
}
"""Classic Prince-against-Prince showdowns: discard totals 12-12, 14-10 and 10-14."""


def classic_tie(ed: Ed, kind: str, first: int = 0) -> Duel:
    starter, other = CLASSIC_TIES[kind]
    return duel(
        ed,
        ("Prince", "Prince"),
        starter,
        other,
        set_aside=["Princess"],
        face_up=["Baron", "Baron", "King"],
        guess="King",
        first=first,
    )


def classic_tie_case(
    ed: Ed, kind: str, winners: list[int], totals: str, slug: str, outcome: str,
    over: Json = OVER, **extra: Any,
) -> Json:
    """The case of the showdown `CLASSIC_TIES[kind]`: equal Princes, decided by the discard totals;
    `over` is what the final state must show besides the winners and tokens."""
    game = classic_tie(ed, kind)
    last = CLASSIC_TIES[kind][1][-1]
    effect = [e_protect(1)] if last == "Handmaid" else []
    tokens = [1 if s in winners else 0 for s in range(2)]
    return case(
        ed,
        f"round.tie/{slug}",
        f"A showdown between equal cards goes to the higher total of discarded values ({totals}); {outcome}",
        clauses=ed.c("round.tie", "round.showdown", "tokens.round-win"),
        tags=["showdown", "tie", "two-player"],
        players=2,
        rounds=[
            rnd(
                game.deck,
                [
                    *game.steps,
                    step(
                        play(last),
                        [
                            e_play(1, last),
                            *effect,
                            e_round_end("showdown", winners, ["Prince", "Prince"]),
                            *[e_token(s) for s in winners],
                        ],
                        state={**over, "round_winners": winners, "tokens": tokens},
                    ),
                ],
            )
        ],
        **extra,
    )


def ties(ed: Ed) -> list[Json]:
    if ed.id == "classic":
        slugs = {
            "nobody": "equal-discard-totals-nobody-wins",
            "starter": "the-higher-discard-total-wins",
            "other": "the-higher-discard-total-wins-second-player",
        }
        out = []
        for kind, winners, totals in (
            ("nobody", [], "12 and 12"),
            ("starter", [0], "14 and 10"),
            ("other", [1], "10 and 14"),
        ):
            outcome = (f"seat {winners[0]} wins" if winners
                       else "equal totals leave the round without a winner")
            tokens = [1 if s in winners else 0 for s in range(2)]
            out.append(
                classic_tie_case(
                    ed, kind, winners, totals, slugs[kind], outcome,
                    result={"round_winners": winners, "tokens": tokens},
                )
            )
        return out
    game = prince_duel(ed)
    return [
        case(
            ed,
            "round.tie/every-tied-player-wins",
            "A showdown between equal cards is won by every tied player, each gaining a token; players "
            "who both played a Spy gain no Spy token",
            clauses=ed.c("round.tie", "round.showdown", "tokens.round-win", "spy.bonus"),
            tags=["showdown", "tie", "two-player", "spy"],
            players=2,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Countess"),
                            [
                                e_play(0, "Countess"),
                                e_round_end("showdown", [0, 1], ["Prince", "Prince"]),
                                e_token(0),
                                e_token(1),
                            ],
                            state={**OVER, "round_winners": [0, 1], "tokens": [1, 1]},
                        ),
                    ],
                )
            ],
            result={"round_winners": [0, 1], "tokens": [1, 1], "game_winners": None},
        )
    ]


def empty_deck(ed: Ed, over: Json = OVER) -> list[Json]:
    """A Prince played when the deck is empty: its target draws the card set aside.

    Premium, which deals the classic cards to two players, shares them and passes the round-over
    state it checks.
    """
    out = []
    if ed.id != "z-man-2019":
        starter = ["Guard", "Guard", "Handmaid", "Priest", "Guard"]
        other = ["Guard", "Guard", "Priest", "Handmaid", "Prince"]
        aside, faces, who, guess = ["Princess"], ["Baron", "Prince", "Countess"], 1, "Countess"
    else:
        starter = ["Guard", "Baron", "Handmaid", "Spy", "Guard", "Priest", "Countess", "Prince"]
        other = ["Handmaid", "Guard", "Spy", "Guard", "Priest", "Guard", "Guard"]
        aside, faces, who, guess = ["Princess"], ["Chancellor", "Chancellor", "Prince"], 0, "Princess"
    kept = ("King", "Baron")
    for target, winner in ((1 - who, 1 - who), (who, who)):
        game = duel(
            ed,
            kept,
            starter,
            other,
            set_aside=aside,
            face_up=faces,
            guess=guess,
        )
        hands = ["Princess", "Baron"] if target == 0 else ["King", "Princess"]
        out.append(
            case(
                ed,
                f"prince.empty-deck/{'the-target' if target != who else 'oneself'}-draws-the-set-aside-card",
                "A Prince played after the last card was drawn makes its target "
                f"({'the other player' if target != who else 'its own player'}) draw the card set aside at "
                "setup",
                clauses=ed.c("prince.empty-deck", "prince.discard", "round.deck-empty"),
                tags=["prince", "empty-deck", "two-player"],
                players=2,
                rounds=[
                    rnd(
                        game.deck,
                        [
                            *game.steps,
                            step(
                                play("Prince", target),
                                [
                                    e_play(who, "Prince", target),
                                    e_discard(target, kept[target]),
                                    e_draw(target, "Princess", "set_aside"),
                                    e_round_end("showdown", [winner], hands),
                                    e_token(winner),
                                ],
                                state={**over, "set_aside": [], "round_winners": [winner]},
                            ),
                        ],
                    )
                ],
            )
        )
    return out


def last_card(ed: Ed) -> list[Json]:
    """A Prince that makes a player draw the last card: the round ends after that turn."""
    if ed.id == "classic":
        starter = ["Guard", "Guard", "Guard", "Priest", "Prince"]
        other = ["Guard", "Handmaid", "Guard", "Priest"]
        who, extra, faces = 0, ["Handmaid"], ["Baron", "Prince", "Countess"]
    else:
        starter = ["Guard", "Baron", "Handmaid", "Spy", "Guard", "Priest", "Countess"]
        other = ["Handmaid", "Guard", "Spy", "Guard", "Priest", "Guard", "Prince"]
        who, extra, faces = 1, ["Guard"], ["Chancellor", "Chancellor", "Prince"]
    game = duel(
        ed,
        ("King", "Baron"),
        starter,
        other,
        set_aside=["Princess"],
        face_up=faces,
        guess="Countess",
        extra=extra,
    )
    target = 1 - who
    kept = ("King", "Baron")
    hands = ["King", extra[0]] if target == 1 else [extra[0], "Baron"]
    winner = 0 if target == 1 else 1
    return [
        case(
            ed,
            "round.deck-empty/a-prince-takes-the-last-card",
            "A Prince played with one card left makes its target draw it; the deck is then empty, so the "
            "round ends with that turn and nobody else plays",
            clauses=ed.c("round.deck-empty", "prince.discard"),
            tags=["prince", "showdown", "two-player"],
            players=2,
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Prince", target),
                            [
                                e_play(who, "Prince", target),
                                e_discard(target, kept[target]),
                                e_draw(target, extra[0]),
                                e_round_end("showdown", [winner], hands),
                                e_token(winner),
                            ],
                            state={**OVER, "round_winners": [winner], "set_aside": ["Princess"]},
                        ),
                    ],
                )
            ],
        )
    ]


def _quick_win(ed: Ed, players: int) -> tuple[list[str], list[Json]]:
    """A deal and plays with which seat 0 is the last player standing after one round of turns.

    Seat 0 keeps the King; it knocks seat 1 out with a Guard; seats 2 and 3 lose Barons against
    the King; with five or six players seat 4 plays a Guard (on seat 5 with six players), then
    seat 0 knocks seat 4 out.
    """
    hands = ["King", "Priest", "Baron", "Baron", "Handmaid", "Priest"][:players]
    plays = [play("Guard", 1, "Priest"), play("Baron", 0), play("Baron", 0)][: players - 1]
    draws = ["Guard"] * min(players, 3)
    if players == 5:
        plays += [play("Guard", 0, "Princess"), play("Guard", 4, "Handmaid")]
        draws += ["Guard", "Guard"]
    if players == 6:
        plays += [play("Guard", 5, "Priest"), play("Guard", 4, "Handmaid")]
        draws += ["Guard", "Guard"]
    return deal(ed, players, hands, draws), [step(a) for a in plays]


def _win_events(players: int) -> list[Json]:
    """The events of seat 0's round-winning play in `_quick_win`."""
    if players == 2:
        return [e_play(0, "Guard", 1, "Priest"), e_guess(0, 1, "Priest", YES), *e_out(1, "Guard", "Priest")]
    if players in (3, 4):
        seat = players - 1
        return [
            e_play(seat, "Baron", 0),
            e_compare(seat, 0, "Guard", "King", seat),
            *e_out(seat, "Baron", "Guard"),
        ]
    return [e_play(0, "Guard", 4, "Handmaid"), e_guess(0, 4, "Handmaid", YES), *e_out(4, "Guard", "Handmaid")]


def targets(ed: Ed) -> list[Json]:
    out = []
    for players in range(ed.spec.min_players, ed.spec.max_players + 1):
        goal = ed.spec.player_table("tokens_to_win", players)
        won = [goal] + [0] * (players - 1)
        out.append(
            case(
                ed,
                f"tokens.target/{players}-players-{goal}-tokens",
                f"With {players} players the game ends when a player holds {goal} tokens",
                clauses=ed.c("tokens.target", "game.end", "round.last-standing", "tokens.round-win"),
                tags=["tokens", "game-end"],
                players=players,
                tokens=[goal - 1] + [0] * (players - 1),
                rounds=_won_round(ed, players, won, game_over=True),
                result={"tokens": won, "game_winners": [0]},
            )
        )
    for players in range(ed.spec.min_players, ed.spec.max_players + 1):
        # one token short does not end the game (an engine whose target is one too low ends it here)
        goal = ed.spec.player_table("tokens_to_win", players)
        out.append(
            case(
                ed,
                f"tokens.target/{players}-players-{goal - 1}-tokens-is-not-enough",
                f"With {players} players, {goal - 1} tokens do not end the game",
                clauses=ed.c("tokens.target", "round.last-standing", "tokens.round-win"),
                tags=["tokens"],
                players=players,
                tokens=[goal - 2] + [0] * (players - 1),
                rounds=_won_round(ed, players, [goal - 1] + [0] * (players - 1), game_over=False),
            )
        )
    return out


def _won_round(ed: Ed, players: int, tokens: list[int], game_over: bool) -> list[Json]:
    """Seat 0 wins the round of `_quick_win`, holding `tokens` after it; the game ends or not."""
    deck, steps = _quick_win(ed, players)
    *before, last = steps
    events = [*_win_events(players), e_round_end("last_standing", [0]), e_token(0)]
    if game_over:
        events.append(e_game_end(0))
    state = {"phase": "game_over" if game_over else "round_over", "turn": None, "tokens": tokens,
             "round_winners": [0], "game_winners": [0] if game_over else None}
    return [rnd(deck, [*before, step(last["action"], events, state=state)])]


def last_standing(ed: Ed) -> list[Json]:
    return [
        case(
            ed,
            "round.last-standing/two-players",
            "Knocking out the only other player ends the round at once: the survivor wins it and a token",
            clauses=ed.c("round.last-standing", "tokens.round-win"),
            tags=["two-player", "elimination"],
            players=2,
            rounds=[
                rnd(
                    deal(
                        ed,
                        2,
                        ["Guard", "Priest"],
                        ["Guard"],
                        set_aside=["Princess"],
                        face_up=["Baron", "Baron", "King"],
                    ),
                    [
                        step(
                            play("Guard", 1, "Priest"),
                            [
                                e_play(0, "Guard", 1, "Priest"),
                                e_guess(0, 1, "Priest", YES),
                                *e_out(1, "Guard", "Priest"),
                                e_round_end("last_standing", [0]),
                                e_token(0),
                            ],
                            state={
                                "phase": "round_over",
                                "turn": None,
                                "round_winners": [0],
                                "tokens": [1, 0],
                                "game_winners": None,
                            },
                        )
                    ],
                )
            ],
            result={"round_winners": [0], "tokens": [1, 0], "game_winners": None},
        ),
        case(
            ed,
            "round.last-standing/the-round-ends-at-once",
            "When the second of three players is knocked out the round ends at once, cards left in the deck",
            clauses=ed.c("round.last-standing"),
            tags=["elimination"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["King", "Priest", "Baron"], ["Guard", "Guard", "Handmaid"]),
                    [
                        step(play("Guard", 1, "Priest")),
                        step(
                            play("Baron", 0),
                            [
                                e_play(2, "Baron", 0),
                                e_compare(2, 0, "Guard", "King", 2),
                                *e_out(2, "Baron", "Guard"),
                                e_round_end("last_standing", [0]),
                                e_token(0),
                            ],
                            state={
                                "phase": "round_over",
                                "turn": None,
                                "round_winners": [0],
                                "tokens": [1, 0, 0],
                            },
                        ),
                    ],
                )
            ],
        ),
    ]


def _seat2_wins(ed: Ed) -> tuple[list[str], list[Json]]:
    """Three players: seats 0 and 1 each lose a Baron against seat 2's King."""
    return (
        deal(ed, 3, ["Guard", "Guard", "King"], ["Baron", "Baron"]),
        [step(play("Baron", 2)), step(play("Baron", 2))],
    )


def next_round(ed: Ed) -> list[Json]:
    deck, steps = _seat2_wins(ed)
    second = deal(ed, 3, ["Priest", "Guard", "Handmaid"], ["Baron"])
    tie = classic_tie(ed, "other") if ed.id == "classic" else None
    out = [
        case(
            ed,
            "round.next-first/the-round-winner-starts",
            "The winner of a round starts the next one; tokens carry over and everything else is dealt "
            "afresh",
            clauses=ed.c("round.next-first", "round.last-standing"),
            tags=["next-round", "games"],
            players=3,
            rounds=[
                rnd(deck, steps),
                rnd(
                    second,
                    start=expect(
                        start_events(["Priest", "Guard", "Handmaid"], "Baron", first=2, round_=2),
                        state={
                            "round": 2,
                            "starter": 2,
                            "turn": 2,
                            "tokens": [0, 0, 1],
                            "phase": "play",
                            "eliminated": [NO, NO, NO],
                            "protected": [NO, NO, NO],
                            "discards": [[], [], []],
                            "hands": [["Priest"], ["Guard"], ["Baron", "Handmaid"]],
                            "round_winners": None,
                        },
                    ),
                ),
            ],
        ),
    ]
    if tie is not None:
        out.append(
            case(
                ed,
                "round.next-first/the-showdown-winner-starts",
                "The player who won the showdown (here on discard totals) starts the next round",
                clauses=ed.c("round.next-first", "round.tie"),
                tags=["next-round", "games", "showdown", "two-player"],
                players=2,
                rounds=[
                    rnd(tie.deck, [*tie.steps, step(play("Countess"))]),
                    rnd(
                        deal(ed, 2, ["Guard", "Priest"], ["Baron"]),
                        start=expect(state={"round": 2, "starter": 1, "turn": 1, "tokens": [0, 1]}),
                    ),
                ],
            )
        )
    else:
        game = king_beats_prince(ed, first=1)
        out.append(
            case(
                ed,
                "round.next-first/the-showdown-winner-starts",
                "The player who won the showdown starts the next round, whoever started the last",
                clauses=ed.c("round.next-first", "round.showdown"),
                tags=["next-round", "games", "showdown", "two-player"],
                players=2,
                first=1,
                rounds=[
                    rnd(game.deck, [*game.steps, step(play("Countess"))]),
                    rnd(
                        deal(ed, 2, ["Guard", "Priest"], ["Baron"]),
                        start=expect(state={"round": 2, "starter": 0, "turn": 0, "tokens": [2, 0]}),
                    ),
                ],
                note="Seat 1 started the first round; seat 0 won the showdown (and the Spy token: it "
                "played both Spies).",
            )
        )
    return out + _chosen_starter(ed)


def _chosen_starter(ed: Ed) -> list[Json]:
    """Who starts after a round nobody (classic) or several players (2019) won: the edition's choice."""
    second = deal(ed, 2, ["Guard", "Priest"], ["Baron"])
    if ed.id == "classic":
        game = classic_tie(ed, "nobody", first=1)
        return [
            case(
                ed,
                "round.next-first/nobody-won-the-last-starter-starts-again",
                "After a round nobody won (equal cards, equal discard totals) the player who started it "
                "starts again",
                clauses=ed.c("round.next-first", "round.tie"),
                tags=["next-round", "games", "tie", "two-player", "choice"],
                players=2,
                first=1,
                rounds=[
                    rnd(game.deck, [*game.steps, step(play("Handmaid"))]),
                    rnd(second, start=expect(state={"round": 2, "starter": 1, "turn": 1, "tokens": [0, 0]})),
                ],
                note="The rulebooks do not say who starts after a round without a winner; "
                "classic.round.next-first records the edition's choice.",
            )
        ]
    game = prince_duel(ed, first=1)
    return [
        case(
            ed,
            "round.next-first/tied-winners-the-first-from-the-last-starter",
            "After a round won by several tied players, the first of them in turn order from the last "
            "round's starter starts (here that starter, seat 1, not the lowest seat)",
            clauses=ed.c("round.next-first", "round.tie"),
            tags=["next-round", "games", "tie", "two-player", "choice"],
            players=2,
            first=1,
            rounds=[
                rnd(game.deck, [*game.steps, step(play("Countess"))]),
                rnd(second, start=expect(state={"round": 2, "starter": 1, "turn": 1, "tokens": [1, 1]})),
            ],
            note="The rulebooks do not say which of several winners starts; z19.round.next-first records "
            "the edition's choice.",
        )
    ]


def game_end(ed: Ed) -> list[Json]:
    goal = ed.spec.player_table("tokens_to_win", 2)
    deck, steps = _quick_win(ed, 2)
    out = [
        case(
            ed,
            "game.end/no-round-after-the-game",
            "Once a player reaches the target the game is over: no further round may be dealt",
            clauses=ed.c("game.end", "tokens.target"),
            tags=["game-end", "refusal", "games"],
            players=2,
            tokens=[goal - 1, 0],
            rounds=[rnd(deck, steps), refused_round(deal(ed, 2, ["Guard", "Priest"]))],
        )
    ]
    if ed.id == "classic":
        return out
    game = prince_duel(ed)
    out.append(
        case(
            ed,
            "game.end/tied-round-winners-reach-the-target-together",
            "Two tied round winners reaching the target together both win the game",
            clauses=ed.c("game.end", "round.tie", "tokens.target"),
            tags=["game-end", "tie", "two-player"],
            players=2,
            tokens=[goal - 1, goal - 1],
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Countess"),
                            [
                                e_play(0, "Countess"),
                                e_round_end("showdown", [0, 1], ["Prince", "Prince"]),
                                e_token(0),
                                e_token(1),
                                e_game_end(0, 1),
                            ],
                            state={"phase": "game_over", "game_winners": [0, 1], "tokens": [goal, goal]},
                        ),
                    ],
                )
            ],
            result={"game_winners": [0, 1], "tokens": [goal, goal]},
        )
    )
    game = king_beats_prince(ed)
    out.append(
        case(
            ed,
            "game.end/the-spy-token-lets-the-showdown-loser-win-too",
            "The showdown winner and the player gaining the Spy token reach the target together: both win",
            clauses=ed.c("game.end", "spy.bonus", "tokens.target"),
            tags=["game-end", "spy", "two-player"],
            players=2,
            tokens=[goal - 1, goal - 1],
            rounds=[
                rnd(
                    game.deck,
                    [
                        *game.steps,
                        step(
                            play("Countess"),
                            [
                                e_play(0, "Countess"),
                                e_round_end("showdown", [0], ["King", "Prince"]),
                                e_token(0),
                                e_token(1, "bonus"),
                                e_game_end(0, 1),
                            ],
                            state={"phase": "game_over", "game_winners": [0, 1], "tokens": [goal, goal]},
                        ),
                    ],
                )
            ],
            result={"game_winners": [0, 1], "tokens": [goal, goal]},
        )
    )
    return out


GROUPS = {
    "last-standing": ("The last player standing wins the round at once", last_standing),
    "showdown": ("The deck runs out: the players still in compare hands", showdowns),
    "showdown-with-a-player-out": ("Showdowns without the players who are out", one_player_out),
    "tie": ("Showdown ties", ties),
    "empty-deck": (
        "The Prince on an empty deck, and the Prince that takes the last card",
        lambda ed: empty_deck(ed) + last_card(ed),
    ),
    "tokens": ("Favour tokens and the target that ends the game, for every player count", targets),
    "game-end": ("The end of the game", game_end),
    "next-round": ("Who starts the next round", next_round),
}
"""File name -> (description, cases for an edition)."""
