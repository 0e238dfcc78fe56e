"""say() naming values in braces: each told as the table says it, and never what some
seat may not see (RS415 at the value, through lets, loops, choices and procedures)."""

import pytest
from gamekit import ROOT, edited, spec_errors

from rulespec import load_spec
from rulespec.interpreter import Game, State

TEXT = (ROOT / "tests" / "valid" / "first_claim.yaml").read_text()
SAY = 'say("{claimer} claims the {offer}, for {sum(c.value for c in offer)}")'


def said(statement: str, players: int = 3) -> str:
    """The words a claim by P2 says, the claim's say replaced by `statement`."""
    game = Game(load_spec("first_claim.yaml", edited(TEXT, (SAY, statement))), players)
    state = State.from_layout(game, 1, zones={"pile": ["gem_4", "gem_2"]}, current=0)
    state.apply_action("pass")
    state.apply_action("claim")
    (event,) = [e for e in state.log_for(None) if e["event"] == "say"]
    return event["text"]


@pytest.mark.parametrize(
    "statement, words",
    [
        ('say("{claimer} and {claimer + current}: {others(claimer)}")', "P2 and P2: P3, P1"),
        ('say("{size(pile)} left, {2 * size(pile) - 1}")', "1 left, 1"),
        ('say("{offer} then {top(discard, 1)}")', "Gem 4 then no card"),
        ('say("{{offer}}")', "{Gem 4}"),
    ],
)
def test_each_value_is_told_as_the_table_says_it(statement, words):
    assert said(statement) == words


def test_a_set_of_numbers_is_not_told():
    ((code, message),) = spec_errors(edited(TEXT, (SAY, 'say("{range(3)}")')))
    assert code == "RS204" and "of type ints" in message


def test_a_kind_is_told_by_its_title_and_nobody_by_name():
    assert said('say("{kind_of(offer)}")') == "Gem 4"
    text = edited(
        TEXT,
        (SAY, 'say("{claimer}")'),
        ("claimer = current\n      ", ""),
        ("move(offer, kept(claimer))", "move(offer, kept(current))"),
    )
    game = Game(load_spec("first_claim.yaml", text), 2)
    state = State.from_layout(game, 1, zones={"pile": ["gem_4"]}, current=0)
    state.apply_action("claim")
    assert [e["text"] for e in state.log_for(None) if e["event"] == "say"] == ["nobody"]


HIDDEN = [
    'let c = top(pile, 1)\n      say("{c}")',
    'for c in top(pile, 1) { say("{c}") }',
    'choose(current) n from 1..3 { say("{n}") }',
    'let n = count(top(pile, 1), gem_1)\n      let m = n + 1\n      say("{m}")',
    'let n = 0\n      if size(pile) > 1 { n = size(of(pile, gem_1)) }\n      say("{n}")',
    'say("{kind_of(top(pile, 1))}")',
    "tell(size(of(pile, gem_1)))",
    'let g = of(pile, gem_1)\n      say("{size(g)}")',
    'let n = 0\n      if size(of(pile, gem_1)) > 0 { n = 1 }\n      say("{n}")',
    'let n = 0\n      while n < size(of(pile, gem_1)) { n += 1 }\n      say("{n}")',
    'let n = 0\n      for c in pile { if c.value > 1 { n += 1 } }\n      say("{n}")',
    'say("{zone_of(offer)}")',
    # a second review's: where a card lies now, inside another value
    'say("{top(zone_of(top(offer, 1)), 1)}")',
    'say("{size(above(top(offer, 1)))}")',
    # trials': a loop variable named again by a later loop, over the hidden pile
    'for w in players { say("{w}") }\n      for w in top(pile, 1) { say("{w}") }',
    # how many cards a pick holds, where that hangs on what some seat may not see
    'choose(current) s from combinations(pile, size(of(pile, gem_1))) { say("{size(s)}") }',
    'choose(current) s from combinations(pile, 1) + combinations(pile, 2) { say("{size(s)}") }',
    'choose(current) s from combinations(pile, 1, 2) { say("{size(s)}") }',
    'choose(current) s from summing(pile, "value", 4) { say("{size(s)}") }',
    # a let in a choice's block that reads the pick, or a hidden card
    'choose(current) c from pile { let x = c.value\n      say("{x}") }',
    'choose(current) c from pile { let x = top(pile, 1)\n      say("{x}") }',
]


