"""scripts/speed_table.py reads side_by_side.py's rows and formats bench's report."""

from scripts.speed_table import bench_table, parse_side_by_side, ratio_table

SIDE_BY_SIDE = """\
workload                     hinge-fast      yardstick  ratio
perft bulk  S6 mid  d5       47,926,287    152,409,264   0.29
perft made  S9 mid  d3       29,280,889     26,352,800   1.11
playouts    S9 mid  not measured: no playouts command
"""


def test_side_by_side_rows_are_parsed_in_order_and_the_rest_skipped():
    rows = parse_side_by_side(SIDE_BY_SIDE)
    assert rows == [("perft bulk S6 mid d5", 0.29), ("perft made S9 mid d3", 1.11)]
    assert ratio_table(rows).splitlines()[2:] == [
        "| perft bulk S6 mid d5 | 0.29 |",
        "| perft made S9 mid d3 | 1.11 |",
    ]


def test_bench_table_puts_one_thread_and_every_core_side_by_side():
    report = {
        "threads": 2,
        "fast_over_reference": 2439.4,
        "figures": [
            {
                "name": "perft, bulk",
                "rate": 1000.0,
                "unit": "nodes/s",
                "rate_threads": 1900.0,
                "threads": 2,
            },
            {"name": "make/unmake", "rate": 5000.0, "unit": "moves/s"},
        ],
    }
    lines = bench_table(report).splitlines()
    assert lines[0] == "| measure | 1 thread | 2 threads | speed-up | unit |"
    assert lines[2] == "| perft, bulk | 1,000 | 1,900 | 1.90x | nodes/s |"
    assert lines[3] == "| make/unmake | 5,000 |  |  | moves/s |"
    assert lines[4].startswith("| fast / reference (perft, leaves made) | 2,439x")


def test_the_yardstick_folder_is_given_never_assumed(tmp_path):
    from scripts.speed_table import yardstick_folder

    assert yardstick_folder(None, {}) is None
    assert yardstick_folder(None, {"HINGE_YARDSTICK": str(tmp_path)}) == tmp_path
    assert yardstick_folder(tmp_path / "x", {"HINGE_YARDSTICK": str(tmp_path)}) == tmp_path / "x"
