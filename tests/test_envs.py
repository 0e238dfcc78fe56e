"""The engine inside PettingZoo (rulespec.env) and OpenSpiel (rulespec.spiel): each
test skips unless its extra (`rl`, `openspiel`) is installed."""

import pickle
import random
import re

import pytest
from gamekit import BOOM, GAMES, ROOT

from rulespec import load_spec

SPECS = (
    sorted(GAMES.glob("*.yaml"))
    + sorted(GAMES.glob("variants/*/*.yaml"))
    + [
        # a sample of the small valid specs (routines can end in its setup, before anyone
        # acts, which api_test forbids)
        ROOT / "tests/valid" / name
        for name in (
            "building_piles.yaml",  # a zone as a play's target
            "claim_challenge.yaml",
            "high_card_rounds.yaml",
            "peek_and_bury.yaml",
            "rows.yaml",
            "turn_taking.yaml",
        )
    ]
)


def _step_at_random(state, pick: random.Random) -> None:
    """Chance drawn by the state, or a legal option picked at random."""
    if state.is_chance_node():
        state.sample_chance()
    else:
        state.apply_action(pick.choice(state.legal_labels()))


def _played_by(spiel_game, bot, rng):
    """A whole OpenSpiel game of `bot` for every seat, chance drawn by `rng` (numpy's)."""
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    return state


def _env(path, players=None, **kw):
    pytest.importorskip("pettingzoo")
    from rulespec.env import RulespecEnv

    return RulespecEnv(str(path), players, **kw)


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_pettingzoo_api(path):
    pytest.importorskip("pettingzoo.test").api_test(_env(path), num_cycles=200)


@pytest.mark.parametrize(
    "name, players", [("take_the_gold", 2), ("take_the_gold", 6), ("pirates_wild", 4)]
)
def test_pettingzoo_api_at_other_player_counts(name, players):
    env = _env(GAMES / f"{name}.yaml", players)
    pytest.importorskip("pettingzoo.test").api_test(env, num_cycles=200)
    assert env.possible_agents == [f"P{p}" for p in range(1, players + 1)]


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.yaml")), ids=lambda p: p.stem)
def test_pettingzoo_seed_test_for_every_bundled_game(path):
    """PettingZoo's seed_test: the same seed, the same observations (views are worked
    out lazily, and must not depend on which were asked for before)."""
    pytest.importorskip("pettingzoo.test").seed_test(lambda: _env(path))


def test_pettingzoo_seed_and_render():
    test = pytest.importorskip("pettingzoo.test")
    path = GAMES / "take_the_gold.yaml"
    test.seed_test(lambda: _env(path, 3))
    test.render_test(lambda render_mode=None: _env(path, 3, render_mode=render_mode))


def _play(env, seed, pick):
    """Play one game, choosing among the masked actions with `pick`; the trace of
    (agent, observation vector, reward) at each step."""
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        trace.append((agent, obs["observation"].tolist(), reward))
        env.step(
            None
            if terminated or truncated
            else pick.choice(obs["action_mask"].nonzero()[0].tolist())
        )
    return trace


def test_same_seed_and_choices_same_game():
    env = _env(GAMES / "take_the_gold.yaml", 3)
    assert _play(env, 5, random.Random(1)) == _play(env, 5, random.Random(1))
    assert _play(env, 5, random.Random(1)) != _play(env, 6, random.Random(1))


@pytest.mark.parametrize(
    "name, players, turn_limit", [("take_the_gold", 3, None), ("pirates_wild", 2, 20)]
)
def test_mask_is_the_legal_options_and_rewards_are_the_result(name, players, turn_limit):
    env = _env(GAMES / f"{name}.yaml", players, turn_limit=turn_limit)
    env.reset(seed=3)
    pick, final = random.Random(0), {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert env.observation_space(agent).contains(obs)  # the turn limit's turn too
        if terminated or truncated:
            final[agent] = reward, truncated
            env.step(None)
            continue
        legal = [env.action_labels[a] for a in obs["action_mask"].nonzero()[0]]
        assert legal == env.legal_labels() and info["observation"]["seat"] == agent
        env.step(pick.choice(obs["action_mask"].nonzero()[0].tolist()))
    state = env.state
    assert [final[a][0] for a in env.possible_agents] == state.returns()
    cut_short = state.reason == "turn_limit"
    assert cut_short == (turn_limit is not None)  # a winner, or (pirates) the limit reached
    assert [truncated for _, truncated in final.values()] == [cut_short] * players
    assert any(state.returns()) != cut_short


def test_an_info_copied_holds_its_observation():
    """An info's observation is worked out when first read; every way of copying or
    comparing the info reads it too, so no copy holds the placeholder."""
    import copy

    env = _env(GAMES / "take_the_gold.yaml", 3)
    env.reset(seed=3)
    copies = []
    for make in (dict, lambda i: i.copy(), copy.deepcopy, lambda i: {**i}, lambda i: i | {}):
        *_, info = env.last()  # a new info each time: none read yet
        copies.append(make(info))
    seen = env.last()[-1]["observation"]
    assert seen["seat"] == env.agent_selection
    assert copies == [{"observation": seen}] * 5
    assert env.last()[-1] == {"observation": seen}


def test_an_info_not_read_is_handed_out_again_and_a_read_one_keeps_its_view():
    """A step makes an info only for a seat whose last one was read (or written): one
    nobody read is handed out again, and shows the game as it is when read; one read
    keeps what it showed, one written keeps what was written, and neither comes again."""
    env = _env(GAMES / "take_the_gold.yaml", 2)
    env.reset(seed=1)
    agent = env.agent_selection

    def its_next_turn():
        env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
        while env.agent_selection != agent:
            env.step(int(env.last()[0]["action_mask"].nonzero()[0][0]))
        return env.last()[-1]

    first = env.last()[-1]
    again = its_next_turn()
    assert again is first  # nobody read it
    turn = env.state.turn
    assert again["observation"]["turn"] == turn
    after = its_next_turn()
    assert after is not first and env.state.turn > turn
    assert first["observation"]["turn"] == turn  # read: it keeps what it showed
    after["mine"] = 1
    later = its_next_turn()
    assert later is not after and "mine" not in later and after["mine"] == 1


def test_action_space_is_fixed_for_a_spec_and_player_count():
    from rulespec.interpreter import Game
    from rulespec.table.encoding import ActionSpace

    spec = load_spec(GAMES / "take_the_gold.yaml")
    labels = ActionSpace(Game(spec, 3)).labels
    assert labels == ActionSpace(Game(spec, 3)).labels and labels == tuple(sorted(labels))
    assert {"pass", "no reaction", "kraken -> P3", "two_officers_block"} <= set(labels)
    assert "kraken -> P4" not in labels and "kraken -> P4" in ActionSpace(Game(spec, 4)).labels


ALL_SPECS = (
    sorted(GAMES.glob("*.yaml"))
    + sorted(GAMES.glob("variants/*/*.yaml"))
    + sorted((ROOT / "tests/valid").glob("*.yaml"))
)


# a few seconds each: in the slow step, so the everyday suite keeps to 3 minutes
SLOW_SPACES = {"knock", "whist", "blackjack", "cribbage"}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=[pytest.mark.slow] if p.stem in SLOW_SPACES else []) for p in ALL_SPECS],
    ids=lambda p: p.stem,
)
def test_action_space_holds_every_option_offered(path):
    """Random games at the fewest and most players: each option offered is in the space."""
    from rulespec.interpreter import Game
    from rulespec.table.encoding import ActionSpace

    spec = load_spec(path)
    for n in sorted({spec.min_players, spec.max_players}):
        game = Game(spec, n)
        space, pick = ActionSpace(game), random.Random(n)
        for seed in range(4):
            state = game.new_initial_state(seed, log=False, turn_limit=150)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.sample_chance()
                    continue
                labels = state.legal_labels()
                assert all(label in space.index for label in labels), (n, labels)
                state.apply_action(pick.choice(labels))


