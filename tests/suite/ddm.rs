//! Direct delta mush: the precomputation and the CPU reference against the formulas
//! (a dense f64 evaluation keeping every joint), the paper's invariants (rigid motions, the
//! bind pose, the no-smoothing limit), the mannequin's twisted wrist, the GPU against the CPU,
//! and the command line.

use crate::common;

use common::{shared, skinscope};
use glam::{DMat3, DMat4, DVec3, DVec4, Mat4, Quat, Vec3};
use skinscope::anim::{self, SkinningMethod};
use skinscope::character::Character;
use skinscope::deform::ddm::{self, DdmParams, SmoothedOmega};
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest, rest_bounds};

fn cesium_man() -> Character {
    skinscope::import::load(&shared("CesiumMan/CesiumMan.glb")).unwrap()
}

fn diagonal(c: &Character) -> f32 {
    let (lo, hi) = rest_bounds(c);
    lo.distance(hi)
}

/// Every vertex of every skinned primitive of the first instance by direct delta mush on the
/// CPU (mesh space), with `palette` its palette.
fn ddm_positions(c: &Character, data: &ddm::DdmData, palette: &[Mat4]) -> Vec<Vec3> {
    let mesh = c.instances[0].mesh;
    let mut out = Vec::new();
    for (p, primitive) in c.meshes[mesh].primitives.iter().enumerate() {
        let omega = data.primitive(mesh, p).unwrap();
        for (v, (&q, &n)) in primitive
            .positions
            .iter()
            .zip(&primitive.normals)
            .enumerate()
        {
            let (centroid, entries) = omega.of(v);
            out.push(anim::ddm_skin(palette, centroid, entries, q, n).unwrap().0);
        }
    }
    out
}

/// The rotation nearest an f64 3x3, by another algorithm than the runtime's Jacobi SVD: the
/// orthogonal polar factor U by Higham's iteration U <- (U + U⁻ᵀ) / 2; where it is a reflection
/// (det m < 0), U (I − 2 e eᵀ) with e the eigenvector of the symmetric factor Uᵀ m's smallest
/// eigenvalue (by inverse iteration).
fn polar_f64(m: DMat3) -> DMat3 {
    let mut u = m;
    for _ in 0..60 {
        u = (u + u.inverse().transpose()) * 0.5;
    }
    if u.determinant() > 0.0 {
        return u;
    }
    let h = u.transpose() * m;
    let inverse = h.inverse();
    let mut e = DVec3::new(0.3, 0.5, 0.8).normalize();
    for _ in 0..200 {
        e = (inverse * e).normalize();
    }
    u * (DMat3::IDENTITY - 2.0 * DMat3::from_cols(e * e.x, e * e.y, e * e.z))
}

/// The dense evaluation: every joint's Ω in f64, Q, its polar rotation and translation in f64.
fn dense_position(omega: &[(u32, [f64; 10])], palette: &[Mat4], v: Vec3) -> DVec3 {
    let mut q = DMat4::ZERO;
    for (j, o) in omega {
        let sym = DMat4::from_cols(
            DVec4::new(o[0], o[1], o[2], o[3]),
            DVec4::new(o[1], o[4], o[5], o[6]),
            DVec4::new(o[2], o[5], o[7], o[8]),
            DVec4::new(o[3], o[6], o[8], o[9]),
        );
        q += palette[*j as usize].as_dmat4() * sym;
    }
    let q = q * (1.0 / q.w_axis.w);
    let column = q.w_axis.truncate();
    let row = DVec3::new(q.x_axis.w, q.y_axis.w, q.z_axis.w);
    let top = DMat3::from_cols(
        q.x_axis.truncate(),
        q.y_axis.truncate(),
        q.z_axis.truncate(),
    );
    let m = top - DMat3::from_cols(column * row.x, column * row.y, column * row.z);
    let r = polar_f64(m);
    r * v.as_dvec3() + (column - r * row)
}

fn posed(c: &Character, request: &PoseRequest) -> CharacterPose {
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, request).unwrap();
    pose
}

