"""The agents: option syntax, and the ismcts search agent's determinism, blindness to
hidden cards and strength."""

import random
from pathlib import Path

import pytest

from rulespec.interpreter import State
from rulespec.interpreter.agents import (
    MODELS,
    ISMCTSAgent,
    Lookahead,
    make_agents,
    parse_agent,
    play,
)
from rulespec.interpreter.belief import Belief
from rulespec.interpreter.search import Node, Search, random_move
from tests.gamekit import cli, game_for, zone

TTG = "games/take_the_gold.yaml"


# --- options: name:key=value[:key=value] ------------------------------------------------------


def test_options_are_read_and_typed():
    cls, options = parse_agent("ismcts:iterations=40:c=1.5:depth=2:rollout=greedy:seconds=0.5")
    assert cls is ISMCTSAgent
    assert options == {"iterations": 40, "c": 1.5, "depth": 2, "rollout": "greedy", "seconds": 0.5}
    seats = make_agents(["ismcts:iterations=7", "random"], 2, 0)
    assert seats[0].budget["iterations"] == 7 and seats[1].name == "random"


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "ismcts:iterations=0",
            "agent 'ismcts': option 'iterations' must be a whole number from 1 to 1,000,000, not '0'",
        ),
        (
            "ismcts:iterations=many",
            "agent 'ismcts': option 'iterations' must be a whole number from 1 to 1,000,000, not 'many'",
        ),
        (
            "ismcts:seconds=-1",
            "agent 'ismcts': option 'seconds' must be a number above 0 and at most 3,600, not '-1'",
        ),
        (
            "ismcts:seconds=nan",
            "agent 'ismcts': option 'seconds' must be a number above 0 and at most 3,600, not 'nan'",
        ),
        (
            "ismcts:particles=100000000000000000000",
            "agent 'ismcts': option 'particles' must be a whole number from 0 to 10,000, "
            "not '100000000000000000000'",
        ),
        (
            "ismcts:iterations=1000001",
            "agent 'ismcts': option 'iterations' must be a whole number from 1 to 1,000,000, "
            "not '1000001'",
        ),
        ("ismcts:c=inf", "agent 'ismcts': option 'c' must be a number from 0 to 1,000, not 'inf'"),
        (
            "ismcts:depth=1001",
            "agent 'ismcts': option 'depth' must be a whole number from 1 to 1,000, not '1001'",
        ),
        (
            "ismcts:rollout=smart",
            "agent 'ismcts': option 'rollout' must be random or greedy, not 'smart'",
        ),
        (
            "ismcts:budget=3",
            "agent 'ismcts': unknown option 'budget' (ismcts takes iterations, seconds, c, depth, rollout, particles, model, reuse)",
        ),
        (
            "ismcts:iterations",
            "agent 'ismcts': option 'iterations' needs one value, as iterations=VALUE",
        ),
        ("ismcts:c=1:c=2", "agent 'ismcts': option 'c' is given twice"),
        # int() reads Arabic-Indic digits; an option is written in ASCII ones
        (
            "ismcts:iterations=\u0663",
            "agent 'ismcts': option 'iterations' must be a whole number from 1 to 1,000,000, not '\u0663'",
        ),
        ("random:seed=3", "agent 'random': unknown option 'seed' (random takes no options)"),
        ("clever:depth=2", "unknown agent 'clever'; known: random, first, greedy, ismcts"),
    ],
)
def test_a_bad_option_names_the_agent_and_the_option(text, message):
    with pytest.raises(ValueError) as caught:
        parse_agent(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "command",
    [
        ["run", TTG],
        ["simulate", TTG, "--games", 2],
        ["lint", TTG, "--simulate", 2],
        ["diff", TTG, TTG, "--simulate", 2],
    ],
)
def test_a_bad_option_is_a_usage_error_on_every_command_that_plays(command):
    code, out, err = cli(*command, "--agents", "random,ismcts:depth=0,random,random")
    assert (code, out) == (2, "")
    assert err == (
        f"rulespec {command[0]}: agent 'ismcts': option 'depth' must be a whole number "
        f"from 1 to 1,000, not '0'\n"
    )


# --- ismcts -----------------------------------------------------------------------------------


def _game(agents, seed, players=2):
    return play(
        game_for("take_the_gold", players).new_initial_state(seed=seed),
        make_agents(agents, players, seed),
    )


