//! Posing a whole character for drawing: sample (and blend) clips, compose the hierarchy, and
//! write one palette for every skinned mesh instance into a single array, plus each instance's
//! `world_from_mesh`. CPU only; the renderer uploads what this produces. Buffers are sized once,
//! so posing a frame allocates nothing.

use glam::{Mat4, Vec3};

use crate::anim::{
    self, BlendLayer, ClipCursor, LocalPose, ModelPose, PoseError, SkinPalette, wrap_time,
};
use crate::character::Character;

/// Which palette the skinned meshes are drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PaletteMode {
    /// The sampled (and blended) pose.
    #[default]
    Animated,
    /// The rest pose (node transforms without animation): matches identity when the file's
    /// inverse binds match its vertex data.
    Bind,
    /// Every palette entry the identity: vertices as stored, at their mesh node (rest pose).
    Identity,
}

/// Two clips blended in step (phase-aligned): clip `b` is sampled at the same ratio of its
/// duration as clip `a`, and weighs `weight`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BlendSpec {
    pub b: usize,
    pub weight: f32,
}

/// One draw's palette start in `CharacterPose::palette` (0 is a shared identity entry, used by
/// unskinned meshes).
pub const IDENTITY_ENTRY: u32 = 0;

/// A character's pose and palettes for one frame.
pub struct CharacterPose {
    pub local: LocalPose,
    pub model: ModelPose,
    layer_a: LocalPose,
    layer_b: LocalPose,
    cursors: Vec<ClipCursor>,
    skin_palettes: Vec<Option<SkinPalette>>,
    /// Entry 0 is the identity; then each skinned instance's palette, in instance order.
    pub palette: Vec<Mat4>,
    /// Where each instance's palette starts in `palette` (`IDENTITY_ENTRY` when unskinned).
    pub palette_base: Vec<u32>,
    /// `world_from_mesh` per instance.
    pub world_from_mesh: Vec<Mat4>,
}

impl CharacterPose {
    pub fn new(c: &Character) -> Self {
        let skin_palettes: Vec<Option<SkinPalette>> = c
            .instances
            .iter()
            .map(|i| i.skin.map(|s| SkinPalette::new(&c.skins[s].skin)))
            .collect();
        let mut palette_base = Vec::with_capacity(c.instances.len());
        let mut next = 1u32;
        for p in &skin_palettes {
            match p {
                Some(p) => {
                    palette_base.push(next);
                    next += p.len() as u32;
                }
                None => palette_base.push(IDENTITY_ENTRY),
            }
        }
        Self {
            local: LocalPose::rest(&c.skeleton),
            model: ModelPose::new(&c.skeleton),
            layer_a: LocalPose::rest(&c.skeleton),
            layer_b: LocalPose::rest(&c.skeleton),
            cursors: c
                .clips
                .iter()
                .map(|clip| ClipCursor::new(&clip.clip))
                .collect(),
            skin_palettes,
            palette: vec![Mat4::IDENTITY; next as usize],
            palette_base,
            world_from_mesh: vec![Mat4::IDENTITY; c.instances.len()],
        }
    }

    /// Samples clip `clip` at `time_secs` (clip time), optionally blended with a second clip in
    /// step (at the same ratio of its duration); `None` is the rest pose.
    pub fn sample(
        &mut self,
        c: &Character,
        clip: Option<usize>,
        time_secs: f32,
        blend: Option<BlendSpec>,
    ) -> Result<(), PoseError> {
        let Some(a) = clip.filter(|&a| a < c.clips.len()) else {
            self.local.as_mut_slice().copy_from_slice(c.skeleton.rest());
            return Ok(());
        };
        match blend.filter(|b| b.b < c.clips.len()) {
            None => {
                let clip_a = &c.clips[a].clip;
                anim::sample_clip(
                    &c.skeleton,
                    clip_a,
                    time_secs,
                    &mut self.cursors[a],
                    &mut self.local,
                )
            }
            Some(spec) => {
                let duration_a = c.clips[a].clip.duration_secs();
                let ratio = if duration_a > 0.0 {
                    wrap_time(time_secs, duration_a) / duration_a
                } else {
                    0.0
                };
                let time_b = ratio * c.clips[spec.b].clip.duration_secs();
                self.sample_two(c, (a, time_secs), (spec.b, time_b), spec.weight)
            }
        }
    }

