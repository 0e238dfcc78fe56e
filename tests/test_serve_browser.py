"""`rulespec serve` in a real headless Chromium (Playwright, with the system's
chromium: no browser is downloaded): a person plays a whole game by clicking, two
people in two browser contexts each see only their own hand, a replay is scrubbed."""

import json
import re
import shutil

import pytest

pytest.importorskip("starlette")
playwright = pytest.importorskip("playwright.sync_api")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium (apt-get install chromium)"),
]
# the table's details: seconds each in a browser, so in CI's slow step; playing a whole game
# and each seat's hidden hand stay in the everyday suite
SLOW = pytest.mark.slow

from gamekit import BOOM, GAMES, cli  # noqa: E402
from servekit import call, running, seat_api  # noqa: E402

from rulespec import load_spec  # noqa: E402
from rulespec.serve import views  # noqa: E402
from rulespec.serve.views import last_move  # noqa: E402
from rulespec.table.narrate import Titles, narrate  # noqa: E402

# a choice to click, or the result: null-safe, as the page may still be loading after
# the click on a seat's link (a CI run met #result not yet there)
SOME = "document.querySelector('#options button') || document.getElementById('result')?.textContent"


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    with running(tmp_path_factory.mktemp("saves")) as (base, tables):
        yield base, tables


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


def start(page, base, spec, players, seats, seed=0):
    """Fill the lobby's form and start the game: its seat links."""
    page.goto(base + "/")
    page.wait_for_selector("#seat-P1")  # the lobby is ready: its forms answer
    page.select_option("#spec", spec)
    page.fill("#players", str(players))
    page.dispatch_event("#players", "change")
    page.fill("#seed", str(seed))
    for p, who in enumerate(seats, 1):
        page.fill(f"#seat-P{p}", who)
    page.click("#start")
    page.wait_for_selector(".seat-link")
    return {
        a.get_attribute("data-seat"): a.get_attribute("href")
        for a in page.query_selector_all(".seat-link")
    }


def test_a_person_plays_a_whole_game_by_clicking(served, browser):
    base, tables = served
    page = browser.new_page()
    links = start(page, base, "take_the_gold", 2, ["person", "random"], seed=1)
    page.click("a[data-seat=P1]")
    clicks = 0
    while True:
        page.wait_for_function(SOME)
        if page.text_content("#result"):
            break
        button = page.query_selector("#options button")
        try:
            button.click(timeout=5000)
        except (AttributeError, playwright.Error):  # redrawn meanwhile (None, detached)
            continue
        # until the choice's answer is drawn: never a second click on a stale option
        button.wait_for_element_state("hidden")
        clicks += 1
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    assert game.state.is_terminal() and clicks > 0
    winners = ", ".join(game.state.result["winners"]) or "nobody"
    assert page.text_content("#result").startswith(f"Game over: {winners} win")
    assert page.locator("#narration li").last.text_content().startswith("Game over after")
    page.close()


@SLOW
def test_agents_are_watched_played_paused_and_stepped(served, browser):
    base, _ = served
    page = browser.new_page()
    links = start(page, base, "take_the_gold", 2, ["first", "random"], seed=2)
    assert list(links) == ["spectator"]  # nobody to seat: one link, which sees everything
    assert page.text_content("#links p") == "Watch link (it shows every card):"
    page.click("a[data-seat=spectator]")
    page.wait_for_selector("#step")
    page.click("#step")
    page.wait_for_function("document.querySelectorAll('#narration li').length > 5")
    page.select_option("#speed", "300")  # a pause comes before the end
    page.click("#play")
    page.wait_for_function("document.querySelectorAll('#narration li').length > 8")
    page.click("#pause")
    page.wait_for_timeout(300)  # a step under way ends
    paused = page.locator("#narration li").count()
    page.wait_for_timeout(1000)  # three steps at this speed
    assert page.locator("#narration li").count() == paused and not page.text_content("#result")
    page.select_option("#speed", "50")
    page.click("#play")
    page.wait_for_function("document.getElementById('result')?.textContent", timeout=20_000)
    assert page.locator(".player[data-seat=P2] .area[data-zone=hand] .back").count() == 0
    page.close()


def open_replay(browser, base, log):
    """A new page with the log opened as a replay from the lobby, by its path."""
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#seat-P1")  # the lobby is ready: its forms answer
    page.fill("#log-path", str(log))
    page.click("#open-replay")
    page.wait_for_selector("#position")
    return page


def hand(page, seat):
    """The titles of a seat's hand as the page shows them (None: face down)."""
    area = page.locator(f".player[data-seat={seat}] .area[data-zone=hand]")
    if area.locator(".back").count():
        return None
    return sorted(area.locator(".card").all_text_contents())


