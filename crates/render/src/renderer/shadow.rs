//! The characters' shadows: two depth maps drawn each frame from the vertices as the skin pass
//! left them (each vertex is skinned once for the shadows and the shaded pass together), then
//! read by the shaded pass and the solid ground (`shadow.wgsl`, `ground.wgsl`).
//!
//! Layer 0 is seen from the key light, an orthographic view fitted to the posed casters' bounds;
//! layer 1 looks up from just under the ground over the same bounds, so each texel holds the
//! casters' lowest point above it: the ground darkens where something rests on it.
//!
//! The casters' bounds come from the palette, without reading the skinned vertices back: at load,
//! each draw slot's vertices influenced by a palette entry are bounded by a bind-space sphere;
//! a linear-blend skinned vertex is a convex combination of its entries' transforms of it, so it
//! lies within the union of those spheres' transforms (dual quaternions and the post-skin
//! deformers stay within a small margin of it).

use glam::{Mat4, Vec3, Vec4};

use super::{DrawSlot, Renderer, SkinPass, View};
use crate::character::Character;
use crate::pipelines::DEPTH_FORMAT;

/// Layer 1 covers heights from this fraction of the contact radius under the ground to the radius
/// over it (`SHADOW_BELOW` in shadow.wgsl).
const SHADOW_BELOW: f32 = 0.25;

/// Side of each shadow map in texels (or the device's largest texture side, if smaller). On
/// lavapipe the maps' size is most of the shadows' cost: a 512x512 frame of CesiumMan took 120 ms
/// with 2048-texel maps, about 60 with 1024 and 47 with 256; three.js's default is 512. Lighting
/// the ground and working out its map coordinates in the vertex shader (exact for orthographic
/// views) rather than per fragment took it from 69 ms to 58.
const MAP_SIDE: u32 = 1024;

/// The contact darkening reaches this fraction of one character's bounds' diagonal.
const CONTACT_FRACTION: f32 = 0.06;

/// Above this many (copy, sphere) transforms a frame, the copies after the first are bounded by
/// the first one's bounds moved with them (a crowd's copies are the same character).
const MAX_SPHERE_TRANSFORMS: usize = 50_000;

/// The shadow maps: one two-layer depth texture (1x1 until shadows are first drawn), each layer's
/// view as a depth attachment, the whole as a binding, and the comparison sampler.
pub(super) struct ShadowMaps {
    pub(super) binding: wgpu::TextureView,
    pub(super) layers: [wgpu::TextureView; 2],
    pub(super) sampler: wgpu::Sampler,
    pub(super) side: u32,
    /// The side they take once shadows are drawn (`side_for` the device).
    pub(super) full_side: u32,
}

impl ShadowMaps {
    /// Maps of `side` texels, to become `full_side` when shadows are drawn.
    pub(super) fn new(device: &wgpu::Device, side: u32, full_side: u32) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("shadow maps"),
            size: wgpu::Extent3d {
                width: side,
                height: side,
                depth_or_array_layers: 2,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: DEPTH_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let layer = |l: u32| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("shadow map layer"),
                dimension: Some(wgpu::TextureViewDimension::D2),
                base_array_layer: l,
                array_layer_count: Some(1),
                ..Default::default()
            })
        };
        Self {
            binding: texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("shadow maps"),
                dimension: Some(wgpu::TextureViewDimension::D2Array),
                ..Default::default()
            }),
            layers: [layer(0), layer(1)],
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("shadow comparison"),
                address_mode_u: wgpu::AddressMode::ClampToEdge,
                address_mode_v: wgpu::AddressMode::ClampToEdge,
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                compare: Some(wgpu::CompareFunction::LessEqual),
                ..Default::default()
            }),
            side,
            full_side,
        }
    }

    /// The side the maps take when drawn on a device with `limits`.
    pub(super) fn side_for(limits: &wgpu::Limits) -> u32 {
        MAP_SIDE.min(limits.max_texture_dimension_2d).max(1)
    }
}

/// A bind-space sphere around the vertices of one draw slot that one palette entry moves.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Sphere {
    /// The entry, from the slot's instance's `palette_base`.
    pub(super) entry: u32,
    pub(super) center: Vec3,
    pub(super) radius: f32,
}

/// Every draw slot's spheres, slot after slot, and each slot's range of them.
#[derive(Default)]
pub(super) struct Casters {
    spheres: Vec<Sphere>,
    ranges: Vec<(usize, usize)>,
}

