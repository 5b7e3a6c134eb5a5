//! The viewer's panel driven as a user would (egui_kittest: clicks, drags, typing), on the
//! viewer state without a window or GPU.

use crate::common;

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
    assert!(h.state().controls.view.show_bones);
    assert!(draw_options(&h.state().controls).bones);
    h.get_by_label("Wireframe").click();
    h.get_by_label("Grid").click();
    h.run();
    let o = draw_options(&h.state().controls);
    assert!(o.wireframe && !o.grid && o.mesh && !o.shadows);
    // The shadows' switch: the solid ground and the key light's shadow.
    h.get_by_label("Shadows").click();
    h.run();
    assert!(draw_options(&h.state().controls).shadows);
}

#[test]
fn the_skin_in_switch_chooses_where_vertices_are_skinned() {
    use skinscope::render::renderer::SkinPass;
    let mut h = harness();
    assert_eq!(draw_options(&h.state().controls).skin_pass, SkinPass::Auto);
    h.get_by_label("vertex shader").click();
    h.run();
    assert_eq!(
        draw_options(&h.state().controls).skin_pass,
        SkinPass::Vertex
    );
    h.get_by_label("compute pass").click();
    h.run();
    assert_eq!(
        draw_options(&h.state().controls).skin_pass,
        SkinPass::Compute
    );
}

#[test]
fn dragging_the_timeline_moves_the_playhead() {
    let mut h = harness();
    h.get_by_label("Pause").click();
    h.run();
    assert!(!h.state().controls.playback.playing);
    assert_eq!(h.state().time_secs(), 0.0);
    // The walk lasts 1 s: drag the time slider's handle to about three quarters of its track.
    let track = h
        .get_by_role_and_label(egui::accesskit::Role::Slider, "Time (s)")
        .rect();
    let width = ui::SLIDER_WIDTH;
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
    assert!(h.state().controls.playback.blend);
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Weight of B")
        .set_value_accesskit(0.8);
    h.run();
    assert!((h.state().controls.playback.blend_weight - 0.8).abs() < 1e-6);
    // Weight 1 shows clip B (walk) alone, at the blend's ratio: compare with sampling walk.
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "Weight of B")
        .set_value_accesskit(1.0);
    h.run();
    let viewer = h.state_mut();
    viewer.advance(0.3);
    viewer.pose_frame();
    let blended = viewer.pose.local().clone();
    let walk = viewer.controls.playback.blend_b;
    let ratio = viewer.time_secs()
        / viewer.character.clips[viewer.controls.playback.blend_a].duration_secs();
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
    viewer.controls.playback.speed = -1.0;
    viewer.advance(0.1);
    assert_eq!(viewer.event_log.len(), 3);
    assert_eq!(viewer.event_log[0].name, "foot_left");
}

#[test]
fn crossfade_moves_to_the_other_clip() {
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    let wave = viewer.controls.playback.crossfade_to;
    assert_eq!(viewer.character.clips[wave].clip.name(), "wave");
    viewer.controls.playback.crossfade_secs = 0.4;
    viewer.apply(skinscope::viewer::UiCommand::Transition);
    assert!(viewer.crossfading());
    assert_eq!(viewer.controls.playback.clip, wave);
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
        h.state().controls.debug.color_view,
        skinscope::debug::colors::ColorView::InfluenceCount
    );
    assert!(draw_options(&h.state().controls).vertex_colors);
    h.get_by_label("Split view, right half").click();
    h.run();
    h.get_by_label("bind palette").click();
    h.run();
    assert!(h.state().controls.debug.split);
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
    // "Add clips from..." asks for a dialog whose file's clips are added, not opened.
    h.get_by_label("Add clips from...").click();
    h.run();
    assert!(
        h.state()
            .window_requests
            .contains(&skinscope::viewer::WindowRequest::BrowseForClips)
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
    assert!(!h.state().controls.playback.looping);
    // Run the walk (1 s) to its end.
    for _ in 0..5 {
        h.state_mut().frame(Vec::new(), 0.25);
    }
    h.run();
    assert!(h.state().at_end());
    assert!(h.state().controls.playback.playing);
    h.get_by_label("Play").click();
    h.step();
    assert!(!h.state().at_end());
    assert!(h.state().time_secs() < 0.1, "{}", h.state().time_secs());
    assert!(h.state().controls.playback.playing);
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
    viewer.controls.view.crowd = 4;
    viewer.frame(Vec::new(), 0.0);
    viewer.window_requests.clear();
    viewer.controls.view.crowd = 0;
    viewer.frame(Vec::new(), 0.0);
    assert!(viewer.window_requests.contains(&WindowRequest::FrameCamera));
    // F frames the wave's whole motion: the raised arm at the top of the wave is inside.
    let wave = viewer
        .character
        .clips
        .iter()
        .position(|c| c.clip.name() == "wave")
        .unwrap();
    viewer.controls.playback.clip = wave;
    viewer.controls.playback.playing = false;
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
    h.get_by_label("Split view, right half").click();
    h.run();
    h.get_by_label("bind palette").click();
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
        "more than 4 (drawn; a 4-influence engine drops some)",
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
    // The split view's choice now names the raw clips, and turns the comparison on them.
    h.get_by_label("Split view, right half").click();
    h.run();
    h.get_by_label("the raw clips").click();
    h.run();
    assert!(h.state().controls.debug.compare_clips);
    assert!(h.state().controls.debug.split);
}