def test_two_people_each_see_only_their_own_hand(served, browser):
    base, tables = served
    lobby = browser.new_page()
    links = start(lobby, base, "pirates_wild", 2, ["person", "person"], seed=4)
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    titles = game.table.titles
    pages = {}
    for seat in ("P1", "P2"):
        context = browser.new_context()  # a tab of its own: nothing shared
        pages[seat] = context.new_page()
        pages[seat].goto(base + links[seat])
    for _ in range(3):
        for seat, page in pages.items():
            page.reload()
            page.wait_for_selector(".player")
            other = "P2" if seat == "P1" else "P1"
            cards = game.state.observation(None)["zones"][f"hand[{seat}]"]
            assert hand(page, seat) == sorted(titles.card(c) for c in cards)
            assert hand(page, other) is None
        mover = pages[f"P{game.state.current_player() + 1}"]
        mover.reload()
        mover.wait_for_selector("#options button")
        mover.click("#options button")
    for page in pages.values():
        page.context.close()


@SLOW
def test_a_replay_is_scrubbed_back_and_forth(served, browser, tmp_path):
    base, _ = served
    log = tmp_path / "game.jsonl"
    assert (
        cli("run", GAMES / "take_the_gold.yaml", "--players", "2", "--seed", "3", "--log", log)[0]
        == 0
    )
    logged = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    titles = Titles.of(load_spec(GAMES / "take_the_gold.yaml"))
    page = open_replay(browser, base, log)

    def matches_the_log():
        page.wait_for_function("document.getElementById('where')?.textContent")
        where = page.text_content("#where")
        events = int(where.rsplit(" ", 1)[1])
        shown = [li.strip() for li in page.locator("#narration li").all_text_contents()]
        assert shown == [line.strip() for line in narrate(logged[:events], titles)]
        return int(where.split()[1])

    assert matches_the_log() == 0
    for name in ("First decision", "Back one decision", "Forward one decision", "Last decision"):
        # named (aria-label), for people and screen readers
        assert page.get_by_role("button", name=name, exact=True).count() == 1
    assert page.get_by_role("slider", name="Position in the game").count() == 1
    assert page.locator("link[rel=icon]").count() == 1
    for button in ["#forward"] * 4 + ["#back"] * 2 + ["#end", "#back", "#start", "#forward"]:
        before = page.text_content("#where")
        page.click(button)
        page.wait_for_function(
            f"document.getElementById('where').textContent !== {json.dumps(before)}"
        )
        at = matches_the_log()
        if button == "#end":  # the last rule that fired, highlighted in the rules graph
            fired = page.text_content("#fired")  # by the rule's title, not its node id
            assert fired.startswith("last fired: ") and ":" not in fired[len("last fired: ") :]
            assert page.locator("#graph .fired").count() == 1
    assert at == 1
    assert hand(page, "P1") is not None  # the spectator sees P1's hand
    page.select_option("#view-as", "P2")
    page.wait_for_selector("#status:has-text('as P2 saw it')")  # P2's view is drawn
    assert hand(page, "P1") is None and hand(page, "P2")
    page.close()


@SLOW
def test_a_seed_the_lobby_cannot_send_exactly_is_refused(served, browser):
    """A JavaScript number holds whole numbers exactly only to 2^53: a larger seed was
    sent rounded, so the game was not the one the seed names."""
    base, tables = served
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#seat-P1")
    page.fill("#seed", "9007199254740993")
    before = len(tables.games)
    page.click("#start")
    page.wait_for_selector("#error:has-text('a seed here is a whole number of at most')")
    assert page.locator(".seat-link").count() == 0
    assert len(tables.games) == before  # no game was made
    page.close()


@SLOW
def test_a_phone_gets_the_table_in_one_column(served, browser):
    """Neither page said how wide it is, so a phone laid them out 980 px wide, shrunk."""
    base, _ = served
    page = browser.new_page(viewport={"width": 375, "height": 667}, is_mobile=True)
    start(page, base, "take_the_gold", 2, ["person", "random"], seed=1)
    assert page.locator("meta[name=viewport]").count() == 1
    page.click("a[data-seat=P1]")
    page.wait_for_selector("#options button")
    assert page.locator("meta[name=viewport]").count() == 1
    assert page.evaluate("window.innerWidth") == 375
    columns = page.evaluate("getComputedStyle(document.querySelector('main')).gridTemplateColumns")
    assert len(columns.split()) == 1, columns
    # a redraw scrolls the narration box, not the page (a player's trial: every move took
    # a phone's page down past the options to the narration's last line)
    assert page.evaluate("window.scrollY") == 0
    page.click("#options button >> nth=0")
    page.wait_for_function("document.querySelector('#narration').children.length > 3")
    page.wait_for_timeout(300)
    assert page.evaluate("window.scrollY") == 0
    narration = page.locator("#narration")
    assert narration.evaluate("n => n.scrollTop + n.clientHeight >= n.scrollHeight - 1")
    page.close()


