//! How many morph targets a clip drives at once, per mesh node: engines blend a fixed number
//! (three.js's classic path and many mobile engines eight, four when the targets move normals
//! too), and a clip past that drops targets there, as three-gltf-viewer's users found.
//!
//! A target counts while its weight is not zero. Between two keys a linear (or cubic) track's
//! weight is non-zero where either key's is, so the peak is taken over each pair of
//! neighbouring keys (a step track's over each key).

use serde::Serialize;

use crate::anim::Interpolation;
use crate::character::{Character, MorphTrack};

/// Weights smaller than this are zero.
const ZERO: f32 = 1e-6;

/// The targets engines blend at once, and with normals.
pub const LIMIT: usize = 8;
pub const LIMIT_WITH_NORMALS: usize = 4;

/// One clip's peak on one mesh node.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MorphPeak {
    pub clip: String,
    /// The mesh node, by name.
    pub node: String,
    pub targets: usize,
    /// The most targets with a non-zero weight at once.
    pub peak: usize,
    /// When (the key where the peak begins).
    pub at_secs: f32,
    /// Whether the mesh's targets move normals (the lower limit applies).
    pub normals: bool,
    /// The limit that applies: `LIMIT`, or `LIMIT_WITH_NORMALS`.
    pub limit: usize,
}

impl MorphPeak {
    pub fn over_limit(&self) -> bool {
        self.peak > self.limit
    }
}

/// The targets non-zero at key `k` of `track`.
fn nonzero(track: &MorphTrack, k: usize) -> Vec<bool> {
    let n = track.targets;
    let at = match track.interpolation {
        Interpolation::CubicSpline => (3 * k + 1) * n,
        _ => k * n,
    };
    (0..n)
        .map(|t| track.values.get(at + t).is_some_and(|w| w.abs() > ZERO))
        .collect()
}

/// Each clip's peak on each mesh node it animates the weights of.
pub fn morph_peaks(c: &Character) -> Vec<MorphPeak> {
    let mut out = Vec::new();
    for clip in &c.clips {
        for track in &clip.morph_tracks {
            let Some(instance) = c.instances.iter().find(|i| i.node == track.node) else {
                continue;
            };
            let mesh = &c.meshes[instance.mesh];
            let normals = (mesh.primitives.iter())
                .any(|p| p.morph_targets.iter().any(|t| t.normals.is_some()));
            let keys = track.times.len();
            let (mut peak, mut at_secs) = (0, 0.0);
            for k in 0..keys {
                let mut on = nonzero(track, k);
                if track.interpolation != Interpolation::Step && k + 1 < keys {
                    for (o, next) in on.iter_mut().zip(nonzero(track, k + 1)) {
                        *o |= next;
                    }
                }
                let count = on.iter().filter(|o| **o).count();
                if count > peak {
                    (peak, at_secs) = (count, track.times[k]);
                }
            }
            out.push(MorphPeak {
                clip: clip.clip.name().to_owned(),
                node: c.skeleton.names()[instance.skeleton_joint].clone(),
                targets: track.targets,
                peak,
                at_secs,
                normals,
                limit: if normals { LIMIT_WITH_NORMALS } else { LIMIT },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn track(interpolation: Interpolation, values: Vec<f32>) -> MorphTrack {
        let targets = 3;
        let keys = values.len()
            / targets
            / if interpolation == Interpolation::CubicSpline {
                3
            } else {
                1
            };
        MorphTrack {
            node: 0,
            targets,
            times: (0..keys).map(|k| k as f32).collect(),
            values,
            interpolation,
        }
    }

    #[test]
    fn a_key_s_weights_are_read_where_its_interpolation_keeps_them() {
        // Three targets over three keys: (1, 0, 0), (0, 1, 0), (0, 0, 1).
        let values = vec![1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];
        let linear = track(Interpolation::Linear, values);
        assert_eq!(nonzero(&linear, 1), [false, true, false]);
        // A cubic key's value is the middle of its three.
        let cubic = track(
            Interpolation::CubicSpline,
            vec![9.0, 9.0, 9.0, 1.0, 0.0, 0.0, 9.0, 9.0, 9.0],
        );
        assert_eq!(nonzero(&cubic, 0), [true, false, false]);
    }
}
