//! What the panel edits (`Controls`): plain data the viewer reads every frame, the one
//! choice of what a split view compares (`Compared`), and the performer's `Inputs` they give.

use crate::character::Character;
use crate::debug::colors::ColorView;
use crate::graph::{MoveMode, TransitionSpec};
use crate::perform::{BlendInput, ExternalInput, Inputs, LayerInput, PhysicsInput, Playing, Reach};
use crate::pose::{Derived, LayerBlend, MorphOverride, PaletteMode};

/// What the panel edits: plain data, read by the viewer every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Controls {
    pub clip: usize,
    pub playing: bool,
    pub looping: bool,
    /// Playback rate, -2..2.
    pub speed: f32,
    /// Blend two clips in step instead of playing one.
    pub blend: bool,
    pub blend_a: usize,
    pub blend_b: usize,
    /// Weight of clip B, 0..1.
    pub blend_weight: f32,
    pub crossfade_to: usize,
    /// A crossfade's length, or an inertialized transition's half-life, in real seconds.
    pub crossfade_secs: f32,
    /// Transitions inertialize instead of crossfading.
    pub inertialize: bool,
    /// The override layer: its clip over the subtrees of `layer_roots`, eased toward
    /// `layer_weight` (0 when off) with `layer_half_life`; a change of clip crossfades.
    pub layer_on: bool,
    pub layer_clip: usize,
    pub layer_roots: Vec<usize>,
    pub layer_weight: f32,
    pub layer_half_life: f32,
    /// The additive layer: its clip's difference from its first frame, at `additive_weight`.
    pub additive_on: bool,
    pub additive_clip: usize,
    pub additive_weight: f32,
    /// Drive the character by its state machine (`Viewer::machine`) instead of the clip
    /// controls.
    pub use_graph: bool,
    /// What root motion does: left in the pose, removed, applied to the movement controller,
    /// or replaced by a commanded speed (driven).
    pub move_mode: MoveMode,
    /// The root-motion joint.
    pub root_joint: Option<usize>,
    /// Driven mode's speed, in units per second along the character's heading.
    pub drive_speed: f32,
    /// Keep the camera on a travelling character.
    pub follow_camera: bool,
    /// Draw the ground (floor, step, slope, wall) and the root's trail.
    pub show_scene: bool,
    /// Plant the feet on the ground (foot IK), the legs ending at `leg_ends`.
    pub foot_ik: bool,
    pub leg_ends: Vec<usize>,
    /// Bring the chain ending at `reach_end` to `reach_target` (world space; Ctrl+drag in the
    /// view moves it).
    pub reach_ik: bool,
    pub reach_end: Option<usize>,
    /// Where the hand reaches: in the character's frame (its placement's position and heading)
    /// when `reach_follows`, else in the world.
    pub reach_target: glam::Vec3,
    /// The reach target moves with the character (Unreal's and Blender's default for a target
    /// parented to the rig); off, it stays put in the world as the character walks away.
    pub reach_follows: bool,
    pub show_mesh: bool,
    pub show_bones: bool,
    pub show_joint_names: bool,
    pub wireframe: bool,
    pub grid: bool,
    /// The key light's shadow on a solid ground, in place of the grid's lines.
    pub shadows: bool,
    /// The environment's rotation and intensity, and what the background shows; the path
    /// typed in the panel's Environment field.
    pub environment: crate::environment::EnvironmentView,
    pub environment_path: String,
    pub palette: PaletteMode,
    /// Selected skeleton joint.
    pub selected_joint: Option<usize>,
    /// What the mesh is coloured by.
    pub color_view: ColorView,
    /// Where the displacement views' heat scale turns red.
    pub color_range: crate::debug::colors::HeatRange,
    /// The last distance set for `color_range` (kept while another range is chosen).
    pub color_distance: f32,
    /// Show the `compare` palette beside the main one (left: `palette`, right: `compare`).
    pub split: bool,
    /// The palette compared with `palette` by the split view and the displacement colours.
    pub compare: PaletteMode,
    /// Play the clips compressed (`inspect --compression`'s default bound), made on first use.
    pub compressed: bool,
    /// Linear blend, dual-quaternion or weight-blended (per-joint) skinning.
    pub skinning: crate::anim::SkinningMethod,
    /// The split view's right half shows the same pose under another skinning method:
    /// `compared_skinning` (see `right_skinning`).
    pub compare_skinning: bool,
    pub compared_skinning: crate::anim::SkinningMethod,
    /// The split view's right half shows the ML deformer's reference (what it learnt).
    pub compare_ml: bool,
    /// Weight-blended skinning's per-joint method weights (0: linear blend, 1: dual
    /// quaternions), painted by subtree in the panel; "auto" (`pose::DqsJoints::Auto`) at
    /// first.
    pub joint_methods: Option<std::sync::Arc<[f32]>>,
    /// Direct delta mush's precomputation parameters (the panel's sliders).
    pub ddm: crate::deform::DdmParams,
    /// Where vertices are skinned: each pass's vertex shader, or once a frame in the skin pass
    /// (auto: the skin pass when it fits; it measured faster on lavapipe).
    pub skin_pass: crate::display::SkinPass,
    /// The split view and the displacement colours compare the same frame from the other clips
    /// (raw when playing compressed ones, compressed otherwise) instead of another palette: where
    /// the compression error lands.
    pub compare_clips: bool,
    /// Copies drawn on a grid (0: just the character), each at its own phase and weight of the
    /// blend's clips A and B.
    pub crowd: usize,
    /// Pose far crowd members every 2nd, 4th or 8th frame (`CrowdLod::for_height`).
    pub crowd_lod: bool,
    /// The path typed in the panel's file field.
    pub path: String,
    /// Show the side panel (H toggles it); hidden, the 3D view fills the window.
    pub show_panel: bool,
    /// Look through the file's camera (`Character::cameras`) instead of the orbit camera.
    pub file_camera: Option<usize>,
    /// Tone mapping (Khronos PBR Neutral by default).
    pub tone_map: crate::display::ToneMap,
    /// Exposure in stops.
    pub exposure_ev: f32,
    /// Hold the morph sliders against the clip's weights.
    pub morph_override: bool,
    /// The morph sliders: per `Character::meshes` entry, one weight per target.
    pub morph_sliders: Vec<Vec<f32>>,
    /// The external pose's source (motion capture): off, a clip on its own clock, or the live
    /// stream the viewer listens to.
    pub external: ExternalInput,
    /// How long a stopped live source takes to blend back to the animation.
    pub blend_back_secs: f32,
    /// The physics pose: off, powered or limp, its stiffness and per-subtree weights.
    pub physics: PhysicsInput,
    /// The pose drivers in use (none until a file is given), and the path typed for them.
    pub drivers: Option<std::sync::Arc<crate::pose::DriverSet>>,
    pub drivers_path: String,
    /// The XPBD muscles in use (none until loaded), the path typed for them, and whether the
    /// 3D view draws their particles.
    pub muscles: Option<std::sync::Arc<crate::pose::MuscleRig>>,
    pub muscles_path: String,
    pub show_muscles: bool,
    /// The ML deformer loaded (`None`: none), its file's path box, and whether the skin
    /// takes its corrective.
    pub ml_deformer: Option<std::sync::Arc<crate::pose::MlModel>>,
    pub ml_path: String,
    /// The Record section's settings.
    pub record: super::record::RecordControls,
    pub ml_on: bool,
    /// Motion matching steers the character (WASD or the arrows, Shift runs).
    pub motion_matching: bool,
    /// The goal's desired world velocity, set from the keys each frame.
    pub match_velocity: glam::Vec3,
    /// The goal speeds of a walk and a run, m/s.
    pub walk_speed: f32,
    pub run_speed: f32,
    /// The impulse an Alt+click gives the body it hits (mass times speed).
    pub push_impulse: f32,
    /// The address and skeleton the panel's "Listen" button listens with.
    pub mocap_address: String,
    pub mocap_skeleton: String,
}

