"""The hidden-information property (issue 11's acceptance): no observation or per-seat
log of seat A ever holds a card that is hidden from A at that moment, nor another
seat's secret choice. Checked over generated small specs (reveals, secret choices,
simultaneous choices, inserts, moves between zones of every visibility), over generated
specs using the Language v2 constructs (procedures, rounds and `sit_out`, turn-order
control, reaction windows and chains, zone families, `remember`, `repeat`, built decks
read with `c.prop` and aggregates, `refill_from` with `keep_top`), and over seeded games
of the seed games and the specs in tests/valid/.

The checker keeps its own model of what each seat may know, from the spec's zones and
the omniscient log; it does not use interpreter/observe.py.
"""

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulespec import load_spec
from rulespec.interpreter import Game
from rulespec.interpreter.agents import make_agents, play

ROOT = Path(__file__).parent.parent
SECRET_KINDS = {"number"}  # and card choices, named only to who sees the cards (Watcher.step)
CARD_EVENTS = {"move", "reveal", "mark"}  # the events that may name a card hidden somewhere
CARD_FIELDS = {"cards", "card"}  # where another event could name one (choices: above)
# plays name their card to those who see where it went (Watcher._check_play)
PUBLIC_CARD_FIELDS = {"play": "card", "react": "card"}


