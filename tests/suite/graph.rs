//! The data-driven state machine: the built-in character's graph run from
//! parameters, transitions with conditions, exit times and triggers, events from every playing
//! clip, errors named by JSON pointer, and `--graph --param --simulate` against the library.

use crate::common;

use common::{shared, skinscope};
use skinscope::builtin;
use skinscope::character::Character;
use skinscope::graph::{Graph, Machine, TransitionSpec, simulate};
use skinscope::pose::{CharacterPose, PaletteMode, TransitionKind};

fn mannequin() -> Character {
    builtin::character().unwrap()
}

fn graph(c: &Character) -> Graph {
    Graph::parse(builtin::GRAPH_JSON, c).unwrap()
}

fn clip(c: &Character, name: &str) -> usize {
    c.clips.iter().position(|k| k.clip.name() == name).unwrap()
}

fn state(m: &Machine) -> &str {
    m.state_name(m.current_state())
}

#[test]
fn speed_moves_the_mannequin_from_idle_into_the_locomotion_blend_space() {
    let c = mannequin();
    let g = graph(&c);
    let speed = g.parameter("speed").unwrap();
    let idle_only = simulate(&c, g.clone(), &[], 1.0);
    assert_eq!(state(&idle_only), "idle");
    let m = simulate(&c, g.clone(), &[(speed, 1.0)], 2.0);
    assert_eq!(state(&m), "locomotion");
    assert!(m.transition().is_none(), "the switch is long over");
    let request = m.request(&c, PaletteMode::Animated, false);
    // Speed 1.0 between idle (0) and walk (1.4): walk weighs 1/1.4.
    let main = request.clip.unwrap();
    assert_eq!(main.clip, clip(&c, "idle"));
    let blend = request.blend.unwrap();
    assert_eq!(blend.b, clip(&c, "walk"));
    assert!((blend.weight - 1.0 / 1.4).abs() < 1e-6);
    // The shared cycle lasts lerp(2.5, 1.0, 1/1.4) s; 2 s less the first frame (spent in idle
    // taking the transition: the motion starts then) is that many cycles.
    let cycle = 2.5 + (1.0 - 2.5) / 1.4;
    let phase = (2.0f32 / cycle).fract();
    let idle_time = phase * 2.5;
    assert!(
        (main.time_secs - idle_time).abs() < 1e-3,
        "{} vs {idle_time}",
        main.time_secs
    );
}

