//! Morph targets: glTF's semantics with hand-worked numbers, weight tracks, the GPU's
//! `morph_vertex` against the CPU reference on real files, uploads, the command line and the
//! panel.

use crate::common;

use std::path::Path;

use common::{RawGltf, shared, skinscope, temp_dir, window_frames};
use egui_kittest::kittest::Queryable;
use glam::{Mat4, Vec3};
use serde_json::json;
use skinscope::anim::{Interpolation, TargetDeltas, morph_vertex, sample_weights};
use skinscope::character::Character;
use skinscope::import;
use skinscope::pose::{CharacterPose, MorphOverride, PoseRequest, morphed_vertices};
use skinscope::render::gpu::Gpu;
use skinscope::render::skin_check::{CheckMorph, CheckVertex, morph_and_skin_on_gpu};

fn gpu() -> Gpu {
    Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"))
}

/// The worked example: a triangle (0,0,0), (1,0,0), (0,1,0) with +Z normals; target 0 moves
/// every vertex by (0,0,1), no normal deltas; target 1 moves vertex 0 by (2,0,0) and its normal
/// by (1,0,0). Default weights `weights`.
fn worked_triangle(weights: [f32; 2]) -> RawGltf {
    let mut raw = RawGltf::new();
    let positions = raw.add_f32(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0], "VEC3");
    let normals = raw.add_f32(&[0.0, 0.0, 1.0].repeat(3), "VEC3");
    let t0 = raw.add_f32(&[0.0, 0.0, 1.0].repeat(3), "VEC3");
    let t1 = raw.add_f32(&[2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "VEC3");
    let t1n = raw.add_f32(&[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], "VEC3");
    let mesh = raw.add_mesh(json!({
        "name": "tri",
        "primitives": [{"attributes": {"POSITION": positions, "NORMAL": normals},
                        "targets": [{"POSITION": t0}, {"POSITION": t1, "NORMAL": t1n}]}],
        "weights": weights,
        "extras": {"targetNames": ["lift", "push"]}
    }));
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    raw
}

