//! The window's history: a rewound frame is shown exactly as it was drawn live (its palettes
//! equal to the bit), stepping moves one kept frame, playing on from a rewound frame plays the
//! same frames again, and a saved history replays the same palettes in another window and in
//! `palette --replay`.

use crate::common;

use common::skinscope;
use glam::Mat4;
use skinscope::viewer::{HistoryCommand, UiCommand, Viewer};
use skinscope_testkit::temp_dir;

const DT: f32 = 1.0 / 60.0;

/// A window playing the walk, with an override layer eased in and a crossfade to the run at
/// frame 20: the history has clocks, a transition and a layer to restore.
fn playing_viewer() -> Viewer {
    let c = skinscope::builtin::character().unwrap();
    let mut viewer = Viewer::new(c, None);
    let walk = viewer.character.find_clip("walk").unwrap();
    let run = viewer.character.find_clip("run").unwrap();
    viewer.controls.playback.clip = walk;
    viewer.controls.playback.crossfade_to = run;
    viewer.controls.playback.crossfade_secs = 0.4;
    viewer.controls.layers.layer_weight = 0.7;
    viewer
}

/// Frame `k`'s commands: the crossfade at frame 20.
fn commands(k: usize) -> Vec<UiCommand> {
    if k == 20 {
        vec![UiCommand::Transition]
    } else {
        Vec::new()
    }
}

fn bits(palette: &[Mat4]) -> Vec<u32> {
    palette
        .iter()
        .flat_map(|m| m.to_cols_array())
        .map(f32::to_bits)
        .collect()
}

/// Plays `frames` frames, returning each frame's palette bits.
fn play(viewer: &mut Viewer, frames: std::ops::Range<usize>) -> Vec<Vec<u32>> {
    frames
        .map(|k| {
            viewer.frame(commands(k), DT);
            bits(&viewer.pose.palette)
        })
        .collect()
}

#[test]
fn a_rewound_frame_is_drawn_as_it_was_and_playing_on_plays_the_same_frames() {
    let mut viewer = playing_viewer();
    let live = play(&mut viewer, 0..60);
    let kept = viewer.history.history.len();
    assert_eq!(kept, 60, "one frame kept a frame");
    // Frames differ from each other (the clip plays), so equality below means something.
    assert_ne!(live[10], live[11]);
    for k in [0, 19, 20, 35, 59] {
        viewer.frame(vec![UiCommand::History(HistoryCommand::RewindTo(k))], DT);
        assert!(viewer.rewound());
        assert!(viewer.pose.palette.len() > 1);
        assert!(bits(&viewer.pose.palette) == live[k], "frame {k} differs");
    }
    // A paused, rewound window stays on its frame.
    viewer.frame(Vec::new(), DT);
    assert!(bits(&viewer.pose.palette) == live[59]);
    // One frame back, one forward.
    viewer.frame(vec![UiCommand::History(HistoryCommand::RewindTo(35))], DT);
    viewer.frame(vec![UiCommand::History(HistoryCommand::Step(true))], DT);
    assert!(bits(&viewer.pose.palette) == live[34]);
    viewer.frame(vec![UiCommand::History(HistoryCommand::Step(false))], DT);
    viewer.frame(vec![UiCommand::History(HistoryCommand::Step(false))], DT);
    assert!(bits(&viewer.pose.palette) == live[36]);
    // The tracks' state of a kept frame: the transition ran from frame 20 over 0.4 s.
    let state = |k: usize| viewer.history.history.get(k).unwrap().state.clone();
    assert!(state(19).transition.is_none());
    let (progress, inertial) = state(30).transition.unwrap();
    assert!(!inertial);
    assert!((progress - 10.0 / 24.0).abs() < 0.05, "{progress}");
    assert_eq!(state(30).clip.as_deref(), Some("run"));
    assert_eq!(state(10).clip.as_deref(), Some("walk"));
    assert!((state(59).time_secs - 59.0 * f64::from(DT)).abs() < 1e-6);

    // Playing on from frame 25 restores the clocks, the transition and the layer as they
    // were: the frames after it come again, to the bit.
    // The frame that presses Play is the first played on.
    viewer.frame(vec![UiCommand::History(HistoryCommand::RewindTo(25))], DT);
    viewer.frame(vec![UiCommand::PlayPause], DT);
    assert!(!viewer.rewound());
    assert_eq!(
        viewer.history.history.len(),
        27,
        "the later frames were dropped"
    );
    assert!(bits(&viewer.pose.palette) == live[26]);
    let again = play(&mut viewer, 27..60);
    for (k, frame) in (27..60).zip(&again) {
        assert!(*frame == live[k], "frame {k} after resuming differs");
    }
}