def test_observation_vector_layout():
    env = _env(GAMES / "take_the_gold.yaml", 3)
    env.reset(seed=2)
    names = env.encoder.names()
    vec = env.observe("P2")["observation"]
    assert len(names) == len(vec) == env.encoder.size
    table = env.state.observation(1)
    at = {name: value for name, value in zip(names, vec)}
    assert at["seat=P2"] == 1 and at["seat=P1"] == 0
    assert at["size[hand[P1]]"] == table["zones"]["hand[P1]"]["count"]
    assert sum(at[f"hand[P1].{t}"] for t in env.game.type_names) == 0  # P2 cannot see P1's hand
    assert sum(at[f"hand[P2].{t}"] for t in env.game.type_names) == len(table["zones"]["hand[P2]"])


@pytest.fixture(scope="module")
def spiel_game():
    pyspiel = pytest.importorskip("pyspiel")
    from rulespec.spiel import register

    return pyspiel.load_game(register(GAMES / "take_the_gold.yaml"), {"players": 3})


def test_openspiel_random_simulation(spiel_game):
    import pyspiel

    pyspiel.random_sim_test(spiel_game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_random_simulation_of_plays_onto_chosen_zones():
    """A play's target zone (`target: zone`) is an action of the fixed space."""
    pyspiel = pytest.importorskip("pyspiel")
    from rulespec.spiel import register

    game = pyspiel.load_game(register(ROOT / "tests/valid/building_piles.yaml"), {"players": 3})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_openspiel_mcts_plays_a_full_game(spiel_game):
    import numpy as np

    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(
        spiel_game,
        uct_c=2,
        max_simulations=10,
        evaluator=mcts.RandomRolloutEvaluator(1, rng),
        random_state=rng,
    )
    state = _played_by(spiel_game, bot, rng)
    assert sorted(state.returns()) in ([-1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    assert state.returns() == state.table.returns()


def test_openspiel_information_state_is_the_seats_view(spiel_game):
    state = spiel_game.new_initial_state()
    rng = random.Random(4)
    for _ in range(12):  # the shuffle, the deal, a few moves
        if state.is_chance_node():
            actions, _ = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    redealt = state.clone()
    redealt.table.redeal(0, random.Random(9))  # other hands change, P1's view does not
    assert redealt.information_state_string(0) == mine
    assert redealt.observation_string(0) == state.observation_string(0)
    assert redealt.table.observation(None) != state.table.observation(None)
    assert redealt.information_state_string(1) != theirs or redealt.observation_string(
        1
    ) != state.observation_string(1)
    for seat in range(3):  # each string told again for the redealt table, none kept stale
        now = redealt.information_state_string(seat).split("\n")[0]
        assert now == redealt.observation_string(seat)


def test_pettingzoo_step_refuses_what_is_not_a_legal_action_number():
    """Issue 24: step(-12) played action 10, step("10") was accepted, step(22) raised a
    bare IndexError; numpy's integers, as masks and spaces give them, are numbers."""
    np = pytest.importorskip("numpy")
    env = _env(GAMES / "take_the_gold.yaml", 3)
    env.reset(seed=1)
    size, legal = len(env.action_labels), env.last()[0]["action_mask"].nonzero()[0].tolist()
    illegal = next(a for a in range(size) if a not in legal)
    before = env.state.length
    for action, message in (
        (-12, f"action -12 is outside the action space, 0 to {size - 1}"),
        (size, f"action {size} is outside the action space, 0 to {size - 1}"),
        ("10", f"an action is a whole number from 0 to {size - 1}, not '10'"),
        (True, f"an action is a whole number from 0 to {size - 1}, not True"),
        (1.0, f"an action is a whole number from 0 to {size - 1}, not 1.0"),
        (illegal, f"action {illegal} ({env.action_labels[illegal]}) is not legal now; legal: "),
    ):
        with pytest.raises(ValueError) as refused:
            env.step(action)
        assert str(refused.value).startswith(message)
    assert env.state.length == before  # nothing was played
    env.step(np.int64(legal[0]))
    assert env.state.length > before


@pytest.mark.parametrize("parallel", [False, True])
def test_pettingzoo_refuses_a_game_nobody_decides_in(parallel):
    """A spec whose players never choose (its setup and triggers play it out) has no
    action to number: gymnasium has no empty space, and the refusal says so (a fuzz
    case: gymnasium's own ValueError escaped)."""
    pytest.importorskip("pettingzoo")
    from rulespec.env import RulespecEnv, RulespecParallelEnv

    env = RulespecParallelEnv if parallel else RulespecEnv
    with pytest.raises(ValueError, match="The Show gives its players no decision to make"):
        env(str(ROOT / "tests/valid/the_show.yaml"), 2)


def test_openspiel_refuses_what_is_not_a_legal_action_number(spiel_game):
    """Issue 24: apply_action(-8) was played (a chance outcome counted from the end) and
    stored in history()."""
    state = spiel_game.new_initial_state()
    size = spiel_game.max_chance_outcomes()
    for action, message in (
        (-8, f"action -8 is outside the action space, 0 to {size - 1}"),
        (size, f"action {size} is outside the action space, 0 to {size - 1}"),
        (True, f"an action is a whole number from 0 to {size - 1}, not True"),
        ("10", f"an action is a whole number from 0 to {size - 1}, not '10'"),
        (0, "action 0 (P1) is not legal now; legal: "),  # a shuffle's outcomes are seeds
    ):
        with pytest.raises(ValueError) as refused:
            state.apply_action(action)
        assert str(refused.value).startswith(message)
        if type(action) is int:  # OpenSpiel's own calls reach the same check
            with pytest.raises(ValueError):
                state.child(action)
    assert state.history() == []
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    legal = state.legal_actions()
    illegal = next(a for a in range(spiel_game.num_distinct_actions()) if a not in legal)
    with pytest.raises(ValueError, match=rf"^action {illegal} \(.*\) is not legal now"):
        state.apply_action(illegal)
    state.apply_action(legal[0])
    assert state.history()[-1] == legal[0]


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_observation_vector_from_tallies_is_the_observations(path):
    """The environments encode a seat's view from `State.tallies` (issue 29: building the
    observation dict was most of a step); it must be the vector of the dict, for every
    seat, in every state of random games, hidden zones' known cards included; and so
    must the array the environments hand out (`encode_array`, from `State.tallies_into`)."""
    pytest.importorskip("numpy")
    from rulespec.interpreter import Game
    from rulespec.table.encoding import ObservationEncoder

    spec = load_spec(path)
    game = Game(spec, spec.default_players)
    encoder, pick, known = ObservationEncoder(game), random.Random(1), 0
    for seed in range(3):
        state = game.new_initial_state(seed, log=False, turn_limit=40)
        while not state.is_terminal():
            for seat in range(game.n):
                seen = state.observation(seat)
                vector = encoder.encode_state(state, seat)
                assert vector == encoder.encode(seen), seat
                assert encoder.encode_array(state, seat).tolist() == vector, seat
                known += any("revealed" in z for z in seen["zones"].values() if type(z) is dict)
            _step_at_random(state, pick)
    if path.stem in ("take_the_gold", "pirates_wild"):
        assert known  # the known cards of hidden zones were compared, not only sizes


def test_openspiel_ismcts_plays_through_resample_from_infostate(spiel_game):
    """OpenSpiel's own ISMCTSBot samples its worlds with the state's
    resample_from_infostate (no rulespec API): each sample shows the searching seat
    what the true state shows it, and deals the cards it cannot see again."""
    import numpy as np

    ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
    mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
    from rulespec.spiel import SpecState

    rng = np.random.RandomState(3)
    bot = ismcts.ISMCTSBot(
        spiel_game,
        mcts.RandomRolloutEvaluator(1, rng),
        uct_c=2.0,
        max_simulations=8,
        random_state=rng,
        allow_inconsistent_action_sets=True,  # another deal, other options for the others
    )
    samples, resample = [], SpecState.resample_from_infostate

    def spy(state, player, sampler):
        world = resample(state, player, sampler)
        mine, theirs = (s.information_state_string(player) for s in (state, world))
        hidden = [s.table.observation(None) for s in (state, world)]
        samples.append((mine == theirs, hidden[0] != hidden[1]))
        return world

    SpecState.resample_from_infostate = spy
    try:
        state = _played_by(spiel_game, bot, rng)
    finally:
        SpecState.resample_from_infostate = resample
    assert sorted(state.returns()) in ([-1.0, -1.0, 1.0], [-1.0, 1.0, 1.0], [0.0, 0.0, 0.0])
    assert len(samples) >= 8  # a world per simulation, at every decision with a choice
    assert all(alike for alike, _ in samples)  # the seat cannot tell a sample from the truth
    assert any(redealt for _, redealt in samples)  # the hidden cards dealt again, not copied


def test_openspiel_states_copy_and_pickle(spiel_game, tmp_path):
    """copy.deepcopy is clone(); pickle and OpenSpiel's serialization keep the game and
    history and play them again, pickle in a process that never registered the spec
    too; a re-dealt world is refused, not loaded as the table it was dealt from."""
    import copy
    import subprocess
    import sys

    state, pick = spiel_game.new_initial_state(), random.Random(5)
    for _ in range(12):
        state.apply_action(pick.choice(state.legal_actions()))
    assert not state.is_terminal()
    copied = copy.deepcopy(state)
    assert (str(copied), copied.history()) == (str(state), state.history())
    copied.apply_action(copied.legal_actions()[0])
    assert len(copied.history()) == len(state.history()) + 1  # its own, not shared
    loaded = pickle.loads(pickle.dumps(state))
    assert (str(loaded), loaded.history()) == (str(state), state.history())
    assert loaded.information_state_string(1) == state.information_state_string(1)
    (tmp_path / "state.pickle").write_bytes(pickle.dumps(state))
    elsewhere = subprocess.run(
        [sys.executable, "-c", "import pickle, sys; print(pickle.load(open(sys.argv[1], 'rb')))"]
        + [str(tmp_path / "state.pickle")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert elsewhere.stdout.strip() == str(state)
    import pyspiel

    _, again = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(spiel_game, state)
    )
    assert (str(again), again.history()) == (str(state), state.history())
    world = state.resample_from_infostate(0, random.Random(3).random)
    assert str(world) != str(state) and str(copy.deepcopy(world)) == str(world)
    for keep in (pickle.dumps, lambda w: pyspiel.serialize_game_and_state(spiel_game, w)):
        with pytest.raises(pickle.PicklingError, match="clone"):
            keep(world)


def test_openspiel_names_parameters_and_no_information_state_tensor(tmp_path):
    """An AI engineer's trial: a second spec of the same file name took the first's
    name in silence (and its pickles loaded under the other rules); the game could not
    be capped; its information-state tensor was the observation tensor. Now: a name
    taken is a ValueError; `turn_limit` and `shuffles` are game parameters; the
    information-state tensor is refused."""
    import pyspiel

    from rulespec.spiel import register

    name = register(GAMES / "pirates_wild.yaml")
    assert register(GAMES / "pirates_wild.yaml") == name  # the same file again
    other = tmp_path / "pirates_wild.yaml"
    other.write_text((GAMES / "pirates_wild.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(ValueError, match="registered already"):
        register(other)
    chained = load_spec(
        GAMES / "take_the_gold.yaml",
        variants=[
            GAMES / "variants/take_the_gold/long_5.yaml",
            GAMES / "variants/take_the_gold/advanced.yaml",
        ],
    )
    register(chained, "rulespec_ttg_chained")
    with pytest.raises(ValueError, match=r"registered already, for Take the Gold \(long_5\)"):
        register(GAMES / "variants/take_the_gold/advanced.yaml", "rulespec_ttg_chained")
    game = pyspiel.load_game(name, {"players": 2, "turn_limit": 12, "shuffles": 1000})
    state, pick, sizes = game.new_initial_state(), random.Random(2), set()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            sizes.add(len(outcomes))
            state.apply_action(pick.choice(outcomes)[0])
        else:
            state.apply_action(pick.choice(state.legal_actions()))
    assert 1000 in sizes  # the setup's shuffle: one of 1,000 orders
    assert state.table.result["reason"] == "turn_limit" and state.table.result["turns"] == 12
    for bad in ({"shuffles": 0}, {"turn_limit": 0}):
        with pytest.raises(ValueError, match="must be a whole number"):
            pyspiel.load_game(name, bad)
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        state.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError, match="no information-state tensor"):
        game.information_state_tensor_shape()


def test_openspiel_information_state_differs_when_the_seat_saw_something_else(spiel_game):
    """Two states a seat can tell apart (its own hand differs after the same deal steps)
    give it different strings; the string is compact lines, not JSON."""
    states = []
    for shuffle in (0, 1):
        state = spiel_game.new_initial_state()
        state.apply_action(state.chance_outcomes()[shuffle][0])  # the first shuffle differs
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        states.append(state)
    a, b = (s.information_state_string(0) for s in states)
    assert states[0].table.observation(0) != states[1].table.observation(0)
    assert a != b and not a.startswith('{"') and "\nturn 1\n" in a + "\n"
    assert a == states[0].information_state_string()  # the current player's, P1's here
    assert states[0].current_player() == 0


def test_openspiel_views_asked_of_no_seat_raise_one_spiel_error(spiel_game, capfd):
    """An AI engineer asked a chance node for its views: information_state_string()
    raised ValueError 'no seat <PlayerId.CHANCE: -1>', observation_string() and
    observation_tensor() OpenSpiel's SpielError 'player >= 0' from C++, which printed an
    'OpenSpiel exception' line too. All three raise SpielError, as OpenSpiel's own
    Python games do, saying whose node it is and which seats to ask."""
    import numpy as np
    import pyspiel

    state = spiel_game.new_initial_state()
    assert state.is_chance_node()
    views = ("information_state_string", "observation_string", "observation_tensor")
    chance = r"^a chance node: no seat is to act here; ask for a seat's view, 0 to 2$"
    for view in views:
        with pytest.raises(pyspiel.SpielError, match=chance):
            getattr(state, view)()
        for player in (-1, pyspiel.PlayerId.CHANCE, 3, True, "0"):
            with pytest.raises(pyspiel.SpielError, match=r"^no seat .*: the seats are 0 to 2$"):
                getattr(state, view)(player)
    state.apply_action(state.chance_outcomes()[0][0])
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        state.apply_action((actions or state.legal_actions())[0])
    over = r"^the game is over: no seat is to act here; ask for a seat's view, 0 to 2$"
    for view in views:
        with pytest.raises(pyspiel.SpielError, match=over):
            getattr(state, view)()
        assert getattr(state, view)(np.int64(2)) == getattr(state, view)(2)  # a seat's, still
    assert capfd.readouterr().err == ""  # no "OpenSpiel exception" line


def test_openspiel_keeps_no_log_until_asked_then_plays_the_history_again(spiel_game):
    """A log costs a third of the engine's time (issue 29): a state keeps none until
    something asks what a seat saw; the history played again is then the same game."""
    state, rng = spiel_game.new_initial_state(), random.Random(2)
    while len(state.history()) < 20:
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        state.apply_action(rng.choice(actions or state.legal_actions()))
    unlogged = state._held.state
    assert unlogged.log_for(None) == []
    clone = state.clone()
    logged = state.table
    assert logged is not unlogged and logged.key() == unlogged.key()
    assert logged.log_for(None) and state.table is logged  # played again once
    while not state.is_terminal():
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        action = rng.choice(actions or state.legal_actions())
        state.apply_action(action)
        clone.apply_action(action)
    assert clone._held.state.key() == state.table.key()  # logged or not, one game
    assert state.table.log_for(None)[-1]["event"] == "end"


def test_openspiel_observations_need_no_log(spiel_game):
    """An observation tensor or string is the seat's view of the game as played: asking
    for one keeps no log (training on tensors never pays for it) and the state keeps
    what it worked out; the tensor is the observation vector."""
    from rulespec.table.encoding import ObservationEncoder

    state, rng = spiel_game.new_initial_state(), random.Random(3)
    while len(state.history()) < 12:
        actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        state.apply_action(rng.choice(actions or state.legal_actions()))
    player, held, rules = state.current_player(), state._held, state._held.state
    encoder = ObservationEncoder(rules.game)
    for seat in range(spiel_game.num_players()):
        tensor = state.observation_tensor(seat)
        assert tensor == encoder.encode(rules.observation(seat))
        assert f"turn={rules.turn} " in state.observation_string(seat)
    assert not held.logged and held.state is rules and held.player == player


def test_openspiel_history_holds_the_actions_played_from_python(spiel_game):
    """apply_action from Python plays without the round trip through C++, whose history
    gets the action when something reads it (history, full_history, move_number, ...) or
    C++ applies one itself (its apply_action, a clone's): either way, in order."""
    import pyspiel

    for seed in range(5):
        rng = random.Random(seed)
        state, through_cpp = spiel_game.new_initial_state(), spiel_game.new_initial_state()
        played, clones = [], []
        assert state.is_initial_state() and state.move_number() == 0
        while not state.is_terminal():
            chance = state.is_chance_node()
            action = rng.choice(
                [a for a, _ in state.chance_outcomes()] if chance else state.legal_actions()
            )
            played.append((state.current_player(), action))
            way = rng.randrange(4)
            if way == 0:
                state.apply_action(action)
            elif way == 1:
                pyspiel.State.apply_action(state, action)  # C++'s, as OpenSpiel's C++ calls it
            else:
                state = state.child(action) if way == 2 else pyspiel.State.child(state, action)
            pyspiel.State.apply_action(through_cpp, action)
            if rng.random() < 0.2:
                clones.append((state.clone(), list(played)))
        for s, moves in [(state, played), (through_cpp, played), *clones]:
            assert [(m.player, m.action) for m in s.full_history()] == moves
            assert s.history() == [a for _, a in moves] and s.move_number() == len(moves)
            assert s.history_str() == ", ".join(str(a) for _, a in moves)
            assert not s.is_initial_state()
        assert state.returns() == through_cpp.returns()


def _parallel(path, players=None, **kw):
    pytest.importorskip("pettingzoo")
    from rulespec.env import RulespecParallelEnv

    return RulespecParallelEnv(str(path), players, **kw)


ALL_AT_ONCE = ROOT / "tests/valid/all_at_once.yaml"  # a simultaneous choice each turn


@pytest.mark.parametrize("path", [*SPECS, ALL_AT_ONCE], ids=lambda p: p.stem)
def test_pettingzoo_parallel_api(path):
    """The native ParallelEnv, and the AEC environment made parallel by PettingZoo's own
    turn_based_aec_to_parallel, pass parallel_api_test."""
    test = pytest.importorskip("pettingzoo.test")
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    test.parallel_api_test(_parallel(path), num_cycles=200)
    test.parallel_api_test(turn_based_aec_to_parallel(_env(path)), num_cycles=200)


@pytest.mark.parametrize("path, players", [(ALL_AT_ONCE, 3), (GAMES / "draft.yaml", 4)])
def test_parallel_env_asks_every_simultaneous_chooser_in_one_step(path, players):
    """At a simultaneous choice every chooser gets its own options as its mask in the
    same step, and one step plays all the picks: the same game as the State API given
    the same picks in the order the rules ask them."""
    env = _parallel(path, players)
    observations, _ = env.reset(seed=4)
    state = env.game.new_initial_state(4, log=False)
    while state.is_chance_node():  # the environment plays chance as it comes
        state.sample_chance()
    pick, together = random.Random(2), 0
    while env.agents:
        deciding = state.deciding_together()
        masks = {a: set(o["action_mask"].nonzero()[0].tolist()) for a, o in observations.items()}
        assert {a for a, m in masks.items() if m} <= {f"P{s + 1}" for s in deciding}
        together += len(deciding) > 1
        actions = {}
        for seat in deciding:
            agent = f"P{seat + 1}"
            assert state.current_player() == seat
            labels = {env.action_labels[a] for a in masks[agent]}
            assert labels == set(state.legal_labels())  # its own options, nobody's pick shown
            actions[agent] = pick.choice(sorted(masks[agent]))
            state.apply_action(env.action_labels[actions[agent]])
        observations, rewards, terminated, truncated, _ = env.step(
            {a: actions.get(a, 0) for a in observations}
        )
        while state.is_chance_node():
            state.sample_chance()
        assert env.state.observation(None) == state.observation(None)
    assert together > 1 and state.is_terminal()
    assert [rewards[a] for a in env.possible_agents] == state.returns()
    assert all(terminated.values()) and not any(truncated.values())


def test_parallel_env_refuses_a_missing_or_illegal_action_and_plays_nothing():
    env = _parallel(ALL_AT_ONCE, 3)
    observations, _ = env.reset(seed=1)
    legal = {a: o["action_mask"].nonzero()[0].tolist() for a, o in observations.items()}
    assert all(legal.values())  # all three choose at once
    before, length = env.state.observation(None), env.state.length
    with pytest.raises(ValueError, match=r"^P3 decides now: step needs its action$"):
        env.step({"P1": legal["P1"][0], "P2": legal["P2"][0]})
    with pytest.raises(ValueError, match=r"^P3: action \d+ \(card_\d+\) is not legal now"):
        env.step({"P1": legal["P1"][0], "P2": legal["P2"][0], "P3": legal["P1"][0]})
    assert env.state.observation(None) == before and env.state.length == length


@pytest.mark.parametrize("rows", ["bytes", "lists"])
def test_observation_array_is_the_vector(rows):
    """`encode_array`, the environments' observation, is `encode_state` as float32 in
    every state: read from bytes where counts fit one (a game of fewer than 256 cards),
    with the numbers that may not (the turn, past 255 in a long game; a direction of -1;
    counters) set after; from the list otherwise."""
    np = pytest.importorskip("numpy")
    from rulespec.interpreter import Game
    from rulespec.table.encoding import ObservationEncoder

    game = Game(load_spec(GAMES / "pirates_wild.yaml"), 3)
    if rows == "lists":  # as in a game of 256 cards or more
        game.byte_counts = False
    encoder, pick = ObservationEncoder(game), random.Random(2)
    state, wide = game.new_initial_state(1, log=False), set()
    while not state.is_terminal() and state.turn < 300:
        for seat in range(game.n):
            vector = encoder.encode_state(state, seat)
            array = encoder.encode_array(state, seat)
            assert array.dtype == np.float32 and array.tolist() == vector, seat
            wide.update(i for i, x in enumerate(vector) if not 0 <= x < 256)
        _step_at_random(state, pick)
    assert 3 * game.n + 1 in wide  # the turn passed 255, and was compared


@pytest.mark.parametrize("voyages", [-3, 300, 7])
def test_observation_array_sets_a_counter_that_does_not_fit_a_byte(voyages):
    """A counter below 0 or past 255 is set among the array's numbers, the others read
    from bytes as they are, for every seat."""
    pytest.importorskip("numpy")
    from rulespec.interpreter import Game, State
    from rulespec.table.encoding import ObservationEncoder

    game = Game(load_spec(GAMES / "pirates_wild.yaml"), 3)
    encoder = ObservationEncoder(game)
    layout = {"hand[P1]": ["kraken", "crew"], "discard_pile": ["coins"], "draw_pile": ["map"]}
    state = State.from_layout(game, zones=layout, counters={"voyages": voyages, "dealer": 2})
    for seat in range(game.n):
        vector = encoder.encode_state(state, seat)
        assert encoder.encode_array(state, seat).tolist() == vector
        assert voyages in vector


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=[pytest.mark.slow] if p.stem in SLOW_SPACES else [])
        for p in sorted(GAMES.glob("*.yaml"))
    ],
    ids=lambda p: p.stem,
)
def test_openspiel_numbers_each_set_of_options_once(path, monkeypatch):
    """A game keeps the numbering of each set of options (or chance outcomes) it met,
    up to MAX_NUMBERINGS: a state's legal numbers are those of its options' labels
    whether the numbering was kept or not, and what a caller does to the lists it is
    given changes no other state's."""
    pyspiel = pytest.importorskip("pyspiel")
    import rulespec.spiel as spiel
    from rulespec.table import encoding

    monkeypatch.setattr(encoding, "MAX_NUMBERINGS", 6)
    game = pyspiel.load_game(spiel.register(path, f"numbering_{path.stem}"))
    pick, kept = random.Random(3), 0
    for _ in range(2):
        state = game.new_initial_state()
        while not state.is_terminal() and len(state.history()) < 300:
            player = state.current_player()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                legal = [a for a, _ in outcomes]
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                outcomes.append((-1, 1.0))  # the caller's list, not the game's
            else:
                legal = state.legal_actions()
                labels = [state.action_to_string(player, a) for a in legal]
                assert labels == sorted(state.table.legal_labels())
            assert legal == sorted(legal) and state.legal_actions() == legal
            action = pick.choice(legal)
            legal.append(-1)
            state.apply_action(action)
            kept = max(kept, len(game.actions.numberings), len(game.chance_numberings))
    assert 0 < kept <= 6
    if path.stem != "pirates_wild":  # its random games run to the turn limit: 2000 turns
        pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_pettingzoo_mask_is_the_callers_own():
    """The masks of a set of options are worked out once and shared (ActionSpace.numbered):
    what the environment hands out is a copy, so writing it changes no later mask."""
    env = _env(GAMES / "take_the_gold.yaml", 2)
    env.reset(seed=4)
    masks = {}
    for _ in range(30):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        mask = obs["action_mask"]
        key = tuple(env.legal_labels())
        if key in masks:
            assert mask.tolist() == masks[key]  # not the zeros written below
        masks[key] = mask.tolist()
        action = int(mask.nonzero()[0][0])
        mask[:] = 0
        env.step(action)
    assert len(masks) < 30  # some set of options came again


@pytest.mark.parametrize("rows", ["bytes", "lists"])
def test_tallies_into_writes_what_tallies_returns(rows):
    """`State.tallies_into` writes `tallies`' `seen` into a bytearray from an offset, and
    nothing elsewhere, returning the rest as tuples of its own; in a game whose counts
    are lists (256 cards or more) it writes nothing and returns None."""
    from rulespec.interpreter import Game

    game = Game(load_spec(GAMES / "take_the_gold.yaml"), 3)
    if rows == "lists":
        game.byte_counts = False
    state, pick = game.new_initial_state(5, log=False), random.Random(5)
    for _ in range(60):
        for seat in range(game.n):
            current, active, direction, turn, seen, counters, over = state.tallies(seat)
            out = bytearray(len(seen) + 5)
            rest = state.tallies_into(seat, out, 3)
            if rows == "lists":
                assert rest is None and out == bytes(len(out))
                continue
            assert rest == (current, active, direction, turn, counters, over)
            assert type(rest[1]) is tuple and type(rest[4]) is tuple
            assert list(out[3:-2]) == seen and out[:3] == bytes(3) and out[-2:] == bytes(2)
        if state.is_terminal():
            break
        _step_at_random(state, pick)


def test_tally_writer_is_each_seats_own_code():
    """tallies_into runs code compiled for the seat and the offset (Game.tally_writer):
    once per (seat, offset), its source in linecache under the spec's name, writing the
    same as tallies for every seat and offset, a zone emptied since included."""
    import linecache

    from rulespec.interpreter import Game

    game = Game(load_spec(GAMES / "pirates_wild.yaml"), 4)
    write = game.tally_writer(1, 7)
    assert game.tally_writer(1, 7) is write and game.tally_writer(1, 8) is not write
    assert "pirates_wild.yaml" in write.__code__.co_filename
    assert "tcount" in "".join(linecache.getlines(write.__code__.co_filename))
    state, pick, emptied = game.new_initial_state(3, log=False), random.Random(3), 0
    sizes = [0] * len(game.slots)
    while not state.is_terminal():
        now = list(state.measures()[0].values())
        emptied += any(a and not b for a, b in zip(sizes, now))
        sizes = now
        for seat in range(game.n):
            for at in (0, 7):
                current, active, direction, turn, seen, counters, over = state.tallies(seat)
                out = bytearray(at + len(seen))
                rest = game.tally_writer(seat, at)(state, out)
                assert rest == (current, active, direction, turn, counters, over)
                assert list(out[at:]) == seen and out[:at] == bytes(at)
        _step_at_random(state, pick)
    assert emptied  # some zone held cards, then none


def test_observation_array_sets_numbers_outside_a_byte_after():
    """encode_array writes direction, turn and counters into the vector's bytes where
    they fit one; a direction of -1, or a counter below 0 or past 255, is set among the
    floats instead; a seat out and the game's end are written over the blank vector's
    every-seat-active: the array is encode_state's vector either way."""
    np = pytest.importorskip("numpy")
    from rulespec.interpreter import Game, State
    from rulespec.table.encoding import ObservationEncoder

    def same(encoder, state):
        for seat in range(encoder.n):
            array = encoder.encode_array(state, seat)
            assert array.dtype == np.float32
            assert array.tolist() == encoder.encode_state(state, seat), seat

    game = Game(load_spec(GAMES / "take_the_gold.yaml"), 3)
    encoder = ObservationEncoder(game)
    counter = game.counter_names[0]
    for value, out in [(7, ()), (-3, ()), (300, (1,)), (255, (0, 2))]:
        state = State.from_layout(game, counters={counter: value}, out=out)
        assert value in state.tallies(0)[5] and state.tallies(0)[1].count(False) == len(out)
        same(encoder, state)
    game = Game(load_spec(GAMES / "variants/pirates_wild/reverse.yaml"), 3)
    encoder, pick, directions = ObservationEncoder(game), random.Random(3), set()
    state = game.new_initial_state(3, log=False)
    while True:
        same(encoder, state)
        directions.add(state.tallies(0)[2])
        if state.is_terminal():
            break
        _step_at_random(state, pick)
    assert directions == {1, -1} and state.tallies(0)[6]  # both ways, and the end


@pytest.mark.parametrize("game", ["take_the_gold", "pirates_wild"])
def test_pettingzoo_masks_only_the_acting_seat(game):
    """observe(agent): the acting seat's mask is its legal actions, every other seat's
    all 0, and every seat's all 0 once the game is over; each vector the seat's."""
    env = _env(GAMES / f"{game}.yaml", 3)
    env.reset(seed=4)
    pick = random.Random(4)
    for _ in env.agent_iter():
        state = env.state
        for other in env.possible_agents:
            obs, seat = env.observe(other), env.seat[other]
            legal = {env.actions.index[label] for label in state.legal_labels()}
            acting = not state.is_terminal() and state.current_player() == seat
            assert set(obs["action_mask"].nonzero()[0].tolist()) == (legal if acting else set())
            assert obs["observation"].tolist() == env.encoder.encode_state(state, seat)
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else pick.choice(obs["action_mask"].nonzero()[0].tolist()))
    assert env.state.is_terminal()


def test_pettingzoo_agent_iter_is_pettingzoos():
    """agent_iter yields the agent to act until every agent is done or max_iter agents
    were given, and can be iterated again, as PettingZoo's AECIterable."""
    env = _env(GAMES / "take_the_gold.yaml", 2)
    env.reset(seed=2)
    looped = env.agent_iter(max_iter=3)
    assert list(looped) == [env.agent_selection] * 3  # nothing stepped: the same agent
    assert list(looped) == [env.agent_selection] * 3  # again, from the start
    played = 0
    for agent in env.agent_iter():
        assert agent == env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(obs["action_mask"].nonzero()[0][0]))
        played += 1
    assert not env.agents and played > 2


