//! One frame drawn without a window: a `FrameRequest` (the pose request, a camera, how to draw) is
//! posed, framed, drawn offscreen and read back as sRGB RGBA8 pixels.

use std::sync::Arc;

use glam::Vec3;

use super::{capacity, extract, extract_crowd, rest_bounds};
use crate::character::Character;
use crate::debug::colors::{self, ColorView, Legend};
use crate::environment::EnvironmentImage;
use crate::pose::{CharacterPose, Crowd, CrowdLod, PaletteMode, PoseRequest, motion_bounds};
use crate::render::camera::Camera;
use crate::render::environment::EnvironmentMaps;
use crate::render::gpu::Gpu;
use crate::render::offscreen::{COLOR_FORMAT, Offscreen};
use crate::render::renderer::{DrawOptions, FrameInput, Renderer, View};

/// Where the camera is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CameraSpec {
    /// Frame the character's whole motion, from a three-quarter view.
    Auto { fov_y_degrees: f32 },
    /// The file's camera `k` (`Character::cameras`), posed with the character.
    File(usize),
    /// An explicit camera; `None` planes are chosen from the character's size.
    Explicit {
        eye: Vec3,
        target: Option<Vec3>,
        fov_y_degrees: f32,
        near: Option<f32>,
        far: Option<f32>,
    },
}

/// One headless frame: which pose, seen how, drawn how.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameRequest {
    pub size: (u32, u32),
    /// What to pose (clip times wrap by the clip's duration).
    pub pose: PoseRequest,
    /// Debug colours instead of materials; `Displacement` compares with `compare`.
    pub color_view: ColorView,
    /// Where the displacement views' heat scale turns red.
    pub color_range: crate::debug::colors::HeatRange,
    pub compare: PaletteMode,
    /// Compare with the same frame from the other clips (raw or compressed, the opposite of
    /// `pose.compressed`) instead of under `compare`.
    pub compare_clips: bool,
    /// Draw this many copies on a grid, each at its own phase and blend of the request's clip
    /// and its blend's clip (instanced from one palette buffer).
    pub crowd: Option<usize>,
    /// Pose the crowd's far members every 2nd, 4th or 8th frame of a sequence (`CrowdLod`, from
    /// the camera), held between.
    pub crowd_lod: bool,
    pub camera: CameraSpec,
    pub options: DrawOptions,
    /// Draw the colouring's legend into the image (images at least `legend::MIN_IMAGE_SIDE`
    /// on each side).
    pub legend: bool,
    /// Direct delta mush's Ω, for `options.skinning` = `SkinningMethod::DeltaMush`.
    pub ddm: Option<std::sync::Arc<crate::deform::DdmData>>,
    /// The HDR environment that lights the frame (prefiltered when the first frame is drawn);
    /// `None`: the generated sky.
    pub environment: Option<Arc<EnvironmentImage>>,
    /// Lines drawn over the frame (a travelling character's trail, motion matching's
    /// trajectories: `draw::trail_lines`, `draw::matching_lines`; stage ghosts and motion
    /// paths: `draw::ghosts`).
    pub overlay: Vec<super::OverlayLine>,
    /// How the bones are drawn when `options.bones` shows them.
    pub bone_view: super::view::BoneView,
    /// A kept frame of a history, shown instead of `pose`'s (whose skin-side inputs it keeps).
    pub recorded: Option<Arc<crate::history::RecordedPose>>,
    /// Onion skins: each ghost's request and tint (`draw::onion`), drawn with the frame.
    pub ghosts: Vec<(PoseRequest, [f32; 4])>,
    /// Colours given per instance, primitive and vertex (linear RGBA), drawn instead of the
    /// materials and of `color_view` (`diff --image`'s heat map).
    pub vertex_colors: Option<Arc<Vec<Vec<Vec<glam::Vec4>>>>>,
}

impl Default for FrameRequest {
    fn default() -> Self {
        Self {
            size: (1280, 720),
            pose: PoseRequest::default(),
            color_view: ColorView::Material,
            color_range: Default::default(),
            compare: PaletteMode::Bind,
            compare_clips: false,
            crowd: None,
            crowd_lod: false,
            camera: CameraSpec::Auto {
                fov_y_degrees: 45.0,
            },
            options: Default::default(),
            legend: true,
            ddm: None,
            environment: None,
            overlay: Vec::new(),
            bone_view: Default::default(),
            recorded: None,
            ghosts: Vec::new(),
            vertex_colors: None,
        }
    }
}

