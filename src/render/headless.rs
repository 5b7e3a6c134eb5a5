//! Rendering without a window: into an offscreen texture, read back, written as PNG.

use std::path::Path;

use super::gpu::{Gpu, GpuError};
use super::renderer::{FrameInput, Posed};

/// The offscreen colour format: 8-bit sRGB, what PNG stores.
pub const COLOR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// An offscreen colour target that can be copied back to the CPU.
pub struct Offscreen {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub size: (u32, u32),
}

impl Offscreen {
    /// An sRGB RGBA8 target.
    pub fn new(device: &wgpu::Device, size: (u32, u32)) -> Self {
        Self::with_format(device, size, COLOR_FORMAT)
    }

    /// A target of `format` (RGBA8 or BGRA8, sRGB or not), e.g. a window surface's.
    pub fn with_format(
        device: &wgpu::Device,
        size: (u32, u32),
        format: wgpu::TextureFormat,
    ) -> Self {
        Self::with_formats(device, size, format, &[])
    }

    /// A target of `format` that can also be viewed as `view_formats` (its sRGB twin, say).
    pub fn with_formats(
        device: &wgpu::Device,
        size: (u32, u32),
        format: wgpu::TextureFormat,
        view_formats: &[wgpu::TextureFormat],
    ) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen"),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats,
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self {
            texture,
            view,
            size,
        }
    }

    /// Copies the texture back as tightly packed RGBA8 rows (the GPU copy pads rows to 256 bytes;
    /// BGRA targets are swizzled).
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<u8>, GpuError> {
        let (width, height) = self.size;
        let row = 4 * width;
        let padded =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen readback"),
            size: (padded * height) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(height),
                },
            },
            wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
        );
        queue.submit([encoder.finish()]);
        let bytes = super::gpu::read_buffer(device, queue, &buffer, (padded * height) as u64)?;
        let mut rgba: Vec<u8> = bytes
            .chunks_exact(padded as usize)
            .flat_map(|r| &r[..row as usize])
            .copied()
            .collect();
        let format = self.texture.format();
        if matches!(
            format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        ) {
            for p in rgba.chunks_exact_mut(4) {
                p.swap(0, 2);
            }
        }
        Ok(rgba)
    }
}

/// Writes tightly packed sRGB RGBA8 pixels as a PNG.
pub fn write_png(path: &Path, size: (u32, u32), rgba: &[u8]) -> Result<(), String> {
    image::save_buffer(path, rgba, size.0, size.1, image::ExtendedColorType::Rgba8)
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Where the camera is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CameraSpec {
    /// Frame the posed character's bounds, from the front.
    Auto { fov_y_degrees: f32 },
    /// An explicit camera; `None` planes are chosen from the character's size.
    Explicit {
        eye: glam::Vec3,
        target: Option<glam::Vec3>,
        fov_y_degrees: f32,
        near: Option<f32>,
        far: Option<f32>,
    },
}

/// One headless frame: which pose, seen how, drawn how.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRequest {
    pub size: (u32, u32),
    /// Clip index; `None` is the rest pose.
    pub clip: Option<usize>,
    /// Clip time; wrapped into the clip (looping).
    pub time_secs: f32,
    pub blend: Option<crate::posing::BlendSpec>,
    pub palette: crate::posing::PaletteMode,
    /// Debug colours instead of materials; `Displacement` compares with `compare`.
    pub color_view: crate::debug_views::ColorView,
    pub compare: crate::posing::PaletteMode,
    /// Draw this many copies on a grid, each at its own phase and blend of `clip` and
    /// `blend.b` (instanced from one palette buffer).
    pub crowd: Option<usize>,
    pub camera: CameraSpec,
    pub options: super::renderer::DrawOptions,
}

impl Default for FrameRequest {
    fn default() -> Self {
        Self {
            size: (1280, 720),
            clip: None,
            time_secs: 0.0,
            blend: None,
            palette: crate::posing::PaletteMode::Animated,
            color_view: crate::debug_views::ColorView::Material,
            compare: crate::posing::PaletteMode::Bind,
            crowd: None,
            camera: CameraSpec::Auto {
                fov_y_degrees: 45.0,
            },
            options: Default::default(),
        }
    }
}

