//! Test helpers of the application's tests: running the skinscope binary, the panel in a test
//! harness, and fixtures built from the built-in character; the rest is `skinscope_testkit`'s.
#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};

use serde_json::Value;
pub use skinscope_testkit::*;

/// The first skin's inverse bind matrices.
pub fn ibms(raw: &RawGltf) -> Vec<glam::Mat4> {
    let a = raw.json["skins"][0]["inverseBindMatrices"]
        .as_u64()
        .unwrap() as usize;
    raw.read(a)
        .into_iter()
        .map(|m| glam::Mat4::from_cols_slice(&m.iter().map(|v| *v as f32).collect::<Vec<_>>()))
        .collect()
}

/// `raw` with the first skin's inverse binds replaced by `matrices` (a new accessor).
pub fn with_ibms(raw: &RawGltf, matrices: &[glam::Mat4]) -> RawGltf {
    let mut out = raw.clone();
    let flat: Vec<f32> = matrices.iter().flat_map(|m| m.to_cols_array()).collect();
    let a = out.add_f32(&flat, "MAT4");
    out.json["skins"][0]["inverseBindMatrices"] = serde_json::json!(a);
    out
}

/// The Khronos glTF-Validator's report of a file (its `issues`: numErrors, messages with code,
/// severity and pointer), through tests/validator.mjs and the package scripts/test.sh installs.
pub fn validate(file: &std::path::Path) -> Value {
    let package = std::env::var("SKINSCOPE_GLTF_VALIDATOR").unwrap_or_else(|_| {
        repository()
            .join("target/tools/node_modules/gltf-validator")
            .display()
            .to_string()
    });
    assert!(
        std::path::Path::new(&package)
            .join("package.json")
            .is_file(),
        "the glTF-Validator is not installed at {package}: run ./scripts/test.sh, which installs it"
    );
    let out = Command::new("node")
        .arg(repository().join("tests/validator.mjs"))
        .arg(file)
        .env("SKINSCOPE_GLTF_VALIDATOR", &package)
        .output()
        .expect("run node");
    assert!(
        out.status.success(),
        "validator: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the validator's JSON")
}

/// Runs the skinscope binary with `args`: (exit status, stdout, stderr).
pub fn skinscope(args: &[&str]) -> (i32, String, String) {
    let (code, out, err) = skinscope_bytes(args);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// Runs the skinscope binary with `args`: (exit status, stdout as bytes, stderr).
pub fn skinscope_bytes(args: &[&str]) -> (i32, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(args)
        .output()
        .expect("run skinscope");
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The panel of `viewer` in a test harness of `size` points, each frame run as the window runs
/// it: the panel's commands, then `Viewer::frame` (the clocks, the pose once).
pub fn window_frames(
    viewer: skinscope::viewer::Viewer,
    size: (f32, f32),
) -> egui_kittest::Harness<'static, skinscope::viewer::Viewer> {
    egui_kittest::Harness::builder()
        .with_size(size)
        .build_ui_state(
            |ui, viewer: &mut skinscope::viewer::Viewer| {
                let (commands, _) = skinscope::ui::show(ui, viewer);
                viewer.frame(commands, 1.0 / 60.0);
            },
            viewer,
        )
}

/// The built-in character's `clip` as a BVH in its own hierarchy and rest (every rest rotation
/// the identity), 30 frames a second.
pub fn bvh_of(c: &skinscope::character::Character, clip: &skinscope::anim::Clip) -> String {
    bvh_written(c, clip, &BvhRest::default())
}

/// How `bvh_written` turns the character's rest: per joint the rotation its rest offset is
/// turned by, and the rotation that replaces each frame's local rotation q (`local(j, q)`), so
/// that the take's world positions stay the original's; and whether joints without a child end
/// in an End Site.
#[derive(Default)]
pub struct BvhRest<'a> {
    pub turn: Vec<glam::Quat>,
    pub local: Option<&'a dyn Fn(usize, glam::Quat) -> glam::Quat>,
    pub end_sites: bool,
}

