"""Short rule help for ``/citta rules [topic]`` (the full rules are in shared/rules.md).

Each topic's text is an English message, translated into the reader's language with that
language's rulebook terms; the topics' keys are the command's choices (Discord shows each
reader their names, `NAMES`). What a topic says about playing on Discord is kept apart
(`ON_DISCORD`), so that local play (`bot.local`) can leave it out.
"""

from __future__ import annotations

from bot.results import Message
from i18n import N_, _

TOPICS: dict[str, str] = {
    "overview": N_(
        "**La Città** — 6 years. Grow your cities: citizens score 1 point each, and each city with a "
        "culture, an education and a health building scores 3 more. Each year: voice of the people "
        "(1 card up, 3 down), quarry income, growth, 5 political rounds, the voice is revealed, "
        "citizens move to the cities that serve them best, then everyone must feed their people."
    ),
    "turn": N_(
        "**Your turn** (5 a year): play an action card — `gold` (2 gold), `found HEX from HEX2` (new "
        "city, once a year, with a spare citizen of your city at HEX2) or `build B HEX` (small building, "
        "free) — or a face-up politics card (`palace HEX`, "
        "`master B HEX`, `golden N HEX`, `bread N HEX`, `harvest HEX`, `poll A B`). With no action card "
        "left you may `pass`."
    ),
    "build": N_(
        "**Building**: next to a building of the city, never next to another city. A citizen moves from "
        "the castle to the new building, so the castle needs 2. Fountains and baths need a lake. "
        "Limits: 5 citizens, 8 with a market, no limit with a market and a fountain or bath."
    ),
    "cards": N_(
        "**Politics cards**: Palace/Hospital/Bath 1 gold, Cathedral/University 3, Master Builder 1/2/4 "
        "(small/medium/large), Golden Times 0/2/5 for 1/2/3 citizens, Bread and Games 0/2/5 for 1/2/3 "
        "notables on an arch (this year only), Rich Harvest (a farm feeds double this year), Polling the "
        "People (look at 2 face-down voice cards free, all 3 for 2 gold — sent to you privately)."
    ),
    "voice": N_(
        "**Voice and relocation**: after the 5 rounds the 3 face-down voice cards are revealed; the "
        "service with most cards is what the people want (2–2: both, each player picks per city with "
        "`prefer HEX S`). In turn, each of your cities takes one citizen from every neighbouring "
        "opposing city (within 3 steps) that has strictly fewer points in that service. When two of "
        "your cities would take the last citizen of the same city, you choose which goes first "
        "(`first HEX`)."
    ),
    "feeding": N_(
        "**Feeding**: castles and farms produce food from adjacent farmland. Citizens beyond your food "
        "leave (`starve HEX …` chooses from where) and you lose your first turn next year (5 points "
        "in year 6). A city keeps one building per citizen beyond the castle: the rest are demolished "
        "(`demolish HEX …`, from the edge inwards)."
    ),
    "scoring": N_(
        "**End**: 1 point per citizen, +3 per city with a culture, an education and a health building "
        "(notables do not count), −5 for hunger in year 6. Ties: most gold, else a shared win."
    ),
    "bot": N_(
        "**Playing here**: `/citta new` opens a lobby, `/citta play` makes a move (autocomplete lists "
        "the legal ones — type a hex like `F7` to see moves there), buttons answer quick decisions, "
        "`/citta status` says who we wait for, `/citta board`, `/citta log`, `/citta score`, "
        "`/citta secrets` shows your polled cards, `/citta resign`, `/citta abandon`."
    ),
    "async": N_(
        "**Playing over days**: each move has a deadline (`/citta settings`, host: deadline, reminders, "
        "what happens at the deadline — wait, a computer decides, or the least harmful move — and when the "
        "board is posted). `/citta me quiet 22-08 UTC+1` sets your quiet hours (no reminders), "
        "`/citta me reminders dm` reminds you by DM. `/citta vacation 3` pauses your clock; `/citta undo` "
        "takes back your last move (not after a card or the voice was revealed); `/citta recap` tells you "
        "what happened since your move; `/citta export` gives the record; `/citta replace @old @new` (host) "
        "hands over a seat; `/citta add-ai` adds a computer player to a lobby."
    ),
}
"""The help of each topic (a message: translate it with ``_``)."""
ON_DISCORD: dict[str, str] = {
    "turn": N_("Use `/citta play` — its list shows your legal moves."),
}
"""What a topic adds for play on Discord (after its text)."""
NAMES: dict[str, str] = {
    "overview": N_("overview"), "turn": N_("turn"), "build": N_("build"), "cards": N_("cards"),
    "voice": N_("voice"), "feeding": N_("feeding"), "scoring": N_("scoring"), "bot": N_("bot"),
    "async": N_("async"),
}  # fmt: skip
"""Each topic's name for the reader (the command's choices show the same)."""


def topic_text(key: str) -> str:
    """The help of topic ``key`` in the current language (without what is about Discord)."""
    return _(TOPICS[key])


def rules_text(topic: str | None) -> str:
    """The help for ``topic`` (the overview and the list of topics when none or unknown), in the
    current language."""
    key = (topic or "overview").strip().lower()
    if key not in TOPICS:
        return _("No help on {topic}. Topics: {topics}.", topic=repr(topic), topics=", ".join(TOPICS))
    body = topic_text(key)
    if key in ON_DISCORD:
        body += " " + _(ON_DISCORD[key])
    if topic:
        return body
    others = ", ".join(_(NAMES[t]) for t in TOPICS if t != "overview")
    return body + "\n" + _("More: `/citta rules` with {topics}.", topics=others)


def rules_message(topic: str | None = None) -> Message:
    """``/citta rules``: the short help on ``topic`` (the overview by default), privately."""
    return Message(rules_text(topic), ephemeral=True)