#[test]
fn playing_on_restores_the_ragdoll_and_the_muscles_too() {
    let mut viewer = playing_viewer();
    // A limp left leg and the muscles: two simulations whose state the frames carry.
    let thigh = viewer.character.skeleton.find("thigh_l").unwrap();
    viewer.controls.physics.input.mode = Some(skinscope::physics::PhysicsMode::Limp);
    viewer.controls.physics.input.weights = vec![(thigh, 1.0)];
    viewer.frame(
        vec![UiCommand::Muscles(
            skinscope::viewer::muscles::MuscleCommand::Own,
        )],
        DT,
    );
    viewer.frame(Vec::new(), DT);
    let live = play(&mut viewer, 0..50);
    assert!(viewer.performer.physics().ragdoll().is_some());
    assert!(viewer.performer.muscles().sim().is_some());
    let first = viewer.history.history.len() - 50;
    viewer.frame(
        vec![UiCommand::History(HistoryCommand::RewindTo(first + 20))],
        DT,
    );
    assert!(bits(&viewer.pose.palette) == live[20]);
    viewer.frame(vec![UiCommand::PlayPause], DT);
    assert!(
        bits(&viewer.pose.palette) == live[21],
        "the first frame played on differs"
    );
    let again = play(&mut viewer, 22..50);
    for (k, frame) in (22..50).zip(&again) {
        assert!(*frame == live[k], "frame {k} after resuming differs");
    }
    // The limp leg moved away from the animation: the ragdoll's state mattered.
    assert_ne!(live[10], live[40]);
}

#[test]
fn the_history_keeps_its_budget_of_seconds() {
    let mut viewer = playing_viewer();
    viewer.controls.over_time.history_secs = 0.5;
    play(&mut viewer, 0..90);
    let h = &viewer.history.history;
    assert_eq!(h.len(), 31, "0.5 s at 60 Hz, both ends");
    assert!((h.span_secs() - 0.5).abs() < 1e-6);
    // Paused and unchanged, nothing more is kept.
    viewer.controls.playback.playing = false;
    viewer.frame(Vec::new(), DT);
    let n = viewer.history.history.len();
    for _ in 0..10 {
        viewer.frame(Vec::new(), DT);
    }
    assert_eq!(viewer.history.history.len(), n);
    // Off: nothing is kept.
    viewer.controls.over_time.keep_history = false;
    viewer.controls.playback.playing = true;
    viewer.frame(Vec::new(), DT);
    assert_eq!(viewer.history.history.len(), n);
}

#[test]
fn a_saved_history_replays_the_same_palettes_in_a_window_and_on_the_command_line() {
    let dir = temp_dir("rewind-save");
    let file = dir.join("history.json");
    let mut viewer = playing_viewer();
    let live = play(&mut viewer, 0..40);
    viewer.frame(
        vec![UiCommand::History(HistoryCommand::Save(file.clone()))],
        DT,
    );
    let status = viewer.history.status.clone().unwrap();
    assert!(status.starts_with("saved 40 frames"), "{status}");

    let c = skinscope::builtin::character().unwrap();
    let mut replay = Viewer::new(c, None);
    // The panel's Replay: a file that is not a history is said in the section.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "[1, 2]").unwrap();
    replay.frame(vec![UiCommand::History(HistoryCommand::Replay(junk))], DT);
    let said = replay.history.status.clone().unwrap();
    assert!(
        said.starts_with("not replayed") && said.contains("junk.json"),
        "{said}"
    );
    assert!(!replay.rewound());
    replay.frame(
        vec![UiCommand::History(HistoryCommand::Replay(file.clone()))],
        DT,
    );
    assert!(replay.rewound());
    assert!(bits(&replay.pose.palette) == live[0]);
    for k in [7, 23, 39] {
        replay.frame(vec![UiCommand::History(HistoryCommand::RewindTo(k))], DT);
        assert!(bits(&replay.pose.palette) == live[k], "replayed frame {k}");
    }
    // Play plays the kept frames through, a frame a frame at the recorded rate.
    replay.frame(vec![UiCommand::History(HistoryCommand::RewindTo(10))], DT);
    replay.frame(vec![UiCommand::PlayPause], 0.0);
    replay.frame(Vec::new(), DT);
    replay.frame(Vec::new(), DT);
    assert!(bits(&replay.pose.palette) == live[12]);

    // The command line poses the same frame from the file.
    let (code, out, err) = skinscope(&[
        "palette",
        "--json",
        "--replay",
        file.to_str().unwrap(),
        "--frame",
        "23",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let floats: Vec<u32> = v["instances"][0]["joints"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|j| j["matrix"].as_array().unwrap().clone())
        .map(|x| (x.as_f64().unwrap() as f32).to_bits())
        .collect();
    // The palette after the identity entry 0.
    assert!(
        floats == live[23][16..],
        "palette --replay differs from the window's frame"
    );
}

#[test]
fn a_history_from_another_model_or_a_bad_file_is_refused_by_name() {
    let dir = temp_dir("rewind-bad");
    let file = dir.join("history.json");
    let mut viewer = playing_viewer();
    play(&mut viewer, 0..5);
    viewer.frame(
        vec![UiCommand::History(HistoryCommand::Save(file.clone()))],
        DT,
    );
    let fox = common::shared("Fox/Fox.glb");
    let (code, _, err) = skinscope(&[
        "palette",
        fox.to_str().unwrap(),
        "--replay",
        file.to_str().unwrap(),
        "--frame",
        "0",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("not on \"Fox"), "{err}");
    let (code, _, err) = skinscope(&[
        "palette",
        "--replay",
        file.to_str().unwrap(),
        "--frame",
        "99",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--frame 99") && err.contains("frames 0 to 4"),
        "{err}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        text.replacen("\"palette\":\"animated\"", "\"palette\":\"posed\"", 1),
    )
    .unwrap();
    let (code, _, err) = skinscope(&["palette", "--replay", bad.to_str().unwrap(), "--frame", "0"]);
    assert_eq!(code, 2);
    assert!(err.contains("/frames/0/palette"), "{err}");
}
