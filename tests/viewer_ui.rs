//! The viewer's panel driven as a user would (egui_kittest: clicks, drags, typing), on the
//! viewer state without a window or GPU.

mod common;

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use skinscope::app::draw_options;
use skinscope::builtin;
use skinscope::ui;
use skinscope::viewer::Viewer;

fn harness() -> Harness<'static, Viewer> {
    let viewer = Viewer::new(builtin::character().unwrap(), None);
    Harness::builder()
        .with_size((1100.0, 1400.0))
        .build_ui_state(
            |ui, viewer: &mut Viewer| {
                let (commands, _) = ui::show(ui, viewer);
                for c in commands {
                    viewer.apply(c);
                }
            },
            viewer,
        )
}

#[test]
fn toggling_bones_changes_the_render_settings() {
    let mut h = harness();
    assert!(!draw_options(&h.state().controls).bones);
    h.get_by_label("Bones").click();
    h.run();
    assert!(h.state().controls.show_bones);
    assert!(draw_options(&h.state().controls).bones);
    h.get_by_label("Wireframe").click();
    h.get_by_label("Grid").click();
    h.run();
    let o = draw_options(&h.state().controls);
    assert!(o.wireframe && !o.grid && o.mesh);
}

#[test]
fn dragging_the_timeline_moves_the_playhead() {
    let mut h = harness();
    h.get_by_label("Pause").click();
    h.run();
    assert!(!h.state().controls.playing);
    assert_eq!(h.state().time_secs(), 0.0);
    // The walk lasts 1 s: drag the time slider's handle to about three quarters of its track.
    let track = h
        .get_by_role_and_label(egui::accesskit::Role::Slider, "Time (s)")
        .rect();
    let width = 190.0; // ui::panel's slider width
    let from = egui::pos2(track.left() + 2.0, track.center().y);
    let to = egui::pos2(track.left() + 0.75 * width, track.center().y);
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    h.hover_at(to);
    h.run();
    h.drop_at(to);
    h.run();
    let t = h.state().time_secs();
    assert!((t - 0.75).abs() < 0.05, "time after the drag: {t}");
    // Stepping moves one frame (1/30 s) from there.
    h.get_by_label("Step >|").click();
    h.run();
    let stepped = h.state().time_secs();
    assert!(
        (stepped - t - 1.0 / 30.0).abs() < 1e-4,
        "{t} then {stepped}"
    );
}

#[test]
fn the_blend_slider_sets_the_weight_and_the_pose_follows() {
    let mut h = harness();
    h.get_by_label("Blend two clips (phase-aligned)").click();
    h.run();
    assert!(h.state().controls.blend);
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Weight of B")
        .set_value_accesskit(0.8);
    h.run();
    assert!((h.state().controls.blend_weight - 0.8).abs() < 1e-6);
    // Weight 1 shows clip B (walk) alone, at the blend's ratio: compare with sampling walk.
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Weight of B")
        .set_value_accesskit(1.0);
    h.run();
    let viewer = h.state_mut();
    viewer.advance(0.3);
    viewer.pose_frame();
    let blended = viewer.pose.local().clone();
    let walk = viewer.controls.blend_b;
    let ratio =
        viewer.time_secs() / viewer.character.clips[viewer.controls.blend_a].duration_secs();
    let walk_time = ratio * viewer.character.clips[walk].duration_secs();
    let mut alone = skinscope::pose::CharacterPose::new(&viewer.character);
    alone
        .evaluate(
            &viewer.character,
            &skinscope::pose::PoseRequest::clip(walk, walk_time),
        )
        .unwrap();
    for (a, b) in blended.as_slice().iter().zip(alone.local().as_slice()) {
        assert!(a.translation.abs_diff_eq(b.translation, 1e-5));
        assert!(
            a.rotation.abs_diff_eq(b.rotation, 1e-4) || a.rotation.abs_diff_eq(-b.rotation, 1e-4)
        );
    }
}

