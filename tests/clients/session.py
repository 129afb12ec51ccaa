#!/usr/bin/env python3
"""A bot's session with `z80chess uci`, driven by python-chess as lichess-bot drives an engine.

Through relay.py (which counts every go/bestmove, times isready mid-search and feeds a
malformed line every ten commands) it:
1. sets lichess-bot's default options (Threads 2, Hash 256, Move Overhead 100);
2. analyses and plays with `searchmoves` (python-chess's root_moves) on the full build: the
   move must be one of those given;
3. plays GAMES games against Debian's Stockfish at Skill Level 0, at 10 s + 0.1 s a side
   (wall time, the clocks kept here), the engine told the clocks as `wtime/btime/winc/binc`;
   before some of its moves it starts an infinite analysis and stops it at a random moment;
4. checks: every move legal (python-chess raises otherwise), no loss on time, every `go`
   answered by one `bestmove`, every `isready` by `readyok` within 50 ms even mid-search,
   and the engine's median move time at least 40% of the move's share (the clock / 30 +
   the increment: what a time manager that expects 30 more moves allots).

Usage: session.py Z80CHESS [GAMES]   (Stockfish is looked up as /usr/games/stockfish)
Exit 0 when every check holds; the summary goes to stdout either way.
"""
import json
import os
import random
import statistics
import sys
import tempfile
import time

import chess
import chess.engine

BASE = 10.0
INC = 0.1
MAX_PLIES = 300


def main():
    z80 = sys.argv[1]
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    stockfish = os.environ.get("STOCKFISH", "/usr/games/stockfish")
    here = os.path.dirname(os.path.abspath(__file__))
    tmp = tempfile.mkdtemp(prefix="z80chess-session-")
    summary_path = os.path.join(tmp, "relay.json")
    rng = random.Random(12345)
    failures = []

    engine = chess.engine.SimpleEngine.popen_uci(
        [sys.executable, os.path.join(here, "relay.py"), summary_path, z80, "uci", "--build", "full"]
    )
    engine.configure({"Threads": 2, "Hash": 256, "Move Overhead": 100})

    # searchmoves, through analyse and play.
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    legal = list(board.legal_moves)
    for k in range(6):
        roots = rng.sample(legal, rng.randint(1, 4))
        info = engine.analyse(board, chess.engine.Limit(depth=2), root_moves=roots)
        pv = info.get("pv") or []
        if not pv or pv[0] not in roots:
            failures.append(f"analyse searchmoves {roots}: pv {pv}")
        played = engine.play(board, chess.engine.Limit(depth=2), root_moves=roots)
        if played.move not in roots:
            failures.append(f"play searchmoves {roots}: {played.move}")

    sf = chess.engine.SimpleEngine.popen_uci(stockfish)
    sf.configure({"Skill Level": 0})
    share_ratios = []
    stops = 0
    results = []
    for g in range(games):
        board = chess.Board()
        z80_white = g % 2 == 0
        clocks = {chess.WHITE: BASE, chess.BLACK: BASE}
        engine.configure({})  # nothing: the same engine, a new game below
        lost_on_time = None
        while not board.is_game_over(claim_draw=True) and board.ply() < MAX_PLIES:
            z80_to_move = board.turn == (chess.WHITE if z80_white else chess.BLACK)
            player = engine if z80_to_move else sf
            if z80_to_move and rng.random() < 0.15:
                with engine.analysis(board) as an:
                    time.sleep(rng.uniform(0.0, 0.4))
                    an.stop()
                    best = an.wait()
                    stops += 1
                    if best.move is None or best.move not in board.legal_moves:
                        failures.append(f"game {g + 1}: stopped analysis gave {best.move}")
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE],
                black_clock=clocks[chess.BLACK],
                white_inc=INC,
                black_inc=INC,
            )
            before = clocks[board.turn]
            t0 = time.monotonic()
            try:
                result = player.play(board, limit, game=g)
            except chess.engine.EngineError as e:
                failures.append(f"game {g + 1} ply {board.ply()}: {'z80chess' if z80_to_move else 'stockfish'}: {e}")
                break
            spent = time.monotonic() - t0
            clocks[board.turn] -= spent
            if clocks[board.turn] < 0:
                lost_on_time = "z80chess" if z80_to_move else "stockfish"
                break
            clocks[board.turn] += INC
            if z80_to_move and board.fullmove_number >= 3:
                share_ratios.append(spent / (before / 30 + INC))
            if result.move is None:
                failures.append(f"game {g + 1}: no move")
                break
            board.push(result.move)
        if lost_on_time == "z80chess":
            failures.append(f"game {g + 1}: z80chess lost on time")
        outcome = board.outcome(claim_draw=True)
        res = outcome.result() if outcome else ("time" if lost_on_time else "*")
        results.append((g + 1, "white" if z80_white else "black", res, board.ply()))
    sf.quit()
    engine.quit()

    with open(summary_path) as f:
        relay = json.load(f)
    lat = relay["latencies_ms"]
    summary = {
        "games": results,
        "stopped_analyses": stops,
        "median_share": statistics.median(share_ratios) if share_ratios else None,
        "moves_timed": len(share_ratios),
        "relay": {k: v for k, v in relay.items() if k != "latencies_ms"},
        "isready_mid_search": len(lat),
        "isready_max_ms": max(lat) if lat else None,
    }
    if relay["go"] != relay["bestmove"]:
        failures.append(f"{relay['go']} go, {relay['bestmove']} bestmove")
    if relay["errors"]:
        failures.extend(relay["errors"])
    if relay["unanswered_isready"]:
        failures.append(f"{relay['unanswered_isready']} isready unanswered")
    if lat and max(lat) > 50.0:
        failures.append(f"an isready mid-search took {max(lat):.1f} ms (> 50)")
    if not lat:
        failures.append("no isready was sent mid-search")
    if relay["exit_code"] != 0:
        failures.append(f"the engine exited with {relay['exit_code']}")
    if share_ratios and statistics.median(share_ratios) < 0.4:
        failures.append(f"median move time {statistics.median(share_ratios):.2f} of the share (< 0.40)")
    summary["failures"] = failures
    print(json.dumps(summary, indent=1))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
