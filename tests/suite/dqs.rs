//! Dual-quaternion skinning: hand-worked candy-wrapper numbers, the WGSL
//! function against the CPU reference on a real character, and `render --skinning dqs`.

use crate::common;

use common::{shared, skinscope_bytes};
use glam::{Mat4, Quat, Vec3};
use skinscope::anim::{self, SkinningMethod, dq_entry, dq_skin_direction, dq_skin_position};
use skinscope::pose::{CharacterPose, PoseRequest};
use skinscope::render::gpu::Gpu;
use skinscope::render::skin_check::{CheckMorph, CheckVertex, check_on_gpu};

/// Two joints along +X, the second twisted `degrees` about the bone's axis; a vertex ring of
/// radius `r` at the joint weighed half and half: the twisting wrist of a forearm.
fn twisted_ring(degrees: f32, r: f32) -> (Vec<Mat4>, Vec<Vec3>) {
    let palette = vec![
        Mat4::IDENTITY,
        Mat4::from_quat(Quat::from_rotation_x(degrees.to_radians())),
    ];
    let ring = (0..64)
        .map(|k| {
            let a = k as f32 / 64.0 * std::f32::consts::TAU;
            Vec3::new(0.0, a.cos() * r, a.sin() * r)
        })
        .collect();
    (palette, ring)
}

/// The area of a closed polygon in the YZ plane (shoelace).
fn area_yz(points: &[Vec3]) -> f32 {
    let n = points.len();
    (0..n)
        .map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            a.y * b.z - b.y * a.z
        })
        .sum::<f32>()
        .abs()
        * 0.5
}

#[test]
fn at_a_150_degree_twist_linear_blending_collapses_the_wrist_and_dual_quaternions_do_not() {
    // Hand-worked: each ring point is the average of itself and itself turned 150 degrees, so
    // LBS shrinks the ring to r cos 75 = 0.2588 r (its area to cos^2 75 = 6.7 %); DQS turns it
    // by 75 degrees and keeps r.
    let (palette, ring) = twisted_ring(150.0, 0.05);
    let (joints, weights) = ([0, 1, 0, 0], [0.5, 0.5, 0.0, 0.0]);
    let packed: Vec<Mat4> = palette.iter().map(dq_entry).collect();
    let lbs: Vec<Vec3> = ring
        .iter()
        .map(|&p| anim::skin_position(&palette, joints, weights, p).unwrap())
        .collect();
    let dqs: Vec<Vec3> = ring
        .iter()
        .map(|&p| dq_skin_position(&packed, joints.into_iter().zip(weights), p).unwrap())
        .collect();
    let cos75 = 75f32.to_radians().cos();
    for ((p, l), d) in ring.iter().zip(&lbs).zip(&dqs) {
        assert!((l.length() - 0.05 * cos75).abs() < 1e-6, "{l}");
        assert!((d.length() - 0.05).abs() < 1e-6, "{d}");
        // DQS turns the point by half the twist.
        let turned = Quat::from_rotation_x(75f32.to_radians()) * *p;
        assert!((*d - turned).length() < 1e-6);
    }
    let full = std::f32::consts::PI * 0.05 * 0.05;
    let (a_lbs, a_dqs) = (area_yz(&lbs), area_yz(&dqs));
    // The 64-gon's own area is 99.8 % of the circle's.
    assert!((a_dqs / full - 0.9984).abs() < 1e-3, "{}", a_dqs / full);
    assert!(
        (a_lbs / a_dqs - cos75 * cos75).abs() < 1e-4,
        "{}",
        a_lbs / a_dqs
    );
    // Normals turn with the rotation and stay unit.
    let n = dq_skin_direction(&packed, joints.into_iter().zip(weights), Vec3::Y, true).unwrap();
    assert!((n - Quat::from_rotation_x(75f32.to_radians()) * Vec3::Y).length() < 1e-6);
}