@SLOW
def test_a_replay_slider_moved_fast_shows_where_it_stopped(served, browser, tmp_path):
    """Answers to a slider moved fast over a long game came back out of order, and a
    late one was drawn: the label said decision 7 and the narration was of thousands."""
    base, _ = served
    log = tmp_path / "game.jsonl"
    assert cli("run", GAMES / "pirates_wild.yaml", "--seed", "4", "--log", log)[0] == 0
    logged = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    titles = Titles.of(load_spec(GAMES / "pirates_wild.yaml"))
    page = open_replay(browser, base, log)
    page.wait_for_selector("#where:not(:empty)")
    page.select_option("#view-as", "P2")
    page.wait_for_selector("#status:has-text('as P2 saw it')")
    page.evaluate(
        """() => { const s = document.getElementById('position');
        for (const v of [4000, 100, 3000, 50, 2000, 7]) {
            s.value = String(v); s.dispatchEvent(new Event('input')); } }"""
    )
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)  # the last answer drawn
    where = page.text_content("#where")
    assert where.split()[1] == "7", where
    events = int(where.rsplit(" ", 1)[1])
    shown = page.locator("#narration li").count()  # P2's words, a line for each of the log's
    assert shown == len(narrate(logged[:events], titles)) < 100
    page.close()


NEAR = "[...document.querySelectorAll('#graph g.node.near')].map((n) => n.querySelector('title').textContent)"
VIEW = "document.querySelector('#graph svg').getAttribute('viewBox').split(' ').map(Number)"


@pytest.mark.skipif(shutil.which("dot") is None, reason="no Graphviz (apt-get install graphviz)")
@SLOW
def test_the_rules_graph_pans_zooms_and_shows_a_rule_s_neighbourhood(served, browser):
    """Issue 28: a graph of 134 edges was a thumbnail; now it zooms, pans, and a click on
    a rule shows that rule and its neighbours, zoomed to, the rest faded."""
    base, _ = served
    page = browser.new_page()
    start(page, base, "pirates_wild", 2, ["person", "random"])
    page.click("a[data-seat=P1]")
    page.wait_for_selector("#graph svg g.node")
    g = page.evaluate("api('/graph')")
    whole = page.evaluate(VIEW)
    page.click("button[aria-label='zoom in']")
    zoomed = page.evaluate(VIEW)
    assert zoomed[2] == pytest.approx(whole[2] * 0.8)
    box = page.query_selector("#graph svg").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, 300)  # zoom out about the pointer
    assert page.evaluate(VIEW)[2] > zoomed[2]
    before = page.evaluate(VIEW)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 60, box["y"] + box["height"] / 2)
    page.mouse.up()
    assert page.evaluate(VIEW)[0] < before[0]  # dragged right: the view moved left

    busiest = max(
        g["nodes"], key=lambda n: sum(n["id"] in (e["source"], e["target"]) for e in g["edges"])
    )
    rule = busiest["id"]
    expected = {rule} | {
        e["target"] if e["source"] == rule else e["source"]
        for e in g["edges"]
        if rule in (e["source"], e["target"])
    }
    page.evaluate(
        "id => [...document.querySelectorAll('#graph g.node')]"
        ".find((n) => n.querySelector('title').textContent === id).dispatchEvent("
        "new MouseEvent('click', {bubbles: true}))",
        rule,
    )
    assert set(page.evaluate(NEAR)) == expected and 1 < len(expected) < len(g["nodes"])
    assert page.evaluate("document.getElementById('graph').classList.contains('focused')")
    assert busiest["label"] in page.text_content(".graph-caption")
    assert page.evaluate(VIEW) != whole
    page.keyboard.press("Escape")
    assert page.evaluate(NEAR) == [] and page.evaluate(VIEW) == whole
    page.close()


def _person_game(page, base, seed=6):
    """Take the Gold for a person at P1 and an agent at P2: the person's page."""
    links = start(page, base, "take_the_gold", 2, ["person", "first"], seed=seed)
    page.click("a[data-seat=P1]")
    page.wait_for_selector("#options button, #result:not(:empty)")
    return links


@SLOW
def test_the_discard_down_choice_shows_its_rules_title_and_prompt(served, browser):
    """Issue 28: "Your choice: Gold Coin | Officer | ..." never said what it asked. A
    person who keeps passing soon holds more than the hand limit."""
    base, _ = served
    page = browser.new_page()
    _person_game(page, base)
    titles = Titles.of(load_spec(GAMES / "take_the_gold.yaml"))
    for _ in range(60):
        page.wait_for_selector("#options .asking")
        asking = page.text_content("#options .asking > :first-child, #options .asking")
        if asking.startswith("Discard down"):
            break
        button = page.query_selector(
            "#options button.pass, #options button[data-label='no reaction']"
        ) or page.query_selector("#options button")
        try:
            button.click(timeout=5000)
        except (AttributeError, playwright.Error):  # redrawn meanwhile (None, detached)
            continue
        button.wait_for_element_state("hidden")  # until the choice's answer is drawn
    heading = page.evaluate("document.querySelector('#options .asking').firstChild.textContent")
    assert heading == "Discard down — which card do you discard?"
    assert page.text_content("#options .asking small") == titles.text("rules", "turn.discard_down")
    # every option a card of the hand, by its title; no Pass here
    hand_titles = set(page.locator(".player.you .card").all_text_contents())
    assert set(page.locator("#options button").all_text_contents()) <= hand_titles
    page.close()