fn load_raw(raw: &RawGltf, name: &str) -> Character {
    import::load_bytes(&raw.to_glb(), Path::new(name)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_worked_example_on_the_cpu_and_the_gpu() {
    let c = load_raw(&worked_triangle([1.0, 1.0]), "tri.glb");
    assert_eq!(c.meshes[0].target_names, ["lift", "push"]);
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::default()).unwrap();
    assert_eq!(pose.morph.of(0), [1.0, 1.0]);
    let world = pose.instance_world_positions(&c, 0);
    assert!(
        world[0].abs_diff_eq(Vec3::new(2.0, 0.0, 1.0), 1e-6),
        "{}",
        world[0]
    );
    assert!(
        world[1].abs_diff_eq(Vec3::new(1.0, 0.0, 1.0), 1e-6),
        "{}",
        world[1]
    );
    let (_, normals) = morphed_vertices(&c.meshes[0].primitives[0], pose.morph.of(0));
    let diagonal = std::f32::consts::FRAC_1_SQRT_2;
    assert!(normals[0].abs_diff_eq(Vec3::new(diagonal, 0.0, diagonal), 1e-6));
    assert!(normals[1].abs_diff_eq(Vec3::Z, 1e-6));
    // The shader's morph function gives the same numbers.
    let primitive = &c.meshes[0].primitives[0];
    let (dp, dn) = skinscope::render::morph_deltas(primitive);
    let vertices: Vec<CheckVertex> = (0..3)
        .map(|v| {
            CheckVertex::new(
                primitive.positions[v],
                primitive.normals[v],
                [0; 4],
                [1.0, 0.0, 0.0, 0.0],
            )
        })
        .collect();
    let morph = CheckMorph {
        positions: &dp,
        normals: &dn,
        active: &[(0, 1.0), (1, 1.0)],
    };
    let gpu_out = morph_and_skin_on_gpu(&gpu(), &[Mat4::IDENTITY], &vertices, morph).unwrap();
    assert!(gpu_out[0].0.abs_diff_eq(Vec3::new(2.0, 0.0, 1.0), 1e-6));
    assert!(gpu_out[1].0.abs_diff_eq(Vec3::new(1.0, 0.0, 1.0), 1e-6));
    assert!(
        gpu_out[0]
            .1
            .abs_diff_eq(Vec3::new(diagonal, 0.0, diagonal), 1e-6)
    );
}

#[test]
fn weights_are_neither_clamped_nor_normalised() {
    let p = Vec3::ZERO;
    let d = [Vec3::new(1.0, 0.0, 0.0)];
    let targets = [TargetDeltas {
        positions: Some(&d),
        normals: None,
    }];
    for w in [-0.5, 0.0, 2.5] {
        let (q, n) = morph_vertex(p, Vec3::Y, 0, &targets, &[w]);
        assert_eq!(q, Vec3::new(w, 0.0, 0.0));
        assert_eq!(n, Vec3::Y);
    }
}

#[test]
fn weight_tracks_step_linear_cubic_and_clamp() {
    let times = [1.0, 2.0, 4.0];
    let values = [0.0, 10.0, 1.0, 20.0, 3.0, -5.0]; // two targets per key
    let at = |interp, t: f32| {
        let mut out = [f32::NAN; 2];
        sample_weights(&times, &values, interp, t, &mut out);
        out
    };
    // Clamped at both ends.
    assert_eq!(at(Interpolation::Linear, 0.0), [0.0, 10.0]);
    assert_eq!(at(Interpolation::Linear, 9.0), [3.0, -5.0]);
    // LINEAR: halfway between keys 1 and 2 (t = 3).
    assert_eq!(at(Interpolation::Linear, 3.0), [2.0, 7.5]);
    // STEP is half-open: the next key's value holds from exactly its time.
    assert_eq!(at(Interpolation::Step, 1.999), [0.0, 10.0]);
    assert_eq!(at(Interpolation::Step, 2.0), [1.0, 20.0]);
    // A one-key track holds that key.
    let mut out = [0.0; 1];
    sample_weights(&[0.5], &[0.7], Interpolation::Linear, 3.0, &mut out);
    assert_eq!(out, [0.7]);
    // CUBICSPLINE, one target, keys at 0 and 2: value 0 with out-tangent 1, value 1 with
    // in-tangent 0. At u = 0.5 (t = 1), dt = 2: h = (0.5, 0.125, 0.5, -0.125):
    // 0.5 * 0 + 0.125 * 2 * 1 + 0.5 * 1 + (-0.125) * 2 * 0 = 0.75.
    let cubic = [9.0, 0.0, 1.0, 0.0, 1.0, 9.0]; // (in, value, out) per key
    let mut out = [0.0; 1];
    sample_weights(
        &[0.0, 2.0],
        &cubic,
        Interpolation::CubicSpline,
        1.0,
        &mut out,
    );
    assert!((out[0] - 0.75).abs() < 1e-6, "{out:?}");
}

#[test]
fn a_nodes_weights_are_its_defaults_and_count_in_the_bounds() {
    let mut raw = worked_triangle([0.0, 0.0]);
    raw.json["nodes"][0]["weights"] = json!([1.0, 0.0]);
    let c = load_raw(&raw, "node-weights.glb");
    assert_eq!(c.instances[0].default_weights, [1.0, 0.0]);
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::default()).unwrap();
    let (lo, hi) = pose.world_bounds(&c).unwrap();
    assert_eq!(
        (lo.z, hi.z),
        (1.0, 1.0),
        "lifted by the node's default weight"
    );
    // An override on top.
    let lowered = PoseRequest::default().with_morphs(vec![MorphOverride {
        mesh: 0,
        target: 0,
        weight: -1.0,
    }]);
    pose.evaluate(&c, &lowered).unwrap();
    assert_eq!(pose.world_bounds(&c).unwrap().0.z, -1.0);
}

/// Compares the GPU's morph and skinning with the CPU reference for every primitive of `c`
/// posed by `request`.
fn gpu_equals_cpu(gpu: &Gpu, c: &Character, request: &PoseRequest) {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, request).unwrap();
    let (lo, hi) = pose.world_bounds(c).unwrap();
    let tolerance = 1e-5 * (hi - lo).length();
    for (i, instance) in c.instances.iter().enumerate() {
        let weights = pose.morph.of(i);
        let active: Vec<(u32, f32)> = weights
            .iter()
            .enumerate()
            .filter(|(_, w)| **w != 0.0)
            .map(|(t, w)| (t as u32, *w))
            .collect();
        let palette = pose
            .instance_palette(i)
            .map_or(vec![Mat4::IDENTITY], <[Mat4]>::to_vec);
        for primitive in &c.meshes[instance.mesh].primitives {
            let (cpu, _) = morphed_vertices(primitive, weights);
            let vertices: Vec<CheckVertex> = (0..primitive.positions.len())
                .map(|v| {
                    let (j, w) = primitive
                        .skinning
                        .as_ref()
                        .map_or(([0; 4], [1.0, 0.0, 0.0, 0.0]), |s| {
                            (s.joints[v].map(u32::from), s.weights[v])
                        });
                    CheckVertex::new(primitive.positions[v], primitive.normals[v], j, w)
                })
                .collect();
            let (dp, dn) = skinscope::render::morph_deltas(primitive);
            let morph = CheckMorph {
                positions: &dp,
                normals: &dn,
                active: &active,
            };
            let gpu_out = morph_and_skin_on_gpu(gpu, &palette, &vertices, morph).unwrap();
            for (v, (g, _)) in gpu_out.iter().enumerate() {
                let expected = match (&primitive.skinning, pose.instance_palette(i)) {
                    (Some(s), Some(p)) => skinscope::anim::skin_position(
                        p,
                        s.joints[v].map(u32::from),
                        s.weights[v],
                        cpu[v],
                    )
                    .unwrap(),
                    _ => cpu[v],
                };
                assert!(
                    g.distance(expected) <= tolerance,
                    "{}: vertex {v}: GPU {g} vs CPU {expected}",
                    c.name
                );
            }
        }
    }
}

