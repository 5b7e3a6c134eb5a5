//! Poses the Fox for a given number of frames, for counting instructions under callgrind where
//! a shared machine's timings are too noisy to tell a few percent apart (`docs/performance.md`,
//! "Instruction counts"). The cases are `benches/pose.rs`'s: `single` (pose/fox_single),
//! `single_compressed` (the same from the Walk compressed at the Fox's own bound, as
//! stage/fox_walk_sample_compressed samples it), `blend` (pose/fox_blend), `crowd` (1,000
//! members at full rate, as pose/crowd1000_fox_blend)
//! and `lod` (crowd/fox100000_blend_2thread_lod: 100,000 with level of detail, after a first
//! update that poses them all).
//!
//! ```text
//! cargo build --release --example pose_instructions
//! RAYON_NUM_THREADS=1 valgrind --tool=callgrind target/release/examples/pose_instructions lod 8
//! ```
//! Two runs with different frame counts give the instructions a frame by their difference.

use std::hint::black_box;
use std::path::Path;

use glam::Vec3;
use skinscope::anim::wrap_time;
use skinscope::pose::{CharacterPose, Crowd, CrowdLod, PoseRequest};

const DT: f32 = 1.0 / 60.0;

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: pose_instructions single|single_compressed|blend|crowd|lod FRAMES";
    let (Some(case), Some(frames)) = (args.get(1), args.get(2)) else {
        return Err(usage.into());
    };
    let frames: usize = frames
        .parse()
        .map_err(|e| format!("FRAMES {frames:?}: {e}"))?;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gltf/Fox/Fox.glb");
    let mut fox = skinscope::import::load(&path).map_err(|e| e.to_string())?;
    if case == "single_compressed" {
        let settings = skinscope::pose::compression_settings(&fox, None);
        skinscope::pose::compress_clips(&mut fox, &settings);
    }
    let clip = |name: &str| fox.clips.iter().position(|k| k.clip.name() == name);
    let (Some(survey), Some(walk)) = (clip("Survey"), clip("Walk")) else {
        return Err("Fox.glb has no Survey and Walk clips".into());
    };
    let mut pose = CharacterPose::new(&fox);
    let mut clock = 0.0;
    match case.as_str() {
        "single" | "single_compressed" => {
            let compressed = case == "single_compressed";
            for _ in 0..frames {
                clock = wrap_time(clock + DT, fox.clips[walk].duration_secs());
                let request =
                    PoseRequest::at(Some(walk), black_box(clock)).with_compressed(compressed);
                pose.evaluate(&fox, &request).map_err(|e| e.to_string())?;
            }
        }
        "blend" => {
            for _ in 0..frames {
                clock = wrap_time(clock + DT, 1.0);
                let ta = clock * fox.clips[survey].duration_secs();
                let request = PoseRequest::clip(survey, black_box(ta)).with_blend(walk, 0.5);
                pose.evaluate(&fox, &request).map_err(|e| e.to_string())?;
            }
        }
        "crowd" => {
            let mut crowd = Crowd::new(&fox, 1000, (survey, walk), 2.0);
            for _ in 0..frames {
                clock += DT;
                crowd.update(&fox, black_box(clock));
            }
        }
        "lod" => {
            // The bench's view: from the middle of one edge of the grid at a Fox's height.
            let spacing = skinscope::draw::crowd_spacing(&fox, (survey, walk));
            let mut crowd = Crowd::new(&fox, 100_000, (survey, walk), spacing);
            let height = skinscope::pose::character_height(&fox);
            let (lo, _) = crowd.bounds((Vec3::ZERO, Vec3::ZERO));
            let eye = Vec3::new(0.0, height, lo.z - 2.0 * spacing);
            let lod = CrowdLod::for_height(height);
            crowd.update_lod(&fox, clock, eye, lod);
            for _ in 0..frames {
                clock += DT;
                crowd.update_lod(&fox, black_box(clock), eye, lod);
            }
        }
        _ => return Err(usage.into()),
    }
    Ok(())
}
