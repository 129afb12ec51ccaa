//! Who fell behind in material first, and what became of those games: a match's tactical
//! balance, apart from what each side makes of a lead.
//!
//! After every ply of a game (the opening's too) the host counts each side's material, pawn 1,
//! knight 3, bishop 3, rook 5, queen 9, and takes side A's lead. A side *falls behind* at the
//! first ply from which it stays [`SWING_PAWNS`] or more behind for [`SWING_PLIES`] plies in a
//! row (so the middle of an exchange does not count). Each game is then one of three kinds:
//! A behind first, A ahead first (B behind first), or neither; the match report gives A's
//! score in each kind:
//!
//! ```text
//! material (2 pawns for 7 plies): full behind first in 94 games (+9 =72 -13, 47.9%), ahead
//! first in 81 (+59 =19 -3, 84.6%), neither in 25 (+3 =19 -3, 50.0%)
//! ```
//!
//! The split tells how much of a score comes from who blundered first and how much from what
//! each side did with a lead: at level 2 `full` and `article`, which share the search and the
//! exchange evaluator, fall behind first against `1978` about as often (94 and 91 games of
//! 200); they differ in what they make of a lead (`benches/README.md`, "The full build's strength").

use super::elo::Tally;
use super::game::Record;
use shakmaty::{Color, Position, Role};

/// A lead of this many pawns or more counts.
pub const SWING_PAWNS: i32 = 2;
/// ... when it lasts this many plies in a row.
pub const SWING_PLIES: usize = 7;

/// Which side fell behind first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swing {
    ABehind,
    AAhead,
    Neither,
}

/// The first lasting swing in a sequence of A's material leads, one per ply.
pub fn first_swing(leads: &[i32]) -> Swing {
    for w in leads.windows(SWING_PLIES) {
        if w.iter().all(|&d| d <= -SWING_PAWNS) {
            return Swing::ABehind;
        }
        if w.iter().all(|&d| d >= SWING_PAWNS) {
            return Swing::AAhead;
        }
    }
    Swing::Neither
}

/// `colour`'s material lead in `pos` (P1 N3 B3 R5 Q9).
pub fn lead(pos: &impl Position, colour: Color) -> i32 {
    let worth = |c: Color| {
        let b = pos.board();
        let n = |r: Role| (b.by_role(r) & b.by_color(c)).count() as i32;
        n(Role::Pawn)
            + 3 * n(Role::Knight)
            + 3 * n(Role::Bishop)
            + 5 * n(Role::Rook)
            + 9 * n(Role::Queen)
    };
    worth(colour) - worth(!colour)
}

/// The game's swing, from side A's view.
pub fn of_game(r: &Record) -> Swing {
    let a = r.colour_a();
    let mut pos = r.opening.start.clone();
    let mut leads = Vec::with_capacity(r.plies.len());
    for p in &r.plies {
        pos.play_unchecked(p.mv);
        leads.push(lead(&pos, a));
    }
    first_swing(&leads)
}

/// A's results in the games of each kind: [A behind first, A ahead first, neither].
pub fn tallies(records: &[Record]) -> [Tally; 3] {
    let kinds: Vec<Swing> = records.iter().map(of_game).collect();
    [Swing::ABehind, Swing::AAhead, Swing::Neither].map(|kind| {
        super::tally(
            records
                .iter()
                .zip(&kinds)
                .filter(|(_, &k)| k == kind)
                .map(|(r, _)| r),
        )
    })
}