/// Why a headless frame was not drawn.
#[derive(Debug, thiserror::Error)]
pub enum FrameError {
    #[error("size {0}x{1} is outside 1x1..8192x8192")]
    Size(u32, u32),
    #[error(transparent)]
    Pose(#[from] crate::anim::PoseError),
    #[error("the frame cannot be drawn: {0}")]
    NonFinite(String),
    #[error("no camera {camera} in {character}")]
    NoCamera { camera: usize, character: String },
    #[error("a crowd of {0} is outside 1..={MAX_CROWD}")]
    CrowdSize(usize),
    #[error(
        "a crowd of {members} copies of {character} does not fit this GPU's buffers; the largest it can draw is {most}"
    )]
    CrowdTooBig {
        members: usize,
        character: String,
        most: usize,
    },
    #[error("GPU validation error: {0}")]
    Validation(wgpu::Error),
    #[error(transparent)]
    Read(#[from] crate::render::gpu::GpuError),
    #[error(transparent)]
    SkinPass(#[from] crate::render::renderer::SkinPassError),
}

/// The largest crowd `render --crowd` accepts, whatever the GPU.
pub const MAX_CROWD: usize = 100_000;

/// Poses the character as asked and returns the camera that sees it.
pub fn pose_and_frame(
    character: &Character,
    pose: &mut CharacterPose,
    request: &FrameRequest,
) -> Result<Camera, FrameError> {
    pose_and_frame_with(character, pose, request, &mut MotionBounds::default())
}

/// The bounds of a request's whole motion (`motion_bounds`, which poses the clip at many times)
/// kept for the next frame of a sequence: they do not depend on the clip's time, so a request
/// that differs only in it reuses them.
#[derive(Default)]
pub struct MotionBounds {
    held: Option<(PoseRequest, Option<(Vec3, Vec3)>)>,
}

impl MotionBounds {
    fn of(&mut self, character: &Character, request: &PoseRequest) -> Option<(Vec3, Vec3)> {
        if let Some((held, bounds)) = &mut self.held {
            // The held request at this frame's clip time: equal when nothing else changed.
            if let (Some(h), Some(r)) = (&mut held.clip, &request.clip) {
                h.time_secs = r.time_secs;
            }
            if held == request {
                return *bounds;
            }
        }
        let bounds = motion_bounds(character, request);
        self.held = Some((request.clone(), bounds));
        bounds
    }
}

/// `pose_and_frame`, the motion's bounds kept in `bounds` from one frame to the next.
fn pose_and_frame_with(
    character: &Character,
    pose: &mut CharacterPose,
    request: &FrameRequest,
    bounds: &mut MotionBounds,
) -> Result<Camera, FrameError> {
    pose.evaluate(character, &request.pose)?;
    if let Some(recorded) = &request.recorded {
        pose.restore(character, recorded, &request.pose)?;
    }
    if let Some(why) = pose.non_finite(character) {
        return Err(FrameError::NonFinite(why));
    }
    // The vertices too, as `pose` checks them: a finite palette can still carry a vertex past
    // f32's range. Skinned on the CPU as the frame asks (its Ω with direct delta mush).
    let skinning = request.options.skinning;
    let vertices =
        crate::posed::PosedVertices::on_cpu_with(character, pose, skinning, request.ddm.as_deref())
            .with_drawn_normals(character);
    let (bad, all) = vertices.non_finite();
    if bad > 0 {
        return Err(FrameError::NonFinite(format!(
            "{bad} of {all} posed vertices are not finite"
        )));
    }
    if let CameraSpec::File(k) = request.camera {
        return super::view::file_camera(character, pose, k).ok_or_else(|| FrameError::NoCamera {
            camera: k,
            character: character.name.clone(),
        });
    }
    // Framed on the clip's whole motion, so frames at different times share one camera.
    let bounds = bounds
        .of(character, &request.pose)
        .unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)));
    Ok(camera_for(request, bounds))
}

