//! Direct delta mush's Ω as the skin pass reads it (`shaders/ddm.wgsl`).

use super::PackedDeformer;
use crate::character::Character;
use crate::deform::{DdmData, DdmPrimitive};
use crate::render::deformers::DeformerKind;

impl PackedDeformer for DdmData {
    fn kind(&self) -> DeformerKind {
        DeformerKind::DeltaMush
    }

    fn words(&self, _: &Character, mesh: usize, primitive: usize) -> Option<Vec<u32>> {
        words(self.primitive(mesh, primitive)?)
    }
}

/// Ω's words: per vertex its centroid and its range (first * 128 + count, at most 127
/// entries), then per entry Ω's ten floats, the joint and a pad. `None` without entries or when
/// the ranges exceed the packing (2^25 entries).
pub(super) fn words(p: &DdmPrimitive) -> Option<Vec<u32>> {
    if p.entries.is_empty() || p.entries.len() >= 1 << 25 {
        return None;
    }
    let mut words: Vec<u32> = Vec::with_capacity(p.ranges.len() * 4 + p.entries.len() * 12);
    for (&[first, count], c) in p.ranges.iter().zip(&p.centroids) {
        words.extend([
            c.x.to_bits(),
            c.y.to_bits(),
            c.z.to_bits(),
            first << 7 | count.min(127),
        ]);
    }
    for e in &p.entries {
        words.extend(e.omega.map(f32::to_bits));
        words.extend([e.joint, 0]);
    }
    Some(words)
}
