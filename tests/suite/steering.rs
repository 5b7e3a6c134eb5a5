//! Motion matching steering the built-in mannequin: along a scripted path (straight,
//! a 90-degree turn, a stop) its root keeps to the goal path, its feet barely slide and it
//! switches a few times a second; a goal of zero velocity ends in an idle or stop frame; the
//! command line reports the matched clip, and a saved database plays the same run or is
//! refused for another skeleton.

use std::sync::Arc;

use glam::Vec3;
use skinscope::anim::VelocitySpring;
use skinscope::character::Character;
use skinscope::perform::{Inputs, MatchInput, Performer};
use skinscope::pose::{CharacterPose, FEATURES, MatchWeights, build_database};
use skinscope::scene::Ground;
use std::f32::consts::LN_2;

use crate::common;

const HZ: f32 = 60.0;

/// The path: 1.2 m/s along +Z for 4 s, then along +X for 4 s, then a stop.
fn goal_velocity(t: f32) -> Vec3 {
    if t < 4.0 {
        Vec3::new(0.0, 0.0, 1.2)
    } else if t < 8.0 {
        Vec3::new(1.2, 0.0, 0.0)
    } else {
        Vec3::ZERO
    }
}

/// What a run measured, frame by frame.
struct Run {
    /// The character's placement and the goal path's position (a spring on the goal velocity
    /// with the controller's 0.27 s half-life, stepped here from the origin).
    root: Vec<Vec3>,
    goal: Vec<Vec3>,
    /// The planted ankles' horizontal speeds (a foot within 2.5% of the height of the floor in
    /// two consecutive frames).
    slides: Vec<f32>,
    /// The largest move of any joint between two frames, in the character's own frame.
    jump: f32,
    switches: u64,
    searches: u64,
    clip: String,
}

fn steer(c: &Character, secs: f32, velocity: impl Fn(f32) -> Vec3) -> Run {
    steer_with(c, secs, velocity, false)
}

/// `steer`, with foot IK planting the feet (the planter holding each planted foot) when
/// `foot_ik`.
fn steer_with(c: &Character, secs: f32, velocity: impl Fn(f32) -> Vec3, foot_ik: bool) -> Run {
    let clips = skinscope::builtin::motion_clips(c);
    let db = build_database(c, &clips, &MatchWeights::default()).unwrap();
    let height = skinscope::pose::character_height(c);
    let mut performer = Performer::new(c, Arc::new(Ground::flat(0.0)), height, None);
    performer.set_motion_database(c, Arc::new(db));
    let mut inputs = Inputs {
        motion_matching: Some(MatchInput {
            velocity: velocity(0.0),
        }),
        foot_ik,
        leg_ends: skinscope::pose::find_legs(c)
            .iter()
            .map(|l| l.end)
            .collect(),
        ..Inputs::default()
    };
    let (foot_l, foot_r) = (
        c.skeleton.find("foot_l").unwrap(),
        c.skeleton.find("foot_r").unwrap(),
    );
    let ankle_rest = CharacterPose::at_rest(c).model.as_slice()[foot_l]
        .translation
        .y;
    let mut pose = CharacterPose::new(c);
    let mut goal = VelocitySpring::default();
    let mut run = Run {
        root: Vec::new(),
        goal: Vec::new(),
        slides: Vec::new(),
        jump: 0.0,
        switches: 0,
        searches: 0,
        clip: String::new(),
    };
    let (mut before, mut local_before): (Option<[Vec3; 2]>, Option<Vec<Vec3>>) = (None, None);
    let frames = (secs * HZ).round() as usize;
    performer.cue(c, &inputs, 0.0);
    for k in 0..=frames {
        let t = k as f32 / HZ;
        if k > 0 {
            inputs.motion_matching = Some(MatchInput {
                velocity: velocity(t),
            });
            performer.step(c, &inputs, 1.0 / HZ);
            goal = goal.after(velocity(t), 0.27, 1.0 / HZ);
        }
        performer.prepare(c, &inputs);
        let request = performer.request(c, &inputs);
        pose.evaluate(c, &request).unwrap();
        performer.settle_feet(c, &inputs, &request, &pose);
        let placement = performer.locomotion.placement();
        run.root.push(placement.position);
        run.goal.push(goal.position);
        let model = pose.model.as_slice();
        let ankles = [foot_l, foot_r].map(|j| Vec3::from(model[j].translation));
        if let Some(b) = before {
            for (now, was) in ankles.iter().zip(b) {
                let low = |p: Vec3| p.y < ankle_rest + 0.025 * height;
                if low(*now) && low(was) {
                    run.slides.push((*now - was).with_y(0.0).length() * HZ);
                }
            }
        }
        before = Some(ankles);
        let turn = skinscope::anim::from_yaw(-placement.yaw);
        let local: Vec<Vec3> = model
            .iter()
            .map(|m| turn * (Vec3::from(m.translation) - placement.position))
            .collect();
        if let Some(b) = &local_before {
            for (a, b) in local.iter().zip(b) {
                run.jump = run.jump.max(a.distance(*b));
            }
        }
        local_before = Some(local);
    }
    let stats = &performer.matching().stats;
    run.switches = stats.switches;
    run.searches = stats.searches;
    run.clip = c.clips[performer.playing_clip(c).unwrap()]
        .clip
        .name()
        .to_string();
    run
}

