"""What the hidden cards are worth to the search, in four-player Take the Gold against
three `greedy` (issue 29's 35 % target): the "worth of hidden information" rows in
docs/agents.md.

    python benchmarks/bench_information.py [--games N] [--workers N]

Each row plays `ismcts` at its default budget against three `greedy`, as
bench_agents.py plays a row (game k seeded k, ours at seat k mod 4), and differs only
in how the search deals the cards it cannot see before each iteration:

- `view`: at random, as far as its seat's view allows (the agent as shipped);
- `hands`: every other seat's hand as it truly lies, the draw pile dealt at random;
- `coins`, `guards`: only the Gold Coins, or only the cards that block (Officers,
  Two Officers, Pirate Captains), of every other hand as they truly lie, the rest
  dealt at random: which of the hidden cards the search gains by;
- `table`: nothing dealt again (the draw pile's order too); chance is still the
  search's own, so a random steal is not known in advance;
- `belief`: from its belief, `particles=32:model=greedy` (interpreter/belief.py);
- `belief-rules`: from a belief whose model of the other seats is no model at all
  (every decision the rules allow as likely, `particles=32`, the likelihood patched
  to 1): what the belief's own bookkeeping does to its deals, apart from any model.

A search shown the true cards is an oracle that only this benchmark builds, to bound
what inference could win: the agent never is. The `view` and belief rows also print
how far their deals are from the truth: the mean, over its decisions, of the squared
difference between the number of each card type a deal puts in another seat's hand and
the true number, summed over types, beside the same for deals at random from the view;
and, for each card type, its mean number in the other hands, truly and in the deals, and
its share of the squared difference (which types the belief knows better).

    python benchmarks/bench_information.py --row belief --belief ismcts:particles=64:model=greedy

plays the belief row with another agent.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
from pathlib import Path

from rulespec import load_spec
from rulespec.analysis.stats import wilson
from rulespec.interpreter import Game, agents, search
from rulespec.interpreter.agents import make_agents, play

SPEC = Path(__file__).resolve().parent.parent / "games" / "take_the_gold.yaml"
PLAYERS = 4
ROWS = {"view": "ismcts", "hands": "ismcts", "coins": "ismcts", "guards": "ismcts",
        "table": "ismcts", "belief": "ismcts:particles=32:model=greedy",
        "belief-rules": "ismcts:particles=32"}  # fmt: skip
SHOWN = {"coins": {"gold_coin"}, "guards": {"officer", "two_officers", "pirate_captain"}}
SAMPLES = 20  # deals drawn per decision for the belief's error


class Oracle(search.Search):
    """A search whose deals keep the true cards: the other hands (`hands`), the cards
    of some types in them (`coins`, `guards`), or all (`table`)."""

    shown = "hands"

    def deal(self, s) -> None:
        if self.shown != "table":
            pile, names = s.game.start_slot, s.game.type_names
            kept = SHOWN.get(self.shown)
            like = {
                z: tuple(t for t in v if kept is None or names[t] in kept)
                for z, v in s.hidden_deal(self.seat).items()
                if z != pile
            }
            s.redeal(self.seat, self.rng, canonical=True, like=like)


def _error(deal: dict, truth: dict, hands: list[int], types: int) -> list[int]:
    """Each type's squared differences of its count in each of `hands`, summed over them."""
    return [sum((deal[h].count(t) - truth[h].count(t)) ** 2 for h in hands) for t in range(types)]


def _add(a: list, b: list) -> list:
    return [x + y for x, y in zip(a, b)]


def _mix(deal: dict, hands: list[int], types: int) -> list[int]:
    """How many of each type `hands` hold together."""
    return [sum(deal[h].count(t) for h in hands) for t in range(types)]