impl Controls {
    /// Defaults for a character: playing its first clip, blending `idle` and `walk` when it has
    /// them.
    pub fn for_character(c: &Character) -> Self {
        Self::with_facts(c, &Derived::of(c))
    }

    /// `for_character` with the character's load-time facts already known.
    pub fn with_facts(c: &Character, facts: &Derived) -> Self {
        let find = |name: &str| c.clips.iter().position(|clip| clip.clip.name() == name);
        let walk = find("walk");
        Self {
            clip: walk.unwrap_or(0),
            playing: true,
            looping: true,
            speed: 1.0,
            blend: false,
            blend_a: find("idle").unwrap_or(0),
            blend_b: walk.unwrap_or(if c.clips.len() > 1 { 1 } else { 0 }),
            blend_weight: 0.5,
            crossfade_to: find("wave").unwrap_or(0),
            crossfade_secs: 0.5,
            inertialize: false,
            layer_on: false,
            layer_clip: find("wave").unwrap_or(0),
            layer_roots: facts.upper_body_roots.clone(),
            layer_weight: 1.0,
            layer_half_life: 0.15,
            additive_on: false,
            additive_clip: find("idle").unwrap_or(0),
            additive_weight: 1.0,
            use_graph: false,
            move_mode: MoveMode::Authored,
            root_joint: facts.default_root_joint,
            drive_speed: 0.8 * facts.height,
            follow_camera: true,
            show_scene: false,
            foot_ik: false,
            leg_ends: facts.legs.iter().map(|l| l.end).collect(),
            reach_ik: false,
            reach_end: facts.reach_end,
            reach_target: facts.reach_target,
            reach_follows: true,
            show_mesh: true,
            // A skeleton without a mesh (a BVH opened on its own) is its bones.
            show_bones: c.meshes.is_empty(),
            show_joint_names: false,
            wireframe: false,
            grid: true,
            shadows: false,
            environment: Default::default(),
            environment_path: String::new(),
            palette: PaletteMode::Animated,
            selected_joint: None,
            color_view: ColorView::Material,
            color_range: Default::default(),
            color_distance: 0.01 * facts.height,
            split: false,
            compare: PaletteMode::Bind,
            compressed: false,
            compare_clips: false,
            skinning: crate::anim::SkinningMethod::Linear,
            compare_skinning: false,
            compare_ml: false,
            compared_skinning: crate::anim::SkinningMethod::DualQuaternion,
            ddm: Default::default(),
            joint_methods: Some(std::sync::Arc::from(crate::pose::auto_methods(c))),
            skin_pass: crate::display::SkinPass::Auto,
            crowd: 0,
            crowd_lod: false,
            path: String::new(),
            show_panel: true,
            file_camera: None,
            tone_map: crate::display::ToneMap::KhronosNeutral,
            exposure_ev: 0.0,
            morph_override: false,
            morph_sliders: c.meshes.iter().map(|m| m.morph_weights.clone()).collect(),
            external: ExternalInput::Off,
            blend_back_secs: crate::perform::DEFAULT_BLEND_BACK_SECS,
            physics: PhysicsInput::default(),
            drivers: None,
            drivers_path: String::new(),
            muscles: None,
            muscles_path: String::new(),
            show_muscles: false,
            ml_deformer: None,
            ml_path: String::new(),
            record: Default::default(),
            ml_on: false,
            motion_matching: false,
            match_velocity: glam::Vec3::ZERO,
            walk_speed: 1.2,
            run_speed: 3.0,
            push_impulse: 20.0,
            mocap_address: "127.0.0.1:7000".into(),
            mocap_skeleton: String::new(),
        }
    }
}

