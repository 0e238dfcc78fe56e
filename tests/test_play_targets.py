"""A play at a card (`target: card`) is told with the card it picks, as each seat saw
it: a Cuttle trial read "P2 plays Two of hearts (One-off: scrap a permanent)", then an
answer, and never learnt which permanent, though the log's label named it. A seat that
does not see the picked card, or the card played, is told the picked card's place alone
(tests/valid/vault.yaml)."""

from io import StringIO

from gamekit import ROOT, cli

from rulespec import load_spec
from rulespec.cli import main
from rulespec.interpreter import Game, State
from rulespec.serve import views
from rulespec.table.narrate import Titles, narrate

SPEC = ROOT / "tests" / "valid" / "vault.yaml"
GAME = Game(load_spec(SPEC), 2)
TITLES = Titles.of(GAME.spec)


def _played(hand: list[str], label: str) -> State:
    """P1, holding `hand` (and a pear drawn), with a plum in the pool and P2 a wizard,
    plays `label`."""
    zones = {"hand[P1]": hand, "hand[P2]": ["wizard"], "pool": ["plum"], "deck": ["pear", "plum"]}
    state = State.from_layout(GAME, 1, zones=zones, current=0)
    state.apply_action(label)
    return state


def _said(state: State, seat: int | None) -> list[str]:
    return narrate(state.log_for(seat), TITLES)


def test_a_play_at_a_card_names_the_card_and_where_it_lies():
    state = _played(["apple"], "trade apple plum from pool")
    for seat in (None, 0, 1):
        assert "  P1 plays Apple (Trade) at Plum in the pool" in _said(state, seat)


def test_a_card_picked_where_a_seat_cannot_see_is_told_to_it_by_its_place():
    """A Wizard locks a card of its player's hand: P1 (and a spectator) are told which,
    P2 where it lay; P2's log and narration are the same whichever card it was."""
    apple = _played(["wizard", "apple", "pear"], "lock apple from hand[P1]")
    for seat in (None, 0):
        assert "  P1 plays Wizard (Lock) at Apple in P1's hand" in _said(apple, seat)
    assert "  P1 plays Wizard (Lock) at a card in P1's hand" in _said(apple, 1)
    play = next(e for e in apple.log_for(1) if e["event"] == "play")
    assert play["chosen_from"] == "hand[P1]"
    pear = _played(["wizard", "apple", "pear"], "lock pear from hand[P1]")
    assert pear.log_for(1) == apple.log_for(1) and _said(pear, 1) == _said(apple, 1)
    assert _said(pear, 0) != _said(apple, 0)


def test_a_card_played_face_down_tells_the_card_it_picks_by_its_place():
    """The label names both cards: a seat not shown the card hidden in P1's vault is
    told neither by name."""
    state = _played(["apple"], "hide apple plum from pool")
    assert "  P1 plays Apple (Hide) at Plum in the pool" in _said(state, 0)
    assert "  P1 plays a card (Hide) at a card in the pool" in _said(state, 1)


def test_a_window_is_headed_with_the_card_the_play_it_answers_picks():
    state = _played(["apple"], "trade apple plum from pool")
    shown = views.view(state, 1, views.Table(GAME.spec, 2))
    assert shown["asking"] == "You may answer Trade at Plum in the pool:"
    assert "  P1 plays Apple (Trade) at Plum in the pool" in shown["narration"]
    out = StringIO()
    argv = ["play", str(SPEC), "--as", "P2", "--seed", "3"]
    main(argv, stdout=out, stderr=StringIO(), stdin=StringIO("1\n" * 200))
    said = out.getvalue()
    assert "  P1 plays Apple (Trade) at Apple in the pool\n" in said
    assert "\nYou may answer Trade at Apple in the pool:\n" in said


def test_run_as_a_seat_tells_it_what_it_saw_of_a_card_picked():
    """Seed 2: P1 locks a plum of its hand on turns 3 and 9, P2 a plum of its own on turn 8."""
    lines = {}
    for seat in ("P1", "P2"):
        code, out, _ = cli("run", SPEC, "--seed", 2, "--as", seat)
        assert code == 0
        lines[seat] = [line for line in out.splitlines() if "(Lock)" in line]
    assert lines["P1"] == [
        "  P1 plays Wizard (Lock) at Plum in P1's hand",
        "  P2 plays Wizard (Lock) at a card in P2's hand",
        "  P1 plays Wizard (Lock) at Plum in P1's hand",
    ]
    assert lines["P2"] == [
        "  P1 plays Wizard (Lock) at a card in P1's hand",
        "  P2 plays Wizard (Lock) at Plum in P2's hand",
        "  P1 plays Wizard (Lock) at a card in P1's hand",
    ]


MARK = """
rulespec: 1
name: Mark
players: {min: 3, max: 3, default: 3}
hand: hand
deck:
  cards:
    wizard: {count: 6}
    apple: {count: 6, tags: [fruit]}
    pear: {count: 6, tags: [fruit]}
zones:
  deck: {visibility: hidden, ordered: true, start: true}
  pool: {visibility: public}
  hand: {per_player: true, visibility: owner}
  vault: {per_player: true, visibility: owner}
counters:
  score: {per_player: true, initial: 0}
turn:
  - step: play
    actions: [mark]
actions:
  mark:
    card: wizard
    to: pool
    target: card
    among: of(hand(current), fruit) + of(vault(current), fruit)
    effect: score(current) += 1
end_conditions:
  done:
    when: size(pool) >= 3
    effect: end_game()
"""


def test_which_of_two_hidden_zones_a_picked_card_lay_in_is_not_told():
    """A review: `among` over a hand and a vault, both hidden from P3: where the apple
    lay (the hand or the vault) hangs on P1's hidden cards, so P3 is told neither,
    and its log, narration and information key are the same either way."""
    game = Game(load_spec("mark.yaml", MARK), 3)
    titles, seen = Titles.of(game.spec), []
    for hand, vault in (("apple", "pear"), ("pear", "apple")):
        zones = {"hand[P1]": ["wizard", hand], "vault[P1]": [vault], "deck": []}
        state = State.from_layout(game, 0, zones=zones)
        state.apply_action(next(o for o in state.legal_labels() if "apple" in o))
        play = next(e for e in state.log_for(2) if e["event"] == "play")
        assert "chosen_from" not in play
        seen.append((state.log_for(2), narrate(state.log_for(2), titles), state.information_key(2)))
    assert seen[0] == seen[1]