class Scored(agents.ISMCTSAgent):
    """The agent of the `view` and belief rows: it scores the deals at each decision
    (its belief's, and deals at random)."""

    errors: list  # (belief's or None, the view's), each by card type: one pair per decision
    mixes: list  # (true, belief's or None, the view's) type counts in the other hands

    def choose(self, observation, options, model):
        state, seat = model.state, model.seat
        believing = self.belief is not None and self.belief.deals[0] is not None
        rng, game = random.Random(len(self.errors)), state.game
        truth, types = state.hidden_deal(seat), len(game.deck_counts)
        hands = [game.hand + p for p in range(game.n) if p != seat]
        viewed = state.clone(log=False)
        believed, at_random = [0] * types, [0] * types
        believed_mix, random_mix = [0] * types, [0] * types
        for _ in range(SAMPLES):
            if believing:
                deal = self.belief.draw(rng)
                believed = _add(believed, _error(deal, truth, hands, types))
                believed_mix = _add(believed_mix, _mix(deal, hands, types))
            viewed.redeal(seat, rng, canonical=True)
            deal = viewed.hidden_deal(seat)
            at_random = _add(at_random, _error(deal, truth, hands, types))
            random_mix = _add(random_mix, _mix(deal, hands, types))
        self.errors.append(
            (
                [e / SAMPLES for e in believed] if believing else None,
                [e / SAMPLES for e in at_random],
            )
        )
        self.mixes.append((_mix(truth, hands, types),
                           [n / SAMPLES for n in believed_mix] if believing else None,
                           [n / SAMPLES for n in random_mix]))  # fmt: skip
        return super().choose(observation, options, model)


def play_one(task):
    row, k, belief = task
    if row in ("hands", "coins", "guards", "table"):
        Oracle.shown = row
        agents.Search = Oracle
    if row == "belief-rules":
        agents.MODELS["random"] = lambda world, who, taken, options, rng: 1.0
    agents.AGENTS["ismcts"] = (
        Scored if row == "view" or row.startswith("belief") else agents.ISMCTSAgent
    )
    game = Game(load_spec(SPEC), PLAYERS)
    seat = k % PLAYERS
    ours = belief if row == "belief" else ROWS[row]
    seated = make_agents([ours if p == seat else "greedy" for p in range(PLAYERS)], PLAYERS, k)
    seated[seat].errors, seated[seat].mixes = [], []
    state = play(game.new_initial_state(seed=k, log=False), seated)
    return seat in state.winners, seated[seat].errors, seated[seat].mixes


def _scores(row: str, errors: list, mixes: list) -> None:
    """How far the row's deals were from the truth, and what the other hands held; a
    belief row's over the decisions where its belief held deals."""
    believing = row.startswith("belief")
    if believing:
        mixes = [m for m, (b, _) in zip(mixes, errors) if b is not None]
        errors = [e for e in errors if e[0] is not None]
    if not errors:
        return
    n, names = len(errors), Game(load_spec(SPEC), PLAYERS).type_names
    at_random = [sum(e[1][t] for e in errors) / n for t in range(len(names))]
    believed = [sum(e[0][t] for e in errors) / n for t in range(len(names))] if believing else []
    if believing:
        print(f"\nthe belief's deals: squared error {sum(believed):.2f} a decision, against "
              f"{sum(at_random):.2f} for deals at random from the view ({n} decisions)")  # fmt: skip
    print(f"\n{row}: each card type in the other hands, a decision's mean ({n} decisions)\n")
    print(
        "| card type | truly | dealt at random from the view |"
        + " the belief's deals |" * believing
        + " squared error at random |"
        + " the belief's squared error |" * believing
    )
    print("|---|---|---|" + "---|" * (1 + 2 * believing))
    for t, name in enumerate(names):
        columns = (0, 2, 1)[: 2 + believing]  # truly, at random, the belief's
        means = [sum(m[i][t] for m in mixes) / n for i in columns]
        means += [at_random[t]] + believed[t : t + 1]
        print(f"| {name} | " + " | ".join(f"{x:.2f}" for x in means) + " |")
    print(flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per row (default 400)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--row", action="append", choices=ROWS, help="a row (repeatable; default all)")
    ap.add_argument(
        "--belief",
        default=ROWS["belief"],
        help=f"the belief row's agent (default {ROWS['belief']})",
    )
    args = ap.parse_args(argv)
    print("| deals of the search | games | ismcts wins [95 % interval] | fair share |")
    print("|---|---|---|---|")
    for row in args.row or ROWS:
        # a fresh pool per row: a row patches the agents module of its workers
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(
                play_one, [(row, k, args.belief) for k in range(args.games)], chunksize=8
            )
        w = wilson(sum(won for won, _, _ in results), args.games)
        print(f"| {row} | {args.games} | {100 * w['share']:.0f} % "
              f"[{100 * w['low']:.0f}, {100 * w['high']:.0f}] | {100 / PLAYERS:.0f} % |",
              flush=True)  # fmt: skip
        _scores(row, [e for _, errs, _ in results for e in errs],
                    [m for _, _, mixes in results for m in mixes])  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