/// The capped f32 runtime against the dense f64 evaluation of the same formulas on an
/// animated frame: within 1e-3 of the bounds' diagonal, the cap the only difference.
fn assert_matches_the_dense_evaluation(c: &Character, request: &PoseRequest) {
    let off = off_the_dense_evaluation(c, std::slice::from_ref(request));
    assert!(off <= 1e-3, "{}: {off:.2e} of the diagonal", c.name);
}

/// The largest distance, over the first instance's vertices and the frames `requests` pose,
/// between the runtime at the default parameters and the dense f64 evaluation, as a fraction of
/// the bounds' diagonal.
fn off_the_dense_evaluation(c: &Character, requests: &[PoseRequest]) -> f64 {
    let params = DdmParams::default();
    let started = std::time::Instant::now();
    let data = ddm::precompute(c, &params, &mut |_| {}).unwrap();
    println!(
        "{}: precomputed in {:.2} s (debug build): {:?}",
        c.name,
        started.elapsed().as_secs_f32(),
        data.stats()
    );
    let mesh = c.instances[0].mesh;
    // The mesh's primitives smoothed as one surface, as the precomputation does (every
    // primitive of the shared characters is skinned, so the vertices line up).
    let primitives: Vec<_> = c.meshes[mesh].primitives.iter().collect();
    assert!(primitives.iter().all(|p| p.skinning.is_some()));
    let dense: SmoothedOmega = ddm::smoothed_omega_of(&primitives, &params, 256, &mut |_| {})
        .unwrap_or_else(|_| panic!("dense"));
    let rest: Vec<Vec3> = primitives
        .iter()
        .flat_map(|p| p.positions.iter().copied())
        .collect();
    let mut worst = 0.0f64;
    for request in requests {
        let pose = posed(c, request);
        let palette = pose.instance_palette(0).unwrap();
        let got = ddm_positions(c, &data, palette);
        for (v, &q) in rest.iter().enumerate() {
            let want = dense_position(&dense.omega[dense.welded_of[v] as usize], palette, q);
            worst = worst.max(want.distance(got[v].as_dvec3()));
        }
    }
    let d = f64::from(diagonal(c));
    println!(
        "{}: capped f32 against dense f64: {:.2e} of the diagonal",
        c.name,
        worst / d
    );
    worst / d
}

#[test]
fn at_the_defaults_every_shared_and_built_in_character_is_within_2e_3_of_the_dense_evaluation() {
    let mut characters = vec![skinscope::builtin::character().unwrap()];
    for file in common::gltf_files(&shared("")) {
        let c = skinscope::import::load(&file).unwrap();
        if c.instances.first().is_some_and(|i| {
            c.meshes[i.mesh]
                .primitives
                .iter()
                .any(|p| p.skinning.is_some())
        }) && !c.skins.is_empty()
        {
            characters.push(c);
        }
    }
    assert!(characters.len() >= 5, "{}", characters.len());
    for c in &characters {
        // Every clip at five times (or the rest pose).
        let mut requests: Vec<PoseRequest> = (c.clips.iter().enumerate())
            .flat_map(|(k, clip)| {
                (0..5).map(move |t| PoseRequest::clip(k, clip.duration_secs() * t as f32 / 5.0))
            })
            .collect();
        requests.push(PoseRequest::default());
        let off = off_the_dense_evaluation(c, &requests);
        assert!(off <= 2e-3, "{}: {off:.2e} of the diagonal", c.name);
    }
}

#[test]
fn the_cpu_reference_equals_a_dense_f64_evaluation_on_cesium_man_and_the_mannequin() {
    let c = cesium_man();
    assert_matches_the_dense_evaluation(&c, &PoseRequest::clip(0, 0.7));
    let m = skinscope::builtin::character().unwrap();
    let wave = m
        .clips
        .iter()
        .position(|k| k.clip.name() == "wave")
        .unwrap();
    assert_matches_the_dense_evaluation(&m, &PoseRequest::clip(wave, 0.8));
}

