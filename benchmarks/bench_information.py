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
what inference could win: the agent never is. The belief rows also print how far their
deals are from the truth: the mean, over its decisions, of the squared difference
between the number of each card type a deal puts in another seat's hand and the true
number, summed over types, beside the same for deals at random from the view.
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


def _error(deal: dict, truth: dict, hands: list[int], types: int) -> float:
    """Squared differences of each type's count in each of `hands`, summed."""
    return sum((deal[h].count(t) - truth[h].count(t)) ** 2 for h in hands for t in range(types))


class Scored(agents.ISMCTSAgent):
    """The belief row's agent, scoring its belief's deals at each decision."""

    errors: list  # (belief's, the view's): one pair per decision

    def choose(self, observation, options, model):
        if self.belief is not None and self.belief.deals[0] is not None:
            state, seat, rng = model.state, model.seat, random.Random(len(self.errors))
            truth, game = state.hidden_deal(seat), state.game
            hands = [game.hand + p for p in range(game.n) if p != seat]
            viewed = state.clone(log=False)
            believed = sum(_error(self.belief.draw(rng), truth, hands, len(game.deck_counts))
                           for _ in range(SAMPLES))  # fmt: skip
            at_random = 0
            for _ in range(SAMPLES):
                viewed.redeal(seat, rng, canonical=True)
                at_random += _error(viewed.hidden_deal(seat), truth, hands, len(game.deck_counts))
            self.errors.append((believed / SAMPLES, at_random / SAMPLES))
        return super().choose(observation, options, model)


def play_one(task):
    row, k = task
    if row in ("hands", "coins", "guards", "table"):
        Oracle.shown = row
        agents.Search = Oracle
    if row == "belief-rules":
        agents.MODELS["random"] = lambda world, who, taken, options, rng: 1.0
    agents.AGENTS["ismcts"] = Scored if row.startswith("belief") else agents.ISMCTSAgent
    game = Game(load_spec(SPEC), PLAYERS)
    seat = k % PLAYERS
    seated = make_agents([ROWS[row] if p == seat else "greedy" for p in range(PLAYERS)], PLAYERS, k)
    errors = seated[seat].errors = []
    state = play(game.new_initial_state(seed=k, log=False), seated)
    return seat in state.winners, errors


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=400, help="games per row (default 400)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--row", action="append", choices=ROWS, help="a row (repeatable; default all)")
    args = ap.parse_args(argv)
    print("| deals of the search | games | ismcts wins [95 % interval] | fair share |")
    print("|---|---|---|---|")
    for row in args.row or ROWS:
        # a fresh pool per row: a row patches the agents module of its workers
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(play_one, [(row, k) for k in range(args.games)], chunksize=8)
        w = wilson(sum(won for won, _ in results), args.games)
        print(f"| {row} | {args.games} | {100 * w['share']:.0f} % "
              f"[{100 * w['low']:.0f}, {100 * w['high']:.0f}] | {100 / PLAYERS:.0f} % |",
              flush=True)  # fmt: skip
        errors = [e for _, errs in results for e in errs]
        if errors:
            believed, at_random = (sum(x) / len(errors) for x in zip(*errors))
            print(f"\nthe belief's deals: squared error {believed:.2f} a decision, against "
                  f"{at_random:.2f} for deals at random from the view ({len(errors)} decisions)\n")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
