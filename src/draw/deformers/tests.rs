use std::sync::Arc;

use glam::Vec3;

use super::*;
use crate::anim::OmegaEntry;
use crate::deform::{DdmParams, DdmPrimitive};
use crate::pose::MuscleSkin;
use crate::render::deformers::{DEFORMER_VALUES, MAX_GPU_PARTICLES, ML_WEIGHTS_AT};

/// Ω of two vertices: the first with entry 0, the second with entries 1 and 2.
fn two_vertex_omega() -> DdmPrimitive {
    let entry = |base: f32, joint| OmegaEntry {
        omega: std::array::from_fn(|i| base + i as f32),
        joint,
    };
    DdmPrimitive {
        ranges: vec![[0, 1], [1, 2]],
        centroids: vec![Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.0, 0.5, 0.0)],
        entries: vec![entry(0.0, 4), entry(10.0, 5), entry(20.0, 6)],
        welded: 2,
        dropped: 0,
    }
}

#[test]
fn omega_is_packed_as_centroid_and_range_per_vertex_then_twelve_words_per_entry() {
    let words = ddm::words(&two_vertex_omega()).unwrap();
    assert_eq!(words.len(), 2 * 4 + 3 * 12);
    let f = f32::to_bits;
    assert_eq!(words[..4], [f(1.0), f(2.0), f(3.0), 1]);
    // First entry 1, two of them: 1 * 128 + 2.
    assert_eq!(words[4..8], [f(-1.0), f(0.5), f(0.0), 130]);
    // Entry 1 (the second): Ω 10..19, joint 5, a pad.
    let second = &words[8 + 12..8 + 24];
    assert_eq!(second[0], f(10.0));
    assert_eq!(second[9], f(19.0));
    assert_eq!(second[10..], [5, 0]);
    let empty = DdmPrimitive {
        entries: vec![],
        ..two_vertex_omega()
    };
    assert_eq!(ddm::words(&empty), None);
}

#[test]
fn muscle_weights_are_packed_as_heads_then_pairs_and_unheld_particles_are_dropped() {
    let skin = MuscleSkin {
        ranges: vec![[0, 2], [2, 0], [2, 1]],
        entries: vec![(3, 0.25), (MAX_GPU_PARTICLES as u32, 0.5), (7, 0.75)],
    };
    let words = muscles::words(&skin, 3).unwrap();
    // Vertex 0 keeps one entry (the other names a particle past the uniform's), vertex 1 has
    // none, vertex 2's starts at pair 1.
    assert_eq!(words[..3], [1, 1 << 3, 1 << 3 | 1]);
    assert_eq!(words[3..], [3, 0.25f32.to_bits(), 7, 0.75f32.to_bits()]);
    assert_eq!(muscles::words(&MuscleSkin::default(), 3), None);
}

#[test]
fn the_values_put_particles_first_and_the_ml_weights_at_their_fixed_place() {
    let mut out = Vec::new();
    muscles::values_into(&[Vec3::new(1.0, 2.0, 3.0), Vec3::X], &mut out);
    ml::values_into(&[0.5, 0.25, 0.125, 1.0, 2.0], &mut out);
    assert_eq!(out.len(), ML_WEIGHTS_AT + 2);
    assert_eq!(out[0], [1.0, 2.0, 3.0, 0.0]);
    assert_eq!(out[1], [1.0, 0.0, 0.0, 0.0]);
    assert!(out[2..ML_WEIGHTS_AT].iter().all(|v| *v == [0.0; 4]));
    assert_eq!(
        out[ML_WEIGHTS_AT..],
        [[0.5, 0.25, 0.125, 1.0], [2.0, 0.0, 0.0, 0.0]]
    );
    // More weights than the uniform holds: the rest are dropped.
    out.clear();
    ml::values_into(&[1.0; 100], &mut out);
    assert_eq!(out.len(), DEFORMER_VALUES);
}

#[test]
fn the_set_packs_a_kind_again_only_when_its_asset_is_another() {
    let c = crate::builtin::character().unwrap();
    let omega = |p: DdmPrimitive| {
        let mut meshes: Vec<Vec<Option<DdmPrimitive>>> = (c.meshes.iter())
            .map(|m| vec![None; m.primitives.len()])
            .collect();
        meshes[0][0] = Some(p);
        Arc::new(DdmData {
            params: DdmParams::default(),
            meshes,
        })
    };
    let a = omega(two_vertex_omega());
    let mut set = Deformers::default();
    let first = set.hold(&c, [a.clone() as Arc<dyn PackedDeformer>]).clone();
    let [ddm, muscles, ml] = first.of(0, 0);
    assert_eq!(ddm.map(<[u32]>::len), Some(2 * 4 + 3 * 12));
    assert_eq!((muscles, ml), (None, None));
    assert_eq!(first.ml_components, 0);
    // The same asset: the same words, not packed again.
    let again = set.hold(&c, [a as Arc<dyn PackedDeformer>]).clone();
    assert!(Arc::ptr_eq(&first, &again));
    // Another asset: packed again.
    let mut other = two_vertex_omega();
    other.entries.truncate(1);
    other.ranges = vec![[0, 1], [0, 1]];
    let b = omega(other);
    let second = set.hold(&c, [b as Arc<dyn PackedDeformer>]).clone();
    assert_eq!(second.of(0, 0)[0].map(<[u32]>::len), Some(2 * 4 + 12));
    // None: no words at all.
    assert!(set.hold(&c, []).is_empty());
}