/// `clip` of the built-in character as a BVH, its rest turned as `rest` says.
pub fn bvh_written(
    c: &skinscope::character::Character,
    clip: &skinscope::anim::Clip,
    rest: &BvhRest<'_>,
) -> String {
    use glam::{Quat, Vec3};
    use skinscope::anim::{ClipCursor, LocalPose, sample_clip};
    let s = &c.skeleton;
    let pelvis = s.find("pelvis").unwrap();
    assert!(
        s.rest()
            .iter()
            .all(|t| t.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6))
    );
    let offset =
        |j: usize| rest.turn.get(j).copied().unwrap_or(Quat::IDENTITY) * s.rest()[j].translation;
    let mut order = Vec::new();
    let mut text = String::from("HIERARCHY\n");
    let mut stack = vec![(pelvis, 0usize, false)];
    // Depth first, each joint opened, its children, then closed (`true`: the close).
    while let Some((j, depth, close)) = stack.pop() {
        let pad = "  ".repeat(depth);
        let children: Vec<usize> = (0..s.joint_count())
            .filter(|&k| s.parent(k) == Some(j))
            .collect();
        if close {
            if children.is_empty() && rest.end_sites {
                // An End Site a quarter of the bone further along the joint's own offset.
                let end: Vec3 = offset(j) * 0.25;
                text.push_str(&format!(
                    "{pad}  End Site\n{pad}  {{\n{pad}    OFFSET {} {} {}\n{pad}  }}\n",
                    end.x, end.y, end.z
                ));
            }
            text.push_str(&format!("{pad}}}\n"));
            continue;
        }
        let t = offset(j);
        let keyword = if depth == 0 { "ROOT" } else { "JOINT" };
        text.push_str(&format!("{pad}{keyword} {}\n{pad}{{\n", s.names()[j]));
        text.push_str(&format!("{pad}  OFFSET {} {} {}\n", t.x, t.y, t.z));
        let channels = if depth == 0 {
            "CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation"
        } else {
            "CHANNELS 3 Zrotation Xrotation Yrotation"
        };
        text.push_str(&format!("{pad}  {channels}\n"));
        order.push(j);
        stack.push((j, depth, true));
        stack.extend(children.iter().rev().map(|&k| (k, depth + 1, false)));
    }
    let frames = (clip.duration_secs() * 30.0).round() as usize + 1;
    text.push_str(&format!(
        "MOTION\nFrames: {frames}\nFrame Time: {}\n",
        1.0 / 30.0
    ));
    let mut local = LocalPose::rest(s);
    let mut cursor = ClipCursor::new(clip);
    for f in 0..frames {
        sample_clip(s, clip, f as f32 / 30.0, &mut cursor, &mut local).unwrap();
        let mut values = Vec::new();
        for &j in &order {
            let t = local.as_slice()[j];
            if j == pelvis {
                values.extend(t.translation.to_array());
            }
            let q = rest
                .local
                .map_or(t.rotation, |turned| turned(j, t.rotation));
            let (z, x, y) = q.to_euler(glam::EulerRot::ZXY);
            values.extend([z, x, y].map(f32::to_degrees));
        }
        let line: Vec<String> = values.iter().map(|v| format!("{v:.6}")).collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    text
}

/// Every joint of `c` (but the armature node `mannequin`) at the same world position in two
/// `palette --json` documents, within `tolerance`; `what` names the frame in the message.
pub fn assert_joints_match(
    c: &skinscope::character::Character,
    want: &Value,
    got: &Value,
    tolerance: f32,
    what: &str,
) {
    for name in c
        .skeleton
        .names()
        .iter()
        .filter(|n| n.as_str() != "mannequin")
    {
        let (a, b) = (node_at(want, name), node_at(got, name));
        assert!((a - b).length() < tolerance, "{what}, {name}: {a} vs {b}");
    }
}

/// The built-in character's walk written as a BVH take `walk.bvh` in a fresh folder `dir`.
pub fn walk_bvh(c: &skinscope::character::Character, dir: &str) -> PathBuf {
    let walk = c.clips.iter().find(|k| k.clip.name() == "walk").unwrap();
    let path = temp_dir(dir).join("walk.bvh");
    std::fs::write(&path, bvh_of(c, &walk.clip)).unwrap();
    path
}

/// The mannequin at 1 s of its `twist` clip: the right forearm's twist joint turned 150 degrees.
pub fn wrist_twisted(c: &skinscope::character::Character) -> skinscope::pose::CharacterPose {
    let twist = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "twist")
        .unwrap();
    let mut pose = skinscope::pose::CharacterPose::new(c);
    pose.evaluate(c, &skinscope::pose::PoseRequest::clip(twist, 1.0))
        .unwrap();
    pose
}