@SLOW
def test_a_short_pile_is_listed_bottom_first_and_a_long_one_by_its_top(served, browser):
    """The discard pile as the page draws it, against the game: up to six cards each
    by title, bottom first, the top one marked (a pile of one has no other to tell it
    from: unmarked); past six its top card alone."""
    base, tables = served
    page = browser.new_page()
    links = _person_game(page, base, seed=3)
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    titles = Titles.of(load_spec(GAMES / "take_the_gold.yaml"))
    area = page.locator(".area[data-zone=discard_pile]")
    seen = set()
    for _ in range(200):
        pile = [titles.card(n) for n in game.state.observation(0)["zones"]["discard_pile"]]
        drawn = area.locator(".card").all_text_contents()
        if 1 <= len(pile) <= 6 and len(drawn) == len(pile):
            assert drawn == pile[:-1] + [pile[-1] + " (top)" * (len(pile) > 1)]
            seen.add("whole")
        elif len(pile) > 6 and area.locator(".top").count():
            assert drawn == [pile[-1]]
            seen.add("top")
            break
        button = page.query_selector("#options button:not(.pass)") or page.query_selector(
            "#options button"
        )
        if button is None:
            break
        try:
            button.click(timeout=5000)
            button.wait_for_element_state("hidden")
        except playwright.Error:  # redrawn meanwhile
            continue
    assert seen == {"whole", "top"}
    page.close()


@SLOW
def test_hovering_a_card_shows_its_text(served, browser):
    base, _ = served
    page = browser.new_page()
    _person_game(page, base)
    titles = Titles.of(load_spec(GAMES / "take_the_gold.yaml"))
    card = page.locator(".player.you .card").first
    name = card.get_attribute("data-card")
    assert page.locator("#tooltip").is_hidden()
    card.hover()
    page.wait_for_selector("#tooltip:not([hidden])")
    assert page.text_content("#tooltip") == titles.text("cards", name) != ""
    page.locator("#title").hover()  # away from it, the text goes
    page.wait_for_selector("#tooltip[hidden]", state="attached")
    # another seat's hand is face down: no card there to hover, and so no text
    assert page.locator(".player:not(.you) .area[data-zone=hand] .card").count() == 0
    page.close()


@SLOW
def test_the_rules_panel_lists_every_rule_and_parameters_stand_apart(served, browser):
    base, _ = served
    page = browser.new_page()
    _person_game(page, base)
    spec = load_spec(GAMES / "take_the_gold.yaml")
    titles = Titles.of(spec)
    page.wait_for_selector("#rules dt")
    shown = [dt.split(" ")[0] for dt in page.locator("#rules dt").all_inner_texts()]
    assert len(shown) == len(titles.rules) > 10
    texts = page.locator("#rules dd").all_text_contents()
    assert texts == [titles.text("rules", name) for name in titles.rules]
    assert "If at any point you have 0 cards in hand, immediately draw 2." in texts
    params = page.locator("#params th").all_text_contents()
    assert params == [p.title for p in spec.params]
    counters = page.locator("#counters th").all_text_contents()
    assert counters == [c.title for c in spec.counters] and not set(params) & set(counters)
    page.close()


@SLOW
def test_the_last_move_is_highlighted(served, browser):
    base, tables = served
    page = browser.new_page()
    links = _person_game(page, base)
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    button = page.query_selector("#options button.pass") or page.query_selector("#options button")
    button.click()  # a move of P1's, then the agent's
    button.wait_for_element_state("hidden")
    page.wait_for_selector("#narration li.last-move")
    marked = page.locator("#narration li.last-move").all_text_contents()
    last = last_move(game.state.log_for(0), game.table.titles)  # as P1's log has it
    assert re.match(r"P\d (plays|passes|chooses)", marked[0])  # the move's first line
    assert marked[0].startswith(last["player"])
    assert len(marked) == len(page.locator("#narration li").all_text_contents()) - last["line"]
    # the zones its cards went to: only zones, whatever P1 may see of the cards
    moved = page.locator(".area.moved")
    assert [moved.nth(k).get_attribute("data-label") for k in range(moved.count())] == [
        z for z in last["zones"] if page.locator(f".area[data-label='{z}']").count()
    ]
    page.close()


