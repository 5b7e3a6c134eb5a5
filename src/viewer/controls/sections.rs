//! The panel's sections' controls, one struct a section (`ui/` has one file a section).

use crate::character::Character;
use crate::debug::colors::ColorView;
use crate::graph::MoveMode;
use crate::perform::{ExternalInput, PhysicsInput};
use crate::pose::{Derived, PaletteMode};

/// The playback section's and the blend section's: the clip, play, speed, loop, the in-step blend
/// of two clips and the transition to another.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaybackControls {
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
}

/// The layers section's and the state machine's: the override and additive layers, and whether the
/// state machine chooses what plays.
#[derive(Clone, Debug, PartialEq)]
pub struct LayerControls {
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
}

/// The root motion and IK section's: what root motion does, the ground, foot IK and reach IK.
#[derive(Clone, Debug, PartialEq)]
pub struct MotionControls {
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
}

/// The view section's: what is drawn and how (mesh, bones, grid, shadows, the palette, a crowd,
/// tone mapping), the camera and the panel itself.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewControls {
    pub show_mesh: bool,
    pub show_bones: bool,
    /// The bones' shape: sticks, octahedral or each joint's axes.
    pub bone_style: crate::render::bones::BoneStyle,
    /// Axes of the selected joint only (the axes style), or over the other shapes.
    pub selected_axes: bool,
    /// Each joint's bind axes (from its inverse bind matrix) beside its posed axes.
    pub bind_axes: bool,
    pub show_joint_names: bool,
    pub wireframe: bool,
    pub grid: bool,
    /// The key light's shadow on a solid ground, in place of the grid's lines.
    pub shadows: bool,
    pub palette: PaletteMode,
    /// Copies drawn on a grid (0: just the character), each at its own phase and weight of the
    /// blend's clips A and B.
    pub crowd: usize,
    /// Pose far crowd members every 2nd, 4th or 8th frame (`CrowdLod::for_height`).
    pub crowd_lod: bool,
    /// Tone mapping (Khronos PBR Neutral by default).
    pub tone_map: crate::display::ToneMap,
    /// Exposure in stops.
    pub exposure_ev: f32,
    /// Look through the file's camera (`Character::cameras`) instead of the orbit camera.
    pub file_camera: Option<usize>,
    /// Show the side panel (H toggles it); hidden, the 3D view fills the window.
    pub show_panel: bool,
    /// The section the panel opens at start (`--open-section`): unfolded, and scrolled to for
    /// the first layouts.
    pub open_section: Option<OpenSection>,
}

/// A section of the panel, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PanelSection {
    /// The file: open, browse, add clips, recent files.
    File,
    /// The clip, play, step, speed and timeline.
    Playback,
    /// Two clips blended in step, and the transition to another.
    Blend,
    /// The external pose: a motion-capture take or live stream.
    External,
    /// The override and additive layers.
    Layers,
    /// The state machine: its state and parameters.
    StateMachine,
    /// The selected joint's rotation plotted over time.
    Plot,
    /// The history (rewind, tracks), onion skins, motion paths, stage ghosts and motion
    /// matching's candidates.
    OverTime,
    /// Root motion, the ground, foot IK and reach IK.
    Motion,
    /// Motion matching.
    Matching,
    /// Pose drivers.
    Drivers,
    /// XPBD muscles.
    Muscles,
    /// The ML deformer.
    Ml,
    /// The ragdoll.
    Physics,
    /// What is drawn: mesh, bones, names, palette, crowd, tone mapping, cameras.
    View,
    /// The HDR environment.
    Environment,
    /// Recording a GIF, PNG sequence or video.
    Record,
    /// Per-joint skinning: which joints use dual quaternions.
    PerJoint,
    /// Direct delta mush's parameters.
    Ddm,
    /// The morph targets' weights.
    Morphs,
    /// The debug colourings and the split view.
    Debug,
    /// The skinning lint on the character shown, with a Fix beside what can be repaired.
    Check,
    /// Retargeting: a source beside the character, its joint map, settings and exports.
    Retarget,
    /// The skeleton's joints.
    Skeleton,
    /// The frame's statistics.
    Stats,
    /// The events fired.
    Events,
    /// The importer's warnings.
    Problems,
}

/// The section asked for at start, and how many more layouts scroll to it (the panel settles
/// over the first frames as sections measure themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenSection {
    pub section: PanelSection,
    pub scrolls_left: u8,
}

