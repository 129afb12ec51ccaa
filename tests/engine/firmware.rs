//! The firmware's move machinery against shakmaty, its protocol, and its answers to bad input.

use proptest::prelude::*;
use shakmaty::{Chess, Position};
use z80chess::firmware::board::{describe, encode};
use z80chess::firmware::protocol::{Command, Op, ProtocolError, Reply, ERRORS};
use z80chess::firmware::{parse_fen, reference_moves, rom, Build, Engine, FirmwareError, FwMove};
use z80chess::machine::RAM_START;

fn engine() -> Engine {
    Engine::new(Build::Article).expect("boot")
}

fn sorted(mut v: Vec<FwMove>) -> Vec<FwMove> {
    v.sort();
    v
}

/// The bytes MOVE/UNMOVE must restore: the board page (120 bytes) and the position's
/// variables COLOR, POSK[2], POSQ[2].
fn state(e: &Engine) -> Vec<u8> {
    let m = &e.machine.bus.mem;
    [
        &m[RAM_START as usize..RAM_START as usize + 120],
        &m[0x4100..0x4105],
    ]
    .concat()
}

/// Number of queens of each colour on a state's board.
fn queens(state: &[u8]) -> [usize; 2] {
    let count = |colour: u8| {
        state[..120]
            .iter()
            .filter(|&&b| b != 0xFF && b & 0x87 == colour | 5)
            .count()
    };
    [count(0), count(0x80)]
}

/// POSQ keeps Sargon's meaning, "the square of the queen that moved last" (`sargon-1978.md`
/// §2.2 and §2.17.6; the 1978 build must reproduce it): a promoted queen is not recorded, and
/// taking back the capture of one puts its square into POSQ. So once a side has promoted (or
/// had two queens), its POSQ no longer says where *the* queen is, and it is left out of the
/// comparison.
fn masked(mut state: Vec<u8>, multi: [bool; 2]) -> Vec<u8> {
    for side in 0..2 {
        if multi[side] {
            state[123 + side] = 0;
        }
    }
    state
}

fn code_of(e: FirmwareError) -> u8 {
    match e {
        FirmwareError::Rejected { code, .. } => code,
        other => panic!("expected a refusal, got {other}"),
    }
}

#[test]
fn roms_are_what_asm_assembles_to() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for build in Build::ALL {
        let a = rom::assemble(root, build).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.origin, 0);
        for (path, bytes) in rom::outputs(root, build, &a) {
            let shipped =
                std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(
                shipped == bytes,
                "{} differs from what asm/ assembles to: run `cargo run -- roms`",
                path.display()
            );
        }
        assert_eq!(
            a.image,
            build.rom(),
            "the binary embeds a stale {build} ROM: rebuild"
        );
        println!("{build}: {} bytes of ROM", a.image.len());
    }
}

#[test]
fn protocol_constants_match_the_firmware() {
    for build in Build::ALL {
        let value = |name: &str| -> u16 {
            build
                .symbol(name)
                .unwrap_or_else(|| panic!("{name} is not in the {build} symbol file"))
        };
        for (code, name, _) in ERRORS {
            // (EBADPRM: the parameter blocks are the full build's alone)
            if *name == "EBADPRM" && build != Build::Full {
                assert_eq!(build.symbol(name), None);
                continue;
            }
            assert_eq!(value(name), *code as u16, "{name} in {build}");
        }
        assert_eq!(value("PDATA"), z80chess::machine::PORT_DATA as u16);
        assert_eq!(value("PSTAT"), z80chess::machine::PORT_STATUS as u16);
        assert_eq!(value("PEXIT"), z80chess::machine::PORT_EXIT as u16);
        assert_eq!(value("BOARD"), RAM_START);
        // Every command's code is the EQU io.asm builds CMDTAB from (in every build, the
        // full build's own commands too: an EQU costs no byte).
        for op in Op::ALL {
            assert_eq!(
                value(op.symbol()),
                op.code() as u16,
                "{} ({:?}) in {build}",
                op.symbol(),
                op
            );
        }
        // The command table (CMDTAB: byte, handler word, ..., 0) holds exactly the commands
        // protocol.rs names for this build, each going to its handler.
        let rom = build.rom();
        let mut table = Vec::new();
        let mut at = value("CMDTAB") as usize;
        while rom[at] != 0 {
            table.push((rom[at], u16::from_le_bytes([rom[at + 1], rom[at + 2]])));
            at += 3;
        }
        let mut expected: Vec<(u8, u16)> = Op::ALL
            .iter()
            .filter(|op| build == Build::Full || !op.full_only())
            .map(|op| (op.code(), value(op.handler())))
            .collect();
        expected.sort();
        table.sort();
        assert_eq!(table, expected, "{build}'s CMDTAB against protocol::Op");
        // The memory map stays inside the period machine: 16 KiB ROM, 8 KiB RAM.
        assert!(value("ROMEND") as usize <= z80chess::machine::ROM_SIZE);
        assert_eq!(value("RAMTOP"), z80chess::machine::RAM_END);
    }
}

