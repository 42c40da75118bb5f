"""The list of tests moved to ``slow`` by their cost cannot rot silently."""

from pathlib import Path

from slow_by_cost import SLOW_BY_COST, stale

ROOT = Path(__file__).resolve().parent.parent


def test_stale_names_an_entry_of_a_collected_file_that_was_not_collected():
    listed = ["tests/test_a.py::test_x", "tests/test_a.py::test_gone", "tests/test_b.py::test_y"]
    collected = ["tests/test_a.py::test_x", "tests/test_c.py::test_z"]
    # test_b.py was not collected (a run of other files): its entry is not judged
    assert stale(listed, collected) == ["tests/test_a.py::test_gone"]
    assert stale(listed, [*collected, "tests/test_a.py::test_gone"]) == []
    assert stale([], collected) == []


def test_every_entry_names_an_existing_test_file_and_a_positive_cost():
    for node, seconds in SLOW_BY_COST.items():
        path, _, name = node.partition("::")
        assert (ROOT / path).is_file() and name.startswith("test_"), node
        assert seconds > 0, node