#[test]
fn dual_quaternion_entries_keep_translation_rotation_and_scale() {
    // A single influence reproduces its matrix exactly: T * R * S applied to a point.
    let m = Mat4::from_scale_rotation_translation(
        Vec3::new(1.5, 2.0, 0.5),
        Quat::from_euler(glam::EulerRot::XYZ, 0.3, -1.1, 2.0),
        Vec3::new(0.2, -3.0, 7.0),
    );
    let packed = [dq_entry(&m)];
    let p = Vec3::new(0.4, -0.7, 1.3);
    let got = dq_skin_position(&packed, [(0, 1.0)], p).unwrap();
    assert!((got - m.transform_point3(p)).length() < 1e-5, "{got}");
    // Signs: -q is the same rotation; an influence stored with the other sign blends the same.
    let mut flipped = dq_entry(&m);
    flipped.x_axis = -flipped.x_axis;
    flipped.y_axis = -flipped.y_axis;
    let both = [dq_entry(&m), flipped];
    let got = dq_skin_position(&both, [(0, 0.5), (1, 0.5)], p).unwrap();
    assert!((got - m.transform_point3(p)).length() < 1e-5, "{got}");
}

#[test]
fn wgsl_dual_quaternion_skinning_matches_the_cpu_reference_on_cesium_man() {
    let c = skinscope::import::load(&shared("CesiumMan/CesiumMan.glb")).unwrap();
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &PoseRequest::clip(0, 0.6)).unwrap();
    let instance = c.instances.iter().position(|i| i.skin.is_some()).unwrap();
    let palette = pose.instance_palette(instance).unwrap();
    let packed: Vec<Mat4> = palette.iter().map(dq_entry).collect();
    let primitive = &c.meshes[c.instances[instance].mesh].primitives[0];
    let skinning = primitive.skinning.as_ref().unwrap();
    let vertices: Vec<CheckVertex> = (0..primitive.positions.len())
        .map(|v| {
            CheckVertex::new(
                primitive.positions[v],
                primitive.normals[v],
                skinning.joints[v].map(u32::from),
                skinning.weights[v],
            )
        })
        .collect();
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"));
    let out = check_on_gpu(
        &gpu,
        &packed,
        &vertices,
        CheckMorph::default(),
        SkinningMethod::DualQuaternion,
    )
    .unwrap();
    let (mut min, mut max) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
    let cpu: Vec<(Vec3, Vec3)> = (0..vertices.len())
        .map(|v| {
            let (j, w) = (skinning.joints[v].map(u32::from), skinning.weights[v]);
            let p =
                dq_skin_position(&packed, j.into_iter().zip(w), primitive.positions[v]).unwrap();
            let n = dq_skin_direction(&packed, j.into_iter().zip(w), primitive.normals[v], true)
                .unwrap();
            min = min.min(p);
            max = max.max(p);
            (p, n)
        })
        .collect();
    let tolerance = 1e-5 * (max - min).length();
    let mut differs_from_lbs = 0;
    for (v, ((gp, gn), (cp, cn))) in out.iter().zip(&cpu).enumerate() {
        assert!(
            (*gp - *cp).length() < tolerance,
            "vertex {v}: gpu {gp} cpu {cp}"
        );
        assert!((*gn - *cn).length() < 1e-4, "vertex {v}: gpu {gn} cpu {cn}");
        let lbs = anim::skin_position(
            palette,
            skinning.joints[v].map(u32::from),
            skinning.weights[v],
            primitive.positions[v],
        )
        .unwrap();
        if (lbs - *cp).length() > tolerance * 10.0 {
            differs_from_lbs += 1;
        }
    }
    // Where influences blend across a bend, the two methods differ.
    assert!(differs_from_lbs > 100, "{differs_from_lbs}");
}

