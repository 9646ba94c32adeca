"""scripts/nps_ab.py, the nodes-a-second comparison of two checkouts: its measure repeats
node for node, and it refuses a folder that is not a checkout."""

import pytest

from scripts import nps_ab


def test_measure_searches_the_same_trees_each_time():
    first = nps_ab.measure(2, {4: 3, 7: 2})
    second = nps_ab.measure(2, {4: 3, 7: 2})
    assert set(first) == {4, 7}
    for size in first:
        rate, nodes = first[size]
        assert rate > 0 and nodes > 2  # two searches, each more than its root
        assert second[size][1] == nodes


def test_a_folder_without_hinge_fast_is_refused(tmp_path):
    with pytest.raises(SystemExit, match="holds no hinge_fast/"):
        nps_ab.main([str(tmp_path)])


def test_the_child_measures_only_the_checkout_it_imports(tmp_path):
    # This process imports the project's own hinge_fast, not one under tmp_path.
    with pytest.raises(SystemExit, match="not the checkout"):
        nps_ab.main([str(tmp_path), "--child", "--depths", "4:2"])