#[test]
fn a_rigid_motion_of_the_whole_skeleton_moves_every_vertex_rigidly_and_the_bind_pose_is_rest() {
    let c = cesium_man();
    let data = ddm::precompute(&c, &DdmParams::default(), &mut |_| {}).unwrap();
    let bind = posed(&c, &PoseRequest::rest(PaletteMode::Bind));
    let palette = bind.instance_palette(0).unwrap().to_vec();
    let rest: Vec<Vec3> = c.meshes[c.instances[0].mesh]
        .primitives
        .iter()
        .flat_map(|p| p.positions.iter().copied())
        .collect();
    let at_bind = ddm_positions(&c, &data, &palette);
    let worst = at_bind
        .iter()
        .zip(&rest)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max);
    assert!(worst < 1e-5, "bind pose: {worst}");
    let rigid = Mat4::from_rotation_translation(
        Quat::from_euler(glam::EulerRot::YXZ, 1.2, -0.4, 0.3),
        Vec3::new(0.5, -1.0, 2.0),
    );
    let moved: Vec<Mat4> = palette.iter().map(|m| rigid * *m).collect();
    let got = ddm_positions(&c, &data, &moved);
    let worst = (got.iter().zip(&at_bind))
        .map(|(g, b)| g.distance(rigid.transform_point3(*b)))
        .fold(0.0, f32::max);
    // f32 rounding only: within 1e-6 of the bounds' diagonal (a few ulps of the moved points).
    println!(
        "rigid motion: {worst:.2e} off rigid, diagonal {}",
        diagonal(&c)
    );
    assert!(worst < 1e-6 * diagonal(&c), "rigid: {worst}");
}

#[test]
fn without_smoothing_and_with_alpha_zero_it_approaches_linear_blend() {
    let c = cesium_man();
    let pose = posed(&c, &PoseRequest::clip(0, 0.7));
    let palette = pose.instance_palette(0).unwrap();
    let lbs = skinscope::posed::PosedVertices::on_cpu(&c, &pose, SkinningMethod::Linear);
    let world = pose.world_from_mesh[0];
    let d = diagonal(&c);
    let mut errors = Vec::new();
    for lambda in [1e-1f32, 1e-3] {
        let params = DdmParams {
            iterations: 1,
            lambda,
            kappa: lambda / 2.0,
            alpha: 0.0,
            ..Default::default()
        };
        let data = ddm::precompute(&c, &params, &mut |_| {}).unwrap();
        let got = ddm_positions(&c, &data, palette);
        let worst = (got.iter().zip(&lbs.instances[0].0))
            .map(|(g, l)| world.transform_point3(*g).distance(*l))
            .fold(0.0, f32::max);
        errors.push(worst / d);
    }
    println!("DDM against LBS as lambda falls: {errors:?} of the diagonal");
    assert!(errors[1] < errors[0] && errors[1] < 1e-3, "{errors:?}");
}

#[test]
fn on_the_mannequin_s_150_degree_twist_the_forearm_keeps_its_section() {
    let c = skinscope::builtin::character().unwrap();
    // The mannequin's mesh is dense (22,500 vertices): at the default λ = 3 the smoothing
    // reaches only halfway round the forearm and the section keeps about 38%; λ = 30 smooths
    // it whole.
    let params = DdmParams {
        lambda: 30.0,
        ..Default::default()
    };
    let data = ddm::precompute(&c, &params, &mut |_| {}).unwrap();
    let pose = common::wrist_twisted(&c);
    let palette = pose.instance_palette(0).unwrap();
    let primitives = &c.meshes[0].primitives;
    let (bind, twisted, slab) = common::twist_section_areas(&c, &pose, &mut |p, v, q| {
        let (centroid, entries) = data.primitive(0, p).unwrap().of(v);
        anim::ddm_skin(palette, centroid, entries, q, primitives[p].normals[v])
            .unwrap()
            .0
    });
    println!(
        "wrist section at 150 degrees under DDM: {:.2} of {:.2} cm2 ({:.0}%), {slab} vertices",
        twisted * 1e4,
        bind * 1e4,
        100.0 * twisted / bind
    );
    assert!(twisted >= 0.9 * bind, "{twisted} of {bind}");
}

