//! Legs: the chains foot IK plants (found by name, or by where the joints stand), when each foot
//! is planted in a clip (contact windows), and how far a planted foot slides.

use glam::Vec3;

use super::{CharacterPose, PaletteMode, PoseRequest, RootMotion, RootMotionMode};
use crate::anim::{Chain, Placement, RootFrame, clip_displacement};
use crate::character::Character;

/// Joint names that say "this is where a leg ends" (the built-in `foot_l`, Blender's `foot.L`,
/// Mixamo's `mixamorig:LeftFoot`, `ankle`).
const FOOT_NAMES: [&str; 2] = ["foot", "ankle"];
/// Names of the joints a quadruped's front legs end at.
const FRONT_FOOT_NAMES: [&str; 2] = ["hand", "wrist"];

/// Rest-pose world positions of every joint.
fn rest_positions(c: &Character) -> Vec<Vec3> {
    let pose = CharacterPose::at_rest(c);
    pose.model
        .as_slice()
        .iter()
        .map(|m| Vec3::from(m.translation))
        .collect()
}

/// The legs foot IK plants: chains ending at joints named like feet or ankles (and, when they
/// stand near the ground as a quadruped's do, hands or wrists); when no name says, the topmost
/// joint of each branch standing within an eighth of the character's height of the lowest
/// joint. Each chain is the end, its parent and its grandparent.
pub fn find_legs(c: &Character) -> Vec<Chain> {
    let rest = rest_positions(c);
    // Only joints a skin uses: an armature's non-joint nodes (a Z-up node at the origin) are
    // not limbs.
    let mut skinned = vec![false; rest.len()];
    for s in &c.skins {
        for p in 0..s.skin.len() {
            if let Some(j) = s.skin.joint(p).filter(|&j| j < skinned.len()) {
                skinned[j] = true;
            }
        }
    }
    let Some(lowest) = (0..rest.len())
        .filter(|&j| skinned[j])
        .map(|j| rest[j].y)
        .reduce(f32::min)
    else {
        return Vec::new();
    };
    let height = super::character_height(c).max(1e-6);
    let low = |j: usize| skinned[j] && rest[j].y <= lowest + height / 8.0;
    let named = |j: usize, names: &[&str]| {
        let n = c.skeleton.names()[j].to_ascii_lowercase();
        names.iter().any(|k| n.contains(k))
    };
    let mut ends = c.skeleton.topmost(|j| skinned[j] && named(j, &FOOT_NAMES));
    if !ends.is_empty() {
        ends.extend(
            c.skeleton
                .topmost(|j| named(j, &FRONT_FOOT_NAMES) && low(j)),
        );
    } else {
        ends = c
            .skeleton
            .topmost(|j| low(j) && c.skeleton.parent(j).is_some());
    }
    ends.sort_unstable();
    ends.iter()
        .filter_map(|&end| Chain::ending_at(&c.skeleton, end))
        .collect()
}

/// The nearest joint every chain's upper joint descends from (the pelvis of a biped).
pub fn common_ancestor(c: &Character, legs: &[Chain]) -> Option<usize> {
    let ancestors = |j: usize| {
        let mut out = Vec::new();
        let mut p = c.skeleton.parent(j);
        while let Some(a) = p {
            out.push(a);
            p = c.skeleton.parent(a);
        }
        out
    };
    let first = ancestors(legs.first()?.upper);
    first
        .into_iter()
        .find(|a| legs[1..].iter().all(|l| ancestors(l.upper).contains(a)))
}

/// Samples a clip is examined at, per second.
pub const EXAMINE_HZ: f32 = 60.0;
/// The most frames a clip is examined at: ten minutes at `EXAMINE_HZ`. A longer clip (a last key
/// at 1e7 s) is examined at this many times spread over it, so the work stays bounded.
pub const MAX_EXAMINED_FRAMES: usize = 36_000;

/// Each leg's ankle in world space at 60 Hz over one loop of `clip` (plus the end), with root
/// motion as `root` says (applied: the placement integrated from t = 0 on flat ground).
fn ankle_track(
    c: &Character,
    clip: usize,
    legs: &[Chain],
    root: Option<RootMotion>,
) -> (Vec<f32>, Vec<Vec<Vec3>>) {
    if legs.is_empty() || clip >= c.clips.len() {
        return (Vec::new(), Vec::new());
    }
    let duration = c.clips[clip].duration_secs();
    let frames = ((duration * EXAMINE_HZ).round() as usize).clamp(1, MAX_EXAMINED_FRAMES);
    let mut pose = CharacterPose::new(c);
    let mut placement = Placement::default();
    // Applied root motion moves the placement as the root travels.
    let applied = root.filter(|r| r.mode == RootMotionMode::Applied);
    let displacement = |r: RootMotion, t: f32| {
        let frame = RootFrame::of(&c.skeleton, r.joint);
        let root = (r.joint, &c.skeleton.rest()[r.joint], &frame);
        clip_displacement(&c.clips[clip].clip, root, t)
    };
    let mut before = applied.map(|r| displacement(r, 0.0));
    let (mut times, mut ankles) = (Vec::new(), vec![Vec::new(); legs.len()]);
    for k in 0..=frames {
        let t = duration * k as f32 / frames as f32;
        if let (Some(r), Some(b)) = (applied, before) {
            let now = displacement(r, t);
            let (travel, turn) = placement.step(b, now);
            placement.position += travel;
            placement.yaw += turn;
            before = Some(now);
        }
        let request = PoseRequest {
            placement,
            root_motion: root,
            wrap: super::TimeWrap::Clamp,
            ..PoseRequest::clip(clip, t).with_palette(PaletteMode::Animated)
        };
        if pose.evaluate(c, &request).is_err() {
            break;
        }
        times.push(t);
        for (leg, out) in legs.iter().zip(ankles.iter_mut()) {
            out.push(Vec3::from(pose.model.as_slice()[leg.end].translation));
        }
    }
    (times, ankles)
}