def test_an_environment_used_out_of_order_says_what_to_do_first():
    """Before reset(), and after the game once every agent has left, step and last
    said only AttributeError or KeyError; observe of an agent the game lacks, KeyError."""
    env = _env(GAMES / "take_the_gold.yaml")
    for call in (lambda: env.step(0), env.last, lambda: env.observe("P1")):
        with pytest.raises(ValueError, match=r"reset\(\) starts a game"):
            call()
    env.reset(seed=3)
    with pytest.raises(ValueError, match="unknown agent 'P9'; agents: P1, P2"):
        env.observe("P9")
    for agent in env.agent_iter():
        done = env.terminations[agent] or env.truncations[agent]
        env.step(None if done else int(env.last()[0]["action_mask"].argmax()))
    with pytest.raises(ValueError, match="the game is over and every agent has left"):
        env.step(0)


def test_an_environment_stopped_by_a_rule_s_failure_offers_no_stale_mask(tmp_path):
    """A review found observe() still showing the mask of the decision the failure
    interrupted, while last() raised: the game stopped, so every view meets the
    failure again."""
    from rulespec.interpreter import RuleError

    spec = tmp_path / "boom.yaml"
    spec.write_text(BOOM)
    env = _env(spec)
    env.reset(seed=1)
    boom = env.action_labels.index("boom")
    with pytest.raises(RuleError):
        env.step(boom)
    for ask in (lambda: env.observe(env.agent_selection), env.last):
        with pytest.raises(RuleError, match="the game stopped"):
            ask()


