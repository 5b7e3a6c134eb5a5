//! The window's over-time views: stage ghosts, motion paths and onion skins, each posed only
//! while shown and each the frame the command line poses at that time; motion matching's
//! candidates listed per search.

use crate::common;

use common::skinscope;
use glam::Vec3;
use skinscope::draw::onion::OnionSpacing;
use skinscope::pose::Stage;
use skinscope::viewer::Viewer;
use skinscope_testkit::world_from_joint;

const DT: f32 = 1.0 / 60.0;

/// The built-in character paused on the walk at `t`.
fn paused_at(t: f32) -> Viewer {
    let c = skinscope::builtin::character().unwrap();
    let mut viewer = Viewer::new(c, None);
    viewer.controls.playback.clip = viewer.character.find_clip("walk").unwrap();
    viewer.controls.playback.playing = false;
    viewer.frame(vec![skinscope::viewer::UiCommand::Seek(t)], DT);
    viewer
}

fn palette_joint(args: &[&str], joint: &str) -> Vec3 {
    let mut all = vec!["palette", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = skinscope(&all);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    world_from_joint(&v, joint).w_axis.truncate()
}

#[test]
fn each_view_costs_nothing_while_off() {
    let mut viewer = paused_at(0.4);
    viewer.frame(Vec::new(), DT);
    assert!(viewer.over_time.ghost_lines.is_empty());
    assert!(viewer.over_time.paths.is_empty());
    assert!(viewer.over_time.onion().is_none());
}

#[test]
fn the_window_paths_are_the_joints_as_palette_poses_them() {
    let mut viewer = paused_at(0.4);
    let hand = viewer.character.skeleton.find("hand_r").unwrap();
    viewer.controls.selected_joint = Some(hand);
    viewer.controls.over_time.paths.on = true;
    viewer.frame(Vec::new(), DT);
    let paths = &viewer.over_time.paths;
    assert_eq!(paths.len(), 1);
    let samples = &paths[0].samples;
    let duration = viewer.character.clips[1].duration_secs();
    assert!((samples.last().unwrap().time_secs - duration).abs() < 1e-6);
    for s in [&samples[3], &samples[samples.len() / 2]] {
        let t = format!("{}", s.time_secs);
        let expected = palette_joint(&["--clip", "walk", "--time", &t], "hand_r");
        assert!(
            s.position().distance(expected) < 1e-4,
            "{t}: {} {expected}",
            s.position()
        );
    }
    // Paths are lines in the overlay.
    let lines = viewer.overlay_lines().len();
    assert!(lines >= 2 * samples.len() - 1, "{lines}");
}

#[test]
fn stage_ghosts_draw_the_raw_pose_under_a_layer() {
    let mut viewer = paused_at(0.4);
    viewer.controls.layers.layer_on = true;
    viewer.controls.layers.layer_weight = 1.0;
    viewer.controls.over_time.stage_ghosts = vec![Stage::Raw];
    viewer.frame(Vec::new(), DT);
    let ghost = &viewer.over_time.ghost_lines;
    assert!(!ghost.is_empty());
    let color = skinscope::draw::ghosts::stage_color(Stage::Raw);
    assert!(ghost.iter().all(|v| v.color == color));
    // The raw pose is the walk without the layer: its right hand where the plain walk has it.
    let hand = palette_joint(&["--clip", "walk", "--time", "0.4"], "hand_r");
    let nearest = ghost
        .iter()
        .map(|v| Vec3::from(v.position).distance(hand))
        .fold(f32::MAX, f32::min);
    assert!(
        nearest < 0.05,
        "no ghost bone ends near the raw hand: {nearest}"
    );
}

#[test]
fn onion_skins_are_the_frames_at_their_times() {
    let mut viewer = paused_at(0.5);
    let o = &mut viewer.controls.over_time.onion;
    o.on = true;
    (o.before, o.after) = (2, 1);
    o.step = OnionSpacing::Seconds(0.2);
    viewer.frame(Vec::new(), DT);
    let onion = viewer.over_time.onion().expect("onion skins laid");
    assert_eq!(onion.copies(), 4);
    let posed = onion.posed(&viewer.pose);
    assert_eq!(posed.tints.len(), 3);
    // Copy 1 is the nearest ghost before: the frame at 0.3 s.
    let stride = posed.palette_stride;
    let at_03 = {
        let c = &viewer.character;
        let mut p = skinscope::pose::CharacterPose::new(c);
        let request = viewer
            .posed
            .offset_by(-0.2, skinscope::pose::TimeWrap::Loop);
        p.evaluate(c, &request).unwrap();
        p.palette
    };
    assert_eq!(&posed.palette[stride..2 * stride], &at_03[..]);
    assert!(posed.tints[0][0] > posed.tints[0][2], "before is warm");
    assert!(posed.tints[2][2] > posed.tints[2][0], "after is cool");
    // A split view draws one copy a half: no onion skins beside it.
    viewer.controls.debug.split = true;
    viewer.frame(Vec::new(), DT);
    assert!(viewer.over_time.onion().is_none());
}

#[test]
fn a_rewound_frames_onion_skins_are_the_kept_frames_nearest_them() {
    let c = skinscope::builtin::character().unwrap();
    let mut viewer = Viewer::new(c, None);
    let mut palettes = Vec::new();
    for _ in 0..30 {
        viewer.frame(Vec::new(), DT);
        palettes.push(viewer.pose.palette.clone());
    }
    let o = &mut viewer.controls.over_time.onion;
    o.on = true;
    (o.before, o.after) = (1, 1);
    o.step = OnionSpacing::Frames(2);
    use skinscope::viewer::{HistoryCommand, UiCommand};
    viewer.frame(vec![UiCommand::History(HistoryCommand::RewindTo(15))], DT);
    let onion = viewer
        .over_time
        .onion()
        .expect("onion skins of a kept frame");
    let posed = onion.posed(&viewer.pose);
    let stride = posed.palette_stride;
    // 2 frames of 1/30 s: 4 kept frames of 1/60 s either side.
    assert_eq!(&posed.palette[stride..2 * stride], &palettes[11][..]);
    assert_eq!(&posed.palette[2 * stride..3 * stride], &palettes[19][..]);
}
