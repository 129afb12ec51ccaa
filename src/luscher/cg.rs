//! Conjugate gradients with Jacobi preconditioning on the normal equations
//! AᵀA w = Aᵀ r (Lüscher §3.4: minimise Σ (r_i − Σ_k w_k h_ik)²), starting from w = 0.
//! The operator is given as a closure so the fit can apply A and Aᵀ through its per-piece
//! cache; every reduction here is sequential, so the result depends only on the operator's.

/// Solve `normal(w) = rhs` (normal: w ↦ AᵀA w) preconditioned by `diag` (AᵀA's diagonal;
/// zero entries are left out: their weight stays 0). Stops after `max_iter` steps or when the
/// residual's norm falls below `tol` times the right-hand side's. Returns (w, iterations).
pub fn pcg(
    normal: &mut dyn FnMut(&[f64], &mut [f64]),
    diag: &[f64],
    rhs: &[f64],
    max_iter: usize,
    tol: f64,
) -> (Vec<f64>, usize) {
    let n = rhs.len();
    let inv: Vec<f64> = diag
        .iter()
        .map(|&d| if d > 0.0 { 1.0 / d } else { 0.0 })
        .collect();
    let mut w = vec![0.0; n];
    let mut r: Vec<f64> = rhs
        .iter()
        .zip(&inv)
        .map(|(&b, &i)| if i > 0.0 { b } else { 0.0 })
        .collect();
    let mut z: Vec<f64> = r.iter().zip(&inv).map(|(a, b)| a * b).collect();
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let norm0 = dot(&r, &r).sqrt();
    let mut q = vec![0.0; n];
    let mut it = 0;
    while it < max_iter && norm0 > 0.0 && dot(&r, &r).sqrt() > tol * norm0 {
        normal(&p, &mut q);
        let pq = dot(&p, &q);
        if pq <= 0.0 {
            break;
        }
        let alpha = rz / pq;
        for k in 0..n {
            w[k] += alpha * p[k];
            r[k] -= alpha * q[k];
        }
        for k in 0..n {
            z[k] = r[k] * inv[k];
        }
        let rz2 = dot(&r, &z);
        let beta = rz2 / rz;
        rz = rz2;
        for k in 0..n {
            p[k] = z[k] + beta * p[k];
        }
        it += 1;
    }
    (w, it)
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
