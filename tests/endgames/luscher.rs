//! Lüscher's generated evaluation (host side): features, configurations and their jump
//! table, conjugate gradients, and the KRK fit against the paper's figures.

use z80chess::luscher::cg::pcg;
use z80chess::luscher::configs::ConfigSet;
use z80chess::luscher::features::{self, Options};
use z80chess::luscher::fit::{self, Model, Settings};
use z80chess::luscher::LuscherError;
use z80chess::tablebase::layout::Layout;
use z80chess::tablebase::store::{chess_of, men_of};

fn vector_of(fen: &str, square: u8) -> u32 {
    let (men, stm, _) = men_of(&chess_of(fen).unwrap()).unwrap();
    let i = men.at(square).expect("a man on the square");
    features::vector(&men, i, stm, Options::default())
}

fn bits(v: u32) -> Vec<u8> {
    (0..32).filter(|&b| v >> b & 1 == 1).collect()
}

#[test]
fn rook_and_king_vectors() {
    // White: Ke1, Ra1; Black: Ke5, Black to move.
    let fen = "8/8/8/4k3/8/8/8/R3K3 b - - 0 1";
    // rook a1: more material (0), White not to move (16), 4 from the black king (24, 25),
    // 4 from its own king (27, 28), on the edge (30); the box is 7x7 (no box bits)
    assert_eq!(bits(vector_of(fen, 0)), vec![0, 16, 24, 25, 27, 28, 30]);
    // white king e1: more material, covered by its rook (13), not to move, 3 from the nearest corner (17-19),
    // 4 from the other king (21, 22), on the edge (27), 5 flight squares (no 30/31)
    assert_eq!(
        bits(vector_of(fen, 4)),
        vec![0, 13, 16, 17, 18, 19, 21, 22, 27]
    );
    // black king e5: less material (1), to move, 6 from a corner (17-20), in the centre
    // (28, 29), every flight square safe
    assert_eq!(
        bits(vector_of(fen, 36)),
        vec![1, 17, 18, 19, 20, 21, 22, 28, 29]
    );
    // a rook cutting the black king off on the 8th rank
    let r = vector_of("3k4/R7/3K4/8/8/8/8/8 b - - 0 1", 48);
    assert!(r & (1 << 19) != 0, "rank next to the king: {:?}", bits(r));
    assert!(r & (1 << 18) != 0, "the king cut off: {:?}", bits(r));
    // the box is the 8th rank's 7 squares right of the a-file: ≤ 12, not ≤ 6
    assert!(r & (1 << 22) != 0 && r & (1 << 23) == 0, "{:?}", bits(r));
    let k = vector_of("3k4/R7/3K4/8/8/8/8/8 b - - 0 1", 59);
    assert!(k & (1 << 26) != 0, "opposition: {:?}", bits(k));
    // flights c8 and e8 only: at most 3 (30), not at most 1 (31)
    assert!(k & (1 << 30) != 0 && k & (1 << 31) == 0, "{:?}", bits(k));
}

#[test]
fn pawn_vectors_are_colour_symmetric() {
    // the same pawn ending with colours and board flipped gives the same vectors
    let a = vector_of("8/8/8/8/4P3/8/2k5/4K3 w - - 0 1", 28);
    let b = vector_of("4k3/2K5/8/4p3/8/8/8/8 b - - 0 1", 36);
    assert_eq!(bits(a), bits(b));
    // e4, White to move: rank 4 (17, 18), passed (22); the black king on c2 is outside the
    // pawn's square (6 moves from e8, the pawn 4)
    assert_eq!(bits(a), vec![0, 17, 18, 22]);
    // Black's king on c5 is inside it (3 from e8), moving first or not
    let c = vector_of("8/8/8/2k5/4P3/8/8/4K3 w - - 0 1", 28);
    assert!(c & 1 << 23 != 0, "{:?}", bits(c));
}

