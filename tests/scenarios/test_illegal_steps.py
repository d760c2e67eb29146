"""An `illegal:` step fails its file when the answer is not refused by the decision it is meant
for: a division is judged only against a division (docs/scenarios.md, "Extensions")."""

from __future__ import annotations

from game.scenario import run_file

BLOCKED = """\
name: {name}
turn: {{number: 3, active: alice, step: beginning_of_combat}}
setup:
  alice:
    battlefield: [{{card: Grizzled Outrider, as: outrider}}]
  bob:
    battlefield: [{{card: Zombie Ogre, as: ogre}}, {{token: Goblin, as: goblin}}]
script:
  - advance: declare_attackers
  - alice: [outrider]
  - advance: declare_blockers
  - bob: [ogre blocks outrider, goblin blocks outrider]
{rest}"""


def _run(tmp_path, rest: str):
    path = tmp_path / "division.yaml"
    path.write_text(BLOCKED.format(name="an illegal division", rest=rest), encoding="utf-8")
    return run_file(path)


def test_a_legal_division_written_as_illegal_fails_even_after_a_check(tmp_path):
    outcome = _run(
        tmp_path,
        "  - advance: combat_damage\n"
        "  - check: {bob: {life: 20}}\n"
        '  - illegal: {alice: "4 to Zombie Ogre, 1 to Goblin"}\n',
    )
    assert not outcome.passed
    assert "was accepted, but it should be illegal" in outcome.problems[0]


def test_an_illegal_division_with_no_division_pending_fails_naming_the_pending_decision(
    tmp_path,
):
    # Still in the declare blockers step: alice holds priority, nothing is being divided.
    outcome = _run(tmp_path, '  - illegal: {alice: "3 to Zombie Ogre, 1 to Goblin"}\n')
    assert not outcome.passed and outcome.error is None
    (problem,) = outcome.problems
    assert "division.yaml:13:" in problem
    assert "no division is pending (the pending decision is alice's priority" in problem


def test_an_illegal_division_refused_by_the_division_passes(tmp_path):
    outcome = _run(
        tmp_path,
        "  - advance: combat_damage\n"
        '  - illegal: {alice: "3 to Zombie Ogre, 1 to Goblin"}\n'
        "  - alice: 5 to goblin\n"
        "expect: {bob: {battlefield: [Zombie Ogre]}}\n",
    )
    assert outcome.passed, outcome.problems