impl OpenSection {
    /// `section`, scrolled to for the first few layouts.
    pub fn new(section: PanelSection) -> Self {
        Self {
            section,
            scrolls_left: 3,
        }
    }
}

impl ViewControls {
    /// Whether `section` is the one asked to be open.
    pub fn opens(&self, section: PanelSection) -> bool {
        self.open_section.is_some_and(|o| o.section == section)
    }
}

/// The debug section's: the mesh's colouring, the split view and what it compares, compressed
/// clips.
#[derive(Clone, Debug, PartialEq)]
pub struct DebugControls {
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
    /// The split view and the displacement colours compare the same frame from the other clips
    /// (raw when playing compressed ones, compressed otherwise) instead of another palette: where
    /// the compression error lands.
    pub compare_clips: bool,
    /// Play the clips compressed (`inspect --compression`'s default bound), made on first use.
    pub compressed: bool,
    /// The split view's right half shows the same pose under another skinning method:
    /// `compared_skinning` (see `right_skinning`).
    pub compare_skinning: bool,
    pub compared_skinning: crate::anim::SkinningMethod,
    /// The split view's right half shows the ML deformer's reference (what it learnt).
    pub compare_ml: bool,
}

/// How the skin is deformed: the method, the per-joint methods, direct delta mush's parameters and
/// where vertices are skinned.
#[derive(Clone, Debug, PartialEq)]
pub struct SkinningControls {
    /// Linear blend, dual-quaternion or weight-blended (per-joint) skinning.
    pub method: crate::anim::SkinningMethod,
    /// Weight-blended skinning's per-joint method weights (0: linear blend, 1: dual
    /// quaternions), painted by subtree in the panel; "auto" (`pose::DqsJoints::Auto`) at
    /// first.
    pub joint_methods: Option<std::sync::Arc<[f32]>>,
    /// Direct delta mush's precomputation parameters (the panel's sliders).
    pub ddm: crate::deform::DdmParams,
    /// Where vertices are skinned: each pass's vertex shader, or once a frame in the skin pass
    /// (auto: the skin pass when it fits; it measured faster on lavapipe).
    pub skin_pass: crate::display::SkinPass,
}

/// The environment section's: the environment's view and the path typed for it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EnvironmentControls {
    /// The environment's rotation and intensity, and what the background shows; the path
    /// typed in the panel's Environment field.
    pub view: crate::environment::EnvironmentView,
    pub path: String,
}

/// The morph section's: the sliders and whether they hold against the clip.
#[derive(Clone, Debug, PartialEq)]
pub struct MorphControls {
    /// Hold the morph sliders against the clip's weights.
    pub hold: bool,
    /// The morph sliders: per `Character::meshes` entry, one weight per target.
    pub sliders: Vec<Vec<f32>>,
}

/// The external pose section's (motion capture).
#[derive(Clone, Debug, PartialEq)]
pub struct MocapControls {
    /// The external pose's source (motion capture): off, a clip on its own clock, or the live
    /// stream the viewer listens to.
    pub external: ExternalInput,
    /// How long a stopped live source takes to blend back to the animation.
    pub blend_back_secs: f32,
    /// The address and skeleton the panel's "Listen" button listens with.
    pub address: String,
    pub skeleton: String,
}

/// The physics section's (the ragdoll).
#[derive(Clone, Debug, PartialEq)]
pub struct PhysicsControls {
    /// The physics pose: off, powered or limp, its stiffness and per-subtree weights.
    pub input: PhysicsInput,
    /// The impulse an Alt+click gives the body it hits (mass times speed).
    pub push_impulse: f32,
}

/// The pose drivers section's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DriverControls {
    /// The pose drivers in use (none until a file is given), and the path typed for them.
    pub set: Option<std::sync::Arc<crate::pose::DriverSet>>,
    pub path: String,
}

/// The muscles section's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MuscleControls {
    /// The XPBD muscles in use (none until loaded), the path typed for them, and whether the
    /// 3D view draws their particles.
    pub rig: Option<std::sync::Arc<crate::pose::MuscleRig>>,
    pub path: String,
    pub show: bool,
}

/// The ML deformer section's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MlControls {
    /// The ML deformer loaded (`None`: none), its file's path box, and whether the skin
    /// takes its corrective.
    pub model: Option<std::sync::Arc<crate::pose::MlModel>>,
    pub path: String,
    pub on: bool,
}

