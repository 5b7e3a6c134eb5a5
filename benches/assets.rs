//! What an asset pipeline's CI runs per character (criterion): `check` of the Fox, `fix` of the
//! Fox with every inverse bind transposed (the repair, in memory: the file read once outside),
//! and `diff` of the built-in mannequin against itself (every clip at its keys, both sides posed
//! and skinned on the CPU) and of the Fox against a copy with its head turned.
//!
//! `cargo bench --bench assets`; `cargo test --benches` runs each once as a smoke test.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, criterion_group};
use skinscope::debug::{check, diff, fix};
use skinscope::import;
use skinscope::pose::PoseRequest;

fn shared(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/gltf")
        .join(rel)
}

/// The Fox's GLB with its inverse binds transposed, or its head's rest turned.
fn fox_variant(transpose: bool) -> Vec<u8> {
    let fox =
        import::document::Document::open(&shared("Fox/Fox.glb"), &Default::default()).unwrap();
    let mut d = fox.clone();
    if transpose {
        let a = d.json["skins"][0]["inverseBindMatrices"].as_u64().unwrap() as usize;
        let m: Vec<f32> = d
            .read(a)
            .unwrap()
            .chunks(16)
            .flat_map(|c| glam::Mat4::from_cols_slice(c).transpose().to_cols_array())
            .collect();
        let t = d.push_floats(&m, "MAT4", false);
        d.json["skins"][0]["inverseBindMatrices"] = serde_json::json!(t);
    } else {
        let head = d.json["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .position(|n| n["name"] == "b_Head_05")
            .unwrap();
        d.json["nodes"][head]["rotation"] = serde_json::json!([0.0, 0.2588190, 0.0, 0.9659258]);
    }
    d.to_glb()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("assets");
    g.sample_size(10);
    let fox = import::load(&shared("Fox/Fox.glb")).unwrap();
    g.bench_function("check_fox", |b| {
        b.iter(|| black_box(check::check(&fox, &PoseRequest::default())))
    });
    let broken_bytes = fox_variant(true);
    let broken = import::load_bytes(&broken_bytes, Path::new("broken.glb")).unwrap();
    let report = check::check(&broken, &PoseRequest::default());
    let dir = std::env::temp_dir().join(format!("skinscope-bench-assets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.glb");
    std::fs::write(&file, &broken_bytes).unwrap();
    let document = import::document::Document::open(&file, &Default::default()).unwrap();
    g.bench_function("fix_fox_transposed", |b| {
        b.iter(|| {
            let mut d = document.clone();
            let repairs =
                fix::repair(&mut d, &broken, &report, fix::FixOptions::default()).unwrap();
            black_box((repairs, d.to_glb()))
        })
    });
    let mannequin = skinscope::builtin::character().unwrap();
    g.bench_function("diff_mannequin_itself", |b| {
        b.iter(|| black_box(diff::diff(&mannequin, &mannequin, ("a", "b")).unwrap()))
    });
    let turned = import::load_bytes(&fox_variant(false), Path::new("turned.glb")).unwrap();
    g.bench_function("diff_fox_head_turned", |b| {
        b.iter(|| black_box(diff::diff(&fox, &turned, ("a", "b")).unwrap()))
    });
    g.finish();
    std::fs::remove_dir_all(&dir).ok();
}

criterion_group!(benches, bench);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