#[test]
fn opening_a_broken_file_keeps_the_character_and_lists_the_error() {
    let mut h = harness();
    let bad = common::shared_invalid("skin/ibm_invalid_count.gltf");
    h.get_by_role(egui::accesskit::Role::TextInput).click();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text(bad.to_str().unwrap());
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let viewer = h.state();
    assert_eq!(
        viewer.character.name,
        builtin::FILE_NAME,
        "the built-in character stays"
    );
    let error = viewer.load_error.clone().unwrap_or_default();
    assert!(
        error.contains("ibm_invalid_count.gltf") && error.contains("/skins/2/inverseBindMatrices"),
        "{error}"
    );
    assert!(
        h.query_by_label_contains("Could not open").is_some(),
        "the panel shows the error"
    );
    // A good file replaces it and clears the error.
    let fox = common::shared("Fox/Fox.glb");
    h.state_mut().controls.path = fox.to_str().unwrap().to_owned();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(h.state().character.name, "Fox.glb");
    assert!(h.state().load_error.is_none());
    assert!(h.query_by_label_contains("Could not open").is_none());
    assert_eq!(h.state().recent, [fox]);
}

#[test]
fn events_fire_into_the_log_as_the_walk_plays() {
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    // Walk: foot_left at 0.25 s, foot_right at 0.75 s.
    for _ in 0..30 {
        viewer.advance(1.0 / 30.0);
    }
    let names: Vec<&str> = viewer
        .event_log
        .iter()
        .rev()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(names, ["foot_left", "foot_right"]);
    // Seeking fires nothing; playing backwards over 0.25 s fires foot_left again.
    viewer.apply(skinscope::viewer::UiCommand::Seek(0.3));
    viewer.controls.speed = -1.0;
    viewer.advance(0.1);
    assert_eq!(viewer.event_log.len(), 3);
    assert_eq!(viewer.event_log[0].name, "foot_left");
}

#[test]
fn crossfade_moves_to_the_other_clip() {
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    let wave = viewer.controls.crossfade_to;
    assert_eq!(viewer.character.clips[wave].clip.name(), "wave");
    viewer.controls.crossfade_secs = 0.4;
    viewer.apply(skinscope::viewer::UiCommand::Transition);
    assert!(viewer.crossfading());
    assert_eq!(viewer.controls.clip, wave);
    viewer.advance(0.2);
    assert!(viewer.crossfading());
    viewer.advance(0.25);
    assert!(!viewer.crossfading());
    assert!((viewer.time_secs() - 0.45).abs() < 1e-5);
}

#[test]
fn the_debug_controls_set_the_colour_view_and_the_split() {
    let mut h = harness();
    h.get_by_label("Colour by").click();
    h.run();
    h.get_by_label("influence count").click();
    h.run();
    assert_eq!(
        h.state().controls.color_view,
        skinscope::debug::colors::ColorView::InfluenceCount
    );
    assert!(draw_options(&h.state().controls).vertex_colors);
    h.get_by_label("Split view, right:").click();
    h.run();
    assert!(h.state().controls.split);
    assert!(h.state().comparing());
}

#[test]
fn browse_asks_the_window_for_a_file_dialog() {
    let mut h = harness();
    h.get_by_label("Browse...").click();
    h.run();
    assert!(
        h.state()
            .window_requests
            .contains(&skinscope::viewer::WindowRequest::BrowseForFile)
    );
}

/// The panel and the viewer as the window runs them each frame: the panel, then
/// `Viewer::frame` (its commands, the clocks, the pose once).
fn window_frames() -> Harness<'static, Viewer> {
    let viewer = Viewer::new(builtin::character().unwrap(), None);
    common::window_frames(viewer, (1100.0, 1400.0))
}