/// The request's camera, framing `(min, max)` unless it is explicit (then only its missing
/// planes come from the bounds).
fn camera_for(request: &FrameRequest, (min, max): (Vec3, Vec3)) -> Camera {
    let aspect = request.size.0 as f32 / request.size.1.max(1) as f32;
    match request.camera {
        CameraSpec::Auto { fov_y_degrees } => Camera::framing(min, max, fov_y_degrees, aspect),
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
            Camera::look_at(
                eye,
                target,
                fov_y_degrees,
                near.unwrap_or(((distance - 2.0 * radius).max(distance * 0.01)).max(1e-4)),
                far.unwrap_or(distance + 4.0 * radius),
            )
        }
        // Placed by `pose_and_frame`, which has the posed camera node.
        CameraSpec::File(_) => Camera::framing(min, max, 45.0, aspect),
    }
}

/// Renders one frame of `character` offscreen and returns its sRGB RGBA8 pixels.
pub fn render_frame(
    gpu: &Gpu,
    character: &Character,
    request: &FrameRequest,
) -> Result<Vec<u8>, FrameError> {
    render_frame_and_legend(gpu, character, request).map(|(pixels, _)| pixels)
}

/// `render_frame`, with the colouring's legend (drawn into the image when the request asks and
/// the image is large enough; `None` for materials and crowds).
pub fn render_frame_and_legend(
    gpu: &Gpu,
    character: &Character,
    request: &FrameRequest,
) -> Result<(Vec<u8>, Option<Legend>), FrameError> {
    Frames::new(character).render(gpu, character, request, 0.0)
}

/// Headless frames of one character kept across calls (a recorded sequence): one renderer, one
/// target and the poses, made at the first frame and reused by every later one.
pub struct Frames {
    held: HeldDraw,
    /// A crowd's members and its renderer, kept from frame to frame of a sequence.
    crowd: Option<HeldCrowd>,
    pose: CharacterPose,
    compare: CharacterPose,
    bones: Vec<crate::render::lines::LineVertex>,
    bounds: MotionBounds,
    /// The onion skins' poses and the copies laid from them.
    ghost_poses: Vec<CharacterPose>,
    onion: super::onion::OnionFrames,
}

/// One posed frame to draw: seen by `camera`, drawn as `options` say, with these bone lines,
/// vertex colours (the debug views) and legend.
pub struct Drawn<'a> {
    pub camera: &'a Camera,
    pub size: (u32, u32),
    pub options: &'a DrawOptions,
    pub bones: &'a [crate::render::lines::LineVertex],
    pub colors: Option<&'a [Vec<Vec<glam::Vec4>>]>,
    pub legend: Option<&'a Legend>,
    /// Direct delta mush's Ω (packed and uploaded again only when it is another one).
    pub ddm: Option<&'a Arc<crate::deform::DdmData>>,
    /// The HDR environment that lights it (`None`: the generated sky).
    pub environment: Option<&'a Arc<EnvironmentImage>>,
    /// Where the character stands (its placement): the grid is laid around its rest bounds
    /// moved there, so a travelling character stays on the grid.
    pub stands_at: Vec3,
}

impl Frames {
    pub fn new(character: &Character) -> Self {
        Self {
            held: HeldDraw::default(),
            crowd: None,
            pose: CharacterPose::new(character),
            compare: CharacterPose::new(character),
            bones: Vec::new(),
            bounds: MotionBounds::default(),
            ghost_poses: Vec::new(),
            onion: Default::default(),
        }
    }

