"""`sandtable track` stopped with Ctrl+C: the frames tracked so far count, it says so in one line, and its
outputs are closed saying where the recording went and how many TUIO bundles were lost."""
from __future__ import annotations

import threading

from cli.tracking_run import close_outputs, run_until_stopped


class LoopStoppedByCtrlC:
    def __init__(self, before: int, then: int) -> None:
        self.frames_processed = before
        self.then = then

    def run(self, *, stop, max_frames, give_up_after_s=None):
        self.frames_processed += self.then
        raise KeyboardInterrupt


def test_ctrl_c_keeps_the_frames_tracked_in_this_run_and_says_so_in_one_line(capsys):
    stop = threading.Event()
    assert run_until_stopped(LoopStoppedByCtrlC(before=1, then=3), stop, None) == 3  # the first frame is counted by the caller
    assert stop.is_set()
    assert capsys.readouterr().err == "sandtable track: stopped (Ctrl+C)\n"


class Closable:
    def __init__(self, send_errors: int = 0) -> None:
        self.closed = False
        self.send_errors, self.last_error = send_errors, "network unreachable"

    def close(self) -> None:
        self.closed = True


def test_closing_says_where_the_recording_went_and_what_tuio_lost(capsys):
    tuio, recorder = Closable(send_errors=2), Closable()
    close_outputs(tuio, recorder, "game.sqlite")
    assert tuio.closed and recorder.closed
    err = capsys.readouterr().err.splitlines()
    assert err == ["TUIO: 2 bundles could not be sent (network unreachable)", "recorded to game.sqlite"]
    close_outputs(None, None, None)
    assert capsys.readouterr().err == ""
