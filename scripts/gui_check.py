#!/usr/bin/env python3
"""Drives headless Chromium against a running `otrera gui` (see gui_check.sh).

Talks the Chrome DevTools protocol over --remote-debugging-pipe (NUL-terminated JSON on file
descriptors 3 and 4), so it needs nothing beyond python3's standard library. It loads the page,
plays a move by clicking the amazon, its destination and the arrow square, waits for the
engine's answer, switches on analysis and the territory overlay and checks that they are drawn,
sets up a position with closed regions and checks the region overlay, plays on a 5x4 board
from the board menu, and saves screenshots.
Any script error on the page fails the check.
"""

import argparse
import base64
import fcntl
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request


class Browser:
    def __init__(self, chromium, width, height):
        self.profile = tempfile.TemporaryDirectory(prefix="gui-check-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():
            # Chromium reads commands on fd 3 and writes answers on fd 4. Move both ends out of
            # the way first, in case the pipes themselves landed on 3 or 4.
            r = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            w = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.proc = subprocess.Popen(
            [chromium, "--headless=new", "--remote-debugging-pipe", "--no-sandbox",
             "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--disable-extensions", "--disable-background-networking",
             "--user-data-dir=" + self.profile.name, f"--window-size={width},{height}",
             "about:blank"],
            pass_fds=(3, 4, to_chrome_r, from_chrome_w), preexec_fn=fds,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": target, "flatten": True})["sessionId"]

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self.buffer += chunk
        raw, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        wanted = self.send(method, params, session)
        while True:
            msg = self.read()
            if msg.get("id") == wanted:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def page(self, method, params=None):
        return self.call(method, params, self.session)

    def js(self, expression):
        r = self.page("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def errors(self):
        out = []
        for e in self.events:
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(e["params"]["exceptionDetails"].get("text", "exception"))
            if e.get("method") == "Runtime.consoleAPICalled" and e["params"]["type"] == "error":
                out.append(" ".join(str(a.get("value")) for a in e["params"]["args"]))
        return out

    def wait(self, what, expression, timeout=90):
        deadline = time.time() + timeout
        while time.time() < deadline:
            value = self.js(f"(() => {{ try {{ return ({expression}); }} catch (e) {{ return false; }} }})()")
            if value:
                return value
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {what} ({expression})")

    def click(self, selector):
        box = self.js(f"""(() => {{
            const e = document.querySelector({json.dumps(selector)});
            if (!e) return null;
            e.scrollIntoView({{block: 'center'}});
            const r = e.getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
        }})()""")
        if not box:
            raise RuntimeError(f"nothing matches {selector}")
        x, y = box
        for kind in ("mousePressed", "mouseReleased"):
            self.page("Input.dispatchMouseEvent",
                      {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def screenshot(self, path):
        data = self.page("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))
        print(f"  saved {path}")

    def size(self, width, height, mobile=False):
        self.page("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()
        self.profile.cleanup()


def post(url, path, body):
    req = urllib.request.Request(url + "api/" + path, data=body.encode(), method="POST",
                                 headers={"X-Otrera": "1", "Content-Type": "text/plain"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.load(r)


def play_and_wait(b, frm, to, arrow):
    """Plays the first move of a game by clicks (the amazon, its destination, the arrow square),
    waits for the engine's answer and returns the move list."""
    b.click(f'[data-sq="{frm}"]')
    b.wait("destinations to be shown", "document.querySelectorAll('.target-to').length > 0")
    b.click(f'[data-sq="{to}"]')
    b.wait("arrow targets to be shown", "document.querySelectorAll('.target-arrow').length > 0")
    b.click(f'[data-sq="{arrow}"]')
    b.wait("the engine's answer", "document.body.dataset.ply === '2'")
    moves = b.js("[...document.querySelectorAll('#moves li')].map(li => li.textContent)")
    if moves[1] != f"1. {frm}-{to}/{arrow}":
        raise RuntimeError(f"unexpected move list {moves}")
    print(f"  engine answered {moves[2]}")
    return moves


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--url", required=True)
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    url = args.url
    b = Browser(args.chromium, 1280, 860)
    try:
        b.size(1280, 860)
        b.page("Runtime.enable")
        b.page("Page.enable")
        b.page("Page.navigate", {"url": url})
        print("loads the page")
        b.wait("the first state", "document.body.dataset.ply === '0' && "
               "document.querySelectorAll('[data-sq]').length === 100")

        print("plays d1-d7/g7 by clicks and waits for the engine's answer")
        moves = play_and_wait(b, "d1", "d7", "g7")
        if len(moves) != 3:
            raise RuntimeError(f"unexpected move list {moves}")
        b.screenshot(os.path.join(args.out, "gui-move.png"))

        print("switches on analysis and the territory overlay")
        b.click("#analysis")
        b.wait("analysis arrows", "Number(document.body.dataset.arrows) >= 1")
        b.wait("the analysis table", "document.querySelectorAll('#analysis-table tbody tr').length >= 1")
        b.click("#territory")
        b.wait("the territory overlay", "Number(document.body.dataset.territory) > 0")
        time.sleep(1.5)  # let the analysis deepen a little for the picture
        b.wait("analysis arrows", "Number(document.body.dataset.arrows) >= 1")
        print(f"  {b.js('document.body.dataset.arrows')} arrows, "
              f"{b.js('document.body.dataset.territory')} territory squares")
        b.screenshot(os.path.join(args.out, "gui-analysis.png"))

        print("sets up a position with closed regions and checks the region overlay")
        b.click("#analysis")
        b.wait("analysis off", "!document.getElementById('analysis').checked")
        post(url, "players", "white=human black=human")
        # Random moves through the API until the regions have closed.
        rng = random.Random(5)
        state = post(url, "new", "8")
        while state["position"]["score"] is None:
            state = post(url, "play", rng.choice(state["position"]["legal"]))
        b.wait("the region overlay", "Number(document.body.dataset.regions) >= 2")
        status = b.js("document.getElementById('status').textContent")
        print(f"  status: {status}")
        if "Decided" not in status and "Final score" not in status:
            raise RuntimeError("a decided position should show its score")
        b.screenshot(os.path.join(args.out, "gui-regions.png"))

        print("a small rectangular board: 5x4 from the board menu, a move by clicks, the engine's answer")
        post(url, "players", "white=human black=engine")
        b.wait("the board menu to show the 8x8 board", "document.getElementById('size').value === '8' && "
               "document.getElementById('black').value === 'engine'")
        b.click("#setup summary")
        b.js("document.getElementById('size').value = '5x4'")
        b.click("#new")
        b.wait("the 5x4 board", "document.body.dataset.ply === '0' && "
               "document.querySelectorAll('[data-sq]').length === 20")
        play_and_wait(b, "b1", "b2", "d2")
        if b.js("document.getElementById('size').value") != "5x4":
            raise RuntimeError("the board menu should show 5x4")
        b.screenshot(os.path.join(args.out, "gui-rectangle.png"))

        print("narrow screen (phone)")
        b.size(400, 860, mobile=True)
        time.sleep(0.3)
        width = b.js("document.getElementById('board').getBoundingClientRect().width")
        overflow = b.js("document.documentElement.scrollWidth")
        if width > 400 or overflow > 410:
            raise RuntimeError(f"board {width}px, page {overflow}px wide on a 400px screen")
        b.screenshot(os.path.join(args.out, "gui-phone.png"))

        errors = b.errors()
        if errors:
            raise RuntimeError(f"errors on the page: {errors}")
        print("gui check passed")
    finally:
        b.close()


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        print(f"gui check FAILED: {e}", file=sys.stderr)
        sys.exit(1)
