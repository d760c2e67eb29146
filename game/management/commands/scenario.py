"""`manage.py scenario run FILE_OR_DIR...` and `manage.py scenario state FILE`
(docs/scenarios.md)."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

from game.scenario import ScenarioError, final_state, run_file
from game.scenario.runner import scenario_files


class Command(BaseCommand):
    help = "Run scenario files, or print a scenario's final state as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        run = sub.add_parser("run", help="run every scenario; PASS/FAIL per file")
        run.add_argument("paths", nargs="+")
        state = sub.add_parser("state", help="play the script and print the final state as JSON")
        state.add_argument("path")

    def handle(self, *args, **options) -> None:
        if options["action"] == "state":
            try:
                state = final_state(options["path"])
            except ScenarioError as e:
                self.stderr.write(str(e))
                sys.exit(2)
            self.stdout.write(json.dumps(state, indent=2, ensure_ascii=False))
            return
        files = scenario_files(options["paths"])
        if not files:
            self.stderr.write("no scenario files found")
            sys.exit(2)
        failed = invalid = 0
        for path in files:
            outcome = run_file(path)
            if outcome.passed:
                self.stdout.write(f"PASS {path}")
                continue
            if outcome.error is not None:
                invalid += 1
                self.stdout.write(f"INVALID {path}")
            else:
                failed += 1
                self.stdout.write(f"FAIL {path}  ({outcome.name})")
            for problem in outcome.problems:
                self.stdout.write(f"    {problem}")
        self.stdout.write(
            f"{len(files) - failed - invalid} passed, {failed} failed, {invalid} invalid"
        )
        if invalid:
            sys.exit(2)
        if failed:
            sys.exit(1)
