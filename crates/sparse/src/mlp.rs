//! A one-hidden-layer perceptron fitted by full-batch Adam (Kingma and Ba 2015), for the ML
//! deformer's nonlinear map: its matrix products are faer's, compiled optimised here
//! in every profile; its two layers' gradients are written out (two products each way).
//!
//! The map is y = W2 (tanh(W1 x + b1) − tanh(b1)): zero at x = 0 exactly, so a corrective it
//! drives vanishes at the bind pose. Inputs are scaled to unit mean square and outputs by
//! their RMS while training; the returned weights have the scales folded in.

use faer::linalg::matmul::matmul;
use faer::{Accum, Mat, Par};

use crate::SparseError;

/// The fit's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MlpParams {
    pub hidden: usize,
    pub epochs: usize,
    pub learning_rate: f64,
    /// L2 decay of the weights, added to the mean loss's gradient.
    pub weight_decay: f64,
    pub seed: u64,
}

/// A fitted perceptron: `w1` is `hidden` rows of `inputs`, `w2` `outputs` rows of `hidden`,
/// row-major, the scales folded in.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    pub inputs: usize,
    pub hidden: usize,
    pub outputs: usize,
    pub w1: Vec<f64>,
    pub b1: Vec<f64>,
    pub w2: Vec<f64>,
}

impl Mlp {
    /// y = W2 (tanh(W1 x + b1) − tanh(b1)) into `out` (`outputs`).
    pub fn eval(&self, x: &[f64], out: &mut [f64]) {
        out.iter_mut().for_each(|o| *o = 0.0);
        for a in 0..self.hidden {
            let row = &self.w1[a * self.inputs..(a + 1) * self.inputs];
            let z: f64 = row.iter().zip(x).map(|(w, x)| w * x).sum::<f64>() + self.b1[a];
            let h = z.tanh() - self.b1[a].tanh();
            for (k, o) in out.iter_mut().enumerate() {
                *o += self.w2[k * self.hidden + a] * h;
            }
        }
    }
}

/// dst = lhs rhs.
fn product(dst: faer::MatMut<'_, f64>, lhs: faer::MatRef<'_, f64>, rhs: faer::MatRef<'_, f64>) {
    matmul(dst, Accum::Replace, lhs, rhs, 1.0, Par::Seq);
}

fn rms_of_columns(m: &Mat<f64>) -> Vec<f64> {
    (0..m.ncols())
        .map(|j| {
            let s: f64 = (0..m.nrows()).map(|i| m[(i, j)] * m[(i, j)]).sum();
            (s / m.nrows().max(1) as f64).sqrt()
        })
        .collect()
}

