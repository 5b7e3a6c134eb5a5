//! What the window draws over time, apart from the history: the stage ghosts (the frame posed
//! again with every stage's pose kept), the motion paths (the frame's request at other clip
//! times, kept until what they depend on changes) and the onion skins (the frame's request at
//! the ghosts' times, or, rewound, the kept frames nearest them). Each is posed only while it
//! is shown.

use super::Viewer;
use crate::draw::onion::{OnionFrames, ghost_tint, onion_times};
use crate::draw::view::LineVertex;
use crate::pose::{CharacterPose, MotionPath, PoseRequest, StagePoses, TimeWrap};

/// What a motion path was posed from: recomputed when any of it changes.
#[derive(Clone, Debug, PartialEq)]
struct PathKey {
    joints: Vec<usize>,
    times: (f32, f32),
    /// The frame's request with its clip times taken out.
    request: PoseRequest,
}

/// Where an onion skin's pose comes from: the frame's request moved in clip time, or a kept
/// frame of the history (rewound).
enum Ghost {
    At(Box<PoseRequest>),
    Kept(usize),
}

/// The over-time views' poses and lines, kept from frame to frame.
#[derive(Default)]
pub struct OverTimeState {
    stage_pose: Option<CharacterPose>,
    stages: StagePoses,
    /// Each stage's model pose in turn, while its lines are made.
    stage_model: Option<crate::anim::ModelPose>,
    /// The stage ghosts' lines (world), made after each frame posed.
    pub ghost_lines: Vec<LineVertex>,
    pub paths: Vec<MotionPath>,
    path_key: Option<PathKey>,
    ghost_poses: Vec<CharacterPose>,
    onion: OnionFrames,
    /// Whether `onion` holds this frame's ghosts.
    onion_laid: bool,
}

impl OverTimeState {
    /// The frame and its onion skins as copies, when they are shown this frame.
    pub fn onion(&self) -> Option<&OnionFrames> {
        self.onion_laid.then_some(&self.onion)
    }
}

/// The request with its clip times taken out (what a path depends on besides them).
fn without_times(request: &PoseRequest) -> PoseRequest {
    let mut r = request.offset_by(0.0, request.wrap);
    if let Some(c) = r.clip.as_mut() {
        c.time_secs = 0.0;
    }
    for layer in &mut r.layers {
        layer.clip.time_secs = 0.0;
    }
    r
}

impl Viewer {
    /// After a frame is posed (or a kept one shown): the stage ghosts, the motion paths and the
    /// onion skins that are on.
    pub(super) fn pose_over_time(&mut self) {
        let rewound = self.rewound();
        self.stage_ghosts(rewound);
        self.motion_paths(rewound);
        self.onion_skins(rewound);
    }

    fn stage_ghosts(&mut self, rewound: bool) {
        let o = &mut self.over_time;
        o.ghost_lines.clear();
        let shown = &self.controls.over_time.stage_ghosts;
        // A kept frame keeps its final pose only.
        if shown.is_empty() || rewound {
            return;
        }
        let c = &self.character;
        let pose = o.stage_pose.get_or_insert_with(|| CharacterPose::new(c));
        if let Err(e) = pose.evaluate_watched(c, &self.posed, &mut o.stages) {
            log::error!("posing the stage ghosts failed: {e}");
            return;
        }
        let width = crate::draw::view::bone_width(self.derived.rest_bounds);
        let scratch = o.stage_model.get_or_insert_with(|| pose.model.clone());
        crate::draw::ghosts::stage_ghost_lines(
            c,
            &o.stages,
            shown,
            width,
            scratch,
            &mut o.ghost_lines,
        );
    }

    /// The wrap of requests moved in clip time: looping as the playback loops.
    fn moved_wrap(&self) -> TimeWrap {
        if self.controls.playback.looping {
            TimeWrap::Loop
        } else {
            TimeWrap::Clamp
        }
    }

