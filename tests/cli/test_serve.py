"""`--serve` on the commands that play or replay a session: a bad value is one line before anything
opens; a good one prints the address (with its key when serving the network)."""
from __future__ import annotations

import os
import re

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from cli.main import main


@pytest.mark.parametrize("command", [["gui"], ["run"], ["replay", "missing.sqlite"], ["demo", "--headless"]])
def test_a_bad_serve_value_is_one_line_and_nothing_starts(command, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    code = main([*command, "--serve", "eighty", "--settings", str(tmp_path / "s.ini")] if command[0] != "demo"
                else [*command, "--serve", "eighty"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code != 0
    assert len(err) == 1 and "--serve 'eighty'" in err[0] and "HOST:PORT" in err[0]
    assert "Traceback" not in err[0]
    assert list(tmp_path.iterdir()) == []  # no demo folder, no settings written


def test_the_window_prints_the_address_with_its_key_when_serving_the_network(capsys, tmp_path) -> None:
    code = main(["gui", "--serve", "0.0.0.0:0", "--settings", str(tmp_path / "s.ini"),
                 "--screenshot", str(tmp_path / "w.png"), "--size", "1366x768"])
    out = capsys.readouterr().out
    assert code == 0
    found = re.search(r"Class view: http://[0-9.]+:(\d+)/([A-Za-z0-9_-]{22,})/ \(anyone on the network", out)
    assert found and int(found.group(1)) > 0, out
