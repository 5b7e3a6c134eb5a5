//! Skinning once a frame: the compute skin pass draws what vertex-shader skinning
//! draws, its output read back equals the CPU reference (positions and normals, LBS and DQS,
//! morphed, every copy of a crowd), it runs again only when the view's data changed, and
//! `pose` / `check --skin-on gpu` export and check the vertices drawn.

use crate::common;

use common::{obj_vertices, shared, skinscope, temp_dir};
use glam::Vec3;
use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::draw::headless::{self, CameraSpec, FrameRequest};
use skinscope::draw::{capacity, extract};
use skinscope::pose::{CharacterPose, MorphOverride, PoseRequest};
use skinscope::posed::PosedVertices;
use skinscope::render::camera::Camera;
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::COLOR_FORMAT;
use skinscope::render::renderer::{DrawOptions, FrameInput, Posed, Renderer, SkinPass, View};

fn load(rel: &str) -> Character {
    skinscope::import::load(&shared(rel)).unwrap_or_else(|e| panic!("{e}"))
}

fn mannequin() -> Character {
    skinscope::builtin::character().expect("the built-in character loads")
}

/// The mannequin playing `clip` at 1.5 s (looping), smiling and half blinking: skinned and
/// morphed.
fn mannequin_request(c: &Character, clip: &str) -> PoseRequest {
    let twist = c.clips.iter().position(|k| k.clip.name() == clip).unwrap();
    let weight = |target, weight| MorphOverride {
        mesh: 0,
        target,
        weight,
    };
    PoseRequest::clip(twist, 1.5).with_morphs(vec![weight(1, 1.0), weight(0, 0.5)])
}

/// The largest distance between matching vertices as a fraction of the reference's bounds'
/// diagonal, and the largest angle (radians) between matching normals.
fn apart(gpu: &PosedVertices, cpu: &PosedVertices) -> (f32, f32) {
    let points: Vec<Vec3> = cpu.instances.iter().flat_map(|(p, _)| p.clone()).collect();
    let (lo, hi) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| {
        (lo.min(p), hi.max(p))
    });
    let angle = (gpu.instances.iter().zip(&cpu.instances))
        .flat_map(|(a, b)| a.1.iter().zip(&b.1).map(|(m, n)| m.angle_between(*n)))
        .filter(|a| a.is_finite())
        .fold(0.0, f32::max);
    (gpu.max_distance(cpu) / (hi - lo).length(), angle)
}

#[test]
fn read_back_vertices_equal_the_cpu_reference() {
    let gpu = Gpu::headless().expect("a wgpu adapter (lavapipe)");
    let cesium = load("CesiumMan/CesiumMan.glb");
    let fox = load("Fox/Fox.glb");
    let mannequin = mannequin();
    let cases = [
        (&cesium, PoseRequest::clip(0, 0.7)),
        (&fox, PoseRequest::clip(2, 0.3)),
        (&mannequin, mannequin_request(&mannequin, "twist")),
    ];
    for (c, request) in &cases {
        let mut pose = CharacterPose::new(c);
        pose.evaluate(c, request).unwrap();
        let rest = CharacterPose::at_rest(c);
        for skinning in [SkinningMethod::Linear, SkinningMethod::DualQuaternion] {
            let on_gpu = headless::skin_on_gpu(&gpu, c, &pose, skinning).unwrap();
            let on_cpu = PosedVertices::on_cpu(c, &pose, skinning);
            let vertices: usize = on_cpu.instances.iter().map(|(p, _)| p.len()).sum();
            assert_eq!(vertices, c.vertex_count(), "{}", c.name);
            let (distance, angle) = apart(&on_gpu, &on_cpu);
            assert!(distance <= 1e-5, "{} {skinning:?}: {distance}", c.name);
            assert!(
                angle <= 1e-3,
                "{} {skinning:?}: normals {angle} rad apart",
                c.name
            );
            // The comparison can fail: the rest pose is not this frame.
            let at_rest = PosedVertices::on_cpu(c, &rest, skinning);
            assert!(apart(&on_gpu, &at_rest).0 > 1e-3, "{}", c.name);
        }
    }
}

