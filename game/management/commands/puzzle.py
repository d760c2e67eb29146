"""`manage.py puzzle check FILE_OR_DIR... [--bound N] [--json]` (docs/puzzles.md): proves each
puzzle sound, or shows the defence that beats its solution. `manage.py puzzle load`: the shipped
puzzle files into the site's puzzles (as every `migrate` does, learn/loading.py)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

from game.puzzles.checker import PuzzleError, Report, check_file
from game.scenario import ScenarioError
from game.scenario.runner import scenario_files


class Command(BaseCommand):
    help = "Check puzzles: the published solution must win against every defence."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        chk = sub.add_parser("check", help="prove each puzzle sound; exit 1 if one is not")
        chk.add_argument("paths", nargs="+")
        chk.add_argument("--bound", type=int, default=None, help="positions to visit at most")
        chk.add_argument("--json", action="store_true", help="one JSON report per line")
        sub.add_parser("load", help="load game/puzzles/data/ into the site's puzzles")

    def handle(self, *args, **options) -> None:
        if options["action"] == "load":
            self._load()
            return
        files = scenario_files(options["paths"])
        if not files:
            self.stderr.write("no puzzle files found")
            sys.exit(2)
        worst = 0
        for path in files:
            try:
                report = check_file(path, bound=options["bound"])
            except (ScenarioError, PuzzleError) as e:
                self.stderr.write(f"INVALID {e}")
                worst = 2
                continue
            if options["json"]:
                self.stdout.write(json.dumps(report.as_json(), ensure_ascii=False))
            else:
                self.stdout.write(describe(report))
            if not report.sound:
                worst = max(worst, 1)
        sys.exit(worst)

    def _load(self) -> None:
        from learn.loading import load_shipped_puzzles

        done = load_shipped_puzzles()
        for word, slugs in (
            ("new", done.created),
            ("updated", done.updated),
            ("unpublished (file gone)", done.unpublished),
        ):
            if slugs:
                self.stdout.write(f"{word}: {', '.join(slugs)}")
        for problem in done.invalid:
            self.stderr.write(f"INVALID {problem}")
        self.stdout.write(f"{len(done.created) + len(done.updated)} changed")
        if done.invalid:
            sys.exit(2)


def describe(report: Report) -> str:
    head = "SOUND" if report.sound else ("UNPROVEN" if report.bound_reached else "UNSOUND")
    lines = [
        f"{head} {report.path}: {report.name} ({report.goal}, solved by {report.solver}; "
        f"{report.positions:,} positions of at most {report.bound:,}, {report.seconds:.2f} s)"
    ]
    if report.refutation:
        lines.append(f"  the solution loses: {report.problem}, after")
        lines += [f"    {w}" for w in report.refutation]
        verdict = {True: "can be won another way", False: "cannot be won at all", None: "?"}
        lines.append(f"  the puzzle {verdict[report.winnable]}")
    if report.bound_reached:
        lines.append("  the bound was reached before the search ended (raise it with --bound)")
    for other in report.other_wins:
        lines.append("  another winning line: " + "; ".join(other))
    return "\n".join(lines)
