//! The external pose: a live motion-capture stream on loopback (one BVH motion line a
//! UDP datagram) drives the joints it names and no others, a stream that stops holds and then
//! blends back, malformed datagrams are counted and skipped; a take played on its own clock;
//! the command line and the panel.

use crate::common;

use std::net::UdpSocket;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use glam::{Quat, Vec3};
use skinscope::character::Character;
use skinscope::mocap::MocapListener;
use skinscope::perform::{ExternalInput, HOLD_SECS, Inputs, Performer};
use skinscope::pose::CharacterPose;
use skinscope::scene::Ground;

/// The left arm of the built-in character as a BVH hierarchy: its four joints, offsets their
/// rest translations (its rest rotations are the identity), three rotation channels each.
const ARM: [&str; 4] = ["upperarm_l", "forearm_l", "forearm_twist_l", "hand_l"];

fn arm_bvh(c: &Character) -> String {
    let s = &c.skeleton;
    let mut text = String::from("HIERARCHY\n");
    for (depth, name) in ARM.iter().enumerate() {
        let j = s.find(name).unwrap();
        assert!(s.rest()[j].rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
        let t = if depth == 0 {
            Vec3::ZERO
        } else {
            s.rest()[j].translation
        };
        let keyword = if depth == 0 { "ROOT" } else { "JOINT" };
        text.push_str(&format!(
            "{keyword} {name}\n{{\nOFFSET {} {} {}\nCHANNELS 3 Zrotation Xrotation Yrotation\n",
            t.x, t.y, t.z
        ));
    }
    text.push_str("End Site\n{\nOFFSET 0 -0.08 0\n}\n");
    text.push_str(&"}\n".repeat(ARM.len()));
    text.push_str("MOTION\nFrames: 1\nFrame Time: 0.0333333\n0 0 0 0 0 0 0 0 0 0 0 0\n");
    text
}

fn arm_file(c: &Character, name: &str) -> PathBuf {
    let dir = common::temp_dir(name);
    let path = dir.join("arm.bvh");
    std::fs::write(&path, arm_bvh(c)).unwrap();
    path
}

/// Sends `datagrams` to the listener, then polls until a frame comes (or 5 s pass).
fn send_and_poll(
    listener: &mut MocapListener,
    c: &Character,
    datagrams: &[&[u8]],
) -> Option<Arc<skinscope::anim::ExternalFrame>> {
    let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
    for d in datagrams {
        sender.send_to(d, listener.address()).unwrap();
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut frame = None;
    while Instant::now() < deadline {
        if let Some(f) = listener.poll(&c.skeleton) {
            frame = Some(f);
        }
        let seen = listener.stats.received + listener.stats.malformed;
        if seen == datagrams.len() as u64 {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    frame
}

/// A performer of the rest pose (no clip) with the live external pose on.
fn rest_performer(c: &Character) -> (Performer, Inputs) {
    let performer = Performer::new(c, Arc::new(Ground::flat(0.0)), 1.8, None);
    let inputs = Inputs {
        clip: None,
        external: ExternalInput::Live,
        ..Inputs::default()
    };
    (performer, inputs)
}

fn posed(c: &Character, performer: &Performer, inputs: &Inputs) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &performer.request(c, inputs)).unwrap();
    pose
}

/// The angle between two rotations, in radians (0 for equal ones, whatever rounding does).
fn apart(a: Quat, b: Quat) -> f32 {
    // atan2 of the difference's vector part and its scalar: exact near 0, where acos is not.
    let d = a * b.inverse();
    2.0 * d.xyz().length().atan2(d.w.abs())
}

/// A joint's world rotation in a posed frame.
fn world_rotation(pose: &CharacterPose, joint: usize) -> Quat {
    pose.model.as_slice()[joint]
        .to_scale_rotation_translation()
        .1
}

#[test]
fn datagrams_on_loopback_move_the_joints_they_name_and_no_others() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-move");
    let mut listener = MocapListener::listen("127.0.0.1:0", &file, &c, None).unwrap();
    assert!(listener.address().ip().is_loopback());
    assert_eq!(
        (listener.driven_joints(), listener.channel_count()),
        (4, 12)
    );
    // The upper arm 30 degrees about Z, the forearm 45 degrees about X under it.
    let frame = send_and_poll(&mut listener, &c, &[b"30 0 0  0 45 0  0 0 0  0 0 0"]).unwrap();
    assert_eq!(listener.stats.received, 1);
    let (mut performer, inputs) = rest_performer(&c);
    let at_rest = posed(&c, &performer, &inputs);
    performer.receive_external(frame);
    let driven = posed(&c, &performer, &inputs);
    let s = &c.skeleton;
    let arm: Vec<usize> = ARM.iter().map(|n| s.find(n).unwrap()).collect();
    // The source's world rotations (its rest rotations are the identity, as the character's):
    // the upper arm's Rz(30), then Rz(30) Rx(45) for the forearm and the joints below it.
    let upper = Quat::from_rotation_z(30f32.to_radians());
    let fore = upper * Quat::from_rotation_x(45f32.to_radians());
    for (k, &j) in arm.iter().enumerate() {
        let want = if k == 0 { upper } else { fore };
        let got = world_rotation(&driven, j);
        assert!(apart(got, want) < 1e-4, "{}: {got} vs {want}", ARM[k]);
    }
    // The hand where the rotated arm puts it: the upper arm's rest position plus the rotated
    // rest offsets below it.
    let rest = |j: usize| s.rest()[j].translation;
    let at = |p: &CharacterPose, j: usize| Vec3::from(p.model.as_slice()[j].translation);
    let hand = at(&at_rest, arm[0]) + upper * rest(arm[1]) + fore * (rest(arm[2]) + rest(arm[3]));
    assert!((at(&driven, arm[3]) - hand).length() < 1e-5);
    // Every other joint's local transform is exactly as without the stream.
    for j in (0..s.joint_count()).filter(|j| !arm.contains(j)) {
        assert_eq!(
            driven.local().as_slice()[j],
            at_rest.local().as_slice()[j],
            "{} moved",
            s.names()[j]
        );
    }
}

#[test]
fn malformed_datagrams_are_counted_and_skipped() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-malformed");
    let mut listener = MocapListener::listen("127.0.0.1:0", &file, &c, None).unwrap();
    let frame = send_and_poll(
        &mut listener,
        &c,
        &[
            b"1 2 3",
            b"30 0 0 0 0 0 0 0 0 0 0 0 7",
            b"30 0 0 0 0 0 0 0 0 0 0 nan",
            b"30 0 0 0 0 zero 0 0 0 0 0 0",
            &[0xff, 0xfe, 0x20, 0x31],
            b"90 0 0 0 0 0 0 0 0 0 0 0",
        ],
    )
    .expect("the valid datagram");
    assert_eq!((listener.stats.received, listener.stats.malformed), (1, 5));
    let problem = listener.stats.last_problem.clone().unwrap();
    assert!(problem.contains("UTF-8"), "{problem}");
    // The valid one drives the arm: 90 degrees about Z.
    let (mut performer, inputs) = rest_performer(&c);
    performer.receive_external(frame);
    let pose = posed(&c, &performer, &inputs);
    let upper = c.skeleton.find("upperarm_l").unwrap();
    let want = Quat::from_rotation_z(90f32.to_radians());
    let got = world_rotation(&pose, upper);
    assert!(apart(got, want) < 1e-4, "{got} vs {want}");
    // Only malformed ones: no frame, each counted.
    let none = send_and_poll(&mut listener, &c, &[b"", b"1 2 3 4"]);
    assert!(none.is_none());
    assert_eq!(listener.stats.malformed, 7);
}