#[test]
fn every_copy_of_a_crowd_is_skinned_with_its_own_palette() {
    let gpu = Gpu::headless().expect("a wgpu adapter (lavapipe)");
    let c = load("CesiumMan/CesiumMan.glb");
    let poses: Vec<CharacterPose> = [0.1, 0.6, 1.4]
        .iter()
        .map(|&t| {
            let mut pose = CharacterPose::new(&c);
            pose.evaluate(&c, &PoseRequest::clip(0, t)).unwrap();
            pose
        })
        .collect();
    let mut values = Vec::new();
    let one = extract(&poses[0], &mut values);
    let palette: Vec<_> = poses.iter().flat_map(|p| p.palette.clone()).collect();
    let world_from_mesh: Vec<_> = poses
        .iter()
        .flat_map(|p| p.world_from_mesh.clone())
        .collect();
    let morph_weights: Vec<_> = poses.iter().flat_map(|p| p.morph.weights.clone()).collect();
    let posed = Posed {
        palette: &palette,
        world_from_mesh: &world_from_mesh,
        morph_weights: &morph_weights,
        ..one
    };
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, &c, COLOR_FORMAT, capacity(&c, 3));
    let options = DrawOptions::default();
    renderer.prepare(
        View::Main,
        &gpu.queue,
        &FrameInput {
            posed,
            camera: &Camera::framing(Vec3::splat(-1.0), Vec3::ONE, 45.0, 1.0),
            aspect: 1.0,
            bones: &[],
            options: &options,
        },
    );
    let skinned = renderer
        .read_skinned(View::Main, &gpu.device, &gpu.queue)
        .unwrap();
    assert_eq!(skinned.copies, 3);
    assert_eq!(skinned.vertices.len(), 3 * c.vertex_count());
    for (k, pose) in poses.iter().enumerate() {
        // Copy k's vertices (CesiumMan: one instance of one primitive).
        let mesh_space = vec![
            (skinned.of(0, 0, k).iter())
                .map(|v| (Vec3::from_slice(&v.position), Vec3::from_slice(&v.normal)))
                .collect(),
        ];
        let on_gpu = PosedVertices::from_mesh_space(pose, &mesh_space);
        let (distance, _) = apart(
            &on_gpu,
            &PosedVertices::on_cpu(&c, pose, SkinningMethod::Linear),
        );
        assert!(distance <= 1e-5, "copy {k}: {distance}");
        let other = &poses[(k + 1) % 3];
        let (other_distance, _) = apart(
            &on_gpu,
            &PosedVertices::on_cpu(&c, other, SkinningMethod::Linear),
        );
        assert!(
            other_distance > 1e-3,
            "copy {k} is not copy {}",
            (k + 1) % 3
        );
    }
    assert!(skinned.of(0, 0, 3).is_empty(), "there is no fourth copy");
}

/// Pixels (of `a` and `b`, RGBA8) differing by more than 8 in a channel, and pixels of `a` that
/// are not the background's (the first pixel's) colour.
fn differing_and_covered(a: &[u8], b: &[u8]) -> (usize, usize) {
    let background = &a[..4];
    let differing = (a.chunks_exact(4).zip(b.chunks_exact(4)))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    let covered = a.chunks_exact(4).filter(|p| *p != background).count();
    (differing, covered)
}

#[test]
fn the_skin_pass_draws_what_the_vertex_shader_draws() {
    let gpu = Gpu::headless().expect("a wgpu adapter (lavapipe)");
    let cesium = load("CesiumMan/CesiumMan.glb");
    let mannequin = mannequin();
    let cases = [
        (&cesium, PoseRequest::clip(0, 0.5), SkinningMethod::Linear),
        (
            &cesium,
            PoseRequest::clip(0, 0.5),
            SkinningMethod::DualQuaternion,
        ),
        (
            &mannequin,
            mannequin_request(&mannequin, "walk"),
            SkinningMethod::DualQuaternion,
        ),
    ];
    for (c, pose, skinning) in cases {
        let render = |skin_pass, pose: PoseRequest| {
            let request = FrameRequest {
                size: (256, 192),
                pose,
                camera: CameraSpec::Auto {
                    fov_y_degrees: 40.0,
                },
                options: DrawOptions {
                    wireframe: true,
                    grid: false,
                    skinning,
                    skin_pass,
                    ..Default::default()
                },
                ..Default::default()
            };
            headless::render_frame(&gpu, c, &request).unwrap()
        };
        let vertex = render(SkinPass::Vertex, pose.clone());
        let compute = render(SkinPass::Compute, pose.clone());
        let pixels = vertex.len() / 4;
        let (differing, covered) = differing_and_covered(&vertex, &compute);
        assert!(covered > pixels / 50, "{}: the character is drawn", c.name);
        assert!(
            differing * 2000 < pixels,
            "{} {skinning:?}: {differing} of {pixels} pixels differ",
            c.name
        );
        // Another frame through the skin pass does differ: the comparison can fail.
        let mut later = pose.clone();
        if let Some(clip) = later.clip.as_mut() {
            clip.time_secs = 0.1;
        }
        let (moved, _) = differing_and_covered(&compute, &render(SkinPass::Compute, later));
        assert!(moved * 100 > pixels, "{}: {moved} pixels moved", c.name);
    }
}