@pytest.mark.parametrize("statement", HIDDEN)
def test_a_value_some_seat_may_not_see_is_refused_at_its_place(statement):
    text = edited(
        TEXT,
        (SAY, statement),
        (
            "setup:\n",
            'procedures:\n  tell:\n    params: {x: int}\n    effect: say("{x}")\nsetup:\n',
        ),
    )
    ((code, message),) = spec_errors(text)
    assert code == "RS415" and message.startswith("say() tells every seat")


TOLD = [
    # a loop variable is its own loop's: a later loop of the same name over the pile
    'for w in players { say("{w}") }\n      for w in top(pile, 1) { move(w, offer) }',
    # a pick of k cards holds k, of one card one, whatever the cards
    'choose(current) s from combinations(pile, 2) { say("{size(s)}") }',
    'choose(current) c from of(pile, gem_1) { say("{size(c)}") }',
    'for c in of(pile, gem_1) { say("{size(c)}") }',
    # a choice within a choice whose test reads the pile: its variable is bound as often
    # as the say inside it runs
    "choose(current) t from combinations(offer, 1) if size(of(pile, gem_1)) >= 0 {\n"
    '      choose(current) g from combinations(pile, size(t)) { say("{size(g)}") } }',
    # a let in a choice's block that reads neither the pick nor a hidden card
    'choose(current) c from pile { let left = size(pile)\n      say("{left}") }',
]


@pytest.mark.parametrize("statement", TOLD)
def test_what_follows_from_public_facts_is_told_wherever_it_is_bound(statement):
    load_spec("first_claim.yaml", edited(TEXT, (SAY, statement)))  # no RS415


def test_a_refusal_names_the_binding_that_hides_the_value():
    said = 'let n = 0\n      choose(current) c from of(pile, gem_1) { n = 1 }\n      say("{n}")'
    ((_, under),) = spec_errors(edited(TEXT, (SAY, said)))
    said = 'choose(current) n from 1..3 { let k = n\n      say("{k}") }'
    ((_, secret),) = spec_errors(edited(TEXT, (SAY, said)))
    assert under.endswith(
        "reads 'n', bound under a test or loop at line 56 that reads the cards of zone 'pile' "
        "(visibility: hidden), which some seats may not see"
    )
    assert secret.endswith("through 'k' (bound at line 55), 'n', bound by a secret pick (line 55)")


def test_what_every_seat_sees_is_told():
    text = edited(
        TEXT,
        (
            SAY,
            'tell(size(pile))\n      for p in players { say("{p}: {points(p)}") }\n'
            '      say("{size(kept(seat(0)))} {size(kept(next(seat(0))))}")\n'
            "      let h = pile\n"
            '      say("{size(h)} in the pile")',
        ),
        (
            "setup:\n",
            'procedures:\n  tell:\n    params: {x: int}\n    effect: say("{x}")\nsetup:\n',
        ),
    )
    load_spec("first_claim.yaml", text)  # no RS415: sizes, public cards, counters


def test_an_actions_zone_target_and_card_are_what_it_was_chosen_among_and_went_to():
    """A review's: a card stashed face down, and the stash, were told to every seat."""
    text = (ROOT / "tests" / "valid" / "building_piles.yaml").read_text()
    told = 'effect: say("{current} stashed {card}; the stash holds {target}")'
    stash = edited(
        text, ("    if: size(target) == 0\n", f"    if: size(target) == 0\n    {told}\n")
    )
    assert [code for code, _ in spec_errors(stash)] == ["RS415", "RS415"]


def test_an_actions_player_target_is_told_as_its_option_names_it():
    """A say() review's: a steal's `target: other`, named in the play every seat sees
    ("P1 plays Steal at P3"), was refused as bound by a secret pick."""
    text = (ROOT / "tests" / "valid" / "challenge_then_block.yaml").read_text()
    told = '      say("{current} steals from {target}")\n      if taken == 1 { react(target'
    load_spec("ctb.yaml", edited(text, ("      if taken == 1 { react(target", told)))


def test_a_plays_picked_card_is_told_where_every_seat_sees_the_card_played():
    """A review's: the log names a play's `chosen` only to the seats that see its card
    played, so a say() may name it only where they are all the seats (the broken spec
    plays the card face down)."""
    broken = (
        ROOT / "tests" / "broken" / "244_say_names_the_card_chosen_by_a_play_made_face_down.yaml"
    )
    public = edited(broken.read_text(), ("to: vault(current)", "to: discard"))
    load_spec("marked.yaml", public)  # no RS415: every seat sees the card played