#[test]
fn gpu_morphing_equals_the_cpu_reference_on_real_files() {
    let gpu = gpu();
    for (file, times) in [
        ("SimpleMorph/SimpleMorph.gltf", [0.5, 1.7, 3.2]),
        ("AnimatedMorphCube/AnimatedMorphCube.glb", [0.4, 1.5, 3.9]),
        (
            "MorphPrimitivesTest/MorphPrimitivesTest.glb",
            [0.0, 0.0, 0.0],
        ),
    ] {
        let c = import::load(&shared(file)).unwrap();
        for t in times {
            let request = if c.clips.is_empty() {
                PoseRequest::default()
            } else {
                PoseRequest::clip(0, t)
            };
            gpu_equals_cpu(&gpu, &c, &request);
        }
        // And at hand-set weights, negative and above one included.
        let mesh = c.meshes[0].index;
        for (target, weight) in [(0, -0.5), (0, 1.7)] {
            let request = PoseRequest::default().with_morphs(vec![MorphOverride {
                mesh,
                target,
                weight,
            }]);
            gpu_equals_cpu(&gpu, &c, &request);
        }
    }
}

/// A strip of `n` vertices, target t moves vertex t up by (t + 1) / 100, every weight 1: all
/// `n` targets active.
fn strip_of_targets(n: usize) -> Character {
    let mut raw = RawGltf::new();
    let positions: Vec<f32> = (0..n).flat_map(|v| [v as f32 * 0.01, 0.0, 0.0]).collect();
    let positions = raw.add_f32(&positions, "VEC3");
    let targets: Vec<serde_json::Value> = (0..n)
        .map(|t| {
            let d: Vec<f32> = (0..n)
                .flat_map(|v| [0.0, if v == t { (t + 1) as f32 / 100.0 } else { 0.0 }, 0.0])
                .collect();
            json!({"POSITION": raw.add_f32(&d, "VEC3")})
        })
        .collect();
    let mesh = raw.add_mesh(
        json!({"primitives": [{"attributes": {"POSITION": positions}, "targets": targets}],
                                   "weights": vec![1.0; n]}),
    );
    let node = raw.add_node(json!({"mesh": mesh}));
    raw.add_root(node);
    load_raw(&raw, "many.glb")
}

#[test]
fn two_hundred_active_targets_all_draw() {
    let c = strip_of_targets(200);
    gpu_equals_cpu(&gpu(), &c, &PoseRequest::default());
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::default()).unwrap();
    let world = pose.instance_world_positions(&c, 0);
    assert!((world[199].y - 2.0).abs() < 1e-6 && (world[0].y - 0.01).abs() < 1e-6);
}

#[test]
fn a_crowd_of_morphed_copies_is_bounded_by_its_morph_weights_buffer() {
    // One unskinned strip: a copy holds 1 palette entry (64 bytes), 1 draw slot (112 bytes)
    // and 200 morph weights of 8 bytes (1,600 bytes), so the morph buffer bounds the crowd:
    // the default 128 MiB storage binding holds 134,217,728 / 1,600 = 83,886 copies.
    let c = strip_of_targets(200);
    assert_eq!(
        skinscope::draw::max_crowd(&wgpu::Limits::default(), &c),
        83_886
    );
}

#[test]
fn a_paused_morph_uploads_nothing() {
    use skinscope::render::renderer::{DrawOptions, FrameInput, Renderer, View};
    let gpu = gpu();
    let c = import::load(&shared("AnimatedMorphCube/AnimatedMorphCube.glb")).unwrap();
    let mut renderer = Renderer::new(
        &gpu.device,
        &gpu.queue,
        &c,
        skinscope::render::offscreen::COLOR_FORMAT,
        skinscope::draw::capacity(&c, 1),
    );
    let camera =
        skinscope::render::camera::Camera::framing(Vec3::splat(-1.0), Vec3::ONE, 40.0, 1.0);
    let mut frame = |pose: &CharacterPose| {
        renderer
            .prepare(
                View::Main,
                &gpu.queue,
                &FrameInput {
                    posed: skinscope::draw::extract(pose, &mut Vec::new()),
                    camera: &camera,
                    aspect: 1.0,
                    bones: &[],
                    options: &DrawOptions::default(),
                },
            )
            .morph_bytes
    };
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::clip(0, 1.5)).unwrap();
    let active = pose.morph.weights.iter().filter(|w| **w != 0.0).count() as u64;
    assert!(active > 0);
    // Each frame in flight gets the non-zero weights once (8 bytes each), then nothing.
    assert_eq!(frame(&pose), 8 * active);
    assert_eq!(frame(&pose), 8 * active);
    for _ in 0..4 {
        assert_eq!(frame(&pose), 0);
    }
    pose.evaluate(&c, &PoseRequest::clip(0, 1.6)).unwrap();
    assert!(frame(&pose) > 0);
}