#[test]
fn a_stream_that_stops_holds_its_last_frame_then_blends_back() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-stale");
    let mut listener = MocapListener::listen("127.0.0.1:0", &file, &c, None).unwrap();
    let frame = send_and_poll(&mut listener, &c, &[b"60 0 0 0 0 0 0 0 0 0 0 0"]).unwrap();
    let (mut performer, mut inputs) = rest_performer(&c);
    inputs.blend_back_secs = 0.5;
    let without = {
        let mut off = inputs.clone();
        off.external = ExternalInput::Off;
        posed(&c, &performer, &off)
    };
    performer.receive_external(frame);
    let upper = c.skeleton.find("upperarm_l").unwrap();
    let angle = |p: &CharacterPose| apart(world_rotation(p, upper), Quat::IDENTITY);
    let dt = 1.0 / 60.0;
    // Held at full weight through HOLD_SECS. The frame is posed at age 0 by the step it arrived
    // before (it was read at that frame's start), so HOLD_SECS of age takes one step more.
    let hold_steps = (HOLD_SECS / dt).round() as usize + 1;
    for _ in 0..hold_steps {
        performer.step(&c, &inputs, dt);
    }
    assert!((angle(&posed(&c, &performer, &inputs)) - 60f32.to_radians()).abs() < 1e-4);
    // Half way through the blend back (0.25 s later): half the rotation.
    for _ in 0..15 {
        performer.step(&c, &inputs, dt);
    }
    let half = angle(&posed(&c, &performer, &inputs));
    assert!((half - 30f32.to_radians()).abs() < 1e-3, "{half}");
    // Blended back: the animation exactly, as without the stream.
    for _ in 0..16 {
        performer.step(&c, &inputs, dt);
    }
    let request = performer.request(&c, &inputs);
    assert!(request.external.is_none());
    let back = posed(&c, &performer, &inputs);
    assert_eq!(back.palette, without.palette);
    assert!(performer.external().staleness_secs().unwrap() > HOLD_SECS + 0.5);
}