/// The pose drawn is the timeline clip at the playhead, evaluated afresh.
fn assert_pose_shows_the_playhead(viewer: &Viewer, what: &str) {
    let (clip, _) = viewer.timeline_clip();
    let request = skinscope::pose::PoseRequest::clip(clip, viewer.time_secs());
    let mut expected = skinscope::pose::CharacterPose::new(&viewer.character);
    expected.evaluate(&viewer.character, &request).unwrap();
    assert_eq!(viewer.pose.palette, expected.palette, "{what}");
}

#[test]
fn the_frame_drawn_after_a_step_a_seek_or_a_clip_change_shows_the_new_time() {
    let mut h = window_frames();
    h.get_by_label("Pause").click();
    h.run();
    let before = h.state().time_secs();
    // One frame: the click's command is applied before the clocks and the pose.
    h.get_by_label("Step >|").click();
    h.step();
    let stepped = h.state().time_secs();
    assert!(
        (stepped - before - 1.0 / 30.0).abs() < 1e-5,
        "{before} then {stepped}"
    );
    assert_pose_shows_the_playhead(h.state(), "after a step");
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Time (s)")
        .set_value_accesskit(0.5);
    h.step();
    assert!((h.state().time_secs() - 0.5).abs() < 1e-5);
    assert_pose_shows_the_playhead(h.state(), "after a seek");
    h.get_by_label("Clip").click();
    h.run();
    h.get_by_label("wave (1.60 s)").click();
    h.step();
    let wave = h
        .state()
        .character
        .clips
        .iter()
        .position(|c| c.clip.name() == "wave");
    assert_eq!(h.state().timeline_clip().0, wave.unwrap());
    assert_pose_shows_the_playhead(h.state(), "after a clip change");
}

#[test]
fn a_clip_played_once_offers_play_at_its_end_and_play_restarts_it() {
    let mut h = window_frames();
    h.get_by_label("Loop").click();
    h.run();
    assert!(!h.state().controls.looping);
    // Run the walk (1 s) to its end.
    for _ in 0..5 {
        h.state_mut().frame(Vec::new(), 0.25);
    }
    h.run();
    assert!(h.state().at_end());
    assert!(h.state().controls.playing);
    h.get_by_label("Play").click();
    h.step();
    assert!(!h.state().at_end());
    assert!(h.state().time_secs() < 0.1, "{}", h.state().time_secs());
    assert!(h.state().controls.playing);
    h.run();
    assert!(h.query_by_label("Pause").is_some());
}

#[test]
fn switching_clips_keeps_the_playheads_phase() {
    let mut h = window_frames();
    h.get_by_label("Pause").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Time (s)")
        .set_value_accesskit(0.75);
    h.run();
    assert!((h.state().time_secs() - 0.75).abs() < 1e-3);
    // walk (1 s) at 75% -> wave (1.6 s) at 75%: 1.2 s, not a time clamped to either clip.
    h.get_by_label("Clip").click();
    h.run();
    h.get_by_label("wave (1.60 s)").click();
    h.run();
    let t = h.state().time_secs();
    assert!((t - 1.2).abs() < 1e-3, "{t}");
}

#[test]
fn a_crowd_set_back_to_zero_reframes_and_f_frames_the_whole_clip() {
    use skinscope::viewer::WindowRequest;
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    viewer.controls.crowd = 4;
    viewer.frame(Vec::new(), 0.0);
    viewer.window_requests.clear();
    viewer.controls.crowd = 0;
    viewer.frame(Vec::new(), 0.0);
    assert!(viewer.window_requests.contains(&WindowRequest::FrameCamera));
    // F frames the wave's whole motion: the raised arm at the top of the wave is inside.
    let wave = viewer
        .character
        .clips
        .iter()
        .position(|c| c.clip.name() == "wave")
        .unwrap();
    viewer.controls.clip = wave;
    viewer.controls.playing = false;
    viewer.frame(Vec::new(), 0.0);
    let (lo, hi) = viewer.world_bounds().unwrap();
    for k in 0..=16 {
        let t = 1.6 * k as f32 / 16.0;
        let mut pose = skinscope::pose::CharacterPose::new(&viewer.character);
        pose.evaluate(
            &viewer.character,
            &skinscope::pose::PoseRequest::clip(wave, t)
                .with_wrap(skinscope::pose::TimeWrap::Clamp),
        )
        .unwrap();
        let (a, b) = pose.world_bounds(&viewer.character).unwrap();
        let slack = 0.02 * (hi - lo).length();
        assert!(
            a.cmpge(lo - slack).all() && b.cmple(hi + slack).all(),
            "t = {t}"
        );
    }
}