/// The report's line (see the module's example).
pub fn line(a: &str, records: &[Record]) -> String {
    let part = |t: &Tally| {
        let pct = if t.games() == 0 {
            String::new()
        } else {
            format!(", {:.1}%", 100.0 * t.score())
        };
        format!("+{} ={} -{}{pct}", t.wins, t.draws, t.losses)
    };
    let [behind, ahead, neither] = tallies(records);
    format!(
        "material ({SWING_PAWNS} pawns for {SWING_PLIES} plies): {a} behind first in {} game{} \
         ({}), ahead first in {} ({}), neither in {} ({})",
        behind.games(),
        if behind.games() == 1 { "" } else { "s" },
        part(&behind),
        ahead.games(),
        part(&ahead),
        neither.games(),
        part(&neither)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchplay::game::{Outcome, PlyRecord};
    use crate::matchplay::openings::Opening;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess};

    /// A game from `fen` with `moves` (UCI), side A White when `white` is 0, ending in `winner`.
    fn record(fen: &str, moves: &[&str], white: usize, winner: Option<Color>) -> Record {
        let start: Chess = fen
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        let mut pos = start.clone();
        let mut plies = Vec::new();
        for u in moves {
            let mv = u.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
            pos.play_unchecked(mv);
            plies.push(PlyRecord {
                mv,
                san: u.to_string(),
                comment: String::new(),
            });
        }
        Record {
            round: 1,
            opening: Opening {
                name: "test".into(),
                start,
                moves: Vec::new(),
            },
            white,
            plies,
            outcome: Outcome {
                winner,
                reason: "test".into(),
                termination: "normal",
                fault: false,
            },
            ponder: [None, None],
        }
    }

    #[test]
    fn games_are_sorted_from_side_a_view() {
        // White takes the rook on h8 and shuffles its king: White ahead from ply 1 on.
        let fen = "k6r/8/8/8/8/8/8/K6R w - - 0 1";
        let moves = [
            "h1h8", "a8b7", "a1b1", "b7c7", "b1a1", "c7b7", "a1b1", "b7c7",
        ];
        let as_white = record(fen, &moves, 0, Some(Color::White));
        let as_black = record(fen, &moves, 1, Some(Color::White));
        assert_eq!(of_game(&as_white), Swing::AAhead);
        assert_eq!(of_game(&as_black), Swing::ABehind);
        // Cut short, the lead has not lasted seven plies.
        let short = record(fen, &moves[..6], 0, None);
        assert_eq!(of_game(&short), Swing::Neither);
        let games = [as_white, as_black.clone(), as_black, short];
        let [behind, ahead, neither] = tallies(&games);
        assert_eq!((behind.wins, behind.draws, behind.losses), (0, 0, 2));
        assert_eq!((ahead.wins, ahead.draws, ahead.losses), (1, 0, 0));
        assert_eq!((neither.wins, neither.draws, neither.losses), (0, 1, 0));
        assert_eq!(
            line("x", &games),
            "material (2 pawns for 7 plies): x behind first in 2 games (+0 =0 -2, 0.0%), \
             ahead first in 1 (+1 =0 -0, 100.0%), neither in 1 (+0 =1 -0, 50.0%)"
        );
    }

    #[test]
    fn a_lead_counts_only_when_it_lasts() {
        // An exchange in progress: down a knight for one ply, then level.
        assert_eq!(first_swing(&[0, -3, 0, 0, 0, 0, 0, 0, 0]), Swing::Neither);
        // Six plies behind is not enough; seven is.
        assert_eq!(first_swing(&[0, -2, -2, -2, -2, -2, -2, 0]), Swing::Neither);
        assert_eq!(
            first_swing(&[0, -2, -2, -2, -2, -2, -2, -3, 5]),
            Swing::ABehind
        );
        // One pawn behind for ever is not a swing.
        assert_eq!(first_swing(&[-1; 20]), Swing::Neither);
        // The first lasting swing decides, whatever comes later.
        let mut s = vec![3; 7];
        s.extend([-9; 30]);
        assert_eq!(first_swing(&s), Swing::AAhead);
        assert_eq!(first_swing(&[]), Swing::Neither);
    }

    #[test]
    fn material_is_counted_from_the_board() {
        // White has a queen and a pawn, Black a rook and a knight.
        let pos: Chess = "4k2r/8/8/3n4/8/8/4P3/3QK3 w - - 0 1"
            .parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap();
        assert_eq!(lead(&pos, Color::White), 10 - 8);
        assert_eq!(lead(&pos, Color::Black), -2);
        // After Qxd5 White is a knight further ahead.
        let m = "d1d5".parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        let after = pos.play(m).unwrap();
        assert_eq!(lead(&after, Color::White), 5);
    }
}
