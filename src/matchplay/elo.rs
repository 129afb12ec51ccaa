//! The match score as an Elo difference with a 95% error margin.
//!
//! With W wins, D draws and L losses in N = W + D + L games, the score is
//! s = (W + D/2) / N and the Elo difference E = -400 · log10(1/s - 1) (the logistic model:
//! a side 400 points stronger scores 10 to 1). The margin comes from the spread of the
//! per-game score x (1, ½, 0): σ² = (W(1-s)² + D(½-s)² + Ls²) / N² is the variance of the
//! mean score, the score's 95% interval is s ± 1.959964·σ, and M is half the width of that
//! interval mapped to Elo: M = (E(s + 1.96σ) - E(s - 1.96σ)) / 2 (as cutechess-cli reports
//! it). At a score of 0% or 100%, or when the interval reaches 0 or 1, the figure is infinite
//! and is printed as `inf`.

/// Wins, draws and losses from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The 97.5% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Elo difference of a score fraction (0..1); ±infinity at the ends.
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction (NaN with no games).
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games() as f64
    }

    pub fn elo(&self) -> f64 {
        elo_of_score(self.score())
    }

    /// Half the width of the 95% interval, in Elo (infinite when it reaches 0% or 100%).
    pub fn margin(&self) -> f64 {
        let n = self.games() as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let sigma = (var / n).sqrt();
        let lo = s - Z95 * sigma;
        let hi = s + Z95 * sigma;
        if lo <= 0.0 || hi >= 1.0 {
            return f64::INFINITY;
        }
        (elo_of_score(hi) - elo_of_score(lo)) / 2.0
    }

    /// `A vs B: +W =D -L, score S% (Elo E ± M)`.
    pub fn line(&self, a: &str, b: &str) -> String {
        let score = if self.games() == 0 {
            "-".to_string()
        } else {
            format!("{:.1}", 100.0 * self.score())
        };
        format!(
            "{a} vs {b}: +{} ={} -{}, score {score}% (Elo {} ± {})",
            self.wins,
            self.draws,
            self.losses,
            signed(self.elo()),
            unsigned(self.margin())
        )
    }
}

fn signed(x: f64) -> String {
    if x.is_nan() {
        "-".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        let r = (x * 10.0).round() / 10.0;
        // No "-0.0".
        format!("{:+.1}", if r == 0.0 { 0.0 } else { r })
    }
}

fn unsigned(x: f64) -> String {
    if x.is_nan() {
        "-".into()
    } else if x.is_infinite() {
        "inf".into()
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_scores() {
        // 75%: 400·log10(3) = 190.85.
        let t = Tally {
            wins: 10,
            draws: 10,
            losses: 0,
        };
        assert!((t.elo() - 190.848_501_887_865).abs() < 1e-9);
        let even = Tally {
            wins: 5,
            draws: 10,
            losses: 5,
        };
        assert_eq!(even.elo(), 0.0);
        assert_eq!(
            even.line("a", "b"),
            format!(
                "a vs b: +5 =10 -5, score 50.0% (Elo +0.0 ± {:.1})",
                even.margin()
            )
        );
        let none = Tally {
            wins: 0,
            draws: 0,
            losses: 3,
        };
        assert_eq!(
            none.line("a", "b"),
            "a vs b: +0 =0 -3, score 0.0% (Elo -inf ± inf)"
        );
    }
}