@SLOW
def test_a_finished_game_offers_a_new_game_at_the_same_table(served, browser):
    base, tables = served
    page = browser.new_page()
    links = start(page, base, "take_the_gold", 2, ["first", "random"], seed=8)
    page.click("a[data-seat=spectator]")
    page.wait_for_selector("#narration li")
    # watched from after the deal: the pile is shuffled and someone is to play
    assert not page.text_content("#turn").startswith("Turn 0")
    assert "the draw pile is shuffled" in page.locator("#narration li").all_text_contents()
    page.select_option("#speed", "50")
    page.click("#play")
    page.wait_for_selector("#rematch", timeout=30_000)
    old = re.search(r"game=(\w+)", links["spectator"]).group(1)
    page.click("#rematch")
    page.wait_for_url(re.compile(r"game=(?!" + old + r")\w+"))
    page.wait_for_selector("#play")
    new = re.search(r"game=(\w+)", page.url).group(1)
    assert new != old and not tables.game(new).state.is_terminal()
    assert tables.game(old).rematch is tables.game(new)
    assert not page.text_content("#result")
    page.close()


@SLOW
def test_each_seat_s_progress_toward_its_goals_is_drawn(served, browser):
    """Pirates Wild's table showed each ship's cards, not how far they went toward the
    treasures nor which came next: under each seat, each entry's count of its limit,
    the next one marked, those reached marked done."""
    base, tables = served
    page = browser.new_page()
    links = start(page, base, "pirates_wild", 2, ["greedy", "greedy"], seed=10)  # 73 turns
    game = tables.game(re.search(r"game=(\w+)", links["spectator"]).group(1))
    page.click("a[data-seat=spectator]")
    page.wait_for_selector("#step")
    page.select_option("#speed", "50")
    page.click("#play")
    page.wait_for_function("document.getElementById('result')?.textContent", timeout=60_000)
    seats = views.view(game.state, None, game.table)["seats"]
    for s in seats:
        (goal,) = s["goals"]
        line = page.locator(f".player[data-seat={s['seat']}] .goal[data-goal=treasures]")
        assert line.locator("span").all_text_contents() == [
            f"{e['title']} {e['have']}/{e['limit']}" for e in goal["entries"]
        ]
        marked = [
            f"{e['title']} {e['have']}/{e['limit']}"
            for e in goal["entries"]
            if e["title"] == goal["next"]
        ]
        assert line.locator(".next").all_text_contents() == marked
    # the winner collected every treasure: each entry marked done, none next
    (winner,) = game.state.result["winners"]
    done = page.locator(f".player[data-seat={winner}] .goal .done")
    assert done.count() == 5 and game.state.result["reason"] == "completion"
    page.close()


def _play_as(base, link):
    """A seat's move made over the API, as another person's browser makes it: its
    first option."""
    url, token = seat_api(base, link)
    options = call(f"{url}?token={token}")[1]["options"]
    assert options, "the seat has no decision"
    return call(f"{url}/choose?token={token}", {"option": options[0]["label"]})


@SLOW
def test_a_waiting_page_follows_the_game_past_a_failed_request(served, browser):
    """A user's trial: one failed request ("Failed to fetch") stopped a waiting page
    for good, showing the other seat to play long after it was this seat's turn. It
    says it is trying again, and catches up."""
    base, tables = served
    lobby = browser.new_page()
    links = start(lobby, base, "pirates_wild", 2, ["person", "person"], seed=4)
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    mover = f"P{game.state.current_player() + 1}"
    waiter = "P2" if mover == "P1" else "P1"
    page = browser.new_context().new_page()
    page.goto(base + links[waiter])
    page.wait_for_selector("#waiting:has-text('Waiting for')")
    failed = []

    def fail_once(route):
        if failed:
            route.continue_()
        else:
            failed.append(route.request.url)
            route.abort()

    page.route(re.compile(r".*/api/games/\w+/" + waiter + r"\?token=.*"), fail_once)
    page.wait_for_selector("#error:has-text('trying again')", timeout=10_000)
    while game.state.current_player() != int(waiter[1:]) - 1:  # the other person plays
        assert _play_as(base, links[mover])[0] == 200
    page.wait_for_selector("#options button", timeout=15_000)  # caught up: its own turn
    assert page.text_content("#error") == "" and page.text_content("#turn").endswith("your turn")
    page.context.close()


def test_a_page_whose_table_is_gone_says_so_for_good(served, browser):
    """A player's trial: after a server restart the page said "no such game (trying
    again)" every 3 s for ever, its options still clickable. A 404 is for good: it says
    where to go, greys the options and asks no more."""
    base, _ = served
    lobby = browser.new_page()
    links = start(lobby, base, "take_the_gold", 2, ["person", "random"], seed=1)
    page = browser.new_context().new_page()
    page.goto(base + links["P1"])
    page.wait_for_selector("#options button")
    asked = []

    def gone(route):
        asked.append(route.request.url)
        route.fulfill(
            status=404,
            content_type="application/json",
            body=json.dumps({"error": "no such game (the server may have been restarted)"}),
        )

    page.route(re.compile(r".*/api/games/\w+/P1\?token=.*"), gone)
    page.wait_for_selector("#error:has-text('open the lobby')", timeout=10_000)
    assert "trying again" not in page.text_content("#error")
    assert page.locator("#options button:not([disabled])").count() == 0
    page.wait_for_timeout(4000)
    assert len(asked) == 1, asked  # no more polls
    page.close()


