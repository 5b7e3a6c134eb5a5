//! Stages 7 and 8 of `CharacterPose::evaluate`: the hierarchy composed from the local pose (or
//! the rest pose, for the bind and identity palettes), every skinned instance's palette and
//! every instance's `world_from_mesh`.

use glam::Mat4;

use super::{CharacterPose, Outside, Scratch};
use crate::anim::{self, PoseError};
use crate::character::{Character, mesh_from_world};
use crate::pose::request::PaletteMode;

/// Where stage 8 writes: the pose's own palette and `world_from_mesh`, or the caller's (a crowd
/// member's part of the crowd's arrays).
pub(super) enum Target<'a> {
    Own,
    Into(&'a mut [Mat4], &'a mut [Mat4]),
}

/// The palette plan of `c`'s skinned instances, each at its `palette_base`.
pub(super) fn palette_plan(c: &Character, palette_base: &[u32]) -> Option<anim::PalettePlan> {
    let skins = (c.instances.iter().zip(palette_base)).filter_map(|(i, &base)| {
        let skin = i.skin.and_then(|s| c.skins.get(s))?;
        Some((&skin.skin, base as usize))
    });
    anim::PalettePlan::new(skins)
}

impl CharacterPose {
    /// Stages 7 and 8 into this pose's own palette and `world_from_mesh`.
    pub(super) fn compose(&mut self, c: &Character, mode: PaletteMode) -> Result<(), PoseError> {
        self.compose_into(c, mode, Target::Own)
    }

    /// Stages 7 and 8 into `target`. Where the palette plan allows (every inverse bind affine,
    /// palettes not the identity), in one pass (`anim::local_to_model_and_palette`): each
    /// palette entry written as its joint is composed, then an instance whose mesh node is not
    /// at the origin brought into the node's space, as `build_palette` brings it. Otherwise the
    /// hierarchy, then each instance's palette.
    pub(super) fn compose_into(
        &mut self,
        c: &Character,
        mode: PaletteMode,
        target: Target<'_>,
    ) -> Result<(), PoseError> {
        if mode != PaletteMode::Animated {
            // The bind and identity palettes compose the rest pose.
            self.scratch_a
                .as_mut_slice()
                .copy_from_slice(c.skeleton.rest());
            self.scratch_state[Scratch::A as usize] = Outside::Rest;
        }
        let local = match mode {
            PaletteMode::Animated => &self.local,
            PaletteMode::Bind | PaletteMode::Identity => &self.scratch_a,
        };
        let (palette, world_from_mesh) = match target {
            Target::Own => (&mut self.palette[..], &mut self.world_from_mesh[..]),
            Target::Into(p, w) => (p, w),
        };
        let instances = c
            .instances
            .iter()
            .zip(world_from_mesh)
            .zip(&self.palette_base);
        if let Some(plan) = self
            .palette_plan
            .as_ref()
            .filter(|_| mode != PaletteMode::Identity)
        {
            anim::local_to_model_and_palette(&c.skeleton, local, &mut self.model, plan, palette)?;
            for ((instance, world), &base) in instances {
                *world = c.world_from_mesh(instance, &self.model);
                let Some(skin) = instance.skin.and_then(|s| c.skins.get(s)) else {
                    continue;
                };
                if *world != Mat4::IDENTITY {
                    let base = base as usize;
                    let entries = &mut palette[base..base + skin.skin.len()];
                    anim::bring_into_mesh_space(mesh_from_world(*world), entries);
                }
            }
            return Ok(());
        }
        anim::local_to_model(&c.skeleton, local, &mut self.model)?;
        let model = &self.model;
        for ((instance, world), &base) in instances {
            *world = c.world_from_mesh(instance, model);
            let Some(skin) = instance.skin.and_then(|s| c.skins.get(s)) else {
                continue;
            };
            let base = base as usize;
            let out = &mut palette[base..base + skin.skin.len()];
            if mode == PaletteMode::Identity {
                out.fill(Mat4::IDENTITY);
            } else {
                c.instance_palette_into(instance, model, out)?;
            }
        }
        Ok(())
    }
}
