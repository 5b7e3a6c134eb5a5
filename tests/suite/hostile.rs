//! Hostile input: every read bounded. Devices, FIFOs, absolute and escaping URIs and
//! oversized files are refused by their kind and size before they are read, by every command,
//! within seconds.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{RawGltf, shared, temp_dir};
use serde_json::json;

/// Runs skinscope with `args`, killed after `limit` (a hang): (exit code, stderr).
fn run_bounded(args: &[&str], limit: Duration) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (status.code(), err);
        }
        if start.elapsed() > limit {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn refused(args: &[&str], says: &str) {
    let (code, err) = run_bounded(args, Duration::from_secs(60));
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
}

/// A one-triangle `.gltf` whose buffer is at `uri` (168 bytes declared), beside it in `dir`.
fn gltf_with_buffer_uri(dir: &Path, name: &str, uri: &str) -> PathBuf {
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"uri": uri, "byteLength": 168}],
        "bufferViews": [{"buffer": 0, "byteLength": 36}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0
    });
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&doc).unwrap()).unwrap();
    path
}

/// A textured quad (CesiumMan's texture, embedded) whose image is at `uri` instead.
fn gltf_with_image_uri(dir: &Path, name: &str, uri: &str) -> PathBuf {
    let mut raw = RawGltf::new();
    let p = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let uv = raw.add_f32(&[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], "VEC2");
    raw.push("images", json!({"uri": uri}));
    raw.push("textures", json!({"source": 0}));
    raw.push(
        "materials",
        json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}),
    );
    let mesh = raw.add_mesh(
        json!({"primitives": [{"attributes": {"POSITION": p, "TEXCOORD_0": uv}, "material": 0}]}),
    );
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    let path = dir.join(name);
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn uris_that_point_at_devices_or_outside_the_relative_rules_are_refused() {
    let dir = temp_dir("hostile-uris");
    let escapes = "../".repeat(dir.components().count() + 2) + "dev/zero";
    for (name, uri, says) in [
        (
            "file.gltf",
            "file:///dev/zero",
            "is not a relative path or a data: URI",
        ),
        (
            "absolute.gltf",
            "/dev/urandom",
            "is not a relative path or a data: URI",
        ),
        (
            "escapes.gltf",
            escapes.as_str(),
            "in /dev, the kernel's files",
        ),
        (
            "encoded.gltf",
            "%2Fdev%2Furandom",
            "is not a relative path or a data: URI",
        ),
    ] {
        let file = gltf_with_buffer_uri(&dir, name, uri);
        let file = file.to_str().unwrap();
        for command in ["inspect", "palette", "check"] {
            refused(&[command, file], says);
        }
        refused(
            &[
                "render",
                file,
                "--size",
                "16x16",
                "--out",
                dir.join("x.png").to_str().unwrap(),
            ],
            says,
        );
        refused(
            &["pose", file, "--out", dir.join("x.obj").to_str().unwrap()],
            says,
        );
    }
    // An image at a device: the texture is left out with a warning naming why; the file draws.
    let file = gltf_with_image_uri(&dir, "image.glb", &escapes);
    let c = skinscope::import::load(&file).unwrap();
    assert!(
        c.warnings
            .iter()
            .any(|w| w.pointer.starts_with("/images/0") && w.message.contains("in /dev")),
        "{:?}",
        c.warnings
    );
    // A relative buffer beside the file still loads, percent-encoded name and all.
    let good = dir.join("tri angle.bin");
    let floats: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .chain(std::iter::repeat_n(0, 132))
        .collect();
    std::fs::write(&good, floats).unwrap();
    let file = gltf_with_buffer_uri(&dir, "good.gltf", "tri%20angle.bin");
    let c = skinscope::import::load(&file).unwrap();
    assert_eq!(c.vertex_count(), 3);
}