@SLOW
def test_a_table_a_rule_stops_says_where_for_good_and_saves_it(tmp_path, browser):
    """A table whose game a rule stopped at an agent's move said the rule's place with
    "(trying again)" every 3 s for ever. It is for good: the options greyed, the place
    said once with the way to keep the game, Save game, which saves it."""
    spec = tmp_path / "boom.yaml"
    spec.write_text(BOOM)  # P2's agent takes the first option, the one whose rule fails
    with running(tmp_path, [str(spec)]) as (base, _):
        page = browser.new_page()
        links = start(page, base, "boom", 2, ["person", "first"])
        page.goto(base + links["P1"])
        page.click("#options button:has-text('fine')")
        page.wait_for_selector("#error:has-text('Save game keeps')", timeout=10_000)
        said = page.text_content("#error")
        assert said.startswith(f"{spec}:16:18: error RS701: the game stopped: rule 'act'")
        page.wait_for_timeout(4000)  # a retry would have come by now
        assert page.text_content("#error") == said and "trying again" not in said
        assert page.locator("#options button:not([disabled])").count() == 0
        page.click("#save")
        page.wait_for_selector("#saved:has-text('saved as')")
        page.close()


def test_a_refused_link_draws_no_table(served, browser):
    """A player's trial: a wrong token drew the error above a Save button and empty
    Counters, Parameters, What happened and Rules panels."""
    base, _ = served
    lobby = browser.new_page()
    links = start(lobby, base, "take_the_gold", 2, ["person", "random"], seed=1)
    page = browser.new_context().new_page()
    page.goto(base + re.sub(r"token=[\w-]+", "token=wrong", links["P1"]))
    page.wait_for_selector("#error:not(:empty)")
    assert page.locator("main").is_hidden()
    assert page.locator("#save").count() == 0
    page.close()


@SLOW
def test_a_second_tab_of_a_seat_shows_the_answer_given_in_the_first(served, browser):
    """A user's trial: a second tab on the seat kept offering a decision answered in
    the first, even after the game had ended; its buttons were refused with a message
    that flashed. It follows the game at its own decision too."""
    base, tables = served
    lobby = browser.new_page()
    links = start(lobby, base, "pirates_wild", 2, ["person", "random"], seed=4)
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    context = browser.new_context()
    first, second = context.new_page(), context.new_page()
    for page in (first, second):
        page.goto(base + links["P1"])
        page.wait_for_selector("#options button")
    shown = len(narrate(game.state.log_for(0), game.table.titles))
    first.click("#options button")
    # the second tab redraws the game as it now stands
    second.wait_for_function(
        f"document.querySelectorAll('#narration li').length > {shown}", timeout=10_000
    )
    now = [line.strip() for line in narrate(game.state.log_for(0), game.table.titles)]
    drawn = [li.strip() for li in second.locator("#narration li").all_text_contents()]
    assert len(drawn) > shown and now[: len(drawn)] == drawn
    context.close()


@SLOW
def test_a_page_opened_after_the_end_offers_to_join_the_next_game(served, browser):
    """A user's trial: a page loaded once the game was over never learnt of the next
    game another person started."""
    base, tables = served
    lobby = browser.new_page()
    links = start(lobby, base, "take_the_gold", 2, ["person", "person"], seed=2)
    game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
    while not game.state.is_terminal():
        assert _play_as(base, links[f"P{game.state.current_player() + 1}"])[0] == 200
    page = browser.new_context().new_page()
    page.goto(base + links["P2"])
    page.wait_for_selector("#rematch")
    url, token = seat_api(base, links["P1"])
    assert call(f"{url}/rematch?token={token}", {})[0] == 200
    page.wait_for_selector("#rematch-link", timeout=10_000)
    page.context.close()


@SLOW
def test_a_replay_shows_the_options_offered_and_the_one_taken_not_buttons_to_press(
    served, browser, tmp_path
):
    base, _ = served
    log = tmp_path / "game.jsonl"
    argv = ("run", GAMES / "take_the_gold.yaml", "--players", "2", "--seed", "3", "--log", log)
    assert cli(*argv)[0] == 0
    choices = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    choices = [e for e in choices if e.get("event") == "choice"]
    page = open_replay(browser, base, log)
    page.select_option("#view-as", "P1")
    page.wait_for_selector("#status:has-text('as P1 saw it')")
    for _ in range(12):  # forward to P1's first decision with options
        if page.locator("#options button").count():
            break
        page.click("#forward")
        page.wait_for_timeout(150)
    at = int(page.text_content("#where").split()[1])
    buttons = page.locator("#options button")
    assert buttons.count() > 0 and all(b.is_disabled() for b in buttons.all())
    assert (
        page.locator("#options button.chosen").get_attribute("data-label") == choices[at]["option"]
    )
    page.close()