/// Adam's moments of one parameter block.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    fn new(n: usize) -> Self {
        Self {
            m: vec![0.0; n],
            v: vec![0.0; n],
        }
    }

    fn step(&mut self, p: &mut [f64], g: &[f64], (lr, decay, t): (f64, f64, i32)) {
        let (c1, c2) = (1.0 - 0.9f64.powi(t), 1.0 - 0.999f64.powi(t));
        for (((p, &g), m), v) in p.iter_mut().zip(g).zip(&mut self.m).zip(&mut self.v) {
            let g = g + decay * *p;
            *m = 0.9 * *m + 0.1 * g;
            *v = 0.999 * *v + 0.001 * g * g;
            *p -= lr * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// Fits `y` (`n` rows of `outputs`, row-major) from `x` (`n` rows of `inputs`, row-major).
pub fn train_mlp(
    (n, inputs, outputs): (usize, usize, usize),
    x: &[f64],
    y: &[f64],
    p: &MlpParams,
) -> Result<Mlp, SparseError> {
    if x.len() != n * inputs || y.len() != n * outputs || n == 0 || p.hidden == 0 {
        return Err(SparseError(format!(
            "{n} samples of {inputs} inputs and {outputs} outputs do not fit {} and {} values",
            x.len(),
            y.len()
        )));
    }
    if x.iter().chain(y).any(|v| !v.is_finite()) {
        return Err(SparseError("the samples hold non-finite values".into()));
    }
    let h = p.hidden;
    let raw_x = Mat::from_fn(n, inputs, |i, j| x[i * inputs + j]);
    let raw_y = Mat::from_fn(n, outputs, |i, j| y[i * outputs + j]);
    let in_scale: Vec<f64> = rms_of_columns(&raw_x)
        .iter()
        .map(|&r| 1.0 / r.max(1e-6))
        .collect();
    let out_scale: Vec<f64> = rms_of_columns(&raw_y)
        .iter()
        .map(|&r| r.max(1e-12))
        .collect();
    let xs = Mat::from_fn(n, inputs, |i, j| raw_x[(i, j)] * in_scale[j]);
    let target = Mat::from_fn(n, outputs, |i, j| raw_y[(i, j)] / out_scale[j]);
    // Uniform initial weights within ±1/sqrt(fan-in), from a seeded LCG.
    let mut seed = p.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut uniform = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let mut w1 = Mat::from_fn(h, inputs, |_, _| uniform() / (inputs as f64).sqrt());
    let mut b1 = vec![0.0f64; h];
    let mut w2 = Mat::from_fn(outputs, h, |_, _| uniform() / (h as f64).sqrt());
    let (mut a1, mut ab, mut a2) = (Adam::new(h * inputs), Adam::new(h), Adam::new(outputs * h));
    let mut z = Mat::<f64>::zeros(n, h);
    let mut err = Mat::<f64>::zeros(n, outputs);
    let mut d_hidden = Mat::<f64>::zeros(n, h);
    let mut g1 = Mat::<f64>::zeros(h, inputs);
    let mut g2 = Mat::<f64>::zeros(outputs, h);
    let flat = |m: &Mat<f64>| -> Vec<f64> {
        let mut v = Vec::with_capacity(m.nrows() * m.ncols());
        for i in 0..m.nrows() {
            v.extend((0..m.ncols()).map(|j| m[(i, j)]));
        }
        v
    };
    for epoch in 1..=p.epochs {
        // Forward: Z = Xs W1ᵀ + b1, H = tanh(Z) − tanh(b1), Ŷ = H W2ᵀ.
        product(z.as_mut(), xs.as_ref(), w1.transpose());
        let t0: Vec<f64> = b1.iter().map(|b| b.tanh()).collect();
        let hid = Mat::from_fn(n, h, |i, a| (z[(i, a)] + b1[a]).tanh() - t0[a]);
        product(err.as_mut(), hid.as_ref(), w2.transpose());
        let scale = 2.0 / n as f64;
        for i in 0..n {
            for k in 0..outputs {
                err[(i, k)] = (err[(i, k)] - target[(i, k)]) * scale;
            }
        }
        // Backward: dW2 = Eᵀ H; dH = E W2; dZ = dH ⊙ (1 − tanh²); dW1 = dZᵀ Xs.
        product(g2.as_mut(), err.transpose(), hid.as_ref());
        product(d_hidden.as_mut(), err.as_ref(), w2.as_ref());
        let mut gb = vec![0.0f64; h];
        for a in 0..h {
            let mut through_hidden = 0.0;
            for i in 0..n {
                let t = (z[(i, a)] + b1[a]).tanh();
                through_hidden += d_hidden[(i, a)];
                d_hidden[(i, a)] *= 1.0 - t * t;
                gb[a] += d_hidden[(i, a)];
            }
            gb[a] -= through_hidden * (1.0 - t0[a] * t0[a]);
        }
        product(g1.as_mut(), d_hidden.transpose(), xs.as_ref());
        let step = (p.learning_rate, p.weight_decay, epoch as i32);
        let mut w1v = flat(&w1);
        a1.step(&mut w1v, &flat(&g1), step);
        w1 = Mat::from_fn(h, inputs, |a, j| w1v[a * inputs + j]);
        ab.step(&mut b1, &gb, (p.learning_rate, 0.0, epoch as i32));
        let mut w2v = flat(&w2);
        a2.step(&mut w2v, &flat(&g2), step);
        w2 = Mat::from_fn(outputs, h, |k, a| w2v[k * h + a]);
    }
    Ok(Mlp {
        inputs,
        hidden: h,
        outputs,
        w1: (0..h * inputs)
            .map(|i| w1[(i / inputs, i % inputs)] * in_scale[i % inputs])
            .collect(),
        b1,
        w2: (0..outputs * h)
            .map(|i| w2[(i / h, i % h)] * out_scale[i / h])
            .collect(),
    })
}