class Watcher:
    """Follows a game step by step and asserts what each seat is shown."""

    def __init__(self, game: Game):
        self.game = game
        spec = game.spec
        self.teams = dict(zip((t.name for t in spec.teams), spec.teams_for(game.n)))
        self.zones = {
            slot.label: (slot.zone.visibility, self._owners(slot), slot.zone.ordered)
            for slot in game.slots
        }
        self.names = set(game.type_names)
        # seat -> (card, zone) for each card shown to the seat in a zone. When the deck
        # has one card of each type, a name is a card, and a card that moves is forgotten;
        # otherwise the model only knows that a card of that name was shown there.
        self.known: list[set[tuple[str, str]]] = [set() for _ in range(game.n)]
        self.unique = all(count == 1 for count in game.deck_counts)
        self.read = 0  # omniscient events read so far
        # each zone's size, followed through the moves from the deck in its start zone
        self.size = dict.fromkeys(self.zones, 0)
        self.size[next(s.label for s in game.slots if s.zone.start)] = sum(game.deck_counts)
        # each zone's cards by name, followed through the moves of the omniscient log
        self.held = {label: Counter() for label in self.zones}
        self.held[next(s.label for s in game.slots if s.zone.start)] = Counter(
            dict(zip(game.type_names, game.deck_counts))
        )
        self.swapping = None  # after a swap event: [what each seat carries over, moves to come]
        # zone -> (the zone its cards have been going to, one a move, since the first of
        # them; what each seat knew lay in it then): a draw of several cards is logged
        # card by card, and a seat knows where all of an emptied zone's cards went
        self.draining: dict[str, tuple[str, list[set]]] = {}

    def _owners(self, slot) -> tuple[int, ...]:
        """The seats a zone belongs to, read from its label and the spec: its seat
        (`hand[P1]`, `field[P1][0]`), or for a team's zone (`tricks[ns]`) the team's
        seats."""
        owner = slot.label[len(slot.zone.name) + 1 :].split("]")[0]
        if slot.zone.per_team:
            return self.teams[owner]
        return (int(owner[1:]) - 1,) if slot.zone.per_player else (None,)

    def sees(self, label: str, seat: int) -> bool:
        visibility, owners, _ = self.zones[label]
        if visibility == "owner":
            return seat in owners
        if visibility == "others":
            return seat not in owners
        return visibility == "public"

    def step(self, state) -> None:
        state.check_invariants()  # an insert keeps every card in one place, and counted
        events = state.log_for(None, start=self.read)  # only the new ones: a game is long
        logs = [state.log_for(seat, start=self.read) for seat in range(self.game.n)]
        for k, e in enumerate(events):
            if e["event"] == "choice" and e["kind"] in ("card", "cards"):
                for seat, log in enumerate(logs):
                    self._check_card_choice(seat, e, log[k]["option"])
            self._learn(e)
        self.read += len(events)
        everything = state.observation(None)["zones"]
        for seat in range(self.game.n):
            seen = state.observation(seat)
            for label, shown in seen["zones"].items():
                self._check_zone(seat, label, shown, everything[label])
            for label in seen.get("marks", ()):  # per_card counters: of cards it sees only
                assert self.sees(label, seat), (seat, label)
            self._check_rest(seat, seen)

    def _check_card_choice(self, seat: int, e: dict, shown: str | None) -> None:
        """A card (or cards) chosen is named to another seat only if, as it is chosen,
        a card of each name lies in a zone the seat sees (the zone named with it, where
        a type lying in several zones is offered zone by zone: `two from row[1]`)."""
        if shown is None or seat == e["player"]:
            return
        name, _, place = shown.rpartition(" from ")
        if place in self.held:
            assert self.sees(place, seat) and self.held[place][name], (seat, e)
            return
        for name in shown.split("+"):
            assert any(n[name] for z, n in self.held.items() if self.sees(z, seat)), (seat, e)

    def _learn(self, e: dict) -> None:
        """Cards shown to a seat stay known while they lie where they were shown, or
        where the seat saw them go; where it worked out they went, having known every
        card of a zone that a move emptied; where a swap of two zones it sees neither
        of took them."""
        if e["event"] == "reveal" and "zone" in e:
            for seat in e["players"]:
                self.known[seat].update((c, e["zone"]) for c in e["cards"])
            return
        if e["event"] == "swap":  # its moves follow: what each seat carries, once they are done
            a, b = e["zones"]
            self.swapping = [
                set()
                if self.sees(a, seat) or self.sees(b, seat)
                else {(c, b if z == a else a) for c, z in known if z in (a, b)}
                for seat, known in enumerate(self.known)
            ]
            self.swapping.append(sum(1 for n in e["n"] if n))
            self._swapped()
            return
        went = [set() for _ in self.known]  # seat -> (card, zone) it may know after a move
        if e["event"] == "move":
            went = self._went(e)
        if e["event"] == "move" and self.unique:  # a shuffle keeps the cards, not places
            for known in self.known:
                known -= {(c, z) for c, z in known if z == e.get("zone") or c in e.get("cards", ())}
        for known, more in zip(self.known, went):
            known |= more
        if e["event"] == "move" and self.swapping is not None:
            self.swapping[-1] -= 1
            self._swapped()

    def _went(self, e: dict) -> list[set]:
        """What each seat that cannot see a move's destination may know lies there
        after it: the cards, if it saw them leave; with one card of each name, those of
        a zone the move emptied whose every card it knew, and of one it knew some cards
        of, those (a pile taken whole holds what the seat put in it), moved in one move or
        card by card to one zone; with a name shared by several cards, a name it knew in
        the source (this model cannot count them)."""
        src, dst, cards = e["src"], e["dst"], e["cards"]
        emptied = src != dst and len(cards) == self.size[src]
        self.draining.pop(dst, None)  # cards come in: no longer only going out
        run = self.draining.get(src)
        if run is None or run[0] != dst:
            run = (dst, [{c for c, z in known if z == src} for known in self.known])
        self.draining[src] = run
        went = []
        for seat, known in enumerate(self.known):
            saw = self.sees(src, seat) and not self.sees(dst, seat)
            knew = {c for c, z in known if z == src}
            if self.sees(dst, seat):
                went.append(set())
            elif saw or (self.unique and emptied and len(knew) == self.size[src]):
                went.append({(c, dst) for c in cards})
            elif emptied:  # every card it knew lay there since the run began went to dst
                went.append({(c, dst) for c in run[1][seat] | knew})
            else:
                went.append({(c, dst) for c in cards if c in knew and not self.unique})
        if src != dst:
            self.size[src] -= len(cards)
            self.size[dst] += len(cards)
            self.held[src] -= Counter(cards)
            self.held[dst] += Counter(cards)
        return went

    def _swapped(self) -> None:
        """Once a swap's moves are done, each seat that sees neither zone knows of one
        what it knew of the other."""
        if self.swapping[-1] == 0:
            for known, more in zip(self.known, self.swapping):
                known |= more
            self.swapping = None

    def _check_rest(self, seat, seen) -> None:
        """Outside its zones, a seat's observation names no card (a remembered one, say).
        Its options may: they are its own choice, and a choice of a card type lists them all.
        So may a counter that holds a kind: its value is a name the rules set, public as
        every counter is."""
        rest = {k: v for k, v in seen.items() if k not in ("zones", "options")}
        kinds = {self.game.counter_names[slot] for slot in self.game.kind_counters}
        rest["counters"] = {k: v for k, v in rest["counters"].items() if k not in kinds}
        assert not self.names & set(_strings(rest)), (
            f"P{seat + 1} is shown cards outside zones: {rest}"
        )

    def _check_zone(self, seat, label, shown, truth) -> None:
        if self.sees(label, seat):
            assert shown == truth, (seat, label)
            return
        assert isinstance(shown, dict) and shown["count"] == len(truth), (seat, label, shown)
        top_first, revealed = truth[::-1], shown.get("revealed", ())
        for r in revealed:
            assert (r["card"], label) in self.known[seat], f"P{seat + 1} is shown {r} in {label}"
            if "depth" in r:
                assert top_first[r["depth"]] == r["card"], (seat, label, r)
        # what a seat knows holds: no more of a card than lie there
        for name in {r["card"] for r in revealed}:
            assert sum(r["card"] == name for r in revealed) <= truth.count(name), (seat, label)

    def check_logs(self, state) -> None:
        everything = state.log_for(None)
        for seat in range(self.game.n):
            mine = state.log_for(seat)
            assert len(mine) == len(everything)
            for i, e in enumerate(mine):
                self._check_event(seat, e)
                if e["event"] in PUBLIC_CARD_FIELDS and everything[i]["card"] is not None:
                    self._check_play(seat, everything, mine, i)

    def _check_play(self, seat: int, everything: list, mine: list, i: int) -> None:
        """A card played (or answered with) is named to a seat, in the play and in the
        choice that made it, only if the seat sees the hand it left or the zone it went
        to (the move that follows): a card played face down stays hidden."""
        move = next(e for e in everything[i + 1 :] if e["event"] == "move")
        if self.sees(move["src"], seat) or self.sees(move["dst"], seat):
            return
        choice = max(k for k in range(i) if everything[k]["event"] == "choice")
        assert mine[i]["card"] is None and mine[choice]["option"] is None, (seat, mine[i])

    def _check_event(self, seat: int, e: dict) -> None:
        kind = e["event"]
        if kind == "move" and e["cards"] is not None:
            assert self.sees(e["src"], seat) or self.sees(e["dst"], seat), (seat, e)
        elif kind == "reveal" and "zone" in e:
            assert e["cards"] is None or seat in e["players"] or self.sees(e["zone"], seat), (
                seat,
                e,
            )
        elif kind == "reveal":  # a secret number
            assert e["value"] is None or seat in e["players"], (seat, e)
        elif kind == "mark":  # a per_card counter: its card and value where the seat sees it
            seen = e["zone"] is not None and self.sees(e["zone"], seat)
            assert seen or (e["card"] is None and e["value"] is None), (seat, e)
        elif kind == "choice" and e["kind"] in SECRET_KINDS and e["player"] != seat:
            assert e["option"] is None, (seat, e)
        if kind in CARD_EVENTS:
            return
        for k in CARD_FIELDS & set(e) - {PUBLIC_CARD_FIELDS.get(kind)}:
            v = e[k]
            assert not (self.names & set(v if isinstance(v, list) else [v])), (seat, e)


