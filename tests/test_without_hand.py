"""A game without a `hand` zone (a patience, a game of claims): every part of the engine
that reads the hand reads it only where a card is played from it."""

from gamekit import ROOT, cli

CLAIM = ROOT / "tests" / "valid" / "claim_without_hand.yaml"

TAKE = """\
rulespec: 1
name: Take Without Hand
players: {min: 1, max: 2, default: 1}
deck:
  cards:
    chip: {count: 6}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  won: {per_player: true, visibility: public}
turn:
  - step: take
    actions: [take]
actions:
  take:
    to: won(current)          # no card: nothing is played, so nothing goes here
    effect: move(top(pile, 1), won(current))
end_conditions:
  empty:
    when: size(pile) == 0
    effect: win(current)
"""


def test_an_answer_without_a_card_is_offered_without_a_hand():
    """The reaction window looked for the answering cards in a hand that is not there."""
    code, out, err = cli("run", CLAIM, "--seed", 1)
    assert code == 0, err
    assert "Game over after 6 turns" in out


def test_an_action_without_a_card_moves_nothing_from_a_hand(tmp_path):
    """The rules graph took an action's `to` as a move from the hand, and with no hand
    lint, graph and diff failed (exit 3)."""
    spec = tmp_path / "take.yaml"
    spec.write_text(TAKE)
    assert cli("lint", spec)[0] == 0
    assert cli("graph", spec)[0] == 0
    other = tmp_path / "take2.yaml"
    other.write_text(TAKE.replace("count: 6", "count: 7"))
    assert cli("diff", spec, other)[0] in (0, 1)
