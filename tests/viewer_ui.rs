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
    let blended = viewer.pose.local.clone();
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
    for (a, b) in blended.as_slice().iter().zip(alone.local.as_slice()) {
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
    viewer.apply(skinscope::viewer::UiCommand::Crossfade);
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
    Harness::builder()
        .with_size((1100.0, 1400.0))
        .build_ui_state(
            |ui, viewer: &mut Viewer| {
                let (commands, _) = ui::show(ui, viewer);
                viewer.frame(commands, 1.0 / 60.0);
            },
            viewer,
        )
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
