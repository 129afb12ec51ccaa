//! The pawn-structure hash (asm/full/pawnhash.asm, P_FLAGS bit 6): KNOW's pawn work kept per
//! pawn structure. It must change no search (same move, score and tree with it on and off), pay
//! for itself in T-states, and its key, kept by MOVE and UNMOVE, must always be the board's.

use shakmaty::{Chess, Color, Move, Position, Role};
use z80chess::firmware::params::ParamFile;
use z80chess::firmware::{parse_fen, sargon, Build, Engine, FwMove};
use z80chess::profile::bench::POSITIONS;

const ON: i32 = 0xFC; // the default flags
const OFF: i32 = 0xBC; // the same without bit 6

fn engine(fen: &str, flags: i32) -> Engine {
    let mut e = Engine::new(Build::Full).unwrap();
    e.load_params(&ParamFile::parse(&format!("P_FLAGS = {flags}\n"), "(test)").unwrap())
        .unwrap();
    sargon::load(&mut e, &parse_fen(fen).unwrap()).unwrap();
    e
}

fn sym(name: &str) -> usize {
    Build::Full
        .symbol(name)
        .unwrap_or_else(|| panic!("no symbol {name}")) as usize
}

fn word32(e: &Engine, name: &str) -> u32 {
    let a = sym(name);
    u32::from_le_bytes(e.machine.bus.mem[a..a + 4].try_into().unwrap())
}

#[test]
fn the_default_block_has_the_hash_on() {
    let e = Engine::new(Build::Full).unwrap();
    let flags = e.machine.bus.mem[sym("PRMBLK")];
    assert_eq!(flags as i32, ON, "P_FLAGS of the default block");
}

/// With and without the hash: the same answer and tree; with it, hits, and fewer T-states in
/// the middlegames.
#[test]
fn the_hash_changes_no_search_and_saves_t_states() {
    let mut positions: Vec<(&str, &str, u8)> = POSITIONS.to_vec();
    positions.push((
        "wac002",
        "8/7p/5k2/5p2/p1p2P2/Pr1pPK2/1P1R3P/8 b - - 0 1",
        3,
    ));
    // en passant possible at once, promotions near
    positions.push(("ep", "r3k2r/1P4pp/8/3pP3/8/8/6PP/R3K2R w KQkq d6 0 30", 3));
    let (mut t_on, mut t_off) = (0u64, 0u64);
    for (name, fen, level) in positions {
        let mut on = engine(fen, ON);
        let mut off = engine(fen, OFF);
        let a = on.search(level, false).unwrap();
        let b = off.search(level, false).unwrap();
        assert_eq!(
            (a.best, a.score, a.nodes, a.evaluations, a.xchng_calls),
            (b.best, b.score, b.nodes, b.evaluations, b.xchng_calls),
            "{name}: the hash changed the search"
        );
        let (probes, hits) = (word32(&on, "PHPRB"), word32(&on, "PHHIT"));
        assert_eq!(probes, a.evaluations, "{name}: one probe per evaluation");
        assert!(hits > 0 && hits < probes, "{name}: {hits} hits of {probes}");
        assert_eq!(word32(&off, "PHPRB"), 0, "{name}: probed with the hash off");
        eprintln!(
            "{name:9} L{level}: {probes:6} probes, {:5.1}% hits, {:>13} T on, {:>13} T off ({:+.1}%)",
            100.0 * hits as f64 / probes as f64,
            a.tstates,
            b.tstates,
            100.0 * (a.tstates as f64 / b.tstates as f64 - 1.0)
        );
        if ["italian", "dragon", "kiwipete", "wac001"].contains(&name) {
            assert!(
                a.tstates < b.tstates,
                "{name}: {} T on, {} T off",
                a.tstates,
                b.tstates
            );
        }
        t_on += a.tstates;
        t_off += b.tstates;
    }
    assert!(t_on < t_off, "in all: {t_on} T on, {t_off} T off");
}

/// The pawns' key from the board: ZOBT's keys of an unmoved pawn (expansion ROM page 3:
/// 8100h + 4n White, A100h + 4n Black, n = 0 for a1 .. 63 for h8), XORed.
fn pawn_key(pos: &Chess) -> u32 {
    let rom = Build::Full.rom();
    let page3 = &rom[4 * 0x4000..5 * 0x4000];
    let mut key = 0;
    for (sq, piece) in pos.board().clone() {
        if piece.role == Role::Pawn {
            let at = if piece.color == Color::White {
                0x100
            } else {
                0x2100
            } + 4 * sq as usize;
            key ^= u32::from_le_bytes(page3[at..at + 4].try_into().unwrap());
        }
    }
    key
}

/// Games played and taken back move by move in the firmware (MOVE and UNMOVE only: no search
/// recomputes the key between them), pawn moves, captures, en passant and promotions chosen
/// first: after every move the firmware's PKEY is the key of the board shakmaty holds.
#[test]
fn the_incremental_key_is_always_the_boards() {
    let starts = [
        "r3k2r/1P4pp/8/3pP3/8/8/6PP/R3K2R w KQkq d6 0 30",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2",
        "4k3/1p1P2p1/8/2pP4/1P4P1/8/2p3p1/R3K2R b KQ - 0 40",
    ];
    let mut seed = 12345u64;
    let mut kinds = [0u32; 4]; // pawn steps, pawn captures, en passant, promotions
    for fen in starts {
        for game in 0..12 {
            let mut e = engine(fen, ON);
            // the key is set when an evaluation starts: 'Q' (eval) sets it from the board
            e.command(b'Q', &[]).unwrap();
            let mut pos = parse_fen(fen).unwrap();
            assert_eq!(word32(&e, "PKEY"), pawn_key(&pos), "{fen}: after 'Q'");
            let mut stack = vec![pos.clone()];
            for ply in 0..40 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let r = (seed >> 33) as usize;
                let pawnish: Vec<&Move> = moves
                    .iter()
                    .filter(|m| m.role() == Role::Pawn || m.capture() == Some(Role::Pawn))
                    .collect();
                let m = if !pawnish.is_empty() && !r.is_multiple_of(4) {
                    *pawnish[r / 4 % pawnish.len()]
                } else {
                    moves[r / 4 % moves.len()]
                };
                match &m {
                    Move::EnPassant { .. } => kinds[2] += 1,
                    Move::Normal {
                        promotion: Some(_), ..
                    } => kinds[3] += 1,
                    Move::Normal {
                        role: Role::Pawn,
                        capture: Some(_),
                        ..
                    } => kinds[1] += 1,
                    Move::Normal {
                        role: Role::Pawn, ..
                    } => kinds[0] += 1,
                    _ => {}
                }
                e.play(FwMove::from_move(&m)).unwrap();
                pos.play_unchecked(m);
                assert_eq!(
                    word32(&e, "PKEY"),
                    pawn_key(&pos),
                    "{fen} game {game} ply {ply}: after {m}"
                );
                stack.push(pos.clone());
            }
            while stack.len() > 1 {
                stack.pop();
                e.undo().unwrap();
                let back = stack.last().unwrap();
                assert_eq!(
                    word32(&e, "PKEY"),
                    pawn_key(back),
                    "{fen} game {game}: taken back"
                );
            }
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every kind of pawn move played: {kinds:?}"
    );
}
