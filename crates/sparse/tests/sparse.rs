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

#[test]
fn solver_refusals() {
    let message = |e: skinscope_sparse::SparseError| e.to_string();
    // A triplet outside the 2 x 2 matrix.
    let bad = Factored::new(2, &[(0, 0, 1.0), (5, 0, 1.0)])
        .err()
        .map(message);
    assert!(bad.unwrap().starts_with("the matrix is malformed"));
    let cases: [(&str, Result<(), skinscope_sparse::SparseError>); 6] = [
        (
            "a 2 x 2 matrix needs 4 values, not 3",
            thin_svd(2, 2, &[1.0; 3]).map(drop),
        ),
        (
            "the matrix holds non-finite values",
            thin_svd(1, 2, &[1.0, f64::NAN]).map(drop),
        ),
        (
            "a 2 x 2 system does not fit 4 matrix and 3 right-hand side values",
            solve_spd(2, &[1.0; 4], &mut [1.0; 3]),
        ),
        (
            "a 0 x 0 system does not fit 0 matrix and 0 right-hand side values",
            solve_spd(0, &[], &mut []),
        ),
        (
            "2 samples of 1 inputs and 1 outputs do not fit 3 and 2 values",
            train_mlp((2, 1, 1), &[1.0; 3], &[1.0; 2], &params()).map(drop),
        ),
        (
            "the samples hold non-finite values",
            train_mlp((1, 1, 1), &[f64::INFINITY], &[1.0], &params()).map(drop),
        ),
    ];
    for (expected, result) in cases {
        assert_eq!(result.map_err(message), Err(expected.to_string()));
    }
    // [[1, 2], [2, 1]] has eigenvalues 3 and -1: not positive definite.
    let indefinite = solve_spd(2, &[1.0, 2.0, 2.0, 1.0], &mut [1.0, 1.0]).map_err(message);
    assert!(
        indefinite
            .unwrap_err()
            .starts_with("the matrix is not positive definite")
    );
}

fn params() -> MlpParams {
    MlpParams {
        hidden: 2,
        epochs: 1,
        learning_rate: 0.01,
        weight_decay: 0.0,
        seed: 1,
    }
}