/// What the split view's right half shows: one choice (the panel's "Split view, right half").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compared {
    /// No split view.
    Off,
    /// The same local pose under another palette.
    Palette(PaletteMode),
    /// The same frame from the other clips (compressed, or raw when playing compressed ones).
    OtherClips,
    /// The same pose and palette skinned by the other method.
    OtherSkinning,
    /// The same pose and palette by the ML deformer's reference (direct delta mush, or linear
    /// blend with the muscles), without its corrective.
    MlReference,
}

impl Controls {
    /// Whether the mesh is coloured by a debug view instead of its materials.
    pub fn colors_shown(&self) -> bool {
        self.color_view != ColorView::Material
    }

    /// What the split view's right half shows now.
    pub fn compared(&self) -> Compared {
        match (self.split, self.compare_clips, self.compare_skinning) {
            (false, _, _) => Compared::Off,
            _ if self.compare_ml => Compared::MlReference,
            (true, true, _) => Compared::OtherClips,
            (true, false, true) => Compared::OtherSkinning,
            (true, false, false) => Compared::Palette(self.compare),
        }
    }

    /// The skinning of the split view's right half: the one chosen, or the left's counterpart
    /// when the two would be the same.
    pub fn right_skinning(&self) -> crate::anim::SkinningMethod {
        if self.compared() == Compared::MlReference {
            return self.ml_reference_skinning();
        }
        if self.compared_skinning != self.skinning {
            self.compared_skinning
        } else {
            crate::draw::view::other_skinning(self.skinning)
        }
    }

    /// What the displacement colours compare with: the other clips, or the compared palette.
    pub fn compared_for_colours(&self) -> Compared {
        if self.compare_clips {
            Compared::OtherClips
        } else {
            Compared::Palette(self.compare)
        }
    }

    /// Chooses what the right half shows (and the displacement colours compare with, for a
    /// palette or the other clips); `Off` closes the split and keeps that comparison.
    pub fn set_compared(&mut self, compared: Compared) {
        self.split = compared != Compared::Off;
        self.compare_skinning = compared == Compared::OtherSkinning;
        self.compare_ml = compared == Compared::MlReference;
        match compared {
            Compared::Off => {}
            Compared::Palette(mode) => {
                self.compare = mode;
                self.compare_clips = false;
            }
            Compared::OtherClips => self.compare_clips = true,
            Compared::OtherSkinning | Compared::MlReference => self.compare_clips = false,
        }
    }