def _strings(value):
    """Every text inside an observation (what a remembered card would leak as)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


def watched_play(game: Game, seed: int, follow: bool = True):
    """A random game, checked after every decision (`follow`) and at the end."""
    watcher = Watcher(game)
    state = game.new_initial_state(seed=seed)
    watcher.step(state)
    state = play(state, make_agents(["random"], game.n, seed), watcher.step if follow else None)
    watcher.step(state)
    watcher.check_logs(state)
    return state


# --- generated specs --------------------------------------------------------------

CARDS = ["ash", "birch", "cedar", "elm", "fir", "hazel", "lime", "oak", "pine", "yew"]
TEMPLATE = """\
rulespec: 1
name: Generated
players: {{min: 2, max: 3, default: 2}}
hand: hand
turn_limit: {turns}
deck:
  cards:
{cards}
zones:
  pile: {{visibility: hidden, ordered: true, start: true}}
  hand: {{per_player: true, visibility: owner}}
  table: {{visibility: {table}, ordered: {ordered}{per_player}}}
setup:
  effect: |
    shuffle(pile)
    for p in players {{ move(top(pile, 1), hand(p)) }}
turn:
{steps}
end_conditions: {{}}
"""

whom = st.sampled_from(["current", "players", "next(current)", "others(current)"])


@st.composite
def statements(draw, table: str) -> str:
    seen = draw(whom)
    put = draw(
        st.sampled_from(
            [
                "insert(c, pile, {})".format(draw(st.sampled_from(["0", "1", "size(pile)"]))),
                f"move(c, {table})",
                f"reveal(c, {seen})",
                "choose(current) d from 0..size(pile) { insert(c, pile, d) }",
            ]
        )
    )
    return draw(
        st.sampled_from(
            [
                "move(top(pile, 1), hand(current))",
                f"reveal(top(pile, {draw(st.integers(1, 3))}), {seen})",
                f"reveal(hand(current), {seen})",
                f"reveal({table}, {seen})",
                f"choose(current) c from hand(current) {{ {put} }}",
                f"simultaneously({draw(st.sampled_from(['players', 'others(current)']))}) p chooses c from hand(p)"
                f"{draw(st.sampled_from(['', ' by size(hand(p))', ' by 0 - size(pile)']))} {{ {put} }}",
                f"choose(current) d from 0..2 {{ {draw(st.sampled_from(['', f'reveal(d, {seen})']))} }}",
                "shuffle(pile)",
                f"move({table}, pile)",
                f"insert(top(pile, 1), pile, {draw(st.integers(0, 3))})",
                f"swap(hand(current), {draw(st.sampled_from(['hand(next(current))', table, 'pile']))})",
            ]
        )
    )


@st.composite
def specs(draw) -> str:
    per_player = draw(st.booleans())
    table = "table(current)" if per_player else "table"
    steps = draw(st.lists(statements(table), min_size=1, max_size=4))
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=4, max_size=8, unique=True))
    return TEMPLATE.format(
        turns=draw(st.integers(3, 8)),
        cards="\n".join(f"    {c}: {{count: 1}}" for c in cards),
        # `others` hides a seat's zone from that seat alone: only a per-player zone has one
        table=draw(st.sampled_from(["hidden", "owner", "public", *["others"] * per_player])),
        ordered=draw(st.booleans()),
        per_player=", per_player: true" if per_player else "",
        steps="\n".join(f"  - step: s{i}\n    effect: {s}" for i, s in enumerate(steps)),
    )


@settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(text=specs(), seed=st.integers(0, 2**31), players=st.integers(2, 3))
def test_no_seat_is_shown_a_card_hidden_from_it_in_generated_games(text, seed, players):
    state = watched_play(Game(load_spec("generated.yaml", text), players), seed)
    assert state.is_terminal()


# --- generated specs with the Language v2 constructs ------------------------------
# Procedures, rounds, turn-order control, reaction windows and chains, zone families,
# `remember`, `repeat`, built decks with `c.prop` and aggregates, `refill_from` with
# `keep_top`: each where it moves a card or shows one.

V2_TEMPLATE = """\
rulespec: 1
name: Generated Two
players: {{min: 2, max: 3, default: 2}}
hand: hand
turn_limit: {turns}
deck:
  build:
    - card: "{{wood}}_{{n}}"
      each:
        wood: [{woods}]
        n: [1, 2]
      props:
        big: "n >= 2"