#[test]
fn one_choice_sets_what_the_split_view_s_right_half_shows_and_its_label_says_it() {
    use skinscope::viewer::Compared;
    let mut h = harness();
    let choose = |h: &mut Harness<'_, Viewer>, entry: &str| {
        h.get_by_label("Split view, right half").click();
        h.run();
        h.get_by_label(entry).click();
        h.run();
    };
    // The other skinning needs nothing else ticked: the split opens on it.
    choose(&mut h, "dual-quaternion skinning");
    let c = &h.state().controls;
    assert_eq!(c.compared(), Compared::OtherSkinning);
    assert!(c.debug.split && c.debug.compare_skinning && !c.debug.compare_clips);
    assert!(h.state().comparing());
    assert!(
        h.query_by_label("left: animated palette, linear blend skinning")
            .is_some()
    );
    assert!(
        h.query_by_label("right: animated palette, dual-quaternion skinning")
            .is_some()
    );
    // A palette replaces it (one choice at a time), and off closes the split.
    choose(&mut h, "identity palette");
    let c = &h.state().controls;
    assert_eq!(
        c.compared(),
        Compared::Palette(skinscope::pose::PaletteMode::Identity)
    );
    assert!(!c.debug.compare_skinning);
    assert!(h.query_by_label("right: identity palette").is_some());
    choose(&mut h, "off");
    assert_eq!(h.state().controls.compared(), Compared::Off);
    assert!(!h.state().comparing());
    assert!(h.query_by_label("right: identity palette").is_none());
}

#[test]
fn a_crossfade_runs_on_real_time_whatever_the_playback_speed() {
    // A 0.4 s crossfade at half speed is over after 0.45 s of real time (not 0.8 s), and the
    // incoming clip has played half of that.
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    viewer.controls.playback.speed = 0.5;
    viewer.controls.playback.crossfade_secs = 0.4;
    viewer.apply(skinscope::viewer::UiCommand::Transition);
    viewer.advance(0.2);
    assert_eq!(viewer.transition_progress(), Some((false, 0.5)));
    viewer.advance(0.25);
    assert!(!viewer.crossfading());
    assert!((viewer.time_secs() - 0.225).abs() < 1e-5);
}

#[test]
fn the_panel_switches_transitions_to_inertialization() {
    let mut h = harness();
    h.get_by_label("inertialize").click();
    h.run();
    assert!(h.state().controls.playback.inertialize);
    h.get_by_label("Inertialize").click();
    h.run();
    assert_eq!(h.state().transition_progress(), Some((true, 0.0)));
    // Half-life 0.5 s (the panel's default duration): half the offset is gone after 0.5 s.
    h.state_mut().frame(Vec::new(), 0.5);
    let (inertial, progress) = h.state().transition_progress().unwrap();
    assert!(inertial && (progress - 0.5).abs() < 1e-6, "{progress}");
    let q = h.state().pose.local().as_slice()[0].rotation;
    assert!(q.is_normalized());
}

