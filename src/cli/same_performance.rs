//! The window and the command line drive a character through the same `Performer`: a viewer
//! stepped from its `Controls` and a performance built from the equivalent command-line options
//! give the same `PoseRequest` at every frame of the same 3 s at 60 Hz.

use std::sync::Arc;

use clap::Parser;
use skinscope::character::Character;
use skinscope::graph::MoveMode;
use skinscope::pose::PoseRequest;
use skinscope::scene::Ground;
use skinscope::viewer::{UiCommand, Viewer};

use super::args::PoseArgs;

#[derive(Parser)]
struct Options {
    #[command(flatten)]
    pose: PoseArgs,
}

const FRAMES: usize = 180;
const DT: f32 = 1.0 / 60.0;

fn clip(c: &Character, name: &str) -> usize {
    c.clips.iter().position(|k| k.clip.name() == name).unwrap()
}

/// The requests of the command line's run, frame 0 to `FRAMES`.
fn command_line(c: &Character, args: &[&str]) -> Vec<PoseRequest> {
    let mut all = vec!["skinscope"];
    all.extend_from_slice(args);
    let options = Options::try_parse_from(all).unwrap();
    let mut performance = options.pose.performance(c).unwrap();
    let mut requests = Vec::new();
    performance
        .play(c, |_, r| {
            requests.push(r.clone());
            Ok(())
        })
        .unwrap();
    requests
}

/// The requests a viewer posed, its controls `set` sets, on `ground`, posed at frame 0 and then
/// stepped by 1/60 s; `transition_at` presses Transition at the first frame its clip time has
/// reached it (what the command line's `--transition TO@START` does).
fn window(
    set: impl FnOnce(&mut Viewer),
    ground: Ground,
    transition_at: Option<f32>,
) -> Vec<PoseRequest> {
    let mut viewer = Viewer::new(skinscope::builtin::character().unwrap(), None);
    viewer.performer.locomotion.ground = Arc::new(ground);
    set(&mut viewer);
    viewer.pose_frame();
    let mut requests = vec![viewer.posed.clone()];
    let mut pending = transition_at;
    for _ in 0..FRAMES {
        let mut commands = Vec::new();
        if pending.is_some_and(|t| viewer.time_secs() >= t) {
            commands.push(UiCommand::Transition);
            pending = None;
        }
        viewer.frame(commands, DT);
        requests.push(viewer.posed.clone());
    }
    requests
}

fn assert_same(window: &[PoseRequest], command_line: &[PoseRequest]) {
    assert_eq!(window.len(), FRAMES + 1);
    assert_eq!(command_line.len(), FRAMES + 1);
    for (k, (w, l)) in window.iter().zip(command_line).enumerate() {
        if w != l {
            eprintln!("window: {w:#?}\ncommand line: {l:#?}");
        }
        assert_eq!(w, l, "frame {k}");
    }
}

#[test]
fn a_transition_at_speed_one_and_a_half_is_the_same_frame_by_frame() {
    let c = skinscope::builtin::character().unwrap();
    let (walk, wave) = (clip(&c, "walk"), clip(&c, "wave"));
    let ui = window(
        |v| {
            v.controls.playback.clip = walk;
            v.controls.playback.speed = 1.5;
            v.controls.playback.crossfade_to = wave;
            v.controls.playback.crossfade_secs = 0.4;
        },
        Ground::flat(0.0),
        Some(0.6),
    );
    let cli = command_line(
        &c,
        &[
            "--clip",
            "walk",
            "--speed",
            "1.5",
            "--transition",
            "wave@0.6:0.4",
            "--simulate",
            "3",
        ],
    );
    assert_same(&ui, &cli);
    // Walk plays 0.025 s a frame: 24 frames bring it to 0.6 s (a hair under, summed in f32), so
    // the transition starts with frame 26's step. Its 0.4 s of real time is 24 steps, the last
    // of which ends it: frames 26 to 48 cross-fade, and wave plays alone afterwards.
    let fading: Vec<usize> = (0..=FRAMES)
        .filter(|&k| cli[k].transition.is_some())
        .collect();
    assert_eq!(fading, (26..=48).collect::<Vec<_>>());
    assert_eq!(cli[FRAMES].clip.unwrap().clip, wave);
    // Wave has played the 155 steps from frame 26 on, at 1.5 times 1/60 s.
    let wave_time = cli[FRAMES].clip.unwrap().time_secs;
    let wave_duration = c.clips[wave].duration_secs();
    let expected = skinscope::anim::wrap_time(155.0 * 0.025, wave_duration);
    assert!(
        (wave_time - expected).abs() < 1e-3,
        "{wave_time} vs {expected}"
    );
}

#[test]
fn applied_and_driven_root_motion_are_the_same_frame_by_frame() {
    let c = skinscope::builtin::character().unwrap();
    let walk = clip(&c, "walk");
    for (mode, name) in [(MoveMode::Applied, "applied"), (MoveMode::Driven, "driven")] {
        let ui = window(
            |v| {
                v.controls.playback.clip = walk;
                v.controls.motion.move_mode = mode;
                v.controls.motion.drive_speed = 1.2;
            },
            Ground::flat(0.0),
            None,
        );
        let mut args = vec!["--clip", "walk", "--root-motion", name, "--simulate", "3"];
        if mode == MoveMode::Driven {
            args.extend(["--drive-speed", "1.2"]);
        }
        let cli = command_line(&c, &args);
        assert_same(&ui, &cli);
        if mode == MoveMode::Driven {
            // 1.2 units a second along +Z for 3 s, the clip at its matched rate.
            let at = cli[FRAMES].placement.position;
            assert!((at.z - 3.6).abs() < 1e-3 && at.x.abs() < 1e-4, "{at}");
        }
    }
}

#[test]
fn foot_ik_on_a_step_is_the_same_frame_by_frame() {
    let c = skinscope::builtin::character().unwrap();
    let walk = clip(&c, "walk");
    let text = r#"{"steps": [{"min": [-1, 0.5], "max": [1, 1.5], "height": 0.1}]}"#;
    let dir = std::env::temp_dir().join(format!("skinscope-same-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("step.json");
    std::fs::write(&path, text).unwrap();
    let ui = window(
        |v| {
            v.controls.playback.clip = walk;
            v.controls.motion.move_mode = MoveMode::Driven;
            v.controls.motion.drive_speed = 0.6;
            v.controls.motion.foot_ik = true;
        },
        Ground::parse(text).unwrap(),
        None,
    );
    let cli = command_line(
        &c,
        &[
            "--clip",
            "walk",
            "--root-motion",
            "driven",
            "--drive-speed",
            "0.6",
            "--ground",
            path.to_str().unwrap(),
            "--simulate",
            "3",
        ],
    );
    std::fs::remove_dir_all(&dir).unwrap();
    assert_same(&ui, &cli);
    // The character walked onto the step (0.5..1.5 along z) and feet were held there.
    let last = &cli[FRAMES];
    assert!((last.placement.position.z - 1.8).abs() < 1e-3);
    let held = (0..=FRAMES)
        .filter(|&k| {
            cli[k].feet.as_ref().is_some_and(|f| {
                f.legs
                    .iter()
                    .any(|l| l.lock.is_some_and(|p| (p.y - 0.1).abs() < 0.05))
            })
        })
        .count();
    assert!(held > 10, "{held} frames with a foot held on the step");
}
