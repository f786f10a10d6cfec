"""Setup, the card table, turns and elimination, for both editions."""

from __future__ import annotations

from collections import Counter

from .dsl import (
    NO,
    YES,
    Ed,
    Json,
    case,
    deal,
    e_compare,
    e_guess,
    e_look,
    e_out,
    e_play,
    e_protect,
    e_turn,
    edition,
    expect,
    guard_plays,
    keep,
    play,
    refuse,
    refused_round,
    rnd,
    start_events,
    step,
    swap,
)


def _full_state(ed: Ed, players: int, deck: list[str], hands: list[list[str]], face_up: int) -> Json:
    """The whole state right after dealing `deck` with seat 0 starting (docs/formats.md)."""
    dealt = 1 + face_up + players
    return {
        "edition": ed.id,
        "players": players,
        "round": 1,
        "phase": "play",
        "turn": 0,
        "starter": 0,
        "deck": deck[dealt + 1 :],
        "set_aside": deck[:1],
        "face_up": deck[1 : 1 + face_up],
        "hands": hands,
        "discards": [[] for _ in range(players)],
        "eliminated": [NO] * players,
        "protected": [NO] * players,
        "tokens": [0] * players,
        "pending": None,
        "round_winners": None,
        "game_winners": None,
    }


def dealing(ed: Ed) -> list[Json]:
    three = deal(ed, 3, ["Guard", "Priest", "Baron"], ["Handmaid"])
    two = deal(
        ed,
        2,
        ["Guard", "Priest"],
        ["Handmaid"],
        set_aside=["Princess"],
        face_up=["Baron", "King", "Countess"],
    )
    most = ed.spec.max_players
    many = deal(ed, most, ["Guard"] * most, ["Priest"])
    return [
        case(
            ed,
            "setup.deal/three-players",
            "Setup takes one card aside face down, deals one card to each seat in seat order, and the "
            "first player draws: nothing is face up with three players",
            clauses=ed.c("setup.set-aside", "setup.deal", "setup.face-up", "turn.draw"),
            tags=["setup"],
            players=3,
            rounds=[
                rnd(
                    three,
                    start=expect(
                        start_events(["Guard", "Priest", "Baron"], "Handmaid"),
                        state=_full_state(ed, 3, three, [["Guard", "Handmaid"], ["Priest"], ["Baron"]], 0),
                    ),
                )
            ],
        ),
        case(
            ed,
            "setup.face-up/two-players",
            "With two players, three cards are set aside face up after the face-down one, before dealing",
            clauses=ed.c("setup.face-up", "setup.set-aside", "setup.deal"),
            tags=["setup", "two-player"],
            players=2,
            rounds=[
                rnd(
                    two,
                    start=expect(
                        start_events(["Guard", "Priest"], "Handmaid", face_up=["Baron", "King", "Countess"]),
                        state=_full_state(ed, 2, two, [["Guard", "Handmaid"], ["Priest"]], 3),
                        views={
                            1: {
                                "hand": ["Priest"],
                                "hand_sizes": [2, 1],
                                "face_up": ["Baron", "King", "Countess"],
                                "set_aside_size": 1,
                                "deck_size": len(two) - 7,
                            }
                        },
                    ),
                )
            ],
        ),
        case(
            ed,
            f"setup.face-up/{most}-players",
            f"With {most} players nothing is set aside face up",
            clauses=ed.c("setup.face-up", "setup.deal"),
            tags=["setup"],
            players=most,
            rounds=[
                rnd(
                    many,
                    start=expect(
                        start_events(["Guard"] * most, "Priest"),
                        state={
                            "face_up": [],
                            "set_aside": many[:1],
                            "deck": many[2 + most :],
                            "hands": [["Guard", "Priest"]] + [["Guard"]] * (most - 1),
                        },
                    ),
                )
            ],
        ),
        case(
            ed,
            "setup.first-player/the-chosen-player-starts",
            "The first round's starter is chosen: seat 2 starts and draws; cards are still dealt from seat 0",
            clauses=ed.c("setup.first-player", "setup.deal", "turn.draw"),
            tags=["setup"],
            players=4,
            first=2,
            rounds=[
                rnd(
                    deal(ed, 4, ["Guard", "Priest", "Baron", "Handmaid"], ["King"]),
                    start=expect(
                        start_events(["Guard", "Priest", "Baron", "Handmaid"], "King", first=2),
                        state={
                            "turn": 2,
                            "starter": 2,
                            "hands": [["Guard"], ["Priest"], ["Baron", "King"], ["Handmaid"]],
                        },
                    ),
                )
            ],
        ),
    ]


