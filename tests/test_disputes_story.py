"""Witness stories of `llcheck disputes`: what each side does is told under its name only, an
answer a card leaves due is said, and a refused game names what was refused."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import yaml

from loveletter_ref import Action, load_spec
from loveletter_ref.disputes import Budget, compare, comparison_json, open_side
from loveletter_ref.disputes.duel import differ, neutral
from loveletter_ref.disputes.story import story
from loveletter_ref.disputes.witness import Witness, replay_looks
from loveletter_ref.spec.extend import merge

EDITIONS = Path(__file__).resolve().parents[1] / "spec" / "editions"


def premium_reading(tmp_path: Path, card: str, rule: str, value: Any) -> Path:
    """Premium written out whole as a reading (`judge-premium`), with one card rule changed."""
    def read(name: str) -> dict[str, Any]:
        return yaml.safe_load((EDITIONS / f"{name}.yaml").read_text(encoding="utf-8"))
    doc, _ = merge(read("classic"), read("premium"), {})
    doc.update(kind="reading", id="judge-premium", prefix="judge-premium", describes="premium",
               rulebook="bga")
    rules = next(c["rules"] for c in doc["cards"] if c["name"] == card)
    next(r for r in rules if rule in r)[rule] = value
    path = tmp_path / "judge-premium.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


TOP = ["Guard",                                           # set aside
       "Jester", "Sycophant", "Guard", "Assassin", "Guard",  # dealt to Ana, Ben, Cleo, Dan, Eva
       "Bishop", "Baron", "Handmaid", "Priest", "Guard", "Countess", "Prince", "Prince"]
"""The top of a five-player Premium deck: the draws of the plays in `MOVES`."""

MOVES = [Action("play", "Jester", target=1),                # Ana bets on Ben
         Action("play", "Sycophant", target=3),             # Ben marks Dan
         Action("play", "Guard", target=3, guess=2),        # Cleo's Guard meets Dan's Assassin
         Action("play", "Guard", target=4, guess=5),        # Dan, wrong
         Action("play", "Countess"),                        # Eva
         Action("play", "Bishop", target=1, guess=2)]       # Ana, wrong: Ben holds the Baron
"""Plays on which the two sides agree up to the Bishop's wrong guess."""


def bishop_story(tmp_path: Path, last: Action) -> str:
    """The story of `MOVES` then `last` under a reading whose Bishop always offers a redraw."""
    a = load_spec(str(premium_reading(tmp_path, "Bishop", "offer_redraw", {"when": "always"})))
    b = load_spec("premium")
    rest = Counter(b.names[c] for c in b.deck(5)) - Counter(TOP)
    steps = [("deal", TOP + sorted(rest.elements()))] + [("move", neutral(b, 5, m)) for m in [*MOVES, last]]
    looks = list(zip(*(replay_looks(e, 5, 0, None, steps) for e in (a, b)), strict=True))
    diverged = next(i for i, (la, lb) in enumerate(looks) if differ(la, lb))
    return story(Witness(5, 0, None, steps, diverged, looks), "judge-premium", "premium")


def test_each_side_is_told_under_its_own_name_with_the_answer_it_waits_for(tmp_path):
    """bishop.redraw: after a wrong guess one side waits for Ben's answer while at the other
    Ben draws; that draw is told under premium only, in the same sentence."""
    text = bishop_story(tmp_path, Action("play", "Prince", target=3))
    assert ("Under judge-premium: Ana plays the Bishop on Ben, naming the value 2, a wrong guess; "
            "Ben may keep his card or discard it and draw. "
            "Under premium: Ana plays the Bishop on Ben, naming the value 2, a wrong guess; "
            "Ben draws the Prince. ") in text
    assert text.count("Ben draws the Prince") == 1
    assert text.endswith("Under judge-premium: playing the Prince on Dan is refused: a respond decision is "
                         "due, not play [bishop.redraw]. Under premium: Ben plays the Prince on Dan, Dan "
                         "discards the Priest, Dan draws the Baron; Dan draws the Baroness. "
                         "So judge-premium refuses what premium allows (bishop.redraw).")


