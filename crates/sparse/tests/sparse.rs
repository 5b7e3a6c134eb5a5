//! `skinscope-sparse`'s sparse LU, its thin SVD
//! and Cholesky solve, and its perceptron, against hand-worked values.

use skinscope_sparse::{Factored, MlpParams, solve_spd, thin_svd, train_mlp};

#[test]
fn solves_a_small_unsymmetric_system_twice() {
    // A = [[2, 1], [0, 4]]; A^-1 (1, 4) = (0, 1); A^-1 (0, 1) = (-1/8, 1/4).
    let a = Factored::new(2, &[(0, 0, 2.0), (0, 1, 1.0), (1, 1, 4.0)]).unwrap();
    let mut rhs = [1.0, 4.0];
    let mut solves = 0;
    a.solve_repeated(&mut rhs, 2, &mut || solves += 1);
    assert_eq!(solves, 2);
    assert!((rhs[0] + 0.125).abs() < 1e-15 && (rhs[1] - 0.25).abs() < 1e-15);
}

#[test]
fn thin_svd_of_a_rank_one_matrix() {
    // A = (1, 2, 2)ᵀ (3, 4): one singular value |(1,2,2)| |(3,4)| = 3 * 5 = 15.
    let a = [3.0, 6.0, 6.0, 4.0, 8.0, 8.0];
    let svd = thin_svd(3, 2, &a).unwrap();
    assert_eq!(svd.r(), 2);
    assert!((svd.s[0] - 15.0).abs() < 1e-12 && svd.s[1].abs() < 1e-12);
    let (u, v) = (svd.u_col(0), svd.v_col(0));
    for (i, &ui) in u.iter().enumerate() {
        for (j, &vj) in v.iter().enumerate() {
            assert!((15.0 * ui * vj - a[j * 3 + i]).abs() < 1e-12);
        }
    }
}

#[test]
fn solves_a_two_by_two_spd_system() {
    // [[4, 2], [2, 3]] x = (2, 1): x = (0.5, 0).
    let mut b = [2.0, 1.0];
    solve_spd(2, &[4.0, 2.0, 2.0, 3.0], &mut b).unwrap();
    assert!((b[0] - 0.5).abs() < 1e-15 && b[1].abs() < 1e-15);
    assert!(solve_spd(2, &[1.0, 2.0, 2.0, 1.0], &mut b).is_err());
}

#[test]
fn fits_a_bump_a_line_cannot_and_vanishes_at_zero() {
    // y = x² on [-1, 1]: a line through the origin fits it no better than zero
    // (mean square 0.2); the perceptron comes within a tenth of that.
    let n = 41;
    let x: Vec<f64> = (0..n)
        .map(|i| -1.0 + 2.0 * i as f64 / (n - 1) as f64)
        .collect();
    let y: Vec<f64> = x.iter().map(|v| v * v).collect();
    let p = MlpParams {
        hidden: 8,
        epochs: 3000,
        learning_rate: 1e-2,
        weight_decay: 0.0,
        seed: 3,
    };
    let mlp = train_mlp((n, 1, 1), &x, &y, &p).unwrap();
    let mut out = [0.0];
    let mse: f64 = (x.iter().zip(&y))
        .map(|(&a, &b)| {
            mlp.eval(&[a], &mut out);
            (out[0] - b).powi(2)
        })
        .sum::<f64>()
        / n as f64;
    assert!(mse < 0.02, "{mse}");
    mlp.eval(&[0.0], &mut out);
    assert_eq!(out[0], 0.0);
}