#[test]
fn commands_encode_and_decode_back() {
    let setup = encode(&Chess::default());
    let m = FwMove {
        from: 35,
        to: 55,
        promo: 0,
    };
    let commands = [
        Command::Ident,
        Command::New,
        Command::Setup(setup),
        Command::Board,
        Command::List,
        Command::Status,
        Command::Move(m),
        Command::Undo,
        Command::Perft(3),
        Command::Attack(55),
        Command::Xchng(55),
        Command::Xarray {
            piece: 1,
            array: [1, 3, 0, 0, 0, 0, 0, 1, 9, 0, 0, 0, 0, 0],
        },
        Command::MoveNo(1),
        Command::Search {
            level: 4,
            iterate: true,
            timed: true,
        },
        Command::Eval,
        Command::ParamReset,
        Command::ParamWrite {
            block: 1,
            offset: 4,
            bytes: vec![1, 2, 3],
        },
        Command::ParamRead {
            block: 2,
            offset: 0,
            len: 128,
        },
        Command::Halfmove(12),
        Command::Time {
            left: 0x12_3456,
            moves_to_go: 30,
            increment: 100,
        },
        Command::Roots(vec![m, m]),
    ];
    let mut ops: Vec<Op> = commands.iter().map(Command::op).collect();
    ops.dedup();
    assert_eq!(ops, Op::ALL, "one command of each op, in CMDTAB's order");
    for c in commands {
        let bytes = c.encode().unwrap();
        assert_eq!(bytes[0], c.op().code());
        assert_eq!(
            Command::decode(&bytes),
            Ok((c.clone(), bytes.len())),
            "{c:?}"
        );
        // One byte short: an error naming the command.
        let short = Command::decode(&bytes[..bytes.len() - 1]);
        if bytes.len() > 1 {
            assert!(
                matches!(short, Err(ProtocolError::Truncated { command, .. }) if command == c.op().letter()),
                "{c:?}: {short:?}"
            );
        }
    }
    assert_eq!(
        Command::decode(b"Z"),
        Err(ProtocolError::UnknownCode { code: b'Z' })
    );
    // An argument the port cannot carry is named.
    let e = Command::Roots(vec![m; 256]).encode().unwrap_err();
    assert!(e.to_string().contains("root moves = 256"), "{e}");
    let e = Command::Time {
        left: 1 << 24,
        moves_to_go: 0,
        increment: 0,
    }
    .encode()
    .unwrap_err();
    assert!(e.to_string().contains("time left"), "{e}");
}

#[test]
fn replies_decode_as_the_engine_reads_them() {
    let mut e = engine();
    assert_eq!(
        e.ask(&Command::Ident).unwrap(),
        Reply::Ident {
            build: Build::Article.switch() as u8,
            version: 1
        }
    );
    assert_eq!(
        e.ask(&Command::Status).unwrap(),
        Reply::Status {
            in_check: false,
            legal: 20
        }
    );
    assert_eq!(e.ask(&Command::Perft(2)).unwrap(), Reply::Perft(400));
    assert_eq!(e.ask(&Command::New).unwrap(), Reply::Done);
    let Reply::Moves(moves) = e.ask(&Command::List).unwrap() else {
        panic!("'L' is not a move list")
    };
    assert_eq!(sorted(moves), sorted(reference_moves(&Chess::default())));
    assert_eq!(
        e.ask(&Command::Board).unwrap().to_string(),
        describe(&encode(&Chess::default()))
    );
    // A reply of the wrong length is an error naming the command, not a panic.
    let bad = Reply::decode(Build::Article, Op::Status, &[0, 20, 7]).unwrap_err();
    assert!(bad.to_string().contains("'K'"), "{bad}");
}