def test_premium_events_are_told_in_words(tmp_path):
    """The Jester's bet, the Sycophant's mark, the Assassin's counter and an answer to the
    Bishop, each as a table would say it."""
    text = bishop_story(tmp_path, Action("respond", "Bishop", redraw=True))
    assert "Ana plays the Jester on Ben, betting that Ben wins the round." in text
    assert "Ben plays the Sycophant on Dan, the next card played must choose Dan if it can." in text
    assert ("Cleo plays the Guard on Dan, naming the value 2, Dan reveals the Assassin, Cleo is out, "
            "Cleo discards the Handmaid, Dan discards the Assassin, Dan draws the Priest.") in text
    assert "Under judge-premium: Ben chooses to discard and draw, Ben discards the Baron, " in text
    assert "Under premium: answering the Bishop by discarding and drawing is refused" in text


def test_a_player_count_one_side_refuses_is_told_as_a_refused_game(capsys):
    """players: classic seats 2-4, z-man-2019 2-6; the witness is a game of 5 players."""
    data = comparison_json(compare(open_side("classic"), open_side("z-man-2019"), Budget(games=1), 3_000_000,
                                   keys=["players"], alone=False))
    text = data["verdicts"][0]["witness"]["story"]
    assert text.startswith("5 players; Ana starts. Under classic: the game is refused: classic is for "
                           "2-4 players, not 5. Under z-man-2019: Round 1 ")
    assert text.endswith("So classic refuses a game of 5 players, which z-man-2019 plays.")
    assert "None" not in text


def test_a_refused_play_of_two_players_names_them(tmp_path):
    """baroness.target: a reading whose Baroness must choose two players refuses a look at one."""
    a = load_spec(str(premium_reading(tmp_path, "Baroness", "choose", {"who": "other", "count": 2})))
    b = load_spec("premium")
    top = ["Guard", "Baroness", "Guard", "Guard", "Guard", "Guard", "Priest"]
    rest = Counter(b.names[c] for c in b.deck(5)) - Counter(top)
    steps = [("deal", top + sorted(rest.elements())),
             ("move", neutral(b, 5, Action("play", "Baroness", targets=(2,))))]
    looks = list(zip(*(replay_looks(e, 5, 0, None, steps) for e in (a, b)), strict=True))
    text = story(Witness(5, 0, None, steps, 1, looks), "judge-premium", "premium")
    assert "Under judge-premium: playing the Baroness on Cleo is refused: " in text
    assert "Under premium: Ana plays the Baroness on Cleo, Ana sees Cleo's Guard; Ben draws the " in text


def test_after_the_games_part_each_side_follows_its_own_turns():
    """targeting.no-valid-target on its own: under classic Ben's Baron has no effect and Ana's
    turn follows; under the other side the same Baron is Ben's still (it was once told as Ana's,
    the turn the first side had moved to)."""
    data = comparison_json(compare(open_side("bga-classic-premium"), open_side("classic"), Budget(games=30),
                                   30_000_000, keys=["targeting.no-valid-target"]))
    text = data["verdicts"][0]["alone"]["witness"]["story"]
    assert "Under classic: Ben plays the Baron, it has no effect; Ana draws the " in text
    assert "Under classic with bga-classic-premium's targeting.no-valid-target: Ben plays the Baron; " \
           "here the rules give no answer [targeting.no-valid-target]" in text


def test_when_neither_side_plays_on_the_story_says_so():
    """players: fa-guide seats 5 but names too few cards for them, classic refuses 5 players."""
    data = comparison_json(compare(open_side("fa-guide"), open_side("classic"), Budget(games=1), 3_000_000,
                                   keys=["players"], alone=False))
    text = data["verdicts"][0]["witness"]["story"]
    assert text.endswith("So neither plays on: fa-guide's rules are silent at setup.deck, and classic "
                         "refuses a game of 5 players.")