impl Casters {
    /// The spheres of each draw slot `(instance, mesh, primitive)` of `character`. Each morph
    /// target widens them by its largest displacement (at weight one).
    pub(super) fn new(character: &Character, draws: &[DrawSlot]) -> Self {
        let mut casters = Self::default();
        for &DrawSlot {
            mesh, primitive: p, ..
        } in draws
        {
            let primitive = &character.meshes[mesh].primitives[p];
            let morph: f32 = primitive
                .morph_targets
                .iter()
                .filter_map(|t| t.positions.as_ref())
                .map(|d| d.iter().map(|v| v.length()).fold(0.0, f32::max))
                .sum();
            let mut boxes: Vec<Option<(Vec3, Vec3)>> = Vec::new();
            for (v, &position) in primitive.positions.iter().enumerate() {
                let mut add = |entry: u16| {
                    let entry = usize::from(entry);
                    if boxes.len() <= entry {
                        boxes.resize(entry + 1, None);
                    }
                    let b = boxes[entry].get_or_insert((position, position));
                    *b = (b.0.min(position), b.1.max(position));
                };
                match &primitive.skinning {
                    None => add(0),
                    Some(s) => {
                        let (joints1, weights1) = s.second(v);
                        let first = s.joints[v].iter().zip(&s.weights[v]);
                        for (&j, &w) in first.chain(joints1.iter().zip(&weights1)) {
                            if w > 0.0 {
                                add(j);
                            }
                        }
                    }
                }
            }
            let start = casters.spheres.len();
            casters
                .spheres
                .extend(boxes.iter().enumerate().filter_map(|(entry, b)| {
                    let (lo, hi) = (*b)?;
                    Some(Sphere {
                        entry: entry as u32,
                        center: (lo + hi) * 0.5,
                        radius: (hi - lo).length() * 0.5 + morph,
                    })
                }));
            casters.ranges.push((start, casters.spheres.len()));
        }
        casters
    }

    /// World-space bounds of `copies` posed copies of the draw slots `draws` (copies major, as
    /// `Posed` lays them out), and of the first copy alone; `None` when nothing is drawn.
    pub(super) fn bounds(
        &self,
        draws: &[DrawSlot],
        posed: &super::Posed<'_>,
        copies: usize,
        instances: usize,
    ) -> Option<[(Vec3, Vec3); 2]> {
        let exact = if self.spheres.len() * copies <= MAX_SPHERE_TRANSFORMS {
            copies
        } else {
            1
        };
        let mut bounds: Option<(Vec3, Vec3)> = None;
        let mut first = None;
        for k in 0..copies {
            if k >= exact {
                // The first copy's bounds, moved as this copy's first instance is.
                let (Some((lo, hi)), Some(origin)) = (first, origin_of(posed, 0)) else {
                    break;
                };
                let shift = origin_of(posed, k * instances).unwrap_or(origin) - origin;
                grow(&mut bounds, lo + shift, hi + shift);
                continue;
            }
            for (&DrawSlot { instance, .. }, &(a, b)) in draws.iter().zip(&self.ranges) {
                let world = posed
                    .world_from_mesh
                    .get(k * instances + instance)
                    .copied()
                    .unwrap_or(Mat4::IDENTITY);
                let base = posed.palette_base.get(instance).copied().unwrap_or(0) as usize;
                for s in &self.spheres[a..b] {
                    let index = k * posed.palette_stride + base + s.entry as usize;
                    let m = world * posed.palette.get(index).copied().unwrap_or(Mat4::IDENTITY);
                    let scale = m
                        .x_axis
                        .truncate()
                        .length()
                        .max(m.y_axis.truncate().length());
                    let scale = scale.max(m.z_axis.truncate().length());
                    let c = m.transform_point3(s.center);
                    let r = Vec3::splat(s.radius * scale);
                    grow(&mut bounds, c - r, c + r);
                }
            }
            if k == 0 {
                first = bounds;
            }
        }
        // Dual quaternions and the post-skin deformers may step slightly outside.
        let widen = |(lo, hi): (Vec3, Vec3)| {
            let margin = (hi - lo) * 0.05;
            let (lo, hi) = (lo - margin, hi + margin);
            (lo.is_finite() && hi.is_finite()).then(|| (lo, hi.max(lo + Vec3::splat(1e-4))))
        };
        Some([widen(bounds?)?, widen(first?)?])
    }
}

/// The ground's square `ground` (centre x, height, centre z, half side) grown, about the same
/// centre, until the casters' `bounds` lie inside the part that does not fade (`ground.wgsl`
/// fades the outer 40%): a crowd wider than one character, or one walked away by root motion,
/// still has ground under it.
fn ground_holding(ground: Vec4, (lo, hi): (Vec3, Vec3)) -> Vec4 {
    // The fade is circular: the bounds' farthest corner from the centre, in the ground's plane.
    let dx = (lo.x - ground.x).abs().max((hi.x - ground.x).abs());
    let dz = (lo.z - ground.z).abs().max((hi.z - ground.z).abs());
    let reach = (dx * dx + dz * dz).sqrt();
    Vec4::new(ground.x, ground.y, ground.z, ground.w.max(reach / 0.6))
}