/// Nine floats (a triangle) and padding to the 168 bytes `gltf_with_buffer_uri` declares.
fn triangle_bytes() -> Vec<u8> {
    [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .chain(std::iter::repeat_n(0, 132))
        .collect()
}

#[test]
fn a_model_reads_only_its_own_folder_tree_unless_given_a_wider_root() {
    let dir = temp_dir("hostile-reach");
    let models = dir.join("models");
    let textures = dir.join("textures");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(textures.join("deeper")).unwrap();
    std::fs::write(textures.join("tri.bin"), triangle_bytes()).unwrap();
    std::fs::write(models.join("here.bin"), triangle_bytes()).unwrap();
    let out = dir.join("o.obj");
    let out = out.to_str().unwrap();
    // Percent-encoded absolute paths are decoded before the checks: /etc/passwd is never read
    // (it was written out as vertex positions when the decoding came after them).
    let passwd = gltf_with_buffer_uri(&models, "passwd.gltf", "%2Fetc%2Fpasswd");
    refused(
        &["pose", passwd.to_str().unwrap(), "--out", out],
        "/buffers/0/uri: \"%2Fetc%2Fpasswd\" is not a relative path",
    );
    assert!(!Path::new(out).exists());
    // A symlink beside the model pointing out of its folder is followed, then refused.
    let link = models.join("link.bin");
    std::os::unix::fs::symlink("/etc/passwd", &link).unwrap();
    let linked = gltf_with_buffer_uri(&models, "linked.gltf", "link.bin");
    refused(
        &["pose", linked.to_str().unwrap(), "--out", out],
        "resolves to /etc/passwd, outside the model's folder",
    );
    // A sibling folder (an exported asset tree) is refused by default, naming the remedy...
    let sibling = gltf_with_buffer_uri(&models, "sibling.gltf", "../textures/tri.bin");
    let sibling = sibling.to_str().unwrap();
    refused(&["inspect", sibling], "outside the model's folder");
    refused(&["inspect", sibling], "--asset-root");
    let e = skinscope::import::load(Path::new(sibling)).unwrap_err();
    assert_eq!(e.errors[0].pointer, "/buffers/0/uri", "{e}");
    // ...and opens when the asset root holds both, from the command line and the library.
    let (code, err) = run_bounded(
        &["inspect", sibling, "--asset-root", dir.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{err}");
    let options = skinscope::import::LoadOptions {
        reach: skinscope::import::Reach::Root(dir.clone()),
        ..Default::default()
    };
    assert_eq!(
        skinscope::import::load_with(Path::new(sibling), options)
            .unwrap()
            .vertex_count(),
        3
    );
    // An asset root does not reach past itself, nor into the kernel's folders.
    let options = skinscope::import::LoadOptions {
        reach: skinscope::import::Reach::Root(textures.join("deeper")),
        ..Default::default()
    };
    let e = skinscope::import::load_with(Path::new(sibling), options).unwrap_err();
    assert!(e.to_string().contains("outside the asset root"), "{e}");
    let options = skinscope::import::LoadOptions {
        reach: skinscope::import::Reach::Anywhere,
        ..Default::default()
    };
    let escapes = "../".repeat(dir.components().count() + 2) + "proc/self/status";
    let kernel = gltf_with_buffer_uri(&models, "kernel.gltf", &escapes);
    let e = skinscope::import::load_with(&kernel, options).unwrap_err();
    assert!(
        e.to_string().contains("in /proc, the kernel's files"),
        "{e}"
    );
    // A file inside the folder, through `.` and a folder's `..`, still loads.
    let inside = gltf_with_buffer_uri(&models, "inside.gltf", "./sub/../here.bin");
    std::fs::create_dir_all(models.join("sub")).unwrap();
    assert_eq!(skinscope::import::load(&inside).unwrap().vertex_count(), 3);
    // A missing --asset-root is refused before anything is read.
    refused(
        &[
            "inspect",
            sibling,
            "--asset-root",
            dir.join("none").to_str().unwrap(),
        ],
        "--asset-root",
    );
    // --clips-from's files are held to the same rule.
    refused(
        &["palette", "--clips-from", sibling],
        "outside the model's folder",
    );
}

#[test]
fn model_and_json_files_are_checked_by_kind_and_size_before_they_are_read() {
    let dir = temp_dir("hostile-files");
    // Devices and a FIFO (nothing ever writes to it: reading it would wait forever).
    let fifo = dir.join("pipe.glb");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    for path in ["/dev/zero", "/dev/urandom", fifo.to_str().unwrap()] {
        refused(&["inspect", path], "is not a regular file");
        refused(
            &["palette", "--graph", path, "--simulate", "1"],
            "is not a regular file",
        );
        refused(&["palette", "--ground", path], "is not a regular file");
    }
    // Sparse files past the caps: a 10 GB .glb, a 6 GB .gltf and a 20 MB state machine. Their
    // sizes refuse them; nothing is read (they would take minutes and the memory).
    for (name, size, args) in [
        ("huge.glb", 10_000_000_000u64, vec!["inspect"]),
        ("huge.gltf", 6_000_000_000, vec!["check"]),
    ] {
        let path = dir.join(name);
        std::fs::File::create(&path).unwrap().set_len(size).unwrap();
        let mut all = args.clone();
        all.push(path.to_str().unwrap());
        refused(
            &all,
            "more than the 2147483648 bytes (2.0 GiB) this viewer reads",
        );
        std::fs::remove_file(&path).ok();
    }
    let graph = dir.join("big.skinscope.json");
    std::fs::File::create(&graph)
        .unwrap()
        .set_len(20 << 20)
        .unwrap();
    refused(
        &[
            "palette",
            "--graph",
            graph.to_str().unwrap(),
            "--simulate",
            "1",
        ],
        "more than the 16777216 bytes (16.0 MiB) this viewer reads",
    );
    // A GLB whose header declares 4 GB: read as far as its chunks go, with a warning.
    let mut glb = RawGltf::read_glb(&shared("Fox/Fox.glb")).to_glb();
    glb[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    let file = dir.join("declares.glb");
    std::fs::write(&file, glb).unwrap();
    let (code, err) = run_bounded(
        &["inspect", file.to_str().unwrap()],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_huge_name_in_a_state_machine_is_not_echoed_whole() {
    let dir = temp_dir("hostile-names");
    let name = "n".repeat(10_000_000);
    let graph = dir.join("long.skinscope.json");
    let text = json!({"states": [{"name": "go", "clip": "walk"}],
                      "transitions": [{"from": "go", "to": name}]});
    std::fs::write(&graph, serde_json::to_vec(&text).unwrap()).unwrap();
    let (code, err) = run_bounded(
        &[
            "palette",
            "--graph",
            graph.to_str().unwrap(),
            "--simulate",
            "1",
        ],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(2), "{}", &err[..err.len().min(300)]);
    assert!(err.len() < 1000, "{} bytes of error", err.len());
    assert!(
        err.contains("no state \"nnnn") && err.contains("(10000000 bytes)"),
        "{err}"
    );
}

// Outputs whole or absent, exit codes honest.

#[test]
fn a_failed_write_to_standard_output_exits_non_zero() {
    let fox = shared("Fox/Fox.glb");
    let fox = fox.to_str().unwrap();
    for args in [
        vec!["inspect", fox, "--json"],
        vec!["inspect", fox],
        vec!["palette", fox, "--json"],
        vec!["check", fox, "--json"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_skinscope"))
            .args(&args)
            .stdout(full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn nothing_non_finite_is_drawn_or_exported_and_its_options_are_range_checked() {
    let dir = temp_dir("hostile-nan");
    // Fox with two nested nodes scaled 1e30 each: their joints' transforms overflow to infinity
    // (each number is a valid float; their product is not).
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    raw.json["nodes"][0]["scale"] = json!([1e30, 1e30, 1e30]);
    raw.json["nodes"][2]["scale"] = json!([1e30, 1e30, 1e30]);
    let file = dir.join("overflow.glb");
    std::fs::write(&file, raw.to_glb()).unwrap();
    let file = file.to_str().unwrap();
    let obj = dir.join("posed.obj");
    let png = dir.join("frame.png");
    refused(&["palette", file, "--json"], "is not finite");
    refused(
        &["pose", file, "--out", obj.to_str().unwrap()],
        "is not finite",
    );
    refused(
        &[
            "render",
            file,
            "--size",
            "32x32",
            "--out",
            png.to_str().unwrap(),
        ],
        "is not finite",
    );
    assert!(!obj.exists() && !png.exists());
    // Options that would make such numbers are refused by their range.
    refused(
        &["palette", "--additive", "idle:1e30"],
        "--additive weight 1000000000000000000000000000000 is outside -10..=10",
    );
    refused(
        &["palette", "--morph", "mannequin:blink=1e9"],
        "--morph weight 1000000000 is outside -10..=10",
    );
    refused(
        &["palette", "--ik", "hand_r=1e30,0,0"],
        "--ik target \"1e30,0,0\" is farther than 1000000 from the origin",
    );
    let ground = dir.join("deep.json");
    std::fs::write(&ground, r#"{"floor": 3e38}"#).unwrap();
    refused(
        &["palette", "--ground", ground.to_str().unwrap()],
        "/floor: 300000000000000000000000000000000000000 is outside -1000000..=1000000",
    );
    // A write that cannot happen leaves nothing behind.
    let nowhere = dir.join("missing-folder/frame.png");
    refused(
        &[
            "render",
            "--size",
            "16x16",
            "--out",
            nowhere.to_str().unwrap(),
        ],
        "cannot write",
    );
    assert!(!nowhere.exists());
}

// Unbounded work, bounded.

#[test]
fn integration_lengths_are_capped_and_long_clips_are_examined_within_bounds() {
    refused(
        &["palette", "--simulate", "1e30"],
        "is more than the 600 s the state machine is run for",
    );
    refused(
        &["palette", "--simulate", "1e6"],
        "is more than the 600 s the state machine is run for",
    );
    refused(
        &[
            "palette",
            "--clip",
            "walk",
            "--root-motion",
            "applied",
            "--time",
            "1e30",
        ],
        "integrates from 0 s at 60 Hz: at most 600 s",
    );
    let dir = temp_dir("hostile-long-clip");
    let ground = dir.join("floor.json");
    std::fs::write(&ground, r#"{"floor": 0}"#).unwrap();
    refused(
        &[
            "palette",
            "--ground",
            ground.to_str().unwrap(),
            "--time",
            "1e30",
        ],
        "at most 600 s",
    );
    // Fox's Walk with its last key moved to 1e7 s: its contacts, slide and ground speed are
    // examined at a bounded number of times, in seconds, not at 60 Hz over 1e7 s.
    let file = stretched_walk(&dir, 1e7);
    let file = file.to_str().unwrap();
    let limit = Duration::from_secs(90);
    let (code, err) = run_bounded(&["check", file, "--clip", "Walk", "--foot-slide"], limit);
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = run_bounded(
        &[
            "palette",
            file,
            "--clip",
            "Walk",
            "--ground",
            ground.to_str().unwrap(),
            "--time",
            "1",
        ],
        limit,
    );
    assert_eq!(code, Some(0), "{err}");
    // Compression measures its error at times its keys call for, not 120 Hz over 1.6e32 s.
    let file = stretched_walk(&dir, 1.6e32);
    let (code, err) = run_bounded(&["inspect", file.to_str().unwrap(), "--compression"], limit);
    assert_eq!(code, Some(0), "{err}");
}

/// The Fox's Walk animation's index.
fn fox_walk(raw: &RawGltf) -> usize {
    raw.json["animations"]
        .as_array()
        .unwrap()
        .iter()
        .position(|a| a["name"] == "Walk")
        .unwrap()
}

/// Fox with its Walk clip's last key moved to `last_secs`.
fn stretched_walk(dir: &Path, last_secs: f32) -> PathBuf {
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let walk = fox_walk(&raw);
    let input = raw.json["animations"][walk]["samplers"][0]["input"]
        .as_u64()
        .unwrap() as usize;
    let mut times: Vec<f32> = raw.read(input).iter().map(|t| t[0] as f32).collect();
    *times.last_mut().unwrap() = last_secs;
    let stretched = raw.add_f32(&times, "SCALAR");
    for s in raw.json["animations"][walk]["samplers"]
        .as_array_mut()
        .unwrap()
    {
        if s["input"] == input {
            s["input"] = json!(stretched);
        }
    }
    let file = dir.join(format!("walk_to_{last_secs}.glb"));
    std::fs::write(&file, raw.to_glb()).unwrap();
    file
}

/// A skin of `joints` joints (a chain when `chain`, else all children of joint 0), 0.01 apart,
/// with matching inverse binds, and one triangle weighted to its first, middle and last joint.
fn many_joints(dir: &Path, joints: usize, chain: bool) -> PathBuf {
    let mut raw = RawGltf::new();
    let mut binds = Vec::with_capacity(joints);
    for k in 0..joints {
        let parent_at = if chain { 0.01 * k as f32 } else { 0.0 };
        let mut node = json!({"name": format!("j{k}")});
        if k > 0 {
            node["translation"] = json!([0.0, if chain { 0.01 } else { 0.01 * k as f32 }, 0.0]);
        }
        if chain && k + 1 < joints {
            node["children"] = json!([k + 1]);
        }
        raw.add_node(node);
        let y = if chain { parent_at } else { 0.01 * k as f32 };
        binds.push(glam::Mat4::from_translation(glam::Vec3::new(0.0, -y, 0.0)));
    }
    if !chain {
        raw.json["nodes"][0]["children"] = json!((1..joints).collect::<Vec<_>>());
    }
    raw.add_skin(&(0..joints).collect::<Vec<_>>(), &binds);
    let p = raw.add_f32(&[0.0, 0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 0.1, 0.0], "VEC3");
    let last = (joints - 1) as u16;
    let j = raw.add_u16(&[0, 0, 0, 0, last / 2, 0, 0, 0, last, 0, 0, 0], "VEC4");
    let w = raw.add_f32(&[1.0, 0.0, 0.0, 0.0].repeat(3), "VEC4");
    let mesh = raw.add_mesh(
        json!({"primitives": [{"attributes": {"POSITION": p, "JOINTS_0": j, "WEIGHTS_0": w}}]}),
    );
    let node = raw.add_node(json!({"mesh": mesh, "skin": 0}));
    raw.add_root(0);
    raw.add_root(node);
    let path = dir.join(format!("joints_{joints}_{chain}.glb"));
    std::fs::write(&path, raw.to_glb()).unwrap();
    path
}

#[test]
fn huge_skeletons_are_checked_in_linear_time() {
    // Before: check took 184 s on a 65,535-joint skin and 18.7 s on a 10,000-joint chain
    // (release); both were quadratic in the joints. A minute is a hang here.
    let dir = temp_dir("hostile-joints");
    for (joints, chain) in [(65_535, false), (10_000, true)] {
        let file = many_joints(&dir, joints, chain);
        let file = file.to_str().unwrap();
        for command in ["check", "inspect"] {
            let (code, err) = run_bounded(&[command, file], Duration::from_secs(60));
            assert!(matches!(code, Some(0 | 1)), "{command} {joints}: {err}");
        }
    }
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            found.extend(files_under(&path));
        } else {
            found.push(path);
        }
    }
    found
}

/// Starts a 90-frame sequence of the built-in character into `out`, waits until its first
/// temporary file is there (part way through), sends `signal` and returns the exit code.
fn interrupt_sequence(dir: &Path, out: &Path, signal: &str) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(["render", "--size", "48x48", "--to", "3", "--fps", "30"])
        .arg("--out")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while !files_under(dir)
        .iter()
        .any(|p| p.to_string_lossy().ends_with(".partial"))
    {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no temporary file appeared"
        );
        assert!(
            child.try_wait().unwrap().is_none(),
            "it ended before it was interrupted"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    if signal == "KILL" {
        child.kill().unwrap();
    } else {
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    }
    child.wait().unwrap().code()
}

#[test]
fn an_interrupted_sequence_leaves_no_frame_under_a_real_name_and_catchable_signals_leave_nothing() {
    let dir = temp_dir("hostile-interrupted");
    // Killed outright: temporary files may stay, but no frame is under its real name.
    let frames = dir.join("killed");
    interrupt_sequence(&frames, &frames.join("%04d.png"), "KILL");
    let left = files_under(&frames);
    assert!(
        left.iter()
            .all(|p| p.to_string_lossy().ends_with(".partial")),
        "{left:?}"
    );
    // Ctrl-C and SIGTERM remove every temporary file, numbered frames and single files alike.
    for (signal, name) in [
        ("INT", "%04d.png"),
        ("TERM", "%04d.png"),
        ("INT", "walk.gif"),
        ("TERM", "walk.png"),
    ] {
        let folder = dir.join(format!("{signal}-{}", name.replace('%', "")));
        std::fs::create_dir_all(&folder).unwrap();
        let code = interrupt_sequence(&folder, &folder.join(name), signal);
        assert_eq!(code, Some(130), "{signal} {name}");
        let left = files_under(&folder);
        assert!(left.is_empty(), "{signal} {name}: {left:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_stuck_ffmpeg_is_killed_after_a_bounded_wait_and_reported() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("hostile-ffmpeg");
    // An ffmpeg that never reads its input and never ends.
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let ffmpeg = bin.join("ffmpeg");
    std::fs::write(&ffmpeg, "#!/bin/sh\nexec sleep 600\n").unwrap();
    std::fs::set_permissions(&ffmpeg, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = dir.join("walk.mp4");
    let start = Instant::now();
    let run = Command::new(env!("CARGO_BIN_EXE_skinscope"))
        .args(["render", "--size", "256x256", "--to", "2", "--fps", "30"])
        .arg("--out")
        .arg(&out)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("SKINSCOPE_FFMPEG_WAIT_SECS", "2")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&run.stderr);
    assert_ne!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("took no frame in 2 s") && err.contains("killed"),
        "{err}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(60),
        "{:?}",
        start.elapsed()
    );
    assert!(
        files_under(&dir).iter().all(|p| p.starts_with(&bin)),
        "{:?}",
        files_under(&dir)
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// Fox with its Walk's key times scaled so that the clip lasts `secs`.
fn squeezed_walk(dir: &Path, secs: f32) -> PathBuf {
    let mut raw = RawGltf::read_glb(&shared("Fox/Fox.glb"));
    let walk = fox_walk(&raw);
    let inputs: Vec<usize> = raw.json["animations"][walk]["samplers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["input"].as_u64().unwrap() as usize)
        .collect();
    let last = inputs
        .iter()
        .map(|&i| raw.read(i).last().unwrap()[0])
        .fold(0.0, f64::max);
    let mut replaced = std::collections::HashMap::new();
    for &input in &inputs {
        if replaced.contains_key(&input) {
            continue;
        }
        let times: Vec<f32> = raw
            .read(input)
            .iter()
            .map(|t| (t[0] / last * f64::from(secs)) as f32)
            .collect();
        replaced.insert(input, raw.add_f32(&times, "SCALAR"));
    }
    for s in raw.json["animations"][walk]["samplers"]
        .as_array_mut()
        .unwrap()
    {
        let input = s["input"].as_u64().unwrap() as usize;
        s["input"] = json!(replaced[&input]);
    }
    let file = dir.join(format!("walk_in_{secs}.glb"));
    std::fs::write(&file, raw.to_glb()).unwrap();
    file
}

#[test]
fn work_is_bounded_by_what_is_asked_not_by_how_short_a_clip_is() {
    let dir = temp_dir("hostile-short-clips");
    let limit = Duration::from_secs(60);
    // A clip of 2 ns is left out at import with a warning naming it; the file still opens.
    let squeezed = squeezed_walk(&dir, 2e-9);
    let c = skinscope::import::load(&squeezed).unwrap();
    assert!(c.clips.iter().all(|k| k.clip.name() != "Walk"));
    assert!(
        c.warnings
            .iter()
            .any(|w| w.message.contains("under the 1 ms a clip must last")),
        "{:?}",
        c.warnings
    );
    refused(
        &[
            "palette",
            squeezed.to_str().unwrap(),
            "--clip",
            "Walk",
            "--root-motion",
            "applied",
            "--time",
            "600",
        ],
        "Walk",
    );
    // A BVH keyed at 1e-12 s is refused by its header.
    let bvh = dir.join("fast.bvh");
    std::fs::write(
        &bvh,
        "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 3\nFrame Time: 1e-12\n0 0 0 0 0 0\n1 0 0 0 0 10\n2 0 0 0 0 20\n",
    )
    .unwrap();
    refused(
        &[
            "palette",
            bvh.to_str().unwrap(),
            "--root-motion",
            "applied",
            "--time",
            "600",
        ],
        "under the 1 ms a clip must last",
    );
    // A clip just over the floor (2 ms, 300,000 laps in ten minutes) answers within the limit
    // under every command that integrates or steps over its laps.
    let short = squeezed_walk(&dir, 2e-3);
    let short = short.to_str().unwrap();
    for args in [
        &[
            "palette",
            short,
            "--clip",
            "Walk",
            "--root-motion",
            "applied",
            "--time",
            "600",
        ][..],
        &["check", short, "--clip", "Walk", "--foot-slide"],
        &["palette", short, "--motion-matching", "--simulate", "10"],
        &[
            "match-db",
            short,
            "--out",
            dir.join("short.db").to_str().unwrap(),
        ],
    ] {
        let start = Instant::now();
        let (code, err) = run_bounded(args, limit);
        assert!(code == Some(0) || code == Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{args:?}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn a_bvh_with_a_byte_order_mark_opens_and_header_errors_name_their_label_once() {
    let dir = temp_dir("hostile-bvh-text");
    let take = "HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n";
    let marked = dir.join("marked.bvh");
    std::fs::write(&marked, format!("\u{feff}{take}")).unwrap();
    let c = skinscope::import::load(&marked).unwrap();
    assert_eq!(c.skeleton.names()[0], "Hips");
    let nan = dir.join("nan.bvh");
    std::fs::write(&nan, take.replace("Frame Time: 0.1", "Frame Time: NaN")).unwrap();
    let e = skinscope::import::load(&nan).unwrap_err().to_string();
    assert!(e.contains("Frame Time: NaN is not a finite number"), "{e}");
    assert!(!e.contains("::"), "{e}");
}

#[test]
fn side_file_errors_name_their_file_and_the_right_remedy() {
    let dir = temp_dir("hostile-side-files");
    let missing = dir.join("missing.json");
    let missing = missing.to_str().unwrap();
    let garbled = dir.join("garbled.json");
    std::fs::write(&garbled, "{not json").unwrap();
    let garbled = garbled.to_str().unwrap();
    for (option, extra) in [
        ("--path", &["--motion-matching", "--simulate", "1"][..]),
        ("--muscles", &[][..]),
        ("--drivers", &[][..]),
        ("--motion-db", &["--motion-matching", "--simulate", "1"][..]),
        ("--ml-deformer", &[][..]),
        ("--retarget-map", &["--clips-from", garbled][..]),
    ] {
        for file in [missing, garbled] {
            if option == "--retarget-map" && file == garbled {
                continue;
            }
            let mut args = vec!["palette", option, file];
            args.extend_from_slice(extra);
            refused(&args, &format!("{option} {file}"));
        }
    }
    // A map that matches nothing is not answered with "give --retarget-map".
    let strange = dir.join("strange.bvh");
    std::fs::write(
        &strange,
        "HIERARCHY\nROOT Blob\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n",
    )
    .unwrap();
    let map = dir.join("map.json");
    std::fs::write(&map, r#"{"Nothing": "nowhere"}"#).unwrap();
    let (code, err) = run_bounded(
        &[
            "palette",
            "--clips-from",
            strange.to_str().unwrap(),
            "--retarget-map",
            map.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("through the retarget map given"), "{err}");
    assert!(!err.contains("give --retarget-map"), "{err}");
}

#[test]
fn an_output_a_folder_stands_in_the_way_of_is_refused_before_anything_is_drawn() {
    let dir = temp_dir("hostile-folder-output");
    for name in [
        "walk.gif",
        "walk.png",
        "still.png",
        "posed.obj",
        "frames/0003.png",
    ] {
        std::fs::create_dir_all(dir.join(name)).unwrap();
    }
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for args in [
        vec![
            "render".to_string(),
            "--out".into(),
            at("walk.gif"),
            "--to".into(),
            "30".into(),
        ],
        vec![
            "render".to_string(),
            "--out".into(),
            at("walk.png"),
            "--to".into(),
            "30".into(),
        ],
        vec![
            "render".to_string(),
            "--out".into(),
            at("frames/%04d.png"),
            "--to".into(),
            "30".into(),
        ],
        vec!["render".to_string(), "--out".into(), at("still.png")],
        vec!["pose".to_string(), "--out".into(), at("posed.obj")],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let start = Instant::now();
        refused(&args, "a folder has that name");
        // Refused up front: 900 frames at 30 fps would take minutes to draw.
        assert!(start.elapsed() < Duration::from_secs(20), "{args:?}");
    }
    // The numbered sequence's other frames were not written either.
    assert!(!dir.join("frames/0000.png").exists());
}

#[test]
fn render_refuses_a_frame_whose_posed_vertices_are_not_finite_as_pose_does() {
    let dir = temp_dir("hostile-nonfinite-vertices");
    // A triangle at 3e38 with a morph target moving it 3e38 further, at full weight: every
    // number in the file is finite, the palette too; the morphed vertex is not.
    let mut raw = RawGltf::new();
    let p = raw.add_f32(&[3e38, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let d = raw.add_f32(&[3e38, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "VEC3");
    let mesh = raw.add_mesh(json!({
        "primitives": [{"attributes": {"POSITION": p}, "targets": [{"POSITION": d}]}],
        "weights": [1.0]
    }));
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    let file = dir.join("far.glb");
    std::fs::write(&file, raw.to_glb()).unwrap();
    let file = file.to_str().unwrap();
    let (obj, png) = (dir.join("far.obj"), dir.join("far.png"));
    refused(
        &["pose", file, "--out", obj.to_str().unwrap()],
        "1 of 3 posed vertices are not finite",
    );
    refused(
        &[
            "render",
            file,
            "--size",
            "16x16",
            "--out",
            png.to_str().unwrap(),
        ],
        "1 of 3 posed vertices are not finite",
    );
    assert!(!obj.exists() && !png.exists());
}

#[test]
fn the_panel_s_switch_lets_a_model_read_a_sibling_folder_and_is_off_by_default() {
    use egui_kittest::kittest::Queryable;
    let dir = temp_dir("hostile-panel-reach");
    let models = dir.join("models");
    std::fs::create_dir_all(&models).unwrap();
    std::fs::create_dir_all(dir.join("textures")).unwrap();
    std::fs::write(dir.join("textures/tri.bin"), triangle_bytes()).unwrap();
    let sibling = gltf_with_buffer_uri(&models, "sibling.gltf", "../textures/tri.bin");
    let viewer = skinscope::viewer::Viewer::new(skinscope::builtin::character().unwrap(), None);
    let mut h = common::window_frames(viewer, (1100.0, 1600.0));
    // Off: refused, the built-in character stays.
    h.state_mut()
        .apply(skinscope::viewer::UiCommand::Open(sibling.clone()));
    h.run();
    assert!(h.state().source.is_none());
    assert!(
        h.state()
            .load_error
            .as_deref()
            .is_some_and(|e| e.contains("outside the model's folder")),
        "{:?}",
        h.state().load_error
    );
    // On: it opens.
    h.get_by_label("allow files outside the model's folder")
        .click();
    h.run();
    assert!(h.state().allow_outside);
    h.state_mut()
        .apply(skinscope::viewer::UiCommand::Open(sibling.clone()));
    h.run();
    assert_eq!(h.state().source.as_deref(), Some(sibling.as_path()));
    assert_eq!(h.state().character.vertex_count(), 3);
}