#[test]
fn initial_position_and_board_round_trip() {
    let mut e = engine();
    let start = Chess::default();
    assert_eq!(
        sorted(e.legal_moves().unwrap()),
        sorted(reference_moves(&start))
    );
    let dump = e.board().unwrap();
    assert_eq!(
        dump,
        encode(&start),
        "the firmware's new game differs from the FEN convention"
    );
    assert_eq!(
        describe(&dump),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w -"
    );
    // En passant survives a set-up and is reported back.
    let pos = parse_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3").unwrap();
    e.set_position(&pos).unwrap();
    assert_eq!(e.board().unwrap(), encode(&pos));
    assert!(
        e.legal_moves().unwrap().contains(&FwMove {
            from: 65,
            to: 76,
            promo: 0
        }),
        "e5xf6 e.p."
    );
}

#[test]
fn mate_stalemate_and_check_status() {
    let mut e = engine();
    for (fen, in_check, n) in [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            true,
            0,
        ), // fool's mate
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false, 0), // stalemate
        ("4k3/8/8/8/8/8/8/4K2r w - - 0 1", true, 3),  // check: Kd2 Ke2 Kf2
    ] {
        let pos = parse_fen(fen).unwrap();
        assert_eq!(
            pos.legal_moves().len(),
            n as usize,
            "{fen}: the expectation itself"
        );
        e.set_position(&pos).unwrap();
        assert_eq!(e.status().unwrap(), (in_check, n), "{fen}");
    }
}

#[test]
fn underpromotion_to_all_four_pieces() {
    let mut e = engine();
    let pos = parse_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
    e.set_position(&pos).unwrap();
    let promos: Vec<u8> = e
        .legal_moves()
        .unwrap()
        .iter()
        .filter(|m| m.from == 81)
        .map(|m| m.promo)
        .collect();
    assert_eq!(sorted_u8(promos), vec![2, 3, 4, 5]);
    for promo in [2, 3, 4, 5] {
        let before = state(&e);
        e.play(FwMove {
            from: 81,
            to: 91,
            promo,
        })
        .unwrap();
        assert_eq!(e.board().unwrap().squares[56] & 7, promo);
        e.undo().unwrap();
        assert_eq!(state(&e), before);
    }
}

fn sorted_u8(mut v: Vec<u8>) -> Vec<u8> {
    v.sort();
    v
}

#[test]
fn bad_input_through_the_ports() {
    let mut e = engine();
    let before = e.board().unwrap();
    // An unknown command: refused, with the byte echoed.
    let err = e.command(b'Z', &[]).unwrap_err();
    assert_eq!(code_of(err), 0xFF);
    assert_eq!(e.machine.take_output(), b"", "nothing after the refusal");
    // Moves: not a move, a move into check, promotion byte missing.
    assert_eq!(
        code_of(
            e.play(FwMove {
                from: 35,
                to: 65,
                promo: 0
            })
            .unwrap_err()
        ),
        0x01
    );
    assert_eq!(
        code_of(
            e.play(FwMove {
                from: 0,
                to: 255,
                promo: 9
            })
            .unwrap_err()
        ),
        0x01
    );
    e.set_position(&parse_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").unwrap())
        .unwrap();
    // Kf2 walks along the checking rook's rank: pseudo-legal, illegal.
    assert_eq!(
        code_of(
            e.play(FwMove {
                from: 25,
                to: 36,
                promo: 0
            })
            .unwrap_err()
        ),
        0x02
    );
    assert_eq!(code_of(e.undo().unwrap_err()), 0x04);
    // Set-ups the firmware refuses leave the position as it was.
    e.new_game().unwrap();
    let mut bad = before.squares;
    bad[10] = 0x47; // bits 6 and 5 are never set
    assert_eq!(code_of(setup_raw(&mut e, &bad, 0, 0)), 0x05);
    let mut bad = before.squares;
    bad[60] = 0; // no black king
    assert_eq!(code_of(setup_raw(&mut e, &bad, 0, 0)), 0x06);
    let mut bad = before.squares;
    bad[0] = 0x09; // a pawn on a1
    assert_eq!(code_of(setup_raw(&mut e, &bad, 0, 0)), 0x07);
    assert_eq!(
        code_of(setup_raw(&mut e, &before.squares, 0, 44)),
        0x08,
        "e3 with no pawn on e4"
    );
    assert_eq!(
        e.board().unwrap(),
        before,
        "a refused set-up changed the position"
    );
    assert_eq!(code_of(e.perft(13).unwrap_err()), 0x0A);
    // It still plays.
    e.play(FwMove {
        from: 35,
        to: 55,
        promo: 0,
    })
    .unwrap();
}

fn setup_raw(e: &mut Engine, squares: &[u8; 64], side: u8, ep: u8) -> FirmwareError {
    let mut args = squares.to_vec();
    args.push(side);
    args.push(ep);
    e.command(b'S', &args).unwrap_err()
}

#[test]
fn move_list_overflow_is_reported_and_the_board_survives() {
    // Eight queens a side: the lists of a dozen plies do not fit in MLIST (853 entries).
    let mut e = engine();
    let mut sq = [0u8; 64];
    for i in [2, 5, 17, 22, 26, 29, 34, 37] {
        sq[i] = 0x0D; // white queens (moved)
    }
    for i in [41, 42, 45, 46, 50, 53, 58, 61] {
        sq[i] = 0x8D; // black queens
    }
    sq[0] = 0x0E; // white king a1
    sq[63] = 0x8E; // black king h8
    let mut args = sq.to_vec();
    args.extend([0, 0]);
    e.command(b'S', &args).unwrap();
    let before = e.board().unwrap();
    let t0 = e.tstates();
    let err = e.perft(12).unwrap_err();
    assert_eq!(code_of(err), 0x0B);
    println!("overflow found after {} T-states", e.tstates() - t0);
    assert_eq!(
        e.board().unwrap(),
        before,
        "the overflow left moves on the board"
    );
    assert!(e.perft(1).unwrap().nodes > 0);
}

#[test]
fn cli_rejects_bad_fens_and_names_the_field() {
    let exe = env!("CARGO_BIN_EXE_z80chess");
    for (fen, needle) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "turn",
        ),
        (
            "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "board",
        ),
        ("8/8/8/8/8/8/8/8 w - - 0 1", "impossible position"),
    ] {
        let out = std::process::Command::new(exe)
            .args(["perft", "--depth", "1", "--fen", fen])
            .output()
            .unwrap();
        assert!(!out.status.success(), "{fen} accepted");
        let msg = String::from_utf8_lossy(&out.stderr).to_lowercase();
        assert!(msg.contains(needle), "'{msg}' does not name '{needle}'");
        assert!(!msg.contains("panicked"), "{msg}");
    }
    let out = std::process::Command::new(exe)
        .args(["perft", "--depth", "2"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("nodes 400"));
}