def test_ismcts_is_deterministic_for_a_seed_and_an_iteration_budget():
    first, again = (_game(["ismcts:iterations=30", "random"], 4) for _ in range(2))
    assert first.log_for(None) == again.log_for(None)
    other = _game(["ismcts:iterations=30", "random"], 5)
    assert other.log_for(None) != first.log_for(None)


# P1 sees its hand and the public zones; what P2 holds and the draw pile's order differ.
# The draw pile's top card is the same, so P1's first draw is too.
SEEN = {
    "hand[P1]": ["pirate", "gold_coin", "kraken", "two_pirates"],
    "discard_pile": ["pirate_captain"],
}
TRUE_HIDDEN = [
    {
        "hand[P2]": ["officer", "two_officers"],
        "draw_pile": ["gold_coin", "kraken", "pirate", "gold_coin"],
    },
    {
        "hand[P2]": ["gold_coin", "kraken"],
        "draw_pile": ["gold_coin", "two_officers", "officer", "pirate"],
    },
]


def _decisions(layout, seed: int) -> list[str]:
    """P1's choices while P1 acts, by an ismcts agent seeded `seed`; P1's observation
    before each choice is recorded with it."""
    state = State.from_layout(game_for("take_the_gold", 2), seed=1, zones=SEEN | layout)
    agent = ISMCTSAgent(seed, iterations=60)
    made = []
    while state.current_player() == 0 and len(made) < 4:
        options = state.legal_actions()
        choice = agent.choose(None, options, Lookahead(state, 0))
        made.append((state.observation(0), choice.label))
        state.apply_action(choice)
    return made


def test_ismcts_decides_alike_whatever_the_hidden_cards_are():
    a = State.from_layout(game_for("take_the_gold", 2), seed=1, zones=SEEN | TRUE_HIDDEN[0])
    b = State.from_layout(game_for("take_the_gold", 2), seed=1, zones=SEEN | TRUE_HIDDEN[1])
    assert a.observation(0) == b.observation(0) and zone(a, "hand[P2]") != zone(b, "hand[P2]")
    decisions = 0
    for seed in range(6):
        one, other = _decisions(TRUE_HIDDEN[0], seed), _decisions(TRUE_HIDDEN[1], seed)
        assert one == other
        decisions += len(one)
    assert decisions >= 6


def test_ismcts_beats_random_at_take_the_gold():
    """Seats rotated over 30 two-player games: a fair share is 15 wins; with these seeds
    it takes 26, and a coin would reach 21 in 2 % of runs."""
    me, wins = "ismcts:iterations=40", 0
    for seed in range(100, 130):
        agents = [me, "random"] if seed % 2 == 0 else ["random", me]
        wins += agents.index(me) in _game(agents, seed).winners
    assert wins >= 21


def test_ismcts_plays_a_spec_without_an_evaluation_by_its_result_alone(tmp_path):
    spec = tmp_path / "plain.yaml"
    text = Path(TTG).read_text(encoding="utf-8")
    spec.write_text(text[: text.index("\nevaluation:")] + "\n")
    assert cli("run", spec, "--players", 2, "--agents", "ismcts:iterations=5")[0] == 0
    code, _, err = cli(
        "run", spec, "--players", 2, "--agents", "ismcts:iterations=5:rollout=greedy"
    )
    assert (code, err) == (
        2,
        f"rulespec run: the ismcts agent with greedy rollouts needs an evaluation "
        f"in the spec; {spec} has none\n",
    )


# --- every command that plays takes --agents, --seed and --workers ---------------------------------


def test_diff_simulate_plays_the_agents_asked_for_and_workers_do_not_change_it():
    argv = [
        "diff",
        TTG,
        TTG,
        "--simulate",
        6,
        "--players",
        2,
        "--agents",
        "greedy",
        "--seed",
        3,
        "--json",
    ]
    code, out, _ = cli(*argv)
    assert code == 0 and cli(*argv, "--workers", 2)[1] == out
    assert cli(*argv[:-1], "--agents", "random", "--json")[1] != out


def test_lint_simulate_names_the_agents_that_played():
    code, out, _ = cli(
        "lint", TTG, "--simulate", 3, "--agents", "first", "--seed", 5, "--workers", 2
    )
    assert code == 0
    assert "never fired in 3 first games of 2 to 6 players, nor in 3 greedy ones" in out


