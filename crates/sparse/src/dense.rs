//! Dense factorisations for the ML deformer's training: the thin SVD that compresses
//! its targets (PCA) and the symmetric positive definite solve of its ridge regression, over
//! faer, instantiated here so they are compiled optimised in every profile.

use faer::prelude::*;
use faer::{Mat, MatRef, Side};

use crate::SparseError;

/// A thin singular value decomposition A = U diag(s) Vᵀ of a `rows` x `cols` matrix, `r =
/// min(rows, cols)`: `u` is `rows` x `r` and `v` is `cols` x `r`, both column-major, `s`
/// non-negative and non-increasing.
#[derive(Clone, Debug, PartialEq)]
pub struct ThinSvd {
    pub rows: usize,
    pub cols: usize,
    pub u: Vec<f64>,
    pub s: Vec<f64>,
    pub v: Vec<f64>,
}

impl ThinSvd {
    /// The rank of the decomposition, min(rows, cols).
    pub fn r(&self) -> usize {
        self.s.len()
    }

    /// Column `k` of U.
    pub fn u_col(&self, k: usize) -> &[f64] {
        &self.u[k * self.rows..(k + 1) * self.rows]
    }

    /// Column `k` of V.
    pub fn v_col(&self, k: usize) -> &[f64] {
        &self.v[k * self.cols..(k + 1) * self.cols]
    }
}

fn copy_out(m: MatRef<'_, f64>) -> Vec<f64> {
    let mut out = Vec::with_capacity(m.nrows() * m.ncols());
    for j in 0..m.ncols() {
        out.extend((0..m.nrows()).map(|i| m[(i, j)]));
    }
    out
}

/// The thin SVD of `a` (`rows` x `cols`, column-major).
pub fn thin_svd(rows: usize, cols: usize, a: &[f64]) -> Result<ThinSvd, SparseError> {
    if a.len() != rows * cols {
        return Err(SparseError(format!(
            "a {rows} x {cols} matrix needs {} values, not {}",
            rows * cols,
            a.len()
        )));
    }
    if a.iter().any(|x| !x.is_finite()) {
        return Err(SparseError("the matrix holds non-finite values".into()));
    }
    let m = MatRef::from_column_major_slice(a, rows, cols);
    let svd = m
        .thin_svd()
        .map_err(|e| SparseError(format!("the SVD did not converge: {e:?}")))?;
    let s = svd.S().column_vector();
    Ok(ThinSvd {
        rows,
        cols,
        u: copy_out(svd.U()),
        s: (0..s.nrows()).map(|i| s[i]).collect(),
        v: copy_out(svd.V()),
    })
}

/// Solves A X = B in place for a symmetric positive definite `n` x `n` A (column-major; its
/// lower triangle is read) and `b` holding B's columns (column-major, `n` rows), by Cholesky.
pub fn solve_spd(n: usize, a: &[f64], b: &mut [f64]) -> Result<(), SparseError> {
    if a.len() != n * n || n == 0 || !b.len().is_multiple_of(n) {
        return Err(SparseError(format!(
            "a {n} x {n} system does not fit {} matrix and {} right-hand side values",
            a.len(),
            b.len()
        )));
    }
    let m = MatRef::from_column_major_slice(a, n, n);
    let llt = m
        .llt(Side::Lower)
        .map_err(|e| SparseError(format!("the matrix is not positive definite: {e:?}")))?;
    let k = b.len() / n;
    let mut rhs = Mat::<f64>::zeros(n, k);
    for j in 0..k {
        for i in 0..n {
            rhs[(i, j)] = b[j * n + i];
        }
    }
    llt.solve_in_place(rhs.as_mut());
    for j in 0..k {
        for i in 0..n {
            b[j * n + i] = rhs[(i, j)];
        }
    }
    Ok(())
}