#[test]
fn corner_feature_can_be_left_out() {
    let fen = "k7/8/1K6/8/8/8/8/5BN1 w - - 0 1";
    let (men, stm, _) = men_of(&chess_of(fen).unwrap()).unwrap();
    let i = men.at(5).unwrap(); // bishop f1 (light), black king a8 (light corner)
    let with = features::vector(&men, i, stm, Options::default());
    let without = features::vector(&men, i, stm, Options { no_corner: true });
    assert_eq!(with >> 29, 0b111, "{:?}", bits(with));
    assert_eq!(without >> 29, 0);
    assert_eq!(with & !(0b111 << 29), without);
}

#[test]
fn configurations_and_skips_on_a_hand_made_set() {
    // vectors {0,1} x3, {0} x1, {1,2} x2 over 6 positions; support at least 2 of 6
    let hist = [(0b011, 3), (0b001, 1), (0b110, 2)];
    let cs = ConfigSet::generate(&hist, 6, 0.3, 2);
    // kept: {}, {0}, {0,1}, {1}, {1,2}, {2}; {0,2} never occurs
    assert_eq!(cs.masks, vec![0, 0b001, 0b011, 0b010, 0b110, 0b100]);
    assert_eq!(cs.skip, vec![6, 3, 3, 5, 5, 6]);
    let mut out = Vec::new();
    let tested = cs.active(0b010, &mut out);
    assert_eq!(out, vec![0, 3]);
    assert_eq!(tested, 5, "{{0}} inactive skips {{0,1}}");
    // the walk agrees with testing every mask, on every vector of the three bits
    for v in 0..8u32 {
        cs.active(v, &mut out);
        let brute: Vec<u32> = (0..cs.len() as u32)
            .filter(|&k| v & cs.masks[k as usize] == cs.masks[k as usize])
            .collect();
        assert_eq!(out, brute, "vector {v:03b}");
    }
    // a threshold above every support keeps only the empty configuration; one feature at most
    assert_eq!(ConfigSet::generate(&hist, 6, 0.99, 3).masks, vec![0]);
    assert_eq!(
        ConfigSet::generate(&hist, 6, 0.0, 1).masks,
        vec![0, 1, 2, 4]
    );
}

#[test]
#[allow(clippy::needless_range_loop)]
fn cg_matches_a_direct_solve() {
    // least squares on a small full-rank system: A is 7x4
    let a: Vec<[f64; 4]> = (0..7)
        .map(|i| {
            let x = i as f64;
            [
                1.0,
                x,
                (x * 0.7).sin() * 3.0,
                if i % 3 == 0 { 2.0 } else { -1.0 },
            ]
        })
        .collect();
    let r: Vec<f64> = (0..7).map(|i| (i * i) as f64 * 0.5 - 3.0).collect();
    let mut ata = [[0.0; 4]; 4];
    let mut atr = [0.0; 4];
    for (row, &ri) in a.iter().zip(&r) {
        for j in 0..4 {
            atr[j] += row[j] * ri;
            for k in 0..4 {
                ata[j][k] += row[j] * row[k];
            }
        }
    }
    // direct: Gaussian elimination on the normal equations
    let mut m = ata;
    let mut b = atr;
    for c in 0..4 {
        for r2 in c + 1..4 {
            let f = m[r2][c] / m[c][c];
            for k in 0..4 {
                m[r2][k] -= f * m[c][k];
            }
            b[r2] -= f * b[c];
        }
    }
    let mut x = [0.0; 4];
    for c in (0..4).rev() {
        let s: f64 = (c + 1..4).map(|k| m[c][k] * x[k]).sum();
        x[c] = (b[c] - s) / m[c][c];
    }
    let diag: Vec<f64> = (0..4).map(|j| ata[j][j]).collect();
    let mut normal = |p: &[f64], q: &mut [f64]| {
        for j in 0..4 {
            q[j] = (0..4).map(|k| ata[j][k] * p[k]).sum();
        }
    };
    let (w, it) = pcg(&mut normal, &diag, &atr, 50, 1e-12);
    assert!(it <= 6, "CG in exact arithmetic needs 4 steps; took {it}");
    for j in 0..4 {
        assert!((w[j] - x[j]).abs() < 1e-8, "w {w:?} direct {x:?}");
    }
}