#[test]
fn the_switch_into_locomotion_is_inertialized_and_back_is_a_crossfade() {
    let c = mannequin();
    let g = graph(&c);
    let speed = g.parameter("speed").unwrap();
    let mut m = Machine::new(&c, g);
    m.advance(&c, 1.0 / 60.0);
    m.set(speed, 1.4);
    m.advance(&c, 1.0 / 60.0);
    let (from, t) = m.transition().unwrap();
    assert_eq!(m.state_name(from), "idle");
    assert!(
        matches!(t.spec, TransitionSpec::Inertialize { half_life_secs } if half_life_secs == 0.1)
    );
    let request = m.request(&c, PaletteMode::Animated, false);
    assert!(matches!(
        request.transition.unwrap().kind,
        TransitionKind::Inertialize(_)
    ));
    // The inertialization ends once less than 1e-4 of its offset is left: 13.3 half-lives.
    for _ in 0..90 {
        m.advance(&c, 1.0 / 60.0);
    }
    assert!(m.transition().is_none());
    m.set(speed, 0.0);
    m.advance(&c, 1.0 / 60.0);
    assert_eq!(state(&m), "idle");
    let request = m.request(&c, PaletteMode::Animated, false);
    match request.transition.unwrap().kind {
        TransitionKind::Crossfade { weight } => {
            // One frame into a 0.4 s crossfade, in real time.
            assert!((weight - (1.0 / 60.0) / 0.4).abs() < 1e-5, "{weight}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_trigger_fires_its_transition_once_and_an_exit_time_brings_it_back() {
    let c = mannequin();
    let g = graph(&c);
    let greet = g.parameter("greet").unwrap();
    let mut m = Machine::new(&c, g);
    m.set(greet, 1.0);
    m.advance(&c, 1.0 / 60.0);
    assert_eq!(state(&m), "greeting");
    assert_eq!(m.value(greet), 0.0, "the trigger is consumed");
    // The wave lasts 1.6 s; the way back waits for 95 % of it.
    for _ in 0..90 {
        m.advance(&c, 1.0 / 60.0);
    }
    assert_eq!(state(&m), "greeting");
    for _ in 0..10 {
        m.advance(&c, 1.0 / 60.0);
    }
    assert_eq!(state(&m), "idle");
}

#[test]
fn events_fire_from_every_playing_clip_once_per_crossing() {
    // Walking at full speed with the wave layer on for 2 s: walk's feet plant at 0.25 and
    // 0.75 s of each 1 s cycle (twice each), and the waving layer's hand tops at 0.8 s (once).
    let c = mannequin();
    let g = graph(&c);
    let (speed, wave) = (g.parameter("speed").unwrap(), g.parameter("wave").unwrap());
    let mut m = Machine::new(&c, g);
    m.set(speed, 1.4);
    m.set(wave, 1.0);
    let mut fired: Vec<String> = Vec::new();
    for _ in 0..120 {
        m.advance(&c, 1.0 / 60.0);
        fired.extend(m.fired.iter().map(|e| e.name.clone()));
    }
    let count = |name: &str| fired.iter().filter(|n| *n == name).count();
    assert_eq!(count("foot_left"), 2, "{fired:?}");
    assert_eq!(count("foot_right"), 2, "{fired:?}");
    assert_eq!(count("wave_top"), 1, "{fired:?}");
}

#[test]
fn a_layer_weight_eases_toward_its_parameter_with_its_half_life() {
    // The wave layer's half-life is 0.12 s: 0.12 s after the switch is turned on it weighs 0.5.
    let c = mannequin();
    let g = graph(&c);
    let wave = g.parameter("wave").unwrap();
    let mut m = Machine::new(&c, g);
    m.set(wave, 1.0);
    for _ in 0..12 {
        m.advance(&c, 0.01);
    }
    let request = m.request(&c, PaletteMode::Animated, false);
    let layer = &request.layers[0];
    assert_eq!(layer.clip.clip, clip(&c, "wave"));
    assert!((layer.weight - 0.5).abs() < 1e-5, "{}", layer.weight);
}

#[test]
fn simulate_on_the_command_line_poses_the_library_s_last_frame() {
    let c = mannequin();
    let g = graph(&c);
    let params = [
        (g.parameter("speed").unwrap(), 1.1),
        (g.parameter("wave").unwrap(), 1.0),
        (g.parameter("breathing").unwrap(), 0.5),
    ];
    let m = simulate(&c, g, &params, 1.75);
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &m.request(&c, PaletteMode::Animated, false))
        .unwrap();
    let want: Vec<f32> = pose
        .instance_palette(0)
        .unwrap()
        .iter()
        .flat_map(|p| p.to_cols_array())
        .collect();
    let graph_file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/skinscope_mannequin.skinscope.json"
    );
    for extra in [&["--graph", graph_file][..], &[][..]] {
        let mut args = vec![
            "palette",
            "--json",
            "--param",
            "speed=1.1",
            "--param",
            "wave=true",
            "--param",
            "breathing=0.5",
            "--simulate",
            "1.75",
        ];
        args.extend_from_slice(extra);
        let (code, out, err) = skinscope(&args);
        assert_eq!(code, 0, "{err}");
        let json: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(common::palette_floats(&json), want);
    }
    // An unknown parameter is named with the graph's.
    let (code, _, err) = skinscope(&["palette", "--simulate", "1", "--param", "sped=1"]);
    assert_ne!(code, 0);
    assert!(
        err.contains("\"sped\"") && err.contains("speed, wave"),
        "{err}"
    );
}

#[test]
fn bad_graphs_are_refused_with_the_json_pointer_of_the_problem() {
    let c = mannequin();
    let cases = [
        ("{", "", "not JSON"),
        (r#"{"states": []}"#, "/states", "at least one state"),
        (
            r#"{"states": [{"name": "a", "clip": "nope"}]}"#,
            "/states/0/clip",
            "no clip \"nope\"",
        ),
        (
            r#"{"states": [{"name": "a", "clip": "idle", "layers": [{"clip": "wave", "mask": ["elbow"]}]}]}"#,
            "/states/0/layers/0/mask/0",
            "no joint \"elbow\"",
        ),
        (
            r#"{"states": [{"name": "a", "clip": "idle"}], "transitions": [{"from": "a", "to": "b"}]}"#,
            "/transitions/0/to",
            "no state \"b\"",
        ),
        (
            r#"{"parameters": [{"name": "s", "type": "float"}], "states": [{"name": "a", "clip": "idle"}, {"name": "b", "clip": "walk"}], "transitions": [{"from": "a", "to": "b", "when": [{"parameter": "s", "is": true}]}]}"#,
            "/transitions/0/when/0",
            "cannot be tested this way",
        ),
        (
            r#"{"parameters": [{"name": "s", "type": "number"}], "states": [{"name": "a", "clip": "idle"}]}"#,
            "/parameters/0/type",
            "not float, bool or trigger",
        ),
        (
            r#"{"states": [{"name": "a", "blend_space": {"parameter": "x", "clips": []}}]}"#,
            "/states/0/blend_space/parameter",
            "no parameter \"x\"",
        ),
        (
            r#"{"states": [{"name": "a", "clip": "idle"}], "transitions": [{"from": "a", "to": "a", "kind": "blend"}]}"#,
            "/transitions/0/kind",
            "not crossfade or inertialize",
        ),
    ];
    for (text, pointer, message) in cases {
        let e = Graph::parse(text, &c).unwrap_err();
        assert_eq!(e.pointer, pointer, "{text}: {e}");
        assert!(e.message.contains(message), "{text}: {e}");
    }
    // Through the command line: the file, the pointer and the problem.
    let dir = common::temp_dir("bad-graph");
    let path = dir.join("bad.skinscope.json");
    std::fs::write(&path, cases[2].0).unwrap();
    let (code, _, err) = skinscope(&[
        "render",
        "--graph",
        path.to_str().unwrap(),
        "--out",
        dir.join("x.png").to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(
        err.contains("bad.skinscope.json: /states/0/clip: no clip \"nope\""),
        "{err}"
    );
}

#[test]
fn the_fox_graph_drives_survey_walk_and_run() {
    let fox_path = shared("Fox/Fox.glb");
    let fox = skinscope::import::load(&fox_path).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/Fox.skinscope.json");
    let g = Graph::load(std::path::Path::new(path), &fox).unwrap();
    let speed = g.parameter("speed").unwrap();
    let m = simulate(&fox, g.clone(), &[(speed, 2.0)], 1.0);
    assert_eq!(state(&m), "locomotion");
    let request = m.request(&fox, PaletteMode::Animated, false);
    assert_eq!(request.clip.unwrap().clip, clip(&fox, "Walk"));
    let blend = request.blend.unwrap();
    assert_eq!(blend.b, clip(&fox, "Run"));
    assert!((blend.weight - 0.5).abs() < 1e-6);
    let m = simulate(&fox, g, &[], 1.0);
    assert_eq!(state(&m), "survey");
}

#[test]
fn a_crossfade_s_outgoing_clip_plays_at_the_playback_speed_while_the_fade_runs_on_real_time() {
    let c = mannequin();
    let g = graph(&c);
    let speed = g.parameter("speed").unwrap();
    let mut m = Machine::new(&c, g);
    m.set(speed, 1.4);
    // Past the inertialized switch into locomotion (it ends after about 13 half-lives).
    for _ in 0..120 {
        m.advance(&c, 1.0 / 60.0);
    }
    assert!(m.transition().is_none());
    m.speed = 2.0;
    m.set(speed, 0.0);
    m.advance(&c, 0.01);
    let (_, t) = m.transition().unwrap();
    let (before, elapsed) = (t.from.ratio(), t.elapsed_secs);
    m.advance(&c, 0.1);
    let (_, t) = m.transition().unwrap();
    // The outgoing blend space follows its parameter, now 0: idle's 2.5 s cycle, at 2x, moves
    // 0.2 / 2.5 = 0.08 of a cycle in 0.1 s; the fade's clock moves 0.1 s.
    let moved = (t.from.ratio() - before).rem_euclid(1.0);
    assert!((moved - 0.08).abs() < 1e-4, "{moved}");
    assert!((t.elapsed_secs - elapsed - 0.1).abs() < 1e-6);
}