#[test]
fn only_the_loopback_address_is_listened_on() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-address");
    for (address, says) in [
        ("0.0.0.0:7000", "loopback address only"),
        ("10.0.0.1:7000", "loopback address only"),
        ("localhost", "not an address and port"),
    ] {
        let e = MocapListener::listen(address, &file, &c, None)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains(address) && e.contains(says), "{e}");
    }
    // A hierarchy that names none of the character's joints is refused, naming the way out.
    let strange = file.with_file_name("strange.bvh");
    std::fs::write(
        &strange,
        "HIERARCHY\nROOT Blob\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 0\nFrame Time: 0.1\n",
    )
    .unwrap();
    let e = MocapListener::listen("127.0.0.1:0", &strange, &c, None)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("strange.bvh") && e.contains("--retarget-map"),
        "{e}"
    );
}

/// `palette --json` with `args`, its document.
fn palette(args: &[&str]) -> serde_json::Value {
    let mut all = vec!["palette", "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = common::skinscope(&all);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// A node's `world_from_joint` in `palette --json`.
fn node_matrix(json: &serde_json::Value, name: &str) -> glam::Mat4 {
    let node = json["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap();
    let m: Vec<f32> = node["world_from_joint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap() as f32)
        .collect();
    glam::Mat4::from_cols_slice(&m)
}

#[test]
fn the_command_line_poses_the_stream_s_frame_over_the_clip() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-cli");
    // A free port (the command binds it itself).
    let port = UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let address = format!("127.0.0.1:{port}");
    let done = Arc::new(AtomicBool::new(false));
    let sender = {
        let (done, address) = (done.clone(), address.clone());
        std::thread::spawn(move || {
            let socket = UdpSocket::bind("127.0.0.1:0").unwrap();
            while !done.load(Ordering::Relaxed) {
                let _ = socket.send_to(b"30 0 0 0 0 0 0 0 0 0 0 0", &address);
                std::thread::sleep(Duration::from_millis(5));
            }
        })
    };
    let skeleton = file.to_str().unwrap();
    let args = ["--clip", "walk", "--time", "0.25"];
    let live = palette(
        &[
            &args[..],
            &["--mocap-listen", &address, "--mocap-skeleton", skeleton],
        ]
        .concat(),
    );
    done.store(true, Ordering::Relaxed);
    sender.join().unwrap();
    let plain = palette(&args);
    // The upper arm's local rotation is the stream's Rz(30), under the walk's clavicle; the
    // joints outside the arm are where the walk puts them.
    let clavicle = node_matrix(&plain, "clavicle_l");
    let upper = c.skeleton.find("upperarm_l").unwrap();
    let local = glam::Mat4::from_rotation_translation(
        Quat::from_rotation_z(30f32.to_radians()),
        c.skeleton.rest()[upper].translation,
    );
    let want = clavicle * local;
    let got = node_matrix(&live, "upperarm_l");
    assert!(got.abs_diff_eq(want, 1e-5), "{got} vs {want}");
    for name in ["pelvis", "head", "hand_r", "foot_l", "clavicle_l"] {
        let (a, b) = (node_matrix(&plain, name), node_matrix(&live, name));
        assert!(a.abs_diff_eq(b, 1e-6), "{name} moved");
    }
    assert_ne!(node_matrix(&plain, "hand_l"), node_matrix(&live, "hand_l"));
}

#[test]
fn a_stream_that_never_comes_is_refused_after_the_wait() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-silent");
    let (code, _, err) = common::skinscope(&[
        "palette",
        "--mocap-listen",
        "127.0.0.1:0",
        "--mocap-skeleton",
        file.to_str().unwrap(),
        "--mocap-wait",
        "0.2",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no motion line") && err.contains("arm.bvh") && err.contains("0.2 s"),
        "{err}"
    );
    let (code, _, err) = common::skinscope(&[
        "palette",
        "--mocap",
        "walk",
        "--mocap-listen",
        "127.0.0.1:0",
        "--mocap-skeleton",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("give one"), "{err}");
}

#[test]
fn a_take_on_its_own_clock_drives_the_joints_it_names() {
    // The walk written as a BVH take and played as the external pose over idle: every joint
    // where the walk puts it at the same time (the take's clock starts with the run), within
    // 1e-3 of the character's height.
    let c = skinscope::builtin::character().unwrap();
    let take = common::walk_bvh(&c, "mocap-take");
    let height = skinscope::pose::character_height(&c);
    let take = take.to_str().unwrap();
    for time in ["0.25", "0.6"] {
        let want = palette(&["--clip", "walk", "--time", time]);
        let got = palette(&["--clip", "idle", "--time", time, "--mocap", take]);
        common::assert_joints_match(&c, &want, &got, 1e-3 * height, time);
    }
    // A clip of the character's own by name, too: wave over walk moves the waving arm.
    let plain = palette(&["--clip", "walk", "--time", "0.5"]);
    let waved = palette(&["--clip", "walk", "--time", "0.5", "--mocap", "wave"]);
    let wave = palette(&["--clip", "wave", "--time", "0.5"]);
    assert!(
        (common::node_at(&waved, "hand_r") - common::node_at(&wave, "hand_r")).length()
            < (common::node_at(&plain, "hand_r") - common::node_at(&wave, "hand_r")).length()
    );
}

#[test]
fn the_panel_shows_the_stream_its_rate_joints_and_staleness() {
    use egui_kittest::kittest::Queryable;
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-panel");
    let mut viewer = skinscope::viewer::Viewer::new(c, None);
    viewer.listen("127.0.0.1:0", &file).unwrap();
    assert_eq!(viewer.controls.mocap.external, ExternalInput::Live);
    let address = viewer.mocap.listener.as_ref().unwrap().address();
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    h.get_by_label("External pose (motion capture)").click();
    h.run();
    let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
    sender
        .send_to(b"45 0 0 0 0 0 0 0 0 0 0 0", address)
        .unwrap();
    sender.send_to(b"oops", address).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while h.state().performer.external().received() == 0 && Instant::now() < deadline {
        h.run();
        std::thread::sleep(Duration::from_millis(2));
    }
    h.run();
    let listening = format!("listening on {address} (arm.bvh), drives 4 joints");
    h.get_by_label(&listening);
    h.get_by_label_contains("1 received, 1 malformed skipped");
    h.get_by_label_contains("last frame 0.");
    h.get_by_label_contains("weight now 1.000");
    // Stop: the stream closes and the external pose turns off.
    h.get_by_label("Stop").click();
    h.run();
    assert!(h.state().mocap.listener.is_none());
    assert_eq!(h.state().controls.mocap.external, ExternalInput::Off);
}

#[test]
fn a_bvh_opens_on_its_own_as_a_skeleton_and_poses_as_its_take() {
    // The walk written as a BVH: opened on its own, its joints at the walk's world positions
    // (the take's own hierarchy, no mesh), inspected, posed and rendered as bones.
    let c = skinscope::builtin::character().unwrap();
    let take = common::walk_bvh(&c, "bvh-alone");
    let dir = take.parent().unwrap().to_path_buf();
    let skeleton = skinscope::import::load(&take).unwrap();
    assert!(skeleton.meshes.is_empty() && skeleton.instances.is_empty());
    assert_eq!(skeleton.clips.len(), 1);
    let take = take.to_str().unwrap();
    let height = skinscope::pose::character_height(&c);
    let want = palette(&["--clip", "walk", "--time", "0.4"]);
    let got = palette(&[take, "--time", "0.4"]);
    common::assert_joints_match(&c, &want, &got, 1e-3 * height, "0.4 s");
    let (code, out, err) = common::skinscope(&["inspect", take]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("0 meshes") && out.contains("\"walk\""),
        "{out}"
    );
    // Rendered: its bones, where the walk's are (some pixels are not the background).
    let png = dir.join("bones.png");
    let (code, _, err) = common::skinscope(&[
        "render",
        take,
        "--time",
        "0.4",
        "--size",
        "160x120",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let image = image::open(&png).unwrap().to_rgba8();
    let corner = *image.get_pixel(0, 0);
    let drawn = image.pixels().filter(|p| **p != corner).count();
    assert!(drawn > 100, "{drawn} pixels drawn");
    // A broken take is refused with its line.
    let broken = dir.join("broken.bvh");
    std::fs::write(&broken, "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0\n").unwrap();
    let (code, _, err) = common::skinscope(&["inspect", broken.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(
        err.contains("broken.bvh: line 4") && err.contains("OFFSET z"),
        "{err}"
    );
    // The viewer opens it, its bones shown.
    let mut viewer = skinscope::viewer::Viewer::new(c, None);
    viewer.open(std::path::Path::new(take)).unwrap();
    assert!(viewer.controls.view.show_bones && viewer.character.meshes.is_empty());
    viewer.frame(Vec::new(), 1.0 / 60.0);
    let (lo, hi) = viewer.world_bounds().unwrap();
    assert!((hi - lo).y > 0.8 * height, "{lo} {hi}");
}

#[test]
fn the_rate_counts_datagrams_a_second_not_reads_a_frame() {
    let c = skinscope::builtin::character().unwrap();
    let file = arm_file(&c, "mocap-rate");
    let mut listener = MocapListener::listen("127.0.0.1:0", &file, &c, None).unwrap();
    let address = listener.address();
    // 100 datagrams a second for 1.5 s, read by a window drawing 3 frames a second (each read
    // finds about 33 waiting).
    let sending = std::thread::spawn(move || {
        let sender = UdpSocket::bind("127.0.0.1:0").unwrap();
        for _ in 0..150 {
            sender
                .send_to(b"45 0 0 0 0 0 0 0 0 0 0 0", address)
                .unwrap();
            std::thread::sleep(Duration::from_millis(10));
        }
    });
    for _ in 0..5 {
        std::thread::sleep(Duration::from_millis(333));
        listener.poll(&c.skeleton);
    }
    sending.join().unwrap();
    let rate = listener.stats.rate_hz;
    // Reads a frame would show 3; a loaded machine sends fewer than 100 a second, not more.
    assert!(rate > 30.0 && rate < 110.0, "{rate} datagrams a second");
}
