"""`--rtsp-transport tcp|udp` reaches OpenCV's FFmpeg backend: an RTSP server on loopback (just enough
of one to be asked for a stream) records the transport the client asks for in its SETUP request, and
refuses it, so `track` ends with one line naming the camera."""
from __future__ import annotations

import socket
import threading

import pytest

from cli.main import main

SDP = ("v=0\r\no=- 0 0 IN IP4 127.0.0.1\r\ns=cam\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\n"
       "m=video 0 RTP/AVP 26\r\na=control:track1\r\n")  # payload 26: JPEG over RTP


class RtspServer:
    """Answers OPTIONS and DESCRIBE, records each SETUP's Transport header and answers it 461
    (unsupported transport). Bounded: one thread, a few connections, each with a timeout."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(30)
        self.port = self.listener.getsockname()[1]
        self.transports: list[str] = []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"rtsp://127.0.0.1:{self.port}/cam"

    def _serve(self) -> None:
        for _ in range(4):
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with connection:
                connection.settimeout(30)
                self._answer(connection)

    def _answer(self, connection: socket.socket) -> None:
        data = b""
        for _ in range(20):
            try:
                chunk = connection.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            data += chunk
            while b"\r\n\r\n" in data:
                head, data = data.split(b"\r\n\r\n", 1)
                lines = head.decode("latin-1").split("\r\n")
                method = lines[0].split(" ")[0]
                headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
                cseq = headers.get("cseq", "0")
                if method == "OPTIONS":
                    reply = f"RTSP/1.0 200 OK\r\nCSeq: {cseq}\r\nPublic: OPTIONS, DESCRIBE, SETUP, PLAY, TEARDOWN\r\n\r\n"
                elif method == "DESCRIBE":
                    reply = (f"RTSP/1.0 200 OK\r\nCSeq: {cseq}\r\nContent-Base: {self.url}/\r\n"
                             f"Content-Type: application/sdp\r\nContent-Length: {len(SDP)}\r\n\r\n{SDP}")
                elif method == "SETUP":
                    self.transports.append(headers.get("transport", ""))
                    reply = f"RTSP/1.0 461 Unsupported Transport\r\nCSeq: {cseq}\r\n\r\n"
                else:
                    reply = f"RTSP/1.0 200 OK\r\nCSeq: {cseq}\r\n\r\n"
                connection.sendall(reply.encode("latin-1"))

    def close(self) -> None:
        self.listener.close()


@pytest.mark.parametrize(("transport", "asked"), [("tcp", "RTP/AVP/TCP"), ("udp", "client_port=")])
def test_the_rtsp_transport_option_is_what_the_camera_is_asked_for(transport, asked, monkeypatch, capsys):
    monkeypatch.setenv("OPENCV_FFMPEG_CAPTURE_OPTIONS", "fflags;nobuffer")  # a user's own option, kept
    server = RtspServer()
    try:
        code = main(["track", server.url, "--rtsp-transport", transport, "--max-frames", "1", "--jsonl"])
    finally:
        server.close()
    err = capsys.readouterr().err
    assert code == 2 and f"cannot open camera {server.url}" in err and "Traceback" not in err
    assert server.transports and all(asked in t for t in server.transports), server.transports
    import os

    assert os.environ["OPENCV_FFMPEG_CAPTURE_OPTIONS"] == f"fflags;nobuffer|rtsp_transport;{transport}"


def test_a_transport_other_than_tcp_or_udp_is_one_line(capsys):
    code = main(["track", "rtsp://127.0.0.1:1/cam", "--rtsp-transport", "http"])
    err = capsys.readouterr().err
    assert code == 2 and "invalid choice: 'http'" in err and len(err.strip().splitlines()) == 1, err
