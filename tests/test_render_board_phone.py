"""The board at phone size: an overview with no small text and close-ups where every label
reads (issue 13), and the board's defects fixed on the poster too."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

from engine.board import BOARD
from engine.views import CityView, View
from i18n import LANGUAGES, speaking
from render import badges, captions, fonts, sprites
from render.closeup import Region, closeup_regions, draw_closeup, fits, frame
from render.compose import compose
from render.geometry import Box, Geometry, geometry
from render.icons import ICONS, caption
from render.overview import draw_overview
from render.pieces import shows_sites
from render.samples import Sample, finished_game, gallery, new_game, play

WIDTH = 1080


@pytest.fixture(scope="module")
def samples() -> list[Sample]:
    return gallery()


@pytest.fixture
def rule() -> Iterator[list[fonts.TooSmall]]:
    """`fonts.too_small`, cleared before the test and checked empty after it."""
    fonts.too_small.clear()
    yield fonts.too_small
    assert fonts.too_small == []


def focus(view: View) -> int | None:
    """Who acts next: the seat on turn, else the first seat with a decision."""
    return view.turn if view.turn is not None else (view.pending[0] if view.pending else None)


def inside(box: Box, g: Geometry) -> bool:
    """Whether ``box`` lies wholly in the board part of the picture of ``g``."""
    return box[0] >= 0 and box[1] >= 0 and box[2] <= g.width and box[3] <= g.board_height


def all_cities(view: View) -> list[CityView]:
    return [c for p in view.players for c in p.cities]


def test_overview_and_closeups_of_every_sample_draw_no_text_below_the_phone_rule(
    samples: list[Sample], rule: list[fonts.TooSmall]
) -> None:
    for s in samples:
        assert draw_overview(s.view, s.highlight, WIDTH).width == WIDTH
        regions = closeup_regions(s.view, s.highlight, focus(s.view))
        assert 1 <= len(regions) <= 2, s.name
        for region in regions:
            assert draw_closeup(s.view, region, s.highlight, WIDTH).width == WIDTH
    assert rule == []


@pytest.mark.parametrize("width", [600, 1600])
def test_the_rule_holds_at_other_widths_too(
    samples: list[Sample], rule: list[fonts.TooSmall], width: int
) -> None:
    s = next(s for s in samples if s.name == "late-5p")
    draw_overview(s.view, s.highlight, width)
    for region in closeup_regions(s.view, s.highlight, 0):
        draw_closeup(s.view, region, s.highlight, width)


def test_a_sprite_made_for_the_poster_is_not_reused_where_its_text_would_be_too_small(
    rule: list[fonts.TooSmall],
) -> None:
    r = geometry(WIDTH).radius
    poster = sprites.castle_tile(0, "A", r)  # outside any picture: no smallest size
    with fonts.picture(WIDTH):
        phone = sprites.castle_tile(0, "A", r)
        for _ in range(2):  # drawn, then from the cache: too small both times
            assert captions.caption("Farm", r, 4).height >= fonts.smallest()
    assert phone.tobytes() != poster.tobytes()
    assert [t.size for t in rule] == [4, 4]
    rule.clear()


def test_a_closeup_frames_every_hex_of_its_region(samples: list[Sample]) -> None:
    for s in samples:
        for region in closeup_regions(s.view, s.highlight, focus(s.view)):
            g = frame(region, WIDTH)
            for h in region.hexes:
                assert inside(g.hex_box(h), g), (s.name, region, h)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_whole_building_names_fit_under_their_pictures_in_a_closeup(lang: str) -> None:
    for width in (600, WIDTH, 1600):
        r = frame(Region("", ("I9",)), width).radius
        with fonts.picture(width), speaking(lang):
            for word in map(caption, ICONS):
                size = captions.caption_size(word, r)
                assert size >= fonts.smallest()
                assert captions.caption(word, r, size).width <= r * captions.CAPTION_ROOM, (width, word)
                lines = captions.caption_lines(word, r, size)
                assert len(lines) <= 2 and "".join(lines).replace("-", "") == word.replace("-", ""), lines


def test_a_building_name_too_long_for_one_line_is_hyphenated_between_syllables() -> None:
    r = frame(Region("", ("I9",)), WIDTH).radius
    with fonts.picture(WIDTH):
        size = fonts.smallest()
        assert captions.caption_lines("Farm", r, size) == ["Farm"]
        assert captions.caption_lines("Klosterschule", r, size) == ["Kloster-", "schule"]
        assert captions.caption_lines("Steengroeve", r, size) == ["Steen-", "groeve"]
        assert captions.caption_lines("Cathédrale", r, size) == ["Cathé-", "drale"]


def test_a_city_without_a_limit_shows_infinity_not_a_number(
    samples: list[Sample], monkeypatch: pytest.MonkeyPatch
) -> None:
    view = next(s for s in samples if s.name == "late-5p").view
    city = max(all_cities(view), key=lambda c: len(c.buildings))
    free = city.model_copy(update={"limit": None, "population": 7})
    assert badges.tokens(free)[0][0] == "7/" + badges.NO_LIMIT
    assert badges.tokens(free.model_copy(update={"limit": 6}))[0][0] == "7/6"
    players = [
        p.model_copy(update={"cities": [free if c.castle == city.castle else c for c in p.cities]})
        for p in view.players
    ]
    drawn: list[str] = []
    real = fonts.text

    def spy(target: Image.Image, xy: tuple[float, float], s: str, *args: Any, **kw: Any) -> None:
        drawn.append(s)
        real(target, xy, s, *args, **kw)

    monkeypatch.setattr(fonts, "text", spy)
    badges._badge.cache_clear()
    draw_closeup(view.model_copy(update={"players": players}), Region("", (city.castle,)))
    assert "7/" in drawn
    assert not [s for s in drawn if s.startswith("7/") and s != "7/"]


def phase_views() -> dict[str, View]:
    """A player's view (a seat with cities, so with hexes it could build on) in each phase."""
    out: dict[str, View] = {}
    g = new_game(3, 5, "experienced")
    play(g, random.Random(5), lambda g: len(g.state.cities) >= 3)
    out["setup"] = g.view(0)
    for seed in range(40):
        g = new_game(3, seed)
        play(g, random.Random(seed), lambda g: g.state.phase not in ("politics", *out))
        if g.state.phase in ("feeding", "demolition", "relocation"):
            out[g.state.phase] = g.view(g.pending_seats()[0])
        if {"feeding", "demolition", "relocation"} <= set(out):
            break
    g, _ = finished_game(3, 4)
    out["over"] = g.view(0)
    return out


