//! Sparse LU solves for skinscope's precomputations (direct delta mush's implicit Laplacian
//! smoothing) and the dense SVD, Cholesky solve and perceptron fit of the ML deformer's training, over faer,
//! behind a non-generic API.
//!
//! Why a crate of its own: faer is generic, so its solvers are compiled where they are
//! instantiated. Instantiated here, they are built optimised even in skinscope's debug
//! profile (the top-level `Cargo.toml` sets this crate's and faer's `opt-level`), so the tests
//! precompute a 20,000-vertex mesh in seconds rather than minutes.

mod dense;
mod mlp;

pub use dense::{ThinSvd, solve_spd, thin_svd};
pub use mlp::{Mlp, MlpParams, train_mlp};

use faer::prelude::*;
use faer::sparse::{SparseColMat, Triplet};

/// Why a factorisation failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseError(pub String);

impl std::fmt::Display for SparseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SparseError {}

/// A square sparse matrix factorised once (LU with partial pivoting: the matrix need not be
/// symmetric), then solved against many right-hand sides, many times.
pub struct Factored {
    n: usize,
    lu: faer::sparse::linalg::solvers::Lu<usize, f64>,
}

impl Factored {
    /// Factorises the `n` x `n` matrix given as (row, column, value) triplets (duplicates are
    /// summed).
    pub fn new(n: usize, triplets: &[(u32, u32, f64)]) -> Result<Self, SparseError> {
        let t: Vec<Triplet<usize, usize, f64>> = triplets
            .iter()
            .map(|&(i, j, v)| Triplet::new(i as usize, j as usize, v))
            .collect();
        let a = SparseColMat::<usize, f64>::try_new_from_triplets(n, n, &t)
            .map_err(|e| SparseError(format!("the matrix is malformed: {e:?}")))?;
        let lu = a
            .sp_lu()
            .map_err(|e| SparseError(format!("the matrix cannot be factorised: {e:?}")))?;
        Ok(Self { n, lu })
    }

    /// The matrix's size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Replaces `rhs` (column-major, `n` rows by `rhs.len() / n` columns) by A^-`times` rhs:
    /// `times` solves in a row, `after_each` called after each.
    pub fn solve_repeated(&self, rhs: &mut [f64], times: usize, after_each: &mut dyn FnMut()) {
        if self.n == 0 || rhs.is_empty() {
            return;
        }
        let k = rhs.len() / self.n;
        let mut m = MatMut::from_column_major_slice_mut(&mut rhs[..k * self.n], self.n, k);
        for _ in 0..times {
            self.lu.solve_in_place(m.rb_mut());
            after_each();
        }
    }
}
