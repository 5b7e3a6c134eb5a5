//! Evaluating a `PoseRequest`: the stages of one frame, in order, into a caller-owned
//! `CharacterPose` (every palette of every skinned mesh instance in a single array, plus each
//! instance's `world_from_mesh`). CPU only; the renderer uploads what this produces. Buffers are
//! sized once, so posing a frame allocates nothing.

use glam::{Mat4, Vec3};

use super::morph::{MorphWeights, morphed_vertices};
use super::request::{
    BlendSpec, ClipTime, Inertial, PaletteMode, PoseRequest, RootMotionMode, Transition,
    TransitionKind, VELOCITY_STEP_SECS, clip_time, in_step_time,
};
use super::stages::{Stage, StagePoses};
use crate::anim::{
    self, BlendLayer, ClipCursor, Inertialization, LocalPose, ModelPose, PoseError, SkinPalette,
    SwitchPoses,
};
use crate::character::Character;

mod compose;
mod overrides;

/// One draw's palette start in `CharacterPose::palette` (0 is a shared identity entry, used by
/// unskinned meshes).
pub const IDENTITY_ENTRY: u32 = 0;

/// Which scratch pose a clip is sampled into.
#[derive(Clone, Copy)]
enum Scratch {
    A = 0,
    B = 1,
}

/// What a scratch pose holds outside the joints its last clip drives.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Outside {
    /// The rest pose everywhere (as made, or reset to it).
    Rest,
    /// The keys with this id (a raw clip's, or a compressed clip's: each has its own) were
    /// sampled into it, and nothing written since: at rest wherever they drive nothing, and,
    /// for a raw clip, holding its constant tracks (`anim::resample_clip`).
    Sampled(u64),
    /// Anything else (a copy of a blended pose).
    Other,
}

impl Outside {
    /// Whether a pose in this state is at rest wherever the clip with id `clip` drives nothing.
    fn at_rest_outside(self, clip: u64) -> bool {
        match self {
            Outside::Rest => true,
            Outside::Sampled(id) => id == clip,
            Outside::Other => false,
        }
    }
}

/// A scratch pose and what it holds outside its last clip.
struct Slot {
    pose: LocalPose,
    state: Outside,
}

impl Slot {
    fn new(c: &Character) -> Self {
        Self {
            pose: LocalPose::rest(&c.skeleton),
            state: Outside::Rest,
        }
    }
}