#[test]
fn the_override_layer_eases_in_and_drives_only_its_mask() {
    let mut viewer = Viewer::new(builtin::character().unwrap(), None);
    let c = &viewer.character;
    let names = |roots: &[usize]| -> Vec<String> {
        roots
            .iter()
            .map(|&j| c.skeleton.names()[j].clone())
            .collect()
    };
    assert_eq!(
        names(&viewer.controls.layers.layer_roots),
        ["clavicle_l", "clavicle_r"]
    );
    assert_eq!(
        viewer.character.clips[viewer.controls.layers.layer_clip]
            .clip
            .name(),
        "wave"
    );
    viewer.controls.layers.layer_on = true;
    viewer.controls.layers.layer_half_life = 0.1;
    viewer.frame(Vec::new(), 0.1);
    assert!((viewer.layer_weight() - 0.5).abs() < 1e-5);
    viewer.frame(Vec::new(), 0.1);
    assert!((viewer.layer_weight() - 0.75).abs() < 1e-5);
    // The legs are the walk's; the right arm is neither walk's nor wave's while easing in.
    let request = viewer.pose_request();
    assert_eq!(request.layers.len(), 1);
    let mut walk_only = request.clone();
    walk_only.layers.clear();
    let mut plain = skinscope::pose::CharacterPose::new(&viewer.character);
    plain.evaluate(&viewer.character, &walk_only).unwrap();
    let thigh = viewer.character.skeleton.find("thigh_l").unwrap();
    let arm = viewer.character.skeleton.find("upperarm_r").unwrap();
    assert_eq!(
        viewer.pose.local().as_slice()[thigh],
        plain.local().as_slice()[thigh]
    );
    assert_ne!(
        viewer.pose.local().as_slice()[arm],
        plain.local().as_slice()[arm]
    );
    // The angle plot records a point a frame.
    assert_eq!(viewer.angle_plot.len(), 2);
}

#[test]
fn the_state_machine_panel_drives_the_character() {
    let mut h = harness();
    h.get_by_label("Drive by the state machine").click();
    h.run();
    assert!(h.state().graph_driven());
    // The panel shows the state and a control per parameter; ticking "wave" sets it.
    assert!(h.query_by_label("state: idle").is_some());
    h.get_by_label("wave").click();
    h.run();
    let m = h.state().machine().unwrap();
    assert_eq!(m.value(m.graph.parameter("wave").unwrap()), 1.0);
    // The greet trigger is a button: pressed, the next frame takes the greeting.
    h.get_by_label("greet").click();
    h.run();
    h.state_mut().frame(Vec::new(), 1.0 / 60.0);
    let m = h.state().machine().unwrap();
    assert_eq!(m.state_name(m.current_state()), "greeting");
    h.run();
    assert!(h.query_by_label("state: greeting").is_some());
}

#[test]
fn the_joint_angle_plot_opens_and_follows_the_selected_joint() {
    let mut h = harness();
    for _ in 0..3 {
        h.state_mut().frame(Vec::new(), 1.0 / 30.0);
    }
    h.run();
    h.get_by_label("Rotation of clavicle_l (degrees)").click();
    h.run();
    h.state_mut().frame(Vec::new(), 1.0 / 30.0);
    h.run();
    // Four frames, 1/30 s apart; the walk holds clavicle_l at rest (angle 0).
    let points: Vec<[f64; 2]> = h.state().angle_plot.iter().copied().collect();
    assert_eq!(points.len(), 4);
    assert!((points[3][0] - 4.0 / 30.0).abs() < 1e-6);
    assert!(points.iter().all(|p| p[1].abs() < 1e-3), "{points:?}");
    // Selecting a joint plots that one: the walking right thigh swings.
    let thigh = h.state().character.skeleton.find("thigh_r").unwrap();
    h.state_mut().controls.selected_joint = Some(thigh);
    h.state_mut().frame(Vec::new(), 1.0 / 30.0);
    h.run();
    assert!(h.query_by_label("Rotation of thigh_r (degrees)").is_some());
    let last = h.state().angle_plot.back().unwrap()[1];
    let q = h.state().pose.local().as_slice()[thigh].rotation;
    let want = (2.0 * q.w.abs().min(1.0).acos()).to_degrees();
    assert!(
        (last - f64::from(want)).abs() < 1e-4 && last > 1.0,
        "{last}"
    );
}

