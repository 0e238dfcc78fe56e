"""A kind's property (`trump.colour`, `prop(k, "colour")`): the value every card type of
the kind shares, the property's none for no kind; refused as the spec loads where the
kinds read may be one whose cards differ in it (tests/broken/320-322), else as the game
runs (RS701). A Euchre trial named trumps by a choice of suit and could not read the
suit's colour: it copied the deck's colour lookup into its rules."""

import pytest
from gamekit import ROOT, counter, edited, settled, spec_errors

from rulespec import load_spec
from rulespec.analysis import lint as static
from rulespec.interpreter import Game, RuleError

LEFT_BOWER = (ROOT / "tests/valid/left_bower.yaml").read_text(encoding="utf-8")
COUNTERS = "  trump: {initial: no_kind, title: Trumps}\n"
NAMING = 'choose(current, "which suit is trumps?") s from values("suit") { trump = s }'


def _with_counters(*lines: str) -> str:
    return edited(LEFT_BOWER, (COUNTERS, COUNTERS + "".join(f"  {x}\n" for x in lines)))


def test_a_kinds_property_is_the_value_its_cards_share_and_no_kinds_is_none():
    text = _with_counters(
        "suit_colour: {initial: hearts.colour}",  # a tag: the value its cards share
        "written: {initial: 'prop(spades, \"colour\")'}",  # the same, as prop()
        "card_colour: {initial: jack_of_clubs.colour}",  # a card type: its own
        "rank_of_tag: {initial: nine.rank}",  # every nine is a 9
        "no_colour: {initial: no_kind.colour}",  # no kind: the property's none
        "no_rank: {initial: no_kind.rank}",
    )
    state = Game(load_spec("left_bower.yaml", text), 2).new_initial_state(seed=1)
    got = [
        counter(state, n)
        for n in ("suit_colour", "written", "card_colour", "rank_of_tag", "no_colour", "no_rank")
    ]
    assert got == ["red", "black", "black", 9, None, 0]


def test_a_kind_whose_cards_differ_in_it_stops_the_game_at_the_rule():
    """A counter may hold any kind, so the spec loads; reading a face's colour stops the
    game where it is read, saying why and what to read instead."""
    text = edited(
        _with_counters("face_now: {initial: nine}"),
        (NAMING, f"trump = face_now.colour\n      {NAMING}"),
    )
    state = Game(load_spec("left_bower.yaml", text), 2).new_initial_state(seed=1)
    with pytest.raises(RuleError) as info:
        settled(state)
    assert info.value.code == "RS701"
    assert "'nine.colour': the cards of 'nine' differ in 'colour' (black, red)" in str(info.value)
    assert "read it of a card, or of a kind whose cards share it" in str(info.value)


def test_the_left_of_a_property_is_cards_or_a_kind():
    text = edited(LEFT_BOWER, ("trump.colour then", "current.colour then"))
    assert spec_errors(text) == [
        ("RS204", "the left of '.colour' must be cards or kind, got player")
    ]


def test_a_kinds_property_is_as_hidden_as_the_kind():
    """A kind's property is a fact of the deck: of a suit named in public it is public; of
    the kind of a card some seat may not see, it is as hidden as that kind (RS415 for a
    say(), RL131 for a counter every seat sees)."""
    said = 'say("trumps are {s.colour}")'
    assert load_spec(
        "ok.yaml", edited(LEFT_BOWER, ("{ trump = s }", f"{{ trump = s\n        {said} }}"))
    )
    hidden = "let k = kind_of(top(stock, 1))\n      "
    told = edited(LEFT_BOWER, (NAMING, f'{hidden}say("{{k.colour}}")\n      {NAMING}'))
    assert [code for code, _ in spec_errors(told)] == ["RS415"]

    def counted(value: str) -> list[str]:
        set_ = edited(LEFT_BOWER, (NAMING, f"{hidden}trump = {value}\n      {NAMING}"))
        return [f.code for f in static.static(load_spec("x.yaml", set_)) if f.code == "RL131"]

    assert counted("k.colour") == counted("k") == ["RL131"]


@pytest.mark.parametrize(
    "reads, refused",
    [
        (
            'for k in values("face") { trump = no_kind }\n      for k in values("suit") { trump = k.colour }',
            None,
        ),
        ("trump = (if trump == no_kind then hearts else spades).colour", None),
        ("trump = kind_of(top(stock, 1)).colour", None),
        ("let f = jack\n      trump = f.colour", "that is 'jack'"),
        ("trump = top(stock, 1).face.colour", "that may be 'nine'"),
        ('trump = nth(values("face"), 0).colour', "that may be 'nine'"),
    ],
)
def test_the_kinds_a_read_may_name_are_worked_out_in_the_scope_that_binds_them(reads, refused):
    """A loop's variable over the faces, beside one over the suits of the same name, does
    not make the suits' colour a face's; a let, a kind property and nth() of values()
    are followed to the kinds they may be."""
    text = edited(LEFT_BOWER, (NAMING, f"{reads}\n      {NAMING}"))
    if refused is None:
        assert load_spec("x.yaml", text)
    else:
        [(code, message)] = spec_errors(text)
        assert code == "RS204" and f"'colour' of a kind {refused}" in message