#[test]
fn the_split_view_and_the_colourings_are_labelled() {
    let mut h = harness();
    h.get_by_label("Split view, right:").click();
    h.run();
    assert!(h.query_by_label("left: animated palette").is_some());
    assert!(h.query_by_label("right: bind palette").is_some());
    h.get_by_label("Colour by").click();
    h.run();
    h.get_by_label("influence count").click();
    h.run();
    for entry in [
        "1 influence",
        "4 influences",
        "more than 4 (some weight dropped)",
    ] {
        assert!(h.query_by_label(entry).is_some(), "{entry}");
    }
    h.get_by_label("Colour by").click();
    h.run();
    h.get_by_label("dominant joint").click();
    h.run();
    assert!(h.query_by_label("pelvis (palette 0)").is_some());
}

#[test]
fn a_long_error_wraps_within_the_panel() {
    let mut h = harness();
    let long = format!("/{}/missing.glb", "a_very_long_folder_name".repeat(12));
    h.state_mut().controls.path = long.clone();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    let label = h.get_by_label_contains("Could not open");
    // Within the panel (and its margins), where the unbroken path would run far beyond it.
    let panel = skinscope::ui::PANEL_WIDTH + 16.0;
    assert!(
        label.rect().width() <= panel,
        "{} wide in a {panel} panel",
        label.rect().width()
    );
}

#[test]
fn the_time_field_shows_three_decimals() {
    let mut h = harness();
    h.get_by_label("Pause").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Time (s)")
        .set_value_accesskit(0.25);
    h.run();
    // The slider's number field, as a reader sees it: always three decimals ("0.25" before).
    assert!(h.query_by_value("0.250").is_some());
}

#[test]
fn joint_names_that_would_overlap_are_skipped() {
    use egui::{Rect, pos2, vec2};
    let at = |x: f32, y: f32| Rect::from_min_size(pos2(x, y), vec2(40.0, 12.0));
    let shown = skinscope::ui::overlay::place_labels(&[
        at(0.0, 0.0),
        at(10.0, 5.0),  // on top of the first
        at(0.0, 20.0),  // clear below
        at(45.0, 0.0),  // clear beside
        at(30.0, 25.0), // over the third
    ]);
    assert_eq!(shown, [true, false, true, true, false]);
}

#[test]
fn browse_without_a_desktop_portal_says_why() {
    let problem = skinscope::app::file_dialog_problem(None).unwrap();
    assert!(problem.contains("desktop portal"), "{problem}");
    assert!(
        skinscope::app::file_dialog_problem(Some(std::ffi::OsStr::new("unix:path=/run/bus")))
            .is_none()
    );
}

#[test]
fn the_panel_plays_compressed_clips_and_compares_them() {
    let viewer = Viewer::new(builtin::character().unwrap(), None);
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    h.run();
    assert!(!h.state().pose_request().compressed);
    h.get_by_label("Play compressed clips").click();
    h.run();
    let v = h.state();
    assert!(v.pose_request().compressed);
    assert!(v.character.clips.iter().all(|k| k.compressed.is_some()));
    // The other switch now names the raw clips, and turns the comparison on them.
    h.get_by_label("Compare with the raw clips").click();
    h.run();
    assert!(h.state().controls.compare_clips);
}