/// A character's pose and palettes for one frame.
pub struct CharacterPose {
    /// The frame's local pose (`local()`); set from outside only through `compose_local`.
    local: LocalPose,
    /// What `local` holds where its clip drives nothing (see `Outside`).
    local_state: Outside,
    pub model: ModelPose,
    scratch_a: LocalPose,
    scratch_b: LocalPose,
    /// What each scratch pose holds outside the joints its last clip drives (see `Outside`).
    scratch_state: [Outside; 2],
    /// Scratch poses for transitions' outgoing sides, layers and inertialized switches.
    work: [Slot; 5],
    /// The offsets of the inertialized switch `inertial_key` describes (recorded once per
    /// switch, then only decayed).
    inertial: Inertialization,
    inertial_key: Option<Transition>,
    /// The pose drivers' kernel, weights and outputs (sized on first use).
    driver_scratch: Vec<f32>,
    cursors: Vec<ClipCursor>,
    skin_palettes: Vec<Option<SkinPalette>>,
    /// Entry 0 is the identity; then each skinned instance's palette, in instance order.
    pub palette: Vec<Mat4>,
    /// Where each instance's palette starts in `palette` (`IDENTITY_ENTRY` when unskinned).
    pub palette_base: Vec<u32>,
    /// `world_from_mesh` per instance.
    pub world_from_mesh: Vec<Mat4>,
    /// Every instance's morph weights, evaluated beside the joints.
    pub morph: MorphWeights,
    /// Weight-blended skinning's method weight per palette entry (0: linear blend, 1: dual
    /// quaternions); empty until `set_joint_methods`, which evaluation leaves alone.
    pub palette_method: Vec<f32>,
    /// The muscles' displacement the skin follows (the request's).
    pub muscles: Option<std::sync::Arc<super::MuscleFrame>>,
    /// The ML deformer's weights this frame (the request's model's).
    pub ml: Option<super::MlCorrective>,
    /// Every skinned instance's palette entries in joint order, written as local-to-model
    /// composes each joint (`None` when an inverse bind matrix is not affine).
    palette_plan: Option<anim::PalettePlan>,
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
        let palette_plan = compose::palette_plan(c, &palette_base);
        Self {
            local: LocalPose::rest(&c.skeleton),
            local_state: Outside::Rest,
            model: ModelPose::new(&c.skeleton),
            scratch_a: LocalPose::rest(&c.skeleton),
            scratch_b: LocalPose::rest(&c.skeleton),
            scratch_state: [Outside::Rest; 2],
            work: std::array::from_fn(|_| Slot::new(c)),
            inertial: Inertialization::new(c.skeleton.joint_count()),
            inertial_key: None,
            driver_scratch: Vec::new(),
            cursors: c
                .clips
                .iter()
                .map(|clip| ClipCursor::new(&clip.clip))
                .collect(),
            skin_palettes,
            palette: vec![Mat4::IDENTITY; next as usize],
            palette_base,
            world_from_mesh: vec![Mat4::IDENTITY; c.instances.len()],
            morph: MorphWeights::new(c),
            palette_method: Vec::new(),
            muscles: None,
            ml: None,
            palette_plan,
        }
    }

    /// A pose of `c` at rest (node transforms without animation, bind palette): what bounds,
    /// heights and skin reaches are measured on. Its evaluation cannot fail (the buffers are
    /// sized from `c`); were it to, the pose stays at rest as made.
    pub fn at_rest(c: &Character) -> Self {
        let mut pose = Self::new(c);
        let _ = pose.evaluate(c, &PoseRequest::rest(PaletteMode::Bind));
        pose
    }

    /// Evaluates `request` into this pose: the frame's stages, in the pose pipeline's order.
    /// Each stage borrows what it needs and writes into buffers this pose owns.
    ///
    /// 1. sample and blend: the raw pose (`sample_raw`);
    /// 2. root motion: the root-motion joint's travel removed from the raw pose, before any
    ///    transition offset (in place or applied; the caller moves the placement);
    /// 3. transition: crossfade from the outgoing clip, or inertialization (`apply_transition`);
    ///    then the external pose (motion capture) on the joints it drives (`apply_external`);
    /// 4. pose layers, masked overrides and additive clips (`apply_layers`);
    ///    then the skeleton's roots placed under the request's placement;
    /// 5. reach IK, then 6. foot IK, in world space (`pose::ik`); then the physics pose
    ///    (a ragdoll's) by each joint's weight;
    /// 7. local-to-model and 8. the skin palettes (`compose`).
    ///
    /// Morph weights are evaluated beside the joints, from the same clip times.
    pub fn evaluate(&mut self, c: &Character, request: &PoseRequest) -> Result<(), PoseError> {
        // The local pose is sampled under every palette mode: the split view and the
        // displacement colours compare it under another palette.
        self.local_stages(c, request, None)?;
        self.finish(c, request, request.palette)
    }

    /// `evaluate`, keeping the skeleton as it leaves each stage in `stages` (a copy of the
    /// local pose per stage: what the stage ghosts draw and `palette --stage` prints).
    pub fn evaluate_watched(
        &mut self,
        c: &Character,
        request: &PoseRequest,
        stages: &mut StagePoses,
    ) -> Result<(), PoseError> {
        stages.clear();
        self.local_stages(c, request, Some(stages))?;
        self.finish(c, request, request.palette)
    }

    /// This frame's pose as a history keeps it (`RecordedPose`), drawn under `palette`.
    pub fn recorded(&self, request: &PoseRequest) -> crate::history::RecordedPose {
        crate::history::RecordedPose {
            local: self.local.clone(),
            morph_weights: self.morph.weights.clone(),
            palette: request.palette,
            placement: request.placement,
        }
    }

    /// Shows a recorded frame again: its local pose and morph weights, composed under its
    /// palette with `request`'s skin-side inputs (the per-joint methods, the muscles' frame,
    /// the ML deformer), as `evaluate` finished it. The palettes are those of the frame as it
    /// was posed, to the bit.
    pub fn restore(
        &mut self,
        c: &Character,
        recorded: &crate::history::RecordedPose,
        request: &PoseRequest,
    ) -> Result<(), PoseError> {
        if recorded.local.len() != self.local.len()
            || recorded.morph_weights.len() != self.morph.weights.len()
        {
            anim::check_len("the recorded pose", self.local.len(), recorded.local.len())?;
            let weights = self.morph.weights.len();
            anim::check_len(
                "the recorded morph weights",
                weights,
                recorded.morph_weights.len(),
            )?;
        }
        self.local.clone_from(&recorded.local);
        self.local_state = Outside::Other;
        self.morph.weights.copy_from_slice(&recorded.morph_weights);
        self.finish(c, request, recorded.palette)
    }

    /// After the local pose: the per-joint methods, the muscles, the palettes and the ML
    /// deformer's weights.
    fn finish(
        &mut self,
        c: &Character,
        request: &PoseRequest,
        palette: PaletteMode,
    ) -> Result<(), PoseError> {
        if let Some(methods) = &request.joint_methods {
            self.set_joint_methods(c, methods);
        }
        self.muscles.clone_from(&request.muscles);
        self.compose(c, palette)?;
        self.infer_ml(request.ml.as_ref());
        Ok(())
    }

    /// Stages 1 to 6 (the local pose) and the morph weights; with `watch`, a copy of the pose
    /// after each stage.
    fn local_stages(
        &mut self,
        c: &Character,
        request: &PoseRequest,
        mut watch: Option<&mut StagePoses>,
    ) -> Result<(), PoseError> {
        let placement = Some(&request.placement);
        let mut seen = |stage: Stage, local: &LocalPose, placed: bool| {
            if let Some(w) = watch.as_deref_mut() {
                w.record(c, stage, local, placement.filter(|_| !placed));
            }
        };
        if self.cursors.len() != c.clips.len() {
            // Clips were added since (`--clips-from`, the panel's "Add clips"): a sampling
            // context for each, as made.
            let made = self.cursors.len().min(c.clips.len());
            self.cursors.truncate(made);
            let new = c.clips[made..].iter().map(|k| ClipCursor::new(&k.clip));
            self.cursors.extend(new);
        }
        self.sample_raw(c, request)?;
        seen(Stage::Raw, &self.local, false);
        if let Some(joint) = removed_root(request) {
            remove_root(c, joint, &mut self.local);
            self.local_state = Outside::Other;
        }
        seen(Stage::RootMotion, &self.local, false);
        if let Some(transition) = request.transition {
            self.apply_transition(c, transition, request)?;
        }
        seen(Stage::Transition, &self.local, false);
        if let Some(external) = &request.external {
            self.apply_external(c, external, request)?;
        }
        seen(Stage::External, &self.local, false);
        self.apply_layers(c, request)?;
        self.place(c, request);
        seen(Stage::Layers, &self.local, true);
        if !request.ik.is_empty() || request.feet.is_some() {
            self.local_state = Outside::Other;
            anim::local_to_model(&c.skeleton, &self.local, &mut self.model)?;
            super::ik::apply_reach(&c.skeleton, &request.ik, &mut self.local, &mut self.model)?;
            seen(Stage::ReachIk, &self.local, true);
            if let Some(feet) = &request.feet {
                let base = request.placement.position.y;
                super::ik::apply_feet(&c.skeleton, feet, base, &mut self.local, &mut self.model)?;
                // Foot IK may have lowered the pelvis under a reaching hand: reach again.
                super::ik::apply_reach(&c.skeleton, &request.ik, &mut self.local, &mut self.model)?;
            }
        } else {
            seen(Stage::ReachIk, &self.local, true);
        }
        seen(Stage::FootIk, &self.local, true);
        if let Some(physics) = &request.physics {
            self.local_state = Outside::Other;
            let weights = Some(&*physics.weights);
            anim::apply_override(&mut self.local, &physics.pose, weights, 1.0)?;
        }
        seen(Stage::Physics, &self.local, true);
        self.morph.evaluate(c, request);
        if let Some(drivers) = &request.drivers {
            self.local_state = Outside::Other;
            let m = &mut self.morph;
            let weights = (&mut m.weights[..], &m.base[..]);
            drivers.apply(c, &mut self.local, weights, &mut self.driver_scratch);
        }
        Ok(())
    }

    /// The skeleton's roots placed under the request's placement (`world_from_entity`).
    fn place(&mut self, c: &Character, request: &PoseRequest) {
        if request.placement == anim::Placement::default() {
            return;
        }
        self.local_state = Outside::Other;
        let locals = self.local.as_mut_slice();
        for (joint, parent) in c.skeleton.parents().iter().enumerate() {
            if parent.is_none() {
                locals[joint] = request.placement.place(&locals[joint]);
            }
        }
    }

    /// Stage 1: samples the main clip (the rest pose without one) and blends the in-step clip,
    /// into `local`.
    fn sample_raw(&mut self, c: &Character, request: &PoseRequest) -> Result<(), PoseError> {
        let Some(main) = request.clip.filter(|m| m.clip < c.clips.len()) else {
            self.local.as_mut_slice().copy_from_slice(c.skeleton.rest());
            self.local_state = Outside::Rest;
            return Ok(());
        };
        let time_a = clip_time(c, main, request.wrap);
        let Some(blend) = request.blend.filter(|b| b.b < c.clips.len()) else {
            return sample_clip_data(
                c,
                main.clip,
                time_a,
                (request.compressed, &mut self.cursors[main.clip]),
                &mut self.local,
                &mut self.local_state,
            );
        };
        let time_b = in_step_time(c, main.clip, time_a, blend.b);
        self.sample_layer(c, main.clip, time_a, Scratch::A, request.compressed)?;
        self.sample_layer(c, blend.b, time_b, Scratch::B, request.compressed)?;
        self.blend_scratch(blend.weight)
    }

    /// Stage 3: a crossfade from the outgoing side (sampled at its own time) to the raw pose, or
    /// the decaying offset of an inertialized switch added to it.
    fn apply_transition(
        &mut self,
        c: &Character,
        transition: Transition,
        request: &PoseRequest,
    ) -> Result<(), PoseError> {
        if transition.from.clip >= c.clips.len() {
            return Ok(());
        }
        match transition.kind {
            TransitionKind::Crossfade { weight } => {
                let [scratch, ..] = &mut self.work;
                sample_source(
                    c,
                    request,
                    (transition.from, transition.from_blend),
                    &mut self.cursors,
                    (
                        &mut self.scratch_a,
                        &mut self.scratch_state[Scratch::A as usize],
                    ),
                    scratch,
                )?;
                self.scratch_b.clone_from(&self.local);
                self.scratch_state[Scratch::B as usize] = Outside::Other;
                self.blend_scratch(weight)
            }
            TransitionKind::Inertialize(inertial) => {
                let key = Transition {
                    kind: TransitionKind::Inertialize(Inertial {
                        elapsed_secs: 0.0,
                        ..inertial
                    }),
                    ..transition
                };
                if self.inertial_key != Some(key) {
                    self.record_switch(c, request, &transition, &inertial)?;
                    self.inertial_key = Some(key);
                }
                self.local_state = Outside::Other;
                self.inertial.apply(&mut self.local, inertial.elapsed_secs)
            }
        }
    }

    /// Records an inertialized switch: the outgoing side at the switch and one velocity step
    /// before, the incoming side at its start and one step after.
    fn record_switch(
        &mut self,
        c: &Character,
        request: &PoseRequest,
        transition: &Transition,
        inertial: &Inertial,
    ) -> Result<(), PoseError> {
        let [out, before, inc, after, scratch] = &mut self.work;
        let step = |at: ClipTime, rate: f32| ClipTime {
            time_secs: at.time_secs + rate * VELOCITY_STEP_SECS,
            ..at
        };
        let sides = [
            (transition.from, transition.from_blend, &mut *out),
            (
                step(transition.from, -inertial.from_rate),
                transition.from_blend,
                &mut *before,
            ),
            (inertial.to, inertial.to_blend, &mut *inc),
            (
                step(inertial.to, inertial.to_rate),
                inertial.to_blend,
                &mut *after,
            ),
        ];
        for (clip, blend, slot) in sides {
            let (pose, state) = (&mut slot.pose, &mut slot.state);
            sample_source(
                c,
                request,
                (clip, blend),
                &mut self.cursors,
                (pose, state),
                scratch,
            )?;
        }
        // A switch during a switch: what was shown is the outgoing side plus the earlier
        // offsets as they stood (and one velocity step before).
        if let (Some(e), Some(_)) = (inertial.carried_secs, self.inertial_key) {
            self.inertial.apply(&mut out.pose, e)?;
            self.inertial
                .apply(&mut before.pose, (e - VELOCITY_STEP_SECS).max(0.0))?;
        }
        let poses = SwitchPoses {
            outgoing: &out.pose,
            outgoing_before: &before.pose,
            incoming: &inc.pose,
            incoming_after: &after.pose,
            dt_secs: VELOCITY_STEP_SECS,
        };
        self.inertial.record(poses, inertial.half_life_secs)
    }

    /// Samples clip `clip` (its compressed keys when `compressed` and it has them) at a wrapped
    /// time into a scratch pose.
    fn sample_layer(
        &mut self,
        c: &Character,
        clip_index: usize,
        time_secs: f32,
        into: Scratch,
        compressed: bool,
    ) -> Result<(), PoseError> {
        let out = match into {
            Scratch::A => &mut self.scratch_a,
            Scratch::B => &mut self.scratch_b,
        };
        sample_clip_data(
            c,
            clip_index,
            time_secs,
            (compressed, &mut self.cursors[clip_index]),
            out,
            &mut self.scratch_state[into as usize],
        )
    }

    /// `local = blend(scratch_a * (1 - weight), scratch_b * weight)`.
    fn blend_scratch(&mut self, weight: f32) -> Result<(), PoseError> {
        let w = if weight.is_finite() {
            weight.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let layers = [
            BlendLayer {
                pose: &self.scratch_a,
                weight: 1.0 - w,
            },
            BlendLayer {
                pose: &self.scratch_b,
                weight: w,
            },
        ];
        // The weights sum to one, so the rest-pose fallback is never taken; layer A has the
        // right length for it.
        self.local_state = Outside::Other;
        anim::blend_poses(&layers, &self.scratch_a, &mut self.local)
    }

    /// `evaluate`, with the palettes and `world_from_mesh` written into the caller's slices (a
    /// crowd member's part of the crowd's arrays) rather than this pose's: `palette` as long as
    /// `self.palette`, `world_from_mesh` one per instance. Saves a copy per member.
    pub fn evaluate_into(
        &mut self,
        c: &Character,
        request: &PoseRequest,
        palette: &mut [Mat4],
        world_from_mesh: &mut [Mat4],
    ) -> Result<(), PoseError> {
        anim::check_len("palette", self.palette.len(), palette.len())?;
        anim::check_len(
            "world_from_mesh",
            self.world_from_mesh.len(),
            world_from_mesh.len(),
        )?;
        self.local_stages(c, request, None)?;
        palette[IDENTITY_ENTRY as usize] = Mat4::IDENTITY;
        let target = compose::Target::Into(palette, world_from_mesh);
        self.compose_into(c, request.palette, target)
    }

    /// The frame's local pose (`parent_from_joint` per joint), as sampled and blended.
    /// The last frame's pose drivers' pose weights, every driver's poses in order (empty
    /// without drivers).
    pub fn driver_weights(&self, drivers: &super::DriverSet) -> &[f32] {
        self.driver_scratch
            .get(..drivers.pose_count())
            .unwrap_or(&[])
    }

    pub fn local(&self) -> &LocalPose {
        &self.local
    }

    /// Where this frame holds non-finite numbers, in words (the first joint whose model
    /// transform is not finite, or how many morph weights are not), so a command refuses to
    /// draw or export it; `None` when it is all finite.
    pub fn non_finite(&self, c: &Character) -> Option<String> {
        let names = c.skeleton.names();
        if let Some(j) = self.model.as_slice().iter().position(|m| !m.is_finite()) {
            return Some(format!(
                "joint {:?}'s transform is not finite (non-finite numbers from the clips, layers or targets)",
                names.get(j).map_or("?", String::as_str)
            ));
        }
        if self.palette.iter().any(|m| !m.is_finite()) {
            return Some("a skin palette entry is not finite".into());
        }
        let weights = self.morph.weights.iter().filter(|w| !w.is_finite()).count();
        (weights > 0).then(|| format!("{weights} morph weights are not finite"))
    }

    /// Composes `local` (another pose's, say) under `mode`: what the split view and the
    /// displacement colours compare with.
    pub fn compose_local(
        &mut self,
        c: &Character,
        local: &LocalPose,
        mode: PaletteMode,
    ) -> Result<(), PoseError> {
        self.local.clone_from(local);
        self.local_state = Outside::Other;
        self.compose(c, mode)
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
        let weights = self.morph.of(i);
        let mut out = Vec::new();
        for primitive in &c.meshes[instance.mesh].primitives {
            // Morphing happens in bind space, before skinning.
            let (positions, _) = morphed_vertices(primitive, weights);
            for (v, &p) in positions.iter().enumerate() {
                let mesh_space = match (palette, &primitive.skinning) {
                    (Some(palette), Some(s)) => {
                        let influences = s.influences(v).map(|(j, w)| (u32::from(j), w));
                        anim::blend_matrix(palette, influences).map_or(p, |m| m.transform_point3(p))
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
        if c.instances.is_empty() {
            return self.joint_bounds();
        }
        (0..c.instances.len())
            .filter_map(|i| self.instance_bounds(c, i))
            .reduce(union)
    }

    /// Bounds of the posed joints: a skeleton without a mesh (a BVH opened on its own) is
    /// framed and measured by them.
    pub fn joint_bounds(&self) -> Option<(Vec3, Vec3)> {
        let joints = self
            .model
            .as_slice()
            .iter()
            .map(|m| Vec3::from(m.translation));
        joints.fold(None, |b, p| {
            Some(b.map_or((p, p), |(lo, hi): (Vec3, Vec3)| (lo.min(p), hi.max(p))))
        })
    }

    /// Bounds (min, max) of instance `i`'s posed vertices; `None` without vertices.
    fn instance_bounds(&self, c: &Character, i: usize) -> Option<(Vec3, Vec3)> {
        let points = self.instance_world_positions(c, i);
        let first = *points.first()?;
        Some(points.iter().fold((first, first), |b, &p| union(b, (p, p))))
    }

    /// What a camera frames: the posed vertices' bounds, without the unskinned meshes that
    /// enclose the rest (a sky dome, a sky box or a room around the character, as one closed
    /// hull or as open panels), so a model inside its environment is framed on its contents.
    pub fn framing_bounds(&self, c: &Character) -> Option<(Vec3, Vec3)> {
        if c.instances.is_empty() {
            return self.joint_bounds();
        }
        let boxes: Vec<(usize, (Vec3, Vec3))> = (0..c.instances.len())
            .filter_map(|i| Some((i, self.instance_bounds(c, i)?)))
            .collect();
        let shell = enclosing_shell(&boxes, |i| c.instances[i].skin.is_none());
        boxes
            .iter()
            .filter(|(i, _)| !shell.contains(i))
            .map(|&(_, b)| b)
            .reduce(union)
    }
}

/// The most meshes an enclosing shell is looked for among (the largest first).
const MAX_SHELL: usize = 64;
/// What a shell holds spans at most this part of its width and depth.
const SHELL_RATIO: f32 = 0.75;

/// The instances that enclose all the others, the largest first: the fewest of the widest
/// boxes (`(instance, bounds)`) that are all `unskinned`, whose union holds the rest strictly
/// inside horizontally (within `SHELL_RATIO` of its width and depth) and from their floor to
/// their top vertically (an open-topped sky or one
/// standing on the scene's ground still encloses), none of them inside the rest's bounds (a
/// panel of an open shell lies outside what it surrounds). Empty when none does.
fn enclosing_shell(
    boxes: &[(usize, (Vec3, Vec3))],
    unskinned: impl Fn(usize) -> bool,
) -> Vec<usize> {
    // Widest by width plus depth: a wall panel along an axis has no area, but it is wide.
    let width = |b: &(Vec3, Vec3)| (b.1.x - b.0.x) + (b.1.z - b.0.z);
    let mut order: Vec<&(usize, (Vec3, Vec3))> = boxes.iter().collect();
    order.sort_by(|a, b| width(&b.1).total_cmp(&width(&a.1)));
    // rest[k]: the union of the boxes from k on.
    let mut rest: Vec<Option<(Vec3, Vec3)>> = vec![None; order.len() + 1];
    for k in (0..order.len()).rev() {
        rest[k] = Some(rest[k + 1].map_or(order[k].1, |r| union(r, order[k].1)));
    }
    // A shell is clearly larger than what it holds (not the outer houses of a town).
    let encloses = |outer: (Vec3, Vec3), inner: (Vec3, Vec3)| {
        let tolerance = 1e-4 * (outer.1 - outer.0).length();
        let (outer_size, inner_size) = (outer.1 - outer.0, inner.1 - inner.0);
        inner_size.x <= SHELL_RATIO * outer_size.x
            && inner_size.z <= SHELL_RATIO * outer_size.z
            && outer.0.x < inner.0.x
            && outer.0.z < inner.0.z
            && outer.1.x > inner.1.x
            && outer.1.z > inner.1.z
            && outer.0.y <= inner.0.y + tolerance
            && outer.1.y >= inner.1.y - tolerance
    };
    let inside = |b: (Vec3, Vec3), of: (Vec3, Vec3)| {
        b.0.x >= of.0.x && b.0.z >= of.0.z && b.1.x <= of.1.x && b.1.z <= of.1.z
    };
    let mut shell: Option<(Vec3, Vec3)> = None;
    for k in 1..order.len().min(MAX_SHELL + 1) {
        let (i, b) = *order[k - 1];
        if !unskinned(i) {
            break;
        }
        shell = Some(shell.map_or(b, |s| union(s, b)));
        let (Some(outer), Some(inner)) = (shell, rest[k]) else {
            break;
        };
        if encloses(outer, inner) && order[..k].iter().all(|(_, b)| !inside(*b, inner)) {
            return order[..k].iter().map(|(i, _)| *i).collect();
        }
    }
    Vec::new()
}

/// Samples clip `clip` (its compressed keys when `compressed` and it has them) into `out`,
/// whose `state` says what it holds where the clip drives nothing: a pose last sampled from the
/// same keys, raw or compressed (or at rest), needs no rest pose laid down again.
fn sample_clip_data(
    c: &Character,
    clip: usize,
    time_secs: f32,
    (compressed, cursor): (bool, &mut ClipCursor),
    out: &mut LocalPose,
    state: &mut Outside,
) -> Result<(), PoseError> {
    let data = &c.clips[clip];
    if let Some(packed) = data.compressed.as_ref().filter(|_| compressed) {
        // The compressed keys have an id of their own: a pose they were last sampled into is
        // at rest wherever they drive nothing (every track is sampled again each time).
        let id = packed.source_id();
        if std::mem::replace(state, Outside::Sampled(id)).at_rest_outside(id) {
            return anim::sample_compressed_over(&c.skeleton, packed, time_secs, cursor, out);
        }
        return anim::sample_compressed(&c.skeleton, packed, time_secs, cursor, out);
    }
    let id = data.clip.id();
    let before = std::mem::replace(state, Outside::Sampled(id));
    if before == Outside::Sampled(id) {
        anim::resample_clip(&c.skeleton, &data.clip, time_secs, cursor, out)
    } else if before.at_rest_outside(id) {
        anim::sample_clip_over(&c.skeleton, &data.clip, time_secs, cursor, out)
    } else {
        anim::sample_clip(&c.skeleton, &data.clip, time_secs, cursor, out)
    }
}

/// The joint whose travel the request removes from the pose (root motion in place or applied).
fn removed_root(request: &PoseRequest) -> Option<usize> {
    request
        .root_motion
        .filter(|r| r.mode != RootMotionMode::Authored)
        .map(|r| r.joint)
}

/// Stage 2: the root-motion joint's horizontal travel and turn removed from `pose`, against the
/// rest pose.
fn remove_root(c: &Character, joint: usize, pose: &mut LocalPose) {
    if let (Some(t), Some(rest)) = (
        pose.as_mut_slice().get_mut(joint),
        c.skeleton.rest().get(joint),
    ) {
        anim::remove_root_motion(t, rest, &anim::RootFrame::of(&c.skeleton, joint));
    }
}

/// Samples a clip with its in-step blend (`source`) at the request's wrap into `out` (a pose and
/// its state), blending through `scratch`.
fn sample_source(
    c: &Character,
    request: &PoseRequest,
    (main, blend): (ClipTime, Option<BlendSpec>),
    cursors: &mut [ClipCursor],
    (out, state): (&mut LocalPose, &mut Outside),
    scratch: &mut Slot,
) -> Result<(), PoseError> {
    let clip = main.clip.min(c.clips.len().saturating_sub(1));
    if c.clips.is_empty() {
        out.as_mut_slice().copy_from_slice(c.skeleton.rest());
        *state = Outside::Rest;
        return Ok(());
    }
    let time_a = clip_time(c, main, request.wrap);
    let data = (request.compressed, &mut cursors[clip]);
    sample_clip_data(c, clip, time_a, data, out, state)?;
    if let Some(blend) = blend.filter(|b| b.b < c.clips.len()) {
        let time_b = in_step_time(c, clip, time_a, blend.b);
        let data = (request.compressed, &mut cursors[blend.b]);
        sample_clip_data(
            c,
            blend.b,
            time_b,
            data,
            &mut scratch.pose,
            &mut scratch.state,
        )?;
        anim::blend_pair(out, &scratch.pose, blend.weight)?;
        *state = Outside::Other;
    }
    // Every side of a transition loses its root travel as the main pose does.
    if let Some(joint) = removed_root(request) {
        remove_root(c, joint, out);
        *state = Outside::Other;
    }
    Ok(())
}

/// The smallest box (min, max) holding both.
pub(crate) fn union(a: (Vec3, Vec3), b: (Vec3, Vec3)) -> (Vec3, Vec3) {
    (a.0.min(b.0), a.1.max(b.1))
}
