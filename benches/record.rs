//! Animated output (criterion): frames of a 512x512 sequence of CesiumMan walking, each posed at
//! its time, drawn offscreen on whatever adapter wgpu picks (lavapipe without a GPU), read back
//! and encoded, as `render --to` does in one process: one renderer, one target, the frames
//! written as they come. Rows: numbered PNG files (the aim: at least 30 frames/s), an
//! animated PNG, an animated GIF (a palette per frame, dithered), and the frame alone, drawn
//! and read back without encoding, without and with shadows (`render --shadows`: the two shadow
//! maps and the solid ground).
//!
//! `cargo bench --bench record`; `cargo test --benches` runs each once as a smoke test. The
//! figures are in `docs/rendering.md` ("Animated output").

use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use skinscope::character::Character;
use skinscope::draw::headless::{FrameRequest, Frames};
use skinscope::pose::PoseRequest;
use skinscope::record::{Format, GifPalette, Recorder, Sequence};
use skinscope::render::gpu::Gpu;

const SIZE: (u32, u32) = (512, 512);
const FPS: u32 = 30;

fn cesium() -> Character {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/CesiumMan/CesiumMan.glb");
    skinscope::import::load(&path).expect("CesiumMan loads")
}

/// The sequence's frames in turn: frame k is the walk at k/30 s.
struct Walk {
    gpu: Gpu,
    character: Character,
    frames: Frames,
    request: FrameRequest,
    k: usize,
}

impl Walk {
    fn new(shadows: bool) -> Self {
        let character = cesium();
        let frames = Frames::new(&character);
        Self {
            gpu: Gpu::headless().expect("an adapter"),
            frames,
            request: FrameRequest {
                size: SIZE,
                options: skinscope::render::renderer::DrawOptions {
                    shadows,
                    ..Default::default()
                },
                ..Default::default()
            },
            character,
            k: 0,
        }
    }

    fn next(&mut self) -> Vec<u8> {
        self.request.pose = PoseRequest::at(Some(0), self.k as f32 / FPS as f32);
        self.k += 1;
        let (pixels, _) = self
            .frames
            .render(&self.gpu, &self.character, &self.request, 0.0)
            .expect("the frame draws");
        pixels
    }
}

/// A recorder that takes as many frames as criterion asks for (it is dropped unfinished, so
/// nothing is left behind).
fn recorder(dir: &Path, name: &str, format: Format) -> Recorder {
    let sequence = Sequence::new(0.0, 3000.0, FPS).expect("a long sequence");
    Recorder::create(&dir.join(name), &format, SIZE, sequence).expect("the recorder starts")
}

fn record(c: &mut Criterion) {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("skinscope-bench-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let mut walk = Walk::new(false);
    let mut group = c.benchmark_group("record/cesiumman_512");
    group.throughput(Throughput::Elements(1));
    group.sample_size(20);
    group.bench_function("frame_drawn_and_read", |b| b.iter(|| walk.next()));
    let mut shadowed = Walk::new(true);
    group.bench_function("frame_drawn_and_read_with_shadows", |b| {
        b.iter(|| shadowed.next())
    });
    drop(shadowed);
    let cases = [
        ("png_files", "frames/%05d.png", Format::Frames),
        ("apng", "walk.png", Format::Apng),
        (
            "gif_palette_per_frame",
            "walk.gif",
            Format::Gif(GifPalette::Frame),
        ),
    ];
    for (name, file, format) in cases {
        let mut out = recorder(&dir, file, format);
        group.bench_function(name, |b| {
            b.iter(|| {
                let pixels = walk.next();
                out.push(&pixels).expect("the frame is written");
            })
        });
    }
    group.finish();
    std::fs::remove_dir_all(&dir).ok();
}

criterion_group!(benches, record);
criterion_main!(benches);