#[test]
fn the_motion_panel_sets_the_modes_and_reach_ik_follows_its_target() {
    let mut h = harness();
    h.get_by_label("Root motion and IK").click();
    h.run();
    h.get_by_label("driven").click();
    h.get_by_label("Foot IK (feet on the ground)").click();
    h.get_by_label("Reach IK").click();
    h.run();
    let c = &h.state().controls;
    assert_eq!(c.motion.move_mode, skinscope::graph::MoveMode::Driven);
    assert!(c.motion.foot_ik && c.motion.reach_ik);
    let names = h.state().character.skeleton.names();
    assert_eq!(names[c.motion.reach_end.unwrap()], "hand_r");
    assert!(h.query_by_label("legs ending at foot_l, foot_r").is_some());
    // The hand lands on the target, and follows it when it moves (what ctrl+drag does).
    h.state_mut().frame(Vec::new(), 1.0 / 60.0);
    let hand = h.state().controls.motion.reach_end.unwrap();
    let at = |v: &Viewer| glam::Vec3::from(v.pose.model.as_slice()[hand].translation);
    let target = h.state().reach_world_target();
    assert!(
        (at(h.state()) - target).length() < 1e-3,
        "{} vs {target}",
        at(h.state())
    );
    h.state_mut()
        .move_reach_target(glam::Vec3::new(0.0, -0.1, 0.05));
    h.state_mut().frame(Vec::new(), 1.0 / 60.0);
    let target = h.state().reach_world_target();
    assert!((at(h.state()) - target).length() < 1e-3);
    // Driving moves the character along its heading; a turn turns it.
    h.get_by_label("Turn left").click();
    h.run();
    let yaw = h.state().locomotion().placement().yaw;
    assert!((yaw - 15f32.to_radians()).abs() < 1e-6);
}

/// Whether a widget is greyed out (AccessKit's disabled state).
fn disabled(node: egui_kittest::Node<'_>) -> bool {
    use egui_kittest::kittest::NodeT;
    node.accesskit_node().is_disabled()
}

#[test]
fn the_panel_shows_what_drives_the_character_and_disables_the_rest() {
    let mut h = harness();
    h.run();
    // Off: the state machine's parameters drive nothing, so they cannot be set.
    assert!(!h.state().controls.layers.use_graph);
    let speed: Vec<_> = h.query_all_by_label("speed").collect();
    assert!(!speed.is_empty() && speed.into_iter().all(disabled));
    assert!(!disabled(h.get_by_label("Clip")));
    h.get_by_label("Drive by the state machine").click();
    h.run();
    for _ in 0..90 {
        h.run();
    }
    // On: the parameters are live, the clip box names the state's clip and cannot be changed,
    // and the timeline (not seekable) stays within that clip.
    assert!(!h.query_all_by_label("speed").any(disabled));
    let clip = h.get_by_label("Clip");
    assert!(disabled(clip));
    let v = h.state();
    let (playing, duration) = v.timeline_clip();
    let name = v.character.clips[playing].clip.name().to_owned();
    let shown = format!("{name} ({duration:.2} s) (state machine: ");
    assert!(
        h.query_by_label_contains(&shown).is_some()
            || clip.value().is_some_and(|v| v.starts_with(&shown)),
        "{:?}",
        clip.value()
    );
    let shown = v.clip_time_shown();
    assert!((0.0..=duration).contains(&shown), "{shown} of {duration}");
    assert!(disabled(h.get_by_role_and_label(
        egui::accesskit::Role::Slider,
        "Time (s)"
    )));
}

