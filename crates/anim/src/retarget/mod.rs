//! Retargeting a clip from one skeleton onto another: joints matched by name (through the naming
//! conventions of Mixamo, CMU/MotionBuilder, Blender, Unreal and the built-in mannequin, or a
//! map), rotations carried as world-space deltas from each skeleton's rest pose after aligning
//! the bones' rest directions (so a T-pose source drives an A-pose character with its bones
//! pointing where the source's point), the hips' travel scaled by the ratio of hip heights.
//! Unmatched joints keep their rest pose. A per-chain offset turns the retarget pose, and arms
//! and legs can retarget as IK chains (`limbs`).

mod limbs;
mod map;
mod names;
mod settings;
mod shape;

use glam::{Quat, Vec3};

use super::{
    Channel, Clip, ClipCursor, ClipError, Interpolation, JointTrack, LocalPose, ModelPose,
    PoseError, Skeleton, Track, TrackError, check_len, local_to_model, sample_clip, solve_two_bone,
};
use limbs::{GroundFrame, Limb};
pub use map::{JointMap, MatchKind, body_parts};
pub use names::{canonical_name, canonical_names};
pub use settings::{BodyChain, RetargetSettings, RootTravel, body_chains};
pub use shape::shape_roles;

/// Why a clip was not retargeted.
#[derive(Debug, thiserror::Error)]
pub enum RetargetError {
    #[error(transparent)]
    Pose(#[from] PoseError),
    #[error(transparent)]
    Track(#[from] TrackError),
    #[error(transparent)]
    Clip(#[from] ClipError),
}

/// For each target joint, the source joint it takes its motion from: auto-mapping's
/// (`JointMap::auto`), or through `map` (source name, target name) the named ones only.
pub fn match_joints(
    source: &Skeleton,
    target: &Skeleton,
    map: Option<&[(String, String)]>,
) -> Vec<Option<usize>> {
    match map {
        Some(pairs) => JointMap::from_pairs(source, target, pairs).indices(),
        None => JointMap::auto(source, target).indices(),
    }
}

/// What a retarget matched: each target joint that takes motion with its source joint, the
/// target joints below a matched one that take none (they keep their own animation or rest,
/// while the joints around them move: what a user must know), and the source joints nothing
/// takes motion from. Target joints above every matched one (a scene's root node, an armature)
/// are neither: a take never drives them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JointMatch {
    /// (target joint, source joint), in the target's joint order.
    pub matched: Vec<(String, String)>,
    /// How each pair of `matched` was found (`MatchKind::label`), where it is known.
    pub how: Vec<&'static str>,
    pub unmatched: Vec<String>,
    pub unused: Vec<String>,
}

impl JointMatch {
    /// `match_joints`' result, by name.
    pub fn of(source: &Skeleton, target: &Skeleton, source_of: &[Option<usize>]) -> Self {
        let mut out = Self::default();
        // Parents come first: one pass marks every joint below a matched one.
        let mut below_matched = vec![false; target.joint_count()];
        for t in 0..target.joint_count() {
            below_matched[t] = target
                .parent(t)
                .is_some_and(|p| below_matched[p] || source_of.get(p).is_some_and(Option::is_some));
        }
        for (t, s) in source_of.iter().enumerate() {
            let name = target.names()[t].clone();
            match s {
                Some(s) => out.matched.push((name, source.names()[*s].clone())),
                None if below_matched[t] => out.unmatched.push(name),
                None => {}
            }
        }
        let mut used = vec![false; source.joint_count()];
        for s in source_of.iter().flatten() {
            used[*s] = true;
        }
        out.unused = (0..source.joint_count())
            .filter(|&s| !used[s])
            .map(|s| source.names()[s].clone())
            .collect();
        out
    }

    /// `of` a joint map, with how each pair was found.
    pub fn of_map(source: &Skeleton, target: &Skeleton, map: &JointMap) -> Self {
        let mut out = Self::of(source, target, &map.indices());
        out.how = map
            .source_of
            .iter()
            .flatten()
            .map(|(_, k)| k.label())
            .collect();
        out
    }

    /// One line: how many of the target's joints matched, and the unmatched ones by name (the
    /// first 12).
    pub fn summary(&self) -> String {
        let total = self.matched.len() + self.unmatched.len();
        let mut line = format!("{} of {total} joints matched", self.matched.len());
        if !self.unmatched.is_empty() {
            let shown: Vec<&str> = self.unmatched.iter().take(12).map(String::as_str).collect();
            let more = self.unmatched.len().saturating_sub(shown.len());
            line.push_str(&format!(
                "; not matched (they keep their own motion): {}",
                shown.join(", ")
            ));
            if more > 0 {
                line.push_str(&format!(" and {more} more"));
            }
        }
        line
    }

    /// The whole match as text: a line per matched joint, then the unmatched and unused ones.
    pub fn to_text(&self) -> String {
        let mut out = format!("{}\n", self.summary());
        for (k, (target, source)) in self.matched.iter().enumerate() {
            match self.how.get(k) {
                Some(how) => out.push_str(&format!("  {target} <- {source} ({how})\n")),
                None => out.push_str(&format!("  {target} <- {source}\n")),
            }
        }
        if !self.unmatched.is_empty() {
            out.push_str(&format!("  not matched: {}\n", self.unmatched.join(", ")));
        }
        if !self.unused.is_empty() {
            out.push_str(&format!(
                "  source joints unused: {}\n",
                self.unused.join(", ")
            ));
        }
        out
    }
}

/// `Retarget::frame`'s working buffers: the source's model pose, the target's world rotations
/// and (for IK limbs) its model pose.
pub struct RetargetScratch {
    model: ModelPose,
    world: Vec<Quat>,
    target_model: ModelPose,
}

impl RetargetScratch {
    pub fn new(source: &Skeleton, target: &Skeleton) -> Self {
        Self {
            model: ModelPose::new(source),
            world: vec![Quat::IDENTITY; target.joint_count()],
            target_model: ModelPose::new(target),
        }
    }
}

/// What `retarget` needs of the two skeletons, worked out once.
pub struct Retarget {
    source_of: Vec<Option<usize>>,
    source_rest: ModelPose,
    target_rest: ModelPose,
    /// Per target joint: the world rotation taking its rest bone direction onto its source's,
    /// then its chain's offset (the retarget pose).
    align: Vec<Quat>,
    /// The hips: (source, target) and the ratio of their rest heights.
    hips: Option<(usize, usize, f32)>,
    settings: RetargetSettings,
    /// The limbs solved by IK (none unless `settings.ik_limbs`).
    limbs: Vec<Limb>,
}

impl Retarget {
    /// Prepares retargeting from `source` to `target` with the joint matching `source_of` (per
    /// target joint, see `match_joints`) and the default settings.
    pub fn new(source: &Skeleton, target: &Skeleton, source_of: Vec<Option<usize>>) -> Self {
        Self::with(source, target, source_of, RetargetSettings::default())
    }

    /// Prepares retargeting with `settings`: the chains' offsets, what translations carry over,
    /// IK limbs.
    pub fn with(
        source: &Skeleton,
        target: &Skeleton,
        source_of: Vec<Option<usize>>,
        settings: RetargetSettings,
    ) -> Self {
        let (source_rest, target_rest) = (shape::rest_model(source), shape::rest_model(target));
        // The target's body parts, read once: its chains (for the offsets) and limbs come from
        // them.
        let target_parts = body_parts(target);
        let at = |m: &ModelPose, j: usize| Vec3::from(m.as_slice()[j].translation);
        // A joint's bone runs to its first child that is matched too (else its first child).
        let (source_children, target_children) =
            (shape::children_of(source), shape::children_of(target));
        let bone =
            |children: &[Vec<usize>], m: &ModelPose, j: usize, pick: &dyn Fn(usize) -> bool| {
                let children = &children[j];
                let child = children
                    .iter()
                    .copied()
                    .find(|&c| pick(c))
                    .or(children.first().copied())?;
                (at(m, child) - at(m, j)).try_normalize()
            };
        // A joint with no bone of its own (a hand, a foot or a head without a child joint; a BVH
        // End Site is a child on the source side only) continues its parent's: the direction
        // from its parent to it, taken on both sides so the two agree.
        let from_parent = |s: &Skeleton, m: &ModelPose, j: usize| {
            s.parent(j)
                .and_then(|p| (at(m, j) - at(m, p)).try_normalize())
        };
        let mut source_matched = vec![false; source.joint_count()];
        for s in source_of.iter().flatten() {
            source_matched[*s] = true;
        }
        let source_child_matched = |c: usize| source_matched[c];
        let chains = settings::chains_of(target, &target_parts);
        let align = (0..target.joint_count())
            .map(|t| {
                let Some(s) = source_of[t] else {
                    return Quat::IDENTITY;
                };
                let target_pick = |c: usize| source_of[c].is_some();
                let bones = match (
                    bone(&target_children, &target_rest, t, &target_pick),
                    bone(&source_children, &source_rest, s, &source_child_matched),
                ) {
                    (Some(from), Some(to)) => Some((from, to)),
                    _ => from_parent(target, &target_rest, t).zip(from_parent(
                        source,
                        &source_rest,
                        s,
                    )),
                };
                let align = bones.map_or(Quat::IDENTITY, |(from, to)| {
                    Quat::from_rotation_arc(from, to)
                });
                let offset = chains[t].map_or(Quat::IDENTITY, |c| settings.offset(c));
                offset * align
            })
            .collect();
        // The hips: the source joint named so (in any convention) or read so from the shape,
        // else the topmost matched one; and the target joint that takes its motion.
        let source_hips = body_parts(source)
            .iter()
            .position(|p| p.as_deref() == Some("hips"))
            .filter(|s| source_of.contains(&Some(*s)))
            .or_else(|| source_of.iter().flatten().min().copied());
        let hips = source_hips
            .and_then(|s| source_of.iter().position(|&m| m == Some(s)).map(|t| (s, t)))
            .map(|(s, t)| {
                let (hs, ht) = (at(&source_rest, s).y, at(&target_rest, t).y);
                let ratio = if hs.abs() > 1e-6 { ht / hs } else { 1.0 };
                (s, t, ratio)
            });
        let limbs = if settings.ik_limbs {
            limbs::find_limbs(
                target,
                &target_parts,
                &source_of,
                &source_rest,
                &target_rest,
            )
        } else {
            Vec::new()
        };
        Self {
            source_of,
            source_rest,
            target_rest,
            align,
            hips,
            settings,
            limbs,
        }
    }

    /// The scale of the hips' travel: the settings' motion scale, else the hip heights' ratio.
    pub fn travel_scale(&self) -> f32 {
        let ratio = self.hips.map_or(1.0, |(_, _, r)| r);
        self.settings.motion_scale.unwrap_or(ratio)
    }

    /// The matching this retarget was made with, by name.
    pub fn joint_match(&self, source: &Skeleton, target: &Skeleton) -> JointMatch {
        JointMatch::of(source, target, &self.source_of)
    }

    /// How many target joints take motion from the source.
    pub fn matched(&self) -> usize {
        self.source_of.iter().flatten().count()
    }

    /// The target joints that take a rotation from the source, in joint order.
    pub fn rotated(&self) -> Vec<usize> {
        let joints = self.source_of.iter().enumerate();
        joints.filter_map(|(t, s)| s.map(|_| t)).collect()
    }

    /// The target joint that takes the source's hips travel (none with rotations only).
    pub fn moved(&self) -> Option<usize> {
        self.hips
            .filter(|_| !self.settings.rotation_only)
            .map(|(_, t, _)| t)
    }

    /// One source pose (`source_local`, on `source`) retargeted into `out` (on `target`): each
    /// matched joint's local rotation, and the hips' translation; with IK limbs, arms and legs
    /// solved toward their goals. Other joints are left as they are. `scratch` is sized by
    /// `RetargetScratch::new`; nothing allocates.
    pub fn frame(
        &self,
        (source, source_local): (&Skeleton, &LocalPose),
        target: &Skeleton,
        scratch: &mut RetargetScratch,
        out: &mut LocalPose,
    ) -> Result<(), RetargetError> {
        let n = target.joint_count();
        check_len("retarget target", n, out.len())?;
        check_len("retarget scratch", n, scratch.world.len())?;
        let model = &mut scratch.model;
        local_to_model(source, source_local, model)?;
        let world = &mut scratch.world;
        let locals = out.as_mut_slice();
        for j in 0..n {
            let parent = target.parent(j).map_or(Quat::IDENTITY, |p| world[p]);
            let rest_local = target.rest()[j].rotation;
            world[j] = match self.source_of[j] {
                Some(s) => {
                    let delta =
                        limbs::rotation(model, s) * limbs::rotation(&self.source_rest, s).inverse();
                    (delta * self.align[j] * limbs::rotation(&self.target_rest, j)).normalize()
                }
                None => parent * rest_local,
            };
            if self.source_of[j].is_some() {
                locals[j].rotation = (parent.inverse() * world[j]).normalize();
            }
        }
        let mut ground = None;
        if let Some((s, t_hips, _)) = self.hips {
            let travel = Vec3::from(model.as_slice()[s].translation)
                - Vec3::from(self.source_rest.as_slice()[s].translation);
            let kept = self.settings.root_motion.factor();
            let removed = travel.with_y(0.0) * (1.0 - kept);
            let scale = self.travel_scale();
            ground = Some(GroundFrame {
                source_hips_rest: Vec3::from(self.source_rest.as_slice()[s].translation),
                target_hips_rest: Vec3::from(self.target_rest.as_slice()[t_hips].translation),
                scale,
                removed,
            });
            if !self.settings.rotation_only {
                let at = Vec3::from(self.target_rest.as_slice()[t_hips].translation)
                    + (travel - removed) * scale;
                // Into the hips' parent space (at rest: its parents are unmatched or still).
                let parent = target
                    .parent(t_hips)
                    .map_or(glam::Affine3A::IDENTITY, |p| self.target_rest.as_slice()[p]);
                locals[t_hips].translation = parent.inverse().transform_point3(at);
            }
        }
        if self.limbs.is_empty() {
            return Ok(());
        }
        // IK limbs: solve each toward its goal on the rotation retarget's pose (the limbs are
        // apart: one solve moves no other limb), then give each end back its world rotation.
        let target_model = &mut scratch.target_model;
        local_to_model(target, out, target_model)?;
        if self.settings.rotation_only {
            ground = None;
        }
        // A foot the longer or shorter leg cannot reach from where the hips are (a source leg
        // held straight, scaled off by the pelvis the legs do not scale) lowers the hips until
        // it can: the feet stay planted and the leg straightens, as the source's does.
        if let (Some(g), Some((_, t_hips, _))) = (&ground, self.hips) {
            let drop = (self.limbs.iter().filter(|l| l.leg))
                .map(|l| limbs::hips_drop(l, model, target_model, g))
                .fold(0.0f32, f32::max);
            if drop > 0.0 {
                let parent = target
                    .parent(t_hips)
                    .map_or(glam::Affine3A::IDENTITY, |p| target_model.as_slice()[p]);
                let by = parent.inverse().transform_vector3(Vec3::NEG_Y * drop);
                out.as_mut_slice()[t_hips].translation += by;
                local_to_model(target, out, target_model)?;
            }
        }
        for limb in &self.limbs {
            let (goal, pole) = limbs::goal(limb, model, target_model, ground.as_ref());
            solve_two_bone(
                target,
                limb.target,
                goal,
                pole,
                limbs::SOLVE,
                target_model,
                out,
            )?;
        }
        local_to_model(target, out, target_model)?;
        let locals = out.as_mut_slice();
        for limb in &self.limbs {
            let end = limb.target.end;
            let parent = target
                .parent(end)
                .map_or(Quat::IDENTITY, |p| limbs::rotation(target_model, p));
            locals[end].rotation = (parent.inverse() * world[end]).normalize();
        }
        Ok(())
    }

    /// `clip` (on `source`) as a clip on `target`, keyed at `times`: each matched joint's
    /// rotation, and the hips' translation (`frame` at each time).
    pub fn clip(
        &self,
        source: &Skeleton,
        clip: &Clip,
        target: &Skeleton,
        times: &[f32],
        name: &str,
    ) -> Result<Clip, RetargetError> {
        let n = target.joint_count();
        let mut local = LocalPose::rest(source);
        let mut out = LocalPose::rest(target);
        let mut scratch = RetargetScratch::new(source, target);
        let mut cursor = ClipCursor::new(clip);
        let mut rotations: Vec<Vec<Quat>> = vec![Vec::new(); n];
        for &j in &self.rotated() {
            rotations[j].reserve(times.len());
        }
        let mut hips = Vec::with_capacity(times.len());
        for &t in times {
            sample_clip(source, clip, t, &mut cursor, &mut local)?;
            self.frame((source, &local), target, &mut scratch, &mut out)?;
            for (j, keys) in rotations.iter_mut().enumerate() {
                if self.source_of[j].is_some() {
                    keys.push(out.as_slice()[j].rotation);
                }
            }
            if let Some(j) = self.moved() {
                hips.push(out.as_slice()[j].translation);
            }
        }
        let mut tracks = Vec::new();
        for (joint, keys) in rotations.into_iter().enumerate() {
            if keys.is_empty() {
                continue;
            }
            let track = Track::new(times.to_vec(), keys, Interpolation::Linear)?;
            tracks.push(JointTrack {
                joint,
                channel: Channel::Rotation(track),
            });
        }
        if let (Some(joint), false) = (self.moved(), hips.is_empty()) {
            let track = Track::new(times.to_vec(), hips, Interpolation::Linear)?;
            tracks.push(JointTrack {
                joint,
                channel: Channel::Translation(track),
            });
        }
        Ok(Clip::new(name, n, tracks, clip.events().to_vec())?)
    }
}