    /// Samples two clips at their own times and blends their local poses, `weight` for the
    /// second (a crossfade, or a phase-aligned blend when the times are in step).
    pub fn sample_two(
        &mut self,
        c: &Character,
        (a, time_a): (usize, f32),
        (b, time_b): (usize, f32),
        weight: f32,
    ) -> Result<(), PoseError> {
        let (Some(clip_a), Some(clip_b)) = (c.clips.get(a), c.clips.get(b)) else {
            self.local.as_mut_slice().copy_from_slice(c.skeleton.rest());
            return Ok(());
        };
        anim::sample_clip(
            &c.skeleton,
            &clip_a.clip,
            time_a,
            &mut self.cursors[a],
            &mut self.layer_a,
        )?;
        anim::sample_clip(
            &c.skeleton,
            &clip_b.clip,
            time_b,
            &mut self.cursors[b],
            &mut self.layer_b,
        )?;
        let w = if weight.is_finite() {
            weight.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let layers = [
            BlendLayer {
                pose: &self.layer_a,
                weight: 1.0 - w,
            },
            BlendLayer {
                pose: &self.layer_b,
                weight: w,
            },
        ];
        // The weights sum to one, so the rest-pose fallback is never taken; layer A has the
        // right length for it.
        anim::blend_poses(&layers, &self.layer_a, &mut self.local)
    }

    /// Composes the hierarchy from `local` and writes every palette and `world_from_mesh`.
    pub fn update(&mut self, c: &Character, mode: PaletteMode) -> Result<(), PoseError> {
        match mode {
            PaletteMode::Animated => {
                anim::local_to_model(&c.skeleton, &self.local, &mut self.model)?
            }
            PaletteMode::Bind | PaletteMode::Identity => {
                self.layer_a
                    .as_mut_slice()
                    .copy_from_slice(c.skeleton.rest());
                anim::local_to_model(&c.skeleton, &self.layer_a, &mut self.model)?;
            }
        }
        for (i, instance) in c.instances.iter().enumerate() {
            self.world_from_mesh[i] = c.world_from_mesh(instance, &self.model);
            let Some(palette) = self.skin_palettes[i].as_mut() else {
                continue;
            };
            let base = self.palette_base[i] as usize;
            let out = &mut self.palette[base..base + palette.len()];
            if mode == PaletteMode::Identity {
                out.fill(Mat4::IDENTITY);
            } else {
                c.instance_palette_into(instance, &self.model, out)?;
            }
        }
        Ok(())
    }

    /// The palette of instance `i`, if skinned.
    pub fn instance_palette(&self, i: usize) -> Option<&[Mat4]> {
        let p = self.skin_palettes.get(i)?.as_ref()?;
        let base = self.palette_base[i] as usize;
        Some(&self.palette[base..base + p.len()])
    }

    /// World positions of every vertex of every instance, skinned on the CPU exactly as the
    /// shader does (the CPU reference), in instance, primitive and vertex order.
    pub fn world_positions(&self, c: &Character) -> Vec<Vec3> {
        (0..c.instances.len())
            .flat_map(|i| self.instance_world_positions(c, i))
            .collect()
    }

    /// World positions of instance `i`'s vertices, primitive after primitive.
    pub fn instance_world_positions(&self, c: &Character, i: usize) -> Vec<Vec3> {
        let Some(instance) = c.instances.get(i) else {
            return Vec::new();
        };
        let world_from_mesh = self.world_from_mesh[i];
        let palette = self.instance_palette(i);
        let mut out = Vec::new();
        for primitive in &c.meshes[instance.mesh].primitives {
            for (v, &p) in primitive.positions.iter().enumerate() {
                let mesh_space = match (palette, &primitive.skinning) {
                    (Some(palette), Some(s)) => {
                        anim::skin_position(palette, s.joints[v].map(u32::from), s.weights[v], p)
                            .unwrap_or(p)
                    }
                    _ => p,
                };
                out.push(world_from_mesh.transform_point3(mesh_space));
            }
        }
        out
    }

    /// Bounds (min, max) of the posed vertices; `None` without vertices.
    pub fn world_bounds(&self, c: &Character) -> Option<(Vec3, Vec3)> {
        let points = self.world_positions(c);
        let first = *points.first()?;
        Some(
            points
                .iter()
                .fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p))),
        )
    }
}
