//! The ML deformer as the skin pass reads it (`shaders/ml.wgsl`): its components, and each
//! frame its weights.

use super::PackedDeformer;
use crate::character::Character;
use crate::pose::MlModel;
use crate::render::deformers::{DeformerKind, MAX_GPU_COMPONENTS, ML_WEIGHTS_AT};

const _: () = assert!(crate::pose::ML_MAX_COMPONENTS <= MAX_GPU_COMPONENTS);

impl PackedDeformer for MlModel {
    fn kind(&self) -> DeformerKind {
        DeformerKind::Ml
    }

    /// Vertex v's component k at words 3 * (v * K + k), three floats; every instance of the
    /// model's mesh follows the corrective.
    fn words(&self, character: &Character, mesh: usize, primitive: usize) -> Option<Vec<u32>> {
        if self.mesh as usize != mesh {
            return None;
        }
        let deltas = &self.primitives.get(primitive)?.as_ref()?.deltas;
        let vertices = character.meshes.get(mesh)?.primitives.get(primitive)?;
        let k = self.components as usize;
        (k > 0 && deltas.len() == vertices.positions.len() * k).then(|| {
            (deltas.iter())
                .flat_map(|d| d.to_array().map(f32::to_bits))
                .collect()
        })
    }

    fn components(&self) -> u32 {
        self.components
    }
}

/// The weights (`MlCorrective::weights`), four a vec4, from `ML_WEIGHTS_AT` (zeros before
/// them where the muscles have none); those past the values' components are dropped.
pub(super) fn values_into(weights: &[f32], out: &mut Vec<[f32; 4]>) {
    let k = weights.len().min(MAX_GPU_COMPONENTS);
    if k == 0 {
        return;
    }
    out.resize(ML_WEIGHTS_AT, [0.0; 4]);
    for w in weights[..k].chunks(4) {
        let mut v = [0.0; 4];
        v[..w.len()].copy_from_slice(w);
        out.push(v);
    }
}