def test_a_world_resampled_for_a_seat_tells_no_seat_what_that_seat_did_not_see(spiel_game):
    """An AI engineer's trial: a world resample_from_infostate dealt for P1 kept the true
    log, so another seat's information state there listed its true draws, which the new
    deal contradicts, and a search reading it (OpenSpiel's ISMCTSBot keys that seat's
    nodes by it) was fed the truth. Now P2's and P3's draws from the hidden pile are
    unnamed in every seat's information state of P1's world, as P1 saw them."""
    rng = random.Random(5)
    state = spiel_game.new_initial_state()
    while state.move_number() < 40 and not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    drawn = re.compile(r"^move src=draw_pile dst=hand\[P([23])\] n=\d+ cards=(\S+)$", re.M)
    truly = {m for q in (1, 2) for m in drawn.findall(state.information_state_string(q))}
    assert any(cards != "?" for _, cards in truly)  # the true game names them to their seats
    world = state.resample_from_infostate(0, random.Random(3).random)
    assert world.information_state_string(0) == state.information_state_string(0)
    for q in range(3):
        assert {cards for _, cards in drawn.findall(world.information_state_string(q))} == {"?"}


def test_a_redealt_copy_logs_only_what_its_seat_saw():
    """The same through the State API: clone() and redeal(seat), as python.md says, hold
    no more than the seat knows, in its log too."""
    from rulespec.interpreter import Game

    state = Game(load_spec(GAMES / "take_the_gold.yaml"), 3).new_initial_state(4)
    pick = random.Random(4)
    while state.turn < 8 and not state.is_terminal():
        if state.is_chance_node():
            state.sample_chance()
        else:
            state.apply_action(pick.choice(state.legal_actions()))
    assert state.log_for(None) != state.log_for(0)
    world = state.clone()
    world.redeal(0, random.Random(1))
    assert world.log_for(None) == world.log_for(0) == state.log_for(0)
    for theirs, mine in zip(world.log_for(1), world.log_for(0)):  # P2 is told no more
        assert all(v is None or v == mine[k] for k, v in theirs.items())


