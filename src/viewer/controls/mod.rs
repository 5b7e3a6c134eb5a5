//! What the panel edits (`Controls`): plain data the viewer reads every frame, the one
//! choice of what a split view compares (`Compared`), and the performer's `Inputs` they give.

mod over_time;
mod sections;

pub use over_time::{OnionSkins, OverTimeControls, PathControls};

pub use sections::{
    DebugControls, DriverControls, EnvironmentControls, LayerControls, MatchingControls,
    MlControls, MocapControls, MorphControls, MotionControls, MuscleControls, OpenSection,
    PanelSection, PhysicsControls, PlaybackControls, SkinningControls, ViewControls,
};

use crate::character::Character;
use crate::debug::colors::ColorView;
use crate::graph::TransitionSpec;
use crate::perform::{BlendInput, Inputs, LayerInput, Playing, Reach};
use crate::pose::{Derived, LayerBlend, MorphOverride, PaletteMode};

/// What the panel edits: plain data, read by the viewer every frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Controls {
    pub playback: PlaybackControls,
    pub layers: LayerControls,
    pub motion: MotionControls,
    pub view: ViewControls,
    pub debug: DebugControls,
    /// The history, onion skins, motion paths and stage ghosts.
    pub over_time: OverTimeControls,
    pub skinning: SkinningControls,
    pub environment: EnvironmentControls,
    pub morphs: MorphControls,
    pub mocap: MocapControls,
    pub physics: PhysicsControls,
    pub drivers: DriverControls,
    pub muscles: MuscleControls,
    pub ml: MlControls,
    pub matching: MatchingControls,
    /// Selected skeleton joint.
    pub selected_joint: Option<usize>,
    /// The path typed in the panel's file field.
    pub path: String,
    /// Where the check and fix section saves a repaired file.
    pub repair_path: String,
    /// The panel's retargeting: the source's path, the map file's, where the character is
    /// saved, and whether the retarget pose is drawn over the source.
    pub retarget_source: String,
    pub retarget_map_path: String,
    pub retarget_save_path: String,
    pub retarget_overlay: bool,
    /// The Record section's settings.
    pub record: super::record::RecordControls,
}

impl Controls {
    /// Defaults for a character: playing its first clip, blending `idle` and `walk` when it has
    /// them.
    pub fn for_character(c: &Character) -> Self {
        Self::with_facts(c, &Derived::of(c))
    }