/// Poses the character as asked and returns the camera that sees it.
pub fn pose_and_frame(
    character: &crate::character::Character,
    pose: &mut crate::posing::CharacterPose,
    request: &FrameRequest,
) -> Result<super::camera::Camera, String> {
    let duration = request
        .clip
        .and_then(|c| character.clips.get(c))
        .map_or(0.0, |c| c.clip.duration_secs());
    let time = crate::anim::wrap_time(request.time_secs, duration);
    pose.sample(character, request.clip, time, request.blend)
        .map_err(|e| e.to_string())?;
    pose.update(character, request.palette)
        .map_err(|e| e.to_string())?;
    let (min, max) = pose
        .world_bounds(character)
        .unwrap_or((glam::Vec3::splat(-1.0), glam::Vec3::splat(1.0)));
    let aspect = request.size.0 as f32 / request.size.1.max(1) as f32;
    Ok(match request.camera {
        CameraSpec::Auto { fov_y_degrees } => {
            super::camera::Camera::framing(min, max, fov_y_degrees, aspect)
        }
        CameraSpec::Explicit {
            eye,
            target,
            fov_y_degrees,
            near,
            far,
        } => {
            let center = (min + max) * 0.5;
            let radius = ((max - min).length() * 0.5).max(1e-3);
            let target = target.unwrap_or(center);
            let distance = eye.distance(center);
            super::camera::Camera {
                eye,
                target,
                fov_y_degrees,
                near: near.unwrap_or(((distance - 2.0 * radius).max(distance * 0.01)).max(1e-4)),
                far: far.unwrap_or(distance + 4.0 * radius),
            }
        }
    })
}

/// Renders one frame of `character` offscreen and returns its sRGB RGBA8 pixels.
pub fn render_frame(
    gpu: &Gpu,
    character: &crate::character::Character,
    request: &FrameRequest,
) -> Result<Vec<u8>, String> {
    let (w, h) = request.size;
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        return Err(format!("size {w}x{h} is outside 1x1..8192x8192"));
    }
    if let Some(members) = request.crowd {
        return render_crowd(gpu, character, request, members);
    }
    let mut pose = crate::posing::CharacterPose::new(character);
    let camera = pose_and_frame(character, &mut pose, request)?;
    let mut renderer =
        super::renderer::Renderer::new(&gpu.device, &gpu.queue, character, COLOR_FORMAT);
    let bones = if request.options.bones {
        let (min, max) = pose.world_bounds(character).unwrap_or_default();
        super::renderer::bone_lines(character, &pose, (max - min).length() * 0.01)
    } else {
        Vec::new()
    };
    let mut options = request.options;
    if request.color_view != crate::debug_views::ColorView::Material {
        let mut compare = crate::posing::CharacterPose::new(character);
        compare.local.clone_from(&pose.local);
        compare
            .update(character, request.compare)
            .map_err(|e| e.to_string())?;
        let colors = crate::debug_views::vertex_colors(
            character,
            request.color_view,
            &pose,
            Some(&compare),
            None,
        );
        renderer.set_vertex_colors(&gpu.queue, character, &colors);
        options.vertex_colors = true;
    }
    let target = Offscreen::new(&gpu.device, request.size);
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    renderer.prepare(
        &gpu.queue,
        &FrameInput {
            character,
            posed: Posed::One(&pose),
            camera: &camera,
            aspect: w as f32 / h as f32,
            bones: &bones,
            options: &options,
        },
    );
    paint_and_read(gpu, &mut renderer, &target, scope, &options)
}

/// Paints what `prepare` wrote into `target`, checks the validation scope opened before, and
/// reads the pixels back.
fn paint_and_read(
    gpu: &Gpu,
    renderer: &mut super::renderer::Renderer,
    target: &Offscreen,
    scope: wgpu::ErrorScopeGuard,
    options: &super::renderer::DrawOptions,
) -> Result<Vec<u8>, String> {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    renderer.paint(
        &gpu.device,
        &mut encoder,
        &target.view,
        target.size,
        options,
    );
    gpu.queue.submit([encoder.finish()]);
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(format!("GPU validation error: {error}"));
    }
    target
        .read_rgba(&gpu.device, &gpu.queue)
        .map_err(|e| e.to_string())
}

