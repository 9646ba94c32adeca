"""The search signature (``hinge-fast bench --signature``): fixed one-thread searches of
both engines over fixed positions. The number is pinned: a change to the searches that
is meant to keep their trees must keep it, and one that changes them must update it
here, on purpose."""

import json

from hinge_fast.cli import main
from hinge_fast.search.signature import search_signature

#: The signature of the searches as they are.
SIGNATURE = 557427


def test_the_signature_is_pinned_and_printed(capsys):
    signature = search_signature()
    assert signature.total == SIGNATURE
    assert main(["bench", "--signature"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == f"Signature: {SIGNATURE}"
    assert main(["bench", "--signature", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["signature"] == SIGNATURE
    assert report["alphabeta_nodes"] + report["mcts_tree_nodes"] == SIGNATURE
