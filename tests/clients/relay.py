#!/usr/bin/env python3
"""A UCI relay between a client (python-chess) and `z80chess uci`, for tests/frontends/clients.rs.

It forwards every line both ways and watches the protocol from the middle:
- counts every `go` the client sends and every `bestmove` the engine answers (one each);
- while a search runs, it sends an `isready` of its own after a random delay and times the
  `readyok` (swallowed, so the client never sees it);
- every tenth client command it feeds the engine a malformed line (before the next
  `position`/`isready`/`ucinewgame`, where a line the engine rejects cannot disturb the
  client's next search), and swallows nothing in return: an `info string` is what the
  engine must answer, and the client ignores it.
At the end of input it writes a JSON summary to the file named by its first argument.

Usage: relay.py SUMMARY.json ENGINE [ARGS...]
"""
import json
import random
import subprocess
import sys
import threading
import time

MALFORMED = [
    b"frobnicate 12",
    b"\xff\xfe\xfd not utf-8",
    b"setoption name Nonexistent value 3",
    b"position fen 8/8/8 w - - 0 1",
    b"position startpos moves e2e5",
    b"stop",
    b"ponderhit",
    b"go\x00depth",
    b"debug sideways",
    b"",
    b"   ",
    b"register later",
    b"\x00\x01\x02",
    b"setoption name Level value 99",
    b"setoption name Hash value -5",
]


def main():
    summary_path = sys.argv[1]
    child = subprocess.Popen(sys.argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    rng = random.Random(int(time.time() * 1000) & 0xFFFF)
    lock = threading.Lock()
    state = {
        "go": 0,
        "bestmove": 0,
        "searching": False,
        "search_id": 0,
        "readyq": [],  # who sent each outstanding isready: "client" or a send time
        "latencies_ms": [],
        "malformed": 0,
        "commands": 0,
        "inject_due": False,
        "errors": [],
    }
    out = sys.stdout.buffer

    def to_engine(data):
        child.stdin.write(data + b"\n")
        child.stdin.flush()

    def ping_later(search_id, delay):
        time.sleep(delay)
        with lock:
            if not state["searching"] or state["search_id"] != search_id:
                return
            state["readyq"].append(time.monotonic())
            to_engine(b"isready")

    def engine_reader():
        for raw in child.stdout:
            line = raw.rstrip(b"\r\n")
            with lock:
                text = line.decode("utf-8", "replace")
                if text == "readyok":
                    if not state["readyq"]:
                        state["errors"].append("readyok with no isready outstanding")
                        continue
                    who = state["readyq"].pop(0)
                    if who != "client":
                        state["latencies_ms"].append((time.monotonic() - who) * 1000.0)
                        continue
                elif text.startswith("bestmove"):
                    state["bestmove"] += 1
                    if not state["searching"]:
                        state["errors"].append("bestmove with no go outstanding: " + text)
                    state["searching"] = False
            out.write(line + b"\n")
            out.flush()

    reader = threading.Thread(target=engine_reader, daemon=True)
    reader.start()
    for raw in sys.stdin.buffer:
        line = raw.rstrip(b"\r\n")
        word = line.split(b" ", 1)[0]
        with lock:
            state["commands"] += 1
            if state["commands"] % 10 == 0:
                state["inject_due"] = True
            if state["inject_due"] and word in (b"position", b"isready", b"ucinewgame"):
                to_engine(rng.choice(MALFORMED))
                state["malformed"] += 1
                state["inject_due"] = False
            if word == b"isready":
                state["readyq"].append("client")
            if word == b"go":
                if state["searching"]:
                    state["errors"].append("go while a search runs")
                state["go"] += 1
                state["searching"] = True
                state["search_id"] += 1
                threading.Thread(
                    target=ping_later,
                    args=(state["search_id"], rng.uniform(0.005, 0.3)),
                    daemon=True,
                ).start()
            to_engine(line)
        if word == b"quit":
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    code = child.wait(timeout=60)
    reader.join(timeout=10)
    with lock:
        summary = {k: v for k, v in state.items() if k not in ("readyq", "searching", "search_id")}
        summary["exit_code"] = code
        summary["unanswered_isready"] = len(state["readyq"])
    with open(summary_path, "w") as f:
        json.dump(summary, f)


if __name__ == "__main__":
    main()