    /// How the ML deformer's reference skins: direct delta mush, or linear blend (under the
    /// muscles).
    pub fn ml_reference_skinning(&self) -> crate::anim::SkinningMethod {
        use crate::pose::MlReference;
        match self.ml_deformer.as_ref().map(|m| m.reference) {
            Some(MlReference::DeltaMush) => crate::anim::SkinningMethod::DeltaMush,
            _ => crate::anim::SkinningMethod::Linear,
        }
    }

    /// Whether the ML deformer on is a model of the muscles, which it stands in for.
    pub fn ml_replaces_muscles(&self) -> bool {
        self.ml_active()
            && (self.ml_deformer.as_ref())
                .is_some_and(|m| m.reference == crate::pose::MlReference::Muscles)
    }

    /// Whether the frame takes the ML deformer's corrective: one loaded and on, under linear
    /// blend (what it was trained against).
    pub fn ml_active(&self) -> bool {
        self.ml_on
            && self.ml_deformer.is_some()
            && self.skinning == crate::anim::SkinningMethod::Linear
    }
}

impl Controls {
    /// What the performer reads of these controls, for character `c` (the override and the
    /// additive layer, reach IK's one target, the morph sliders held against the clip).
    pub fn inputs(&self, c: &Character) -> Inputs {
        let Playing {
            clip,
            blend,
            use_graph,
            ..
        } = self.playing();
        let layers = vec![
            LayerInput {
                blend: LayerBlend::Override,
                clip: self.layer_clip,
                weight: if self.layer_on {
                    self.layer_weight
                } else {
                    0.0
                },
                half_life_secs: self.layer_half_life,
                roots: self.layer_roots.iter().map(|&j| (j, 1.0)).collect(),
            },
            LayerInput {
                blend: LayerBlend::Additive { reference: None },
                clip: self.additive_clip,
                weight: if self.additive_on {
                    self.additive_weight
                } else {
                    0.0
                },
                half_life_secs: self.layer_half_life,
                roots: Vec::new(),
            },
        ];
        let reach = self.reach_end.filter(|_| self.reach_ik).map(|end| Reach {
            end,
            target: self.reach_target,
            pole: None,
            follows: self.reach_follows,
        });
        Inputs {
            clip,
            playing: self.playing,
            looping: self.looping,
            speed: self.speed,
            blend,
            use_graph,
            layers,
            move_mode: self.move_mode,
            root_joint: self.root_joint,
            drive_speed: self.drive_speed,
            foot_ik: self.foot_ik,
            leg_ends: self.leg_ends.clone(),
            reach: reach.into_iter().collect(),
            palette: self.palette,
            compressed: self.compressed,
            morphs: self.morph_overrides(c),
            external: self.external,
            blend_back_secs: self.blend_back_secs,
            physics: self.physics.clone(),
            motion_matching: self.match_input(),
            drivers: self.drivers.clone(),
            joint_methods: self.joint_methods.clone(),
            muscles: (self.muscles.clone())
                .map(|rig| crate::perform::MuscleInput { rig, dynamic: true }),
            ml_deformer: self.ml_deformer.clone().filter(|_| self.ml_active()),
        }
    }

    /// Motion matching's goal, when it steers.
    pub fn match_input(&self) -> Option<crate::perform::MatchInput> {
        self.motion_matching.then_some(crate::perform::MatchInput {
            velocity: self.match_velocity,
        })
    }

    /// What plays: the clip, the in-step blend, or the state machine (the timeline's queries
    /// need nothing else).
    pub fn playing(&self) -> Playing {
        Playing {
            clip: Some(self.clip),
            blend: self.blend.then_some(BlendInput {
                a: self.blend_a,
                b: self.blend_b,
                weight: self.blend_weight,
            }),
            use_graph: self.use_graph,
            matching: self.motion_matching,
        }
    }

    /// The sliders as overrides, when the switch holds them against the clip.
    fn morph_overrides(&self, c: &Character) -> Vec<MorphOverride> {
        if !self.morph_override {
            return Vec::new();
        }
        c.meshes
            .iter()
            .zip(&self.morph_sliders)
            .flat_map(|(mesh, sliders)| {
                sliders
                    .iter()
                    .enumerate()
                    .map(|(target, &weight)| MorphOverride {
                        mesh: mesh.index,
                        target,
                        weight,
                    })
            })
            .collect()
    }

    /// The transition `UiCommand::Transition` starts: a crossfade over `crossfade_secs`, or an
    /// inertialization with that half-life.
    pub fn transition_spec(&self) -> TransitionSpec {
        let secs = self.crossfade_secs.max(0.0);
        if self.inertialize {
            TransitionSpec::Inertialize {
                half_life_secs: secs,
            }
        } else {
            TransitionSpec::Crossfade {
                duration_secs: secs,
            }
        }
    }
}