/// The motion matching section's.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchingControls {
    /// Motion matching steers the character (WASD or the arrows, Shift runs).
    pub on: bool,
    /// The goal's desired world velocity, set from the keys each frame.
    pub velocity: glam::Vec3,
    /// The goal speeds of a walk and a run, m/s.
    pub walk_speed: f32,
    pub run_speed: f32,
}

impl PlaybackControls {
    /// The defaults for the character's.
    pub(super) fn new(c: &Character) -> Self {
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
        }
    }
}

impl LayerControls {
    /// The defaults for the character and its load-time facts.
    pub(super) fn new(c: &Character, facts: &Derived) -> Self {
        let find = |name: &str| c.clips.iter().position(|clip| clip.clip.name() == name);
        Self {
            layer_on: false,
            layer_clip: find("wave").unwrap_or(0),
            layer_roots: facts.upper_body_roots.clone(),
            layer_weight: 1.0,
            layer_half_life: 0.15,
            additive_on: false,
            additive_clip: find("idle").unwrap_or(0),
            additive_weight: 1.0,
            use_graph: false,
        }
    }
}

impl MotionControls {
    /// The defaults for the character's load-time facts.
    pub(super) fn new(facts: &Derived) -> Self {
        Self {
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
        }
    }
}

impl ViewControls {
    /// How the bones are drawn, `selected` the selected joint (`None` when they are hidden).
    pub fn bone_view(&self, selected: Option<usize>) -> Option<crate::draw::view::BoneView> {
        self.show_bones.then(|| crate::draw::view::BoneView {
            style: self.bone_style,
            axes: crate::render::bones::AxesOptions {
                only: selected.filter(|_| self.selected_axes),
                bind: self.bind_axes,
            },
        })
    }

    /// The defaults for the character's.
    pub(super) fn new(c: &Character) -> Self {
        Self {
            show_mesh: true,
            // A skeleton without a mesh (a BVH opened on its own) is its bones.
            show_bones: c.meshes.is_empty(),
            bone_style: Default::default(),
            selected_axes: false,
            bind_axes: false,
            show_joint_names: false,
            wireframe: false,
            grid: true,
            shadows: false,
            palette: PaletteMode::Animated,
            crowd: 0,
            crowd_lod: false,
            tone_map: crate::display::ToneMap::KhronosNeutral,
            exposure_ev: 0.0,
            file_camera: None,
            show_panel: true,
            open_section: None,
        }
    }
}

impl DebugControls {
    /// The defaults for the character's load-time facts.
    pub(super) fn new(facts: &Derived) -> Self {
        Self {
            color_view: ColorView::Material,
            color_range: Default::default(),
            color_distance: 0.01 * facts.height,
            split: false,
            compare: PaletteMode::Bind,
            compare_clips: false,
            compressed: false,
            compare_skinning: false,
            compared_skinning: crate::anim::SkinningMethod::DualQuaternion,
            compare_ml: false,
        }
    }
}

impl SkinningControls {
    /// The defaults for the character's.
    pub(super) fn new(c: &Character) -> Self {
        Self {
            method: crate::anim::SkinningMethod::Linear,
            joint_methods: Some(std::sync::Arc::from(crate::pose::auto_methods(c))),
            ddm: Default::default(),
            skin_pass: crate::display::SkinPass::Auto,
        }
    }
}

impl MorphControls {
    /// The defaults for the character's.
    pub(super) fn new(c: &Character) -> Self {
        Self {
            hold: false,
            sliders: c.meshes.iter().map(|m| m.morph_weights.clone()).collect(),
        }
    }
}

impl Default for MocapControls {
    fn default() -> Self {
        Self {
            external: ExternalInput::Off,
            blend_back_secs: crate::perform::DEFAULT_BLEND_BACK_SECS,
            address: "127.0.0.1:7000".into(),
            skeleton: String::new(),
        }
    }
}

impl Default for PhysicsControls {
    fn default() -> Self {
        Self {
            input: PhysicsInput::default(),
            push_impulse: 20.0,
        }
    }
}

impl Default for MatchingControls {
    fn default() -> Self {
        Self {
            on: false,
            velocity: glam::Vec3::ZERO,
            walk_speed: 1.2,
            run_speed: 3.0,
        }
    }
}
