//! The ML deformer: a corrective learnt from direct delta mush (or settled muscles),
//! added to linear blend skinning in bind space. Its training, its saved file, its runtime on
//! the CPU and in the skin pass, the command line and the panel.

use crate::common;

use std::sync::{Arc, OnceLock};

use glam::{Mat4, Vec3};
use skinscope::anim::SkinningMethod;
use skinscope::character::Character;
use skinscope::deform::DdmData;
use skinscope::deform::ml_train::{MlMap, TrainParams, training_poses};
use skinscope::pose::{CharacterPose, PaletteMode, PoseRequest};
use skinscope::pose::{MlModel, MlReference};
use skinscope::posed::PosedVertices;

/// The mannequin, its direct delta mush, and a small model of it (40 poses, 12 components,
/// the perceptron kept), trained once for the tests of this file.
struct Trained {
    c: Character,
    ddm: DdmData,
    model: Arc<MlModel>,
    params: TrainParams,
}

fn trained() -> &'static Trained {
    static TRAINED: OnceLock<Trained> = OnceLock::new();
    TRAINED.get_or_init(|| {
        let c = skinscope::builtin::character().unwrap();
        let ddm = skinscope::deform::precompute(&c, &Default::default(), &mut |_| {}).unwrap();
        let params = TrainParams {
            poses: 40,
            held_out: 8,
            components: 12,
            map: MlMap::Mlp,
            ..TrainParams::default()
        };
        let mut reference = skinscope::perform::ml::ddm_reference(&c, &ddm);
        let model = skinscope::deform::train(
            &c,
            MlReference::DeltaMush,
            &params,
            &mut reference,
            &mut |_, _| {},
        )
        .unwrap();
        drop(reference);
        Trained {
            c,
            ddm,
            model: Arc::new(model),
            params,
        }
    })
}

fn height(c: &Character) -> f32 {
    let (lo, hi) = skinscope::pose::rest_bounds(c);
    (hi - lo).max_element()
}

/// Instance `i` of `posed` in mesh space.
fn mesh_space(pose: &CharacterPose, posed: &PosedVertices, i: usize) -> Vec<Vec3> {
    let mesh_from_world = pose.world_from_mesh[i].inverse();
    let world = &posed.instances[i].0;
    world
        .iter()
        .map(|&p| mesh_from_world.transform_point3(p))
        .collect()
}

/// The bind-space targets of a posed frame, computed here: per vertex M⁻¹ r − b, with M the
/// vertex's weighted sum of its palette entries, r direct delta mush's position and b the bind
/// position (f64, 3 a vertex, primitives in order).
fn targets(t: &Trained, pose: &CharacterPose) -> Vec<f64> {
    let c = &t.c;
    let i = t.model.instance as usize;
    let posed = PosedVertices::on_cpu_with(c, pose, SkinningMethod::DeltaMush, Some(&t.ddm));
    let reference = mesh_space(pose, &posed, i);
    let palette = pose.instance_palette(i).unwrap();
    let mut out = Vec::new();
    let mut at = 0;
    for p in &c.meshes[t.model.mesh as usize].primitives {
        for (v, &b) in p.positions.iter().enumerate() {
            let mut m = Mat4::ZERO;
            if let Some(s) = &p.skinning {
                for (j, w) in s.influences(v) {
                    m += palette[j as usize] * w;
                }
            }
            let d = if m.determinant().abs() > 1e-12 {
                m.inverse().transform_point3(reference[at]) - b
            } else {
                Vec3::ZERO
            };
            out.extend([d.x as f64, d.y as f64, d.z as f64]);
            at += 1;
        }
    }
    out
}