zones:
  pile: {{visibility: hidden, ordered: true, start: true, refill_from: {{zone: discard, keep_top: {keep}}}}}
  discard: {{visibility: {discard}, ordered: true}}
  hand: {{per_player: true, visibility: owner}}
  row: {{count: 3, visibility: {row}, ordered: {row_ordered}}}
remember:
  drawn: {{per_player: {per_player}, until: {until}}}
procedures:
  handle:
    params: {{p: player, z: zone}}
    effect: |
      {procedure}
turn_order: {turn_order}
{rounds}setup:
  effect: |
    shuffle(pile)
    for p in players {{ move(top(pile, 1), hand(p)) }}
turn:
{steps}
  - step: play
    actions: [place]
    optional: {optional}
    repeat: {repeat}
actions:
  place:
    card: any
    to: {place_to}
    if: {place_if}
    effect: |
      react({window})
reactions:
  claim:
    answers: [place, counter]
    if: {claim_if}
    effect: |
      {claim_effect}
      react(others(reactor))
  counter:
    card: {counter_tag}
    answers: [place, claim]
    to: {counter_to}
    effect: |
      {counter_effect}
end_conditions: {{}}
"""

ROUNDS = """\
rounds:
  setup:
    effect: |
      for p in players {{ move(hand(p), pile) }}
      for i in range(3) {{ move(row(i), pile) }}
      move(discard, pile)
      shuffle(pile)
      for p in players {{ move(top(pile, {deal}), hand(p)) }}
  end_conditions:
    dry: {{when: size(pile) <= {dry}}}
  scoring:
    effect: |
      {scoring}
  match_end:
    enough: {{when: round_index >= 1, effect: end_game()}}