def deck_rule(ed: Ed) -> list[Json]:
    """A deal must be exactly the edition's deck; each card's count is part of it."""
    full = deal(ed, 3, ["Guard", "Priest", "Baron"])
    foreign = "Jester" if ed.id != "classic" else "Spy"
    other = "classic" if ed.id != "classic" else "z-man-2019"
    out = [
        case(
            ed,
            "setup.deck/one-card-short",
            "A deck missing a card is refused",
            clauses=ed.c("setup.deck"),
            tags=["setup", "refusal"],
            players=3,
            rounds=[refused_round(full[:-1])],
        ),
        case(
            ed,
            "setup.deck/one-card-too-many",
            "A deck with an extra card is refused",
            clauses=ed.c("setup.deck"),
            tags=["setup", "refusal"],
            players=3,
            rounds=[refused_round(full + ["Guard"])],
        ),
        case(
            ed,
            "setup.deck/a-card-of-another-edition",
            f"A deck holding a card this edition does not have ({foreign}) is refused",
            clauses=ed.c("setup.deck"),
            tags=["setup", "refusal"],
            players=3,
            rounds=[refused_round(swap(full, "Guard", foreign))],
        ),
        case(
            ed,
            f"setup.deck/the-{other}-deck",
            f"The {other} deck is not a {ed.id} deck",
            clauses=ed.c("setup.deck"),
            tags=["setup", "refusal"],
            players=3,
            rounds=[refused_round(_other_deck(other))],
        ),
    ]
    counts = Counter(full)
    for card in ed.spec.cards:
        spare = "Priest" if card.name == "Guard" else "Guard"
        out.append(
            case(
                ed,
                f"{card.clause.id.split('.', 1)[1]}/count-is-{counts[card.name]}",
                f"The deck holds {counts[card.name]} {card.name}: one {card.name} more (one {spare} fewer) "
                "is refused",
                clauses=[card.clause.id, *ed.c("setup.deck")],
                tags=[card.name.lower(), "setup", "refusal"],
                players=3,
                rounds=[refused_round(swap(full, spare, card.name))],
            )
        )
    return out


def _other_deck(name: str) -> list[str]:
    return deal(edition(name), 3, ["Guard", "Priest", "Baron"])


def values(ed: Ed) -> list[Json]:
    """Each card outranks the next lower one: a Baron ladder up the card table."""
    ladder = sorted(ed.spec.cards, key=lambda c: c.value)
    out = []
    for low, high in zip(ladder, ladder[1:], strict=False):
        kept, target = high.name, low.name
        third = "Priest" if target == "Guard" else "Guard"
        deck = deal(ed, 3, ["Baron", target, third], [kept, "Guard"])
        out.append(
            case(
                ed,
                f"{high.clause.id.split('.', 1)[1]}/outranks-{low.name.lower()}",
                f"{high.name} ({high.value}) is higher than {low.name} ({low.value}): a Baron comparing "
                f"them knocks out the {low.name}",
                clauses=[high.clause.id, low.clause.id, *ed.c("baron.compare")],
                tags=[high.name.lower(), low.name.lower(), "baron", "values"],
                players=3,
                rounds=[
                    rnd(
                        deck,
                        [
                            step(
                                play("Baron", 1),
                                [
                                    e_play(0, "Baron", 1),
                                    e_compare(0, 1, kept, target, 1),
                                    *e_out(1, "Baron", target),
                                    *e_turn(2, "Guard"),
                                ],
                                state={
                                    "eliminated": [NO, YES, NO],
                                    "hands": [[kept], [], sorted_hand(ed, [third, "Guard"])],
                                },
                            )
                        ],
                    )
                ],
            )
        )
    return out


def sorted_hand(ed: Ed, cards: list[str]) -> list[str]:
    """Cards in the canonical hand order: by value, then name."""
    return sorted(cards, key=lambda c: (ed.value(c), c))