/// Component `k` of the model over the mesh's vertices (zeros on unskinned primitives).
fn component(t: &Trained, k: usize) -> Vec<f64> {
    let kk = t.model.components as usize;
    let mut out = Vec::new();
    for (pi, p) in t.c.meshes[t.model.mesh as usize]
        .primitives
        .iter()
        .enumerate()
    {
        for v in 0..p.positions.len() {
            let d = t.model.primitives[pi]
                .as_ref()
                .map_or(Vec3::ZERO, |m| m.deltas[v * kk + k]);
            out.extend([d.x as f64, d.y as f64, d.z as f64]);
        }
    }
    out
}

#[test]
fn on_its_training_poses_the_error_is_within_the_truncation_plus_the_residual() {
    let t = trained();
    let (c, model) = (&t.c, &t.model);
    let k = model.components as usize;
    let components: Vec<Vec<f64>> = (0..k).map(|kk| component(t, kk)).collect();
    // The components are orthonormal (PCA's U).
    for a in 0..k {
        for b in 0..k {
            let dot: f64 = components[a]
                .iter()
                .zip(&components[b])
                .map(|(x, y)| x * y)
                .sum();
            let want = if a == b { 1.0 } else { 0.0 };
            assert!((dot - want).abs() < 1e-4, "<u{a}, u{b}> = {dot}");
        }
    }
    let (train, _) = training_poses(c, &t.params);
    assert_eq!(train.len(), 40);
    let mut pose = CharacterPose::new(c);
    let (mut error, mut lbs, mut features, mut weights) = (0.0f64, 0.0f64, Vec::new(), Vec::new());
    for local in &train {
        pose.compose_local(c, local, PaletteMode::Animated).unwrap();
        let y = targets(t, &pose);
        let palette = pose.instance_palette(model.instance as usize).unwrap();
        model.infer(palette, &mut features, &mut weights);
        let mut fitted = vec![0.0f64; y.len()];
        for (u, &w) in components.iter().zip(&weights) {
            for (f, &x) in fitted.iter_mut().zip(u) {
                *f += f64::from(w) * x;
            }
        }
        error += y
            .iter()
            .zip(&fitted)
            .map(|(a, b)| (a - b).powi(2))
            .sum::<f64>();
        lbs += y.iter().map(|a| a * a).sum::<f64>();
    }
    let (error, lbs) = (error.sqrt(), lbs.sqrt());
    let bound = f64::from(model.stats.truncation + model.stats.residual);
    println!(
        "training poses: |Y - U W X| = {error:.4e}; truncation {:.4e} + residual {:.4e} = {bound:.4e}; |Y| = {lbs:.4e}",
        model.stats.truncation, model.stats.residual
    );
    assert!(error <= bound * (1.0 + 1e-3) + 1e-6, "{error} > {bound}");
    // And it learnt something: the corrective removes most of what linear blend misses.
    assert!(error < 0.5 * lbs, "{error} against {lbs}");
}

#[test]
fn at_the_bind_pose_the_corrective_is_zero() {
    let t = trained();
    let c = &t.c;
    let h = height(c);
    for palette in [PaletteMode::Identity, PaletteMode::Bind] {
        let mut request = PoseRequest::rest(palette);
        let mut plain = CharacterPose::new(c);
        plain.evaluate(c, &request).unwrap();
        request.ml = Some(t.model.clone());
        let mut pose = CharacterPose::new(c);
        pose.evaluate(c, &request).unwrap();
        let weights = &pose.ml.as_ref().unwrap().weights;
        assert_eq!(weights.len(), t.model.components as usize);
        let a = PosedVertices::on_cpu(c, &pose, SkinningMethod::Linear);
        let b = PosedVertices::on_cpu(c, &plain, SkinningMethod::Linear);
        let moved = a.max_distance(&b);
        println!(
            "{}: largest weight {:e}, the skin moved {moved:e} ({:e} of the height)",
            palette.name(),
            weights.iter().fold(0.0f32, |m, w| m.max(w.abs())),
            moved / h
        );
        assert!(moved <= 1e-6 * h, "{moved}");
        if palette == PaletteMode::Identity {
            assert!(weights.iter().all(|&w| w == 0.0), "{weights:?}");
        }
    }
}