    fn motion_paths(&mut self, rewound: bool) {
        let p = &self.controls.over_time.paths;
        let joints: Vec<usize> = if p.joints.is_empty() {
            self.controls.selected_joint.into_iter().collect()
        } else {
            p.joints.clone()
        };
        if !p.on || rewound || joints.is_empty() || self.posed.clip.is_none() {
            self.over_time.paths.clear();
            self.over_time.path_key = None;
            return;
        }
        let c = &self.character;
        let Some(main) = self.posed.clip else {
            return;
        };
        let now = main.time_secs;
        let duration = c.clips.get(main.clip).map_or(0.0, |k| k.duration_secs());
        let (from, to) = match p.around_secs {
            Some(s) => (now - s, now + s),
            None => (0.0, duration),
        };
        let key = PathKey {
            joints: joints.clone(),
            times: (from, to),
            request: without_times(&self.posed),
        };
        if self.over_time.path_key.as_ref() == Some(&key) {
            return;
        }
        let Ok(times) = crate::pose::path_times(from, to, crate::viewer::FRAME_STEP_SECS) else {
            return;
        };
        let keys: Vec<Vec<f32>> = (joints.iter())
            .map(|&j| crate::pose::key_times(c, main.clip, j, from, to))
            .collect();
        let wrap = self.moved_wrap();
        let request_at = |t: f32| -> Result<PoseRequest, crate::anim::PoseError> {
            Ok(self.posed.offset_by(t - now, wrap))
        };
        match crate::pose::motion_paths(c, &joints, &times, &keys, request_at) {
            Ok(paths) => {
                self.over_time.paths = paths;
                self.over_time.path_key = Some(key);
            }
            Err(e) => log::error!("posing the motion paths failed: {e}"),
        }
    }

    fn onion_skins(&mut self, rewound: bool) {
        self.over_time.onion_laid = false;
        let onion = self.controls.over_time.onion;
        // One copy a view: no onion skins beside a crowd or a split view.
        let alone = self.crowd.is_none() && self.controls.compared() == super::Compared::Off;
        if !onion.on || !alone || onion.before + onion.after == 0 {
            return;
        }
        let spacing = onion.step;
        let c = &self.character;
        let sides = (onion.before, onion.after);
        let keyed = spacing == crate::draw::onion::OnionSpacing::Keys;
        // Each ghost's rank and where its pose comes from.
        let ghosts: Vec<(i32, Ghost)> = if rewound {
            // The kept frames nearest the ghosts' times, shown as they were drawn.
            let h = &self.history.history;
            let Some(k) = h.cursor() else { return };
            let now = h.get(k).map_or(0.0, |f| f.state.time_secs) as f32;
            let keys: Vec<f32> = match keyed {
                true => h.frames().map(|f| f.state.time_secs as f32).collect(),
                false => Vec::new(),
            };
            (onion_times(now, sides, spacing, &keys).into_iter())
                .filter_map(|(rank, t)| {
                    let j = h.nearest(f64::from(t)).filter(|&j| j != k)?;
                    Some((rank, Ghost::Kept(j)))
                })
                .collect()
        } else {
            let Some(main) = self.posed.clip else { return };
            let keys = match keyed {
                true => crate::pose::clip_key_times(c, main.clip),
                false => Vec::new(),
            };
            let wrap = self.moved_wrap();
            (onion_times(main.time_secs, sides, spacing, &keys).into_iter())
                .map(|(rank, t)| {
                    let request = self.posed.offset_by(t - main.time_secs, wrap);
                    (rank, Ghost::At(Box::new(request)))
                })
                .collect()
        };
        let n = ghosts.len();
        let o = &mut self.over_time;
        o.ghost_poses.truncate(n);
        while o.ghost_poses.len() < n {
            o.ghost_poses.push(CharacterPose::new(c));
        }
        let mut laid = Vec::with_capacity(n);
        for (g, ((rank, ghost), pose)) in ghosts.iter().zip(&mut o.ghost_poses).enumerate() {
            let posed = match ghost {
                Ghost::At(request) => pose.evaluate(c, request).is_ok(),
                Ghost::Kept(k) => (self.history.history.get(*k))
                    .is_some_and(|f| pose.restore(c, &f.pose, &self.posed).is_ok()),
            };
            if posed {
                let side = if *rank < 0 { onion.before } else { onion.after };
                laid.push((g, ghost_tint(*rank, side)));
            }
        }
        let poses = &o.ghost_poses;
        o.onion
            .lay(&self.pose, laid.iter().map(|&(g, tint)| (&poses[g], tint)));
        o.onion_laid = o.onion.copies() > 1;
    }
}