fn origin_of(posed: &super::Posed<'_>, i: usize) -> Option<Vec3> {
    posed.world_from_mesh.get(i).map(|m| m.w_axis.truncate())
}

fn grow(bounds: &mut Option<(Vec3, Vec3)>, lo: Vec3, hi: Vec3) {
    *bounds = Some(match *bounds {
        Some((a, b)) => (a.min(lo), b.max(hi)),
        None => (lo, hi),
    });
}

/// The shadow maps' views for one frame, and what the shaders need to read them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct ShadowFit {
    /// Clip space of layer 0 (seen from the key light) from world space.
    pub(super) key: Mat4,
    /// Clip space of layer 1 (looking up from under the ground) from world space.
    pub(super) below: Mat4,
    /// The receivers' offset along their normal: a texel and a half of layer 0, world units.
    pub(super) normal_offset: f32,
    /// How far the contact darkening reaches, world units.
    pub(super) contact_radius: f32,
}

impl ShadowFit {
    /// The views fitted to the casters' world `bounds`, for a key light travelling along
    /// `light` (unit), maps of `side` texels and a ground at height `ground`.
    pub(super) fn new(
        (lo, hi): (Vec3, Vec3),
        light: Vec3,
        side: u32,
        ground: f32,
        contact_radius: f32,
    ) -> Self {
        let center = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5;
        let reach = half.length().max(1e-4);
        let up = if light.y.abs() > 0.99 {
            Vec3::Z
        } else {
            Vec3::Y
        };
        let view = glam::camera::rh::view::look_to_mat4(center - light * 2.0 * reach, light, up);
        let (mut a, mut b) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for corner in 0..8 {
            let pick = |bit: u32, l: f32, h: f32| if corner & bit == 0 { l } else { h };
            let p = Vec3::new(
                pick(1, lo.x, hi.x),
                pick(2, lo.y, hi.y),
                pick(4, lo.z, hi.z),
            );
            let v = view.transform_point3(p);
            (a, b) = (a.min(v), b.max(v));
        }
        let pad = reach * 0.01;
        let key = glam::camera::rh::proj::directx::orthographic(
            a.x - pad,
            b.x + pad,
            a.y - pad,
            b.y + pad,
            -b.z - pad,
            -a.z + pad,
        ) * view;
        let texel = (b.x - a.x).max(b.y - a.y) / side.max(1) as f32;
        let radius = contact_radius.max(1e-4);
        let near = ground - SHADOW_BELOW * radius;
        let eye = Vec3::new(center.x, near, center.z);
        // Looking up (+Y) with +Z up: view x is world x, view y world z.
        let below = glam::camera::rh::proj::directx::orthographic(
            -(half.x + radius),
            half.x + radius,
            -(half.z + radius),
            half.z + radius,
            0.0,
            (1.0 + SHADOW_BELOW) * radius,
        ) * glam::camera::rh::view::look_to_mat4(eye, Vec3::Y, Vec3::Z);
        Self {
            key,
            below,
            normal_offset: 1.5 * texel,
            contact_radius: radius,
        }
    }

    /// The camera uniform's `shadow` row: on, the normal offset, the contact radius.
    pub(super) fn row(&self) -> Vec4 {
        Vec4::new(1.0, self.normal_offset, self.contact_radius, 0.0)
    }
}

/// The direction the key light travels (world space, unit): what the shadows are cast along.
pub(super) fn key_light() -> Vec3 {
    Vec3::new(-0.4, -1.0, -0.6).normalize()
}

impl Renderer {
    /// The shadow maps' views for `frame` when it draws shadows, fitted to its posed casters,
    /// and the ground's square grown to hold them (`ground_holding`).
    pub(super) fn fit_shadows(
        &self,
        frame: &super::FrameInput<'_>,
        copies: usize,
    ) -> Option<(ShadowFit, Vec4)> {
        let options = frame.options;
        if !options.casts_shadows() {
            return None;
        }
        let instances = self.instance_meshes.len();
        let [all, (lo, hi)] =
            self.shadows
                .casters
                .bounds(&self.draws, &frame.posed, copies, instances)?;
        let light = key_light();
        let radius = (hi - lo).length() * CONTACT_FRACTION;
        let side = self.shadows.maps.full_side;
        let fit = ShadowFit::new(all, light, side, self.ground.y, radius);
        Some((fit, ground_holding(self.ground, all)))
    }

