"""The shipped puzzle files (game/puzzles/data/) as `Puzzle` rows: each file's row made or
brought up to date (its text, title, goal and themes; never its rating, which its attempts
made), published; the row of a file that is gone is unpublished (its attempts stay).

Run by every `migrate` (learn/apps.py) and by `manage.py puzzle load`. The files are proven
sound by the test suite (tests/puzzles/test_checker.py), not here: checking every puzzle at each
`migrate` would take minutes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from game.puzzles.catalog import puzzle_files
from game.scenario.loader import ScenarioError, parse_scenario

log = logging.getLogger(__name__)


@dataclass
class Loaded:
    created: list[str]
    updated: list[str]
    unpublished: list[str]
    invalid: list[str]


def load_shipped_puzzles(using: str = "default") -> Loaded:
    from .models import Puzzle

    rows = Puzzle.objects.using(using)
    done = Loaded([], [], [], [])
    seen = set()
    for path in puzzle_files():
        text = path.read_text(encoding="utf-8")
        try:
            scenario = parse_scenario(text, f"puzzles/{path.name}")
        except ScenarioError as e:
            log.warning("puzzle file not loaded: %s", e)
            done.invalid.append(str(e))
            continue
        spec = scenario.puzzle
        if spec is None:
            done.invalid.append(f"{path.name}: no 'puzzle' block")
            continue
        seen.add(path.stem)
        fields = {
            "title": scenario.name[:200] or path.stem,
            "text": text,
            "goal": spec.goal,
            "themes": list(spec.themes),
            "source": Puzzle.FILE,
            "published": True,
        }
        row = rows.filter(slug=path.stem).first()
        if row is None:
            rows.create(slug=path.stem, rating=float(spec.rating), **fields)
            done.created.append(path.stem)
        elif any(getattr(row, k) != v for k, v in fields.items()):
            for k, v in fields.items():
                setattr(row, k, v)
            row.save(using=using)
            done.updated.append(path.stem)
    gone = rows.filter(source=Puzzle.FILE, published=True).exclude(slug__in=seen)
    done.unpublished = list(gone.values_list("slug", flat=True))
    gone.update(published=False)
    return done
