//! The per-draw data a `prepare` writes: each draw slot once per copy, and the frame's non-zero
//! morph weights.

use glam::Mat4;

use super::{DrawSlot, DrawUniform, FrameInput, Posed, Renderer};

impl Renderer {
    /// The frame's non-zero morph weights into `morph_scratch`, and each (copy, instance)'s
    /// range of them into `morph_ranges` (copies major). Only what the GPU draws is kept: the
    /// shader loops over these alone.
    pub(super) fn fill_morph_active(&mut self, frame: &FrameInput<'_>, copies: usize) {
        let Posed {
            morph_weights,
            morph_stride,
            morph_base,
            ..
        } = frame.posed;
        let instances = self.instance_meshes.len();
        self.morph_scratch.clear();
        self.morph_ranges.clear();
        let limit = self.capacity.morph_weights * copies;
        for k in 0..copies {
            for i in 0..instances {
                let first = self.morph_scratch.len() as u32;
                let (Some(&a), Some(&b)) = (morph_base.get(i), morph_base.get(i + 1)) else {
                    self.morph_ranges.push((first, 0));
                    continue;
                };
                let start = k * morph_stride;
                let weights = morph_weights
                    .get(start + a as usize..start + b as usize)
                    .unwrap_or(&[]);
                for (t, &w) in weights.iter().enumerate() {
                    if w != 0.0 && self.morph_scratch.len() < limit {
                        self.morph_scratch.push([t as u32, w.to_bits()]);
                    }
                }
                let count = self.morph_scratch.len() as u32 - first;
                self.morph_ranges.push((first, count));
            }
        }
    }

    /// The per-draw data of a frame into `draw_scratch`: each draw slot once per copy.
    pub(super) fn fill_draw_data(&mut self, frame: &FrameInput<'_>, copies: usize) {
        let Posed {
            palette_stride,
            palette_base,
            world_from_mesh,
            ..
        } = frame.posed;
        let instances = self.instance_meshes.len();
        let tints = frame.posed.tints;
        let ghost_from = copies.saturating_sub(tints.len());
        self.draw_scratch.clear();
        let slots = self
            .draws
            .iter()
            .zip(&self.materials)
            .zip(&self.skin.out_first);
        for (
            (
                &DrawSlot {
                    instance: i,
                    mesh,
                    primitive: p,
                },
                material,
            ),
            &out_first,
        ) in slots
        {
            let factor = material.base_color;
            let (alpha_cutoff, alpha_blend) = (material.alpha_cutoff, material.alpha_blend);
            for k in 0..copies {
                let world = world_from_mesh
                    .get(k * instances + i)
                    .copied()
                    .unwrap_or(Mat4::IDENTITY);
                let base = palette_base.get(i).copied().unwrap_or(0);
                let primitive = &self.primitives[mesh][p];
                let (morph_first, morph_count) = match primitive.morph_targets {
                    0 => (0, 0),
                    _ => self
                        .morph_ranges
                        .get(k * instances + i)
                        .copied()
                        .unwrap_or((0, 0)),
                };
                // An onion-skin ghost: its tint, blended whatever the material.
                let tint = k.checked_sub(ghost_from).and_then(|g| tints.get(g));
                let (base_color, alpha_cutoff, alpha_blend) = match tint {
                    Some(t) => (*t, 0.0, 1),
                    None => (factor.to_array(), alpha_cutoff, alpha_blend),
                };
                self.draw_scratch.push(DrawUniform {
                    world_from_mesh: world.to_cols_array(),
                    base_color,
                    palette_base: (k * palette_stride) as u32 + base,
                    morph_first,
                    morph_count,
                    morph_vertices: primitive.vertex_count,
                    alpha_cutoff,
                    alpha_blend,
                    morph_tangents: u32::from(primitive.morph_tangents && morph_count > 0),
                    out_base: out_first.saturating_add(k as u32 * primitive.vertex_count),
                    face_normals: u32::from(primitive.face_normals),
                    _pad: [0; 3],
                });
            }
        }
    }
}