#[test]
fn a_saved_model_reloads_bit_identical_and_a_wrong_file_is_refused_at_its_byte() {
    let t = trained();
    let bytes = t.model.to_bytes();
    let dir = common::temp_dir("ml-file");
    let path = dir.join("mannequin.mld");
    skinscope::files::write_bytes_whole(&path, &bytes).unwrap();
    let read = std::fs::read(&path).unwrap();
    let back = MlModel::from_bytes(&read, &t.c).unwrap();
    assert_eq!(back, *t.model);
    assert_eq!(back.to_bytes(), bytes);
    let bits = |m: &MlModel| -> Vec<u32> {
        let mut v: Vec<u32> = m.weights.iter().map(|w| w.to_bits()).collect();
        for p in m.primitives.iter().flatten() {
            v.extend(p.deltas.iter().flat_map(|d| d.to_array().map(f32::to_bits)));
        }
        v
    };
    assert_eq!(bits(&back), bits(&t.model));
    // Another skeleton.
    let fox = skinscope::import::load(&common::shared("Fox/Fox.glb")).unwrap();
    let e = MlModel::from_bytes(&bytes, &fox).unwrap_err().to_string();
    assert!(e.contains("made for another skeleton"), "{e}");
    // Cut short, not a model, another version, a non-finite weight.
    let e = MlModel::from_bytes(&bytes[..bytes.len() / 2], &t.c)
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("cut short at byte "), "{e}");
    let e = MlModel::from_bytes(b"glTF....", &t.c)
        .unwrap_err()
        .to_string();
    assert!(e.contains("not a skinscope ML deformer"), "{e}");
    let mut other = bytes.clone();
    other[8] = 9;
    let e = MlModel::from_bytes(&other, &t.c).unwrap_err().to_string();
    assert!(e.contains("format version 9"), "{e}");
    // The first weight lies after the header (8 + 4 + 1 + 8 + 5 * 4) and the joint pairs.
    let first_weight = 41 + 8 * t.model.joints.len();
    let mut nan = bytes.clone();
    nan[first_weight..first_weight + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let e = MlModel::from_bytes(&nan, &t.c).unwrap_err().to_string();
    assert_eq!(
        e,
        format!("byte {first_weight}: the weights: a non-finite value")
    );
}

/// Frames of the clips between the 30 Hz frames trained on.
fn untrained_frames(c: &Character) -> Vec<(usize, f32)> {
    let named = |name: &str| c.clips.iter().position(|k| k.clip.name() == name).unwrap();
    vec![
        (named("wave"), 0.517),
        (named("walk"), 0.383),
        (named("run"), 0.25 + 1.0 / 60.0),
        (named("wave"), 1.35),
    ]
}

#[test]
fn on_clip_frames_not_trained_on_it_takes_most_of_linear_blends_error_away() {
    let t = trained();
    let c = &t.c;
    // The model keeps its ridge regression beside the perceptron: without the perceptron it
    // maps by the regression.
    let ridge = Arc::new(MlModel {
        mlp: None,
        ..(*t.model).clone()
    });
    let mut ratios = Vec::new();
    for model in [&ridge, &t.model] {
        let (mut lbs, mut ml) = (0.0f64, 0.0f64);
        for (clip, time) in untrained_frames(c) {
            let mut request = PoseRequest::clip(clip, time);
            let mut plain = CharacterPose::new(c);
            plain.evaluate(c, &request).unwrap();
            let ddm =
                PosedVertices::on_cpu_with(c, &plain, SkinningMethod::DeltaMush, Some(&t.ddm));
            let linear = PosedVertices::on_cpu(c, &plain, SkinningMethod::Linear);
            request.ml = Some(model.clone());
            let mut pose = CharacterPose::new(c);
            pose.evaluate(c, &request).unwrap();
            let corrected = PosedVertices::on_cpu(c, &pose, SkinningMethod::Linear);
            let sq = |a: &PosedVertices| -> f64 {
                (a.instances[0].0.iter().zip(&ddm.instances[0].0))
                    .map(|(p, q)| f64::from(p.distance_squared(*q)))
                    .sum()
            };
            lbs += sq(&linear);
            ml += sq(&corrected);
        }
        ratios.push((ml / lbs).sqrt());
    }
    println!(
        "RMS error to direct delta mush, of linear blend's: ridge {:.3}, perceptron {:.3}",
        ratios[0], ratios[1]
    );
    // 40 poses and 12 components here; `docs/deformers.md`'s 400 and 32 measure far lower. On so few
    // poses the perceptron generalises worse than the regression (what `--map auto` weighs).
    assert!(ratios[0] < 0.6, "{ratios:?}");
    assert!(ratios[1] < 0.9, "{ratios:?}");
}