def _search_at_p1s_choice(iterations: int) -> tuple[Search, State]:
    state = State.from_layout(game_for("take_the_gold", 2), seed=1, zones=SEEN | TRUE_HIDDEN[0])
    assert state.current_player() == 0 and len(state.legal_actions()) > 2
    search = Search(
        state,
        0,
        random.Random(3),
        iterations=iterations,
        seconds=None,
        c=0.7,
        depth=4,
        rollout=random_move,
    )
    return search, state


def test_ismcts_plays_the_option_of_best_mean_value_not_the_most_visited():
    search, state = _search_at_p1s_choice(iterations=0)  # the tree is set by hand
    options, kind = state.legal_actions(), state.decision_kind()
    for option, visits, total in [(options[0], 9, 0.9), (options[1], 2, 0.6), (options[2], 9, 1.8)]:
        node = search.root.children[(0, kind, option.label)] = Node(0)
        node.visits, node.total = visits, total
    assert search.best(options) is options[1]


def test_ismcts_rollouts_stop_at_the_searching_seats_own_choice():
    search, state = _search_at_p1s_choice(iterations=1)
    copy = state.clone(log=False)
    search.play_out(copy)  # P1 is to choose: the tree's move, not the rollout's
    assert copy.observation(0) == state.observation(0) and copy.current_player() == 0


# --- belief: particles re-weighted by what the other seats were seen to do ---------------

# Two tables P1 cannot tell apart, P2 to act; P2 may play its kraken in both.
P2_HIDDEN = [
    {
        "hand[P2]": ["officer", "two_officers", "kraken"],
        "draw_pile": ["gold_coin", "kraken", "pirate", "gold_coin"],
    },
    {
        "hand[P2]": ["gold_coin", "kraken", "officer"],
        "draw_pile": ["gold_coin", "two_officers", "kraken", "pirate"],
    },
]


def _p2_to_act(hidden: dict) -> State:
    return State.from_layout(game_for("take_the_gold", 2), seed=1, zones=SEEN | hidden, current=1)


def test_a_redeal_like_a_belief_gives_each_hidden_zone_the_believed_types():
    truth, believed = (_p2_to_act(h) for h in P2_HIDDEN)
    world = truth.clone()
    world.redeal(0, random.Random(3), canonical=True, like=believed.hidden_deal(0))
    assert world.observation(0) == truth.observation(0)
    assert sorted(zone(world, "hand[P2]")) == sorted(zone(believed, "hand[P2]"))
    assert sorted(zone(world, "draw_pile")) == sorted(zone(believed, "draw_pile"))


def test_a_redeal_like_a_deal_the_view_no_longer_allows_shares_the_shortfall_out():
    """The deal wants four coins where three are unseen (the seat has seen one since):
    which zone goes without is dealt at random, in proportion to what each wants, not
    always the zone listed last (that bias drained the believed hands of what the seat
    saw, and made the belief's deals worse than fresh ones)."""
    truth = _p2_to_act(  # P2 draws the first coin
        {
            "hand[P2]": ["officer", "kraken"],
            "draw_pile": ["gold_coin", "gold_coin", "gold_coin", "pirate", "two_officers"],
        }
    )
    kind = truth.game.type_names.index
    hand, pile = truth.game.hand + 1, truth.game.start_slot  # P2's hand, the draw pile
    believed = {
        hand: tuple(map(kind, ["gold_coin", "officer", "kraken"])),
        pile: tuple(map(kind, ["gold_coin", "gold_coin", "gold_coin", "pirate"])),
    }
    runs, kept = 400, 0
    for seed in range(runs):
        world = truth.clone(log=False)
        world.redeal(0, random.Random(seed), canonical=True, like=believed)
        kept += "gold_coin" in zone(world, "hand[P2]")
    assert 0.6 * runs < kept < 0.9 * runs  # its one coin of the four wanted: 3/4


def test_a_belief_weighs_the_option_taken_against_each_worlds_own_options():
    """The decision is asked again in every world, from the world's cards: the model is
    given the world's options (a pirate's play where the world deals one), never the
    true table's (P2 truly holds no pirate)."""
    offered = []

    def model(world, who, taken, options, rng):
        offered.append({o.label.split(" ")[0] for o in options})
        return 1.0

    truth = _p2_to_act(P2_HIDDEN[0])
    assert not any(label.startswith("pirate ") for label in truth.legal_labels())
    Belief(0, random.Random(0), 40, model).observe(truth, 1, "kraken -> P1")
    assert offered and all("kraken" in kinds for kinds in offered)
    assert any("pirate" in kinds for kinds in offered)