    /// Poses `request` and draws it, the camera orbited `turn_degrees` about the vertical
    /// through what it looks at (a turntable); returns the pixels and the colouring's legend.
    pub fn render(
        &mut self,
        gpu: &Gpu,
        character: &Character,
        request: &FrameRequest,
        turn_degrees: f32,
    ) -> Result<(Vec<u8>, Option<Legend>), FrameError> {
        let (w, h) = request.size;
        if w == 0 || h == 0 || w > 8192 || h > 8192 {
            return Err(FrameError::Size(w, h));
        }
        if let Some(members) = request.crowd {
            let held = &mut self.crowd;
            return render_crowd(gpu, character, request, (members, held), turn_degrees)
                .map(|p| (p, None));
        }
        let camera = pose_and_frame_with(character, &mut self.pose, request, &mut self.bounds)?;
        let camera = turned(camera, turn_degrees);
        let pose = &self.pose;
        let mut options = request.options;
        // The ground the feet are planted on (`--ground`), as the viewer draws it.
        let ground = request.pose.feet.as_ref().map(|feet| {
            options.bones = true;
            super::ground_lines(&feet.ground, crate::pose::character_height(character))
        });
        if !request.overlay.is_empty() {
            options.bones = true;
        }
        super::view::overlay_lines(
            character,
            pose,
            request.options.bones.then_some(request.bone_view),
            None,
            super::view::bone_width(rest_bounds(character)),
            ground
                .into_iter()
                .flatten()
                .chain(request.overlay.iter().copied()),
            &mut self.bones,
        );
        let mut colors = None;
        let mut legend = None;
        if let Some(given) = &request.vertex_colors {
            colors = Some(given.as_ref().clone());
            options.vertex_colors = true;
        } else if request.color_view != ColorView::Material {
            let with = if request.compare_clips {
                super::view::CompareWith::OtherClips
            } else {
                super::view::CompareWith::Palette(request.compare)
            };
            let compare = &mut self.compare;
            super::view::pose_compared(character, &request.pose, pose, with, compare)?;
            colors = Some(colors::vertex_colors_in(
                character,
                request.color_view,
                pose,
                Some(compare),
                None,
                request.color_range,
            ));
            options.vertex_colors = true;
            let compared = if request.compare_clips {
                if request.pose.compressed {
                    "the raw clips".to_string()
                } else {
                    "the compressed clips".to_string()
                }
            } else {
                format!("the {} palette", request.compare.name())
            };
            let extent =
                colors::displacement_extent(character, request.color_view, pose, Some(compare));
            legend = colors::legend_in(
                character,
                request.color_view,
                (None, &compared),
                extent,
                request.color_range,
            );
        }
        let drawn_legend = legend
            .as_ref()
            .filter(|_| request.legend && w.min(h) >= super::legend::MIN_IMAGE_SIDE);
        let onion = if request.ghosts.is_empty() {
            None
        } else {
            let n = request.ghosts.len();
            self.ghost_poses.truncate(n);
            while self.ghost_poses.len() < n {
                self.ghost_poses.push(CharacterPose::new(character));
            }
            for (ghost, (r, _)) in self.ghost_poses.iter_mut().zip(&request.ghosts) {
                ghost.evaluate(character, r)?;
                if let Some(why) = ghost.non_finite(character) {
                    return Err(FrameError::NonFinite(why));
                }
            }
            let tints = request.ghosts.iter().map(|(_, t)| *t);
            self.onion
                .lay(&self.pose, self.ghost_poses.iter().zip(tints));
            Some(&self.onion)
        };
        let drawn = Drawn {
            camera: &camera,
            size: request.size,
            options: &options,
            bones: &self.bones,
            colors: colors.as_deref(),
            legend: drawn_legend,
            ddm: request.ddm.as_ref(),
            environment: request.environment.as_ref(),
            stands_at: request.pose.placement.position,
        };
        draw_posed(&mut self.held, gpu, character, (pose, onion), &drawn)
            .map(|pixels| (pixels, legend))
    }

    /// Draws a pose already evaluated (the window's, for its "Record...") and reads it back.
    pub fn draw(
        &mut self,
        gpu: &Gpu,
        character: &Character,
        pose: &CharacterPose,
        drawn: &Drawn<'_>,
    ) -> Result<Vec<u8>, FrameError> {
        draw_posed(&mut self.held, gpu, character, (pose, None), drawn)
    }
}

/// What a sequence of single-character frames keeps from frame to frame: the renderer and
/// the target (made at the first frame, the target again when the size changes), the
/// environment the renderer is lit by (`None`: the generated sky), the deformers it holds and
/// the extract's values.
#[derive(Default)]
struct HeldDraw {
    renderer: Option<Renderer>,
    target: Option<Offscreen>,
    lit: Option<Arc<EnvironmentImage>>,
    deformers: super::deformers::Deformers,
    values: Vec<[f32; 4]>,
}