#[test]
fn the_skin_pass_adds_the_corrective_as_the_cpu_reference_does() {
    let gpu = skinscope::render::gpu::Gpu::headless().expect("a GPU adapter (lavapipe in CI)");
    let t = trained();
    let c = &t.c;
    let (clip, time) = untrained_frames(c)[0];
    let mut request = PoseRequest::clip(clip, time);
    let mut plain = CharacterPose::new(c);
    plain.evaluate(c, &request).unwrap();
    request.ml = Some(t.model.clone());
    let mut pose = CharacterPose::new(c);
    pose.evaluate(c, &request).unwrap();
    let linear = SkinningMethod::Linear;
    let cpu = PosedVertices::on_cpu(c, &pose, linear);
    let on_gpu = skinscope::draw::headless::skin_on_gpu_with(&gpu, c, &pose, linear, None).unwrap();
    let without = PosedVertices::on_cpu(c, &plain, linear);
    let (worst, moved) = (cpu.max_distance(&on_gpu), cpu.max_distance(&without));
    let h = height(c);
    println!(
        "GPU against CPU {worst:e} ({:e} of the height); the corrective moved the skin {moved:e}",
        worst / h
    );
    assert!(worst < 1e-5 * h, "{worst}");
    assert!(moved > 1e-3 * h, "{moved}");
}

