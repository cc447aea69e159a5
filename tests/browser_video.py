"""Whether a browser plays a video file: Debian's Chromium, headless, loads it in a <video> element and
reports the first frame's size or the media error (not a test module; shared by the video tests)."""
from __future__ import annotations

import html
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

PAGE = """<html><body><video id="v" src="{src}" muted preload="auto"></video><div id="out">pending</div>
<script>
const v = document.getElementById('v'), out = document.getElementById('out');
v.addEventListener('loadeddata', () => {{ out.textContent = 'loaded ' + v.videoWidth + 'x' + v.videoHeight; }});
v.addEventListener('error', () => {{ out.textContent = 'error ' + (v.error && v.error.code); }});
</script></body></html>"""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def browser_verdict(video: Path, timeout_s: float = 90.0) -> str:
    """"loaded WxH" when Chromium decodes the first frame, "error N" (MediaError code) when it refuses."""
    browser = chromium()
    if browser is None:
        raise RuntimeError("no Chromium on this machine (Debian: apt install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "play.html"
        page.write_text(PAGE.format(src=html.escape(video.resolve().as_uri())), encoding="utf-8")
        result = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                                 f"--user-data-dir={tmp}/profile", "--virtual-time-budget=8000", "--dump-dom",
                                 page.as_uri()], capture_output=True, text=True, timeout=timeout_s)
    match = re.search(r'<div id="out">([^<]*)</div>', result.stdout)
    return match.group(1) if match else f"no page ({result.stderr[-300:]})"