@SLOW
def test_changing_the_player_count_keeps_the_seat_fields_and_the_game_s_range(served, browser):
    """A user's trial: the seat fields were drawn again when Players lost focus, so a
    click into one was lost with what was typed; 20000 players drew 20,000 fields."""
    base, _ = served
    page = browser.new_page()
    page.goto(base + "/")
    page.wait_for_selector("#seat-P1")
    page.select_option("#spec", "take_the_gold")
    page.fill("#players", "3")
    page.click("#seat-P2")  # Players loses focus: the seats follow, this field stays
    page.keyboard.press("Control+A")
    page.keyboard.type("greedy")
    assert page.input_value("#seat-P2") == "greedy"
    assert page.locator("input[name=seat]").count() == 3
    page.fill("#players", "20000")
    page.dispatch_event("#players", "change")
    assert page.input_value("#players") == "6" and page.locator("input[name=seat]").count() == 6
    assert page.input_value("#seat-P2") == "greedy"  # kept
    page.close()


@SLOW
def test_a_choice_of_many_sets_of_cards_is_picked_card_by_card(tmp_path, browser):
    """A Hearts designer's pass of 3 cards from 13 showed 286 buttons; past 20 sets the
    page shows the cards offered, each picked or put back, and Choose once the picks
    make a set on offer."""
    gifts = GAMES.parent / "tests" / "valid" / "three_gifts.yaml"
    with running(tmp_path, [str(gifts)]) as (base, tables):
        page = browser.new_page()
        links = start(page, base, "three_gifts", 2, ["person", "first"])
        page.click("a[data-seat=P1]")
        page.wait_for_selector(".picker")
        hand = ["Candle", "Drum", "Egg", "Fan", "Gem", "Red Apple", "Brass Bell"]
        assert page.locator("button.pick").all_text_contents() == hand  # P1's, in deck order
        done = page.locator(".pick-done")
        for card in ("drum", "candle", "apple", "candle"):  # the Candle picked, put back
            page.click(f"button.pick[data-card='{card}']")  # each by its card's name
        assert done.is_disabled()  # two cards make no set of three
        page.click("button.pick[data-card='bell']")
        assert done.is_enabled()
        done.click()
        game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
        page.wait_for_selector(".picker button.pick >> nth=0", state="detached")
        given = game.state.observation(None)["zones"]["given[P1]"]
        assert sorted(given) == ["apple", "bell", "drum"]
        page.close()


@SLOW
def test_a_person_chooses_before_their_turn_at_a_simultaneous_choice(tmp_path, browser):
    """Moon Garden's picks are asked seat by seat; P2's page offers P2's picks at once,
    and after the click says what P2 chose until P1 has chosen."""
    with running(tmp_path, [str(GAMES / "draft.yaml")]) as (base, tables):
        page = browser.new_page()
        links = start(page, base, "draft", 2, ["person", "person"], seed=1)
        page.goto(base + links["P2"])
        page.wait_for_selector("#options button")
        page.click("#options button >> nth=0")
        page.wait_for_selector("#options .picked")
        assert page.text_content("#options .picked").startswith("Your choice: ")
        game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
        assert game.state.current_player() == 0 and 1 in game.early
        page.close()


def test_a_seat_asked_in_another_s_turn_is_marked_asked(tmp_path, browser):
    """A browser trial: while P2 answers P1's lead at a step offered round the table,
    every page said "P1's turn", and nothing showed that P2 was the one asked. P2's box
    is marked `asked`, on both pages."""
    with running(tmp_path, [str(GAMES.parent / "tests" / "valid" / "beat_or_take.yaml")]) as (
        base,
        tables,
    ):
        page = browser.new_page()
        links = start(page, base, "beat_or_take", 2, ["person", "person"], seed=1)
        game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
        page.goto(base + links["P1"])
        for _ in range(5):  # P1 leads, then passes at the bout: P2 is asked
            if game.state.current_player() != 0:
                break
            length = game.state.length
            page.wait_for_selector("#options button")
            page.click("#options button >> nth=0")
            for _ in range(100):  # the choice reaches the game
                if game.state.length != length:
                    break
                page.wait_for_timeout(50)
        assert game.state.observation(None).get("turn_of") == "P1"  # P2 is asked in P1's turn
        page.goto(base + links["P1"])
        page.wait_for_selector("[data-seat='P2'] h3")
        assert page.text_content("[data-seat='P2'] h3") == "P2 (asked)"
        page.goto(base + links["P2"])
        page.wait_for_selector("#options button")
        assert page.text_content("[data-seat='P2'] h3") == "P2 (you, asked)"
        assert page.text_content("#turn") == "Turn 1: P1's turn, you choose"
        page.close()