def test_openspiel_offers_a_seat_no_actions_at_a_chance_node(spiel_game):
    """legal_actions(player) at a chance node gave the chance outcomes to any seat (the
    card types of a robbed hand, which as a seat's actions mean plays); OpenSpiel's own
    games give a seat that is not to act none."""
    rng = random.Random(2)
    state, met = spiel_game.new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            met += 1
            assert [state.legal_actions(p) for p in range(3)] == [[], [], []]
            assert state.legal_actions() == state.legal_actions(pyspiel_chance()) != []
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert met > 1


def pyspiel_chance() -> int:
    import pyspiel

    return int(pyspiel.PlayerId.CHANCE)


def test_a_bundled_game_registered_by_its_name_pickles(tmp_path, monkeypatch):
    """register("take_the_gold") recorded the game under the working folder joined to
    the name, a file that is not there, so a pickled state (which names the bundled file)
    was refused as another spec, and registering the file after was refused too."""
    pytest.importorskip("pyspiel")
    import pyspiel

    from rulespec.spiel import register

    monkeypatch.chdir(tmp_path)
    name = register("take_the_gold")
    assert register(GAMES / "take_the_gold.yaml") == name
    state = pyspiel.load_game(name, {"players": 2}).new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    assert pickle.loads(pickle.dumps(state)).history() == state.history()


def test_a_world_for_a_seat_is_one_it_cannot_tell_from_the_game():
    """An AI engineer had to put a fair world together from clone and redeal: world_for
    makes it in one call, the seat's view the same, its deal a function of that view and
    the RNG alone, its log (when kept) the seat's."""
    from rulespec.interpreter import Game

    game = Game(load_spec(GAMES / "take_the_gold.yaml"), 3)
    a, b = game.new_initial_state(4), game.new_initial_state(4)
    for state in (a, b):
        while state.turn < 6:
            if state.is_chance_node():
                state.sample_chance()
            else:
                state.apply_action(state.legal_actions()[0])
    world = a.world_for(0, random.Random(9), log=True)
    assert world.observation(0) == a.observation(0)
    assert world.log_for(None) == world.log_for(0) == a.log_for(0)
    assert world.key() == b.world_for(0, random.Random(9)).key()  # same view and RNG: same world
    assert a.key() == b.key()  # the game itself is left as it was