#[test]
fn a_model_of_the_settled_muscles_fits_its_training_poses() {
    let c = skinscope::builtin::character().unwrap();
    let rig = skinscope::builtin::own_muscles(&c).unwrap().unwrap();
    let input = skinscope::perform::MuscleInput {
        rig: Arc::new(rig),
        dynamic: false,
    };
    let params = TrainParams {
        poses: 6,
        held_out: 1,
        components: 4,
        map: MlMap::Ridge,
        ..TrainParams::default()
    };
    let mut reference = skinscope::perform::ml::muscle_reference(&c, input);
    let model = skinscope::deform::train(
        &c,
        MlReference::Muscles,
        &params,
        &mut reference,
        &mut |_, _| {},
    )
    .unwrap();
    let s = &model.stats;
    println!(
        "muscles: training RMS {:.3e} against linear blend's {:.3e}",
        s.train_rms, s.train_lbs_rms
    );
    assert_eq!(model.reference, MlReference::Muscles);
    assert!(s.train_lbs_rms > 1e-5, "the muscles moved nothing: {s:?}");
    assert!(s.train_rms < 0.5 * s.train_lbs_rms, "{s:?}");
    // It stands in for the muscles: the two together would move the skin twice.
    let dir = common::temp_dir("ml-muscles");
    let path = dir.join("muscles.mld");
    skinscope::files::write_bytes_whole(&path, &model.to_bytes()).unwrap();
    let out = dir.join("no.obj");
    let (model_s, out_s) = (path.to_str().unwrap(), out.to_str().unwrap());
    let (code, _, err) = common::skinscope(&[
        "pose",
        "--muscles",
        "default",
        "--ml-deformer",
        model_s,
        "--out",
        out_s,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("stands in for them"), "{err}");
    let (code, _, err) = common::skinscope(&["pose", "--ml-deformer", model_s, "--out", out_s]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn the_command_line_trains_a_model_and_poses_with_it() {
    let dir = common::temp_dir("ml-cli");
    let model = dir.join("fox.mld");
    let fox = common::shared("Fox/Fox.glb");
    let (fox, model_s) = (fox.to_str().unwrap(), model.to_str().unwrap());
    let (code, out, err) = common::skinscope(&[
        "train-deformer",
        fox,
        "--reference",
        "ddm",
        "--poses",
        "24",
        "--held-out",
        "4",
        "--components",
        "8",
        "--out",
        model_s,
    ]);
    assert_eq!(code, 0, "{err}");
    println!("{out}");
    assert!(
        out.contains("learnt direct delta mush from 24 poses"),
        "{out}"
    );
    assert!(out.contains("held-out poses (4): RMS error"), "{out}");
    // --map auto kept the perceptron only if it lowered the held-out error by over 20%.
    let fox_c = skinscope::import::load(std::path::Path::new(fox)).unwrap();
    let saved = MlModel::from_bytes(&std::fs::read(&model).unwrap(), &fox_c).unwrap();
    let s = saved.stats;
    assert!(s.ridge_held_rms > 0.0 && s.mlp_held_rms > 0.0, "{s:?}");
    assert_eq!(
        saved.mlp.is_some(),
        s.mlp_held_rms < 0.8 * s.ridge_held_rms,
        "{s:?}"
    );
    assert!(out.contains("perceptron"), "{out}");
    let obj = |extra: &[&str]| {
        let path = dir.join("posed.obj");
        let path_s = path.to_str().unwrap();
        let mut args = vec![
            "pose", fox, "--clip", "Run", "--time", "0.3", "--out", path_s,
        ];
        args.extend_from_slice(extra);
        let (code, _, err) = common::skinscope(&args);
        assert_eq!(code, 0, "{err}");
        common::obj_vertices(&path)
    };
    let plain = obj(&[]);
    let corrected = obj(&["--ml-deformer", model_s]);
    let on_gpu = obj(&["--ml-deformer", model_s, "--skin-on", "gpu"]);
    let moved = plain
        .iter()
        .zip(&corrected)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max);
    let apart = corrected
        .iter()
        .zip(&on_gpu)
        .map(|(a, b)| a.distance(*b))
        .fold(0.0, f32::max);
    let (lo, hi) = plain.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), p| {
        (lo.min(*p), hi.max(*p))
    });
    let h = (hi - lo).max_element();
    println!(
        "the corrective moved the fox by {moved} ({:e} of its size); GPU against CPU {apart:e}",
        moved / h
    );
    assert!(moved > 1e-3 * h, "{moved}");
    assert!(apart < 1e-4 * h, "{apart}");
    // check compares the skin pass with the CPU reference, corrective included.
    let (code, out, err) = common::skinscope(&[
        "check",
        fox,
        "--clip",
        "Run",
        "--time",
        "0.3",
        "--skin-on",
        "gpu",
        "--ml-deformer",
        model_s,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("GPU skin pass (lbs) vs CPU reference"),
        "{out}"
    );
    // Refused: another skinning, another character, a cut file, bad training options.
    let path = dir.join("no.obj");
    let no = path.to_str().unwrap();
    let (code, _, err) = common::skinscope(&[
        "pose",
        fox,
        "--ml-deformer",
        model_s,
        "--skinning",
        "dqs",
        "--out",
        no,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--ml-deformer corrects linear blend skinning"),
        "{err}"
    );
    let (code, _, err) = common::skinscope(&["pose", "--ml-deformer", model_s, "--out", no]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("made for another skeleton"), "{err}");
    let cut = dir.join("cut.mld");
    let bytes = std::fs::read(&model).unwrap();
    std::fs::write(&cut, &bytes[..100]).unwrap();
    let (code, _, err) = common::skinscope(&[
        "pose",
        fox,
        "--ml-deformer",
        cut.to_str().unwrap(),
        "--out",
        no,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cut.mld: cut short at byte"), "{err}");
    assert!(!path.exists());
    let (code, _, err) = common::skinscope(&[
        "train-deformer",
        fox,
        "--reference",
        "ddm",
        "--components",
        "0",
        "--out",
        no,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--components 0: must be 1 to 64"), "{err}");
    let morph = common::shared("SimpleMorph/SimpleMorph.gltf");
    let (code, _, err) = common::skinscope(&[
        "train-deformer",
        morph.to_str().unwrap(),
        "--reference",
        "ddm",
        "--out",
        no,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("nothing is skinned to learn"), "{err}");
    assert!(!path.exists());
}

#[test]
fn the_panel_loads_the_model_and_splits_it_against_its_reference() {
    use egui_kittest::kittest::Queryable;
    use skinscope::viewer::Compared;
    let t = trained();
    let dir = common::temp_dir("ml-panel");
    let path = dir.join("mannequin.mld");
    skinscope::files::write_bytes_whole(&path, &t.model.to_bytes()).unwrap();
    let mut viewer = skinscope::viewer::Viewer::new(t.c.clone(), None);
    viewer.controls.playback.clip = untrained_frames(&t.c)[0].0;
    viewer.controls.skinning.method = SkinningMethod::DualQuaternion;
    let mut h = common::window_frames(viewer, (1100.0, 1800.0));
    h.get_by_label("ML deformer").click();
    h.run();
    h.get_by_label("no ML deformer");
    h.state_mut().controls.ml.path = path.to_str().unwrap().into();
    h.run();
    h.get_by_label("Load model").click();
    h.run();
    h.run();
    let s = h.state();
    assert_eq!(s.controls.skinning.method, SkinningMethod::Linear);
    assert!(s.controls.ml_active());
    assert_eq!(s.pose.ml.as_ref().unwrap().weights.len(), 12);
    h.get_by_label_contains("learnt direct delta mush: 12 components");
    h.get_by_label("Compare with its reference").click();
    h.run();
    h.run();
    let s = h.state();
    assert_eq!(s.controls.compared(), Compared::MlReference);
    assert_eq!(s.controls.right_skinning(), SkinningMethod::DeltaMush);
    // The right half is the reference: the same pose without the corrective.
    assert!(s.compare_pose.ml.is_none());
    assert_eq!(s.compare_pose.palette, s.pose.palette);
    h.get_by_label("Correct linear blend with the model")
        .click();
    h.run();
    assert!(h.state().pose.ml.is_none());
    h.get_by_label("Drop model").click();
    h.run();
    assert!(h.state().controls.ml.model.is_none());
    assert_eq!(h.state().controls.compared(), Compared::Off);
}

#[test]
fn the_split_view_names_the_ml_corrective_on_the_halves_that_draw_it() {
    use egui_kittest::kittest::Queryable;
    let t = trained();
    let mut viewer = skinscope::viewer::Viewer::new(t.c.clone(), None);
    viewer.controls.skinning.method = SkinningMethod::Linear;
    viewer.controls.ml.model = Some(t.model.clone());
    viewer.controls.ml.on = true;
    assert!(viewer.controls.ml_active());
    let mut h = common::window_frames(viewer, (1100.0, 1800.0));
    h.get_by_label("Split view, right half").click();
    h.run();
    h.get_by_label("bind palette").click();
    h.run();
    assert!(
        h.query_by_label("left: animated palette, with the ML deformer")
            .is_some()
    );
    assert!(
        h.query_by_label("right: bind palette, with the ML deformer")
            .is_some()
    );
}