def turns(ed: Ed) -> list[Json]:
    draws = ["Guard", "Priest", "Priest", "Handmaid", "Handmaid"]
    miss = "Princess"
    return [
        case(
            ed,
            "turn.order/clockwise",
            "Turns pass clockwise (to the next seat number) from the chosen starter, wrapping around",
            clauses=ed.c("turn.order", "turn.draw"),
            tags=["turns"],
            players=4,
            first=2,
            rounds=[
                rnd(
                    deal(ed, 4, ["Guard"] * 4, draws),
                    [
                        step(
                            play("Guard", 3, miss),
                            [e_play(2, "Guard", 3, miss), e_guess(2, 3, miss, NO), *e_turn(3, "Priest")],
                        ),
                        step(
                            play("Guard", 0, miss),
                            [e_play(3, "Guard", 0, miss), e_guess(3, 0, miss, NO), *e_turn(0, "Priest")],
                        ),
                        step(
                            play("Guard", 1, miss),
                            [e_play(0, "Guard", 1, miss), e_guess(0, 1, miss, NO), *e_turn(1, "Handmaid")],
                        ),
                        step(
                            play("Guard", 2, miss),
                            [e_play(1, "Guard", 2, miss), e_guess(1, 2, miss, NO), *e_turn(2, "Handmaid")],
                            state={
                                "turn": 2,
                                "hands": [["Priest"], ["Handmaid"], ["Guard", "Handmaid"], ["Priest"]],
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "turn.play/one-card-of-ones-own-hand",
            "A turn plays exactly one card of the hand of the player on turn, in the form the card asks for",
            clauses=ed.c("turn.play"),
            tags=["turns", "refusal"],
            players=3,
            rounds=[
                rnd(
                    deal(ed, 3, ["Guard", "Priest", "Baron"], ["Handmaid", "Guard"]),
                    [
                        refuse(play("King", 1), "player 0 holds no King"),
                        refuse(
                            play("Priest", 1), "the Priest is in player 1's hand, not the player on turn's"
                        ),
                        refuse(keep("Guard", "Handmaid"), "a card is played now, not kept"),
                        refuse(play("Handmaid", 1), "the Handmaid takes no target"),
                        step(
                            play("Handmaid"),
                            [e_play(0, "Handmaid"), e_protect(0), *e_turn(1, "Guard")],
                            state={
                                "hands": [["Guard"], ["Guard", "Priest"], ["Baron"]],
                                "discards": [["Handmaid"], [], []],
                                "turn": 1,
                            },
                        ),
                    ],
                )
            ],
        ),
        case(
            ed,
            "elimination/out-players-are-skipped-and-cannot-be-chosen",
            "A player knocked out discards their hand, takes no more turns and may not be chosen",
            clauses=ed.c("elimination", "turn.order"),
            tags=["elimination", "turns", "refusal"],
            players=4,
            rounds=[
                rnd(
                    deal(
                        ed,
                        4,
                        ["Guard", "Priest", "Guard", "Guard"],
                        ["Guard", "Handmaid", "Handmaid", "Priest", "Baron"],
                    ),
                    [
                        step(
                            play("Guard", 1, "Priest"),
                            [
                                e_play(0, "Guard", 1, "Priest"),
                                e_guess(0, 1, "Priest", YES),
                                *e_out(1, "Guard", "Priest"),
                                *e_turn(2, "Handmaid"),
                            ],
                            state={
                                "eliminated": [NO, YES, NO, NO],
                                "hands": [["Guard"], [], ["Guard", "Handmaid"], ["Guard"]],
                                "discards": [["Guard"], ["Priest"], [], []],
                            },
                            legal=guard_plays(ed, 0, 3) + [play("Handmaid")],
                        ),
                        refuse(play("Guard", 1, "Baron"), "player 1 is out of the round"),
                        step(play("Handmaid")),
                        step(play("Guard", 0, "Princess")),
                        step(
                            play("Priest", 3),
                            [
                                e_play(0, "Priest", 3),
                                e_look(0, 3, "Handmaid"),
                                *e_turn(2, "Baron", unprotect=True),
                            ],
                            state={"turn": 2},
                        ),
                    ],
                )
            ],
        ),
    ]


GROUPS = {
    "setup": ("Setup: the face-down card, the two-player face-up cards, dealing, the first player", dealing),
    "deck": ("Deals must be exactly the edition's deck; every card count is part of it", deck_rule),
    "values": ("Card values: each card outranks the next lower one", values),
    "turns": ("Turns: order, one card per turn, players who are out", turns),
}
"""File name -> (description, cases for an edition)."""