    /// `for_character` with the character's load-time facts already known.
    pub fn with_facts(c: &Character, facts: &Derived) -> Self {
        Self {
            playback: PlaybackControls::new(c),
            layers: LayerControls::new(c, facts),
            motion: MotionControls::new(facts),
            view: ViewControls::new(c),
            debug: DebugControls::new(facts),
            over_time: OverTimeControls::default(),
            skinning: SkinningControls::new(c),
            environment: EnvironmentControls::default(),
            morphs: MorphControls::new(c),
            mocap: MocapControls::default(),
            physics: PhysicsControls::default(),
            drivers: DriverControls::default(),
            muscles: MuscleControls::default(),
            ml: MlControls::default(),
            matching: MatchingControls::default(),
            selected_joint: None,
            path: String::new(),
            repair_path: String::new(),
            retarget_source: String::new(),
            retarget_map_path: String::new(),
            retarget_save_path: String::new(),
            retarget_overlay: false,
            record: Default::default(),
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
        self.debug.color_view != ColorView::Material
    }

    /// What the split view's right half shows now.
    pub fn compared(&self) -> Compared {
        match (
            self.debug.split,
            self.debug.compare_clips,
            self.debug.compare_skinning,
        ) {
            (false, _, _) => Compared::Off,
            _ if self.debug.compare_ml => Compared::MlReference,
            (true, true, _) => Compared::OtherClips,
            (true, false, true) => Compared::OtherSkinning,
            (true, false, false) => Compared::Palette(self.debug.compare),
        }
    }

    /// The skinning of the split view's right half: the one chosen, or the left's counterpart
    /// when the two would be the same.
    pub fn right_skinning(&self) -> crate::anim::SkinningMethod {
        if self.compared() == Compared::MlReference {
            return self.ml_reference_skinning();
        }
        if self.debug.compared_skinning != self.skinning.method {
            self.debug.compared_skinning
        } else {
            crate::draw::view::other_skinning(self.skinning.method)
        }
    }

    /// What the displacement colours compare with: the other clips, or the compared palette.
    pub fn compared_for_colours(&self) -> Compared {
        if self.debug.compare_clips {
            Compared::OtherClips
        } else {
            Compared::Palette(self.debug.compare)
        }
    }

    /// Chooses what the right half shows (and the displacement colours compare with, for a
    /// palette or the other clips); `Off` closes the split and keeps that comparison.
    pub fn set_compared(&mut self, compared: Compared) {
        self.debug.split = compared != Compared::Off;
        self.debug.compare_skinning = compared == Compared::OtherSkinning;
        self.debug.compare_ml = compared == Compared::MlReference;
        match compared {
            Compared::Off => {}
            Compared::Palette(mode) => {
                self.debug.compare = mode;
                self.debug.compare_clips = false;
            }
            Compared::OtherClips => self.debug.compare_clips = true,
            Compared::OtherSkinning | Compared::MlReference => self.debug.compare_clips = false,
        }
    }

    /// How the ML deformer's reference skins: direct delta mush, or linear blend (under the
    /// muscles).
    pub fn ml_reference_skinning(&self) -> crate::anim::SkinningMethod {
        use crate::pose::MlReference;
        match self.ml.model.as_ref().map(|m| m.reference) {
            Some(MlReference::DeltaMush) => crate::anim::SkinningMethod::DeltaMush,
            _ => crate::anim::SkinningMethod::Linear,
        }
    }

    /// Whether the ML deformer on is a model of the muscles, which it stands in for.
    pub fn ml_replaces_muscles(&self) -> bool {
        self.ml_active()
            && (self.ml.model.as_ref())
                .is_some_and(|m| m.reference == crate::pose::MlReference::Muscles)
    }

    /// Whether the frame takes the ML deformer's corrective: one loaded and on, under linear
    /// blend (what it was trained against).
    pub fn ml_active(&self) -> bool {
        self.ml.on
            && self.ml.model.is_some()
            && self.skinning.method == crate::anim::SkinningMethod::Linear
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
                clip: self.layers.layer_clip,
                weight: if self.layers.layer_on {
                    self.layers.layer_weight
                } else {
                    0.0
                },
                half_life_secs: self.layers.layer_half_life,
                roots: self.layers.layer_roots.iter().map(|&j| (j, 1.0)).collect(),
            },
            LayerInput {
                blend: LayerBlend::Additive { reference: None },
                clip: self.layers.additive_clip,
                weight: if self.layers.additive_on {
                    self.layers.additive_weight
                } else {
                    0.0
                },
                half_life_secs: self.layers.layer_half_life,
                roots: Vec::new(),
            },
        ];
        let reach = self
            .motion
            .reach_end
            .filter(|_| self.motion.reach_ik)
            .map(|end| Reach {
                end,
                target: self.motion.reach_target,
                pole: None,
                follows: self.motion.reach_follows,
            });
        Inputs {
            clip,
            playing: self.playback.playing,
            looping: self.playback.looping,
            speed: self.playback.speed,
            blend,
            use_graph,
            layers,
            move_mode: self.motion.move_mode,
            root_joint: self.motion.root_joint,
            drive_speed: self.motion.drive_speed,
            foot_ik: self.motion.foot_ik,
            leg_ends: self.motion.leg_ends.clone(),
            reach: reach.into_iter().collect(),
            palette: self.view.palette,
            compressed: self.debug.compressed,
            morphs: self.morph_overrides(c),
            external: self.mocap.external,
            blend_back_secs: self.mocap.blend_back_secs,
            physics: self.physics.input.clone(),
            motion_matching: self.match_input(),
            drivers: self.drivers.set.clone(),
            joint_methods: self.skinning.joint_methods.clone(),
            muscles: (self.muscles.rig.clone())
                .map(|rig| crate::perform::MuscleInput { rig, dynamic: true }),
            ml_deformer: self.ml.model.clone().filter(|_| self.ml_active()),
        }
    }

    /// Motion matching's goal, when it steers.
    pub fn match_input(&self) -> Option<crate::perform::MatchInput> {
        self.matching.on.then_some(crate::perform::MatchInput {
            velocity: self.matching.velocity,
        })
    }

    /// What plays: the clip, the in-step blend, or the state machine (the timeline's queries
    /// need nothing else).
    pub fn playing(&self) -> Playing {
        Playing {
            clip: Some(self.playback.clip),
            blend: self.playback.blend.then_some(BlendInput {
                a: self.playback.blend_a,
                b: self.playback.blend_b,
                weight: self.playback.blend_weight,
            }),
            use_graph: self.layers.use_graph,
            matching: self.matching.on,
        }
    }

    /// The sliders as overrides, when the switch holds them against the clip.
    fn morph_overrides(&self, c: &Character) -> Vec<MorphOverride> {
        if !self.morphs.hold {
            return Vec::new();
        }
        c.meshes
            .iter()
            .zip(&self.morphs.sliders)
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
        let secs = self.playback.crossfade_secs.max(0.0);
        if self.playback.inertialize {
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
