//! Configurations (Lüscher §3.2): conjunctions of one piece type's atomic features, as bit
//! masks, kept when active in at least a share of the training positions and with at most
//! `max_features` bits. They are kept in depth-first order of the prefix tree of their sorted
//! bits (the empty configuration first), so every configuration's extensions by higher bits
//! follow it directly: when a configuration is inactive, `skip` jumps past all of them (the
//! paper's jump table). Every prefix of a kept configuration is kept too (a subset is active
//! at least as often), which makes the skip exact.

/// The configurations of one piece type, in jump-table order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConfigSet {
    pub masks: Vec<u32>,
    /// `skip[k]`: the next configuration that does not extend `masks[k]`.
    pub skip: Vec<u32>,
}

/// Highest bit of a non-empty mask (`-1` for the empty one).
fn top(m: u32) -> i32 {
    31 - m.leading_zeros() as i32
}

impl ConfigSet {
    /// Generate from a histogram of feature vectors (vector, how many men had it), the
    /// support measured against `positions` training positions.
    pub fn generate(
        hist: &[(u32, u64)],
        positions: u64,
        threshold: f64,
        max_features: u32,
    ) -> ConfigSet {
        let need = (threshold * positions as f64).ceil().max(1.0) as u64;
        let mut kept: Vec<u32> = vec![0];
        let mut level: Vec<u32> = vec![0];
        for _ in 0..max_features {
            // extend each configuration of the last level by one higher bit, count support
            let mut counts: std::collections::HashMap<u32, u64> = Default::default();
            let lvl: std::collections::HashSet<u32> = level.iter().copied().collect();
            for &(v, c) in hist {
                // the configurations of this level that v contains
                for &p in &level {
                    if v & p != p {
                        continue;
                    }
                    let mut rest = v & above(p);
                    while rest != 0 {
                        let b = rest & rest.wrapping_neg();
                        rest &= rest - 1;
                        *counts.entry(p | b).or_default() += c;
                    }
                }
            }
            let mut next: Vec<u32> = counts
                .into_iter()
                .filter(|&(m, c)| {
                    c >= need && {
                        // every subset one bit smaller is kept (apriori)
                        let mut r = m;
                        let mut ok = true;
                        while r != 0 {
                            let b = r & r.wrapping_neg();
                            r &= r - 1;
                            if !lvl.contains(&(m & !b)) {
                                ok = false;
                            }
                        }
                        ok
                    }
                })
                .map(|(m, _)| m)
                .collect();
            if next.is_empty() {
                break;
            }
            next.sort_unstable();
            kept.extend(&next);
            level = next;
        }
        ConfigSet::from_masks(kept)
    }

    /// Order masks depth-first by their sorted bits and fill the jump table.
    pub fn from_masks(mut masks: Vec<u32>) -> ConfigSet {
        masks.sort_unstable_by_key(|&m| bits(m));
        masks.dedup();
        let n = masks.len();
        let mut skip = vec![n as u32; n];
        // skip[k] = first j > k whose mask does not extend masks[k] as a prefix
        let mut stack: Vec<usize> = Vec::new();
        for j in 0..n {
            while let Some(&k) = stack.last() {
                if is_prefix(masks[k], masks[j]) {
                    break;
                }
                skip[k] = j as u32;
                stack.pop();
            }
            stack.push(j);
        }
        ConfigSet { masks, skip }
    }

    pub fn len(&self) -> usize {
        self.masks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// Walk the table for one feature vector: the active configurations, in order, and how
    /// many masks were tested.
    pub fn active(&self, v: u32, out: &mut Vec<u32>) -> usize {
        out.clear();
        let mut k = 0usize;
        let mut tested = 0;
        while k < self.masks.len() {
            tested += 1;
            let m = self.masks[k];
            if v & m == m {
                out.push(k as u32);
                k += 1;
            } else {
                k = self.skip[k] as usize;
            }
        }
        tested
    }
}

/// The sorted bit list of a mask (the key of the depth-first order).
pub fn bits(m: u32) -> Vec<u8> {
    (0..32u8).filter(|&b| m >> b & 1 == 1).collect()
}

/// Is `p` a prefix of `m` in sorted-bit order (all of p's bits in m, and m's other bits higher)?
pub fn is_prefix(p: u32, m: u32) -> bool {
    m & p == p && (m & !p) & !above(p) == 0
}

/// The bits above `p`'s highest (all of them for the empty mask).
fn above(p: u32) -> u32 {
    match top(p) {
        -1 => u32::MAX,
        31 => 0,
        t => !((1u32 << (t + 1)) - 1),
    }
}
