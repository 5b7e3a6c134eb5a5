//! Onion skins (Cascadeur's, Maya's ghosts): the character at earlier and later clip times
//! drawn translucent around the frame (the frame itself whole over them), warm before and cool
//! after, fainter the further away.
//! Each ghost is a posed copy of the character, laid after the frame's own copy in one set of
//! arrays the renderer draws instanced (`Posed::tints` marks the ghosts).

use crate::pose::CharacterPose;
use crate::render::renderer::Posed;

/// How far apart onion skins are, in clip time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OnionSpacing {
    /// Every this many frames of 1/30 s.
    Frames(u32),
    /// Every this many seconds.
    Seconds(f32),
    /// At the clip's keys nearest the playhead.
    Keys,
}

/// The most ghosts either side.
pub const MAX_ONION_SIDE: u32 = 10;

/// The ghosts' clip times: `before` of them before `now` and `after` after (the nearest first
/// on each side), `spacing` apart; at keys, the `before` keys before `now` and the `after`
/// after it among `keys` (sorted). Each with its signed rank (-1 the nearest before).
pub fn onion_times(
    now: f32,
    (before, after): (u32, u32),
    spacing: OnionSpacing,
    keys: &[f32],
) -> Vec<(i32, f32)> {
    let (before, after) = (before.min(MAX_ONION_SIDE), after.min(MAX_ONION_SIDE));
    let step = match spacing {
        OnionSpacing::Frames(n) => n.max(1) as f32 / 30.0,
        OnionSpacing::Seconds(s) => s.max(1e-3),
        OnionSpacing::Keys => {
            // A hair either side of now: the key at the playhead is the frame itself.
            let eps = 1e-4;
            let earlier = keys.iter().rev().filter(|&&k| k < now - eps);
            let later = keys.iter().filter(|&&k| k > now + eps);
            let mut out: Vec<(i32, f32)> = (earlier.take(before as usize).enumerate())
                .map(|(k, &t)| (-(k as i32) - 1, t))
                .collect();
            out.extend((later.take(after as usize).enumerate()).map(|(k, &t)| (k as i32 + 1, t)));
            return out;
        }
    };
    (1..=before as i32)
        .map(|k| (-k, now - k as f32 * step))
        .chain((1..=after as i32).map(|k| (k, now + k as f32 * step)))
        .collect()
}

/// A ghost's tint (linear RGB, alpha): warm before, cool after; the nearest most opaque.
pub fn ghost_tint(rank: i32, side: u32) -> [f32; 4] {
    let far = (rank.unsigned_abs() as f32 - 1.0) / side.max(1) as f32;
    let alpha = 0.5 - 0.35 * far.clamp(0.0, 1.0);
    if rank < 0 {
        [1.0, 0.35, 0.15, alpha]
    } else {
        [0.15, 0.55, 1.0, alpha]
    }
}

/// The frame's pose and its ghosts' as one set of copies: the frame's first, then each ghost.
#[derive(Default)]
pub struct OnionFrames {
    palette: Vec<glam::Mat4>,
    world_from_mesh: Vec<glam::Mat4>,
    morph_weights: Vec<f32>,
    tints: Vec<[f32; 4]>,
}

impl OnionFrames {
    /// Lays `main` then `ghosts` (each posed, with its tint) into the copies' arrays, reusing
    /// them.
    pub fn lay<'p>(
        &mut self,
        main: &CharacterPose,
        ghosts: impl IntoIterator<Item = (&'p CharacterPose, [f32; 4])>,
    ) {
        self.palette.clone_from(&main.palette);
        self.world_from_mesh.clone_from(&main.world_from_mesh);
        self.morph_weights.clone_from(&main.morph.weights);
        self.tints.clear();
        for (pose, tint) in ghosts {
            self.palette.extend_from_slice(&pose.palette);
            self.world_from_mesh
                .extend_from_slice(&pose.world_from_mesh);
            self.morph_weights.extend_from_slice(&pose.morph.weights);
            self.tints.push(tint);
        }
    }

    /// Copies laid: the frame and its ghosts.
    pub fn copies(&self) -> usize {
        1 + self.tints.len()
    }

    /// The copies as the renderer reads them (`main` the frame's pose, laid first).
    pub fn posed<'a>(&'a self, main: &'a CharacterPose) -> Posed<'a> {
        Posed {
            palette: &self.palette,
            palette_stride: main.palette.len(),
            palette_base: &main.palette_base,
            world_from_mesh: &self.world_from_mesh,
            morph_weights: &self.morph_weights,
            morph_stride: main.morph.weights.len(),
            morph_base: &main.morph.base,
            palette_method: &main.palette_method,
            deformer_values: &[],
            tints: &self.tints,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ghosts_sit_a_step_apart_either_side_and_at_the_nearest_keys() {
        let t = onion_times(1.0, (2, 1), OnionSpacing::Frames(3), &[]);
        let expected = [(-1, 0.9), (-2, 0.8), (1, 1.1)];
        assert_eq!(t.len(), 3);
        for ((r, x), (er, ex)) in t.iter().zip(expected) {
            assert_eq!(*r, er);
            assert!((x - ex).abs() < 1e-6, "{t:?}");
        }
        let keys = [0.0, 0.5, 1.0, 1.25, 2.0];
        let t = onion_times(1.0, (2, 2), OnionSpacing::Keys, &keys);
        assert_eq!(t, vec![(-1, 0.5), (-2, 0.0), (1, 1.25), (2, 2.0)]);
        let t = onion_times(0.0, (3, 0), OnionSpacing::Seconds(0.25), &[]);
        assert_eq!(t, vec![(-1, -0.25), (-2, -0.5), (-3, -0.75)]);
        // The nearest ghost is the most opaque; before is warm, after cool.
        assert!(ghost_tint(-1, 3)[3] > ghost_tint(-3, 3)[3]);
        assert!(ghost_tint(-1, 3)[0] > ghost_tint(1, 3)[0]);
        assert!(ghost_tint(1, 3)[2] > ghost_tint(-1, 3)[2]);
    }
}