#[test]
fn render_draws_with_either_skinning() {
    let render = |skinning: &str| {
        let dir = common::temp_dir(&format!("skinning-{skinning}"));
        let out = dir.join("frame.png");
        let (code, _, err) = skinscope_bytes(&[
            "render",
            "--clip",
            "wave",
            "--time",
            "0.8",
            "--skinning",
            skinning,
            "--size",
            "160x120",
            "--silhouette",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        image::open(&out).unwrap().to_luma8()
    };
    let (lbs, dqs) = (render("lbs"), render("dqs"));
    let white = |img: &image::GrayImage| img.pixels().filter(|p| p.0[0] > 128).count();
    let differing = lbs
        .pixels()
        .zip(dqs.pixels())
        .filter(|(a, b)| (a.0[0] > 128) != (b.0[0] > 128))
        .count();
    // The same character, nearly the same silhouette: the methods differ only where
    // influences blend across a bend (the raised arm's shoulder and elbow).
    assert!(white(&lbs) > 1000 && white(&dqs) > 1000);
    assert!(differing > 0 && differing < white(&lbs) / 10, "{differing}");
}

#[test]
fn the_mannequin_s_twisted_wrist_collapses_under_lbs_and_keeps_its_section_under_dqs() {
    let c = skinscope::builtin::character().unwrap();
    let pose = wrist_twisted(&c);
    let palette = pose.instance_palette(0).unwrap();
    let packed: Vec<Mat4> = palette.iter().map(dq_entry).collect();
    let primitives = &c.meshes[0].primitives;
    let influences = |p: usize, v: usize| {
        let s = primitives[p].skinning.as_ref().unwrap();
        s.joints[v].map(u32::from).into_iter().zip(s.weights[v])
    };
    let (a_bind, a_lbs, slab) = common::twist_section_areas(&c, &pose, &mut |p, v, q| {
        anim::blend_matrix(palette, influences(p, v))
            .unwrap()
            .transform_point3(q)
    });
    let (_, a_dqs, _) = common::twist_section_areas(&c, &pose, &mut |p, v, q| {
        dq_skin_position(&packed, influences(p, v), q).unwrap()
    });
    assert!(slab > 20, "{slab} vertices in the slab");
    println!(
        "wrist section at 150 degrees: bind {:.2} cm2, LBS {:.2} cm2 ({:.0}%), DQS {:.2} cm2 ({:.0}%)",
        a_bind * 1e4,
        a_lbs * 1e4,
        100.0 * a_lbs / a_bind,
        a_dqs * 1e4,
        100.0 * a_dqs / a_bind
    );
    assert!(a_lbs < 0.5 * a_bind, "LBS keeps {a_lbs} of {a_bind}");
    assert!(a_dqs > 0.9 * a_bind, "DQS keeps {a_dqs} of {a_bind}");
}

#[test]
fn weight_blended_skinning_is_lbs_on_lbs_joints_and_dqs_on_dqs_joints() {
    // The mannequin twisting its wrist, DQS on the joints the clips twist (found: the right
    // forearm's twist joint alone, 150 degrees; the roots' heading is no twist), LBS elsewhere.
    let c = skinscope::builtin::character().unwrap();
    let twisting = anim::twisting_joints(
        &c.skeleton,
        c.clips.iter().map(|k| &k.clip),
        60f32.to_radians(),
    );
    assert_eq!(twisting, [c.skeleton.find("forearm_twist_r").unwrap()]);
    let pose = wrist_twisted(&c);
    let palette = pose.instance_palette(0).unwrap();
    let packed: Vec<Mat4> = palette.iter().map(dq_entry).collect();
    let skin = &c.skins[c.instances[0].skin.unwrap()];
    // Method weights by palette index: 1 on the twisting joint and the hand it carries.
    let dqs_joints: Vec<usize> = ["forearm_twist_r", "hand_r"]
        .iter()
        .map(|n| c.skeleton.find(n).unwrap())
        .collect();
    let method: Vec<f32> = (0..palette.len())
        .map(|p| {
            let joint = skin.skin.joint(p).unwrap();
            if dqs_joints.contains(&joint) {
                1.0
            } else {
                0.0
            }
        })
        .collect();
    let (mut lbs_only, mut dqs_only, mut mixed) = (0, 0, 0);
    for primitive in &c.meshes[0].primitives {
        let s = primitive.skinning.as_ref().unwrap();
        for (v, &p) in primitive.positions.iter().enumerate() {
            let joints = s.joints[v].map(u32::from);
            let weights = s.weights[v];
            let got = anim::blended_skin_position(
                (palette, &packed, &method),
                joints.into_iter().zip(weights),
                p,
            )
            .unwrap();
            let m = anim::vertex_method(&method, joints.into_iter().zip(weights));
            let lbs = anim::skin_position(palette, joints, weights, p).unwrap();
            let dqs = dq_skin_position(&packed, joints.into_iter().zip(weights), p).unwrap();
            if m == 0.0 {
                assert_eq!(got, lbs, "vertex {v}");
                lbs_only += 1;
            } else if m == 1.0 {
                assert_eq!(got, dqs, "vertex {v}");
                dqs_only += 1;
            } else {
                // Between: on the segment from the LBS position to the DQS one, at m.
                assert!((got - lbs.lerp(dqs, m)).length() < 1e-6, "vertex {v}");
                mixed += 1;
            }
        }
    }
    assert!(
        lbs_only > 10_000 && dqs_only > 100 && mixed > 50,
        "{lbs_only} {dqs_only} {mixed}"
    );
}

#[test]
fn per_joint_skinning_on_the_gpu_equals_its_cpu_reference_with_auto_joints() {
    let c = skinscope::builtin::character().unwrap();
    // "auto": from the parent of the one joint the clips twist past 60 degrees (the forearm,
    // so the vertices between it and the twist joint blend two dual-quaternion joints) down.
    let methods = skinscope::pose::DqsJoints::Auto.methods(&c).unwrap();
    let on: Vec<&str> = (0..methods.len())
        .filter(|&j| methods[j] == 1.0)
        .map(|j| c.skeleton.names()[j].as_str())
        .collect();
    assert_eq!(on, ["forearm_r", "forearm_twist_r", "hand_r"]);
    let twist = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "twist")
        .unwrap();
    let mut request = PoseRequest::clip(twist, 1.0);
    request.joint_methods = Some(methods.into());
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).unwrap();
    let cpu = skinscope::posed::PosedVertices::on_cpu(&c, &pose, SkinningMethod::Blended);
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("cannot create a wgpu device: {e}"));
    let on_gpu =
        skinscope::draw::headless::skin_on_gpu(&gpu, &c, &pose, SkinningMethod::Blended).unwrap();
    let (lo, hi) = skinscope::pose::rest_bounds(&c);
    let worst = on_gpu.max_distance(&cpu);
    assert!(worst <= 1e-5 * lo.distance(hi), "{worst}");
    // Where a vertex's influences are all linear blend joints it is exactly LBS, all dual
    // quaternion joints exactly DQS; the twisted wrist is DQS's.
    let lbs = skinscope::posed::PosedVertices::on_cpu(&c, &pose, SkinningMethod::Linear);
    let dqs = skinscope::posed::PosedVertices::on_cpu(&c, &pose, SkinningMethod::DualQuaternion);
    let method = &pose.palette_method[pose.palette_base[0] as usize..];
    let influences = c.meshes[c.instances[0].mesh]
        .primitives
        .iter()
        .flat_map(|p| {
            let s = p.skinning.as_ref().unwrap();
            (0..p.positions.len()).map(move |v| {
                anim::vertex_method(method, s.influences(v).map(|(j, w)| (u32::from(j), w)))
            })
        });
    let (mut same_lbs, mut same_dqs, mut between) = (0, 0, 0);
    let vertices = cpu.instances[0]
        .0
        .iter()
        .zip(&lbs.instances[0].0)
        .zip(&dqs.instances[0].0);
    for (((p, l), d), m) in vertices.zip(influences) {
        if m == 0.0 {
            assert_eq!(p, l);
            same_lbs += 1;
        } else if m == 1.0 {
            assert_eq!(p, d);
            same_dqs += 1;
        } else {
            assert!((*p - l.lerp(*d, m)).length() < 1e-6);
            between += 1;
        }
    }
    assert!(
        same_lbs > 10_000 && same_dqs > 100 && between > 50,
        "{same_lbs} {same_dqs} {between}"
    );
}

use common::wrist_twisted;