def test_build_outlines_show_only_on_the_viewers_turn_in_a_political_round() -> None:
    views = phase_views()
    assert set(views) == {"setup", "feeding", "demolition", "relocation", "over"}
    for phase, view in views.items():
        assert view.phase == phase and view.sites, phase
        assert not shows_sites(view), phase
    g = new_game(3, 8)
    seat = g.pending_seats()[0]
    assert shows_sites(g.view(seat))
    assert not shows_sites(g.view((seat + 1) % 3))
    assert not shows_sites(g.view(None))


def test_no_build_outlines_are_drawn_in_feeding() -> None:
    g = new_game(3, 8)
    view = g.view(g.pending_seats()[0])
    assert view.sites and shows_sites(view)
    region = Region("", (view.sites[0],))
    feeding = view.model_copy(update={"phase": "feeding", "turn": None})
    without = view.model_copy(update={"sites": []})
    assert draw_closeup(feeding, region).tobytes() == draw_closeup(without, region).tobytes()
    assert draw_closeup(view, region).tobytes() != draw_closeup(without, region).tobytes()
    poster = compose(feeding).tobytes()
    assert poster == compose(without.model_copy(update={"phase": "feeding", "turn": None})).tobytes()


def test_the_last_move_ring_never_covers_a_building_name(samples: list[Sample]) -> None:
    view = next(s for s in samples if s.name == "late-5p").view
    city = max(all_cities(view), key=lambda c: len(c.buildings))
    region = Region("", (city.castle,))
    g = frame(region, WIDTH)
    plain = draw_closeup(view, region)
    r = g.radius
    checked = 0
    for b in city.buildings:
        ringed = draw_closeup(view, region, [b.hex, *(n.hex for n in city.buildings if n is not b)])
        x, y = g.center(b.hex)
        word = caption(b.kind)
        with fonts.picture(WIDTH):
            w, h = captions.caption(word, r, captions.caption_size(word, r)).size
        top = plain.height - g.board_height  # the title strip
        inset = h // 3  # inside the plate's rounded corners
        left, upper = round(x - w / 2) + inset, top + round(y + r * captions.CAPTION_Y - h / 2) + 2
        box = (left, upper, left + w - 2 * inset, upper + h - 4)
        if box[0] >= 0 and box[2] <= WIDTH and top <= box[1] and box[3] <= plain.height:
            assert ringed.crop(box).tobytes() == plain.crop(box).tobytes(), b
            checked += 1
    assert checked >= 3