#[test]
fn the_panel_keeps_its_width_as_sections_open() {
    let mut h = harness();
    h.run();
    let edge = |h: &Harness<'_, Viewer>| h.get_by_label("Resize panel").rect();
    let panel = edge(&h);
    let browse = h.get_by_label("Browse...").rect();
    for section in ["Layers", "Root motion and IK", "Events", "Skeleton ("] {
        h.get_by_label_contains(section).click();
        for _ in 0..4 {
            h.run();
        }
        // The panel keeps its edge, every widget stays inside it, and the first row's widgets
        // stay where they were (a click aimed at one lands on it).
        assert_eq!(edge(&h), panel, "{section} widened the panel");
        let outside: Vec<String> = h
            .query_all_by_label_contains("")
            .filter(|n| n.rect().right() > panel.left() && n.rect().left() < panel.left())
            .map(|n| format!("{n:?}"))
            .collect();
        assert!(outside.is_empty(), "{section}: {outside:?}");
        assert_eq!(h.get_by_label("Browse...").rect(), browse, "{section}");
    }
}

#[test]
fn the_wheel_zooms_only_over_the_3d_view() {
    use skinscope::app::input::over_view;
    let mut h = harness();
    h.run();
    // The 3D view is what the panel leaves: to the right of its edge.
    let edge = h.get_by_label("Resize panel").rect().right();
    let view = egui::Rect::from_min_max(egui::pos2(edge, 0.0), egui::pos2(1100.0, 1400.0));
    let px = |x: f32, y: f32, ppp: f32| Some(glam::Vec2::new(x, y) * ppp);
    for ppp in [1.0, 2.0] {
        assert!(over_view(Some(view), px(edge + 100.0, 300.0, ppp), ppp));
        // Over the panel (its scrolling at an end or not): no zoom.
        assert!(!over_view(Some(view), px(edge - 100.0, 300.0, ppp), ppp));
    }
    assert!(!over_view(None, px(700.0, 300.0, 1.0), 1.0));
    assert!(!over_view(Some(view), None, 1.0));
}

#[test]
fn per_joint_skinning_paints_subtrees_and_reaches_the_pose() {
    use skinscope::anim::SkinningMethod;
    let mut h = window_frames();
    h.get_by_label("per joint").click();
    h.run();
    assert_eq!(h.state().controls.skinning.method, SkinningMethod::Blended);
    assert_eq!(
        draw_options(&h.state().controls).skinning,
        SkinningMethod::Blended
    );
    let c = builtin::character().unwrap();
    let joint = |name: &str| c.skeleton.find(name).unwrap();
    // "auto" at first: the twist joint and the hand below it.
    let methods =
        |h: &Harness<'_, Viewer>| h.state().controls.skinning.joint_methods.clone().unwrap();
    let m = methods(&h);
    assert_eq!(
        (m[joint("forearm_twist_r")], m[joint("hand_r")]),
        (1.0, 1.0)
    );
    assert_eq!((m[joint("forearm_l")], m[joint("upperarm_l")]), (0.0, 0.0));
    // Ticking the left upper arm paints its subtree, down to the hand; the rest stays.
    h.get_by_label("upperarm_l").click();
    h.run();
    let m = methods(&h);
    for name in ["upperarm_l", "forearm_l", "hand_l", "forearm_twist_r"] {
        assert_eq!(m[joint(name)], 1.0, "{name}");
    }
    assert_eq!((m[joint("spine_03")], m[joint("upperarm_r")]), (0.0, 0.0));
    // The frame posed after it carries the weights per palette entry.
    h.run();
    let pose = &h.state().pose;
    let on = pose.palette_method.iter().filter(|&&w| w == 1.0).count();
    assert_eq!(on, m.iter().filter(|&&w| w == 1.0).count());
    h.get_by_label("All linear blend").click();
    h.run();
    assert!(methods(&h).iter().all(|&w| w == 0.0));
}

