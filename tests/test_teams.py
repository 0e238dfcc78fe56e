"""Teams (`teams:`, `per_team` zones and counters, a team's win) on the small game
tests/valid/partners.yaml, and Whist's partnerships through the forward model and the
learning environments. Whist's rules are scenarios under tests/scenarios/whist/."""

import json
import random
from pathlib import Path

import pytest
from gamekit import GAMES, cli, spec_errors

from rulespec import load_spec
from rulespec.interpreter import Game, State
from rulespec.interpreter.agents import make_agents, play
from rulespec.lang.expressions import deprecated_names
from rulespec.table.narrate import Titles, narrate

SPEC = Path(__file__).parent / "valid" / "partners.yaml"
TEXT = SPEC.read_text()


def game(n=4, text=TEXT):
    return Game(load_spec("partners.yaml", text), n)


def stash(g, card="coin", score=0):
    """P1 stashes a card into the odd side's chest."""
    state = State.from_layout(
        g,
        1,
        zones={"hand[P1]": [card], "pile": ["stone"] * 3},
        counters={"score[odd]": score},
        current=0,
    )
    state.apply_action(f"stash {card}")
    return state


def test_a_per_team_zone_and_counter_are_one_a_team_read_through_any_member():
    g = game()
    assert [s.label for s in g.slots if s.zone.name == "chest"] == ["chest[odd]", "chest[even]"]
    assert [c for c in g.counter_names if c.startswith("score")] == ["score[odd]", "score[even]"]
    state = stash(g)
    assert state.observation(None)["counters"]["score[odd]"] == 1
    assert state.observation(None)["zones"]["chest[odd]"] == ["coin"]
    # score(current) and score(p) for P3 name the same counter: P3's side wins with P1's coin
    assert g.exprs.expr(load_spec("partners.yaml", TEXT).end_conditions[0].when)(
        stash(g, score=2), {"p": 2}
    )


ALONE = (  # no teams: a zone and a counter of each seat's own
    TEXT.replace("teams:\n  odd: [P1, P3, P5]\n  even: [P2, P4, P6]\n", "").replace(
        "per_team", "per_player"
    )
)


@pytest.mark.parametrize(
    "text, n, out, want",
    [
        (TEXT, 6, (), {0: [2, 4], 1: [3, 5], 4: [0, 2]}),
        (TEXT, 4, (), {0: [2], 3: [1]}),
        (TEXT, 6, (2,), {0: [4], 2: [0, 4]}),  # who is out is no partner: P3 left, or itself
        (ALONE, 4, (), {0: [], 1: []}),
    ],
)
def test_partners_are_the_players_in_of_a_seat_s_team_but_itself(text, n, out, want):
    """A Scopa designer could not say "the other side" in an expression (teams were
    reached through a member only): `partners(p)`."""
    side = "conditions:\n  side: {params: {p: player}, type: players, value: partners(p)}\n"
    g = game(n, text + side)
    partners = g.exprs.expr(g.spec.condition("side").when)
    state = State.from_layout(g, 1, zones={"pile": ["stone"] * 3}, out=out)
    assert {p: list(partners(state, {"p": p})) for p in want} == want


@pytest.mark.parametrize(
    "text, n, out, current, want",
    [
        (TEXT, 6, (), 0, {0: [0, 2, 4], 3: [1, 3, 5]}),
        (TEXT, 6, (), 3, {0: [4, 0, 2], 1: [3, 5, 1]}),  # in the order of seats
        (TEXT, 6, (2,), 0, {0: [0, 2, 4], 2: [0, 2, 4]}),  # who is out is on the team still
        (ALONE, 4, (), 0, {0: [0], 1: [1]}),
    ],
)
def test_team_is_every_seat_of_a_seat_s_team_those_out_included(text, n, out, current, want):
    """A Euchre trial could not tell whether a seat is on the maker's team when the
    maker's partner sat a lone hand out (partners() holds the players in only): `team(p)`
    is to partners(p) as seats is to players."""
    side = "conditions:\n  side: {params: {p: player}, type: players, value: team(p)}\n"
    g = game(n, text + side)
    team = g.exprs.expr(g.spec.condition("side").when)
    state = State.from_layout(g, 1, zones={"pile": ["stone"] * 3}, out=out, current=current)
    assert {p: list(team(state, {"p": p})) for p in want} == want