/// The mannequin's right forearm cross-section where the forearm and its twist joint blend (a
/// slab 1 cm thick through the twist joint, across the bone, within 8 cm of it): its area at
/// bind and posed as `skin` (primitive, vertex, rest position) places its vertices, in m², and
/// the vertices in the slab.
pub fn twist_section_areas(
    c: &skinscope::character::Character,
    pose: &skinscope::pose::CharacterPose,
    skin: &mut dyn FnMut(usize, usize, glam::Vec3) -> glam::Vec3,
) -> (f32, f32, usize) {
    use glam::Vec3;
    let rest = skinscope::pose::CharacterPose::at_rest(c);
    let at = |name: &str, pose: &skinscope::pose::CharacterPose| {
        let j = c.skeleton.find(name).unwrap();
        Vec3::from(pose.model.as_slice()[j].translation)
    };
    let (elbow, joint) = (at("forearm_r", &rest), at("forearm_twist_r", &rest));
    let posed_joint = at("forearm_twist_r", pose);
    let axis = (joint - elbow).normalize();
    let side = axis.cross(Vec3::Z).normalize();
    let up = axis.cross(side);
    let flat = |q: Vec3, origin: Vec3| ((q - origin).dot(side), (q - origin).dot(up));
    let (mut bind, mut posed) = (Vec::new(), Vec::new());
    for (pi, primitive) in c.meshes[0].primitives.iter().enumerate() {
        for (v, &p) in primitive.positions.iter().enumerate() {
            let along = (p - joint).dot(axis);
            let off = p - joint - axis * along;
            if along.abs() > 0.005 || off.length() > 0.08 {
                continue;
            }
            bind.push(flat(p, joint));
            posed.push(flat(skin(pi, v, p), posed_joint));
        }
    }
    let n = bind.len();
    (hull_area(bind), hull_area(posed), n)
}

/// A private X server, stopped when dropped.
pub struct Xvfb(Child);

impl Drop for Xvfb {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The display to use: the session's, or a fresh Xvfb's.
pub fn display() -> (String, Option<Xvfb>) {
    if let Ok(d) = std::env::var("DISPLAY")
        && !d.is_empty()
    {
        return (d, None);
    }
    let mut child = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("no DISPLAY and cannot start Xvfb ({e}): install xvfb, or run ./scripts/test.sh, which does"));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let number = line.trim();
    assert!(!number.is_empty(), "Xvfb did not report its display");
    (format!(":{number}"), Some(Xvfb(child)))
}

/// The window on `display` run with `args`, its last frame to be saved to `out`: the command, for
/// the caller to add to and run.
pub fn window_screenshot(display: &str, args: &[&str], out: &std::path::Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_skinscope"));
    command
        .args(args)
        .arg("--screenshot")
        .arg(out)
        .env("DISPLAY", display)
        .env_remove("WAYLAND_DISPLAY");
    command
}

/// `skeleton`'s rest pose in model space.
pub fn rest_model(skeleton: &skinscope::anim::Skeleton) -> skinscope::anim::ModelPose {
    let mut model = skinscope::anim::ModelPose::new(skeleton);
    let rest = skinscope::anim::LocalPose::rest(skeleton);
    skinscope::anim::local_to_model(skeleton, &rest, &mut model).unwrap();
    model
}

/// Every joint's model-space position, `skeleton` playing `clip` at `t`.
pub fn joint_positions(
    skeleton: &skinscope::anim::Skeleton,
    clip: &skinscope::anim::Clip,
    t: f32,
) -> Vec<glam::Vec3> {
    let mut local = skinscope::anim::LocalPose::rest(skeleton);
    let mut cursor = skinscope::anim::ClipCursor::new(clip);
    skinscope::anim::sample_clip(skeleton, clip, t, &mut cursor, &mut local).unwrap();
    let mut model = skinscope::anim::ModelPose::new(skeleton);
    skinscope::anim::local_to_model(skeleton, &local, &mut model).unwrap();
    model
        .as_slice()
        .iter()
        .map(|m| glam::Vec3::from(m.translation))
        .collect()
}

/// The window's last frame run with `args` on `display` (in `folder`, when given), read back:
/// the user's recent files left out (a configuration folder of its own).
pub fn window_picture(
    display: &str,
    args: &[&str],
    folder: Option<&std::path::Path>,
) -> image::RgbImage {
    let out = std::env::temp_dir().join(format!(
        "skinscope-picture-{}-{}.png",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("main")
            .replace("::", "-")
    ));
    let mut command = window_screenshot(display, args, &out);
    if let Some(folder) = folder {
        command.current_dir(folder);
    }
    let result = command
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("skinscope-guide-no-config"),
        )
        .output()
        .unwrap();
    assert!(
        result.status.success(),
        "{args:?}: exit {:?}: {}",
        result.status.code(),
        String::from_utf8_lossy(&result.stderr)
    );
    let picture = image::open(&out).unwrap().to_rgb8();
    std::fs::remove_file(&out).ok();
    picture
}

/// The share of pixels of `a` and `b` (of one size) where a channel moves by more than
/// `tolerance`.
pub fn differing_share(a: &image::RgbImage, b: &image::RgbImage, tolerance: u8) -> f64 {
    assert_eq!(a.dimensions(), b.dimensions());
    let differ = a
        .pixels()
        .zip(b.pixels())
        .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > tolerance))
        .count();
    differ as f64 / f64::from(a.width() * a.height())
}