#[test]
fn the_skin_pass_runs_again_only_when_the_frame_changed() {
    let gpu = Gpu::headless().expect("a wgpu adapter (lavapipe)");
    let c = load("CesiumMan/CesiumMan.glb");
    let mut renderer = Renderer::new(&gpu.device, &gpu.queue, &c, COLOR_FORMAT, capacity(&c, 1));
    let target = skinscope::render::offscreen::Offscreen::new(&gpu.device, (64, 64));
    let camera = Camera::framing(Vec3::splat(-1.0), Vec3::ONE, 45.0, 1.0);
    let mut pose = CharacterPose::new(&c);
    let mut frame = |pose: &CharacterPose, options: &DrawOptions| {
        renderer.prepare(
            View::Main,
            &gpu.queue,
            &FrameInput {
                posed: extract(pose, &mut Vec::new()),
                camera: &camera,
                aspect: 1.0,
                bones: &[],
                options,
            },
        );
        let painted = skinscope::draw::headless::paint_main(&gpu, &mut renderer, &target, options);
        (painted.skinned_in, painted.skin_pass_ran)
    };
    let auto = DrawOptions::default();
    pose.evaluate(&c, &PoseRequest::clip(0, 0.2)).unwrap();
    assert_eq!(frame(&pose, &auto), (SkinPass::Compute, true));
    assert_eq!(frame(&pose, &auto), (SkinPass::Compute, false), "paused");
    assert_eq!(frame(&pose, &auto), (SkinPass::Compute, false), "paused");
    pose.evaluate(&c, &PoseRequest::clip(0, 0.3)).unwrap();
    assert_eq!(frame(&pose, &auto), (SkinPass::Compute, true), "played");
    let dqs = DrawOptions {
        skinning: SkinningMethod::DualQuaternion,
        ..auto
    };
    assert_eq!(
        frame(&pose, &dqs),
        (SkinPass::Compute, true),
        "skinning changed"
    );
    let vertex = DrawOptions {
        skin_pass: SkinPass::Vertex,
        ..auto
    };
    assert_eq!(frame(&pose, &vertex), (SkinPass::Vertex, false));
}