def test_a_belief_rules_out_the_worlds_where_the_rules_forbid_what_was_seen():
    """P2 plays a kraken: no world in which P2 held none is weighed, and some are ruled out."""
    hands = []

    def model(world, who, taken, options, rng):
        hands.append(zone(world, "hand[P2]"))
        return 1.0

    belief = Belief(0, random.Random(0), 40, model)
    belief.observe(_p2_to_act(P2_HIDDEN[0]), 1, "kraken -> P1")
    assert hands and all("kraken" in hand for hand in hands)
    assert len(hands) < 40


def test_a_belief_is_a_function_of_what_its_seat_saw():
    """Two tables alike to P1, P2 seen to play the same card: the same particles."""
    beliefs = []
    for hidden in P2_HIDDEN:
        belief = Belief(0, random.Random(0), 20, MODELS["greedy"])
        belief.observe(_p2_to_act(hidden), 1, "kraken -> P1")
        beliefs.append((belief.deals, belief.weights))
    assert beliefs[0] == beliefs[1]
    assert any(deal is not None for deal in beliefs[0][0])


def test_ismcts_with_a_belief_and_a_kept_tree_is_deterministic_for_a_seed():
    agent = "ismcts:iterations=30:particles=8:model=greedy"
    first, again = (_game([agent, "random"], 4) for _ in range(2))
    assert first.log_for(None) == again.log_for(None)


def test_ismcts_keeps_the_tree_below_its_choice_and_follows_the_choices_it_sees():
    state = _p2_to_act(P2_HIDDEN[0])
    state.apply_action("pass")
    agent = ISMCTSAgent("seed", iterations=60)
    choice = agent.choose(None, state.legal_actions(), Lookahead(state, 0))
    assert agent.node is not None and agent.node.visits > 0
    kept = agent.node
    agent.watch(state, 0, 1, "no such option")  # an edge the tree lacks: nothing kept
    assert agent.node is None and kept.visits > 0 and choice.label in state.legal_labels()


SOLITAIRE = """
rulespec: 1
name: Hold On
players: {min: 1, max: 1}
deck:
  cards:
    chip: {count: 3}
zones:
  pile: {visibility: public, start: true}
  done: {visibility: public}
evaluation: 0 - 5 + size(done)
turn:
  - step: go
    effect: |
      choose(current) {
        "give_up" { end_game() }
        "hold_on" { move(top(pile, 1), done) }
      }
end_conditions:
  all_done:
    when: size(pile) == 0
    effect: win(current)
"""


def test_greedy_alone_counts_a_game_nobody_won_as_lost():
    """A Klondike designer's greedy gave up (a game over, nobody winning, scored 0)
    wherever its evaluation was below 0: for a seat without a rival a game nobody won
    is lost, not drawn."""
    from rulespec import load_spec
    from rulespec.interpreter import Game

    state = Game(load_spec("hold_on.yaml", SOLITAIRE), 1).new_initial_state(seed=0)
    give_up, hold_on = sorted(state.legal_actions(), key=lambda o: o.label)
    look, rng = Lookahead(state, 0), random.Random(0)
    assert look.score(give_up, rng) == Lookahead.LOSS
    assert look.score(hold_on, rng) == -4
    state = play(state, make_agents(["greedy"], 1, 0))
    assert list(state.winners) == [0]


def test_the_search_alone_values_a_game_nobody_won_as_lost():
    """As greedy: a give-up scored 0, above any leaf whose evaluation was below 0."""
    from rulespec import load_spec
    from rulespec.interpreter import Game
    from rulespec.interpreter.search import value

    state = Game(load_spec("hold_on.yaml", SOLITAIRE), 1).new_initial_state(seed=0)
    given_up = state.clone()
    given_up.apply_action("give_up")
    assert given_up.is_terminal() and value(given_up, [0.0]) == [-1.0]
    state = play(state, make_agents(["ismcts:iterations=20"], 1, 0))
    assert list(state.winners) == [0]
