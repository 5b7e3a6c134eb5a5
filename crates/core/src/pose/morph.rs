//! Morph weights for one frame, evaluated beside the joints from the same clip times: each mesh
//! instance starts from its default weights (the node's `weights`, else the mesh's), the clips'
//! weight tracks for its node replace them, blends and transitions mix them with the poses'
//! weights, and the request's overrides come last.

use glam::Vec3;

use super::request::{PaletteMode, PoseRequest, TransitionKind, clip_time};
use crate::anim::{TargetDeltas, morph_vertex, sample_weights};
use crate::character::{Character, Primitive};

/// One target's weight set by hand (the panel's sliders, `--morph`), for every node that draws
/// glTF mesh `mesh`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MorphOverride {
    /// glTF mesh index (`/meshes/N`).
    pub mesh: usize,
    pub target: usize,
    pub weight: f32,
}

/// Every mesh instance's morph weights, in one array.
#[derive(Clone, Debug)]
pub struct MorphWeights {
    /// Instance `i`'s weights are `weights[base[i]..base[i + 1]]`.
    pub weights: Vec<f32>,
    pub base: Vec<u32>,
    scratch: Vec<f32>,
}

impl MorphWeights {
    pub fn new(c: &Character) -> Self {
        let mut base = Vec::with_capacity(c.instances.len() + 1);
        let mut weights = Vec::new();
        for instance in &c.instances {
            base.push(weights.len() as u32);
            weights.extend_from_slice(&instance.default_weights);
        }
        base.push(weights.len() as u32);
        Self {
            scratch: weights.clone(),
            weights,
            base,
        }
    }

    /// Instance `i`'s weights (empty without morph targets).
    pub fn of(&self, i: usize) -> &[f32] {
        match (self.base.get(i), self.base.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.weights[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Whether any instance has morph targets.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// The request's weights: its main clip (in-step blend mixed in), its transition's outgoing
    /// clip mixed out, then its overrides. Under the bind and identity palettes (the rest pose)
    /// no clip applies: the default weights, then the overrides. Allocates nothing.
    pub fn evaluate(&mut self, c: &Character, request: &PoseRequest) {
        if self.weights.is_empty() {
            return;
        }
        let animated = request.palette == PaletteMode::Animated;
        let main = request.clip.filter(|m| animated && m.clip < c.clips.len());
        let time_a = main.map_or(0.0, |m| clip_time(c, m, request.wrap));
        sample_into(
            c,
            main.map(|m| m.clip),
            time_a,
            &self.base,
            &mut self.weights,
        );
        if let (Some(m), Some(blend)) = (main, request.blend.filter(|b| b.b < c.clips.len())) {
            let time_b = super::request::in_step_time(c, m.clip, time_a, blend.b);
            sample_into(c, Some(blend.b), time_b, &self.base, &mut self.scratch);
            mix(&mut self.weights, &self.scratch, blend.weight);
        }
        let crossfade = request.transition.and_then(|t| match t.kind {
            TransitionKind::Crossfade { weight } if animated && t.from.clip < c.clips.len() => {
                Some((t, weight))
            }
            // Inertialization offsets the joints only: the incoming clip's weights hold.
            _ => None,
        });
        if let Some((t, weight)) = crossfade {
            let time = clip_time(c, t.from, request.wrap);
            sample_into(c, Some(t.from.clip), time, &self.base, &mut self.scratch);
            // The outgoing weights fade out: weights = from * (1 - w) + incoming * w.
            mix(&mut self.scratch, &self.weights, weight);
            self.weights.copy_from_slice(&self.scratch);
        }
        for o in &request.morph_overrides {
            for (i, instance) in c.instances.iter().enumerate() {
                if c.meshes[instance.mesh].index != o.mesh {
                    continue;
                }
                let at = self.base[i] as usize + o.target;
                if o.target < (self.base[i + 1] - self.base[i]) as usize {
                    self.weights[at] = o.weight;
                }
            }
        }
    }
}

/// Default weights, then clip `clip`'s weight tracks at `time_secs`, into `out`.
fn sample_into(c: &Character, clip: Option<usize>, time_secs: f32, base: &[u32], out: &mut [f32]) {
    for (i, instance) in c.instances.iter().enumerate() {
        let (a, b) = (base[i] as usize, base[i + 1] as usize);
        out[a..b].copy_from_slice(&instance.default_weights);
    }
    let Some(clip) = clip.and_then(|k| c.clips.get(k)) else {
        return;
    };
    for track in &clip.morph_tracks {
        for (i, instance) in c.instances.iter().enumerate() {
            let (a, b) = (base[i] as usize, base[i + 1] as usize);
            if instance.node == track.node && b - a == track.targets {
                let values = &track.values;
                sample_weights(
                    &track.times,
                    values,
                    track.interpolation,
                    time_secs,
                    &mut out[a..b],
                );
            }
        }
    }
}

/// `into = into * (1 - w) + other * w`.
fn mix(into: &mut [f32], other: &[f32], w: f32) {
    let w = if w.is_finite() {
        w.clamp(0.0, 1.0)
    } else {
        0.0
    };
    for (a, b) in into.iter_mut().zip(other) {
        *a += (b - *a) * w;
    }
}

/// A primitive's targets as the morph function reads them.
pub fn target_deltas(primitive: &Primitive) -> Vec<TargetDeltas<'_>> {
    primitive
        .morph_targets
        .iter()
        .map(|t| TargetDeltas {
            positions: t.positions.as_deref(),
            normals: t.normals.as_deref(),
        })
        .collect()
}

/// A primitive's vertices morphed by `weights` (positions, then unit normals), in bind space;
/// the base vertices when it has no targets or every weight is zero.
pub fn morphed_vertices(primitive: &Primitive, weights: &[f32]) -> (Vec<Vec3>, Vec<Vec3>) {
    let targets = target_deltas(primitive);
    if targets.is_empty() || weights.iter().all(|w| *w == 0.0) {
        return (primitive.positions.clone(), primitive.normals.clone());
    }
    (0..primitive.positions.len())
        .map(|v| {
            morph_vertex(
                primitive.positions[v],
                primitive.normals[v],
                v,
                &targets,
                weights,
            )
        })
        .unzip()
}