"""

WOODS = ["ash", "elm", "fir", "oak", "yew"]
ROW = "row({})".format


@st.composite
def v2_statements(draw, memo: str) -> str:
    seen = draw(whom)
    i = draw(st.sampled_from(["0", "1", "2", "size(hand(current)) % 3"]))
    put = draw(
        st.sampled_from(
            [
                f"move(c, {ROW(i)})",
                "move(c, discard)",
                f"handle(current, {ROW(i)})",
                f"{memo} = c",
                f"insert(c, pile, {draw(st.sampled_from(['0', 'size(pile)']))})",
            ]
        )
    )
    return draw(
        st.sampled_from(
            [
                f"{memo} = top(pile, 1)\n      move({memo}, hand(current))",
                "move(top(pile, 1), hand(current))",
                "move(top(pile, 2), hand(current))\n      move(hand(current), discard)",
                "move(pile, discard)\n      move(top(pile, 1), hand(current))",  # a refill
                f"{memo} = {ROW(i)}",
                f"reveal({memo}, {seen})",
                f"reveal({ROW(i)}, {seen})",
                f"handle(current, {ROW(i)})",
                "handle(next(current), discard)",
                f"choose(current) c from hand(current) {{ {put} }}",
                "choose(current) i from range(3) { move(top(pile, 1), row(i)) }",
                "for i in range(3) { if size(row(i)) > 1 { move(row(i), discard) } }",
                "if sum(c.n for c in hand(current)) >= 3 then skip_turn(next(current)) else extra_turn(current)".replace(
                    " then ", " { "
                ).replace(" else ", " } else { ")
                + " }",
                f"if any(c.big for c in hand(current)) {{ set_next({draw(whom).replace('players', 'current').replace('others(current)', 'current')}) }}",
                "if count(c.big for c in hand(current)) == 0 { sit_out(current) }",
                f"move(filter(c.big for c in hand(current)), {ROW(i)})",
                "shuffle(pile)",
            ]
        )
    )


@st.composite
def v2_specs(draw) -> str:
    per_player = draw(st.booleans())
    memo = "drawn(current)" if per_player else "drawn"
    steps = draw(st.lists(v2_statements(memo), min_size=1, max_size=3))
    seen = draw(whom)
    i = draw(st.sampled_from(["0", "1", "2"]))
    woods = draw(st.lists(st.sampled_from(WOODS), min_size=2, max_size=4, unique=True))
    rounds = ROUNDS.format(
        deal=draw(st.integers(1, 2)),
        dry=draw(st.integers(0, 3)),
        scoring=draw(
            st.sampled_from(
                [f"reveal(hand(p), {seen})".replace("current", "p"), "handle(p, discard)"]
            )
        ).join(["for p in players { ", " }"]),
    )
    return V2_TEMPLATE.format(
        turns=draw(st.integers(4, 10)),
        woods=", ".join(woods),
        keep=draw(st.integers(0, 2)),
        discard=draw(st.sampled_from(["hidden", "public"])),
        row=draw(st.sampled_from(["hidden", "public"])),
        row_ordered=draw(st.booleans()),
        per_player=str(per_player).lower(),
        until=draw(st.sampled_from(["turn", "game"])),
        procedure=draw(
            st.sampled_from(
                [
                    "move(top(pile, 1), z)\n      reveal(z, p)",
                    "reveal(hand(p), others(p))",
                    "choose(p) c from hand(p) { move(c, z) }",
                    "move(z, hand(p))",
                    "choose(p) d from 0..size(pile) { insert(top(z, 1), pile, d) }",
                ]
            )
        ),
        turn_order=draw(st.sampled_from(["next(current)", "prev(current)", "next(next(current))"])),
        rounds=rounds if draw(st.booleans()) else "",
        steps="\n".join(f"  - step: s{k}\n    effect: |\n      {s}" for k, s in enumerate(steps)),
        optional=str(draw(st.booleans())).lower(),
        repeat=str(draw(st.booleans())).lower(),
        place_to=draw(st.sampled_from([ROW(i), "discard", "row(seat_number(current) % 3)"])),
        place_if=draw(
            st.sampled_from(["true", "card.big", "not card.big", "size(hand(current)) > 1"])
        ),
        window=draw(st.sampled_from(["others(current)", "next(current)", "players"])),
        claim_if=draw(
            st.sampled_from(["true", "reactor != actor", "any(c.big for c in hand(reactor))"])
        ),
        claim_effect=draw(
            st.sampled_from(
                [
                    "move(top(pile, 1), hand(reactor))",
                    "reveal(hand(reactor), actor)",
                    f"handle(reactor, {ROW(i)})",
                    "move(hand(reactor), discard)",
                ]
            )
        ),
        counter_tag=draw(st.sampled_from(woods)),
        counter_to=draw(st.sampled_from([ROW(i), "discard", "hand(actor)"])),
        counter_effect=draw(
            st.sampled_from(
                [
                    "move(top(pile, 1), hand(reactor))",
                    "react(others(reactor))",
                    f"move(hand(reactor), {ROW(i)})",
                    "handle(actor, discard)",
                ]
            )
        ),
    )


@settings(
    max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(text=v2_specs(), seed=st.integers(0, 2**31), players=st.integers(2, 3))
def test_no_seat_is_shown_a_card_hidden_from_it_in_generated_v2_games(text, seed, players):
    state = watched_play(Game(load_spec("generated.yaml", text), players), seed)
    assert state.is_terminal()


SPECS = [
    ROOT / "games" / "take_the_gold.yaml",
    ROOT / "games" / "pirates_wild.yaml",
    *sorted((ROOT / "tests" / "valid").glob("*.yaml")),
]


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_seat_is_shown_a_card_hidden_from_it_in_seeded_games(path, seed):
    spec = load_spec(str(path))
    watched_play(Game(spec, spec.default_players), seed, follow="valid" in path.parts)