def test_a_play_that_picks_a_card_from_an_unknown_hand_is_refused_with_a_place():
    """The hand's visibility decides who sees a card played: an unknown hand is RS201,
    never a traceback (`rulespec serve` answered 500)."""
    broken = (
        ROOT / "tests" / "broken" / "244_say_names_the_card_chosen_by_a_play_made_face_down.yaml"
    )
    nowhere = edited(broken.read_text(), ("hand: hand", "hand: nowhere"))
    assert [code for code, _ in spec_errors(nowhere)] == ["RS201", "RS415"]


def test_a_reactions_answering_card_is_the_zone_it_went_to():
    text = (ROOT / "tests" / "valid" / "coin_grab.yaml").read_text()
    public = edited(
        text, ("    effect: strength = 0", '    effect: say("{reactor} blocks with {answer}")')
    )
    load_spec("coin_grab.yaml", public)  # the guard goes to the public discard
    hidden = edited(public, ("    to: discard\n    effect: say", "    to: pile\n    effect: say"))
    ((code, message),) = spec_errors(hidden)
    assert code == "RS415" and "zone 'pile'" in message


def test_a_reactions_assignment_to_the_answered_actions_local_is_read_there():
    """A second review's: a reaction wrote what it holds into the action's local, which
    the action then said."""
    text = (ROOT / "tests" / "valid" / "coin_grab.yaml").read_text()
    said = '        steals += 1\n      }\n      say("{strength}")\n'
    public = edited(text, ("        steals += 1\n      }\n", said))
    load_spec("coin_grab.yaml", public)  # 1, or 0 once blocked: public, as the block is
    hidden = edited(
        public, ("    effect: strength = 0", "    effect: strength = count(hand(reactor), guard)")
    )
    ((code, message),) = spec_errors(hidden)
    assert code == "RS415" and "zone 'hand'" in message


def test_where_an_item_of_public_cards_lies_is_told_within_its_aggregate():
    """A Cuttle trial's: an aggregate over cards every seat sees reads where each lies
    now (an expression does not pause), itself or through a named condition it passes
    the item to; a card a local kept from before may have moved out of sight since."""
    on_offer = "  on_offer:\n    params: {c: cards}\n    when: zone_of(c) == offer\n"
    text = edited(TEXT, ("\nconditions:\n", "\nconditions:\n" + on_offer))
    told = (
        'say("{count(zone_of(c) == offer for c in offer + discard)} '
        '{count(on_offer(c) for c in offer + discard)} {sum(size(above(c)) for c in discard)}")'
    )
    load_spec("first_claim.yaml", edited(text, (SAY, told)))  # no RS415
    kept = 'let x = top(offer, 1)\n      say("{count(on_offer(c) for c in x)}")'
    ((code, message),) = spec_errors(edited(text, (SAY, kept)))
    assert code == "RS415" and "on_offer, where a card lies now" in message
    ((code, _),) = spec_errors(edited(text, (SAY, 'say("{if on_offer(offer) then 1 else 0}")')))
    assert code == "RS415"


GRAB = """\
rulespec: 1
name: Grab
players: {min: 2, max: 2}
hand: hand
deck:
  cards:
    hook: {count: 12}
zones:
  pile: {visibility: hidden, ordered: true, start: true}
  table: {per_player: true, visibility: public}
  hand: {per_player: true, visibility: owner}
setup:
  effect: |
    shuffle(pile)
    for p in players { move(top(pile, 2), table(p)) }
    for p in players { move(top(pile, 2), hand(p)) }
turn:
  - step: play
    actions: [grab]
actions:
  grab:
    card: hook
    to: table(current)
    target: card
    among: table(next(current))
    effect: |
      say("{current} grabs {chosen}")
      move(chosen, hand(current))
end_conditions:
  out:
    when: size(pile) == 0
    effect: end_game()
"""


def test_a_plays_pick_among_public_cards_by_where_they_lie_is_told():
    """A Cuttle trial's: `among: filter(zone_of(c) == … for c in …)` over a public zone
    was refused, where the same among without the filter was told."""
    among = "filter(zone_of(c) == table(next(current)) for c in table(next(current)))"
    load_spec("grab.yaml", edited(GRAB, ("among: table(next(current))", f"among: {among}")))
    hidden = edited(GRAB, ("among: table(next(current))", "among: hand(next(current))"))
    ((code, _),) = spec_errors(hidden)
    assert code == "RS415"
