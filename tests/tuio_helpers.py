"""A real OSC server on UDP and a TUIO client model that follows what it receives (shared by the TUIO and run tests)."""
from __future__ import annotations

import threading

import pytest
from pythonosc.dispatcher import Dispatcher
from pythonosc.osc_bundle import OscBundle
from pythonosc.osc_message import OscMessage
from pythonosc.osc_server import ThreadingOSCUDPServer


class _Catch(Dispatcher):
    """A python-osc dispatcher that keeps every datagram the server receives."""

    def __init__(self) -> None:
        super().__init__()
        self.datagrams: list[bytes] = []
        self.arrived = threading.Condition()

    def call_handlers_for_packet(self, data, client_address):  # python-osc's hook
        with self.arrived:
            self.datagrams.append(bytes(data))
            self.arrived.notify_all()
        return super().call_handlers_for_packet(data, client_address)

    def wait_for(self, count: int, timeout_s: float = 120.0) -> list[bytes]:  # long: only a lost datagram waits it out
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.datagrams) >= count, timeout_s)
            return list(self.datagrams)


@pytest.fixture
def osc_server():
    catch = _Catch()
    server = ThreadingOSCUDPServer(("127.0.0.1", 0), catch)
    thread = threading.Thread(target=server.serve_forever, name="test-tuio-server", daemon=True)
    thread.start()
    try:
        yield server.server_address[1], catch
    finally:
        server.shutdown()
        server.server_close()


class TuioClientModel:
    """What a TUIO 1.1 client keeps: objects by session id, updated by alive/set, committed on fseq."""

    def __init__(self) -> None:
        self.objects: dict[int, dict] = {}
        self.sources: set[str] = set()
        self.frames: list[int] = []
        self.added: list[tuple[int, int]] = []  # (session id, class id)
        self.removed: list[int] = []

    def feed(self, datagram: bytes) -> None:
        assert OscBundle.dgram_is_bundle(datagram), "TUIO sends bundles, never bare messages"
        bundle = OscBundle(datagram)
        messages = [bundle.content(i) for i in range(bundle.num_contents)]
        assert all(isinstance(m, OscMessage) and m.address == "/tuio/2Dobj" for m in messages)
        commands = [m.params[0] for m in messages]
        assert commands[-1] == "fseq" and "alive" in commands, commands
        assert commands.index("alive") < min((i for i, c in enumerate(commands) if c == "set"), default=99)
        for m in messages:
            cmd, *args = m.params
            if cmd == "source":
                self.sources.add(args[0])
            elif cmd == "alive":
                alive = set(args)
                for sid in [s for s in self.objects if s not in alive]:
                    del self.objects[sid]
                    self.removed.append(sid)
            elif cmd == "set":
                assert len(args) == 11 - 1 and isinstance(args[0], int) and isinstance(args[1], int)
                assert all(isinstance(v, float) for v in args[2:])
                s, i, x, y, a, vx, vy, va, m_acc, r_acc = args
                if s not in self.objects:
                    self.added.append((s, i))
                self.objects[s] = {"class_id": i, "x": x, "y": y, "a": a, "X": vx, "Y": vy, "A": va}
            elif cmd == "fseq":
                self.frames.append(args[0])

    def by_class(self) -> dict[int, dict]:
        return {o["class_id"]: {**o, "session": s} for s, o in self.objects.items()}
