//! Morph targets on the CPU: morph-weight tracks sampled at a time, and vertices morphed by
//! weights (the reference the GPU's `morph_vertex` in `shaders/morph.wgsl` is tested against).
//!
//! glTF: position = base + sum of w_i * dP_i; a normal is base + sum of w_i * dN_i, then
//! renormalised. Morphing happens in bind space, before skinning. Weights are neither clamped
//! nor normalised (negative and above 1 are legal).

use glam::Vec3;

use super::Interpolation;

/// Samples a morph-weight track at `time_secs` into `out` (one weight per target).
///
/// `values` holds `out.len()` weights per key, three times that for cubic splines (in-tangents,
/// values, out-tangents, each `out.len()` long). Outside the keyed range the track clamps to its
/// first or last key; STEP holds key `i` over `[t_i, t_i+1)`; CUBICSPLINE is glTF's Hermite
/// curve with tangents scaled by the key interval. A one-key track holds that key.
pub fn sample_weights(
    times: &[f32],
    values: &[f32],
    interpolation: Interpolation,
    time_secs: f32,
    out: &mut [f32],
) {
    let targets = out.len();
    let per_key = targets * interpolation.values_per_key();
    if times.is_empty() || values.len() < times.len() * per_key {
        return;
    }
    // The value block of key `k` (skipping the in-tangents of a cubic spline).
    let value = |k: usize| {
        let start = k * per_key + if per_key > targets { targets } else { 0 };
        &values[start..start + targets]
    };
    let last = times.len() - 1;
    // Before the first key, at it, or a time that is not a number: the first key.
    if time_secs.is_nan() || time_secs <= times[0] || last == 0 {
        out.copy_from_slice(value(0));
        return;
    }
    if time_secs >= times[last] {
        out.copy_from_slice(value(last));
        return;
    }
    // The interval [times[k], times[k + 1]) holding `time_secs`.
    let k = times.partition_point(|&t| t <= time_secs) - 1;
    let dt = times[k + 1] - times[k];
    let u = if dt > 0.0 {
        (time_secs - times[k]) / dt
    } else {
        0.0
    };
    match interpolation {
        Interpolation::Step => out.copy_from_slice(value(k)),
        Interpolation::Linear => {
            for (o, (a, b)) in out.iter_mut().zip(value(k).iter().zip(value(k + 1))) {
                *o = a + (b - a) * u;
            }
        }
        Interpolation::CubicSpline => {
            let out_tangent = &values[k * per_key + 2 * targets..(k + 1) * per_key];
            let in_tangent = &values[(k + 1) * per_key..(k + 1) * per_key + targets];
            let (u2, u3) = (u * u, u * u * u);
            let h = [
                2.0 * u3 - 3.0 * u2 + 1.0,
                (u3 - 2.0 * u2 + u) * dt,
                -2.0 * u3 + 3.0 * u2,
                (u3 - u2) * dt,
            ];
            for (i, o) in out.iter_mut().enumerate() {
                *o = h[0] * value(k)[i]
                    + h[1] * out_tangent[i]
                    + h[2] * value(k + 1)[i]
                    + h[3] * in_tangent[i];
            }
        }
    }
}

/// One morph target's displacements (either may be absent).
#[derive(Clone, Copy, Debug)]
pub struct TargetDeltas<'a> {
    pub positions: Option<&'a [Vec3]>,
    pub normals: Option<&'a [Vec3]>,
}

/// Vertex `v` morphed by `weights` (one per target; zero weights are skipped): its position, and
/// its normal renormalised (a normal that cancels out stays as it was).
pub fn morph_vertex(
    position: Vec3,
    normal: Vec3,
    v: usize,
    targets: &[TargetDeltas<'_>],
    weights: &[f32],
) -> (Vec3, Vec3) {
    let (mut p, mut n) = (position, normal);
    for (target, &w) in targets.iter().zip(weights) {
        if w == 0.0 {
            continue;
        }
        if let Some(d) = target.positions.and_then(|d| d.get(v)) {
            p += w * *d;
        }
        if let Some(d) = target.normals.and_then(|d| d.get(v)) {
            n += w * *d;
        }
    }
    (p, n.try_normalize().unwrap_or(normal))
}
