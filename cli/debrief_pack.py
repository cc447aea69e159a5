"""The debrief's take-home pack: a printable PDF of a recorded session.

    sandtable debrief game.sqlite --pdf pack.pdf

Page 1: the session at a glance and the map (every unit's trail, engagements coloured by outcome);
then the rolls that decided it (the least likely kills and hits), every engagement with its odds,
casualties over time, the bookmarks, and what a cut-off recording lost. The facts and pictures are
the debrief's (:mod:`debrief.facts`, :mod:`debrief.plots`); the pages are printing's
(:mod:`printing.document`). It lives with the command line because it is the one front end allowed
to join the two (the debrief and printing import neither each other: tests/test_layering.py).
"""
from __future__ import annotations

from pathlib import Path

from debrief.compare import deciding_engagements, first_contact
from debrief.facts import DebriefFacts, Engagement, Progress, read_debrief_facts
from debrief.plots import OUTCOME_STYLE, casualties_png, table_map
from debrief.report import clock
from printing.document import Block, DocumentSummary, Heading, Paragraph, Picture, SvgMark, Table, write_document


def write_debrief_pack(recording: str | Path, out: str | Path, *, paper: str = "letter",
                       progress: Progress | None = None,
                       contour_interval: float | None = None) -> tuple[DebriefFacts, DocumentSummary]:
    """Read ``recording`` and print its pack to ``out`` (written whole or not at all); ``contour_interval``
    as for the report's map (:func:`debrief.plots.table_map`)."""
    facts = read_debrief_facts(recording, progress=progress)
    report = progress or (lambda stage, done, total: None)
    report("drawing the map", 0, 2)
    blocks = pack_blocks(facts, contour_interval=contour_interval)
    report("drawing the map", 2, 2)
    summary = write_document(out, blocks, title=f"Debrief: {facts.title}", paper=paper,
                             progress=lambda done, total: report("printing pages", done, total))
    return facts, summary


def pack_blocks(facts: DebriefFacts, *, contour_interval: float | None = None) -> list[Block]:
    blocks: list[Block] = [Heading(f"Debrief: {facts.title}"), Paragraph(_glance(facts), size_pt=9)]
    if facts.problems:
        blocks.append(Paragraph("Note: " + "; ".join(facts.problems), size_pt=8, grey=110))
    table = table_map(facts, contour_interval=contour_interval)  # the map, and each unit's military symbol drawn over it as vectors
    blocks += [Picture(table.png, marks=tuple(SvgMark(s.svg, s.box) for s in table.symbols))]

    # chapters start on a page of their own when they have tables to show; a quiet game fits on fewer sheets
    busy = bool(facts.engagements)
    blocks.append(Heading("The rolls that decided it", new_page=busy))
    deciding = deciding_engagements(facts, count=8)
    if deciding:
        blocks.append(Paragraph("The least likely kills and hits: attacks that went the attacker's way with the lowest "
                                "chance the players were shown before rolling.", size_pt=8.5, grey=60))
        blocks.append(Table(("time", "attacker", "target", "weapon", "chance", "odds shown", "outcome"),
                            tuple((clock(d.engagement.t_s), d.engagement.attacker_name, d.engagement.target_name,
                                   d.engagement.weapon, f"{d.chance:.0%}", d.engagement.odds_text(), d.engagement.outcome.value)
                                  for d in deciding),
                            widths=(0.7, 1.4, 1.4, 1.5, 0.7, 1.7, 1.1),
                            keys=tuple(OUTCOME_STYLE[d.engagement.outcome][0] for d in deciding)))
    else:
        blocks.append(Paragraph("No kill or hit with odds shown in this session."))

    blocks.append(Heading("Engagements"))
    if facts.engagements:
        blocks.append(Paragraph("Every attack on every target, with the distance the rules measured and the odds the "
                                "players were shown before rolling. The bar left of each row is the outcome's colour on "
                                "the map.", size_pt=8.5, grey=60))
        blocks.append(Table(("time", "round", "attacker", "weapon", "target", "distance", "hits", "odds shown", "outcome"),
                            tuple(_engagement_row(e) for e in facts.engagements),
                            widths=(0.65, 0.5, 1.3, 1.3, 1.3, 1.2, 0.5, 1.5, 1.0),
                            keys=tuple(OUTCOME_STYLE[e.outcome][0] for e in facts.engagements)))
    else:
        blocks.append(Paragraph("No attack was resolved in this session."))

    blocks.append(Heading("Casualties over time", new_page=busy))
    blocks.append(Picture(casualties_png(facts)))
    if facts.casualties:
        blocks.append(Table(("time", "unit", "side", "what", "how"),
                            tuple((clock(c.t_s), c.name, c.side, c.change, c.cause) for c in facts.casualties),
                            widths=(0.7, 1.5, 1.4, 1.0, 3.6), keys=tuple(facts.color_of(c.side) for c in facts.casualties)))
    else:
        blocks.append(Paragraph("Nobody was hurt."))

    blocks.append(Heading("Bookmarks"))
    if facts.bookmarks:
        blocks.append(Table(("", "time", "note", "topic"),
                            tuple((f"B{i}", clock(b.t_s), b.note or "(no note)", b.topic)
                                  for i, b in enumerate(facts.bookmarks, 1)),
                            widths=(0.4, 0.8, 4.7, 1.8)))
    else:
        blocks.append(Paragraph("No bookmarks were made (Ctrl+B in the window marks a moment to come back to)."))

    if facts.topics:
        # The debrief by topic as well as by time: what the instructor planned to look at, with its moments.
        blocks.append(Heading("Review topics"))
        # One table, the topic named on its first row: a topic's name never ends a page without its moments.
        rows: list[tuple[str, ...]] = []
        for topic in facts.topics:
            title = f"{topic.name} ({topic.criteria})"
            rows += [(title if i == 0 else "", clock(m.t_s), m.source, m.text) for i, m in enumerate(topic.moments)]
            if not topic.moments:
                rows.append((title, "", "", "Nothing was recorded for this topic."))
        blocks.append(Table(("topic", "time", "what", "moment"), tuple(rows), widths=(1.9, 0.7, 0.9, 4.2)))
    return blocks


def _glance(facts: DebriefFacts) -> str:
    contact: Engagement | None = first_contact(facts)
    down = facts.down_at(float("inf"))
    losses = ", ".join(f"{side or '(no side)'} {sum(1 for u in facts.units if u.side == side and u.tag_id in down)} "
                       f"of {sum(1 for u in facts.units if u.side == side)}" for side in facts.sides)
    parts = [f"Recording {Path(facts.path).name}"]
    if facts.created_utc:
        parts.append(f"played {facts.created_utc}")
    parts.append(f"{clock(facts.duration_s)} of play")
    if facts.ruleset:
        parts.append(f"rules: {facts.ruleset}")
    parts.append(f"{len(facts.units)} units")
    parts.append(f"{len({(e.t_s, e.attacker_id) for e in facts.engagements})} attacks")
    if contact is not None:
        parts.append(f"first contact at {clock(contact.t_s)} ({contact.attacker_name} on {contact.target_name})")
    if losses:
        parts.append(f"out of the fight at the end: {losses}")
    return " · ".join(parts) + "."


def _engagement_row(e: Engagement) -> tuple[str, ...]:
    return (clock(e.t_s), "" if e.round is None else str(e.round), e.attacker_name, e.weapon,
            e.target_name if e.target_id is not None else "nobody hit", e.distance_text() or "—",
            f"{e.hits}/{e.shots}", e.odds_text(), e.outcome.value)