fn krk_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("z80chess-luscher-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn krk_fit_reaches_the_papers_figures_deterministically() {
    let dir = krk_dir();
    let l = Layout::parse("KRK").unwrap();
    let mut s = Settings::for_ending(&l);
    s.jobs = 1;
    let one = fit::fit(&dir, "KRK", &s).unwrap();
    s.jobs = 3;
    let three = fit::fit(&dir, "KRK", &s).unwrap();
    assert_eq!(
        one.model, three.model,
        "the weights do not depend on --jobs"
    );
    assert_eq!(one.train, three.train);
    let st = &one.train;
    // OFFSET was set for exactly this: the paper's 15.6 half-moves before training
    assert!((st.avg_before - 15.6).abs() < 0.01, "{}", st.avg_before);
    // the paper: 2.13 half-moves after training, 99.8% outcome right, 68.7% / 27.5%
    assert!(st.avg_after < 2.13, "average error after {}", st.avg_after);
    assert!(
        st.outcome_right() > 99.0,
        "outcome right {}",
        st.outcome_right()
    );
    assert!(
        (st.random_rate() - 27.5).abs() < 2.0,
        "random {}",
        st.random_rate()
    );
    assert!(st.hit_rate() > 63.7, "hit rate {}", st.hit_rate());
    // the model file round-trips and evaluates the same
    let path = Model::path(&dir, "KRK");
    one.model.save(&path).unwrap();
    assert_eq!(Model::load(&path).unwrap(), one.model);
    assert!(
        (fit::untrained_error(&fit::table(&dir, "KRK").unwrap().1, fit::OFFSET) - 15.6).abs()
            < 0.01
    );
    // `luscher eval` lists the active configurations of each man from the saved model
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args([
            "luscher",
            "eval",
            "--fen",
            "8/8/8/4k3/8/8/8/R3K3 b - - 0 1",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("White rook on a1: features 5b010001"),
        "{text}"
    );
    assert!(text.contains("tablebase: loss in 14"), "{text}");
    // without a model: named, not a panic
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_z80chess"))
        .args([
            "luscher",
            "eval",
            "--fen",
            "8/8/8/4k3/8/8/8/Q3K3 b - - 0 1",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no fitted model for KQK"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn errors_are_named() {
    let dir = krk_dir().join("none");
    let l = Layout::parse("KRK").unwrap();
    let e = fit::fit(&dir, "KXK", &Settings::for_ending(&l))
        .err()
        .unwrap();
    assert!(e.to_string().contains("KXK"), "{e}");
    let p = dir.join("bad.luscher");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&p, "hello\n").unwrap();
    assert!(matches!(
        Model::load(&p),
        Err(LuscherError::BadModel { .. })
    ));
    std::fs::remove_dir_all(&dir).ok();
}

/// The bishop's corner bits (29–31: the enemy king ≤ 4, ≤ 2, ≤ 1 king moves from the
/// nearest corner of the bishop's colour) on hand-made KBNK positions.
#[test]
fn corner_feature_on_hand_made_positions() {
    let corner = |fen: &str, bishop: u8| -> Vec<u8> {
        bits(vector_of(fen, bishop) >> 29)
            .into_iter()
            .map(|b| b + 29)
            .collect()
    };
    // dark-squared bishop c1 (a1 and h8 are its corners); the white king and knight far away
    // black king a1: 0 from a1
    assert_eq!(
        corner("8/8/8/4K3/8/8/8/k1B3N1 w - - 0 1", 2),
        vec![29, 30, 31]
    );
    // b2: 1 from a1
    assert_eq!(
        corner("8/8/8/4K3/8/8/1k6/2B3N1 b - - 0 1", 2),
        vec![29, 30, 31]
    );
    // c3: 2 from a1
    assert_eq!(corner("7K/8/8/8/8/2k5/8/2B3N1 b - - 0 1", 2), vec![29, 30]);
    // d4: 3 from a1 (4 from h8)
    assert_eq!(corner("7K/8/8/8/3k4/8/8/2B3N1 b - - 0 1", 2), vec![29]);
    // e4: 4 from both a1 (4 files) and h8 (4 ranks)
    assert_eq!(corner("K7/8/8/8/4k3/8/8/2B3N1 b - - 0 1", 2), vec![29]);
    // the same kings with a light-squared bishop f1 (h1 and a8): a1 and b2 are far from both
    // (7 and 6 moves), the wrong corner
    assert!(corner("8/8/8/4K3/8/8/8/k4BN1 w - - 0 1", 5).is_empty());
    assert!(corner("8/8/8/4K3/8/8/1k6/5BN1 w - - 0 1", 5).is_empty());
    // g2 is next to h1: 1
    assert_eq!(
        corner("8/8/8/4K3/8/8/6k1/5BN1 b - - 0 1", 5),
        vec![29, 30, 31]
    );
    // c5: 3 from a8 (2 files, 3 ranks), 5 from h1
    assert_eq!(corner("7K/8/8/2k5/8/8/8/5BN1 w - - 0 1", 5), vec![29]);
    // e6: 4 from a8 (4 files, 2 ranks), 5 from h1
    assert_eq!(corner("K7/8/4k3/8/8/8/8/5BN1 w - - 0 1", 5), vec![29]);
    // d3: 4 from h1, 5 from a8; h4: 3 from h1
    assert_eq!(corner("K7/8/8/8/8/3k4/8/5BN1 b - - 0 1", 5), vec![29]);
    assert_eq!(corner("K7/8/8/8/7k/8/8/5BN1 w - - 0 1", 5), vec![29]);
    // the whole vector is the same with colours swapped and the board turned (Black's dark
    // bishop f8, White's king g7 next to h8)
    let a = vector_of("8/8/8/4K3/8/8/1k6/2B3N1 b - - 0 1", 2);
    let b = vector_of("1n3b2/6K1/8/8/3k4/8/8/8 w - - 0 1", 61);
    assert_eq!(bits(a), bits(b));
    assert_eq!(a >> 29, 0b111);
}

#[test]
fn quantise_rounds_to_the_word_and_refuses_what_does_not_fit() {
    use z80chess::luscher::quant::{quantise, Quantised};
    use z80chess::tablebase::men::KING;
    assert_eq!(quantise(0.0), Some(0));
    assert_eq!(quantise(1.0), Some(64));
    assert_eq!(
        quantise(-1.0 / 128.0),
        Some(-1),
        "half a unit: away from zero"
    );
    assert_eq!(quantise(1.0 / 129.0), Some(0));
    assert_eq!(quantise(32767.0 / 64.0), Some(32767));
    assert_eq!(quantise(-512.0), Some(-32768));
    assert_eq!(quantise(512.0), None);
    assert_eq!(quantise(f64::NAN), None);
    // a hand-made model: {}, {0}, {0,1}
    let cs = ConfigSet::from_masks(vec![0, 1, 3]);
    let mut m = Model {
        name: "KRK".into(),
        max: 32,
        offset: fit::OFFSET,
        options: Options::default(),
        types: vec![(KING, cs, vec![0.3, -7.77, 100.0])],
    };
    let q = Quantised::of(&m).unwrap();
    assert_eq!(q.words, vec![vec![19, -497, 6400]]);
    assert_eq!(q.model.types[0].2, vec![19.0 / 64.0, -497.0 / 64.0, 100.0]);
    assert_eq!(q.max_word(), 6400);
    // the man's sum wraps as the Z80's ADD HL,DE: 30000 + 30000 passes 32767, yet the total
    // 30000 + 30000 − 30000 comes out exact
    m.types[0].2 = vec![468.75, 468.75, -468.75];
    let q = Quantised::of(&m).unwrap();
    let mut buf = Vec::new();
    assert_eq!(q.man_value(KING, 0b11, &mut buf), 30000);
    assert_eq!(q.man_value(KING, 0b01, &mut buf), -5536, "60000 wrapped");
    // beyond the word: named, not a panic
    m.types[0].2[1] = 600.0;
    let e = Quantised::of(&m).expect_err("600 half-moves do not fit");
    assert!(matches!(e, LuscherError::Range { .. }));
    assert!(
        e.to_string()
            .contains("king configuration 00000001 weight 600"),
        "{e}"
    );
}

/// A temp dir of its own (tests run side by side) and the paper's KRK settings on 2 threads.
fn krk_settings(tag: &str) -> (std::path::PathBuf, Settings) {
    let dir = std::env::temp_dir().join(format!("z80chess-luscher-{tag}-{}", std::process::id()));
    let mut s = Settings::for_ending(&Layout::parse("KRK").unwrap());
    s.jobs = 2;
    (dir, s)
}

/// Every legal KRK position (men, side to move), from the table in `dir`.
fn krk_positions(dir: &std::path::Path) -> Vec<(z80chess::tablebase::men::Men, u8)> {
    let (_, t) = fit::table(dir, "KRK").unwrap();
    (0..t.data.len())
        .filter(|&idx| t.get(idx).is_some())
        .filter_map(|idx| t.layout.decode(idx))
        .map(|(stm, sq, _)| (t.layout.men(&sq), stm))
        .collect()
}

#[test]
fn krk_quantised_is_the_z80_sum_and_keeps_the_engine_scale() {
    use z80chess::luscher::quant::{engine_score, ENGINE_LIMIT, LWIN, QSCALE};
    let (dir, s) = krk_settings("q");
    let r = fit::fit(&dir, "KRK", &s).unwrap();
    // every word within half a unit of its weight
    for ((_, _, w), words) in r.model.types.iter().zip(&r.quantised.words) {
        for (x, &q) in w.iter().zip(words) {
            assert!((x * QSCALE - q as f64).abs() <= 0.5, "{x} -> {q}");
        }
    }
    // the statistics hardly move: the quantised error within 0.05 half-moves of the float's
    let (f, q) = (&r.train, &r.train_q);
    assert!((q.avg_after - f.avg_after).abs() < 0.05, "{f:?} {q:?}");
    assert!((q.outcome_right() - f.outcome_right()).abs() < 0.2);
    assert!((q.hit_rate() - f.hit_rate()).abs() < 0.5);
    assert_eq!(q.avg_before, f.avg_before);
    // the per-outcome one-ply counts add up to the totals
    assert_eq!(q.class_positions.iter().sum::<u64>(), q.hit_positions);
    assert_eq!(q.class_hits.iter().sum::<u64>(), q.hits);
    // on every KRK position: the Z80's wrapping 16-bit sum equals the host's quantised
    // evaluation exactly, stays inside the engine's limit, and a won ending (by the
    // function) scores above every non-won score and below the mates
    let mut cache = std::collections::HashMap::new();
    let (mut n, mut largest) = (0, 0);
    for (men, stm) in krk_positions(&dir) {
        let e = r.quantised.eval(&men, stm);
        let host = r.quantised.model.eval(&men, stm, &mut cache) * QSCALE;
        assert_eq!(e as f64, host, "{:?}", men.sq);
        largest = largest.max((e as i32).abs());
        let score = engine_score(e, r.model.offset);
        if e as f64 > r.model.offset / 2.0 * QSCALE {
            assert!(score > LWIN && score < 31936, "{e} -> {score}");
        } else {
            assert!(
                score.abs() < 4096 || score < -LWIN + ENGINE_LIMIT,
                "{e} -> {score}"
            );
        }
        n += 1;
    }
    assert!(n > 50_000, "{n} positions");
    assert!(largest < ENGINE_LIMIT, "largest |E| {largest}");
    assert_eq!(largest as f64, (r.train_q.max_abs * QSCALE).round());
    std::fs::remove_dir_all(&dir).ok();
}

/// `luscher export`: the assembly assembles, walking its bytes as the Z80 will gives every
/// KRK man's quantised value, and regenerating KRK from a fresh fit gives the committed
/// `asm/full/luscher_tables.asm` byte for byte.
#[test]
fn export_assembles_walks_like_the_model_and_regenerates_krk() {
    use std::collections::HashSet;
    use z80chess::luscher::export::{self, walk};
    let (dir, s) = krk_settings("x");
    let r = fit::fit(&dir, "KRK", &s).unwrap();
    let e = export::export(std::slice::from_ref(&r.model), &[1, 2]).unwrap();
    // the KRK part of the committed file is this text, byte for byte: its threshold line
    // and both tables (from "; KRK king" to the page's end)
    let committed = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("asm/full/luscher_tables.asm"),
    )
    .unwrap();
    let from = e.text.find("; KRK king").unwrap();
    let to = e.text[from..].find("        ENDPAGE").unwrap() + from;
    let tables = &e.text[from..to];
    assert!(tables.len() > 5000 && tables.contains("LTKRKROOK:"));
    assert!(
        committed.contains(tables),
        "asm/full/luscher_tables.asm's KRK tables differ from a regeneration: run \
         `z80chess luscher fit KRK; z80chess luscher fit KBBK; z80chess luscher fit KBNK; \
         z80chess luscher export`"
    );
    let th = e.text.lines().find(|l| l.starts_with("LTKRKTH")).unwrap();
    assert!(committed.lines().any(|l| l == th), "{th}");
    // a second fit exports the same text
    let again = fit::fit(&dir, "KRK", &s).unwrap();
    let e2 = export::export(&[again.model], &[1, 2]).unwrap();
    assert_eq!(e.text, e2.text);
    // assemble it and walk the bytes for every man of every KRK position
    let asm = z80chess::asm::assemble_str(&e.text, "luscher_tables.asm", &[])
        .unwrap_or_else(|errs| panic!("{errs:?}"));
    let q = &r.quantised;
    let mut seen = HashSet::new();
    let mut buf = Vec::new();
    for (men, stm) in krk_positions(&dir) {
        for i in 0..men.n {
            let v = features::vector(&men, i, stm, r.model.options);
            if !seen.insert((men.role[i], v)) {
                continue;
            }
            let name = if men.role[i] == 6 {
                "LTKRKKING"
            } else {
                "LTKRKROOK"
            };
            let page = asm.symbol_page(name).unwrap();
            let at = asm.symbol(name).unwrap() as u16;
            let ty = r
                .model
                .types
                .iter()
                .position(|x| x.0 == men.role[i])
                .unwrap();
            let base = q.words[ty][0];
            let z80 = walk(asm.page_bytes(page).unwrap(), at, base, v);
            assert_eq!(
                z80,
                Some(q.man_value(men.role[i], v, &mut buf)),
                "{name} {v:08x}"
            );
        }
    }
    assert!(seen.len() > 1000, "{} vectors", seen.len());
    // the directory: KRK's men and its two tables
    let d = asm.symbol("LUSDIR").unwrap() as usize - 0x8000;
    let p1 = asm.page_bytes(asm.symbol_page("LUSDIR").unwrap()).unwrap();
    assert_eq!(&p1[d..d + 8], &[3, 0, 6, 1, 6, 0, 4, 2]);
    // pages that cannot hold the tables, and a page outside 0..3, are named errors
    let err = export::export(&[r.model.clone(), r.model.clone(), r.model.clone()], &[1])
        .err()
        .unwrap();
    assert!(
        err.to_string().contains("does not fit in pages [1]"),
        "{err}"
    );
    assert!(export::export(std::slice::from_ref(&r.model), &[4]).is_err());
    assert!(export::export(&[r.model], &[1, 1]).is_err());
    std::fs::remove_dir_all(&dir).ok();
}