/// A crowd of `members` copies: posed in parallel, drawn instanced, timed (logged at info level).
fn render_crowd(
    gpu: &Gpu,
    character: &crate::character::Character,
    request: &FrameRequest,
    members: usize,
) -> Result<Vec<u8>, String> {
    if members == 0 || members > 100_000 {
        return Err(format!("a crowd of {members} is outside 1..=100000"));
    }
    let (w, h) = request.size;
    let a = request.clip.unwrap_or(0);
    let b = request.blend.map_or(a, |blend| blend.b);
    let mut rest = crate::posing::CharacterPose::new(character);
    rest.update(character, crate::posing::PaletteMode::Bind)
        .map_err(|e| e.to_string())?;
    let one = rest
        .world_bounds(character)
        .unwrap_or((glam::Vec3::splat(-1.0), glam::Vec3::splat(1.0)));
    let footprint = (one.1 - one.0).max_element().max(1e-3);
    let mut crowd = crate::crowd::Crowd::new(character, members, (a, b), footprint * 1.2);
    let start = std::time::Instant::now();
    crowd.update(character, request.time_secs);
    let pose_ms = start.elapsed().as_secs_f64() * 1000.0;
    let (min, max) = crowd.bounds(one);
    let aspect = w as f32 / h.max(1) as f32;
    let camera = match request.camera {
        CameraSpec::Auto { fov_y_degrees } => {
            super::camera::Camera::framing(min, max, fov_y_degrees, aspect)
        }
        CameraSpec::Explicit { .. } => {
            let mut unused = crate::posing::CharacterPose::new(character);
            pose_and_frame(character, &mut unused, request)?
        }
    };
    let mut renderer = super::renderer::Renderer::with_members(
        &gpu.device,
        &gpu.queue,
        character,
        COLOR_FORMAT,
        members,
    );
    let target = Offscreen::new(&gpu.device, request.size);
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let start = std::time::Instant::now();
    let options = super::renderer::DrawOptions {
        bones: false,
        ..request.options
    };
    renderer.prepare(
        &gpu.queue,
        &FrameInput {
            character,
            posed: Posed::Crowd(&crowd),
            camera: &camera,
            aspect,
            bones: &[],
            options: &options,
        },
    );
    let pixels = paint_and_read(gpu, &mut renderer, &target, scope, &options)?;
    log::info!(
        "crowd of {members}: pose {pose_ms:.2} ms, upload {} bytes, GPU frame and read-back {:.1} ms",
        renderer.palette_bytes_uploaded,
        start.elapsed().as_secs_f64() * 1000.0
    );
    Ok(pixels)
}

/// Fraction of pixels (any channel off by more than 2) that differ between the rest-pose (bind)
/// and identity-palette renders of a character, both seen by one camera framed on the rest pose.
/// Nearly 0 when the file's inverse binds match its vertex data.
pub fn bind_identity_difference(
    gpu: &Gpu,
    character: &crate::character::Character,
    size: u32,
) -> Result<f64, String> {
    let mut pose = crate::posing::CharacterPose::new(character);
    pose.update(character, crate::posing::PaletteMode::Bind)
        .map_err(|e| e.to_string())?;
    let (min, max) = pose
        .world_bounds(character)
        .unwrap_or((glam::Vec3::splat(-1.0), glam::Vec3::splat(1.0)));
    let camera = super::camera::Camera::framing(min, max, 40.0, 1.0);
    let request = |palette| FrameRequest {
        size: (size, size),
        palette,
        camera: CameraSpec::Explicit {
            eye: camera.eye,
            target: Some(camera.target),
            fov_y_degrees: camera.fov_y_degrees,
            near: Some(camera.near),
            far: Some(camera.far),
        },
        ..Default::default()
    };
    let a = render_frame(gpu, character, &request(crate::posing::PaletteMode::Bind))?;
    let b = render_frame(
        gpu,
        character,
        &request(crate::posing::PaletteMode::Identity),
    )?;
    let differing = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
        .count();
    Ok(differing as f64 / (a.len() / 4).max(1) as f64)
}