    /// Draws `view`'s shadow maps when its last `prepare` fitted them, from the skin pass's
    /// output when `from_skin_pass` (else skinning in the casters' vertex shader): where they
    /// were skinned, or `None` when nothing casts.
    pub(super) fn cast_shadows(
        &mut self,
        view: View,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        from_skin_pass: bool,
    ) -> Option<SkinPass> {
        // The ground is drawn whether or not anything casts.
        self.pipelines.ensure_shadows(device, &self.layouts);
        if !self.views[view.index()].shadowed {
            return None;
        }
        self.ensure_shadow_maps(device);
        let shadows = self.pipelines.shadows()?;
        let slot = &self.views[view.index()];
        let (group, pipeline, from) = match (from_skin_pass, &slot.skin_pass) {
            (true, Some(targets)) => (
                &targets.frames[slot.frame].render,
                &shadows.casters[1],
                SkinPass::Compute,
            ),
            _ => (
                &slot.frames[slot.frame].palette_group,
                &shadows.casters[0],
                SkinPass::Vertex,
            ),
        };
        self.record_shadows(view, encoder, group, pipeline);
        Some(from)
    }

    /// Records both shadow maps of `view` (its last `prepare` fitted them): every draw slot, with
    /// the caster pipeline of `pipelines` and `palette_group` in group 1 (the skin pass's output
    /// under `vs_skinned`).
    fn record_shadows(
        &self,
        view: View,
        encoder: &mut wgpu::CommandEncoder,
        palette_group: &wgpu::BindGroup,
        pipeline: &wgpu::RenderPipeline,
    ) {
        let slot = &self.views[view.index()];
        let frame = &slot.frames[slot.frame];
        for (layer, group) in self.shadows.maps.layers.iter().zip(&frame.caster_groups) {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("shadow map"),
                color_attachments: &[],
                depth_stencil_attachment: Some(super::depth_cleared(layer)),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, group, &[]);
            pass.set_bind_group(1, palette_group, &[]);
            // The solid copies cast shadows; onion-skin ghosts do not.
            let all = 0..self.draws.len();
            let solid = 0..slot.ghost_from.min(self.capacity.copies as u32);
            self.draw_meshes(&mut pass, frame, slot, (all, solid), super::Triangles::Set);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_view_holds_the_bounds_and_the_view_below_measures_height() {
        let bounds = (Vec3::new(-0.3, 0.0, -0.2), Vec3::new(0.3, 1.8, 0.2));
        let light = Vec3::new(-0.4, -1.0, -0.6).normalize();
        let fit = ShadowFit::new(bounds, light, 2048, 0.0, 0.1);
        // Every corner of the bounds is inside layer 0's clip volume, depth within 0..1.
        for corner in 0..8 {
            let pick = |bit: u32, l: f32, h: f32| if corner & bit == 0 { l } else { h };
            let p = Vec3::new(
                pick(1, bounds.0.x, bounds.1.x),
                pick(2, bounds.0.y, bounds.1.y),
                pick(4, bounds.0.z, bounds.1.z),
            );
            let c = fit.key.project_point3(p);
            assert!(c.x.abs() <= 1.0 && c.y.abs() <= 1.0, "{p} -> {c}");
            assert!((0.0..=1.0).contains(&c.z), "{p} -> {c}");
        }
        // Along the light, nearer the light is smaller depth.
        let top = fit.key.project_point3(Vec3::new(0.0, 1.0, 0.0));
        let further = fit
            .key
            .project_point3(Vec3::new(0.0, 1.0, 0.0) + light * 0.5);
        assert!(further.z > top.z);
        // Layer 1: depth is (height + 0.025) / 0.125 over a ground at 0 with a 0.1 radius, and
        // x, z map to the texture's u, v.
        for (y, depth) in [(-0.025, 0.0), (0.0, 0.2), (0.05, 0.6), (0.1, 1.0)] {
            let c = fit.below.project_point3(Vec3::new(0.1, y, 0.0));
            assert!((c.z - depth).abs() < 1e-5, "height {y}: {}", c.z);
            // Half of 0.4 (0.3 + the radius) is 0.1 from the centre: a quarter.
            assert!((c.x - 0.25).abs() < 1e-5, "{c}");
        }
        let c = fit.below.project_point3(Vec3::new(0.0, 0.0, 0.15));
        assert!(c.x.abs() < 1e-5 && (c.y.abs() - 0.5).abs() < 1e-5, "{c}");
        // The ground grows to hold casters beyond it, and keeps its size around those inside.
        let square = Vec4::new(0.0, 0.0, 0.0, 1.0);
        assert_eq!(ground_holding(square, bounds), square);
        let far = (Vec3::new(2.0, 0.0, -0.5), Vec3::new(2.4, 1.8, 0.5));
        let grown = ground_holding(square, far);
        assert!(
            (grown.w - (2.4f32 * 2.4 + 0.5 * 0.5).sqrt() / 0.6).abs() < 1e-5,
            "{grown}"
        );
        assert_eq!(grown.truncate(), Vec3::ZERO);
        // A texel and a half of layer 0.
        assert!(
            fit.normal_offset > 1.5 * 1.8 / 2048.0 * 0.5 && fit.normal_offset < 1.5 * 2.5 / 2048.0
        );
    }
}
