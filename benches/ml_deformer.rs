//! The ML deformer's costs (criterion), on the built-in mannequin (22,500 vertices) with a
//! model of direct delta mush (64 training poses, 32 components: inference's cost depends on
//! the components and the driving joints, not on how many poses trained it):
//!
//! - `ml/infer/{ridge,mlp}`: one frame's inference on the CPU (the 6D features from the
//!   palette, then the 32 weights by the ridge regression or the 128-unit perceptron);
//! - `ml/cpu_frame/{lbs,lbs_ml,ddm}`: the CPU reference skinning the whole mesh by linear
//!   blend, by linear blend with the corrective, and by direct delta mush;
//! - `ml/skin_pass/{lbs,lbs_ml,ddm}`: one shaded 1280x720 frame skinned in the skin pass on
//!   whatever adapter wgpu picks (lavapipe without a GPU), waited for.
//!
//! `cargo bench --bench ml_deformer`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use skinscope::anim::SkinningMethod;
use skinscope::deform::ml_train::TrainParams;
use skinscope::draw::deformers::{Deformers, PackedDeformer};
use skinscope::draw::{capacity, extract, rest_bounds};
use skinscope::pose::{CharacterPose, PoseRequest};
use skinscope::pose::{MlModel, MlReference};
use skinscope::posed::PosedVertices;
use skinscope::render::camera::Camera;
use skinscope::render::gpu::Gpu;
use skinscope::render::offscreen::{COLOR_FORMAT, Offscreen};
use skinscope::render::renderer::{DrawOptions, Renderer, SkinPass, View};

mod common;

use common::{SIZE, draw_and_wait};

fn benches(criterion: &mut Criterion) {
    let c = skinscope::builtin::character().expect("the built-in character loads");
    let ddm = skinscope::deform::precompute(&c, &Default::default(), &mut |_| {}).expect("ddm");
    let params = TrainParams {
        poses: 64,
        held_out: 4,
        components: 32,
        map: skinscope::deform::ml_train::MlMap::Mlp,
        ..TrainParams::default()
    };
    let mut reference = skinscope::perform::ml::ddm_reference(&c, &ddm);
    let model: Arc<MlModel> = Arc::new(
        skinscope::deform::train(
            &c,
            MlReference::DeltaMush,
            &params,
            &mut reference,
            &mut |_, _| {},
        )
        .expect("trains"),
    );
    let wave = c
        .clips
        .iter()
        .position(|k| k.clip.name() == "wave")
        .unwrap_or(0);
    let mut request = PoseRequest::clip(wave, 0.8);
    let mut plain = CharacterPose::new(&c);
    plain.evaluate(&c, &request).expect("poses");
    request.ml = Some(model.clone());
    let mut pose = CharacterPose::new(&c);
    pose.evaluate(&c, &request).expect("poses");
    let mut group = criterion.benchmark_group("ml");
    group.sample_size(20);
    let palette = pose
        .instance_palette(model.instance as usize)
        .unwrap()
        .to_vec();
    let (mut features, mut weights) = (Vec::new(), Vec::new());
    model.infer(&palette, &mut features, &mut weights);
    for (name, mlp) in [("infer/ridge", false), ("infer/mlp", true)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                skinscope::pose::features_into(black_box(&palette), &model.joints, &mut features);
                model.weights_by(mlp, &features, &mut weights);
                black_box(&weights);
            })
        });
    }
    group.bench_function("cpu_frame/lbs", |b| {
        b.iter(|| PosedVertices::on_cpu(&c, black_box(&plain), SkinningMethod::Linear))
    });
    group.bench_function("cpu_frame/lbs_ml", |b| {
        b.iter(|| PosedVertices::on_cpu(&c, black_box(&pose), SkinningMethod::Linear))
    });
    group.bench_function("cpu_frame/ddm", |b| {
        b.iter(|| {
            PosedVertices::on_cpu_with(&c, black_box(&plain), SkinningMethod::DeltaMush, Some(&ddm))
        })
    });
    let Ok(gpu) = Gpu::headless() else {
        eprintln!("ml/skin_pass/*: no GPU adapter (install lavapipe)");
        return;
    };
    let (lo, hi) = rest_bounds(&c);
    let camera = Camera::framing(lo, hi, 40.0, 16.0 / 9.0);
    let target = Offscreen::new(&gpu.device, SIZE);
    let cases = [
        ("lbs", SkinningMethod::Linear, &plain),
        ("lbs_ml", SkinningMethod::Linear, &pose),
        ("ddm", SkinningMethod::DeltaMush, &plain),
    ];
    for (name, skinning, posed) in cases {
        let mut renderer =
            Renderer::new(&gpu.device, &gpu.queue, &c, COLOR_FORMAT, capacity(&c, 1));
        let assets: [Arc<dyn PackedDeformer>; 2] = [Arc::new(ddm.clone()), model.clone()];
        let words = Deformers::default().hold(&c, assets).clone();
        renderer.set_deformers(&gpu.device, &gpu.queue, &words);
        let options = DrawOptions {
            skinning,
            skin_pass: SkinPass::Compute,
            ..Default::default()
        };
        let mut flip = false;
        let mut values = Vec::new();
        group.bench_function(format!("skin_pass/{name}"), |b| {
            b.iter(|| {
                // A palette that changes every frame, so the skin pass runs every frame.
                flip = !flip;
                let mut input = extract(posed, &mut values);
                let mut moved = input.palette.to_vec();
                moved[0].w_axis.x += if flip { 1e-6 } else { 0.0 };
                input.palette = &moved;
                let view = (View::Main, options, input);
                draw_and_wait(&gpu, &mut renderer, (&target, &camera), [view]);
            })
        });
    }
    group.finish();
}

criterion_group!(ml_benches, benches);
criterion_main!(ml_benches);
