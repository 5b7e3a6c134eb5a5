//! The muscles as the skin pass reads them (`shaders/muscle.wgsl`): the skin's weights toward
//! the particles, and each frame the particles' displacements.

use super::PackedDeformer;
use crate::character::Character;
use crate::pose::{MuscleRig, MuscleSkin};
use crate::render::deformers::{DeformerKind, MAX_GPU_PARTICLES};

// Every particle a muscles file may hold fits the per-frame values.
const _: () =
    assert!(crate::pose::MAX_MUSCLES * crate::anim::PARTICLES_PER_MUSCLE <= MAX_GPU_PARTICLES);

impl PackedDeformer for MuscleRig {
    fn kind(&self) -> DeformerKind {
        DeformerKind::Muscles
    }

    fn words(&self, character: &Character, mesh: usize, primitive: usize) -> Option<Vec<u32>> {
        let skin = self.skin.get(mesh)?.get(primitive)?.as_ref()?;
        let vertices = character.meshes.get(mesh)?.primitives.get(primitive)?;
        words(skin, vertices.positions.len())
    }
}

/// The skin's weights: per vertex first * 8 + count (at most 7 entries), then per entry
/// (particle, weight bits); particles past the per-frame values' are dropped. `None` without
/// entries or past 2^28 of them.
pub(super) fn words(skin: &MuscleSkin, vertex_count: usize) -> Option<Vec<u32>> {
    let mut heads = Vec::with_capacity(vertex_count);
    let mut entries = Vec::new();
    for v in 0..vertex_count {
        let first = (entries.len() / 2) as u32;
        for &(k, w) in skin
            .of(v)
            .iter()
            .filter(|e| (e.0 as usize) < MAX_GPU_PARTICLES)
        {
            entries.extend([k, w.to_bits()]);
        }
        let count = (entries.len() / 2) as u32 - first;
        heads.push(first << 3 | count.min(7));
    }
    (!entries.is_empty() && entries.len() / 2 < 1 << 28).then(|| [heads, entries].concat())
}

/// The particles' displacements (`MuscleFrame::displacement`, world space) as (xyz, 0), from
/// the values' start; those past the values' particles are dropped.
pub(super) fn values_into(displacement: &[glam::Vec3], out: &mut Vec<[f32; 4]>) {
    let n = displacement.len().min(MAX_GPU_PARTICLES);
    out.extend(displacement[..n].iter().map(|d| [d.x, d.y, d.z, 0.0]));
}