def test_a_spec_s_own_counter_named_team_keeps_its_meaning_with_a_warning():
    """`team` is reserved since Language v3, as built-ins added after v3 are: a spec
    that named its counter so validates (RS212) and plays the game it played."""
    own = TEXT.replace("score", "team")
    assert deprecated_names(load_spec("partners.yaml", own).notices) == {"team"}
    for seed in (1, 2):
        games = [game(4, text).new_initial_state(seed=seed) for text in (TEXT, own)]
        for state in games:
            play(state, make_agents(["random"], 4, seed))
        assert games[0].returns() == games[1].returns()
        assert games[0].length == games[1].length


def test_an_owner_zone_of_a_team_is_seen_by_every_member_and_no_one_else():
    state = stash(game(6))
    for seat in (0, 2, 4):
        assert state.observation(seat)["zones"]["chest[odd]"] == ["coin"]
    for seat in (1, 3, 5):
        assert state.observation(seat)["zones"]["chest[odd]"] == {"count": 1}
    move = next(e for e in state.log_for(1) if e["event"] == "move" and e["dst"] == "chest[odd]")
    assert move["cards"] is None and move["n"] == 1
    move = next(e for e in state.log_for(2) if e["event"] == "move" and e["dst"] == "chest[odd]")
    assert move["cards"] == ["coin"]


@pytest.mark.parametrize("n, winners", [(4, (0, 2)), (5, (0, 2, 4)), (6, (0, 2, 4))])
def test_a_win_is_the_whole_teams(n, winners):
    state = stash(game(n), score=2)
    assert state.is_terminal() and state.winners == winners
    assert state.result["winners"] == [f"P{p + 1}" for p in winners]
    assert state.returns() == [1.0 if p in winners else -1.0 for p in range(n)]
    end = state.log_for(None)[-1]
    assert end["event"] == "end" and end["winners"] == list(winners)


def test_narration_names_a_teams_zone_by_its_team():
    state = stash(game())
    lines = list(narrate(state.log_for(None), Titles.of(state.game.spec)))
    assert "  Coin: P1's hand -> odd's chest" in lines and "  Score for odd is now 1" in lines


def test_whist_partners_win_together_in_every_game():
    g = Game(load_spec(GAMES / "whist.yaml"), 4)
    for seed in range(20):
        state = play(g.new_initial_state(seed=seed), make_agents(["random"], 4, seed))
        assert state.winners in ((0, 2), (1, 3)), state.result
        assert state.returns() in ([1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, -1.0, 1.0])


def test_whist_in_openspiel_returns_the_sides_result():
    pytest.importorskip("pyspiel")
    import pyspiel

    from rulespec.spiel import register

    game = pyspiel.load_game(register(str(GAMES / "whist.yaml"), "whist_teams_test"))
    state, rng = game.new_initial_state(), random.Random(4)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    returns = state.returns()
    assert returns in ([1.0, -1.0, 1.0, -1.0], [-1.0, 1.0, -1.0, 1.0])