/// `Frames::draw` on what `held` keeps: `pose`, and its onion skins laid with it when given.
fn draw_posed(
    held: &mut HeldDraw,
    gpu: &Gpu,
    character: &Character,
    (pose, onion): (&CharacterPose, Option<&super::onion::OnionFrames>),
    drawn: &Drawn<'_>,
) -> Result<Vec<u8>, FrameError> {
    let (w, h) = drawn.size;
    if w == 0 || h == 0 || w > 8192 || h > 8192 {
        return Err(FrameError::Size(w, h));
    }
    let HeldDraw {
        renderer,
        target,
        lit,
        deformers,
        values,
    } = held;
    if target.as_ref().is_some_and(|t| t.size != drawn.size) {
        *target = None;
    }
    let target = target.get_or_insert_with(|| {
        Offscreen::with_formats(
            &gpu.device,
            drawn.size,
            COLOR_FORMAT,
            &[crate::draw::ui_overlay::UI_FORMAT],
        )
    });
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let copies = onion.map_or(1, super::onion::OnionFrames::copies);
    if renderer
        .as_ref()
        .is_some_and(|r| r.capacity().copies != copies)
    {
        *renderer = None;
    }
    let posed = match onion {
        Some(onion) => onion.posed(pose),
        None => extract(pose, values),
    };
    let frame = FrameInput {
        posed,
        camera: drawn.camera,
        aspect: w as f32 / h as f32,
        bones: drawn.bones,
        options: drawn.options,
    };
    let renderer = renderer.get_or_insert_with(|| {
        *lit = None;
        made(gpu, character, copies)
    });
    relight(gpu, renderer, lit, drawn.environment);
    let words = deformers.hold(character, super::deformers::assets_of(pose, drawn.ddm));
    renderer.set_deformers(&gpu.device, &gpu.queue, words);
    let (lo, hi) = rest_bounds(character);
    let moved = drawn.stands_at.with_y(0.0);
    renderer.lay_grid(&gpu.device, (lo + moved, hi + moved));
    renderer.fit_lines(&gpu.device, drawn.bones.len());
    renderer.prepare(View::Main, &gpu.queue, &frame);
    if let Some(colors) = drawn.colors {
        renderer.set_vertex_colors(&gpu.queue, colors);
    }
    paint_and_read(gpu, renderer, target, scope, drawn.options, drawn.legend)
}

/// `camera` orbited `degrees` about the scene's vertical (+Y) through its target.
pub fn turned(camera: Camera, degrees: f32) -> Camera {
    if degrees == 0.0 {
        return camera;
    }
    let turn = glam::Quat::from_rotation_y(degrees.to_radians());
    Camera {
        eye: camera.target + turn * (camera.eye - camera.target),
        ..camera
    }
}

/// A renderer for `copies` of the character.
fn made(gpu: &Gpu, character: &Character, copies: usize) -> Renderer {
    Renderer::with_cache(
        &gpu.cache,
        &gpu.device,
        &gpu.queue,
        character,
        COLOR_FORMAT,
        capacity(character, copies),
    )
}

/// A renderer for one copy of the frame's character, with the frame prepared in its main view.
fn prepared(gpu: &Gpu, character: &Character, frame: &FrameInput<'_>) -> Renderer {
    let mut renderer = made(gpu, character, 1);
    renderer.prepare(View::Main, &gpu.queue, frame);
    renderer
}

/// Lights `renderer` with `wanted` (prefiltered here) unless `lit`, what it is lit by, is
/// already that image.
fn relight(
    gpu: &Gpu,
    renderer: &mut Renderer,
    lit: &mut Option<Arc<EnvironmentImage>>,
    wanted: Option<&Arc<EnvironmentImage>>,
) {
    let same = match (lit.as_ref(), wanted) {
        (None, None) => true,
        (Some(a), Some(b)) => Arc::ptr_eq(a, b),
        _ => false,
    };
    if same {
        return;
    }
    let maps = match wanted {
        Some(image) => EnvironmentMaps::prefilter(&gpu.device, &gpu.queue, image),
        None => EnvironmentMaps::placeholder(&gpu.device),
    };
    renderer.set_environment(&gpu.device, Arc::new(maps));
    *lit = wanted.cloned();
}

