"""axe-core in the browser tests: the WCAG 2.2 AA tags plus the structure rules, one scan
of a loaded page, and a report grouped by rule, page and targets."""

from __future__ import annotations

import textwrap
from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass

from axe_playwright_python.base import AXE_SCRIPT

__all__ = ["AXE_SCRIPT", "EMPTY_STREAM", "Violation", "describe", "scan", "summarise"]

AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    # Only the violations come back in full: the other result types keep one node each.
    "resultTypes": ["violations"],
}
# Beyond the WCAG tags (issue 22): one h1 and ordered headings, unique landmarks and one
# main, no empty table header. axe files these rules under best practice.
STRUCTURE_RULES = [
    "page-has-heading-one",
    "heading-order",
    "empty-heading",
    "landmark-unique",
    "landmark-one-main",
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-main",
    "empty-table-header",
]
# The live stream needs the ASGI server; the live_server answers with an empty stream
# that asks not to be retried soon.
EMPTY_STREAM = {"status": 200, "content_type": "text/event-stream", "body": "retry: 600000\n\n"}


@dataclass(frozen=True)
class Violation:
    role: str
    language: str
    width: int
    page: str
    rule: str
    impact: str
    help: str
    nodes: int
    targets: tuple[str, ...]


def scan(page, role: str, language: str, path: str) -> list[Violation]:
    found = []
    results = page.evaluate(
        """([tags, extra, types]) => axe.run(document, {
            runOnly: {type: "rule", values: axe.getRules(tags).map(r => r.ruleId).concat(extra)},
            resultTypes: types,
        })""",
        [AXE_OPTIONS["runOnly"]["values"], STRUCTURE_RULES, AXE_OPTIONS["resultTypes"]],
    )
    width = page.viewport_size["width"]
    for v in results["violations"]:
        targets = tuple(" ".join(map(str, node["target"])) for node in v["nodes"][:3])
        found.append(
            Violation(
                role,
                language,
                width,
                path,
                v["id"],
                v["impact"] or "",
                v["help"],
                len(v["nodes"]),
                targets,
            )
        )
    return found


def describe(violations: list[Violation], *, roles: Collection[str] = ()) -> str:
    """Grouped by rule, then by the targets axe names; each page with the roles that saw it
    (unless every one of ``roles`` saw it)."""
    by_rule: dict[str, list[Violation]] = defaultdict(list)
    for v in violations:
        by_rule[v.rule].append(v)
    lines = [f"{len(violations)} axe violations (rule × page × role × language × width):"]
    for rule, found in sorted(by_rule.items(), key=lambda item: -len(item[1])):
        lines.append(f"\n{rule} ({found[0].impact}): {found[0].help} — {len(found)} times")
        by_targets: dict[tuple[str, ...], list[Violation]] = defaultdict(list)
        for v in found:
            by_targets[v.targets].append(v)
        for targets, seen in sorted(by_targets.items(), key=lambda item: -len(item[1])):
            languages = " ".join(sorted({v.language for v in seen}))
            widths = " ".join(str(w) for w in sorted({v.width for v in seen}))
            lines.append(f"  {' | '.join(targets)}  [{languages}; {widths} px] on:")
            roles_on: dict[str, set[str]] = defaultdict(set)
            for v in seen:
                roles_on[v.page].add(v.role)
            where = [
                page
                + (
                    ""
                    if roles and set(seen_by) >= set(roles)
                    else f" ({', '.join(sorted(seen_by))})"
                )
                for page, seen_by in sorted(roles_on.items())
            ]
            lines += textwrap.wrap(
                ", ".join(where),
                width=100,
                initial_indent="    ",
                subsequent_indent="    ",
                break_on_hyphens=False,
                break_long_words=False,
            )
    return "\n".join(lines)


def summarise(
    violations: list[Violation], pages: dict[str, int], scans: int, seconds: float
) -> str:
    by_rule = Counter(v.rule for v in violations)
    by_role = Counter(v.role for v in violations)
    nodes = Counter()
    for v in violations:
        nodes[v.rule] += v.nodes
    return "\n".join(
        [
            f"pages per role: {pages}",
            f"scans: {scans} in {seconds:.0f} s",
            f"violations: {len(violations)} (rule × page × role × language × width)",
            "by rule: "
            + ", ".join(f"{r} {n} ({nodes[r]} nodes)" for r, n in by_rule.most_common()),
            "by role: " + ", ".join(f"{r} {n}" for r, n in by_role.most_common()),
        ]
    )