def test_each_badge_sits_beside_its_own_castle(samples: list[Sample]) -> None:
    for s in samples:
        closeups = [frame(r) for r in closeup_regions(s.view, s.highlight, focus(s.view))]
        for g in [geometry(1400), geometry(WIDTH), *closeups]:
            img = Image.new("RGB", (g.width, g.board_height))
            where = badges.place_badges(img, g, s.view, s.highlight, [])
            if g in closeups:
                assert all(inside(box, g) for box in where.values()), s.name
            else:
                assert set(where) == {c.castle for c in all_cities(s.view)}
            for castle, (x0, y0, x1, y1) in where.items():
                cx, cy = g.center(castle)
                assert abs((x0 + x1) / 2 - cx) < 2.1 * g.radius and abs((y0 + y1) / 2 - cy) < 1.7 * g.radius
                for other in all_cities(s.view):  # a badge hides no castle
                    ox, oy = g.center(other.castle)
                    assert not (x0 < ox < x1 and y0 < oy < y1), (s.name, castle, other.castle)


def test_the_last_move_and_far_away_cities_get_a_closeup_each() -> None:
    g = new_game(5, 3)
    view = g.view(None)
    seat = g.pending_seats()[0]
    cities = view.players[seat].cities
    far = max(BOARD.labels, key=lambda h: min(BOARD.distance(h, c.castle) for c in cities))
    regions = closeup_regions(view, [far], seat)
    assert regions[0] == Region(f"Last move: {far}", (far,))
    assert len(regions) == 2 and regions[1].title.startswith(f"{view.players[seat].name}'s cit")
    assert any(c.castle in regions[1].hexes for c in cities)
    home = cities[0].castle
    near = closeup_regions(view, [home], seat)
    assert len(near) == 1 and home in near[0].hexes
    assert near[0].title.startswith(f"Last move: {home} / {view.players[seat].name}'s cit")


def test_without_a_move_or_focus_the_closeup_shows_the_acting_player_then_the_busiest_part() -> None:
    assert not fits(["A9", "Q9"]) and fits(["I9", "J9", "I10"])
    start = new_game(3, 3).view(None)
    assert start.turn is not None
    assert closeup_regions(start, [], None)[0].title.startswith(start.players[start.turn].name)
    assert closeup_regions(start, ["A9", "Q9"], None)[0].hexes == ("A9",)
    over, _ = finished_game(3, 4)
    assert [r.title for r in closeup_regions(over.view(None), [], None)] == ["The busiest part of the board"]
    empty = new_game(3, 3, "experienced").view(None)
    assert closeup_regions(empty, [], None) == [Region("The centre of the board", ("I9",))]