#[test]
fn the_command_line_sets_weights_and_inspect_lists_targets() {
    let run = |args: &[&str]| {
        let (code, out, err) = skinscope(args);
        assert_eq!(code, 0, "{err}");
        out
    };
    let dir = temp_dir("morph");
    let file = dir.join("tri.glb");
    std::fs::write(&file, worked_triangle([0.0, 0.0]).to_glb()).unwrap();
    let file = file.to_str().unwrap();
    // By names and by indices, on top of the defaults.
    for spec in [["tri:lift=1", "tri:push=1"], ["0:0=1", "0:1=1"]] {
        let text = run(&[
            "palette", file, "--json", "--morph", spec[0], "--morph", spec[1],
        ]);
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["mesh_nodes"][0]["morph_weights"], json!([1.0, 1.0]));
        let obj = dir.join("tri.obj");
        run(&[
            "pose",
            file,
            "--morph",
            spec[0],
            "--morph",
            spec[1],
            "--out",
            obj.to_str().unwrap(),
        ]);
        let text = std::fs::read_to_string(&obj).unwrap();
        let first = text.lines().find(|l| l.starts_with("v ")).unwrap();
        assert_eq!(first, "v 2 0 1");
    }
    let text = run(&["inspect", file]);
    assert!(text.contains("target 0 \"lift\": POSITION"), "{text}");
    assert!(
        text.contains("target 1 \"push\": POSITION, NORMAL"),
        "{text}"
    );
    let (code, _, err) = skinscope(&["palette", file, "--morph", "tri:nope=1"]);
    assert_eq!(code, 2);
    assert!(err.contains("its targets are lift, push"), "{err}");
}

#[test]
fn the_panel_lists_targets_and_its_override_drives_the_pose() {
    let c = load_raw(&worked_triangle([0.0, 0.0]), "tri.glb");
    let viewer = skinscope::viewer::Viewer::new(c, None);
    let mut h = window_frames(viewer, (1100.0, 1600.0));
    h.run();
    let slider = egui::accesskit::Role::Slider;
    assert!(h.query_by_role_and_label(slider, "lift").is_some());
    assert!(h.query_by_role_and_label(slider, "push").is_some());
    h.get_by_label("Override the clip's morph weights").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "lift")
        .set_value_accesskit(1.0);
    h.run();
    let v = h.state();
    assert_eq!(v.pose.morph.of(0), [1.0, 0.0]);
    let world = v.pose.instance_world_positions(&v.character, 0);
    assert_eq!(world[1], Vec3::new(1.0, 0.0, 1.0));
}

#[test]
fn the_morph_displacement_colouring_shows_how_far_each_vertex_moved() {
    use skinscope::debug::colors::{ColorView, heat, vertex_colors};
    let c = load_raw(&worked_triangle([0.01, 0.01]), "tri.glb");
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::default()).unwrap();
    let colors = vertex_colors(&c, ColorView::MorphDisplacement, &pose, None, None);
    // Moved by 0.01 * |(2, 0, 1)| and 0.01; a tenth of the posed bounds' diagonal is full red.
    let (lo, hi) = pose.world_bounds(&c).unwrap();
    let tenth = 0.1 * (hi - lo).length();
    assert_eq!(colors[0][0][0], heat(0.01 * 5f32.sqrt() / tenth));
    assert_eq!(colors[0][0][1], heat(0.01 / tenth));
    assert_ne!(colors[0][0][0], colors[0][0][1]);
    // Nothing moves at zero weights.
    pose.evaluate(
        &c,
        &PoseRequest::default().with_morphs(vec![
            MorphOverride {
                mesh: 0,
                target: 0,
                weight: 0.0,
            },
            MorphOverride {
                mesh: 0,
                target: 1,
                weight: 0.0,
            },
        ]),
    )
    .unwrap();
    let colors = vertex_colors(&c, ColorView::MorphDisplacement, &pose, None, None);
    assert!(colors[0][0].iter().all(|c| *c == heat(0.0)));
}