#[test]
fn parameters_outside_the_paper_s_limits_are_named() {
    let bad = [
        (
            DdmParams {
                iterations: 0,
                ..Default::default()
            },
            "iterations 0",
        ),
        (
            DdmParams {
                lambda: 0.0,
                ..Default::default()
            },
            "lambda 0",
        ),
        (
            DdmParams {
                kappa: 3.0,
                ..Default::default()
            },
            "kappa 3",
        ),
        (
            DdmParams {
                alpha: 1.0,
                ..Default::default()
            },
            "alpha 1",
        ),
        (
            DdmParams {
                cap: 0,
                ..Default::default()
            },
            "cap 0",
        ),
    ];
    // The library names the field; the command line (below) names its flag.
    for (params, says) in bad {
        let e = params.check().unwrap_err().to_string();
        assert!(e.starts_with(says), "{e}");
    }
    assert!(DdmParams::default().check().is_ok());
    let (code, _, err) = skinscope(&[
        "pose",
        "--skinning",
        "ddm",
        "--ddm-kappa",
        "4",
        "--out",
        "/tmp/x.obj",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--ddm-kappa 4: must be positive and less than lambda"),
        "{err}"
    );
}

/// Welding: vertices at one position share an index, so a seam is smoothed across.
#[test]
fn welding_joins_vertices_at_one_position() {
    let p = [
        Vec3::ZERO,
        Vec3::X,
        Vec3::ZERO,
        Vec3::new(-0.0, 0.0, 0.0),
        Vec3::Y,
    ];
    let (welded, representative) = ddm::weld(&p);
    assert_eq!(welded, vec![0, 1, 0, 0, 2]);
    assert_eq!(representative, vec![0, 1, 4]);
}

/// The cotangent Laplacian of a right isosceles triangle by hand: the right angle's cotangent
/// is 0, the two 45-degree angles' 1, so the hypotenuse weighs 0 and each leg 0.5.
#[test]
fn the_cotangent_laplacian_of_a_right_triangle() {
    let p = [DVec3::ZERO, DVec3::X, DVec3::Y];
    let mut l = [[0.0f64; 3]; 3];
    for (i, j, v) in ddm::cotangent_laplacian(&p, &[[0, 1, 2]]) {
        l[i as usize][j as usize] += v;
    }
    let want = [[1.0, -0.5, -0.5], [-0.5, 0.5, 0.0], [-0.5, 0.0, 0.5]];
    for (row, want) in l.iter().zip(want) {
        for (a, b) in row.iter().zip(want) {
            assert!((a - b).abs() < 1e-12, "{l:?}");
        }
    }
}

/// The skin pass's direct delta mush (shaders/ddm.wgsl) against the CPU reference: within 1e-5
/// of the bounds' diagonal, on CesiumMan and on the mannequin with its correctives driven (so
/// morph targets apply before DDM on both).
#[test]
fn the_skin_pass_equals_the_cpu_reference() {
    let gpu = skinscope::render::gpu::Gpu::headless()
        .unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"));
    let mannequin = skinscope::builtin::character().unwrap();
    let wave = mannequin
        .clips
        .iter()
        .position(|k| k.clip.name() == "wave")
        .unwrap();
    let mut driven = PoseRequest::clip(wave, 0.8);
    driven.drivers = skinscope::builtin::own_drivers(&mannequin)
        .unwrap()
        .map(std::sync::Arc::new);
    for (c, request) in [
        (cesium_man(), PoseRequest::clip(0, 0.7)),
        (mannequin, driven),
    ] {
        let data = ddm::precompute(&c, &DdmParams::default(), &mut |_| {}).unwrap();
        let pose = posed(&c, &request);
        if request.drivers.is_some() {
            assert!(
                pose.morph.weights.iter().any(|&w| w > 0.5),
                "a corrective is on"
            );
        }
        let method = SkinningMethod::DeltaMush;
        let cpu = skinscope::posed::PosedVertices::on_cpu_with(&c, &pose, method, Some(&data));
        let on_gpu = skinscope::draw::headless::skin_on_gpu_with(
            &gpu,
            &c,
            &pose,
            method,
            Some(&data.clone().into()),
        )
        .unwrap();
        let worst = on_gpu.max_distance(&cpu) / diagonal(&c);
        println!("{}: GPU against CPU {worst:.2e} of the diagonal", c.name);
        assert!(worst <= 1e-5, "{worst}");
        // Not linear blend's: DDM moves the bent joints' vertices elsewhere.
        let lbs = skinscope::posed::PosedVertices::on_cpu(&c, &pose, SkinningMethod::Linear);
        assert!(cpu.max_distance(&lbs) > 1e-3 * diagonal(&c));
    }
}

#[test]
fn check_render_and_pose_take_skinning_ddm() {
    let dir = common::temp_dir("ddm");
    let file = shared("CesiumMan/CesiumMan.glb");
    let file = file.to_str().unwrap();
    let (code, out, err) = skinscope(&[
        "check",
        file,
        "--time",
        "0.7",
        "--skinning",
        "ddm",
        "--skin-on",
        "gpu",
        "--json",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let g = &report["gpu_skinning"];
    assert_eq!(g["skinning"], "ddm");
    assert_eq!(g["vertices"], 3273);
    assert!(g["max_relative"].as_f64().unwrap() <= 1e-5, "{g}");
    let obj = dir.join("ddm.obj");
    let (code, _, err) = skinscope(&[
        "pose",
        file,
        "--time",
        "0.7",
        "--skinning",
        "ddm",
        "--ddm-iterations",
        "10",
        "--out",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&obj)
            .unwrap()
            .lines()
            .filter(|l| l.starts_with("v "))
            .count()
            == 3273
    );
    let png = dir.join("ddm.png");
    let (code, _, err) = skinscope(&[
        "render",
        file,
        "--skinning",
        "ddm",
        "--size",
        "96x96",
        "--silhouette",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    let img = image::open(&png).unwrap().to_luma8();
    assert!(img.pixels().filter(|p| p.0[0] > 128).count() > 200);
    // A --ddm-* option without --skinning ddm would go unused: refused.
    let (code, _, err) = skinscope(&[
        "pose",
        file,
        "--ddm-alpha",
        "0.5",
        "--out",
        obj.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--skinning ddm"), "{err}");
}

#[test]
fn inspect_reports_omega_s_size_and_cap() {
    let file = shared("CesiumMan/CesiumMan.glb");
    let file = file.to_str().unwrap();
    let (code, out, err) = skinscope(&["inspect", file, "--ddm", "--ddm-cap", "8", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let d = &v["ddm"];
    assert_eq!(d["cap"], 8);
    assert_eq!(d["vertices"], 3273);
    // The same precomputation in the library: the report is its stats.
    let params = DdmParams {
        cap: 8,
        ..Default::default()
    };
    let stats = ddm::precompute(&cesium_man(), &params, &mut |_| {})
        .unwrap()
        .stats();
    assert_eq!(d["entries"], stats.entries);
    assert_eq!(d["welded"], stats.welded);
    assert_eq!(d["bytes"], stats.bytes);
    assert!(d["most_per_vertex"].as_u64().unwrap() <= 8);
    assert!(stats.entries <= 8 * stats.welded && stats.dropped > 0);
    let (code, _, err) = skinscope(&["inspect", file, "--ddm-cap", "8"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("need --ddm"), "{err}");
}

/// A primitive too large for the precomputation's memory bound is refused before any solve:
/// the mannequin's body repeated side by side past 250,000 vertices (4 M terms at the cap of 16).
#[test]
fn a_primitive_beyond_the_term_bound_is_refused() {
    let c = skinscope::builtin::character().unwrap();
    let one = &c.meshes[0].primitives[0];
    let mut big = one.clone();
    let n = one.positions.len();
    let copies = ddm::MAX_TERMS / 16 / n + 1;
    let skin = one.skinning.as_ref().unwrap();
    for k in 1..copies {
        let shift = Vec3::X * 10.0 * k as f32;
        big.positions
            .extend(one.positions.iter().map(|&p| p + shift));
        let s = big.skinning.as_mut().unwrap();
        s.joints.extend_from_slice(&skin.joints);
        s.weights.extend_from_slice(&skin.weights);
        if !skin.joints_1.is_empty() {
            s.joints_1.extend_from_slice(&skin.joints_1);
            s.weights_1.extend_from_slice(&skin.weights_1);
        }
        let indices = one
            .indices
            .as_ref()
            .unwrap()
            .iter()
            .map(|&v| v + (k * n) as u32);
        big.indices.as_mut().unwrap().extend(indices);
    }
    let started = std::time::Instant::now();
    let refused = ddm::smoothed_omega(&big, &DdmParams::default(), 16, &mut |_| {});
    match refused {
        Err(ddm::PrimitiveError::TooBig(vertices, kept)) => {
            assert!(vertices > 250_000 && kept == 16, "{vertices} {kept}");
        }
        _ => panic!("not refused"),
    }
    // Refused before the Laplacian and the factorisations: well under the solves' seconds.
    println!("refused in {:.2} s", started.elapsed().as_secs_f32());
    let e = ddm::DdmError::TooBig {
        mesh: 0,
        primitive: 1,
        vertices: 300_000,
        kept: 16,
    };
    assert!(
        e.to_string().contains("lower the cap of joints kept"),
        "{e}"
    );
}

#[test]
fn a_seam_between_two_primitives_of_one_mesh_stays_closed() {
    // The mannequin's sleeve and hand are two material primitives of one skinned mesh: smoothed
    // apart, their shared border moved apart (a crack at the wrist under a strong smoothing).
    let c = skinscope::builtin::character().unwrap();
    let mesh = c.instances[0].mesh;
    let primitives = &c.meshes[mesh].primitives;
    assert!(primitives.len() >= 2);
    let params = DdmParams {
        lambda: 30.0,
        ..DdmParams::default()
    };
    let data = ddm::precompute(&c, &params, &mut |_| {}).unwrap();
    let twist = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "twist")
        .unwrap();
    let pose = posed(&c, &PoseRequest::clip(twist, 1.0));
    let palette = pose.instance_palette(0).unwrap();
    let got = ddm_positions(&c, &data, palette);
    // Every rest position shared by vertices of different primitives, and where each went.
    let mut first_at: std::collections::HashMap<[u32; 3], (usize, usize)> = Default::default();
    let (mut at, mut pairs, mut worst) = (0, 0, 0.0f32);
    for (p, primitive) in primitives.iter().enumerate() {
        for q in &primitive.positions {
            let key = q.to_array().map(f32::to_bits);
            match first_at.get(&key) {
                Some(&(other, k)) if other != p => {
                    pairs += 1;
                    worst = worst.max(got[k].distance(got[at]));
                }
                Some(_) => {}
                None => {
                    first_at.insert(key, (p, at));
                }
            }
            at += 1;
        }
    }
    assert!(pairs > 10, "{pairs} vertices on a seam between primitives");
    assert!(worst < 1e-6 * diagonal(&c), "the seam opens by {worst}");
}

#[test]
fn a_saved_omega_reads_back_equal_and_only_for_its_own_mesh_and_parameters() {
    let c = skinscope::builtin::character().unwrap();
    let params = DdmParams {
        iterations: 3,
        ..DdmParams::default()
    };
    let data = ddm::precompute(&c, &params, &mut |_| {}).unwrap();
    let key = skinscope::deform::ddm_key(&c, &params);
    let bytes = data.to_bytes(key);
    assert_eq!(
        skinscope::deform::DdmData::from_bytes(&bytes, &c, key).unwrap(),
        data
    );
    // Other parameters: another key.
    let other = skinscope::deform::ddm_key(&c, &DdmParams::default());
    assert_ne!(other, key);
    assert_eq!(
        skinscope::deform::DdmData::from_bytes(&bytes, &c, other),
        Err(skinscope::deform::DdmFileError::OtherKey)
    );
    // Cut anywhere, or a byte changed in an entry's joint: refused, never wrong.
    for cut in [0, 7, 30, bytes.len() / 2, bytes.len() - 1] {
        assert!(
            skinscope::deform::DdmData::from_bytes(&bytes[..cut], &c, key).is_err(),
            "{cut}"
        );
    }
    let mut damaged = bytes.clone();
    let last_joint = damaged.len() - 4;
    damaged[last_joint..].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(skinscope::deform::DdmData::from_bytes(&damaged, &c, key).is_err());
}
