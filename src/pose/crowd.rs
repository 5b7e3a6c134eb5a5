//! A crowd: many copies of one character on a grid, each at its own phase of a two-clip blend
//! (idle/walk style) and its own weight. Every member's palettes go into one array (one storage
//! buffer on the GPU, indexed by instance), posed in parallel over the cores.

use glam::{Mat4, Vec3};
use rayon::prelude::*;

use super::{CharacterPose, PoseRequest};
use crate::anim::wrap_time;
use crate::character::Character;

#[derive(Clone, Copy, Debug, PartialEq)]
struct Member {
    /// Offset of this member's phase, as a ratio of the cycle.
    phase: f32,
    /// Weight of clip B.
    weight: f32,
    offset: Vec3,
}

pub struct Crowd {
    members: Vec<Member>,
    clips: (usize, usize),
    /// Entries per member: a `CharacterPose` palette (identity entry, then each skinned
    /// instance's).
    palette_len: usize,
    /// `palette_len` entries per member, members in order.
    pub palette: Vec<Mat4>,
    /// `world_from_mesh` per member per instance (members major).
    pub world_from_mesh: Vec<Mat4>,
    /// Where each instance's palette starts within a member's entries.
    pub palette_base: Vec<u32>,
    /// Weight-blended skinning's method weight per entry of a member's palette (the
    /// template's `palette_method`).
    pub palette_method: Vec<f32>,
    /// Each member's morph weights, `morph_stride` per member (at least one slot each).
    pub morph_weights: Vec<f32>,
    pub morph_stride: usize,
    /// Instance `i`'s weights within a member's: `morph_base[i]..morph_base[i + 1]`.
    pub morph_base: Vec<u32>,
    instances: usize,
    /// Sample the clips' compressed keys where they have them (`PoseRequest::compressed`).
    pub compressed: bool,
    /// One pose scratch per block of members, made once: a frame allocates nothing.
    scratch: Vec<CharacterPose>,
}

/// Members posed by one task (one scratch pose). 64 rather than 16: a quarter of the scratch
/// poses stay in cache (10,000 Fox: 2.3 ms a frame on 2 threads instead of 2.5-2.9).
const BLOCK: usize = 64;

impl Crowd {
    /// `count` members on a square grid `spacing` apart, blending clips `a` and `b` (indices into
    /// the character's clips) with weights and phases spread over the crowd.
    pub fn new(c: &Character, count: usize, clips: (usize, usize), spacing: f32) -> Self {
        let template = CharacterPose::new(c);
        let side = (count as f32).sqrt().ceil().max(1.0) as usize;
        let members = (0..count)
            .map(|k| {
                let (row, col) = (k / side, k % side);
                let centre = (side as f32 - 1.0) * 0.5;
                Member {
                    // Deterministic, well spread: golden-ratio sequences.
                    phase: (k as f32 * 0.618_034).fract(),
                    weight: (k as f32 * 0.414_213_57).fract(),
                    offset: Vec3::new(
                        (col as f32 - centre) * spacing,
                        0.0,
                        (row as f32 - centre) * spacing,
                    ),
                }
            })
            .collect();
        Self {
            members,
            clips,
            palette_len: template.palette.len(),
            palette: vec![Mat4::IDENTITY; template.palette.len() * count],
            world_from_mesh: vec![Mat4::IDENTITY; c.instances.len() * count],
            palette_base: template.palette_base.clone(),
            palette_method: template.palette_method.clone(),
            morph_weights: vec![0.0; template.morph.weights.len().max(1) * count],
            morph_stride: template.morph.weights.len().max(1),
            morph_base: template.morph.base.clone(),
            instances: c.instances.len(),
            compressed: false,
            scratch: (0..count.div_ceil(BLOCK))
                .map(|_| CharacterPose::new(c))
                .collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.members.len()
    }

    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Palette entries per member.
    pub fn palette_len(&self) -> usize {
        self.palette_len
    }

    /// Poses every member at shared clock `time_secs`, in parallel over rayon's threads (set
    /// their number with a `rayon::ThreadPool` around the call, or RAYON_NUM_THREADS).
    pub fn update(&mut self, c: &Character, time_secs: f32) {
        let (a, b) = self.clips;
        let (Some(clip_a), Some(clip_b)) = (c.clips.get(a), c.clips.get(b)) else {
            return;
        };
        let da = clip_a.duration_secs();
        let db = clip_b.duration_secs();
        let members = &self.members;
        let instances = self.instances;
        let palette_len = self.palette_len;
        let stride = self.morph_stride;
        let compressed = self.compressed;
        self.palette
            .par_chunks_mut(palette_len * BLOCK)
            .zip(
                self.world_from_mesh
                    .par_chunks_mut(instances.max(1) * BLOCK),
            )
            .zip(self.morph_weights.par_chunks_mut(stride * BLOCK))
            .zip(self.scratch.par_iter_mut())
            .enumerate()
            .for_each(|(block, (((palettes, worlds), morphs), pose))| {
                for (i, ((palette, world), morph)) in palettes
                    .chunks_mut(palette_len)
                    .zip(worlds.chunks_mut(instances.max(1)))
                    .zip(morphs.chunks_mut(stride))
                    .enumerate()
                {
                    let m = members[block * BLOCK + i];
                    // Both clips at the same ratio of their cycle, whose length follows the weight.
                    let cycle = da + (db - da) * m.weight;
                    let ratio = if cycle > 0.0 {
                        wrap_time(time_secs / cycle + m.phase, 1.0)
                    } else {
                        0.0
                    };
                    let request = PoseRequest::clip(a, ratio * da)
                        .with_blend(b, m.weight)
                        .with_compressed(compressed);
                    // Written straight into the crowd's arrays; a member that fails to pose (it
                    // cannot: the buffers were sized from this character) keeps its last frame.
                    if pose
                        .evaluate_into(c, &request, palette, &mut world[..instances])
                        .is_ok()
                    {
                        // Mat4::from_translation(offset) * w without the full product: each
                        // column gains `offset` times its w.
                        for w in world.iter_mut() {
                            for col in [&mut w.x_axis, &mut w.y_axis, &mut w.z_axis, &mut w.w_axis]
                            {
                                *col += (m.offset * col.w).extend(0.0);
                            }
                        }
                        if !pose.morph.is_empty() {
                            let weights = &pose.morph.weights;
                            morph[..weights.len()].copy_from_slice(weights);
                        }
                    }
                }
            });
    }

    /// Bounds of the grid of characters, given one character's bounds.
    pub fn bounds(&self, one: (Vec3, Vec3)) -> (Vec3, Vec3) {
        self.members
            .iter()
            .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), m| {
                (lo.min(one.0 + m.offset), hi.max(one.1 + m.offset))
            })
    }
}