/// Records `renderer`'s main view (prepared before) into `target` with `options`, in one
/// encoder, and submits it.
pub fn paint_main(
    gpu: &Gpu,
    renderer: &mut Renderer,
    target: &Offscreen,
    options: &DrawOptions,
) -> crate::render::renderer::Painted {
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let painted = renderer.paint(
        View::Main,
        &gpu.device,
        &mut encoder,
        &target.view,
        target.size,
        options,
    );
    gpu.queue.submit([encoder.finish()]);
    painted
}

/// Paints what `prepare` wrote into `target`, checks the validation scope opened before, and
/// reads the pixels back.
fn paint_and_read(
    gpu: &Gpu,
    renderer: &mut Renderer,
    target: &Offscreen,
    scope: wgpu::ErrorScopeGuard,
    options: &DrawOptions,
    legend: Option<&Legend>,
) -> Result<Vec<u8>, FrameError> {
    paint_main(gpu, renderer, target, options);
    if let Some(legend) = legend {
        let ctx = egui::Context::default();
        let output = super::legend::frame_with(&ctx, legend, target.size);
        crate::draw::ui_overlay::paint(&gpu.device, &gpu.queue, target, &ctx, output);
    }
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(FrameError::Validation(error));
    }
    Ok(target.read_rgba(&gpu.device, &gpu.queue)?)
}

/// A sequence's crowd: its members (posed from frame to frame, so level of detail holds and
/// events count across frames), its renderer and target, and the environment it is lit by.
struct HeldCrowd {
    crowd: Crowd,
    clips: (usize, usize),
    renderer: Renderer,
    target: Offscreen,
    lit: Option<Arc<EnvironmentImage>>,
}

/// A crowd of `members` copies: posed in parallel (with level of detail when the request asks),
/// drawn instanced, timed (logged at info level); kept in `held` for the next frame.
fn render_crowd(
    gpu: &Gpu,
    character: &Character,
    request: &FrameRequest,
    (members, held): (usize, &mut Option<HeldCrowd>),
    turn_degrees: f32,
) -> Result<Vec<u8>, FrameError> {
    if members == 0 || members > MAX_CROWD {
        return Err(FrameError::CrowdSize(members));
    }
    let most = super::crowd_limit(&gpu.device.limits(), character);
    if members > most {
        return Err(FrameError::CrowdTooBig {
            members,
            character: character.name.clone(),
            most,
        });
    }
    let a = request.pose.clip.map_or(0, |c| c.clip);
    let b = request.pose.blend.map_or(a, |blend| blend.b);
    let time_secs = request.pose.clip.map_or(0.0, |c| c.time_secs);
    let one = rest_bounds(character);
    if held.as_ref().is_none_or(|h| {
        h.crowd.len() != members || h.clips != (a, b) || h.target.size != request.size
    }) {
        let spacing = super::crowd_spacing(character, (a, b));
        *held = Some(HeldCrowd {
            crowd: Crowd::new(character, members, (a, b), spacing),
            clips: (a, b),
            renderer: made(gpu, character, members),
            target: Offscreen::new(&gpu.device, request.size),
            lit: None,
        });
    }
    let Some(HeldCrowd {
        crowd,
        renderer,
        target,
        lit,
        ..
    }) = held.as_mut()
    else {
        return Err(FrameError::CrowdSize(members));
    };
    let camera = match request.camera {
        CameraSpec::Auto { .. } => camera_for(request, crowd.bounds(one)),
        CameraSpec::Explicit { .. } | CameraSpec::File(_) => {
            let mut unused = CharacterPose::new(character);
            pose_and_frame(character, &mut unused, request)?
        }
    };
    let camera = turned(camera, turn_degrees);
    crowd.compressed = request.pose.compressed;
    let start = std::time::Instant::now();
    if request.crowd_lod {
        let lod = CrowdLod::for_height(crate::pose::character_height(character));
        crowd.update_lod(character, time_secs, camera.eye, lod);
    } else {
        crowd.update(character, time_secs);
    }
    let pose_ms = start.elapsed().as_secs_f64() * 1000.0;
    relight(gpu, renderer, lit, request.environment.as_ref());
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let start = std::time::Instant::now();
    let options = DrawOptions {
        bones: false,
        mesh_passes: u32::from(request.options.mesh) + u32::from(request.options.wireframe),
        adapter: gpu.adapter_kind(),
        ..request.options
    };
    let uploaded = renderer.prepare(
        View::Main,
        &gpu.queue,
        &FrameInput {
            posed: extract_crowd(crowd),
            camera: &camera,
            aspect: request.size.0 as f32 / request.size.1.max(1) as f32,
            bones: &[],
            options: &options,
        },
    );
    let pixels = paint_and_read(gpu, renderer, target, scope, &options, None)?;
    log::info!(
        "crowd of {members}: pose {pose_ms:.2} ms, upload {} bytes, GPU frame and read-back {:.1} ms",
        uploaded.palette_bytes,
        start.elapsed().as_secs_f64() * 1000.0
    );
    Ok(pixels)
}