#[test]
fn pose_and_check_read_the_gpu_skin_pass_back() {
    let dir = temp_dir("skin-pass");
    let file = shared("CesiumMan/CesiumMan.glb");
    let file = file.to_str().unwrap();
    // Per joint: dual quaternions on the left arm alone.
    let left_arm = "Skeleton_arm_joint_L__4_";
    for skinning in ["lbs", "dqs", "per-joint"] {
        let mut points = Vec::new();
        for on in ["cpu", "gpu"] {
            let out = dir.join(format!("{skinning}-{on}.obj"));
            let (code, _, err) = skinscope(&[
                "pose",
                file,
                "--time",
                "0.7",
                "--dqs-joints",
                left_arm,
                "--skinning",
                skinning,
                "--skin-on",
                on,
                "--out",
                out.to_str().unwrap(),
            ]);
            assert_eq!(code, 0, "{err}");
            points.push(obj_vertices(&out));
        }
        assert_eq!(points[0].len(), 3273);
        let worst = (points[0].iter().zip(&points[1]))
            .map(|(a, b)| a.distance(*b))
            .fold(0.0, f32::max);
        // CesiumMan stands about 1.5 units tall.
        assert!(worst < 2e-5, "{skinning}: {worst}");
        let (code, out, err) = skinscope(&[
            "check",
            file,
            "--time",
            "0.7",
            "--dqs-joints",
            left_arm,
            "--skinning",
            skinning,
            "--skin-on",
            "gpu",
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let g = &report["gpu_skinning"];
        assert_eq!(g["vertices"], 3273);
        assert_eq!(g["skinning"], skinning);
        assert!(g["max_relative"].as_f64().unwrap() <= 1e-5, "{g}");
    }
    // LBS and DQS exports differ where the joints bend.
    let (lbs, dqs) = (
        obj_vertices(&dir.join("lbs-gpu.obj")),
        obj_vertices(&dir.join("dqs-gpu.obj")),
    );
    let moved = lbs.iter().zip(&dqs).filter(|(a, b)| a.distance(**b) > 1e-4);
    assert!(moved.count() > 100);
    // Per joint: every vertex is where one of the two puts it, or between; some follow each.
    let per_joint = obj_vertices(&dir.join("per-joint-gpu.obj"));
    let (mut as_lbs, mut as_dqs) = (0, 0);
    for ((p, l), d) in per_joint.iter().zip(&lbs).zip(&dqs) {
        let (to_l, to_d) = (p.distance(*l), p.distance(*d));
        assert!(to_l + to_d <= l.distance(*d) + 1e-4, "{p} {l} {d}");
        as_lbs += usize::from(to_l < 1e-6 && to_d > 1e-4);
        as_dqs += usize::from(to_d < 1e-6 && to_l > 1e-4);
    }
    assert!(as_lbs > 50 && as_dqs > 20, "{as_lbs} {as_dqs}");
    // A joint the file lacks is named.
    let (code, _, err) = skinscope(&[
        "pose",
        file,
        "--dqs-joints",
        "nosuch",
        "--skinning",
        "per-joint",
        "--out",
        dir.join("x.obj").to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--dqs-joints") && err.contains("nosuch"),
        "{err}"
    );
}

#[test]
fn check_reports_gpu_vertices_that_stray_from_the_reference() {
    let c = load("CesiumMan/CesiumMan.glb");
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::clip(0, 0.7)).unwrap();
    let cpu = PosedVertices::on_cpu(&c, &pose, SkinningMethod::Linear);
    let report = |gpu: &PosedVertices| {
        let mut report = skinscope::debug::check::check(&c, &PoseRequest::clip(0, 0.7));
        let errors = report.errors();
        report.add_gpu_skinning(SkinningMethod::Linear, gpu, &cpu);
        (report.errors() - errors, report.gpu_skinning.unwrap())
    };
    let (errors, same) = report(&cpu.clone());
    assert_eq!((errors, same.max_distance), (0, 0.0));
    // One vertex 1e-4 of the diagonal off is an error; so is a NaN.
    let mut off = cpu.clone();
    let (lo, hi) = off.instances[0]
        .0
        .iter()
        .fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| {
            (lo.min(p), hi.max(p))
        });
    off.instances[0].0[100].x += 1e-4 * (hi - lo).length();
    let (errors, strayed) = report(&off);
    assert_eq!(errors, 1);
    assert!((strayed.max_relative - 1e-4).abs() < 1e-6, "{strayed:?}");
    let mut nan = cpu.clone();
    nan.instances[0].1[7] = Vec3::NAN;
    assert_eq!(report(&nan).0, 1);
}

#[test]
fn a_click_picks_among_the_vertices_drawn() {
    use skinscope::debug::picking::{Pick, ScreenView, pick};
    let gpu = Gpu::headless().expect("a wgpu adapter (lavapipe)");
    let c = mannequin();
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &mannequin_request(&c, "twist")).unwrap();
    // The wrist twisted 150 degrees: the vertex DQS moves furthest from where LBS puts it.
    let drawn = headless::skin_on_gpu(&gpu, &c, &pose, SkinningMethod::DualQuaternion).unwrap();
    let lbs = PosedVertices::on_cpu(&c, &pose, SkinningMethod::Linear);
    let (positions, lbs_positions) = (&drawn.instances[0].0, &lbs.instances[0].0);
    let v = (0..positions.len())
        .max_by(|&a, &b| {
            let d = |i: usize| positions[i].distance(lbs_positions[i]);
            d(a).total_cmp(&d(b))
        })
        .unwrap();
    assert!(positions[v].distance(lbs_positions[v]) > 0.01);
    let (min, max) = pose.world_bounds(&c).unwrap();
    let camera = Camera::framing(min, max, 20.0, 1.0);
    let view = ScreenView {
        origin: glam::Vec2::ZERO,
        size: glam::Vec2::splat(2000.0),
        clip_from_world: camera.clip_from_world(1.0),
    };
    let at = view.project(positions[v]).unwrap();
    let picked = |vertices: &PosedVertices| match pick(&c, &pose, vertices, at, &view) {
        Pick::Vertex(p) => Some(p.position),
        _ => None,
    };
    // Among the vertices drawn, the click lands on a vertex drawn under it.
    let on_drawn = picked(&drawn).expect("a vertex under the click");
    assert!(view.project(on_drawn).unwrap().distance(at) <= 8.0);
    assert!(positions.contains(&on_drawn));
    // Among linear blend's, the vertex there is not the one drawn.
    assert_ne!(picked(&lbs), Some(positions[v]));
}
