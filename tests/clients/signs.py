#!/usr/bin/env python3
"""python-chess reads z80chess's UCI scores as the truth: analyse with multipv=3, then two
games against Stockfish, every score z80chess gave compared with Stockfish's evaluation of
the same position; where Stockfish says one side is ahead by more than two pawns, the signs
must agree.

usage: signs.py Z80CHESS [GAMES]   (Stockfish on PATH)
"""
import sys

import chess
import chess.engine

Z80, GAMES = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 2
MARGIN = 200


def main():
    z80 = chess.engine.SimpleEngine.popen_uci([Z80, "uci", "--build", "full"])
    sf = chess.engine.SimpleEngine.popen_uci("stockfish")
    sf.configure({"Skill Level": 0})
    failures = []
    try:
        board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        infos = z80.analyse(board, chess.engine.Limit(depth=3), multipv=3)
        moves = [i["pv"][0] for i in infos]
        print("multipv 3:", [(m.uci(), i["score"].white()) for m, i in zip(moves, infos)])
        if len(infos) != 3 or len(set(moves)) != 3:
            failures.append(f"multipv=3 gave {len(infos)} lines, moves {moves}")
        compared = 0
        for g in range(GAMES):
            board = chess.Board()
            z80_white = g % 2 == 0
            while not board.is_game_over(claim_draw=True) and board.fullmove_number <= 80:
                if board.turn == (chess.WHITE if z80_white else chess.BLACK):
                    r = z80.play(board, chess.engine.Limit(time=0.5), info=chess.engine.INFO_SCORE)
                    ours = r.info.get("score")
                    if ours is not None:
                        truth = sf.analyse(board, chess.engine.Limit(depth=14))["score"]
                        t = truth.white().score(mate_score=100000)
                        o = ours.white().score(mate_score=100000)
                        if abs(t) > MARGIN:
                            compared += 1
                            if (t > 0) != (o > 0):
                                failures.append(f"{board.fen()}: z80chess {o}, Stockfish {t}")
                else:
                    r = sf.play(board, chess.engine.Limit(time=0.05))
                board.push(r.move)
            print(f"game {g + 1}: {board.result(claim_draw=True)} after {board.fullmove_number} moves")
        print(f"{compared} positions where Stockfish saw more than two pawns compared")
    finally:
        z80.quit()
        sf.quit()
    for f in failures:
        print("DISAGREE", f)
    sys.exit(1 if failures else 0)


main()
