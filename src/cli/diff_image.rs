//! `diff --image`: B drawn at the worst frame (the largest vertex displacement from A), each
//! vertex coloured by how far it moved: blue still, through green and yellow, red at the
//! largest displacement; grey for the mesh nodes not compared.

use std::path::Path;
use std::sync::Arc;

use glam::Vec4;
use skinscope::character::Character;
use skinscope::debug::colors::heat;
use skinscope::debug::diff::{self, DiffReport};
use skinscope::draw::headless::{self, FrameRequest};
use skinscope::pose::PoseRequest;
use skinscope::render::gpu::Gpu;

/// The size of the heat map image.
const SIZE: (u32, u32) = (1280, 720);

pub fn write(a: &Character, b: &Character, report: &DiffReport, path: &Path) -> Result<(), String> {
    let worst = report.worst.clone().unwrap_or(diff::Deformation {
        clip: None,
        time: 0.0,
        mesh: String::new(),
        vertex: 0,
        displacement: 0.0,
        relative: 0.0,
    });
    let moved = diff::displacements(a, b, &worst)?;
    let red = worst.displacement.max(f32::MIN_POSITIVE);
    let colors: Vec<Vec<Vec<Vec4>>> = (b.instances.iter().enumerate())
        .map(|(j, instance)| match &moved[j] {
            Some(per_primitive) => (per_primitive.iter())
                .map(|d| d.iter().map(|x| heat(x / red)).collect())
                .collect(),
            None => (b.meshes[instance.mesh].primitives.iter())
                .map(|p| vec![Vec4::new(0.35, 0.35, 0.35, 1.0); p.positions.len()])
                .collect(),
        })
        .collect();
    let pose = match &worst.clip {
        Some(name) => {
            let k = (b.clips.iter().position(|k| k.clip.name() == name))
                .ok_or_else(|| format!("{}: no clip {name:?}", b.name))?;
            PoseRequest::clip(k, worst.time)
        }
        None => PoseRequest::default(),
    };
    let request = FrameRequest {
        size: SIZE,
        pose,
        legend: false,
        vertex_colors: Some(Arc::new(colors)),
        ..FrameRequest::default()
    };
    let gpu = Gpu::headless().map_err(|e| format!("--image needs a GPU (or lavapipe): {e}"))?;
    let pixels = headless::render_frame(&gpu, b, &request).map_err(|e| e.to_string())?;
    skinscope::image_file::write_image(path, SIZE, &pixels).map_err(|e| e.to_string())
}