def test_whist_in_pettingzoo_rewards_both_partners():
    pytest.importorskip("pettingzoo")
    from rulespec.env import RulespecEnv

    env = RulespecEnv(str(GAMES / "whist.yaml"), 4)
    env.reset(seed=2)
    pick, final = random.Random(0), {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
        else:
            env.step(pick.choice(obs["action_mask"].nonzero()[0].tolist()))
    rewards = [final[a] for a in env.possible_agents]
    assert rewards == env.state.returns() and rewards[0] == rewards[2] == -rewards[1]


def test_simulate_reports_team_wins():
    code, out, err = cli("simulate", str(SPEC), "--games", "40", "--seed", "1", "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    teams, seats = report["team_wins"], report["seat_wins"]
    assert set(teams) == {"odd", "even"}
    assert teams["odd"]["share"] == seats["P1"]["share"] == seats["P3"]["share"]
    assert teams["even"]["share"] == seats["P2"]["share"]
    code, out, _ = cli("simulate", str(SPEC), "--games", "40", "--seed", "1")
    assert code == 0 and "  team wins        odd " in out


def test_a_spec_without_teams_reports_no_team_wins():
    code, out, _ = cli(
        "simulate", str(GAMES / "take_the_gold.yaml"), "--games", "5", "--format", "json"
    )
    assert code == 0 and "team_wins" not in json.loads(out)


def errors(text):
    return spec_errors(text, "partners.yaml")


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "  even: [P2, P4, P6]",
            "  even: [P2, P4, P6, P3]",
            "seat P3 is in two teams: 'odd' and 'even'",
        ),
        ("  even: [P2, P4, P6]", "  even: [P2, P4]", "P6 in no team: every seat plays for a team"),
        (
            "  even: [P2, P4, P6]",
            "  even: [P2, P4, P6, P7]",
            "team 'even' names seat P7, but the game has at most 6 players",
        ),
        (
            "  even: [P2, P4, P6]",
            "  even: [P2, P4]\n  late: [P6]",
            "team 'late' has no seat in a game of 4 players",
        ),
        (
            "teams:\n  odd: [P1, P3, P5]\n  even: [P2, P4, P6]\n",
            "",
            "zone 'chest' is per_team, but the spec declares no teams",
        ),
        (
            "  chest: {per_team: true,",
            "  chest: {per_team: true, per_player: true,",
            "zone 'chest' is per_team, so it cannot also be per_player",
        ),
        (
            "  score: {per_team: true,",
            "  score: {per_team: true, per_player: true,",
            "counter 'score' is per_team, so it cannot also be per_player",
        ),
    ],
)
def test_teams_that_do_not_split_the_seats_are_rs412(old, new, message):
    assert old in TEXT
    assert ("RS412", message) in errors(TEXT.replace(old, new))


def test_a_team_zone_without_its_owner_is_rs204():
    text = TEXT.replace("to: chest(current)", "to: chest")
    assert [c for c, _ in errors(text)] == ["RS204"]


def test_a_label_that_is_no_seat_is_rs412():
    found = errors(TEXT.replace("[P1, P3, P5]", "[P1, north, P5]"))
    assert ("RS412", "'north' is not a seat: write P1, P2, ...") in found


def test_diff_reports_a_change_of_teams(tmp_path):
    other = tmp_path / "other.yaml"
    other.write_text(
        TEXT.replace("odd: [P1, P3, P5]", "odd: [P1, P2, P5]").replace(
            "even: [P2, P4, P6]", "even: [P3, P4, P6]"
        )
    )
    code, out, _ = cli("diff", str(SPEC), str(other))
    assert code == 0 and out.startswith("changed  game 'teams'")
    code, out, _ = cli("diff", str(SPEC), str(SPEC))
    assert code == 0 and out.strip() == "no semantic differences"


def test_a_rule_reading_the_order_of_sides_is_checked_as_the_turn_passes():
    """`sides` lists a seat of each side from the current player, so a rule reading it
    alone changes as a turn begins: P2's turn makes P2 the first side, and its side wins."""
    g = Game(load_spec(str(Path(__file__).parent / "valid" / "sides_order.yaml")), 4)
    state = play(g.new_initial_state(seed=1), make_agents(["random"], 4, 1))
    assert state.result["winners"] == ["P2", "P4"] and state.result["turns"] == 2