/// Fraction of pixels (any channel off by more than 2) that differ between the rest-pose (bind)
/// and identity-palette renders of a character, both seen by one camera framed on the rest pose.
/// Nearly 0 when the file's inverse binds match its vertex data.
pub fn bind_identity_difference(
    gpu: &Gpu,
    character: &Character,
    size: u32,
) -> Result<f64, FrameError> {
    let (min, max) = rest_bounds(character);
    let camera = Camera::framing(min, max, 40.0, 1.0);
    let request = |palette| FrameRequest {
        size: (size, size),
        pose: PoseRequest::rest(palette),
        camera: CameraSpec::Explicit {
            eye: camera.eye,
            target: Some(camera.target),
            fov_y_degrees: camera.fov_y_degrees,
            near: Some(camera.near),
            far: Some(camera.far),
        },
        ..Default::default()
    };
    let a = render_frame(gpu, character, &request(PaletteMode::Bind))?;
    let b = render_frame(gpu, character, &request(PaletteMode::Identity))?;
    let differing = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
        .count();
    Ok(differing as f64 / (a.len() / 4).max(1) as f64)
}

/// The posed character's vertices as the GPU's skin pass computes them (the same pass every
/// draw reads when the skin pass is on), read back and placed in the world: what
/// `--skin-on gpu` exports and checks.
pub fn skin_on_gpu(
    gpu: &Gpu,
    character: &Character,
    pose: &CharacterPose,
    skinning: crate::anim::SkinningMethod,
) -> Result<crate::posed::PosedVertices, FrameError> {
    skin_on_gpu_with(gpu, character, pose, skinning, None)
}

/// `skin_on_gpu`, with direct delta mush's Ω for `SkinningMethod::DeltaMush`.
pub fn skin_on_gpu_with(
    gpu: &Gpu,
    character: &Character,
    pose: &CharacterPose,
    skinning: crate::anim::SkinningMethod,
    ddm: Option<&Arc<crate::deform::DdmData>>,
) -> Result<crate::posed::PosedVertices, FrameError> {
    let options = DrawOptions {
        skinning,
        ..Default::default()
    };
    let scope = gpu.device.push_error_scope(wgpu::ErrorFilter::Validation);
    // The camera plays no part in skinning.
    let mut values = Vec::new();
    let frame = FrameInput {
        posed: extract(pose, &mut values),
        camera: &Camera::framing(Vec3::splat(-1.0), Vec3::ONE, 45.0, 1.0),
        aspect: 1.0,
        bones: &[],
        options: &options,
    };
    let mut renderer = prepared(gpu, character, &frame);
    let mut deformers = super::deformers::Deformers::default();
    let words = deformers.hold(character, super::deformers::assets_of(pose, ddm));
    renderer.set_deformers(&gpu.device, &gpu.queue, words);
    let skinned = renderer.read_skinned(View::Main, &gpu.device, &gpu.queue)?;
    if let Some(error) = pollster::block_on(scope.pop()) {
        return Err(FrameError::Validation(error));
    }
    Ok(super::world_vertices(&skinned, character, pose))
}