/// When each leg's foot is planted in `clip`: runs of samples where its ankle stands within
/// 2.5% of the character's height of its lowest point over the clip (clip seconds, start and
/// end). Detected from height alone, so an in-place clip (whose planted feet slide back) is
/// read the same as a travelling one.
pub fn contact_windows(c: &Character, clip: usize, legs: &[Chain]) -> Vec<Vec<(f32, f32)>> {
    let (times, ankles) = ankle_track(c, clip, legs, None);
    let tolerance = super::character_height(c) * 0.025;
    ankles
        .iter()
        .map(|track| {
            let lowest = track.iter().map(|p| p.y).fold(f32::INFINITY, f32::min);
            let mut windows: Vec<(f32, f32)> = Vec::new();
            let mut start: Option<f32> = None;
            for (p, &t) in track.iter().zip(&times) {
                match (p.y <= lowest + tolerance, start) {
                    (true, None) => start = Some(t),
                    (false, Some(s)) => {
                        windows.push((s, t));
                        start = None;
                    }
                    _ => {}
                }
            }
            if let (Some(s), Some(&end)) = (start, times.last()) {
                windows.push((s, end));
            }
            windows
        })
        .collect()
}

/// The velocity (model space, horizontal) a character playing `clip` must travel at for its
/// planted feet to stay put on average: minus their mean velocity across their contact
/// windows, root motion as authored. Near zero for a clip that travels by root motion; an
/// in-place walk's travel.
pub fn planted_feet_travel(c: &Character, clip: usize, legs: &[Chain]) -> Vec3 {
    let windows = contact_windows(c, clip, legs);
    let (times, ankles) = ankle_track(c, clip, legs, None);
    let (mut moved, mut spent) = (Vec3::ZERO, 0.0f32);
    for (track, windows) in ankles.iter().zip(&windows) {
        for k in 1..track.len() {
            let (t0, t1) = (times[k - 1], times[k]);
            if t1 > t0 && in_contact(windows, t0) && in_contact(windows, t1) {
                moved += (track[k] - track[k - 1]).with_y(0.0);
                spent += t1 - t0;
            }
        }
    }
    if spent > 0.0 {
        -moved / spent
    } else {
        Vec3::ZERO
    }
}

/// Whether clip time `t` falls in one of `windows`.
pub fn in_contact(windows: &[(f32, f32)], t: f32) -> bool {
    windows.iter().any(|&(a, b)| (a..=b).contains(&t))
}

/// How far one planted foot slides over a clip.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct FootSlide {
    /// The leg's end joint.
    pub joint: String,
    /// The largest horizontal speed of the planted ankle, units per second.
    pub worst: f32,
    /// Its mean over the contact windows.
    pub mean: f32,
    /// How far the planted ankle travels across each contact window (start to end, straight),
    /// over the windows' time: an in-place clip's ground speed, what a character playing it must
    /// travel at for the planted foot to stay put on average.
    pub travel: f32,
    /// The fraction of the clip the foot is planted.
    pub planted: f32,
}

/// Each leg's slide over one loop of `clip`: during its contact windows, the horizontal speed
/// of its ankle in world space, with root motion as `root` says (applied: the character travels
/// as its root does, as a game plays it; `None` or authored: as the clip stands).
pub fn foot_slide(
    c: &Character,
    clip: usize,
    legs: &[Chain],
    root: Option<RootMotion>,
) -> Vec<FootSlide> {
    foot_slide_during(c, clip, legs, root, &contact_windows(c, clip, legs))
}

/// `foot_slide` over given contact windows (per leg, clip seconds): a retargeted clip measured
/// while its source's feet are planted, whatever its own ankles' heights say.
pub fn foot_slide_during(
    c: &Character,
    clip: usize,
    legs: &[Chain],
    root: Option<RootMotion>,
    windows: &[Vec<(f32, f32)>],
) -> Vec<FootSlide> {
    let (times, ankles) = ankle_track(c, clip, legs, root);
    legs.iter()
        .zip(&ankles)
        .zip(windows)
        .map(|((leg, track), windows)| {
            let (mut worst, mut sum, mut n, mut planted) = (0.0f32, 0.0f32, 0usize, 0usize);
            let (mut travelled, mut spent) = (0.0f32, 0.0f32);
            let mut run_start: Option<usize> = None;
            for k in 1..track.len() {
                let (t0, t1) = (times[k - 1], times[k]);
                if !(in_contact(windows, t0) && in_contact(windows, t1)) || t1 <= t0 {
                    if let Some(first) = run_start.take() {
                        let d = (track[k - 1] - track[first]).with_y(0.0);
                        travelled += d.length();
                        spent += times[k - 1] - times[first];
                    }
                    continue;
                }
                run_start.get_or_insert(k - 1);
                let mut d = track[k] - track[k - 1];
                d.y = 0.0;
                let speed = d.length() / (t1 - t0);
                worst = worst.max(speed);
                sum += speed;
                n += 1;
                planted += 1;
            }
            FootSlide {
                joint: c.skeleton.names()[leg.end].clone(),
                worst,
                mean: if n > 0 { sum / n as f32 } else { 0.0 },
                travel: {
                    if let Some(first) = run_start {
                        let last = track.len() - 1;
                        travelled += (track[last] - track[first]).with_y(0.0).length();
                        spent += times[last] - times[first];
                    }
                    if spent > 0.0 { travelled / spent } else { 0.0 }
                },
                planted: planted as f32 / (track.len().max(2) - 1) as f32,
            }
        })
        .collect()
}