def test_an_empty_face_down_zone_reads_empty(tmp_path, browser):
    """A browser trial read "0 face down" for the other seat's empty stash."""
    spec = GAMES.parent / "tests" / "valid" / "building_piles.yaml"
    with running(tmp_path, [str(spec)]) as (base, _):
        page = browser.new_page()
        links = start(page, base, "building_piles", 2, ["person", "person"], seed=1)
        page.goto(base + links["P1"])
        page.wait_for_selector("[data-seat='P2'] .area.hidden")
        stashes = page.query_selector_all("[data-seat='P2'] .area.hidden .back")
        assert "empty" in [s.text_content() for s in stashes]
        page.close()


@SLOW
def test_the_values_a_spec_shows_are_drawn_and_a_hand_s_worth_on_its_page_alone(tmp_path, browser):
    """Named values the table shows (`shown: true`): the colour that scores beside the
    shared zones, each seat's score in its box, and what a hand is worth in its own
    seat's box on its own page alone."""
    spec = GAMES.parent / "tests" / "valid" / "top_colour.yaml"
    with running(tmp_path, [str(spec)]) as (base, tables):
        page = browser.new_page()
        links = start(page, base, "top_colour", 2, ["person", "person"], seed=1)
        game = tables.game(re.search(r"game=(\w+)", links["P1"]).group(1))
        page.goto(base + links["P1"])
        page.wait_for_selector("#values tr")
        seen = views.view(game.state, 0, game.table)
        row = '#values tr[data-name="colour"]'
        assert page.text_content(f"{row} th") == "Colour that scores"
        assert page.text_content(f"{row} td") == seen["values"][0]["value"] == "red"
        for seat in ("P1", "P2"):
            box = f'.player[data-seat={seat}] tr[data-name="score[{seat}]"]'
            assert page.text_content(f"{box} th") == "Score"
            assert page.text_content(f"{box} td") == "0"
        worth = next(
            v
            for s in seen["seats"]
            if s["you"]
            for v in s["values"]
            if v["title"] == "Points in hand"
        )
        mine = '.player[data-seat=P1] tr[data-name="in_hand[P1]"] td'
        assert page.text_content(mine) == str(worth["value"])
        assert (
            page.locator('tr[data-name="in_hand[P2]"]').count() == 0
        )  # P2's hand: not P1's to see
        page.close()


def test_a_steps_pass_and_a_yes_or_no_parameter_read_as_a_person_says_them(tmp_path, browser):
    """The betting round's pass is named Fold (pass_title), and a true/false parameter
    reads yes or no (an Oh Hell designer's Rules line read 'fails false')."""
    text = (GAMES.parent / "tests" / "valid" / "betting.yaml").read_text()
    spec = tmp_path / "betting.yaml"
    spec.write_text(
        text.replace(
            "parameters:\n", "parameters:\n  antes_back: {default: true, title: Antes back}\n", 1
        )
    )
    with running(tmp_path, [str(spec)]) as (base, _):
        page = browser.new_page()
        links = start(page, base, "betting", 2, ["person", "person"], seed=1)
        page.goto(base + links["P1"])
        page.wait_for_selector("#options button")
        assert page.text_content('#params tr[data-name="antes_back"] td') == "yes"
        page.get_by_role("button", name="Raise").click()
        page.goto(base + links["P2"])
        page.wait_for_selector("#options button")
        options = page.locator("#options button").all_text_contents()
        assert any("Fold" in o for o in options) and not any("Pass" in o for o in options)
        page.close()


@SLOW
def test_the_lobby_offers_only_the_player_counts_a_game_allows(tmp_path, browser):
    """A game for 2 or 4 (players.counts): stepping the count up from 2 lands on 4, down
    from 4 on 2, and a 3 typed in is taken to the next count the game allows."""
    spec = GAMES.parent / "tests" / "valid" / "two_or_four.yaml"
    with running(tmp_path, [str(spec)]) as (base, _):
        page = browser.new_page()
        page.goto(base + "/")
        page.wait_for_selector("#seat-P4")  # its default, 4
        page.fill("#players", "3")
        page.dispatch_event("#players", "change")
        assert page.input_value("#players") == "2"  # down from 4: the count below
        assert page.locator("input[name=seat]").count() == 2
        page.fill("#players", "3")
        page.dispatch_event("#players", "change")
        assert page.input_value("#players") == "4"  # up from 2: the count above
        assert page.locator("input[name=seat]").count() == 4
        status, answer = call(base + "/api/games", {"spec": "two_or_four", "players": 3})
        assert status == 400 and "is for 2 or 4 players, not 3" in answer["error"]
        page.close()