#[test]
fn direct_delta_mush_is_precomputed_once_per_parameters_and_shown() {
    use skinscope::anim::SkinningMethod;
    use skinscope::viewer::DdmStatus;
    let mut h = window_frames();
    h.get_by_label("direct delta mush").click();
    h.run();
    assert_eq!(
        h.state().controls.skinning.method,
        SkinningMethod::DeltaMush
    );
    assert!(
        matches!(h.state().ddm_status(), DdmStatus::Precomputing(_)),
        "{:?}",
        h.state().ddm_status()
    );
    h.state_mut().finish_ddm();
    h.run();
    let DdmStatus::Ready(stats) = h.state().ddm_status() else {
        panic!("{:?}", h.state().ddm_status());
    };
    assert_eq!(stats.vertices, 22492);
    assert_eq!(stats.cap, 64);
    let first = h.state().ddm.current.clone().unwrap();
    // Back to linear blend and again: the session's cache, the same Ω, at once.
    h.get_by_label("linear blend").click();
    h.run();
    h.get_by_label("direct delta mush").click();
    h.run();
    assert!(matches!(h.state().ddm_status(), DdmStatus::Ready(_)));
    assert!(std::sync::Arc::ptr_eq(
        &first,
        h.state().ddm.current.as_ref().unwrap()
    ));
    // Other parameters are another precomputation; the panel's sliders keep them within the
    // paper's limits (α below 1).
    h.state_mut().controls.skinning.ddm.alpha = 1.0;
    h.run();
    assert_eq!(h.state().controls.skinning.ddm.alpha, 0.99);
    assert!(matches!(h.state().ddm_status(), DdmStatus::Precomputing(_)));
    h.state_mut().finish_ddm();
    let second = h.state().ddm.current.clone().unwrap();
    assert!(!std::sync::Arc::ptr_eq(&first, &second));
    assert_eq!(second.params.alpha, 0.99);
}

#[test]
fn the_environment_section_loads_a_file_turns_it_and_goes_back_to_the_sky() {
    let mut h = harness();
    let dir = common::temp_dir("panel-environment");
    let sky = dir.join("sky.hdr");
    let pixels = image::Rgb32FImage::from_pixel(16, 8, image::Rgb([0.5, 0.6, 0.7]));
    image::DynamicImage::ImageRgb32F(pixels).save(&sky).unwrap();
    h.get_by_label("Environment").click();
    h.run();
    assert!(
        h.query_by_label_contains("Lit by the generated sky")
            .is_some()
    );
    // A file that is not an environment: the error shown, the sky kept.
    let png = dir.join("sky.png");
    h.state_mut().controls.environment.path = png.to_str().unwrap().to_owned();
    h.run();
    h.get_by_label("Load").click();
    h.run();
    assert!(h.state().environment.current.is_none());
    assert!(h.query_by_label_contains(".hdr or OpenEXR .exr").is_some());
    h.state_mut().controls.environment.path = sky.to_str().unwrap().to_owned();
    h.run();
    h.get_by_label("Load").click();
    h.run();
    let image = h.state().environment.current.clone().expect("loaded");
    assert_eq!((image.width, image.height), (16, 8));
    assert!(h.query_by_label_contains("Lit by sky.hdr").is_some());
    // The background's choice and the sliders reach the render settings.
    h.get_by_label("blurred").click();
    h.run();
    let options = draw_options(&h.state().controls);
    assert_eq!(
        options.environment.background,
        skinscope::environment::Background::Blurred
    );
    h.state_mut().controls.environment.view.rotation_degrees = 90.0;
    h.run();
    assert_eq!(
        draw_options(&h.state().controls)
            .environment
            .rotation_degrees,
        90.0
    );
    let changes = h.state().environment.changes;
    h.get_by_label("Generated sky").click();
    h.run();
    assert!(h.state().environment.current.is_none());
    assert_eq!(h.state().environment.changes, changes + 1);
    assert!(
        h.query_by_label_contains("Lit by the generated sky")
            .is_some()
    );
}

#[test]
fn the_statistics_show_the_windows_cpu_time_by_part() {
    let mut h = harness();
    h.state_mut().stats.cpu = skinscope::viewer::CpuTimes {
        panel_ms: 0.52,
        pose_ms: 0.03,
        overlay_ms: 0.01,
        upload_ms: 0.36,
        total_ms: 0.96,
    };
    h.run();
    for part in [
        "CPU 0.96 ms a frame: panel 0.52, pose 0.03,",
        "overlays 0.01, uploads 0.36",
    ] {
        assert!(h.query_by_label_contains(part).is_some(), "{part}");
    }
}