/// A book move is played without a search: `search` says so instead of printing the score
/// word left over in the firmware; one ply later the search runs and has a score.
#[test]
fn cli_search_names_a_book_move() {
    let exe = env!("CARGO_BIN_EXE_z80chess");
    let run = |args: &[&str]| {
        let out = std::process::Command::new(exe).args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let book = run(&["search", "--level", "1"]);
    assert!(book.contains("score none (a book move"), "{book}");
    assert!(book.contains("evaluations 0 "), "{book}");
    let searched = run(&["search", "--level", "1", "--moves", "e2e4 e7e5"]);
    assert!(
        searched.contains("score +") || searched.contains("score -"),
        "{searched}"
    );
    assert!(!searched.contains("score none"), "{searched}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random legal games: at every position the firmware's legal moves are shakmaty's; the
    /// board it reports is the position's; playing and taking back restores every byte.
    #[test]
    fn random_games_agree_with_shakmaty(choices in proptest::collection::vec(any::<u16>(), 1..80)) {
        let mut e = engine();
        let mut pos = Chess::default();
        let mut trail = Vec::new();
        let mut multi = [false; 2];
        for c in choices {
            let reference = sorted(reference_moves(&pos));
            prop_assert_eq!(sorted(e.legal_moves().unwrap()), reference.clone(), "at {}", describe(&encode(&pos)));
            if reference.is_empty() {
                break;
            }
            let fw = reference[c as usize % reference.len()];
            let before = state(&e);
            e.play(fw).unwrap();
            let m = fw.to_move(&pos).unwrap();
            pos.play_unchecked(m);
            let q = queens(&state(&e));
            let side = (pos.turn().is_white()) as usize; // the side that just moved
            multi = [multi[0] || q[0] > 1, multi[1] || q[1] > 1];
            multi[side] |= fw.promo != 0;
            let dump = e.board().unwrap();
            prop_assert_eq!(&dump.squares.map(|b| b & 0x87), &encode(&pos).squares.map(|b| b & 0x87));
            prop_assert_eq!(dump.side, if pos.turn().is_white() { 0 } else { 0x80 });
            trail.push(before);
        }
        // Take everything back: each undo restores the bytes from before that move.
        while let Some(before) = trail.pop() {
            e.undo().unwrap();
            prop_assert_eq!(masked(state(&e), multi), masked(before, multi));
        }
        prop_assert_eq!(e.board().unwrap(), encode(&Chess::default()));
    }
}