/// The largest move of any joint between two 60 Hz frames of the database's clips, each played
/// in place.
fn clips_own_jump(c: &Character) -> f32 {
    use skinscope::pose::{PoseRequest, RootMotion, RootMotionMode};
    let root = c.skeleton.find("pelvis").unwrap();
    let mut pose = CharacterPose::new(c);
    let mut most = 0.0f32;
    for k in skinscope::builtin::motion_clips(c) {
        let mut before: Option<Vec<Vec3>> = None;
        let frames = (c.clips[k].duration_secs() * HZ) as usize;
        for f in 0..=frames {
            let request = PoseRequest {
                root_motion: Some(RootMotion {
                    joint: root,
                    mode: RootMotionMode::InPlace,
                }),
                ..PoseRequest::clip(k, f as f32 / HZ)
            };
            pose.evaluate(c, &request).unwrap();
            let now: Vec<Vec3> = pose
                .model
                .as_slice()
                .iter()
                .map(|m| Vec3::from(m.translation))
                .collect();
            if let Some(b) = &before {
                for (a, b) in now.iter().zip(b) {
                    most = most.max(a.distance(*b));
                }
            }
            before = Some(now);
        }
    }
    most
}

/// The distance from `p` to the polyline through `path`.
fn to_path(p: Vec3, path: &[Vec3]) -> f32 {
    path.windows(2)
        .map(|w| {
            let (a, b) = (w[0].with_y(0.0), w[1].with_y(0.0));
            let ab = b - a;
            let u = if ab.length_squared() > 0.0 {
                ((p.with_y(0.0) - a).dot(ab) / ab.length_squared()).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (a + ab * u).distance(p.with_y(0.0))
        })
        .fold(f32::INFINITY, f32::min)
}

#[test]
fn the_mannequin_keeps_to_a_path_through_a_turn_and_stops() {
    let c = skinscope::builtin::character().unwrap();
    let run = steer(&c, 12.0, goal_velocity);
    // The goal path as worked by hand: a spring from rest toward 1.2 m/s with a 0.27 s
    // half-life runs 2 / y = 0.27 / ln 2 = 0.3895 s behind, so at frame 239 (3.983 s) it is at
    // 1.2 (3.983 - 0.3895) = 4.313 m.
    let lag = 0.27 / LN_2;
    let want = 1.2 * (239.0 / HZ - lag);
    assert!(
        (run.goal[239].z - want).abs() < 0.005,
        "{} vs {want}",
        run.goal[239]
    );
    let path_distance: Vec<f32> = run.root.iter().map(|p| to_path(*p, &run.goal)).collect();
    let mean = path_distance.iter().sum::<f32>() / path_distance.len() as f32;
    // After the turn settles (1.5 s after it is asked for), within 0.5 m of the goal path.
    let settled = path_distance[(5.5 * HZ) as usize..]
        .iter()
        .fold(0.0f32, |a, &b| a.max(b));
    let to_goal = run
        .root
        .iter()
        .zip(&run.goal)
        .map(|(a, b)| a.with_y(0.0).distance(b.with_y(0.0)))
        .fold(0.0f32, f32::max);
    let slide = run.slides.iter().sum::<f32>() / run.slides.len() as f32;
    let per_second = run.switches as f32 / 12.0;
    println!(
        "path: mean distance to the goal path {mean:.3} m, largest after the turn {settled:.3} m, largest to the goal now {to_goal:.3} m; planted-foot slide {slide:.3} m/s over {} planted samples; {per_second:.2} switches a second ({} searches); largest joint move a frame {:.3} m",
        run.slides.len(),
        run.searches,
        run.jump
    );
    assert!(settled < 0.5, "{settled}");
    assert!(mean < 0.25, "{mean}");
    // Standing at the end, where the goal stopped (within the same half metre).
    let end = *run.root.last().unwrap();
    assert!(end.distance(Vec3::new(4.8, 0.0, 4.8)) < 0.5, "{end}");
    assert!(
        run.clip == "idle" || run.clip == "stop",
        "ends in {}",
        run.clip
    );
    // A search every 0.1 s (and one each for the two sharp changes of goal).
    assert!(
        (120..=124).contains(&run.searches),
        "{} searches",
        run.searches
    );
    assert!((0.5..6.0).contains(&per_second), "{per_second}");
    // Planted feet slide slowly (an eighth of the walking speed at most, on average; with no
    // adjustment toward the goal the switches alone slide them 0.22 m/s), and no joint pops:
    // none moves in a frame more than the clips themselves move it, and a centimetre.
    assert!(slide < 0.15, "{slide}");
    // Foot IK on (as the panel's switch), the planter holds planted feet through the switches.
    let held = steer_with(&c, 12.0, goal_velocity, true);
    let held_slide = held.slides.iter().sum::<f32>() / held.slides.len() as f32;
    println!("with foot IK: planted-foot slide {held_slide:.3} m/s");
    assert!(held_slide < 0.5 * slide, "{held_slide} against {slide}");
    let own = clips_own_jump(&c);
    assert!(
        run.jump < own + 0.01,
        "{} against the clips' {own}",
        run.jump
    );
}

#[test]
fn a_goal_of_zero_velocity_ends_in_an_idle_or_stop_frame() {
    let c = skinscope::builtin::character().unwrap();
    // Standing from the start, and walking 2 s then told to stop.
    for (name, velocity) in [
        (
            "stand",
            Box::new(|_| Vec3::ZERO) as Box<dyn Fn(f32) -> Vec3>,
        ),
        (
            "walk then stop",
            Box::new(|t| {
                if t < 2.0 {
                    Vec3::new(0.0, 0.0, 1.2)
                } else {
                    Vec3::ZERO
                }
            }),
        ),
    ] {
        let run = steer(&c, 5.0, velocity);
        assert!(
            run.clip == "idle" || run.clip == "stop",
            "{name}: ends in {}",
            run.clip
        );
        // Still for the last second.
        let n = run.root.len();
        let moved = run.root[n - 1].distance(run.root[n - 61]);
        assert!(moved < 0.05, "{name}: moved {moved} in the last second");
    }
}

#[test]
fn the_accelerated_search_returns_brute_force_on_the_mannequins_database() {
    let c = skinscope::builtin::character().unwrap();
    let clips = skinscope::builtin::motion_clips(&c);
    let db = build_database(&c, &clips, &MatchWeights::default()).unwrap();
    let mut seed = 7u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (seed >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0
    };
    let frames = db.frames.len();
    for _ in 0..200 {
        // A database frame's features, disturbed by up to a unit in every normalised feature.
        let f = ((next() * 0.5 + 0.5) * frames as f32) as usize % frames;
        let query: Vec<f32> = db.index.row(f).iter().map(|x| x + next()).collect();
        let brute = db.index.brute(&query).unwrap();
        assert_eq!(db.index.search(&query).unwrap(), brute);
        let current = Some(((next() * 0.5 + 0.5) * frames as f32) as usize % frames);
        assert_eq!(db.index.search_from(&query, current).unwrap(), brute);
    }
    assert_eq!(db.raw.len(), frames * FEATURES);
}

#[test]
fn palette_json_reports_the_matched_clip_and_a_saved_database_plays_the_same() {
    let dir = common::temp_dir("steering");
    let path = dir.join("path.json");
    std::fs::write(
        &path,
        r#"{"keys": [{"t": 0, "velocity": [0, 0, 1.2]}, {"t": 2, "velocity": [1.2, 0, 0]}]}"#,
    )
    .unwrap();
    let path = path.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["--motion-matching", "--path", path, "--simulate", "3"];
        args.extend_from_slice(extra);
        report_of(&args)
    };
    let report = run(&[]);
    let c = skinscope::builtin::character().unwrap();
    let clip = report["clip"].as_str().unwrap();
    assert!(skinscope::builtin::MOTION_CLIPS.contains(&clip), "{report}");
    let k = c.clips.iter().position(|k| k.clip.name() == clip).unwrap();
    let time = report["time"].as_f64().unwrap() as f32;
    assert!(
        (0.0..=c.clips[k].duration_secs()).contains(&time),
        "{report}"
    );
    // 3 s at 60 Hz: a search at the first step and every sixth after (30), and one at the
    // sharp turn of the goal at 2 s.
    assert_eq!(report["searches"], 31, "{report}");
    // Walking along +Z for 2 s and then +X: the character is past 1.5 m along +Z and on its way
    // along +X.
    let at = &report["position"];
    let (x, z) = (at[0].as_f64().unwrap(), at[2].as_f64().unwrap());
    assert!(z > 1.5 && x > 0.3, "{report}");

    // The same run from a saved database.
    let db = dir.join("mannequin.mmdb");
    let db = db.to_str().unwrap();
    let (code, out, err) = common::skinscope(&["match-db", "--out", db]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("frames"), "{out}");
    assert_eq!(run(&["--motion-db", db]), report);

    // Refused: another skeleton's database, a cut file, a file that is not one.
    let cesium = common::shared("CesiumMan/CesiumMan.glb");
    let other = dir.join("cesium.mmdb");
    let other = other.to_str().unwrap();
    let (code, _, err) = common::skinscope(&["match-db", cesium.to_str().unwrap(), "--out", other]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(db).unwrap();
    let cut = dir.join("cut.mmdb");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let cut = cut.to_str().unwrap();
    for (file, says) in [
        (other, "made for another skeleton (22 joints"),
        (cut, "cut short: its 1791 frames"),
        (path, "not a skinscope motion database"),
    ] {
        let (code, out, err) = common::skinscope(&[
            "palette",
            "--motion-matching",
            "--motion-db",
            file,
            "--simulate",
            "1",
        ]);
        assert_eq!(code, 2, "{file}: {out}");
        assert!(err.contains(file) && err.contains(says), "{file}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn motion_matching_options_are_refused_with_what_they_need() {
    let dir = common::temp_dir("steering-options");
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"keys": [{"t": 0, "velocity": [0, 0, 1]}, {"t": 1, "velocity": [0, "fast", 0]}]}"#,
    )
    .unwrap();
    let bad = bad.to_str().unwrap();
    for (args, says) in [
        (
            vec!["palette", "--motion-matching"],
            "--motion-matching searches every 0.1 s of a run at 60 Hz: give --simulate SECS",
        ),
        (
            vec![
                "palette",
                "--motion-matching",
                "--simulate",
                "1",
                "--root-motion",
                "in-place",
            ],
            "it cannot take --root-motion",
        ),
        (
            vec![
                "palette",
                "--motion-matching",
                "--simulate",
                "1",
                "--path",
                bad,
            ],
            "/keys/1/velocity/1: expected a finite speed",
        ),
        (
            vec![
                "palette",
                "--motion-matching",
                "--simulate",
                "1",
                "--match-weight",
                "feet=2",
            ],
            "no group \"feet\"",
        ),
        (
            vec!["palette", "--simulate", "1", "--match-clips", "idle"],
            "give --motion-matching",
        ),
    ] {
        let (code, _, err) = common::skinscope(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_panel_builds_the_database_and_the_keys_steer_from_the_camera() {
    use egui_kittest::kittest::Queryable;
    let c = skinscope::builtin::character().unwrap();
    let viewer = skinscope::viewer::Viewer::new(c, None);
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    h.get_by_label("Motion matching").click();
    h.run();
    h.get_by_label("motion matching").click();
    h.run();
    assert!(h.state().controls.matching.on);
    assert!(h.state().controls.motion.follow_camera);
    // Built on its own thread, then handed to the performer.
    let mut waited = 0;
    while h.state().performer.matching().database().is_none() {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run();
        waited += 1;
        assert!(waited < 1500, "the database was not built in 30 s");
    }
    h.run();
    let frames = h
        .state()
        .performer
        .matching()
        .database()
        .unwrap()
        .frames
        .len();
    h.get_by_label_contains(&format!("database: {frames} frames"));
    // W with the camera looking from +X (yaw 90 degrees): ahead is -X. Two seconds of it.
    for _ in 0..120 {
        h.state_mut()
            .steer(glam::Vec2::Y, false, std::f32::consts::FRAC_PI_2);
        h.run();
    }
    let v = h.state();
    assert!((v.controls.matching.velocity - Vec3::new(-1.2, 0.0, 0.0)).length() < 1e-5);
    let at = v.performer.locomotion.placement().position;
    assert!(at.x < -1.0 && at.z.abs() < 0.3, "walked to {at}");
    assert!(v.performer.matching().stats.searches >= 20);
    h.get_by_label_contains("searches");
    h.get_by_label_contains("trajectory directions");
    // The goal and the matched trajectories are drawn on the floor: 3 segments and 4 facing
    // ticks each.
    let lines = h.state().overlay_lines();
    let yellow = lines
        .iter()
        .filter(|l| l.2 == [1.0, 0.85, 0.2, 1.0])
        .count();
    let cyan = lines
        .iter()
        .filter(|l| l.2 == [0.2, 0.85, 1.0, 1.0])
        .count();
    assert_eq!((yellow, cyan), (7, 7));
}

/// `palette ARGS --json`'s motion-matching report.
fn report_of(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["palette"];
    all.extend_from_slice(args);
    all.push("--json");
    let (code, out, err) = common::skinscope(&all);
    assert_eq!(code, 0, "{args:?}: {err}");
    let json: serde_json::Value = serde_json::from_str(&out).unwrap();
    json["motion_matching"].clone()
}

/// `palette FILE --motion-matching` along `keys` for `secs`: its motion-matching report.
fn steered(file: &str, keys: &str, secs: &str, extra: &[&str]) -> serde_json::Value {
    let dir = common::temp_dir("steered");
    let path = dir.join(format!("{}.json", extra.len()));
    std::fs::write(&path, format!(r#"{{"keys": {keys}}}"#)).unwrap();
    let path = path.to_str().unwrap();
    let mut args = vec![
        file,
        "--motion-matching",
        "--path",
        path,
        "--simulate",
        secs,
    ];
    args.extend_from_slice(extra);
    report_of(&args)
}

fn position(report: &serde_json::Value) -> Vec3 {
    let p = &report["position"];
    Vec3::new(
        p[0].as_f64().unwrap() as f32,
        p[1].as_f64().unwrap() as f32,
        p[2].as_f64().unwrap() as f32,
    )
}

#[test]
fn the_fox_and_cesium_man_steer_with_the_clips_they_have() {
    // The Fox (79 units tall; Survey, Walk and Run, all in place): 60 units/s ahead for 3 s,
    // then stop. Its walk travels as its planted feet need, so it follows; stopped, it
    // surveys. The goal spring ends at 60 (3 - 0.39) = 157 units.
    let fox = common::shared("Fox/Fox.glb");
    let fox = fox.to_str().unwrap();
    let report = steered(
        fox,
        r#"[{"t": 0, "velocity": [0, 0, 60]}, {"t": 3, "velocity": [0, 0, 0]}]"#,
        "6",
        &[],
    );
    let at = position(&report);
    assert!((at.z - 157.0).abs() < 30.0 && at.x.abs() < 15.0, "{report}");
    assert_eq!(report["clip"], "Survey", "{report}");
    // CesiumMan (one in-place walk): along +Z at its walk's own speed (its planted feet's) for
    // 3 s, the goal then at v (3 - 0.39); it keeps up within 0.3 m and on the goal's line.
    let man = common::shared("CesiumMan/CesiumMan.glb");
    let c = skinscope::import::load(&man).unwrap();
    let db = build_database(&c, &[], &MatchWeights::default()).unwrap();
    let v = db.travel[0].length();
    assert!((0.3..2.0).contains(&v), "{v}");
    let keys = format!(r#"[{{"t": 0, "velocity": [0, 0, {v}]}}]"#);
    let report = steered(man.to_str().unwrap(), &keys, "3", &[]);
    let at = position(&report);
    let want = v * (3.0 - 0.27 / LN_2);
    assert!(
        (at.z - want).abs() < 0.3 && at.x.abs() < 0.3,
        "{report} against {want}"
    );
    // The mannequin's feet and hips set by hand as foot IK finds them: the same run.
    let keys = r#"[{"t": 0, "velocity": [0, 0, 1.2]}]"#;
    assert_eq!(
        steered(
            "assets/skinscope_mannequin.glb",
            keys,
            "1",
            &["--match-joints", "foot_l,foot_r,pelvis"]
        ),
        steered("assets/skinscope_mannequin.glb", keys, "1", &[])
    );
    let (code, _, err) = common::skinscope(&[
        "palette",
        "--motion-matching",
        "--simulate",
        "1",
        "--match-joints",
        "foot_l,foot_l,pelvis",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("names a joint twice"), "{err}");
}

#[test]
fn a_character_without_legs_says_why_it_cannot_be_steered() {
    use egui_kittest::kittest::Queryable;
    let dir = common::temp_dir("steering-spine");
    let path = common::spine_bvh(&dir);
    let c = skinscope::import::load(&path).unwrap();
    let mut viewer = skinscope::viewer::Viewer::new(c, Some(path));
    viewer.controls.matching.on = true;
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    h.get_by_label("Motion matching").click();
    for _ in 0..200 {
        h.run();
        if !h.state().controls.matching.on {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    h.run();
    assert!(!h.state().controls.matching.on);
    h.get_by_label_contains("no two legs");
    // Asked again, it stays off and says so again.
    h.state_mut().controls.matching.on = true;
    h.run();
    h.run();
    assert!(!h.state().controls.matching.on);
    h.get_by_label_contains("no two legs");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn released_keys_settle_to_idle_whatever_the_frame_rate() {
    // The window: W held for 8 s, then nothing, at a steady 60 Hz and at frames alternating
    // between 20 and 144 a second. The character must stop near where the goal stopped, not
    // keep switching between walks and turns chasing a goal it left behind.
    let c = skinscope::builtin::character().unwrap();
    let clips = skinscope::builtin::motion_clips(&c);
    let db = Arc::new(build_database(&c, &clips, &MatchWeights::default()).unwrap());
    let height = skinscope::pose::character_height(&c);
    for steps in [[1.0 / 60.0, 1.0 / 60.0], [1.0 / 20.0, 1.0 / 144.0]] {
        let mut performer = Performer::new(&c, Arc::new(Ground::flat(0.0)), height, None);
        performer.set_motion_database(&c, db.clone());
        let mut inputs = Inputs {
            motion_matching: Some(MatchInput {
                velocity: Vec3::new(0.0, 0.0, 1.2),
            }),
            ..Inputs::default()
        };
        performer.cue(&c, &inputs, 0.0);
        let (mut t, mut k) = (0.0f32, 0usize);
        let mut late = Vec::new();
        while t < 40.0 {
            let dt = steps[k % 2];
            k += 1;
            t += dt;
            let v = if t < 8.0 {
                Vec3::new(0.0, 0.0, 1.2)
            } else {
                Vec3::ZERO
            };
            inputs.motion_matching = Some(MatchInput { velocity: v });
            performer.step(&c, &inputs, dt);
            if t > 30.0 {
                late.push(performer.locomotion.placement().position);
            }
        }
        let goal = performer.matching().stats.goal[0].0;
        let here = performer.locomotion.placement().position;
        let drift = late.first().unwrap().distance(*late.last().unwrap());
        let clip = c.clips[performer.playing_clip(&c).unwrap()].clip.name();
        println!(
            "{steps:?}: {drift:.3} m moved over the last 10 s, {:.3} m from the goal, playing {clip}",
            here.distance(goal)
        );
        assert!(drift < 0.05 * height, "{steps:?}: still moving {drift} m");
        assert!(
            here.with_y(0.0).distance(goal.with_y(0.0)) < 0.1 * height,
            "{steps:?}"
        );
        assert!(
            clip.contains("idle") || clip.contains("stop"),
            "{steps:?}: {clip}"
        );
    }
}
