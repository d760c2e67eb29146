"""`manage.py scenario run FILE_OR_DIR...`, `manage.py scenario state FILE` (docs/scenarios.md)
and `manage.py scenario ask FILE --level LEVEL [--seed N]` (docs/ai.md, "A bug report is a
file")."""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand, CommandParser

from game.ai import LEVELS
from game.ai.checked import answer_checked
from game.scenario import ScenarioError, final_state, reached, run_file
from game.scenario.runner import scenario_files


class Command(BaseCommand):
    help = (
        "Run scenario files, print a scenario's final state as JSON, or ask the computer for "
        "its answer to the decision a scenario's script reaches."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        run = sub.add_parser("run", help="run every scenario; PASS/FAIL per file")
        run.add_argument("paths", nargs="+")
        state = sub.add_parser("state", help="play the script and print the final state as JSON")
        state.add_argument("path")
        ask = sub.add_parser(
            "ask",
            help="play the script and print as JSON the pending decision and the level's answer",
        )
        ask.add_argument("path")
        ask.add_argument("--level", required=True, choices=LEVELS)
        ask.add_argument("--seed", type=int, default=0, help="the decision's seed (default 0)")
        ask.add_argument(
            "--think-ms",
            type=float,
            default=0,
            help="Hard's deadline as the server gives it (checked.THINK_SECONDS is 750 ms); "
            "0, the default, searches in full, so the answer depends on the file and seed alone",
        )

    def handle(self, *args, **options) -> None:
        if options["action"] == "ask":
            self.stdout.write(json.dumps(self.ask(**options), indent=2, ensure_ascii=False))
            return
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

    def ask(self, *, path: str, level: str, seed: int, think_ms: float = 0, **_: object) -> dict:
        """The decision the file's script stops at and the level's answer to it, as the server
        gives it (`answer_checked`: a brain that fails answers the safe option, logged). The
        server's deadline cuts Hard's search where the machine is slow, so it applies only when
        `think_ms` asks for it: a report must give the same answer on any machine."""
        try:
            game = reached(path)
        except ScenarioError as e:
            self.stderr.write(str(e))
            sys.exit(2)
        d = game.pending
        if d is None:
            self.stderr.write(
                f"{path}: the script ends the game ({game.state.winner or 'nobody'} won): "
                "there is no decision to ask about"
            )
            sys.exit(2)
        decision = d.to_json()
        think_seconds = think_ms / 1000 if think_ms > 0 else None
        answer = answer_checked(game, d.player, level, seed, game=path, think_seconds=think_seconds)
        ids = answer if isinstance(answer, list) else [answer]
        return {
            "file": path,
            "level": level,
            "seed": seed,
            "decision": decision,
            "answer": [d.option(i).label for i in ids],
            "answer_ids": ids,
        }
